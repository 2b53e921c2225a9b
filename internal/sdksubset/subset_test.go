package sdksubset

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	js "github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/babelqueue/bqgen/internal/agreement"
	"github.com/babelqueue/bqgen/internal/catalog"
	"github.com/babelqueue/bqgen/internal/ecmare"
	"github.com/babelqueue/bqgen/internal/emit/jsonschema"
	"github.com/babelqueue/bqgen/internal/emit/jsonschema/fixture"
	"github.com/babelqueue/bqgen/internal/model"
	"github.com/babelqueue/bqgen/internal/outdir"
	"github.com/babelqueue/bqgen/internal/pii"
	"github.com/babelqueue/bqgen/internal/property"
	"github.com/babelqueue/bqgen/internal/synth"
	"github.com/babelqueue/bqgen/registry"
)

// paths collects the marks as SensitivePaths does: dotted keys, "[]" for items,
// sorted by path; "path (category)".
func (n *rnode) paths() []string {
	var out []string
	var walk func(n *rnode, path string)
	walk = func(n *rnode, path string) {
		if n.mark {
			out = append(out, withCategory(path, n.category))
		}
		for k, c := range n.props {
			p := k
			if path != "" {
				p = path + "." + k
			}
			walk(c, p)
		}
		if n.items != nil {
			walk(n.items, path+"[]")
		}
	}
	walk(n, "")
	sort.Slice(out, func(i, j int) bool { return pathOf(out[i]) < pathOf(out[j]) })
	return out
}

func withCategory(path, category string) string {
	if category == "" || category == "true" {
		return path
	}
	return path + " (" + category + ")"
}

func pathOf(s string) string {
	if i := strings.Index(s, " ("); i >= 0 {
		return s[:i]
	}
	return s
}

// ---- the full-fidelity schema, walked with $ref -----------------------------------

// fullPaths walks a 2020-12 data schema through properties and items, following $ref
// into $defs (each definition at most pii.UnrollDepth times along a path) and the
// members of anyOf and allOf at the same path, and collects the marks at the paths the
// SDKs' syntax addresses (keys without "." or a trailing "[]", no array directly in an
// array, not the root). Map values (additionalProperties) are not walked.
func fullPaths(doc map[string]any) []string {
	defs, _ := doc["$defs"].(map[string]any)
	found := map[string]string{} // path → category, the first mark found
	var order []string
	var walk func(n map[string]any, path string, root, addr, inItems bool, counts map[string]int)
	walk = func(n map[string]any, path string, root, addr, inItems bool, counts map[string]int) {
		if addr && !root {
			if cat, ok := markOf(n); ok {
				if _, dup := found[path]; !dup {
					found[path] = cat
					order = append(order, path)
				}
			}
		}
		if ref, ok := n["$ref"].(string); ok {
			name := strings.NewReplacer("~1", "/", "~0", "~").Replace(strings.TrimPrefix(ref, "#/$defs/"))
			if d, ok := defs[name].(map[string]any); ok && counts[name] < pii.UnrollDepth {
				counts[name]++
				walk(d, path, root, addr, inItems, counts)
				counts[name]--
			}
		}
		for _, k := range []string{"anyOf", "allOf"} {
			list, _ := n[k].([]any)
			for _, x := range list {
				if m, ok := x.(map[string]any); ok {
					walk(m, path, root, addr, inItems, counts)
				}
			}
		}
		if props, ok := n["properties"].(map[string]any); ok {
			for k, v := range props {
				if m, ok := v.(map[string]any); ok {
					p := k
					if !root {
						p = path + "." + k
					}
					walk(m, p, false, addr && !pii.BadKey(k, root), false, counts)
				}
			}
		}
		if it, ok := n["items"].(map[string]any); ok {
			walk(it, path+"[]", false, addr && !inItems, true, counts)
		}
	}
	walk(doc, "", true, true, false, map[string]int{})
	var out []string
	for _, p := range order {
		out = append(out, withCategory(p, found[p]))
	}
	sort.Slice(out, func(i, j int) bool { return pathOf(out[i]) < pathOf(out[j]) })
	return out
}

func markOf(n map[string]any) (string, bool) {
	switch g := n["x-gdpr-sensitive"].(type) {
	case bool:
		return "", g
	case string:
		return g, g != ""
	}
	return "", false
}

// ---- the model, walked independently ----------------------------------------------

// modelWalk enumerates the marks of m's data up to pii.UnrollDepth inlinings of each
// named type per path: reach are the marks at SDK-addressable paths ("path (category)");
// hidden the positions of the marks elsewhere (map values, bad keys, arrays in arrays,
// the root) that no reachable mark above covers; cuts the positions of the uses of a
// recursive type where the unrolling stops below no reachable mark, with whether the
// type reaches a mark.
type modelMarks struct {
	reach  []string
	hidden []model.Pos
	cuts   map[model.Pos]bool
}

func modelWalk(reg *model.Registry, m *model.Message, ix *pii.Index) modelMarks {
	var mm modelMarks
	mm.cuts = map[model.Pos]bool{}
	counts := map[*model.NamedType]int{}
	var walk func(use *model.Schema, path string, root, addr, inItems, covered bool)
	walk = func(use *model.Schema, path string, root, addr, inItems, covered bool) {
		mark, markPos := "", model.Pos{}
		cur := use
		var entered []*model.NamedType
		defer func() {
			for _, nt := range entered {
				counts[nt]--
			}
		}()
		for {
			if mark == "" && cur.GDPR != "" {
				mark = cur.GDPR
				markPos, _ = cur.KeyPos("x-gdpr-sensitive")
			}
			if cur.Kind != model.Ref {
				break
			}
			nt := pii.Named(reg, cur)
			if counts[nt] >= pii.UnrollDepth {
				// The unrolling stops: the use keeps its own mark.
				if mark != "" && addr && !root {
					mm.reach = append(mm.reach, withCategory(path, mark))
					covered = true
				}
				if !covered && addr {
					mm.cuts[cur.Pos] = mm.cuts[cur.Pos] || ix.Marked(&model.Message{Data: nt.Schema})
				}
				return
			}
			counts[nt]++
			entered = append(entered, nt)
			cur = nt.Schema
		}
		if mark != "" {
			switch {
			case addr && !root:
				mm.reach = append(mm.reach, withCategory(path, mark))
				covered = true
			case !covered:
				mm.hidden = append(mm.hidden, markPos)
			}
		}
		switch cur.Kind {
		case model.Object:
			for _, p := range cur.Properties {
				pp := p.Name
				if !root {
					pp = path + "." + p.Name
				}
				walk(p.Schema, pp, false, addr && !pii.BadKey(p.Name, root), false, covered)
			}
		case model.Array:
			if cur.Items != nil {
				walk(cur.Items, path+"[]", false, addr && !inItems, true, covered)
			}
		case model.Map:
			if cur.Values != nil {
				walk(cur.Values, path+".*", false, false, false, covered)
			}
		}
	}
	walk(m.Data, "", true, true, false, false)
	sort.Slice(mm.reach, func(i, j int) bool { return pathOf(mm.reach[i]) < pathOf(mm.reach[j]) })
	return mm
}

// ---- the oracle: the constraints the subset can express ---------------------------

// ---- the registries -----------------------------------------------------------------

type set struct {
	name  string
	reg   *model.Registry
	diags registry.Diagnostics
	// loaded: diags are the registry's own (not a hand-built model).
	loaded bool
	// seed is the seed of a random registry (internal/synth.Random), keys the seed of
	// a hostileKeys registry; 0 for the others.
	seed, keys uint64
	// corpus is internal/agreement's corpus of the registry, built once per process for
	// every test that reads it.
	corpus func() ([]agreement.Instance, error)
}

// The registries of the package's tests: randomSets random registries and keysSets
// hostileKeys registries (fewer with -short), beside the test registries. They and their
// corpora are built once per process (sharedSets) and shared by TestManifestProfile and
// TestProtectedWire, which runs on the first wireRandom and wireKeys of them.
const (
	randomSets, randomSetsShort = 30, 6
	wireRandom, wireKeys        = 12, 3
)

var sharedSets = sync.OnceValues(func() ([]set, error) {
	n := randomSets
	if testing.Short() {
		n = randomSetsShort
	}
	return registries(n)
})

// registriesOf returns the shared registries (sharedSets) that keep says to keep; the
// test fails when they cannot be built.
func registriesOf(t *testing.T, keep func(set) bool) []set {
	t.Helper()
	all, err := sharedSets()
	if err != nil {
		t.Fatal(err)
	}
	var out []set
	for _, s := range all {
		if keep(s) {
			out = append(out, s)
		}
	}
	return out
}

// registries are every registry under testdata/ (each *.yaml file, and each
// directory registry of testdata/rules) and examples/ that loads without errors, the
// jsonschema fixture, internal/agreement's extra.yaml, a synthetic registry, n random
// registries and max(3, n/4) hostileKeys registries.
func registries(n int) ([]set, error) {
	root := filepath.Join("..", "..")
	var paths []string
	for _, dir := range []string{"testdata", "examples", filepath.Join("internal", "agreement", "testdata")} {
		filepath.WalkDir(filepath.Join(root, dir), func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "registry" && strings.Contains(p, filepath.Join("testdata", "rules")) {
				paths = append(paths, p)
				return filepath.SkipDir
			}
			if !d.IsDir() && (strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) {
				paths = append(paths, p)
			}
			return nil
		})
	}
	var sets []set
	for _, p := range paths {
		reg, diags, err := registry.Load(context.Background(), p)
		if err != nil || reg == nil {
			continue // a registry with errors: nothing is emitted for it
		}
		name, _ := filepath.Rel(root, p)
		sets = append(sets, set{name: filepath.ToSlash(name), reg: reg, diags: diags, loaded: true})
	}
	if len(sets) < 50 {
		return nil, fmt.Errorf("only %d test registries load", len(sets))
	}
	sets = append(sets, set{name: "fixture", reg: fixture.Registry()})
	var err error
	load := func(name string, files map[string][]byte) set {
		reg, diags, lerr := registry.LoadFiles(context.Background(), files)
		if (lerr != nil || reg == nil) && err == nil {
			err = fmt.Errorf("%s: %v %v", name, lerr, diags)
		}
		return set{name: name, reg: reg, diags: diags, loaded: true}
	}
	sets = append(sets, load("synth", synth.Files(synth.Options{Messages: 40})))
	for seed := uint64(1); seed <= uint64(n); seed++ {
		name := fmt.Sprintf("random-%d", seed)
		s := load(name, map[string][]byte{name + ".yaml": synth.Random(synth.RandomOptions{Seed: seed, Package: "p"})})
		s.seed = seed
		sets = append(sets, s)
	}
	for seed := uint64(1); seed <= uint64(max(3, n/4)); seed++ {
		name := fmt.Sprintf("keys-%d", seed)
		s := load(name, map[string][]byte{name + ".yaml": hostileKeys(seed)})
		s.keys = seed
		sets = append(sets, s)
	}
	if err != nil {
		return nil, err
	}
	for i := range sets {
		name, reg := sets[i].name, sets[i].reg
		sets[i].corpus = sync.OnceValues(func() ([]agreement.Instance, error) { return agreement.Corpus(name, reg) })
	}
	return sets, nil
}

// pathKeys are JSON keys that the SDKs' path syntax reads in every way it can: keys
// that are prefixes of each other and of their paths' text ("a", "ab", "a[]b" beside
// the path "a[]" of array a, "[]b" beside the key ""), the empty key, keys holding "."
// or ending with "[]" (which the SDKs cannot address), and plain ones.
var pathKeys = []string{"a", "ab", "a[]b", "[]b", "", "[]", "a.b", ".a", "a[]", "x[]y", "b", "[]a[]b"}

// hostileKeys returns a registry (JSON syntax) of messages whose data nests objects and
// arrays under keys drawn from pathKeys, with x-gdpr-sensitive marks at random places
// (strings, objects, arrays and array items), so that the paths of one URN are prefixes
// of each other as text in every way: the class of issue 20's item 3 (a path taken to
// lie inside another because its text starts with it). Every key gets a Go name.
func hostileKeys(seed uint64) []byte {
	rng := rand.New(rand.NewPCG(seed, 0x6b657973)) // "keys"
	field := 0
	var node func(depth int) map[string]any
	mark := func(s map[string]any, p int) map[string]any {
		if rng.IntN(100) < p {
			s["x-gdpr-sensitive"] = true
		}
		return s
	}
	var value func(depth int) map[string]any
	value = func(depth int) map[string]any {
		switch r := rng.IntN(10); {
		case depth > 0 && r < 3:
			return mark(node(depth-1), 20)
		case depth > 0 && r < 6:
			return mark(map[string]any{"type": "array", "maxItems": 3, "items": value(depth - 1)}, 15)
		default:
			return mark(map[string]any{"type": "string", "maxLength": 20}, 50)
		}
	}
	node = func(depth int) map[string]any {
		props := map[string]any{}
		for _, i := range rng.Perm(len(pathKeys))[:2+rng.IntN(4)] {
			v := value(depth)
			field++
			v["go"] = map[string]any{"name": fmt.Sprintf("F%d", field)}
			props[pathKeys[i]] = v
		}
		return map[string]any{"type": "object", "properties": props}
	}
	msgs := map[string]any{}
	for i := 0; i < 4; i++ {
		d := node(3)
		delete(d, "type")
		msgs[fmt.Sprintf("urn:babel:keys:m%d.sent", i)] = map[string]any{"data": d}
	}
	b, _ := json.Marshal(map[string]any{"version": 1, "go": map[string]any{"package": "p"}, "messages": msgs})
	return b
}

// ---- the test -------------------------------------------------------------------------

// TestManifestProfile is the proof of issue 15 (package doc): PII paths and validation
// verdicts of the SDK reader on the manifest profile, on every test registry and
// random registries.
func TestManifestProfile(t *testing.T) {
	t.Parallel()
	sets := registriesOf(t, func(set) bool { return true })
	var (
		mu    sync.Mutex
		total profileTotals
	)
	// One parallel subtest per registry; the group returns when all are done.
	t.Run("sets", func(t *testing.T) {
		for _, s := range sets {
			t.Run(s.name, func(t *testing.T) {
				t.Parallel()
				got := checkProfile(t, s)
				mu.Lock()
				defer mu.Unlock()
				total.add(got)
			})
		}
	})
	n := 0
	for _, s := range sets {
		if s.seed != 0 {
			n++
		}
	}
	t.Logf("%d registries (%d random), %d URNs, %d PII paths; %d instances, %d rejected by jsonschema/v6, %d of them by the SDK reader (the rest break constraints the subset cannot express); %d agree",
		len(sets), n, total.urns, total.marks, total.instances, total.invalid, total.caught, total.sound)
}

// profileTotals counts what TestManifestProfile checked.
type profileTotals struct {
	urns, marks, instances, invalid, caught, sound int
}

func (p *profileTotals) add(q profileTotals) {
	p.urns += q.urns
	p.marks += q.marks
	p.instances += q.instances
	p.invalid += q.invalid
	p.caught += q.caught
	p.sound += q.sound
}

// checkProfile runs TestManifestProfile's checks on the registry of s.
func checkProfile(t *testing.T, s set) (total profileTotals) {
	files, err := jsonschema.Emit(s.reg, jsonschema.Options{})
	if err != nil {
		t.Fatalf("%s: %v", s.name, err)
	}
	byName := map[string][]byte{}
	for _, f := range files {
		byName[f.Name] = f.Content
	}
	checkManifest(t, s, byName)
	ix := pii.NewIndex(s.reg)
	cat := catalog.Build(s.reg, catalog.Options{})
	docsPII := map[string][]string{}
	for _, c := range cat.Contexts {
		for _, m := range c.Messages {
			docsPII[m.URN] = m.PII
		}
	}
	compiled := compileAll(t, s.name, files)
	corpus, err := s.corpus()
	if err != nil {
		t.Fatalf("%s: corpus: %v", s.name, err)
	}
	if s.seed != 0 {
		corpus = append(corpus[:len(corpus):len(corpus)], mutations(s, corpus)...) // a copy: the corpus is shared
	}
	byURN := map[string][]agreement.Instance{}
	var jobs []validation
	for _, in := range corpus {
		byURN[in.URN] = append(byURN[in.URN], in)
	}
	for _, m := range s.reg.Messages {
		total.urns++
		raw := byName[jsonschema.SDKDataFile(m.URN)]
		var doc map[string]any
		if err := json.Unmarshal(raw, &doc); err != nil {
			t.Fatalf("%s %s: the SDK reader cannot decode the manifest schema: %v", s.name, m.URN, err)
		}
		reader := readNode(doc)
		inv := ix.Of(m)
		where := s.name + " " + m.URN

		// PII: reader == pii == model walk == full-fidelity walk == docs.
		var want []string
		for _, p := range inv.Paths {
			want = append(want, withCategory(p.Path, p.Category))
		}
		total.marks += len(want)
		got := reader.paths()
		mm := modelWalk(s.reg, m, ix)
		var full []string
		var fullDoc map[string]any
		json.Unmarshal(byName[jsonschema.DataFile(m.URN)], &fullDoc)
		if inv.Inlined {
			full = fullPaths(fullDoc)
		} else {
			full = want // the manifest keeps $ref: the full walk is not comparable
		}
		var docs []string
		for _, c := range docsPII[m.URN] {
			docs = append(docs, strings.ReplaceAll(strings.TrimPrefix(c, "`"), "` (", " ("))
		}
		for i, d := range docs {
			docs[i] = strings.TrimSuffix(d, "`")
		}
		for _, c := range []struct {
			what string
			got  []string
		}{{"the SDK reader on the manifest", got}, {"the model walk", mm.reach}, {"the full-fidelity schema walk", full}, {"bqgen docs", docs}} {
			if strings.Join(c.got, "\n") != strings.Join(want, "\n") {
				t.Errorf("%s: PII paths of %s differ from pii.Of:\n  got:  %q\n  want: %q", where, c.what, c.got, want)
			}
		}
		// Every mark the SDKs cannot address is lost, and reported by BQ048.
		lostAt := map[model.Pos]bool{}
		for _, l := range inv.Lost {
			lostAt[l.Pos] = true
			if s.loaded && !hasDiag(s.diags, registry.RulePIIReach, l.Cause.At) {
				t.Errorf("%s: %s is lost (%s) but BQ048 does not report it at %s", where, l.Path, l.Cause.Reason, l.Cause.At)
			}
		}
		for _, p := range mm.hidden {
			if !lostAt[p] {
				t.Errorf("%s: the mark at %s cannot be addressed by the SDKs, but pii.Of does not list it as lost", where, p)
			}
		}
		for at, marked := range mm.cuts {
			if marked != hasLost(inv, pii.Recursion, at) {
				t.Errorf("%s: the unrolling stops at %s over a type that reaches a mark: %v; pii.Of lists it: %v", where, at, marked, !marked)
			}
		}

		// Validation: sound, and exactly the expressible constraints (below).
		jobs = append(jobs, validation{where: where, m: m, reader: reader, full: compiled[jsonschema.DataFile(m.URN)], instances: byURN[m.URN]})
	}
	// The instances of each URN are independent: validated in parallel subtests of about
	// chunkInstances instances each, so that a big registry (synth) is not one long tail.
	var mu sync.Mutex
	t.Run("validate", func(t *testing.T) {
		for i, chunk := range chunks(jobs) {
			t.Run(strconv.Itoa(i), func(t *testing.T) {
				t.Parallel()
				var sub profileTotals
				for _, v := range chunk {
					sub.add(validate(t, s, v))
				}
				mu.Lock()
				defer mu.Unlock()
				total.add(sub)
			})
		}
	})
	return total
}

// validation is the validation half of TestManifestProfile on one URN: its instances,
// the SDK reader of its manifest schema and its full-fidelity data schema compiled.
type validation struct {
	where     string
	m         *model.Message
	reader    *rnode
	full      *js.Schema
	instances []agreement.Instance
}

// chunkInstances is about how many instances one validation subtest checks.
const chunkInstances = 4000

// chunks splits jobs, in order, into runs of at least chunkInstances instances (the last
// may hold fewer).
func chunks(jobs []validation) [][]validation {
	var out [][]validation
	var cur []validation
	n := 0
	for _, j := range jobs {
		cur = append(cur, j)
		n += len(j.instances)
		if n >= chunkInstances {
			out = append(out, cur)
			cur, n = nil, 0
		}
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// validate checks the instances of one URN: no instance that jsonschema/v6 accepts on
// the full-fidelity data schema is rejected by the SDK reader, and the reader rejects
// exactly the instances the oracle of expressible constraints rejects.
func validate(t *testing.T, s set, j validation) (total profileTotals) {
	where, m, reader := j.where, j.m, j.reader
	for _, in := range j.instances {
		var v any
		if err := json.Unmarshal(in.JSON, &v); err != nil {
			continue // a number beyond a double: malformed for every Go reader
		}
		inst, err := js.UnmarshalJSON(bytes.NewReader(in.JSON))
		if err != nil {
			t.Fatalf("%s %s: %v", where, in.Name, err)
		}
		fullOK := j.full.Validate(inst) == nil
		subOK := reader.valid(v)
		orc := &oracle{reg: s.reg, counts: map[*model.NamedType]int{}}
		expressOK := orc.ok(m.Data, v)
		total.instances++
		if !fullOK {
			total.invalid++
			if !subOK {
				total.caught++
			}
		}
		switch {
		case fullOK && !subOK:
			t.Errorf("%s: the SDK reader rejects %s, which jsonschema/v6 accepts: %s", where, in.Name, in.JSON)
		case subOK != expressOK:
			t.Errorf("%s: the SDK reader says valid=%v, the oracle of expressible constraints valid=%v, on %s: %s", where, subOK, expressOK, in.Name, in.JSON)
		case !expressOK && fullOK:
			t.Errorf("%s: the oracle rejects %s, which jsonschema/v6 accepts (an oracle bug): %s", where, in.Name, in.JSON)
		default:
			total.sound++
		}
	}
	return total
}

// checkManifest checks registry.json: every URN points at its manifest-profile schema
// and names its full-fidelity draft-07 schema.
func checkManifest(t *testing.T, s set, files map[string][]byte) {
	t.Helper()
	var man struct {
		Schemas []map[string]string `json:"schemas"`
	}
	if err := json.Unmarshal(files[jsonschema.RegistryFile], &man); err != nil {
		t.Fatalf("%s: registry.json: %v", s.name, err)
	}
	if len(man.Schemas) != len(s.reg.Messages) {
		t.Fatalf("%s: registry.json has %d entries for %d URNs", s.name, len(man.Schemas), len(s.reg.Messages))
	}
	for i, m := range s.reg.Messages {
		e := man.Schemas[i]
		if e["urn"] != m.URN || e["schema"] != jsonschema.SDKDataFile(m.URN) || e["x-babel-data-schema"] != jsonschema.Draft7DataFile(m.URN) {
			t.Errorf("%s: registry.json entry %d: %v", s.name, i, e)
		}
	}
}

func hasDiag(ds registry.Diagnostics, rule string, at model.Pos) bool {
	for _, d := range ds {
		if d.Rule == rule && d.Pos == at {
			return true
		}
	}
	return false
}

func hasLost(inv *pii.Inventory, reason pii.Reason, at model.Pos) bool {
	for _, l := range inv.Lost {
		if l.Cause.Reason == reason && l.Cause.At == at {
			return true
		}
	}
	return false
}

// compileAll compiles the data schemas of files with jsonschema/v6, format assertion
// on, by file name.
func compileAll(t *testing.T, name string, files []outdir.File) map[string]*js.Schema {
	t.Helper()
	c := js.NewCompiler()
	c.AssertFormat()
	c.UseRegexpEngine(ecmare.JSONSchemaEngine) // registry patterns are ECMA-262 (docs/patterns.md)
	ids := map[string]string{}
	for _, f := range files {
		if !strings.HasSuffix(f.Name, ".data.schema.json") || strings.HasPrefix(f.Name, "draft7.") {
			continue
		}
		doc, err := js.UnmarshalJSON(bytes.NewReader(f.Content))
		if err != nil {
			t.Fatalf("%s %s: %v", name, f.Name, err)
		}
		id := doc.(map[string]any)["$id"].(string)
		if err := c.AddResource(id, doc); err != nil {
			t.Fatalf("%s %s: %v", name, f.Name, err)
		}
		ids[f.Name] = id
	}
	out := map[string]*js.Schema{}
	for file, id := range ids {
		s, err := c.Compile(id)
		if err != nil {
			t.Fatalf("%s %s: %v", name, file, err)
		}
		out[file] = s
	}
	return out
}

// mutations are random mutations (internal/property.Mutate) of the valid instances of
// a random registry: 20 per URN.
func mutations(s set, corpus []agreement.Instance) []agreement.Instance {
	rng := rand.New(rand.NewPCG(s.seed, 0x73646b73)) // "sdks"
	seen := map[string]bool{}
	for _, in := range corpus {
		seen[in.URN+" "+string(in.JSON)] = true
	}
	var out []agreement.Instance
	for _, m := range s.reg.Messages {
		var valid [][]byte
		for _, in := range corpus {
			if in.URN == m.URN && in.Expect == agreement.Valid {
				valid = append(valid, in.JSON)
			}
		}
		for k := 0; k < 20 && len(valid) > 0; k++ {
			b := valid[rng.IntN(len(valid))]
			for r := rng.IntN(3); r >= 0; r-- {
				b = property.Mutate(rng, b)
			}
			if !seen[m.URN+" "+string(b)] {
				seen[m.URN+" "+string(b)] = true
				out = append(out, agreement.Instance{Set: s.name, URN: m.URN, Name: fmt.Sprintf("random #%d", k), JSON: b})
			}
		}
	}
	return out
}
