package golang

import (
	"crypto/sha256"
	"encoding/binary"
	"maps"
	"math"
	"slices"
	"unsafe"

	"github.com/babelqueue/bqgen/internal/gonames"
	"github.com/babelqueue/bqgen/internal/model"
)

// ContextCache keeps the files of context packages that Emit rendered, by ContextKey
// (Options.Cache). Emit asks it for each context file before rendering it and hands it
// each file it rendered. An implementation must return exactly the bytes Put stored
// under a key, or false (a corrupt entry is a miss). Emit calls it from several
// goroutines at once.
type ContextCache interface {
	// Get returns the content stored under key, or false.
	Get(key ContextKey) ([]byte, bool)
	// Put stores content under key; failures are the cache's to ignore.
	Put(key ContextKey, content []byte)
}

// ContextKey is the SHA-256 of everything the rendering of one context file reads
// (docs/decisions.md, "The build cache"): the key's format version, the root
// package's import path, name and directory, the context's package and its compiled
// patterns (gonames.Names.Patterns), and a walk of the context's messages in URN
// order and of everything reachable from them (schemas, properties, named types,
// deprecations, lints, enums, examples; every field of each but the positions in the
// registry source), each node with what the generator and gonames.Names hold for it:
// its Go names and their packages, whether a named type has checks (gen.named) or
// holds personal data (gen.pii) and its index among the named types, whether a
// property is indirect (gen.indirect), whether the root files declared an inline
// type. A schema or named type met again is written as a reference to its first
// visit, so sharing and recursion are part of the key. The code of bqgen is not: a
// cache that outlives the executable mixes its identity in (the CLI's does).
// TestContextKeyCoversModel and TestContextKeyCoversAnnotations change every field
// of every model type and every entry the generator looks up, and require a new key.
type ContextKey [sha256.Size]byte

// keyVersion starts every ContextKey's input; change it whenever the walk changes.
const keyVersion = "bqgen golang context key 2"

// keyer computes ContextKeys over g (the generator as Emit's workers start: its
// fixpoints and the root files' record of declared types are complete); each worker
// has its own.
//
// Positions in the registry source (model.Pos, model.KeyPos, Schema.EnumPos) are left
// out: a successful render writes none (m.Pos goes into an error only, and a failed
// render is not cached), and no decision of the renderer, nor any answer of pii.Index
// it uses (Marked, Inlined, Of(m).Protected), depends on one: pii keys the
// deduplication of Lost and Nested findings by position, which Protected does not
// read. Leaving them out keeps a context's key when an edit elsewhere in its file
// moves lines, or when the same registry is read from another directory.
type keyer struct {
	g    *gen
	pkg  *gonames.Package
	buf  []byte
	seen map[unsafe.Pointer]int
	// inNamed counts the named types the walk is inside.
	inNamed int
	// ok is false once the walk met what it cannot key (an enum or example value
	// that is no JSON value, an inline type declared in another context's package):
	// the context is then rendered, never cached.
	ok bool
}

func newKeyer(g *gen) *keyer { return &keyer{g: g, seen: map[unsafe.Pointer]int{}} }

// Tags of the walk's encoding: every value that can be absent or of several types is
// written with a tag, every string and list with its length, so that no two
// different inputs encode alike.
const (
	tNil byte = iota + 1
	tBack
	tNew
	tFalse
	tTrue
	tInt
	tFloat
	tString
	tList
	tMap
	tAbsent
	tPresent
	tOther
)

// contextKey returns the key of the file of context pkg holding msgs (in URN order),
// or false when the walk met something it cannot key.
func (k *keyer) contextKey(pkg *gonames.Package, msgs []*model.Message) (ContextKey, bool) {
	k.pkg, k.ok, k.buf, k.inNamed = pkg, true, k.buf[:0], 0
	clear(k.seen)
	k.str(keyVersion)
	k.str(k.g.root)
	k.str(k.g.names.Root.Name)
	k.str(k.g.names.Root.Dir)
	k.pack(pkg)
	pats, ok := k.g.names.Patterns[pkg]
	k.present(ok)
	k.strMap(pats)
	k.int(int64(len(msgs)))
	for _, m := range msgs {
		k.message(m)
	}
	if !k.ok {
		return ContextKey{}, false
	}
	return sha256.Sum256(k.buf), true
}

func (k *keyer) tag(t byte) { k.buf = append(k.buf, t) }

func (k *keyer) bool(v bool) {
	if v {
		k.tag(tTrue)
	} else {
		k.tag(tFalse)
	}
}

func (k *keyer) present(v bool) {
	if v {
		k.tag(tPresent)
	} else {
		k.tag(tAbsent)
	}
}

func (k *keyer) int(v int64) {
	k.buf = append(k.buf, tInt)
	k.buf = binary.AppendVarint(k.buf, v)
}

func (k *keyer) str(s string) {
	k.buf = append(k.buf, tString)
	k.buf = binary.AppendUvarint(k.buf, uint64(len(s)))
	k.buf = append(k.buf, s...)
}

// list writes l as a tagged list (a nil list and an empty one apart), each element
// with each.
func list[T any](k *keyer, l []T, each func(T)) {
	if l == nil {
		k.tag(tNil)
		return
	}
	k.tag(tList)
	k.int(int64(len(l)))
	for _, v := range l {
		each(v)
	}
}

func (k *keyer) strs(l []string) { list(k, l, k.str) }

// strMap writes m's entries sorted by key.
func (k *keyer) strMap(m map[string]string) {
	if m == nil {
		k.tag(tNil)
		return
	}
	keys := slices.Sorted(maps.Keys(m))
	k.tag(tMap)
	k.int(int64(len(keys)))
	for _, key := range keys {
		k.str(key)
		k.str(m[key])
	}
}

func (k *keyer) int64p(p *int64) {
	if p == nil {
		k.tag(tNil)
		return
	}
	k.int(*p)
}

func (k *keyer) bound(b *model.Bound) {
	if b == nil {
		k.tag(tNil)
		return
	}
	k.bool(b.IsInt)
	k.int(b.I)
	k.float(b.F)
}

func (k *keyer) float(f float64) {
	k.buf = append(k.buf, tFloat)
	k.buf = binary.LittleEndian.AppendUint64(k.buf, math.Float64bits(f))
}

func (k *keyer) deprecation(d *model.Deprecation) {
	if d == nil {
		k.tag(tNil)
		return
	}
	k.str(d.Reason)
}

// value writes an enum value or an example: a JSON value (model.Schema.Examples), or
// an int (enumLit writes one). Any other type makes the context uncacheable.
func (k *keyer) value(v any) {
	switch x := v.(type) {
	case nil:
		k.tag(tNil)
	case bool:
		k.bool(x)
	case int64:
		k.int(x)
	case int:
		k.tag(tOther)
		k.int(int64(x))
	case float64:
		k.float(x)
	case string:
		k.str(x)
	case []any:
		k.values(x)
	case map[string]any:
		keys := slices.Sorted(maps.Keys(x))
		k.tag(tMap)
		k.int(int64(len(keys)))
		for _, key := range keys {
			k.str(key)
			k.value(x[key])
		}
	default:
		k.ok = false
	}
}

func (k *keyer) values(l []any) { list(k, l, k.value) }

// pack writes a Go package: its directory, name and bounded context.
func (k *keyer) pack(p *gonames.Package) {
	if p == nil {
		k.tag(tNil)
		return
	}
	k.tag(tNew)
	k.str(p.Dir)
	k.str(p.Name)
	k.str(p.Context)
}

// ident writes a planned Go identifier and whether the map held one.
func (k *keyer) ident(id gonames.Ident, ok bool) {
	k.present(ok)
	k.pack(id.Pkg)
	k.str(id.Name)
}

// visit reports whether p was met before in this key, writing a reference to it
// then, and else records it.
func (k *keyer) visit(p unsafe.Pointer) bool {
	if n, ok := k.seen[p]; ok {
		k.tag(tBack)
		k.int(int64(n))
		return true
	}
	k.seen[p] = len(k.seen)
	k.tag(tNew)
	return false
}

func (k *keyer) message(m *model.Message) {
	if m == nil {
		k.tag(tNil)
		return
	}
	k.tag(tNew)
	k.str(m.URN)
	k.str(string(m.Kind))
	k.str(m.Summary)
	k.str(m.Description)
	k.str(m.Owner)
	k.str(m.Queue)
	k.deprecation(m.Deprecation)
	k.str(m.Supersedes)
	k.schema(m.Data)
	if m.Lint == nil {
		k.tag(tNil)
	} else {
		k.tag(tNew)
		k.strs(m.Lint.Ignore)
		k.str(m.Lint.Reason)
	}
	k.str(m.GoName)
	id, ok := k.g.names.Messages[m]
	k.ident(id, ok)
}

func (k *keyer) named(t *model.NamedType) {
	if t == nil {
		k.tag(tNil)
		return
	}
	if k.visit(unsafe.Pointer(t)) {
		return
	}
	k.str(t.Name)
	k.inNamed++
	k.schema(t.Schema)
	k.inNamed--
	id, ok := k.g.names.Types[t]
	k.ident(id, ok)
	k.bool(k.g.named[t])
	k.bool(k.g.pii[t])
	i, ok := k.g.namedIndex[t]
	k.present(ok)
	k.int(int64(i))
}

func (k *keyer) property(p *model.Property) {
	if p == nil {
		k.tag(tNil)
		return
	}
	k.tag(tNew)
	k.str(p.Name)
	k.bool(p.Required)
	k.int(int64(p.RequiredIndex))
	k.schema(p.Schema)
	k.bool(k.g.indirect[p])
}

func (k *keyer) schema(s *model.Schema) {
	if s == nil {
		k.tag(tNil)
		return
	}
	// Only objects and schemas with an enum have an entry in Inline, and the
	// renderer looks up no other (gen.decl).
	var id gonames.Decl
	hasID := false
	if s.Kind == model.Object || len(s.Enum) > 0 {
		id, hasID = k.g.names.Inline[s]
	}
	declared := hasID && id.Pkg != nil && k.g.declared[declKey{id.Pkg.Dir, id.Name}]
	// The render of a context declares the inline types below its messages' data
	// (gen.innerTypes, which does not follow named types) unless declared says it
	// is: in the worker's copy, what the root files declared (fixed before the
	// workers start) and what the contexts it rendered declared, each in its own
	// package. An inline type there of another context's package, or of the root
	// package that the root files did not declare, would make the file depend on
	// which contexts the worker rendered before: such a context is not cached.
	if k.inNamed == 0 && hasID && id.Name != "" && id.Pkg != nil && id.Pkg != k.pkg && (id.Pkg != k.g.names.Root || !declared) {
		k.ok = false
	}
	if k.visit(unsafe.Pointer(s)) {
		return
	}
	k.str(string(s.Kind))
	k.str(s.Ref)
	k.named(s.Named)
	k.str(s.Description)
	k.bool(s.Nullable)
	k.deprecation(s.Deprecation)
	k.values(s.Examples)
	k.str(s.GDPR)
	k.str(s.GoName)
	k.strMap(s.GoEnumNames)
	k.int64p(s.MinLength)
	k.int64p(s.MaxLength)
	k.str(s.Pattern)
	k.str(s.Format)
	k.values(s.Enum)
	k.str(s.IntFormat)
	k.bound(s.Minimum)
	k.bound(s.Maximum)
	k.bound(s.ExclusiveMinimum)
	k.bound(s.ExclusiveMaximum)
	k.str(s.Encoding)
	if s.Properties == nil {
		k.tag(tNil)
	} else {
		k.tag(tList)
		k.int(int64(len(s.Properties)))
		for _, p := range s.Properties {
			k.property(p)
		}
	}
	k.bool(s.AdditionalProperties)
	k.schema(s.Items)
	k.int64p(s.MinItems)
	k.int64p(s.MaxItems)
	k.bool(s.UniqueItems)
	k.schema(s.Values)
	k.ident(id.Ident, hasID)
	k.bool(declared)
	// The renderer reads the field names of objects only (check, structType), and
	// the constants of schemas with an enum only (check, enumType).
	if s.Kind == model.Object {
		k.strs(id.Fields)
	}
	if len(s.Enum) > 0 {
		k.strs(id.EnumConsts)
	}
}
