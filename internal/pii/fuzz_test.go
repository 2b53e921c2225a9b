package pii_test

import (
	"context"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/babelqueue/bqgen/internal/model"
	"github.com/babelqueue/bqgen/internal/pii"
	"github.com/babelqueue/bqgen/registry"
)

// fuzzKeys are the property keys FuzzPaths draws from, beside the fuzzed one: plain
// keys and the ones the SDKs' path syntax reads otherwise (issue 20, item 3).
var fuzzKeys = []string{"a", "b", "", "a[]b", "a.b", "a[]", "[]", "x y", "é"}

// fuzzRegistry writes a registry of one message, whose data and two named types T0 and
// T1 are drawn from prog (a byte per decision; 0 once it is used up), with property
// keys from fuzzKeys and key.
type fuzzRegistry struct {
	prog  []byte
	keys  []string
	names int // Go names given so far (P1, P2, …): keys like "" and "a.b" derive none
}

func (g *fuzzRegistry) next() int {
	if len(g.prog) == 0 {
		return 0
	}
	b := g.prog[0]
	g.prog = g.prog[1:]
	return int(b)
}

// schema writes a field schema in YAML flow style: a string, an integer, an object, an
// array, a map or a use of T0/T1, marked (true or a category) or not.
func (g *fuzzRegistry) schema(depth int) string {
	op := g.next()
	var parts []string
	kind := op % 6
	if depth >= 5 && kind >= 1 && kind <= 3 {
		kind = 0
	}
	switch kind {
	case 0:
		parts = append(parts, "type: string")
	case 1:
		parts = append(parts, "type: object", "properties: "+g.properties(depth))
	case 2:
		parts = append(parts, "type: array", "items: "+g.schema(depth+1))
	case 3:
		parts = append(parts, "type: map", "values: "+g.schema(depth+1))
	case 4:
		parts = append(parts, "type: T"+strconv.Itoa(g.next()%2))
	case 5:
		parts = append(parts, "type: integer", "minimum: 0", "maximum: 9")
	}
	switch op / 6 % 4 {
	case 1:
		parts = append(parts, "x-gdpr-sensitive: true")
	case 2:
		parts = append(parts, "x-gdpr-sensitive: contact")
	case 3:
		parts = append(parts, "x-gdpr-sensitive: health")
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// object writes the schema of a named type: an object, marked or not.
func (g *fuzzRegistry) object() string {
	mark := ""
	if g.next()%3 == 1 {
		mark = ", x-gdpr-sensitive: true"
	}
	return "{type: object, properties: " + g.properties(1) + mark + "}"
}

func (g *fuzzRegistry) properties(depth int) string {
	n := g.next() % 4
	seen := map[string]bool{}
	var props []string
	for i := 0; i < n; i++ {
		k := g.keys[g.next()%len(g.keys)]
		if seen[k] {
			continue
		}
		seen[k] = true
		g.names++
		name := "P" + strconv.Itoa(g.names)
		field := g.schema(depth + 1)
		field = field[:len(field)-1] + ", go: {name: " + name + "}}"
		props = append(props, strconv.Quote(k)+": "+field)
	}
	return "{" + strings.Join(props, ", ") + "}"
}

func (g *fuzzRegistry) source() string {
	data := g.properties(0)
	t0, t1 := g.object(), g.object()
	return "version: 1\ntypes:\n  T0: " + t0 + "\n  T1: " + t1 +
		"\nmessages:\n  urn:babel:fuzz:happened:\n    lint: {ignore: [BQ031, BQ048, BQ049], reason: fuzzed keys and marks}\n    data: {properties: " + data + "}\n"
}

// sdkStep is one step of a path in the SDKs' syntax: a property key, or into the items.
type sdkStep struct {
	key   string
	items bool
}

// sdkSteps reads path as the SDKs' Protect does: split at every ".", a trailing "[]"
// of a segment being the items of the array under that key.
func sdkSteps(path string) []sdkStep {
	var steps []sdkStep
	for _, seg := range strings.Split(path, ".") {
		key, items := strings.CutSuffix(seg, "[]")
		steps = append(steps, sdkStep{key: key})
		if items {
			steps = append(steps, sdkStep{items: true})
		}
	}
	return steps
}

// marksOf are the marks (categories, "" for true) of s and of the named types it uses.
func marksOf(reg *model.Registry, s *model.Schema) (marks []string, end *model.Schema) {
	for s != nil {
		switch s.GDPR {
		case "":
		case "true":
			marks = append(marks, "")
		default:
			marks = append(marks, s.GDPR)
		}
		if s.Kind != model.Ref {
			return marks, s
		}
		nt := pii.Named(reg, s)
		if nt == nil {
			return marks, nil
		}
		s = nt.Schema
	}
	return marks, nil
}

// resolve follows steps from the data root of m through the model, as the SDKs walk the
// manifest schema, and returns the marks at the end (nil when the path leads nowhere).
func resolve(reg *model.Registry, m *model.Message, steps []sdkStep) []string {
	s := m.Data
	for _, st := range steps {
		_, s = marksOf(reg, s)
		if s == nil {
			return nil
		}
		if st.items {
			if s.Kind != model.Array {
				return nil
			}
			s = s.Items
			continue
		}
		p := s.Property(st.key)
		if s.Kind != model.Object || p == nil {
			return nil
		}
		s = p.Schema
	}
	marks, _ := marksOf(reg, s)
	return marks
}

// reachable walks m's data as the SDKs walk its inlined manifest schema (properties and
// items; not into map values, the items of items, keys BadKey refuses, or a named type
// below its UnrollDepth-th use on a path) and returns the paths of the marks found.
func reachable(reg *model.Registry, m *model.Message) []string {
	found := map[string]bool{}
	uses := map[*model.NamedType]int{}
	var walk func(s *model.Schema, path string, inItems bool)
	walk = func(s *model.Schema, path string, inItems bool) {
		var entered []*model.NamedType
		defer func() {
			for _, nt := range entered {
				uses[nt]--
			}
		}()
		for {
			if s.GDPR != "" && path != "" {
				found[path] = true
			}
			if s.Kind != model.Ref {
				break
			}
			nt := pii.Named(reg, s)
			if nt == nil || uses[nt] >= pii.UnrollDepth {
				return // written as {} with the use's own mark
			}
			uses[nt]++
			entered = append(entered, nt)
			s = nt.Schema
		}
		switch s.Kind {
		case model.Object:
			for _, p := range s.Properties {
				if pii.BadKey(p.Name, path == "") {
					continue
				}
				q := p.Name
				if path != "" {
					q = path + "." + p.Name
				}
				walk(p.Schema, q, false)
			}
		case model.Array:
			if !inItems && s.Items != nil {
				walk(s.Items, path+"[]", true)
			}
		}
	}
	walk(m.Data, "", false)
	out := make([]string, 0, len(found))
	for p := range found {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// insideBySteps reports whether the value at path p lies inside the value at path q:
// q's steps are a proper prefix of p's.
func insideBySteps(p, q string) bool {
	ps, qs := sdkSteps(p), sdkSteps(q)
	if len(qs) >= len(ps) {
		return false
	}
	for i := range qs {
		if ps[i] != qs[i] {
			return false
		}
	}
	return true
}

// FuzzPaths: for any registry drawn from prog (property keys from fuzzKeys and key,
// marks anywhere, recursive named types), the PII inventory round-trips: its paths are
// sorted and distinct, each read back in the SDKs' syntax leads to a marked value of
// its category; for an inlined URN they are exactly the marks an SDK walk of the model
// reaches; and Protected leaves out exactly the paths that lie, step by step, inside
// another protected one (issue 20, item 20).
func FuzzPaths(f *testing.F) {
	// Registries with nested, lost and Go-quoted paths (found with math/rand).
	for _, prog := range [][]byte{
		{0x21, 0x94, 0xe0, 0x74, 0xbf, 0x6c, 0x8d, 0x17, 0xa0, 0x87, 0x76, 0x51, 0xb9, 0x91, 0x95, 0x5d, 0xe5, 0x60, 0xf, 0x5f, 0xde, 0xd2, 0x8, 0xaf, 0xca, 0x1e},
		{0x4f, 0x93, 0x7e, 0x67, 0x9f, 0xcf, 0x95, 0xfc, 0xa4, 0x66, 0xac, 0x0, 0xf6, 0xe9, 0x6d, 0x86, 0xc4, 0xbf, 0x54, 0xff, 0xb, 0xb, 0x57, 0xe},
		{0xb6, 0xfe, 0x24, 0xf3, 0xa4, 0xf9, 0xda, 0x7a, 0x82, 0xb3, 0x16, 0x3, 0xaf, 0x5d, 0xfb, 0x99, 0x24, 0xb6, 0x45, 0x11},
		{0xcf, 0x30, 0x59, 0xc7, 0xaf, 0x28, 0x36, 0x8c, 0x9f, 0x1f, 0x44, 0x8f, 0x25, 0x2c, 0xa, 0xf6, 0xed, 0x1b, 0xba, 0x76, 0x4, 0x27, 0xc7, 0x88, 0xa4},
		{0xeb, 0xb2, 0x25, 0xed, 0xb3, 0x2b, 0xf8, 0xff, 0xcd, 0xd9, 0xad, 0xb5, 0xe0, 0x17, 0xee, 0xc},
		{0x9d, 0x25, 0x38, 0xfa, 0x81, 0xa, 0x27, 0x61, 0x61, 0xe5},
		{0x3f, 0x59, 0xaf, 0xd6, 0xd5, 0xf7, 0x94, 0x22, 0x87, 0x89, 0x9, 0x29, 0xc5, 0xc4, 0x11},
		{0x77, 0x1d, 0x70, 0x65, 0x21, 0xe1, 0x3c, 0x7a, 0xd7, 0x31, 0xd0, 0xb5, 0xfb, 0xf5, 0x17, 0x83, 0xbe, 0x4f, 0xb2, 0x7b, 0x7e},
	} {
		f.Add(prog, "email")
	}
	f.Fuzz(func(t *testing.T, prog []byte, key string) {
		if len(prog) > 256 || len(key) > 64 {
			return
		}
		g := &fuzzRegistry{prog: prog, keys: append(fuzzKeys[:len(fuzzKeys):len(fuzzKeys)], key)}
		src := g.source()
		reg, _, err := registry.LoadFiles(context.Background(), map[string][]byte{"f.yaml": []byte(src)})
		if err != nil {
			t.Fatal(err)
		}
		if reg == nil {
			return // rejected (a key with a control character, …): nothing to inventory
		}
		m := reg.Messages[0]
		inv := pii.Of(reg, m)
		var paths []string
		for i, mk := range inv.Paths {
			if i > 0 && inv.Paths[i-1].Path >= mk.Path {
				t.Fatalf("paths not sorted and distinct: %q then %q\n%s", inv.Paths[i-1].Path, mk.Path, src)
			}
			marks := resolve(reg, m, sdkSteps(mk.Path))
			ok := false
			for _, c := range marks {
				ok = ok || c == mk.Category
			}
			if !ok {
				t.Fatalf("path %q (category %q) read back in the SDKs' syntax leads to marks %q\n%s", mk.Path, mk.Category, marks, src)
			}
			paths = append(paths, mk.Path)
		}
		if inv.Inlined {
			if want := reachable(reg, m); strings.Join(paths, "\n") != strings.Join(want, "\n") {
				t.Fatalf("paths %q, the SDK walk of the model reaches %q\n%s", paths, want, src)
			}
		}
		prot := inv.Protected()
		kept := map[string]bool{}
		for _, p := range prot {
			kept[p] = true
			if !contains(paths, p) {
				t.Fatalf("Protected %q holds %q, which is not a path of %q", prot, p, paths)
			}
		}
		for _, p := range paths {
			outer := ""
			for _, q := range prot {
				if insideBySteps(p, q) {
					outer = q
				}
			}
			if kept[p] == (outer != "") {
				t.Fatalf("Protected %q: %q is protected %v, lies inside %q\n%s", prot, p, kept[p], outer, src)
			}
		}
		if len(kept) != len(prot) {
			t.Fatalf("Protected %q repeats a path", prot)
		}
	})
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
