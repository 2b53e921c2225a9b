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
//
// Paths that the SDKs cannot address are written in bqgen's path syntax, the one of
// `bqgen docs`: keys joined with "." (a key that is empty or holds one of `.[]*"` is
// written as a quoted Go string), "[]" for array items, "*" for map values
// (`tags.*.email`, `"legacy.email"`).
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
	// Path is the value's path from the data root in the SDKs' syntax
	// (`customer.email`, `lines[].sku`) for a reachable mark; for a lost one, in bqgen's
	// path syntax (`tags.*.email`).
	Path string
	// Category is the mark's category (`x-gdpr-sensitive: contact`), "" for `true`.
	Category string
	// Pos is the position of the `x-gdpr-sensitive` key (the schema's position when the
	// model has no key positions).
	Pos model.Pos
	// Owner is the named type whose schema holds the mark, "" for the message's own data.
	Owner string
	// Rel is the mark's path from the root of Owner (bqgen's path syntax).
	Rel string
}

// Cause is where and why the SDKs stop following a path.
type Cause struct {
	Reason Reason
	// At is the position of the construct: the map's `values`, the property key, the
	// inner array's items, the recursive use of a named type, the data block's mark, the
	// message (TooLarge: one cause per URN; Path is then the use's path from the root).
	At model.Pos
	// Owner is the named type whose schema holds the construct ("" for the message's
	// own data) and Path its path from Owner's root (bqgen's path syntax).
	Owner, Path string
	// Type is the named type not inlined, for Recursion.
	Type string
	// Key is the property's key, for Key.
	Key string
	// at and frame: the construct's path length and the length where Owner's schema
	// starts (0: the data root), on the walker's path; Path is rendered from them when a
	// Lost is filed.
	at, frame int
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
	return (&walker{reg: reg, paths: true}).run(m)
}

// run computes the inventory of m; w's scratch state is reused across runs.
func (w *walker) run(m *model.Message) *Inventory {
	w.msg = m
	w.inv = &Inventory{URN: m.URN, Inlined: w.inlinable(m)}
	clear(w.counts)
	clear(w.cuts)
	clear(w.lost)
	w.path, w.entered = w.path[:0], w.entered[:0]
	w.walk(m.Data, state{})
	if w.paths {
		sort.Slice(w.inv.Paths, func(i, j int) bool { return w.inv.Paths[i].Path < w.inv.Paths[j].Path })
	}
	return w.inv
}

// Index knows which named types of a registry hold an x-gdpr-sensitive mark, in their
// own schema or through the types they use, so that Marked can tell without a walk
// whether a message has any PII at all.
type Index struct {
	reg    *model.Registry
	marked map[*model.NamedType]bool
	w      *walker // Problems' scratch
}

// NewIndex indexes the named types of reg.
func NewIndex(reg *model.Registry) *Index {
	ix := &Index{reg: reg, marked: map[*model.NamedType]bool{}}
	for changed := true; changed; {
		changed = false
		for _, t := range reg.Types {
			if !ix.marked[t] && ix.holds(t.Schema) {
				ix.marked[t] = true
				changed = true
			}
		}
	}
	return ix
}

// holds reports whether s, or a schema below it, is marked or uses a type marked so far.
func (ix *Index) holds(s *model.Schema) bool {
	if s == nil {
		return false
	}
	if s.GDPR != "" {
		return true
	}
	if s.Kind == model.Ref {
		nt := Named(ix.reg, s)
		return nt != nil && ix.marked[nt]
	}
	for _, p := range s.Properties {
		if ix.holds(p.Schema) {
			return true
		}
	}
	return ix.holds(s.Items) || ix.holds(s.Values)
}

// Marked reports whether the data of m holds an x-gdpr-sensitive mark anywhere (its
// named types included). When it does not, Of(reg, m) has no paths, nothing lost and
// nothing nested.
func (ix *Index) Marked(m *model.Message) bool { return ix.holds(m.Data) }

// Problems returns the inventory of m without its Paths: what BQ048 and BQ049 report
// (Lost, Nested, Inlined), nil when m holds no mark. It reuses scratch memory across
// calls, so an Index must not be used by several goroutines at once.
func (ix *Index) Problems(m *model.Message) *Inventory {
	if !ix.Marked(m) {
		return nil
	}
	if ix.w == nil {
		ix.w = &walker{reg: ix.reg}
	}
	return ix.w.run(m)
}

// Inlinable reports whether the manifest profile inlines the named types of m: its data
// schema with every named type inlined (recursion unrolled UnrollDepth times) has at
// most MaxNodes schema nodes and nests at most MaxNesting deep.
func Inlinable(reg *model.Registry, m *model.Message) bool {
	return (&walker{reg: reg}).inlinable(m)
}

func (w *walker) inlinable(m *model.Message) bool {
	if w.counter.counts == nil {
		w.counter.counts = map[*model.NamedType]int{}
	}
	c := &w.counter
	c.reg, c.nodes, c.deep = w.reg, 0, 0
	clear(c.counts)
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

// step is one step of a path from the data root: a key, array items or map values.
type step struct {
	key  string
	kind byte // 'k' key, 'i' items, 'v' map values
}

// sdk renders the path of the first n steps in the SDKs' syntax.
func (w *walker) sdk(n int) string {
	var b strings.Builder
	for i, x := range w.path[:n] {
		switch {
		case x.kind == 'i':
			b.WriteString("[]")
		case i > 0:
			b.WriteByte('.')
			fallthrough
		default:
			b.WriteString(x.key)
		}
	}
	return b.String()
}

// rel renders, in bqgen's path syntax, steps from to n of the path.
func (w *walker) rel(from, n int) string {
	var b strings.Builder
	for i, x := range w.path[from:n] {
		if x.kind == 'i' {
			b.WriteString("[]")
			continue
		}
		if i > 0 {
			b.WriteByte('.')
		}
		if x.kind == 'v' {
			b.WriteByte('*')
		} else {
			b.WriteString(seg(x.key))
		}
	}
	return b.String()
}

// state is the walk's position. Positions on the path are lengths of walker.path.
type state struct {
	at      int  // this position's path length (0: the data root)
	inItems bool // this schema is array items
	// owner and frame: the named type (or "" for the message) whose schema holds this
	// position, and the path length where its schema starts.
	owner string
	frame int
	// lost is the first cause above (or at) this position that hides it from the SDKs,
	// when hidden is true.
	lost   Cause
	hidden bool
	// cover is the outermost reachable mark above (or at) this position, when covered
	// is true.
	cover   mark
	covered bool
	// beyond: below a Recursion or TooLarge cut, where each named type is followed once
	// (walker.seen), to find the marks the cut hides.
	beyond bool
}

// mark is a mark found at a position, before it is filed.
type mark struct {
	gdpr      string
	pos       model.Pos
	owner     string
	frame, at int
}

func (k *mark) public(w *walker, path string) Mark {
	return Mark{Path: path, Category: category(k.gdpr), Pos: k.pos, Owner: k.owner, Rel: w.rel(k.frame, k.at)}
}

type walker struct {
	reg   *model.Registry
	paths bool // file Inventory.Paths (Of); Problems does not
	msg   *model.Message
	inv   *Inventory
	path  []step // the current path from the data root
	// entered are the named types counted on the current path, to uncount on return.
	entered []*model.NamedType
	// counts are the inlinings of each named type on the current path; seen the named
	// types followed below the current cut (each once).
	counts map[*model.NamedType]int
	seen   map[*model.NamedType]bool
	// cuts are the (cause, type) pairs already walked below a cut, and lost the Lost
	// entries already filed (by cause, mark and path from the cause): a recursive type
	// is cut at many positions, each hiding the same marks.
	cuts    map[cutKey]bool
	lost    map[lostKey]bool
	counter counter
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
	if use == nil || st.hidden && st.covered {
		return // nothing below is filed: it is protected with the cover
	}
	// Follow the chain of named types (an alias may name another alias), inlining each
	// unless it is cut here. The position's mark is the first one along the chain.
	defer w.uncount(len(w.entered))
	var mk mark
	var cut *model.NamedType
	cur := use
	for {
		if mk.gdpr == "" && cur.GDPR != "" {
			mk = mark{gdpr: cur.GDPR, pos: markPos(cur), owner: st.owner, frame: st.frame, at: st.at}
		}
		if cur.Kind != model.Ref {
			break
		}
		nt := Named(w.reg, cur)
		switch {
		case nt == nil || nt.Schema == nil:
			return // an unknown type: the registry reports it (BQ033)
		case st.beyond && w.seen[nt]:
			w.record(mk, use, &st)
			return // already followed below this cut
		case st.beyond:
			w.seen[nt] = true
		case !w.inv.Inlined || w.counts[nt] >= UnrollDepth:
			cut = nt
		default:
			if w.counts == nil {
				w.counts = map[*model.NamedType]int{}
			}
			w.counts[nt]++
			w.entered = append(w.entered, nt)
		}
		if cut != nil {
			break
		}
		st.owner, st.frame = nt.Name, st.at
		cur = nt.Schema
	}
	w.record(mk, use, &st)
	if cut == nil {
		w.children(cur, st)
		return
	}
	c := Cause{Reason: Recursion, At: cur.Pos, Owner: st.owner, Type: cut.Name, at: st.at, frame: st.frame}
	if !w.inv.Inlined {
		c = Cause{Reason: TooLarge, At: w.msg.Pos, at: st.at}
	}
	hide(&st, c)
	if st.covered || w.cuts[cutKey{st.lost.At, cut}] {
		return // protected with the cover, or its marks are filed already
	}
	if w.cuts == nil {
		w.cuts = map[cutKey]bool{}
	}
	w.cuts[cutKey{st.lost.At, cut}] = true
	w.seen = map[*model.NamedType]bool{cut: true}
	st.beyond = true
	st.owner, st.frame = cut.Name, st.at
	w.walk(cut.Schema, st)
}

// uncount undoes the counts of the named types entered since len(w.entered) was n.
func (w *walker) uncount(n int) {
	for _, nt := range w.entered[n:] {
		w.counts[nt]--
	}
	w.entered = w.entered[:n]
}

// record files the mark of the current position (gdpr "": none), whose schema as
// written is use, and makes it the cover of the positions below.
func (w *walker) record(mk mark, use *model.Schema, st *state) {
	if mk.gdpr == "" {
		return
	}
	switch {
	case st.at == 0:
		// The data block's own mark: the SDKs skip the empty path.
		w.inv.Lost = append(w.inv.Lost, Lost{Mark: mk.public(w, ""), Cause: Cause{Reason: Root, At: mk.pos}})
	case st.hidden && st.covered:
		// Inside a protected value, where the SDKs do not look: protected with it.
	case st.hidden:
		c := st.lost
		if c.Reason == TooLarge {
			c.Path = w.rel(0, c.at) // the use, from the data root
		} else {
			c.Path = w.rel(c.frame, c.at)
		}
		l := Lost{Mark: mk.public(w, w.rel(0, st.at)), Cause: c, CauseRel: w.rel(c.frame, st.at)}
		if k := (lostKey{c.At, l.Pos, c.Reason, l.CauseRel}); !w.lost[k] {
			if w.lost == nil {
				w.lost = map[lostKey]bool{}
			}
			w.lost[k] = true
			w.inv.Lost = append(w.inv.Lost, l)
		}
	case st.covered:
		if w.paths {
			w.inv.Paths = append(w.inv.Paths, mk.public(w, w.sdk(st.at)))
		}
		if stringValued(w.reg, use) {
			o := &st.cover
			w.inv.Nested = append(w.inv.Nested, Nested{Outer: o.public(w, w.sdk(o.at)), Inner: mk.public(w, w.sdk(st.at)), InnerRel: w.rel(o.frame, st.at)})
		}
	default:
		if w.paths {
			w.inv.Paths = append(w.inv.Paths, mk.public(w, w.sdk(st.at)))
		}
		st.cover, st.covered = mk, true
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
	if !st.hidden {
		st.lost, st.hidden = c, true
	}
}

// push sets the path after position at to one more step and returns its length.
func (w *walker) push(at int, x step) int {
	w.path = append(w.path[:at], x)
	return at + 1
}

// children walks the properties, items and map values of a resolved schema.
func (w *walker) children(s *model.Schema, st state) {
	top := st.at == 0
	switch s.Kind {
	case model.Object:
		for _, p := range s.Properties {
			c := st
			c.inItems = false
			c.at = w.push(st.at, step{key: p.Name, kind: 'k'})
			if !c.hidden && BadKey(p.Name, top) {
				hide(&c, Cause{Reason: Key, At: p.Pos, Owner: st.owner, Key: p.Name, at: c.at, frame: st.frame})
			}
			w.walk(p.Schema, c)
		}
	case model.Array:
		if s.Items == nil {
			return
		}
		c := st
		c.inItems = true
		c.at = w.push(st.at, step{kind: 'i'})
		if !c.hidden && st.inItems {
			hide(&c, Cause{Reason: NestedArray, At: itemsPos(s), Owner: st.owner, at: c.at, frame: st.frame})
		}
		w.walk(s.Items, c)
	case model.Map:
		if s.Values == nil {
			return
		}
		c := st
		c.inItems = false
		c.at = w.push(st.at, step{kind: 'v'})
		if !c.hidden {
			hide(&c, Cause{Reason: MapValue, At: keyPos(s, "values"), Owner: st.owner, at: st.at, frame: st.frame})
		}
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
