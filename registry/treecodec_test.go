package registry

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/babelqueue/bqgen/internal/gonames"
	"github.com/babelqueue/bqgen/internal/model"
	"github.com/babelqueue/bqgen/internal/synth"
)

// memStore is a TreeStore in memory that counts its hits and puts.
type memStore struct {
	mu         sync.Mutex
	m          map[[sha256.Size]byte][]byte
	hits, puts int
}

func newMemStore() *memStore { return &memStore{m: map[[sha256.Size]byte][]byte{}} }

func (s *memStore) Get(k [sha256.Size]byte) ([]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.m[k]
	if ok {
		s.hits++
	}
	return b, ok
}

func (s *memStore) Put(k [sha256.Size]byte, b []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.puts++
	s.m[k] = b
}

// treeDiff returns where the trees a and b differ, every field compared (positions
// with their file names, size, height, the marks of a load), or "" when they are equal.
func treeDiff(a, b *tnode, at string) string {
	if a == nil || b == nil {
		if a != b {
			return fmt.Sprintf("%s: nil %v vs %v", at, a == nil, b == nil)
		}
		return ""
	}
	type scalars struct {
		kind                               tkind
		b, bad, plain, shared, textChecked bool
		size, height                       int32
		pos                                model.Pos
		str, num, lit                      string
		entries, items                     int
		entriesNil, itemsNil, unsureNil    bool
	}
	of := func(n *tnode) scalars {
		return scalars{n.kind, n.b, n.bad, n.plain, n.shared, n.textChecked, n.size, n.height, n.pos, n.str, string(n.num), n.lit,
			len(n.entries), len(n.items), n.entries == nil, n.items == nil, n.unsure == nil}
	}
	if sa, sb := of(a), of(b); sa != sb {
		return fmt.Sprintf("%s: %+v vs %+v", at, sa, sb)
	}
	if !reflect.DeepEqual(a.unsure, b.unsure) {
		return fmt.Sprintf("%s: unsure %v vs %v", at, a.unsure, b.unsure)
	}
	for i := range a.entries {
		ea, eb := a.entries[i], b.entries[i]
		if ea.key != eb.key || ea.keyPos != eb.keyPos {
			return fmt.Sprintf("%s: entry %d: %q at %v vs %q at %v", at, i, ea.key, ea.keyPos, eb.key, eb.keyPos)
		}
		if d := treeDiff(ea.val, eb.val, at+"."+ea.key); d != "" {
			return d
		}
	}
	for i := range a.items {
		if d := treeDiff(a.items[i], b.items[i], fmt.Sprintf("%s[%d]", at, i)); d != "" {
			return d
		}
	}
	return ""
}

// codecInputs returns every registry file of testdata and the synthetic registry's
// files (1,000 URNs), by name.
func codecInputs(t *testing.T) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir("../testdata", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if ext := filepath.Ext(p); !d.IsDir() && (ext == ".yaml" || ext == ".yml") {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			files[p] = b
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range synth.Files(synth.Options{Messages: 1000}) {
		files["synth/"+name] = b
	}
	// Anchors and a merge key: a tree that shares subtrees.
	files["anchors.yaml"] = []byte("version: 1\ntypes:\n  Money: &money\n    type: object\n    properties:\n      amount: {type: integer}\n  Price:\n    <<: *money\n    description: a price\n")
	return files
}

// TestTreeCodecRoundTrip: for every registry file of testdata and of the synthetic
// registry that parses, the decoding of the encoding of its tree, as the format check
// leaves it, is that tree, field by field, positions included; a tree that shares
// subtrees (YAML anchors) is not encoded.
func TestTreeCodecRoundTrip(t *testing.T) {
	files := codecInputs(t)
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	encoded, shared := 0, 0
	for _, name := range names {
		root, pd := parseFile(name, files[name])
		if root == nil {
			continue
		}
		fd, err := validateFormat(root, &fieldMemo{})
		if err != nil {
			t.Fatal(err)
		}
		if root.shared {
			shared++
			if encodeTree(root) != nil {
				t.Errorf("%s: a tree with shared subtrees was encoded", name)
			}
			continue
		}
		if len(pd) > 0 || len(fd) > 0 {
			// Not stored: a format error leaves marks, and isolate removes values.
			continue
		}
		enc := encodeTree(root)
		if enc == nil {
			t.Errorf("%s: not encoded", name)
			continue
		}
		encoded++
		buf := append([]byte(nil), enc...)
		got, err := decodeTree(name, buf)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		clear(buf) // the tree must not alias the entry's buffer, which its reader may reuse
		if d := treeDiff(root, got, name); d != "" {
			t.Errorf("decode(encode(tree)) differs: %s", d)
		}
		// The file name comes from the decoder's caller.
		if other, _ := decodeTree("elsewhere.yaml", enc); other.pos.File != "elsewhere.yaml" {
			t.Errorf("%s: decoded root in %q", name, other.pos.File)
		}
	}
	if encoded < 200 || shared == 0 {
		t.Fatalf("%d trees round-tripped, %d shared: the inputs are not what this test is about", encoded, shared)
	}
}

// TestTreeDiffSeesEveryField: treeDiff, which the round trip relies on, reports a
// change of any one field of a node deep in a tree.
func TestTreeDiffSeesEveryField(t *testing.T) {
	src := []byte("version: 1\nmessages:\n  urn:bq:shop:order-placed:\n    description: x\n    data:\n      type: object\n      properties:\n        n: {type: integer, minimum: 0, enum: [1, 2]}\n")
	changes := map[string]func(n *tnode){
		"kind": func(n *tnode) { n.kind = tStr }, "b": func(n *tnode) { n.b = true }, "bad": func(n *tnode) { n.bad = true },
		"plain": func(n *tnode) { n.plain = !n.plain }, "shared": func(n *tnode) { n.shared = true },
		"textChecked": func(n *tnode) { n.textChecked = true }, "size": func(n *tnode) { n.size++ },
		"height": func(n *tnode) { n.height++ }, "line": func(n *tnode) { n.pos.Line++ }, "column": func(n *tnode) { n.pos.Column++ },
		"file": func(n *tnode) { n.pos.File = "x" }, "str": func(n *tnode) { n.str = "s" }, "num": func(n *tnode) { n.num = "3" },
		"lit": func(n *tnode) { n.lit = "l" }, "unsure": func(n *tnode) { n.unsure = map[string]bool{"*": true} },
		"key":    func(n *tnode) { n.child("n").get("minimum").key = "maximum" },
		"keyPos": func(n *tnode) { n.child("n").get("minimum").keyPos.Column++ },
		"item":   func(n *tnode) { n.child("n").child("enum").items[1].num = "5" },
		"items":  func(n *tnode) { e := n.child("n").child("enum"); e.items = e.items[:1] },
	}
	for what, change := range changes {
		a, _ := parseFile("a.yaml", src)
		b, _ := parseFile("a.yaml", src)
		if d := treeDiff(a, b, "root"); d != "" {
			t.Fatal(d)
		}
		props := b.child("messages").child("urn:bq:shop:order-placed").child("data").child("properties")
		change(props)
		if treeDiff(a, b, "root") == "" {
			t.Errorf("a change of %s is not seen", what)
		}
	}
}

// loadedState is what a Load returns, rendered for comparison: diagnostics in full,
// the registry and the Go names.
type loadedState struct {
	diags string
	reg   *model.Registry
	names *gonames.Names
	err   error
}

func loadState(t *testing.T, path string, opts ...Option) loadedState {
	t.Helper()
	var names *gonames.Names
	reg, ds, err := Load(context.Background(), path, append(opts, WithGoNames(&names))...)
	return loadedState{renderFull(ds), reg, names, err}
}

// TestTreeStoreLoadsAlike: for every registry of testdata and the synthetic one, a
// Load whose store was filled by a first Load returns exactly what a Load without a
// store does: the diagnostics, the registry model and the Go names; and the second
// Load parses no file the first one stored (no put, every stored file a hit).
func TestTreeStoreLoadsAlike(t *testing.T) {
	dir := t.TempDir()
	for name, b := range synth.Files(synth.Options{Messages: 300}) {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	paths := []string{dir}
	for p := range registryPaths(t) {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	totalHits := 0
	for _, p := range paths {
		cold := loadState(t, p)
		s := newMemStore()
		first := loadState(t, p, WithTreeStore(s))
		stored := s.puts
		s.puts = 0
		warm := loadState(t, p, WithTreeStore(s))
		for what, st := range map[string]loadedState{"first": first, "warm": warm} {
			if st.diags != cold.diags || fmt.Sprint(st.err) != fmt.Sprint(cold.err) {
				t.Errorf("%s: %s load with a store: diagnostics\n%s\nwant\n%s", p, what, st.diags, cold.diags)
			}
			if !reflect.DeepEqual(st.reg, cold.reg) {
				t.Errorf("%s: %s load with a store: another registry model", p, what)
			}
			if renderNames(st.reg, st.names) != renderNames(cold.reg, cold.names) {
				t.Errorf("%s: %s load with a store: other Go names", p, what)
			}
		}
		if s.puts != 0 || s.hits < stored {
			t.Errorf("%s: warm load put %d trees and hit %d, %d stored", p, s.puts, s.hits, stored)
		}
		totalHits += s.hits
	}
	if totalHits < 100 {
		t.Fatalf("only %d trees came from the stores", totalHits)
	}
}

// registryPaths returns the registries of testdata TestDiagnosticsPinned loads: every
// file, and every directory holding one.
func registryPaths(t *testing.T) map[string]bool {
	t.Helper()
	paths := map[string]bool{}
	err := filepath.WalkDir("../testdata", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if ext := filepath.Ext(p); !d.IsDir() && (ext == ".yaml" || ext == ".yml") {
			paths[p] = true
			paths[filepath.Dir(p)] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return paths
}

// corruptions returns enc altered in every way the decoder must refuse, by name.
func corruptions(enc []byte) map[string][]byte {
	c := map[string][]byte{
		"empty":        {},
		"magic":        append([]byte("BQT0"), enc[4:]...),
		"version":      append([]byte("BQT2"), enc[4:]...),
		"trailing":     append(append([]byte(nil), enc...), 0),
		"doubled":      append(append([]byte(nil), enc...), enc...),
		"huge counts":  append([]byte("BQT1\xff\xff\xff\xff\xff\xff\xff\xff\x7f"), enc[4:]...),
		"zero nodes":   append([]byte("BQT1\x00"), enc[5:]...),
		"bad varint":   append([]byte("BQT1"), 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff),
		"table length": nil,
	}
	for _, n := range []int{1, 4, 5, 8, len(enc) / 3, len(enc) / 2, len(enc) - 1} {
		c[fmt.Sprintf("truncated to %d", n)] = enc[:n]
	}
	// The string table said to be longer than the entry.
	i := len(treeMagic)
	for range 3 {
		_, n := binary.Uvarint(enc[i:])
		i += n
	}
	tl := binary.AppendUvarint(append([]byte(nil), enc[:i]...), uint64(len(enc)))
	_, n := binary.Uvarint(enc[i:])
	c["table length"] = append(tl, enc[i+n:]...)
	return c
}

// TestTreeStoreCorruptEntries: an entry that is not an intact encoding — truncated, of
// another version, with counts, lengths or bytes wrong, or every single byte flipped in
// turn — never panics; each named corruption is a miss: the file is parsed (the Load
// stores its tree again) and the Load reports what one without a store does.
func TestTreeStoreCorruptEntries(t *testing.T) {
	src := []byte("version: 1\nmessages:\n  urn:babel:shop:order-placed:\n    description: an order was placed\n    data:\n      type: object\n      required: [id]\n      properties:\n        id: {type: string, format: uuid}\n        n: {type: integer, minimum: 0, enum: [1, 2]}\n        t: {type: boolean}\n")
	files := map[string][]byte{"a.yaml": src}
	_, want, err := LoadFiles(context.Background(), files)
	if err != nil {
		t.Fatal(err)
	}
	s := newMemStore()
	if _, _, err := LoadFiles(context.Background(), files, WithTreeStore(s)); err != nil {
		t.Fatal(err)
	}
	key := TreeKey(src)
	enc := s.m[key]
	if len(s.m) != 1 || enc == nil {
		t.Fatalf("the store holds %d entries", len(s.m))
	}
	for what, bad := range corruptions(enc) {
		if _, err := decodeTree("a.yaml", bad); err == nil {
			t.Errorf("%s: decoded", what)
		}
		s := newMemStore()
		s.m[key] = bad
		_, ds, err := LoadFiles(context.Background(), files, WithTreeStore(s))
		if err != nil || renderFull(ds) != renderFull(want) {
			t.Errorf("%s: %v\n%s", what, err, renderFull(ds))
		}
		if s.puts != 1 || string(s.m[key]) != string(enc) {
			t.Errorf("%s: not a miss (%d puts)", what, s.puts)
		}
	}
	for i := range enc {
		b := append([]byte(nil), enc...)
		b[i] ^= 0xff
		decodeTree("a.yaml", b) // must not panic
	}
}

// FuzzDecodeTree: decodeTree never panics, and what it accepts encodes to an entry
// that decodes to the same tree.
func FuzzDecodeTree(f *testing.F) {
	for _, src := range []string{
		"version: 1\nmessages:\n  urn:bq:shop:order-placed:\n    description: x\n    data:\n      type: object\n      properties:\n        n: {type: integer, minimum: 0, enum: [1, 2.5, 0777]}\n        s: {type: string, default: 'yes'}\n",
		"", "[]", "a: [b, {c: null, d: true}]\n",
	} {
		if root, _ := parseFile("f.yaml", []byte(src)); root != nil {
			f.Add(encodeTree(root))
		}
	}
	for _, p := range []string{"../testdata/registry/good/registry.yaml", "../testdata/registry/good/yaml11.yaml"} {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		root, _ := parseFile(p, b)
		if root == nil || root.shared {
			f.Fatalf("%s: no tree to encode", p)
		}
		f.Add(encodeTree(root))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		root, err := decodeTree("f.yaml", b)
		if err != nil {
			return
		}
		if root.shared {
			return // never encoded
		}
		again, err := decodeTree("f.yaml", encodeTree(root))
		if err != nil {
			t.Fatalf("re-encoding does not decode: %v", err)
		}
		if d := treeDiff(root, again, "root"); d != "" {
			t.Fatal(d)
		}
	})
}

// renderNames renders names, planned for reg, as text: each pointer into reg as the
// path to it from reg, each package as its directory, maps in sorted order.
func renderNames(reg *model.Registry, names *gonames.Names) string {
	paths := map[uintptr]string{}
	var walk func(v reflect.Value, path string)
	walk = func(v reflect.Value, path string) {
		switch v.Kind() {
		case reflect.Pointer:
			if v.IsNil() || paths[v.Pointer()] != "" {
				return
			}
			paths[v.Pointer()] = path
			walk(v.Elem(), path)
		case reflect.Struct:
			for i := range v.NumField() {
				walk(v.Field(i), path+"."+v.Type().Field(i).Name)
			}
		case reflect.Slice, reflect.Array:
			for i := range v.Len() {
				walk(v.Index(i), fmt.Sprintf("%s[%d]", path, i))
			}
		case reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem(), path)
			}
		}
	}
	walk(reflect.ValueOf(reg), "reg")
	var render func(v reflect.Value) string
	render = func(v reflect.Value) string {
		switch v.Kind() {
		case reflect.Pointer:
			if v.IsNil() {
				return "nil"
			}
			if p, ok := v.Interface().(*gonames.Package); ok {
				return "pkg(" + p.Dir + ")"
			}
			if p, ok := paths[v.Pointer()]; ok {
				return p
			}
			return "&" + render(v.Elem())
		case reflect.Struct:
			var b strings.Builder
			b.WriteString("{")
			for i := range v.NumField() {
				if v.Type().Field(i).IsExported() {
					fmt.Fprintf(&b, "%s:%s ", v.Type().Field(i).Name, render(v.Field(i)))
				}
			}
			return b.String() + "}"
		case reflect.Slice, reflect.Array:
			parts := make([]string, v.Len())
			for i := range parts {
				parts[i] = render(v.Index(i))
			}
			return "[" + strings.Join(parts, ", ") + "]"
		case reflect.Map:
			var parts []string
			for it := v.MapRange(); it.Next(); {
				parts = append(parts, render(it.Key())+"="+render(it.Value()))
			}
			sort.Strings(parts)
			return "map[" + strings.Join(parts, ", ") + "]"
		}
		return fmt.Sprint(v.Interface())
	}
	return render(reflect.ValueOf(names))
}

// BenchmarkTreeCodec: one synthetic context file (10,000 URNs' registry, orders.yaml)
// parsed and format-checked, encoded, and decoded (what a TreeStore hit costs).
func BenchmarkTreeCodec(b *testing.B) {
	data := synth.Files(synth.Options{Messages: 10000})["orders.yaml"]
	root, _ := parseFile("orders.yaml", data)
	enc := encodeTree(root)
	b.Run("parse+check", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for range b.N {
			r, _ := parseFile("orders.yaml", data)
			validateFormat(r, &fieldMemo{})
		}
	})
	b.Run("encode", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for range b.N {
			encodeTree(root)
		}
	})
	b.Run("decode", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for range b.N {
			if _, err := decodeTree("orders.yaml", enc); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.ReportMetric(float64(len(enc))/float64(len(data)), "enc/yaml")
}

// TestKeepCopiesDecodedSubtrees: loader.keep returns, for a decoded tree, a copy of
// every subtree equal to it field by field (treeDiff) that shares no node, entry or
// item with the tree (so the decoded slabs are not kept alive), and the tree itself
// when the file was parsed.
func TestKeepCopiesDecodedSubtrees(t *testing.T) {
	files := codecInputs(t)
	names := slices.Sorted(maps.Keys(files))
	copied := 0
	for _, name := range names {
		root, pd := parseFile(name, files[name])
		if root == nil || root.shared || len(pd) > 0 {
			continue
		}
		if fd, err := validateFormat(root, &fieldMemo{}); err != nil || len(fd) > 0 {
			continue
		}
		enc := encodeTree(root)
		if enc == nil {
			continue
		}
		dec, err := decodeTree(name, enc)
		if err != nil {
			t.Fatal(err)
		}
		inTree := map[*tnode]bool{}
		var mark func(n *tnode)
		mark = func(n *tnode) {
			inTree[n] = true
			for _, e := range n.entries {
				mark(e.val)
			}
			for _, it := range n.items {
				mark(it)
			}
		}
		mark(dec)
		var shares func(n *tnode) bool
		shares = func(n *tnode) bool {
			if inTree[n] {
				return true
			}
			for _, e := range n.entries {
				if shares(e.val) {
					return true
				}
			}
			for _, it := range n.items {
				if shares(it) {
					return true
				}
			}
			return false
		}
		slab, parsed := &loader{slab: true}, &loader{}
		var visit func(n *tnode, at string)
		visit = func(n *tnode, at string) {
			c := slab.keep(n)
			if d := treeDiff(n, c, at); d != "" {
				t.Fatalf("keep: %s", d)
			}
			if shares(c) {
				t.Fatalf("%s: the copy shares nodes with the decoded tree", at)
			}
			if len(n.entries) > 0 && &c.entries[0] == &n.entries[0] || len(n.items) > 0 && &c.items[0] == &n.items[0] {
				t.Fatalf("%s: the copy shares entries or items with the decoded tree", at)
			}
			copied++
			for _, e := range n.entries {
				visit(e.val, at+"."+e.key)
			}
			for i, it := range n.items {
				visit(it, fmt.Sprintf("%s[%d]", at, i))
			}
		}
		visit(dec, name)
		if parsed.keep(root) != root {
			t.Fatalf("%s: keep copied a parsed tree", name)
		}
		if items := dec.child("consumers"); items != nil {
			all := slab.keepAll(items.items)
			for i, c := range all {
				if c == items.items[i] || treeDiff(items.items[i], c, name) != "" {
					t.Fatalf("%s: keepAll item %d not a copy", name, i)
				}
			}
		}
	}
	if copied < 10000 {
		t.Fatalf("only %d subtrees copied", copied)
	}
}
