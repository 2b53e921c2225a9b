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
//   - TooLarge: a URN whose schema with every named type inlined would take more than
//     MaxBytes bytes or nest deeper than MaxNesting cannot have its manifest schema
//     written (BQ050, an error): were it written with `$ref`, no mark inside a named
//     type would be reached (one Lost per use of a named type that holds marks, at the
//     type's position). The limits are the URN's own: nothing another URN holds counts.
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

// MaxNesting bounds the nesting of schema nodes along one path of the inlined schema,
// the data root being 1. Beyond it, the URN is a `check` error (BQ050, Reason
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
	// Lost are the marks no SDK path reaches, in walk order (source order, depth first):
	// each mark once per cause, with the first path from the cause that reaches it
	// (below a cause, each named type is followed once); for TooLarge, one entry per
	// use of a named type that holds marks (Path the use's path, Pos the type's).
	Lost []Lost
	// Nested are the reachable marks inside reachable marked values, in walk order.
	Nested []Nested
	// Inlined is false when the URN's manifest schema cannot be written within its
	// limits (MaxBytes, MaxNesting): `bqgen check` reports BQ050, and Paths then lists
	// only the marks outside named types (TooLarge), which is no set to protect by.
	Inlined bool
}

// Protected returns the paths whose values a producer encrypts and a consumer decrypts,
// in the order of Paths: Paths without every path that lies inside another one, since
// the outer value is encrypted whole, mark inside it included. Nesting is a matter of
// path segments, as the SDKs read a path (Segments), never of text: `a[]b` (the key
// "a[]b") and `o.[]b` (the key "[]b" of o) do not lie inside `a` and `o.` (the key ""
// of o), while `a[]`, `a[].b` and `a.b` lie inside `a`. On the wire this is exactly
// what the SDKs' Protect writes (it encrypts the outer value first, then finds a
// string where the inner path goes on, and skips it); unlike their Unprotect, a reader
// of these paths restores such a message (BQ049). The generated Go code protects and
// unprotects these paths.
func (inv *Inventory) Protected() []string {
	var out []string
	var segs [][]Segment
	for _, m := range inv.Paths {
		s := Segments(m.Path)
		inside := false
		for _, q := range segs { // sorted: an outer path comes before what it holds
			if Within(s, q) {
				inside = true
				break
			}
		}
		if !inside {
			out = append(out, m.Path)
			segs = append(segs, s)
		}
	}
	return out
}

// Segment is one segment of a path in the SDKs' syntax: a key, and whether the path
// goes on through every element of the array at that key (a trailing "[]").
type Segment struct {
	Key   string
	Array bool
}

// Segments reads a path of the SDKs' syntax as their Protect does: split at every ".",
// a trailing "[]" of a segment read as "every element of this array". "" is the data
// root (no segment).
func Segments(path string) []Segment {
	if path == "" {
		return nil
	}
	parts := strings.Split(path, ".")
	out := make([]Segment, len(parts))
	for i, p := range parts {
		if k, ok := strings.CutSuffix(p, "[]"); ok {
			out[i] = Segment{Key: k, Array: true}
		} else {
			out[i] = Segment{Key: p}
		}
	}
	return out
}

// Within reports whether the value at path p lies inside (or is) the value at path q,
// both as Segments: q's segments are p's first ones, except that q's last segment may
// lack the "[]" of p's (the elements of an array lie inside the array).
func Within(p, q []Segment) bool {
	if len(q) == 0 || len(q) > len(p) {
		return false
	}
	last := len(q) - 1
	for i := 0; i < last; i++ {
		if p[i] != q[i] {
			return false
		}
	}
	return p[last].Key == q[last].Key && (!q[last].Array || p[last].Array)
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
// links (model.Schema.Named); it may be nil otherwise. For many URNs of one registry,
// use an Index.
func Of(reg *model.Registry, m *model.Message) *Inventory {
	return NewIndex(reg).Of(m)
}

// Index holds what the inventories of a registry's URNs share: which named types hold an
// x-gdpr-sensitive mark (in their own schema or through the types they use), which lie
// on a cycle, the inlined size of the others, and, for Problems, the named types already
// walked. With it, the work of Problems over all URNs is linear in the registry, and
// Of's is bounded by MaxBytes per URN. An Index must not be used by several goroutines
// at once.
type Index struct {
	reg    *model.Registry
	marked map[*model.NamedType]bool
	cyclic map[*model.NamedType]bool
	// sizes memoizes the inlined size of each named type entered where no recursive
	// type unrolls (plan); plans are the decisions for the registry's URNs.
	sizes   map[*model.NamedType]size
	plans   map[*model.Message]plan
	owns    map[*model.Schema]cost // own's memo
	counter counter                // plan's scratch
	// done are the visits of named types that Problems need not repeat (walker.walk).
	done map[doneKey]bool
	w    *walker // scratch
}

type size struct {
	cost cost
	deep int
}

// doneKey is a visit of a named type: the state of the walk that decides what it
// files, when no recursive type is being unrolled above it.
type doneKey struct {
	nt               *model.NamedType
	inItems, covered bool
	cover            model.Pos
	cause            model.Pos
	reason           Reason
}

// NewIndex indexes the named types of reg (reg may be nil for a model without them).
func NewIndex(reg *model.Registry) *Index {
	ix := &Index{reg: reg, marked: map[*model.NamedType]bool{}, cyclic: map[*model.NamedType]bool{},
		sizes: map[*model.NamedType]size{}, owns: map[*model.Schema]cost{}, done: map[doneKey]bool{}}
	if reg == nil {
		return ix
	}
	for changed := true; changed; {
		changed = false
		for _, t := range reg.Types {
			if !ix.marked[t] && ix.holds(t.Schema) {
				ix.marked[t] = true
				changed = true
			}
		}
	}
	ix.findCycles()
	return ix
}

// findCycles marks the named types that reach themselves (Tarjan's strongly connected
// components over "uses").
func (ix *Index) findCycles() {
	index := map[*model.NamedType]int{}
	low := map[*model.NamedType]int{}
	on := map[*model.NamedType]bool{}
	var stack []*model.NamedType
	next := 0
	var connect func(t *model.NamedType)
	connect = func(t *model.NamedType) {
		index[t], low[t] = next, next
		next++
		stack = append(stack, t)
		on[t] = true
		each(t.Schema, func(s *model.Schema) {
			if s.Kind != model.Ref {
				return
			}
			u := Named(ix.reg, s)
			if u == nil {
				return
			}
			if u == t {
				ix.cyclic[t] = true
			}
			if _, seen := index[u]; !seen {
				connect(u)
				low[t] = min(low[t], low[u])
			} else if on[u] {
				low[t] = min(low[t], index[u])
			}
		})
		if low[t] == index[t] {
			n := len(stack)
			k := n - 1
			for stack[k] != t {
				k--
			}
			if n-k > 1 {
				for _, u := range stack[k:] {
					ix.cyclic[u] = true
				}
			}
			for _, u := range stack[k:] {
				on[u] = false
			}
			stack = stack[:k]
		}
	}
	for _, t := range ix.reg.Types {
		if _, seen := index[t]; !seen {
			connect(t)
		}
	}
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

// Of returns the PII inventory of m.
func (ix *Index) Of(m *model.Message) *Inventory {
	return ix.walker(true).run(m)
}

// Problems returns what BQ048 and BQ049 report of m, nil when m holds no mark: the
// inventory without Paths, whose Lost and Nested leave out what an earlier call filed
// for the same named type in the same state (a Lost or Nested whose cause or outer mark
// lies in a named type, reached again from this or another URN, gives the same
// diagnostic). Each named type is walked once per state over the whole registry.
func (ix *Index) Problems(m *model.Message) *Inventory {
	if !ix.Marked(m) {
		return nil
	}
	return ix.walker(false).run(m)
}

func (ix *Index) walker(paths bool) *walker {
	if ix.w == nil {
		ix.w = &walker{ix: ix, reg: ix.reg, counts: map[*model.NamedType]int{}, cuts: map[cutKey]bool{}, lost: map[lostKey]bool{}}
	}
	ix.w.paths = paths
	return ix.w
}

// run computes the inventory of m; w's scratch state is reused across runs.
func (w *walker) run(m *model.Message) *Inventory {
	w.msg = m
	w.inv = &Inventory{URN: m.URN, Inlined: w.ix.Inlined(m)}
	clear(w.counts)
	clear(w.cuts)
	clear(w.lost)
	w.path, w.entered, w.unrolling = w.path[:0], w.entered[:0], 0
	w.walk(m.Data, state{})
	if w.paths {
		sort.Slice(w.inv.Paths, func(i, j int) bool { return w.inv.Paths[i].Path < w.inv.Paths[j].Path })
	}
	return w.inv
}

// plan is the manifest profile's decision for one URN.
type plan struct {
	size    int  // the estimated bytes of the SDK schema, until a limit was passed
	added   int  // what inlining named types adds to them
	deep    int  // its nesting
	inlined bool // within MaxBytes and MaxNesting: named types are inlined
}

// Inlined reports whether the manifest profile can write the SDK schema of m: inlining
// its named types (recursion unrolled UnrollDepth times) adds at most MaxBytes bytes to
// it (Size), and it nests at most MaxNesting deep. It depends on m and the named types
// it uses only, never on other URNs. When it is false, `bqgen check` reports BQ050 at
// m, and neither the manifest profile nor the Go code is written.
func (ix *Index) Inlined(m *model.Message) bool { return ix.plan(m).inlined }

// Size returns the estimated size in bytes of the SDK schema of m (the document: its
// header, its data schema with every named type inlined), what inlining the named
// types adds to it (the rest is the message's own text, written once), and its nesting
// (the data root being 1). The estimate is an upper bound of what `bqgen jsonschema`
// writes: the text of every node (descriptions, examples, enum values, patterns, keys;
// JSON escapes and indentation included) and fixed costs per keyword. Past MaxBytes or
// MaxNesting the count stops: the sizes are then above the limit, not the full sizes.
func (ix *Index) Size(m *model.Message) (bytes, added, nesting int) {
	p := ix.plan(m)
	return p.size, p.added, p.deep
}

func (ix *Index) plan(m *model.Message) plan {
	if ix.plans == nil {
		ix.plans = map[*model.Message]plan{}
	}
	if p, ok := ix.plans[m]; ok {
		return p
	}
	p := ix.measure(m)
	ix.plans[m] = p
	return p
}

// each calls fn for s and every schema below it (properties, items, map values), not
// following named types: model.Walk without the paths.
func each(s *model.Schema, fn func(*model.Schema)) {
	if s == nil {
		return
	}
	fn(s)
	for _, p := range s.Properties {
		each(p.Schema, fn)
	}
	each(s.Items, fn)
	each(s.Values, fn)
}

func (ix *Index) measure(m *model.Message) plan {
	c := &ix.counter
	if c.counts == nil {
		c.ix, c.counts = ix, map[*model.NamedType]int{}
	}
	clear(c.counts)
	c.unrolling, c.size, c.deep, c.added, c.pending, c.inType, c.stopped = 0, header(m), 0, 0, 0, 0, false
	c.base, c.abs = 0, 0
	c.count(m.Data, 1, 0)
	return plan{size: c.size.at(0), added: c.added, deep: c.abs, inlined: !c.stopped && c.added <= MaxBytes && c.abs <= MaxNesting}
}

// cost is the size of a part of the written schema as a function of the level k of
// indentation at which it starts: bytes + 2·k·lines (the document is indented by two
// spaces per level, and every line of the part but its first one starts with the
// part's own indentation).
type cost struct{ bytes, lines int }

func (c cost) at(level int) int { return c.bytes + 2*level*c.lines }

// add adds the cost of a part written k levels below the start of c.
func (c *cost) add(x cost, k int) {
	c.bytes += x.at(k)
	c.lines += x.lines
}

// counter measures the SDK schema of a message for plan; it stops once over a limit.
type counter struct {
	ix        *Index
	counts    map[*model.NamedType]int
	unrolling int // counted types on the path that lie on a cycle
	// size is the cost of the part being counted: the message's own schema, or (inType
	// > 0) the named type being counted, whose outer parts wait in pending (their
	// bytes at level 0, a lower bound). added is what the uses of named types in the
	// message's own schema add, counted so far.
	size           cost
	deep           int
	added, pending int
	inType         int
	stopped        bool
	// base is the nesting depth of the use whose type is being counted, less one (deep
	// is relative to it); abs the deepest nesting from the data root seen so far.
	base, abs int
}

// over reports whether what inlining adds is past MaxBytes, or the nesting past
// MaxNesting.
func (c *counter) over() bool {
	added := c.added
	if c.inType > 0 {
		added += c.pending + c.size.at(0)
	}
	if added > MaxBytes || c.abs > MaxNesting {
		c.stopped = true
	}
	return c.stopped
}

// count adds the cost of the schema use s written at indentation level level (the
// document's root object being 0), the data root being at nesting depth 1.
func (c *counter) count(s *model.Schema, depth, level int) {
	if s == nil || c.over() {
		return
	}
	if s.Kind != model.Ref {
		// A schema of a message's own data is counted once (plans are memoized per
		// message): only those of named types, counted for every message that uses
		// them, are worth a memo.
		c.size.add(c.ix.own(s, c.inType > 0), level)
		c.deep = max(c.deep, depth)
		c.abs = max(c.abs, c.base+depth)
		for _, p := range s.Properties {
			c.count(p.Schema, depth+1, level+2) // properties → key → schema
		}
		c.count(s.Items, depth+1, level+1)
		c.count(s.Values, depth+1, level+1)
		return
	}
	c.size.add(c.ix.annotations(s), level) // the use's own annotations, over the type's
	nt := Named(c.ix.reg, s)
	var z size
	switch {
	case nt == nil || nt.Schema == nil:
		z = size{cost: cutCost(nil, s)} // an unknown type: BQ033 reports it
	case c.counts[nt] >= UnrollDepth:
		z = size{cost: cutCost(nt, s)} // {"$comment": "T, inlined 3 times above: …"}
	default:
		// Where no recursive type unrolls above, every type of nt's closure has a count
		// of 0 (one counted above would lie on a cycle with it), so the inlined schema
		// does not depend on the path: it is counted once, as a cost at level 0.
		memo := c.unrolling == 0
		var ok bool
		if z, ok = c.ix.sizes[nt]; !ok || !memo {
			// The type's schema is counted from depth 1 and level 0 (relative to the use).
			saved, deep0 := c.size, c.deep
			c.pending += saved.at(0)
			c.inType++
			c.base += depth - 1
			c.size, c.deep = cost{}, 0
			c.counts[nt]++
			if c.ix.cyclic[nt] {
				c.unrolling++
			}
			c.count(nt.Schema, 1, 0) // the use is its type's schema, inlined
			c.counts[nt]--
			if c.ix.cyclic[nt] {
				c.unrolling--
			}
			z = size{c.size, c.deep}
			c.base -= depth - 1
			c.inType--
			c.pending -= saved.at(0)
			c.size, c.deep = saved, deep0
			if c.stopped {
				return
			}
			if memo {
				c.ix.sizes[nt] = z // counted to the end: no limit was reached
			}
		}
	}
	c.deep = max(c.deep, depth-1+z.deep)
	c.abs = max(c.abs, c.base+depth-1+z.deep)
	c.size.add(z.cost, level)
	if c.inType == 0 {
		c.added += z.cost.at(level) // a use in the message's own schema
	}
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
	// beyond: below a cause (hidden), where each named type is followed once per cause
	// (walker.cuts), to find the marks it hides.
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
	ix    *Index
	reg   *model.Registry
	paths bool // file Inventory.Paths (Of); Problems does not
	msg   *model.Message
	inv   *Inventory
	path  []step // the current path from the data root
	// entered are the named types counted on the current path, to uncount on return;
	// unrolling is how many of them lie on a cycle.
	entered   []*model.NamedType
	unrolling int
	// counts are the inlinings of each named type on the current path.
	counts map[*model.NamedType]int
	// cuts are the (cause, type) pairs already walked below a cut (each type once per
	// cause: a recursive type is cut at many positions, each hiding the same marks),
	// and lost the Lost entries already filed (by cause, mark and path from the cause).
	cuts map[cutKey]bool
	lost map[lostKey]bool
	// visits counts the schemas walked, for the tests' bound on the work.
	visits int
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
	w.visits++
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
		case st.beyond:
			if w.cuts[cutKey{st.lost.At, nt}] {
				w.record(mk, use, &st)
				return // already followed below this cause
			}
			w.cuts[cutKey{st.lost.At, nt}] = true
		case !w.inv.Inlined || w.counts[nt] >= UnrollDepth:
			cut = nt
		default:
			if !w.paths && w.unrolling == 0 {
				// No recursive type unrolls above nt, so what the walk below files
				// depends on this state only: Problems walks it once.
				k := doneKey{nt: nt, inItems: st.inItems, covered: st.covered, cover: st.cover.pos, cause: st.lost.At, reason: st.lost.Reason}
				if w.ix.done[k] {
					w.record(mk, use, &st)
					return
				}
				w.ix.done[k] = true
			}
			w.counts[nt]++
			w.entered = append(w.entered, nt)
			if w.ix.cyclic[nt] {
				w.unrolling++
			}
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
	if !w.inv.Inlined {
		// The manifest keeps $ref: every mark inside the type is out of reach. One
		// Lost stands for them: the use, at the type's position.
		if !st.hidden && !st.covered && w.ix.marked[cut] {
			w.record(mark{gdpr: "true", pos: cut.Pos, owner: cut.Name, frame: st.at, at: st.at}, use,
				&state{at: st.at, hidden: true, lost: Cause{Reason: TooLarge, At: w.msg.Pos, at: st.at}})
		}
		return
	}
	hide(&st, Cause{Reason: Recursion, At: cur.Pos, Owner: st.owner, Type: cut.Name, at: st.at, frame: st.frame})
	if st.covered || w.cuts[cutKey{st.lost.At, cut}] {
		return // protected with the cover, or its marks are filed already
	}
	w.cuts[cutKey{st.lost.At, cut}] = true
	st.beyond = true
	st.owner, st.frame = cut.Name, st.at
	w.walk(cut.Schema, st)
}

// uncount undoes the counts of the named types entered since len(w.entered) was n.
func (w *walker) uncount(n int) {
	for _, nt := range w.entered[n:] {
		w.counts[nt]--
		if w.ix.cyclic[nt] {
			w.unrolling--
		}
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
// already does. Below it, the walk only looks for the marks the cause hides: each named
// type once per cause (beyond).
func hide(st *state, c Cause) {
	if !st.hidden {
		st.lost, st.hidden, st.beyond = c, true, true
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
