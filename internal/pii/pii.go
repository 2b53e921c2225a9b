// Package pii computes, from the model, where a URN's personal data lies: every value
// the registry marks `x-gdpr-sensitive`, as a path in the BabelQueue SDKs' path syntax,
// and the marks those paths cannot reach. It is the one place that answers the
// question; `bqgen check` (rules BQ048, BQ049 and the `--pii` inventory), `bqgen docs`,
// the manifest profile of `bqgen jsonschema` and the generated Go code all read it, so
// they agree on the set of protected values of every URN. docs/pii.md explains it.
//
// # The SDKs' path syntax
//
// The Go SDK (babelqueue-go, schema.Schema.SensitivePaths and gdpr.Protect), the Python
// SDK (babelqueue.schema.sensitive_paths, babelqueue.gdpr.protect) and babelqueue-registry
// (`bqschema gdpr`) find marks by walking a data schema through `properties` and `items`
// only. A property adds its key, joined with "." (`customer.email`); array items add
// "[]" to the path they belong to (`lines[].sku`, `tags[]`). Protect splits a path at
// every "." and reads a trailing "[]" of a segment as "every element of this array".
// So these marks cannot be reached (Reason):
//
//   - MapValue: anything inside the values of a map (`additionalProperties` with a
//     schema is not walked);
//   - Key: anything under a key that contains ".", ends with "[]", or is the empty key
//     at the top level (its path is "", the root): Protect would split the key, read it
//     as an array, or skip it, and protect another value or none;
//   - NestedArray: anything in the items of an array that is itself array items
//     (`m[][]`): Protect looks up a key "m[]";
//   - Root: a mark on the data block itself (path ""): Protect skips it;
//   - Recursion: a recursive named type is inlined UnrollDepth times along a path (the
//     SDKs follow no `$ref`); its marks below that depth are not reached;
//   - TooLarge: a URN whose schema with every named type inlined would exceed MaxNodes
//     schema nodes or nest deeper than MaxNesting keeps `$ref` in its manifest schema,
//     so no mark inside a named type is reached.
//
// A mark inside a value that is itself marked (a marked object, array or map) is
// protected with it, as one ciphertext: it is never lost, and when the SDKs list it
// too (both are reachable), it is a Nested mark, which the SDKs' Unprotect cannot
// restore (it decrypts the outer value, then fails on the clear inner one).
package pii

import (
	"sort"
	"strconv"
	"strings"

	"github.com/babelqueue/bqgen/internal/model"
)

// UnrollDepth is how many times the manifest profile inlines a named type along one
// path from the data root: a recursive type's schema is written UnrollDepth times, and
// the use below the last one is written as `{}` (any value), keeping only the use's own
// annotations (its description and x-gdpr-sensitive mark).
const UnrollDepth = 3

// MaxNodes bounds the manifest schema of one URN: the number of schema nodes (a
// model.Schema each, properties, items and map values included) of its data schema
// with every named type inlined (recursion unrolled UnrollDepth times). Beyond it, the
// manifest schema keeps `$ref` (Reason TooLarge).
const MaxNodes = 100_000

// MaxNesting bounds the nesting of schema nodes along one path of the inlined schema,
// the data root being 1. Beyond it, the manifest schema keeps `$ref` (Reason
// TooLarge): deeper documents approach the recursion limits of the SDK readers
// (Python's json module and its validator recurse once or twice per level).
const MaxNesting = 100

// Reason says why the SDKs cannot reach a mark.
type Reason string

// The reasons, as the `--pii` inventory of `bqgen check --format json` writes them.
const (
	MapValue    Reason = "map-value"
	Key         Reason = "key"
	NestedArray Reason = "nested-array"
	Root        Reason = "root"
	Recursion   Reason = "recursion"
	TooLarge    Reason = "too-large"
)

// Mark is one value the registry marks x-gdpr-sensitive.
type Mark struct {
	// Path is the value's path in the SDKs' syntax (`customer.email`, `lines[].sku`) for
	// a reachable mark; for a lost one, the path in bqgen's syntax (BQPath).
	Path string
	// Category is the mark's category (`x-gdpr-sensitive: contact`), "" for `true`.
	Category string
	// Pos is the position of the `x-gdpr-sensitive` key (the schema's position when the
	// model has no key positions).
	Pos model.Pos
	// Owner is the named type whose schema holds the mark, "" for the message's own data.
	Owner string
	// Rel is the mark's path from the root of Owner (bqgen's syntax, BQPath).
	Rel string
}

// Cause is where and why the SDKs stop following a path.
type Cause struct {
	Reason Reason
	// At is the position of the construct: the map schema, the property key, the inner
	// array's items, the recursive use of a named type, the data block's mark, the URN.
	At model.Pos
	// Owner is the named type whose schema holds the construct ("" for the message's
	// own data) and Path its path from Owner's root (bqgen's syntax, BQPath).
	Owner, Path string
	// Type is the named type not inlined, for Recursion and TooLarge.
	Type string
	// bq is the construct's path from the data root.
	bq string
}

// Lost is a mark the SDKs cannot reach: it is not in Inventory.Paths, and the SDKs'
// Protect leaves its value in clear text.
type Lost struct {
	Mark
	Cause Cause
	// CauseRel is the mark's path from the root of Cause.Owner (bqgen's syntax).
	CauseRel string
}

// Nested is a reachable mark inside a reachable marked value (BQ049).
type Nested struct {
	Outer, Inner Mark
	// InnerRel is Inner's path from the root of Outer.Owner (bqgen's syntax).
	InnerRel string
}

// Inventory is the PII of one URN.
type Inventory struct {
	URN string
	// Paths are the reachable marks, sorted by Path (byte order, as the SDKs sort them):
	// exactly the paths the SDKs' SensitivePaths find in the manifest schema, and the
	// values their Protect encrypts.
	Paths []Mark
	// Lost are the marks no SDK path reaches, in walk order (source order, depth first),
	// each once per cause and path from the cause; below a Recursion or TooLarge cut,
	// where the schema is infinite or too large, each mark once per cause, with the
	// first path that reaches it.
	Lost []Lost
	// Nested are the reachable marks inside reachable marked values, in walk order.
	Nested []Nested
	// Inlined is false when the URN's manifest schema keeps `$ref` (TooLarge).
	Inlined bool
}

// BadKey reports whether the SDKs' path syntax cannot address a property called name:
// it contains ".", ends with "[]", or is empty and top is true (a property of the data
// root). The manifest profile leaves out every mark under such a key.
func BadKey(name string, top bool) bool {
	return strings.Contains(name, ".") || strings.HasSuffix(name, "[]") || top && name == ""
}

// Named returns the named type a Ref schema uses: s.Named, or the registry's type of
// that name when the model was built without links (reg may be nil). nil when unknown.
func Named(reg *model.Registry, s *model.Schema) *model.NamedType {
	if s.Named != nil {
		return s.Named
	}
	if reg != nil {
		return reg.Type(s.Ref)
	}
	return nil
}

// Of returns the PII inventory of m. reg resolves named types when the model carries no
// links (model.Schema.Named); it may be nil otherwise.
func Of(reg *model.Registry, m *model.Message) *Inventory {
	inv := &Inventory{URN: m.URN, Inlined: Inlinable(reg, m)}
	w := &walker{reg: reg, inv: inv, counts: map[*model.NamedType]int{}, cuts: map[cutKey]bool{}, lost: map[lostKey]bool{}}
	w.walk(m.Data, state{root: true})
	sort.Slice(inv.Paths, func(i, j int) bool { return inv.Paths[i].Path < inv.Paths[j].Path })
	return inv
}

// Inlinable reports whether the manifest profile inlines the named types of m: its data
// schema with every named type inlined (recursion unrolled UnrollDepth times) has at
// most MaxNodes schema nodes and nests at most MaxNesting deep.
func Inlinable(reg *model.Registry, m *model.Message) bool {
	c := &counter{reg: reg, counts: map[*model.NamedType]int{}}
	c.count(m.Data, 1)
	return c.nodes <= MaxNodes && c.deep <= MaxNesting
}

// counter measures the inlined schema for Inlinable; it stops once over a limit.
type counter struct {
	reg         *model.Registry
	counts      map[*model.NamedType]int
	nodes, deep int
}

func (c *counter) count(s *model.Schema, depth int) {
	if s == nil || c.nodes > MaxNodes || c.deep > MaxNesting {
		return
	}
	if s.Kind == model.Ref {
		nt := Named(c.reg, s)
		if nt == nil || c.counts[nt] >= UnrollDepth {
			c.nodes++ // written as {}
			return
		}
		c.counts[nt]++
		c.count(nt.Schema, depth) // the use is its type's schema, inlined
		c.counts[nt]--
		return
	}
	c.nodes++
	c.deep = max(c.deep, depth)
	for _, p := range s.Properties {
		c.count(p.Schema, depth+1)
	}
	c.count(s.Items, depth+1)
	c.count(s.Values, depth+1)
}

// state is the walk's position.
type state struct {
	sdk     string // SDK path (meaningful while lost is nil)
	bq      string // bqgen path from the data root
	root    bool   // the data root itself
	inItems bool   // this schema is array items
	// owner and rel: the named type (or "" for the message) whose schema holds this
	// position, and its path from there.
	owner, rel string
	// lost is the first cause above (or at) this position that hides it from the SDKs.
	lost *Cause
	// cover is the outermost reachable mark above (or at) this position.
	cover *Mark
	// beyond: below a Recursion or TooLarge cut, where each named type is followed once
	// (walker.seen), to find the marks the cut hides.
	beyond bool
}

type walker struct {
	reg    *model.Registry
	inv    *Inventory
	counts map[*model.NamedType]int
	// seen are the named types followed below the current cut: each once.
	seen map[*model.NamedType]bool
	// cuts are the (cause, type) pairs already walked below a cut, and lost the Lost
	// entries already filed (by cause, mark and path from the cause): a recursive type
	// is cut at many positions, each hiding the same marks.
	cuts map[cutKey]bool
	lost map[lostKey]bool
}

type cutKey struct {
	at model.Pos
	nt *model.NamedType
}

type lostKey struct {
	at, mark model.Pos
	reason   Reason
	rel      string
}

// seg renders one key of a bqgen path: as is, or quoted when it is empty or holds a
// character the path syntax uses.
func seg(name string) string {
	if name == "" || strings.ContainsAny(name, `.[]*"`) {
		return strconv.Quote(name)
	}
	return name
}

func join(path, part string) string {
	if path == "" {
		return part
	}
	return path + "." + part
}

func markPos(s *model.Schema) model.Pos {
	if p, ok := s.KeyPos("x-gdpr-sensitive"); ok {
		return p
	}
	return s.Pos
}

func category(gdpr string) string {
	if gdpr == "true" {
		return ""
	}
	return gdpr
}

// walk visits the value whose schema, as written at this position, is use.
func (w *walker) walk(use *model.Schema, st state) {
	if use == nil || st.lost != nil && st.cover != nil {
		return // nothing below is filed: it is protected with the cover
	}
	// Follow the chain of named types (an alias may name another alias), inlining each
	// unless it is cut here. The position's mark is the first one along the chain.
	var entered []*model.NamedType // counted: uncounted on return
	defer func() {
		for _, nt := range entered {
			w.counts[nt]--
		}
	}()
	var mark *Mark
	var cut *model.NamedType
	cur := use
	for {
		if mark == nil && cur.GDPR != "" {
			mark = &Mark{Category: category(cur.GDPR), Pos: markPos(cur), Owner: st.owner, Rel: st.rel}
		}
		if cur.Kind != model.Ref {
			break
		}
		nt := Named(w.reg, cur)
		switch {
		case nt == nil || nt.Schema == nil:
			return // an unknown type: the registry reports it (BQ033)
		case st.beyond && w.seen[nt]:
			w.record(mark, use, &st)
			return // already followed below this cut
		case st.beyond:
			w.seen[nt] = true
		case !w.inv.Inlined || w.counts[nt] >= UnrollDepth:
			cut = nt
		default:
			w.counts[nt]++
			entered = append(entered, nt)
		}
		if cut != nil {
			break
		}
		st.owner, st.rel = nt.Name, ""
		cur = nt.Schema
	}
	w.record(mark, use, &st)
	if cut == nil {
		w.children(cur, st)
		return
	}
	reason := Recursion
	if !w.inv.Inlined {
		reason = TooLarge
	}
	hide(&st, Cause{Reason: reason, At: cur.Pos, Owner: st.owner, Path: st.rel, Type: cut.Name, bq: st.bq})
	if st.cover != nil || w.cuts[cutKey{st.lost.At, cut}] {
		return // protected with the cover, or its marks are filed already
	}
	w.cuts[cutKey{st.lost.At, cut}] = true
	w.seen = map[*model.NamedType]bool{cut: true}
	st.beyond = true
	st.owner, st.rel = cut.Name, ""
	w.walk(cut.Schema, st)
}

// record files the mark of the current position (nil: none), whose schema as written
// is use, and makes it the cover of the positions below.
func (w *walker) record(mark *Mark, use *model.Schema, st *state) {
	if mark == nil {
		return
	}
	switch {
	case st.root:
		// The data block's own mark: the SDKs skip the empty path.
		mark.Path = st.bq
		w.inv.Lost = append(w.inv.Lost, Lost{Mark: *mark, Cause: Cause{Reason: Root, At: mark.Pos}})
	case st.lost != nil && st.cover != nil:
		// Inside a protected value, where the SDKs do not look: protected with it.
	case st.lost != nil:
		mark.Path = st.bq
		l := Lost{Mark: *mark, Cause: *st.lost, CauseRel: st.lost.Path + st.bq[len(st.lost.bq):]}
		if k := (lostKey{l.Cause.At, l.Pos, l.Cause.Reason, l.CauseRel}); !w.lost[k] {
			w.lost[k] = true
			w.inv.Lost = append(w.inv.Lost, l)
		}
	case st.cover != nil:
		mark.Path = st.sdk
		w.inv.Paths = append(w.inv.Paths, *mark)
		if stringValued(w.reg, use) {
			w.inv.Nested = append(w.inv.Nested, Nested{Outer: *st.cover, Inner: *mark, InnerRel: st.cover.Rel + st.sdk[len(st.cover.Path):]})
		}
	default:
		mark.Path = st.sdk
		w.inv.Paths = append(w.inv.Paths, *mark)
		st.cover = mark
	}
}

// stringValued reports whether a value of schema s is a JSON string when it is not
// null: the values the SDKs' Unprotect tries to decrypt (it leaves every other value
// alone).
func stringValued(reg *model.Registry, s *model.Schema) bool {
	seen := map[*model.NamedType]bool{}
	for s != nil && s.Kind == model.Ref {
		nt := Named(reg, s)
		if nt == nil || seen[nt] {
			return false
		}
		seen[nt] = true
		s = nt.Schema
	}
	if s == nil {
		return false
	}
	switch s.Kind {
	case model.String, model.UUID:
		return true
	case model.Integer:
		return s.Encoding == "string"
	}
	return false
}

// hide makes the positions below unreachable for cause c, unless an earlier cause
// already does.
func hide(st *state, c Cause) {
	if st.lost == nil {
		st.lost = &c
	}
}

// children walks the properties, items and map values of a resolved schema.
func (w *walker) children(s *model.Schema, st state) {
	top := st.root
	st.root = false
	switch s.Kind {
	case model.Object:
		for _, p := range s.Properties {
			c := st
			c.inItems = false
			c.sdk = join(st.sdk, p.Name)
			c.bq = join(st.bq, seg(p.Name))
			c.rel = join(st.rel, seg(p.Name))
			if BadKey(p.Name, top) {
				hide(&c, Cause{Reason: Key, At: p.Pos, Owner: st.owner, Path: c.rel, bq: c.bq})
			}
			w.walk(p.Schema, c)
		}
	case model.Array:
		if s.Items == nil {
			return
		}
		c := st
		c.inItems = true
		c.sdk = st.sdk + "[]"
		c.bq = st.bq + "[]"
		c.rel = st.rel + "[]"
		if st.inItems {
			hide(&c, Cause{Reason: NestedArray, At: itemsPos(s), Owner: st.owner, Path: c.rel, bq: c.bq})
		}
		w.walk(s.Items, c)
	case model.Map:
		if s.Values == nil {
			return
		}
		c := st
		c.inItems = false
		c.bq = join(st.bq, "*")
		c.rel = join(st.rel, "*")
		hide(&c, Cause{Reason: MapValue, At: keyPos(s, "values"), Owner: st.owner, Path: st.rel, bq: st.bq})
		w.walk(s.Values, c)
	}
}

func itemsPos(s *model.Schema) model.Pos {
	if s.Items != nil && s.Items.Pos.IsValid() {
		return s.Items.Pos
	}
	return keyPos(s, "items")
}

func keyPos(s *model.Schema, key string) model.Pos {
	if p, ok := s.KeyPos(key); ok {
		return p
	}
	return s.Pos
}
