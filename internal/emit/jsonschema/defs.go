package jsonschema

import (
	"sort"

	"github.com/babelqueue/bqgen/internal/model"
	"github.com/babelqueue/bqgen/internal/ordjson"
)

// defCache holds the definitions ($defs or definitions) of a registry's named types in
// one draft, each built and written once: a named type's schema is the same in every
// data and envelope schema of that draft that reaches it (gen.node of it depends on the
// type and the draft only), and at 10,000 URNs the definitions are about a third of
// the bytes of the data schemas. It is read-only once built, so Files' Content may
// use it from many goroutines. The manifest profile inlines named types and does not
// use it.
type defCache struct {
	types map[*model.NamedType]cachedDef
}

// cachedDef is the definition of one named type: its schema as written at the top
// level (ordjson.Raw) and the named types that schema refers to directly. ok is false
// for a type whose schema gen.node or ordjson refuses: a document reaching it is then
// built the ordinary way, which reports the error as before.
type cachedDef struct {
	text Raw
	refs []*model.NamedType
	ok   bool
}

// Raw is ordjson.Raw, named here for brevity.
type Raw = ordjson.Raw

// newDefCache builds the definitions of reg's named types in draft 7 (draft7) or
// 2020-12.
func newDefCache(reg *model.Registry, draft7 bool) *defCache {
	c := &defCache{types: make(map[*model.NamedType]cachedDef, len(reg.Types))}
	for _, nt := range reg.Types {
		if nt == nil || nt.Schema == nil {
			continue
		}
		g := newGen(reg, draft7)
		o := g.node(nt.Schema)
		if g.err != nil {
			c.types[nt] = cachedDef{}
			continue
		}
		text, err := ordjson.MarshalRaw(o)
		if err != nil {
			c.types[nt] = cachedDef{}
			continue
		}
		refs := make([]*model.NamedType, 0, len(g.queued))
		for _, name := range sortedKeys(g.queued) {
			refs = append(refs, g.queued[name])
		}
		c.types[nt] = cachedDef{text: text, refs: refs, ok: true}
	}
	return c
}

// definitions returns the definitions object of a document whose schemas refer to
// the named types queued (by name), and of every named type those reach, sorted by
// name, as gen.finish builds it. ok is false when one of them is not in the cache
// (a model whose uses point at types outside reg.Types), failed to build, or two of
// them share a name: the caller then builds the definitions itself.
func (c *defCache) definitions(queued map[string]*model.NamedType) (d *ordjson.Object, ok bool) {
	if len(queued) == 0 {
		return ordjson.New(), true
	}
	seen := make(map[string]*model.NamedType, 2*len(queued))
	stack := make([]*model.NamedType, 0, len(queued))
	for _, nt := range queued {
		stack = append(stack, nt)
	}
	for len(stack) > 0 {
		nt := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if prev, dup := seen[nt.Name]; dup {
			if prev != nt {
				return nil, false
			}
			continue
		}
		def, found := c.types[nt]
		if !found || !def.ok {
			return nil, false
		}
		seen[nt.Name] = nt
		stack = append(stack, def.refs...)
	}
	names := make([]string, 0, len(seen))
	for name := range seen {
		names = append(names, name)
	}
	sort.Strings(names)
	d = &ordjson.Object{Keys: names, Values: make([]any, len(names))}
	for i, name := range names {
		d.Values[i] = c.types[seen[name]].text
	}
	return d, true
}
