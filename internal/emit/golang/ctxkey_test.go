package golang

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/babelqueue/bqgen/internal/gonames"
	"github.com/babelqueue/bqgen/internal/model"
	"github.com/babelqueue/bqgen/internal/synth"
	"github.com/babelqueue/bqgen/registry"
)

// memCache is a ContextCache in memory that counts its hits.
type memCache struct {
	mu         sync.Mutex
	m          map[ContextKey][]byte
	gets, hits int
}

func newMemCache() *memCache { return &memCache{m: map[ContextKey][]byte{}} }

func (c *memCache) Get(k ContextKey) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gets++
	b, ok := c.m[k]
	if ok {
		c.hits++
	}
	return b, ok
}

func (c *memCache) Put(k ContextKey, b []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[k] = bytes.Clone(b)
}

func loadRandom(t *testing.T, seed uint64) *model.Registry {
	t.Helper()
	src := synth.Random(synth.RandomOptions{Seed: seed, Messages: 10, Types: 4})
	reg, diags, err := registry.LoadFiles(context.Background(), map[string][]byte{"r.yaml": src})
	if err != nil || reg == nil || diags.HasErrors() {
		t.Fatalf("seed %d does not load (err %v): %v", seed, err, diags)
	}
	return reg
}

// emitBoth runs Emit without a cache and with cache, and fails the test unless both
// give the same files (or the same error). It returns the files.
func emitBoth(t *testing.T, what string, reg *model.Registry, names *gonames.Names, opts Options, cache ContextCache) []File {
	t.Helper()
	opts.Cache = nil
	want, wantErr := Emit(reg, names, opts)
	opts.Cache = cache
	got, gotErr := Emit(reg, names, opts)
	if fmt.Sprint(wantErr) != fmt.Sprint(gotErr) {
		t.Fatalf("%s: error with the cache %v, without %v", what, gotErr, wantErr)
	}
	if len(got) != len(want) {
		t.Fatalf("%s: %d files with the cache, %d without", what, len(got), len(want))
	}
	for i := range want {
		if got[i].Name != want[i].Name || !bytes.Equal(got[i].Content, want[i].Content) {
			t.Fatalf("%s: file %s differs with the cache (%d bytes, want %d)", what, want[i].Name, len(got[i].Content), len(want[i].Content))
		}
	}
	return want
}

// edit is one change of a model: it reports what it did, or "" when it found
// nothing to change.
type edit func(rng *rand.Rand, reg *model.Registry) string

// reachable returns the schemas of s and below it, not following named types.
func reachable(s *model.Schema) []*model.Schema {
	var out []*model.Schema
	model.Walk(s, "$", func(_ string, x *model.Schema) { out = append(out, x) })
	return out
}

func pick[T any](rng *rand.Rand, l []T) T { return l[rng.IntN(len(l))] }

// anySchema returns a random schema of a random message (owner false) or named type.
func anySchema(rng *rand.Rand, reg *model.Registry, inType bool) *model.Schema {
	if inType && len(reg.Types) > 0 {
		return pick(rng, reachable(pick(rng, reg.Types).Schema))
	}
	return pick(rng, reachable(pick(rng, reg.Messages).Data))
}

func anyProperty(rng *rand.Rand, reg *model.Registry, inType bool) *model.Property {
	for range 50 {
		if s := anySchema(rng, reg, inType); len(s.Properties) > 0 {
			return pick(rng, s.Properties)
		}
	}
	return nil
}

// edits are the changes TestContextCacheDifferential makes: in one message, in a
// named type (which the contexts using it render), in the supersedes links, the
// lints, the messages (added, removed, moved to another context), the names of types
// (renamed, or one added first: either reorders the named types' descriptors), the
// context packages' names (go.contexts), patterns (which renumbers a package's
// compiled patterns), positions (which the key leaves out).
var edits = map[string]edit{
	"summary": func(rng *rand.Rand, reg *model.Registry) string {
		m := pick(rng, reg.Messages)
		m.Summary += " edited"
		return m.URN
	},
	"field-description": func(rng *rand.Rand, reg *model.Registry) string {
		s := anySchema(rng, reg, rng.IntN(2) == 0)
		s.Description += " (edited)"
		return "description"
	},
	"field-required": func(rng *rand.Rand, reg *model.Registry) string {
		p := anyProperty(rng, reg, rng.IntN(2) == 0)
		if p == nil || p.Schema.Nullable {
			return ""
		}
		p.Required = !p.Required
		return p.Name
	},
	"field-nullable": func(rng *rand.Rand, reg *model.Registry) string {
		p := anyProperty(rng, reg, rng.IntN(2) == 0)
		if p == nil || p.Required || p.Schema.Kind == model.Object {
			return "" // a required nullable field can make a type recursive by value
		}
		p.Schema.Nullable = !p.Schema.Nullable
		return p.Name
	},
	"max-length": func(rng *rand.Rand, reg *model.Registry) string {
		s := anySchema(rng, reg, rng.IntN(2) == 0)
		if s.Kind != model.String {
			return ""
		}
		v := int64(rng.IntN(300) + 1)
		if s.MinLength != nil && *s.MinLength > v {
			return ""
		}
		s.MaxLength = &v
		return "maxLength"
	},
	"gdpr": func(rng *rand.Rand, reg *model.Registry) string {
		s := anySchema(rng, reg, rng.IntN(3) > 0) // mostly in named types: other contexts' LogValue
		if s.GDPR == "" {
			s.GDPR = "true"
		} else {
			s.GDPR = ""
		}
		return "x-gdpr-sensitive"
	},
	"deprecate": func(rng *rand.Rand, reg *model.Registry) string {
		m := pick(rng, reg.Messages)
		if m.Deprecation == nil {
			m.Deprecation = &model.Deprecation{Reason: "Use something else."}
		} else {
			m.Deprecation = nil
		}
		return m.URN
	},
	"supersedes": func(rng *rand.Rand, reg *model.Registry) string {
		m, o := pick(rng, reg.Messages), pick(rng, reg.Messages)
		if m.Supersedes == o.URN {
			m.Supersedes = ""
		} else {
			m.Supersedes = o.URN
		}
		return m.URN
	},
	"lint": func(rng *rand.Rand, reg *model.Registry) string {
		m := pick(rng, reg.Messages)
		if m.Lint == nil {
			m.Lint = &model.Lint{Ignore: []string{"BQ031"}, Reason: "edited"}
		} else {
			m.Lint.Reason += " again"
		}
		return m.URN
	},
	"remove-message": func(rng *rand.Rand, reg *model.Registry) string {
		if len(reg.Messages) < 3 {
			return ""
		}
		i := rng.IntN(len(reg.Messages))
		urn := reg.Messages[i].URN
		reg.Messages = slices.Delete(reg.Messages, i, i+1)
		return urn
	},
	"add-message": func(rng *rand.Rand, reg *model.Registry) string {
		like := pick(rng, reg.Messages)
		urn := fmt.Sprintf("urn:babel:%s:added%d.happened", like.Context(), rng.IntN(1e6))
		if reg.Message(urn) != nil {
			return ""
		}
		data := &model.Schema{Kind: model.Object, AdditionalProperties: true}
		data.Properties = []*model.Property{{Name: "id", Required: true, Schema: &model.Schema{Kind: model.Integer}}}
		if len(reg.Types) > 0 {
			t := pick(rng, reg.Types)
			data.Properties = append(data.Properties, &model.Property{Name: "ref", Schema: &model.Schema{Kind: model.Ref, Ref: t.Name, Named: t}})
		}
		reg.Messages = append(reg.Messages, &model.Message{URN: urn, Queue: like.Queue, Data: data})
		sort.Slice(reg.Messages, func(i, j int) bool { return reg.Messages[i].URN < reg.Messages[j].URN })
		return urn
	},
	"rename-type": func(rng *rand.Rand, reg *model.Registry) string {
		if len(reg.Types) == 0 {
			return ""
		}
		t := pick(rng, reg.Types)
		old := t.Name
		t.Name = "Renamed" + old
		if reg.Type(t.Name) != nil {
			t.Name = old
			return ""
		}
		for _, s := range allSchemas(reg) {
			if s.Named == t {
				s.Ref = t.Name
			}
		}
		sort.Slice(reg.Types, func(i, j int) bool { return reg.Types[i].Name < reg.Types[j].Name })
		return old
	},
	// go-contexts renames a context's Go package (go.contexts), or drops the
	// override: its messages are the same, its file's package clause is not.
	"go-contexts": func(rng *rand.Rand, reg *model.Registry) string {
		ctx := pick(rng, reg.Messages).Context()
		if _, ok := reg.GoContexts[ctx]; ok && rng.IntN(2) == 0 {
			delete(reg.GoContexts, ctx)
			return ctx
		}
		if reg.GoContexts == nil {
			reg.GoContexts = map[string]model.GoContext{}
		}
		reg.GoContexts[ctx] = model.GoContext{Name: fmt.Sprintf("pkg%d", rng.IntN(1e6))}
		return ctx
	},
	// move-context moves a message to another bounded context (its URN's context
	// changes): two contexts' files change, the Go names in both may shift.
	"move-context": func(rng *rand.Rand, reg *model.Registry) string {
		m, o := pick(rng, reg.Messages), pick(rng, reg.Messages)
		if m.Context() == o.Context() || len(reg.Messages) < 3 {
			return ""
		}
		urn := "urn:babel:" + o.Context() + ":" + model.URNName(m.URN)
		if reg.Message(urn) != nil {
			return ""
		}
		for _, x := range reg.Messages {
			if x.Supersedes == m.URN {
				x.Supersedes = urn
			}
		}
		old := m.URN
		m.URN = urn
		sort.Slice(reg.Messages, func(i, j int) bool { return reg.Messages[i].URN < reg.Messages[j].URN })
		return old
	},
	// pattern sets or drops a string's pattern, in a message or a named type: the
	// numbering of its package's compiled patterns (patternN) shifts.
	"pattern": func(rng *rand.Rand, reg *model.Registry) string {
		s := anySchema(rng, reg, rng.IntN(3) == 0)
		if s.Kind != model.String || len(s.Enum) > 0 || s.Format != "" {
			return ""
		}
		if s.Pattern != "" && rng.IntN(3) == 0 {
			s.Pattern = ""
		} else {
			s.Pattern = pick(rng, []string{"^[a-z]+$", "^[A-Z]{2}$", "^0*$", "^a"})
		}
		return "pattern"
	},
	// add-type adds a named type (first in name order, so every other type's index
	// among the named types' descriptors moves) and uses it in one message.
	"add-type": func(rng *rand.Rand, reg *model.Registry) string {
		name := fmt.Sprintf("AAdded%d", rng.IntN(1e6))
		if reg.Type(name) != nil {
			return ""
		}
		t := &model.NamedType{Name: name, Schema: &model.Schema{Kind: model.String, GDPR: pick(rng, []string{"", "true"})}}
		reg.Types = append(reg.Types, t)
		sort.Slice(reg.Types, func(i, j int) bool { return reg.Types[i].Name < reg.Types[j].Name })
		m := pick(rng, reg.Messages)
		m.Data.Properties = append(m.Data.Properties, &model.Property{Name: strings.ToLower(name), Schema: &model.Schema{Kind: model.Ref, Ref: name, Named: t}})
		return name
	},
	"positions": func(rng *rand.Rand, reg *model.Registry) string {
		m := pick(rng, reg.Messages)
		m.Pos.Line += 7
		m.Pos.File = "moved/" + m.Pos.File
		for _, s := range reachable(m.Data) {
			s.Pos.Line += 7
			for i := range s.Keys {
				s.Keys[i].Pos.Column++
			}
		}
		return m.URN
	},
}

// allSchemas returns every schema of reg: the messages' and the named types'.
func allSchemas(reg *model.Registry) []*model.Schema {
	var out []*model.Schema
	for _, m := range reg.Messages {
		out = append(out, reachable(m.Data)...)
	}
	for _, t := range reg.Types {
		out = append(out, reachable(t.Schema)...)
	}
	return out
}

// TestContextCacheDifferential: for random registries and random edits of every kind
// (edits), with one cache that holds the context files of every earlier version,
// Emit with the cache gives the files Emit gives without one, byte for byte; a
// version with the root package renamed or another import path too. The cache must
// answer: after an edit of one message, most contexts are hits.
func TestContextCacheDifferential(t *testing.T) {
	seeds := 30
	if testing.Short() {
		seeds = 6
	}
	kinds := make([]string, 0, len(edits))
	for k := range edits {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	done := map[string]int{}
	for seed := uint64(1); seed <= uint64(seeds); seed++ {
		reg := loadRandom(t, seed)
		rng := rand.New(rand.NewPCG(seed, 22))
		cache := newMemCache()
		opts := Options{ImportPath: "example.com/r/events"}
		names := plan(t, reg)
		emitBoth(t, fmt.Sprintf("seed %d", seed), reg, names, opts, cache)
		// Nothing changed: every context is a hit.
		cache.gets, cache.hits = 0, 0
		emitBoth(t, fmt.Sprintf("seed %d again", seed), reg, names, opts, cache)
		if cache.gets == 0 || cache.hits != cache.gets {
			t.Fatalf("seed %d: unchanged registry: %d hits of %d", seed, cache.hits, cache.gets)
		}
		for step := range 12 {
			kind := kinds[rng.IntN(len(kinds))]
			what := edits[kind](rng, reg)
			if what == "" {
				continue
			}
			names, colls := gonames.Plan(reg, "events")
			if len(colls) > 0 {
				t.Fatalf("seed %d step %d: %s %s: collisions %v", seed, step, kind, what, colls)
			}
			done[kind]++
			emitBoth(t, fmt.Sprintf("seed %d step %d: %s %s", seed, step, kind, what), reg, names, opts, cache)
			if step%4 == 3 {
				// A model the emitter rejects, in one context (a pattern that does not
				// compile): the same error with the cache, whose other contexts it
				// holds; then the model as it was.
				m := pick(rng, reg.Messages)
				s := pick(rng, reachable(m.Data))
				old := s.Pattern
				s.Pattern = "(unclosed"
				bad, _ := gonames.Plan(reg, "events")
				files := emitBoth(t, fmt.Sprintf("seed %d step %d: bad pattern in %s", seed, step, m.URN), reg, bad, opts, cache)
				if files != nil {
					t.Fatalf("seed %d step %d: a pattern that does not compile was emitted", seed, step)
				}
				s.Pattern = old
			}
		}
		// The options: another import path, another root package name.
		names = plan(t, reg)
		emitBoth(t, fmt.Sprintf("seed %d: import path", seed), reg, names, Options{ImportPath: "example.com/other"}, cache)
		other, colls := gonames.Plan(reg, "things")
		if len(colls) > 0 {
			t.Fatal(colls)
		}
		emitBoth(t, fmt.Sprintf("seed %d: package name", seed), reg, other, opts, cache)
	}
	for _, k := range kinds {
		if done[k] == 0 && !testing.Short() {
			t.Errorf("edit %s never applied", k)
		}
	}
}

// TestContextCacheHitsAfterOneEdit: after one message's summary changed, the cache
// answers every context file but that message's.
func TestContextCacheHitsAfterOneEdit(t *testing.T) {
	reg := loadRandom(t, 3)
	names := plan(t, reg)
	cache := newMemCache()
	opts := Options{ImportPath: "example.com/r/events", Cache: cache}
	files := emitBoth(t, "first", reg, names, opts, cache)
	contexts := len(files) - 2 - len(mustBqrt(t))
	if contexts < 3 {
		t.Fatalf("%d contexts: want a registry of several", contexts)
	}
	reg.Messages[0].Summary += " edited"
	cache.gets, cache.hits = 0, 0
	if _, err := Emit(reg, names, opts); err != nil {
		t.Fatal(err)
	}
	if cache.gets != contexts || cache.hits != contexts-1 {
		t.Fatalf("%d hits of %d gets, want %d of %d", cache.hits, cache.gets, contexts-1, contexts)
	}
	// The keys do not depend on the number of workers: a cache filled with one
	// answers every context with three, and the files are the same.
	want := emitBoth(t, "edited", reg, names, opts, cache)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	one := newMemCache()
	emitBoth(t, "one worker", reg, names, opts, one)
	runtime.GOMAXPROCS(3)
	one.gets, one.hits = 0, 0
	if got := emitBoth(t, "three workers", reg, names, opts, one); !slices.EqualFunc(got, want, func(a, b File) bool { return a.Name == b.Name && bytes.Equal(a.Content, b.Content) }) {
		t.Fatal("the files differ with another number of workers")
	}
	if one.hits != contexts || one.gets != contexts {
		t.Fatalf("three workers: %d hits of %d gets, want %d", one.hits, one.gets, contexts)
	}
}

func mustBqrt(t *testing.T) []File {
	f, err := bqrtSources()
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// keyOf prepares g as Emit does before its workers start and returns a function
// computing the key of the context of m.
func keyOf(t *testing.T, reg *model.Registry, names *gonames.Names, m *model.Message) (*gen, func() ContextKey) {
	t.Helper()
	g := newGen(reg, names, "example.com/r/events")
	if err := g.check(nil); err != nil {
		t.Fatal(err)
	}
	g.computeChecks()
	g.findIndirect()
	g.startFile(names.Root)
	g.typesFile()
	g.holdsPII(nil)
	pkg := names.Messages[m].Pkg
	var msgs []*model.Message
	for _, x := range reg.Messages {
		if names.Messages[x].Pkg == pkg {
			msgs = append(msgs, x)
		}
	}
	k := newKeyer(g)
	return g, func() ContextKey {
		key, ok := k.contextKey(pkg, msgs)
		if !ok {
			t.Fatalf("context %s cannot be keyed", pkg.Dir)
		}
		return key
	}
}

// skippedTypes are the types the key leaves out wherever they occur (keyer).
var skippedTypes = map[reflect.Type]bool{
	reflect.TypeFor[model.Pos]():      true,
	reflect.TypeFor[[]model.Pos]():    true,
	reflect.TypeFor[[]model.KeyPos](): true,
}

// mutate changes the settable value v to another value of its type and returns a
// function that restores it.
func mutate(t *testing.T, v reflect.Value) func() {
	old := reflect.New(v.Type()).Elem()
	old.Set(v)
	switch v.Kind() {
	case reflect.String:
		v.SetString(v.String() + "x")
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(v.Int() + 1)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(v.Float() + 1)
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		} else {
			v.Set(reflect.Zero(v.Type()))
		}
	case reflect.Slice:
		elem := reflect.Zero(v.Type().Elem())
		if v.Type().Elem().Kind() == reflect.Interface {
			elem = reflect.ValueOf("x") // a JSON value
		}
		v.Set(reflect.Append(reflect.AppendSlice(reflect.MakeSlice(v.Type(), 0, v.Len()+1), v), elem))
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		for it := v.MapRange(); it.Next(); {
			m.SetMapIndex(it.Key(), it.Value())
		}
		m.SetMapIndex(reflect.ValueOf("mutated").Convert(v.Type().Key()), reflect.Zero(v.Type().Elem()))
		v.Set(m)
	default:
		t.Fatalf("mutate: no mutation for %s", v.Type())
	}
	return func() { v.Set(old) }
}

// TestContextKeyCoversModel changes, one at a time, every field of every model type
// reachable from a message (Message, Schema, Property, NamedType, Deprecation, Lint,
// Bound, and any type added to them later) but the positions (skippedTypes), and
// requires a new key each time: a field the key forgot fails it.
func TestContextKeyCoversModel(t *testing.T) {
	reg := loadRandom(t, 5)
	names := plan(t, reg)
	// A message whose data uses a named type, so that NamedType's fields are met
	// through Schema.Named.
	var m *model.Message
	var ref *model.Schema
	for _, x := range reg.Messages {
		for _, s := range reachable(x.Data) {
			if s.Named != nil && ref == nil {
				m, ref = x, s
			}
		}
	}
	if m == nil {
		t.Fatal("no message uses a named type")
	}
	_, key := keyOf(t, reg, names, m)
	covered := map[reflect.Type]bool{}
	var cover func(path string, v reflect.Value)
	cover = func(path string, v reflect.Value) {
		typ := v.Type()
		if covered[typ] {
			return
		}
		covered[typ] = true
		for i := range typ.NumField() {
			f, sf := v.Field(i), typ.Field(i)
			if skippedTypes[sf.Type] {
				continue
			}
			where := path + "." + sf.Name
			before := key()
			restore := mutate(t, f)
			if key() == before {
				t.Errorf("changing %s (%s) leaves the key unchanged", where, sf.Type)
			}
			restore()
			if key() != before {
				t.Fatalf("restoring %s changed the key", where)
			}
			// Below a pointer to a struct of the model: its fields, on a value
			// made for the purpose when there is none.
			ft := sf.Type
			if ft.Kind() == reflect.Slice {
				ft = ft.Elem()
			}
			if ft.Kind() != reflect.Pointer || ft.Elem().Kind() != reflect.Struct || ft.Elem().PkgPath() != typ.PkgPath() || covered[ft.Elem()] {
				continue
			}
			var target reflect.Value
			switch {
			case f.Kind() == reflect.Pointer && !f.IsNil():
				target = f.Elem()
			case f.Kind() == reflect.Pointer:
				nv := reflect.New(ft.Elem())
				f.Set(nv)
				defer f.Set(reflect.Zero(f.Type()))
				target = nv.Elem()
			case f.Len() > 0 && !f.Index(0).IsNil():
				target = f.Index(0).Elem()
			default:
				t.Fatalf("%s: no element to change", where)
			}
			cover(where, target)
		}
	}
	cover("Message", reflect.ValueOf(m).Elem())
	for _, want := range []reflect.Type{reflect.TypeFor[model.Message](), reflect.TypeFor[model.Schema](), reflect.TypeFor[model.Property](),
		reflect.TypeFor[model.NamedType](), reflect.TypeFor[model.Deprecation](), reflect.TypeFor[model.Lint](), reflect.TypeFor[model.Bound]()} {
		if !covered[want] {
			t.Errorf("%s not covered", want)
		}
	}
}

// notKeyed are the fields of gen and gonames.Names that are not maps keyed by a
// model node (which TestContextKeyCoversAnnotations changes entry by entry), with
// why the key need not, or does by other means, cover them. A field added to either
// struct fails the test until it is listed here or is such a map.
var notKeyed = map[string]string{
	"gen.reg":         "the model: the key walks what the context reaches of it",
	"gen.names":       "the names: their maps are changed entry by entry, Root below",
	"gen.root":        "the import path: in the key",
	"gen.bqrt":        "importPath(root, BqrtDir): a function of root",
	"gen.pkg":         "the file's package: in the key (Dir, Name, Context)",
	"gen.declared":    "keyed by name: the key holds its entry for every inline type reached",
	"gen.piiIndex":    "made per worker from reg; its answers for a message depend on the message and the named types it reaches only",
	"gen.out":         "the file being built",
	"gen.fieldDocs":   "a memo of a function of its key",
	"gen.tables":      "the file being built",
	"gen.err":         "the file being built",
	"gen.keys":        "the keyer itself",
	"Names.Root":      "in the key (Name, Dir)",
	"Names.Contexts":  "which files Emit writes; the rendering of one does not read it",
	"Names.byContext": "Names.Context's index; the renderer does not call it",
}

// TestContextKeyCoversAnnotations changes, for every map of gen and gonames.Names
// keyed by a model node, its entry for a node the context reaches (removing it, or
// adding one when there is none), and requires a new key each time; every other field
// of both must be listed in notKeyed.
func TestContextKeyCoversAnnotations(t *testing.T) {
	reg := loadRandom(t, 5)
	names := plan(t, reg)
	m := reg.Messages[0]
	g, key := keyOf(t, reg, names, m)
	// The nodes the context reaches, by type.
	pkg := names.Messages[m].Pkg
	nodes := map[reflect.Type][]reflect.Value{reflect.TypeFor[*gonames.Package](): {reflect.ValueOf(pkg)}}
	seen := map[any]bool{}
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer:
			if v.IsNil() || seen[v.Interface()] {
				return
			}
			seen[v.Interface()] = true
			nodes[v.Type()] = append(nodes[v.Type()], v)
			walk(v.Elem())
		case reflect.Struct:
			for i := range v.NumField() {
				walk(v.Field(i))
			}
		case reflect.Slice:
			for i := range v.Len() {
				walk(v.Index(i))
			}
		}
	}
	for _, x := range reg.Messages {
		if names.Messages[x].Pkg == pkg {
			walk(reflect.ValueOf(x))
		}
	}
	maps := 0
	for _, s := range []reflect.Value{reflect.ValueOf(g).Elem(), reflect.ValueOf(names).Elem()} {
		for i := range s.NumField() {
			sf := s.Type().Field(i)
			name := map[bool]string{true: "gen.", false: "Names."}[s.Type() == reflect.TypeFor[gen]()] + sf.Name
			if sf.Type.Kind() != reflect.Map || sf.Type.Key().Kind() != reflect.Pointer {
				if notKeyed[name] == "" {
					t.Errorf("%s is neither a map keyed by a model node nor listed in notKeyed", name)
				}
				continue
			}
			maps++
			mv := reflect.NewAt(sf.Type, unsafe.Pointer(s.Field(i).UnsafeAddr())).Elem()
			cands := nodes[sf.Type.Key()]
			if len(cands) == 0 {
				t.Errorf("%s: the context reaches no %s", name, sf.Type.Key())
				continue
			}
			node := cands[0]
			for _, c := range cands {
				if mv.MapIndex(c).IsValid() {
					node = c
					break
				}
			}
			before := key()
			old := mv.MapIndex(node)
			if old.IsValid() {
				mv.SetMapIndex(node, reflect.Value{})
			} else {
				v := reflect.New(sf.Type.Elem()).Elem()
				mutate(t, v)
				mv.SetMapIndex(node, v)
			}
			if key() == before {
				t.Errorf("changing %s[%s] leaves the key unchanged", name, node.Type())
			}
			mv.SetMapIndex(node, old)
			if key() != before {
				t.Fatalf("restoring %s changed the key", name)
			}
			if sf.Type.Elem() == reflect.TypeFor[gonames.Decl]() {
				changeDeclParts(t, name, mv, cands, key)
			}
		}
	}
	// gen: named, namedIndex, indirect, pii; Names: Messages, Types, Inline (with
	// the fields and enum constants of each entry), Patterns.
	if maps < 8 {
		t.Errorf("%d maps keyed by model nodes, want the 8 of gen and Names at least", maps)
	}
	// The context's package itself (go.contexts renames it while its messages stay
	// as they are), and the root package: every field but the positions.
	for _, p := range []*gonames.Package{pkg, names.Root} {
		v := reflect.ValueOf(p).Elem()
		for i := range v.NumField() {
			sf := v.Type().Field(i)
			if skippedTypes[sf.Type] {
				continue
			}
			before := key()
			restore := mutate(t, v.Field(i))
			if key() == before {
				t.Errorf("changing Package.%s of %q leaves the key unchanged", sf.Name, p.Dir)
			}
			restore()
		}
	}
}

// changeDeclParts changes, one at a time, each part of an entry of the map mv of
// gonames.Decl values (Names.Inline) for a node of cands whose entry has that part:
// the type's name and package, one field name, one enum constant; each must give a
// new key.
func changeDeclParts(t *testing.T, name string, mv reflect.Value, cands []reflect.Value, key func() ContextKey) {
	t.Helper()
	parts := []struct {
		part   string
		has    func(gonames.Decl) bool
		change func(*gonames.Decl)
	}{
		{"Name", func(d gonames.Decl) bool { return d.Name != "" }, func(d *gonames.Decl) { d.Name += "x" }},
		// A type of the root package (a named type's schema, which the context's
		// file refers to): a type of another package in the context itself makes
		// it uncacheable instead (keyer.schema).
		{"Pkg", func(d gonames.Decl) bool { return d.Pkg != nil && d.Pkg.Dir == "" }, func(d *gonames.Decl) { d.Pkg = &gonames.Package{Dir: "x", Name: d.Pkg.Name} }},
		{"Fields", func(d gonames.Decl) bool { return len(d.Fields) > 0 }, func(d *gonames.Decl) {
			d.Fields = slices.Clone(d.Fields)
			d.Fields[len(d.Fields)-1] += "X"
		}},
		{"EnumConsts", func(d gonames.Decl) bool { return len(d.EnumConsts) > 0 }, func(d *gonames.Decl) {
			d.EnumConsts = slices.Clone(d.EnumConsts)
			d.EnumConsts[len(d.EnumConsts)-1] += "X"
		}},
	}
	for _, p := range parts {
		var node reflect.Value
		for _, c := range cands {
			if e := mv.MapIndex(c); e.IsValid() && p.has(e.Interface().(gonames.Decl)) {
				node = c
				break
			}
		}
		if !node.IsValid() {
			t.Errorf("%s: the context reaches no entry with %s", name, p.part)
			continue
		}
		old := mv.MapIndex(node)
		d := old.Interface().(gonames.Decl)
		p.change(&d)
		before := key()
		mv.SetMapIndex(node, reflect.ValueOf(d))
		if key() == before {
			t.Errorf("changing the %s of %s[%s] leaves the key unchanged", p.part, name, node.Type())
		}
		mv.SetMapIndex(node, old)
		if key() != before {
			t.Fatalf("restoring the %s of %s changed the key", p.part, name)
		}
	}
}
