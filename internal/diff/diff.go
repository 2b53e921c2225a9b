// Package diff compares two resolved registries (docs/diff.md) and classifies every change
// of every URN with a rule from the catalogue (Rules) and a severity under a
// compatibility mode (backward, forward, full, as Confluent defines them).
//
// The comparison is structural, on the model: key order, formatting, comments and
// moving a shape into (or out of) a named type give no finding.
package diff

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/babelqueue/bqgen/internal/model"
	"github.com/babelqueue/bqgen/registry"
)

// Finding is one classified change.
type Finding struct {
	Rule     *Rule
	Severity Severity // under the report's mode
	// URN is the message the change is in; "" for a change inside a named type (Type).
	URN string
	// Type is the named type the change is in, when it is in one that both registries
	// define under the same name: the change is reported once, at the type, and
	// Reaches lists the uses it affects (docs/diff.md, "One finding per cause").
	Type string
	// Reaches lists, for a finding in a named type, each URN of both registries that
	// uses the type (directly or through other named types), with the JSON path of one
	// use, in URN order; nil for a URN's own finding.
	Reaches []Use
	// Path is the JSON path into data (`$.lines[*].sku`), or "" for a change of the
	// message itself (kind, queue, summary, the URN as a whole).
	Path string
	// Old and New describe the changed thing on each side ("" when absent).
	Old, New string
	// Pos is the position in the new registry; for removals, in the old one.
	Pos model.Pos
	// Anchor is the nearest position in the new registry (for annotations on the new
	// file); zero when there is none (a removed URN).
	Anchor  model.Pos
	Message string
	// Remedy says what to do; "" when nothing needs doing. For a breaking data change
	// it is the mint advice, then Alternative.
	Remedy string
	// Alternative is the way to keep the change compatible instead ("keep `maximum:
	// 100`"); "" when there is none.
	Alternative string
	// Hint is advice about what the change looks like ("looks like a rename of
	// `bike_id` to `bicycle_id`: …"), with what that breaks and the fix; "" when none.
	Hint string
}

// Use is one place a named type is used: a URN and the JSON path into its data.
type Use struct {
	URN  string
	Path string
}

// Report is the result of Compare.
type Report struct {
	Mode Mode
	// Findings are in the order of docs/ordering.md: breaking first, then warnings,
	// notices and info; within each, the named types by name, then the URNs in byte
	// order, each in the order the comparison walks its schemas.
	Findings []Finding
	// Added, Removed and Changed list URNs (sorted); Changed holds URNs in both
	// registries with at least one finding of their own or in a named type they use.
	Added, Removed, Changed []string
	// Mint maps each URN with a breaking data change of its own to the fix: mint its
	// next version, or, for a URN already superseded, keep its old shape (the advice is
	// consistent along a `supersedes` chain).
	Mint map[string]string
	// TypeFix maps each named type with a breaking change to the fix that changes no
	// URN in place: leave the type as it was and give the new shape a new named type,
	// used in one new version per supersedes chain it reaches.
	TypeFix map[string]string
	// Notes are report-level notices (the base had no registry, …), in the order made.
	Notes []string
	// typeFix holds TypeFix in parts (the Markdown report shortens long ones).
	typeFix map[string]typeFixText
}

// Count returns how many findings have severity s.
func (r *Report) Count(s Severity) int {
	n := 0
	for _, f := range r.Findings {
		if f.Severity == s {
			n++
		}
	}
	return n
}

// Breaking reports whether any finding is breaking under the report's mode.
func (r *Report) Breaking() bool { return r.Count(Breaking) > 0 }

// Compare classifies every change from old to new under mode.
func Compare(old, new *model.Registry, mode Mode) *Report {
	c := &comparer{old: old, new: new, mode: mode,
		rep:      &Report{Mode: mode, Mint: map[string]string{}, TypeFix: map[string]string{}, typeFix: map[string]typeFixText{}},
		typeDone: map[string]bool{}, uses: map[string][]typeUse{}, successor: successors(new)}
	renamed := urnRenames(old, new)
	for _, om := range old.Messages {
		if new.Message(om.URN) == nil {
			c.rep.Removed = append(c.rep.Removed, om.URN)
			c.urn = om.URN
			if om.Deprecation != nil {
				c.add(RuleURNRemovedDeprecated, "", deprecationText(om.Deprecation), "", om.Pos, model.Pos{},
					"deprecated URN removed", "", "")
			} else {
				c.add(RuleURNRemoved, "", string(om.Kind)+" on queue "+om.Queue, "", om.Pos, model.Pos{},
					"URN removed without prior deprecation", "",
					fmt.Sprintf("restore %s with `deprecated: \"Use …\"` and remove it in a later change, once nothing produces or consumes it", om.URN))
				if to := renamed[om.URN]; to != "" {
					c.last().Hint = fmt.Sprintf("looks like a rename of %s to %s (equal data schemas): a URN names the message on the wire, "+
						"so consumers of %s dead-letter messages sent as %s (unknown_urn) and messages already queued as %s reach no handler; "+
						"keep %s with `deprecated: \"Use %s.\"`, deploy the consumers of %s, switch the producers, and remove %s in a later change",
						om.URN, to, om.URN, to, om.URN, om.URN, to, to, om.URN)
				}
			}
		}
	}
	for _, nm := range new.Messages {
		om := old.Message(nm.URN)
		c.urn = nm.URN
		if om == nil {
			c.rep.Added = append(c.rep.Added, nm.URN)
			note := ""
			if RuleByID(RuleURNAdded).Severity(mode) == Warning {
				note = fmt.Sprintf("deploy the consumers of %s before its producers: an old consumer on queue %q dead-letters it as unknown_urn", nm.URN, nm.Queue)
			}
			c.add(RuleURNAdded, "", "", string(nm.Kind)+" on queue "+nm.Queue, nm.Pos, nm.Pos, "URN added", "", note)
			continue
		}
		before := len(c.rep.Findings)
		c.message(om, nm)
		if len(c.rep.Findings) > before {
			c.rep.Changed = append(c.rep.Changed, nm.URN)
		}
	}
	c.typeFindings()
	sort.Strings(c.rep.Removed)
	sort.Strings(c.rep.Added)
	sort.Strings(c.rep.Changed)
	// Breaking first, then warnings, notices and info; within each the named types by
	// name, then the URNs in byte order; within a subject, in the order the comparison
	// walks the schemas, which is the registries' own: per object, the removed
	// properties in the old registry's order, then the new registry's properties as
	// written, each followed by the changes below it (docs/ordering.md).
	fs := c.rep.Findings
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if ra, rb := a.Severity.rank(), b.Severity.rank(); ra != rb {
			return ra < rb
		}
		if (a.Type != "") != (b.Type != "") {
			return a.Type != ""
		}
		if a.Type != b.Type {
			return a.Type < b.Type
		}
		return a.URN < b.URN
	})
	return c.rep
}

// successors maps each URN named in a `supersedes:` of reg to the message naming it.
func successors(reg *model.Registry) map[string]string {
	m := map[string]string{}
	for _, msg := range reg.Messages {
		if msg.Supersedes != "" && msg.Supersedes != msg.URN {
			if _, dup := m[msg.Supersedes]; !dup {
				m[msg.Supersedes] = msg.URN
			}
		}
	}
	return m
}

// head returns the last URN of urn's supersedes chain in the new registry: urn itself
// when nothing supersedes it.
func (c *comparer) head(urn string) string {
	seen := map[string]bool{urn: true}
	for {
		next, ok := c.successor[urn]
		if !ok || seen[next] || c.new.Message(next) == nil {
			return urn
		}
		seen[next] = true
		urn = next
	}
}

// urnRenames pairs each URN removed without deprecation with an added URN whose data
// schema is equal (shape), one to one, in URN order.
func urnRenames(old, new *model.Registry) map[string]string {
	out := map[string]string{}
	removed := false
	for _, om := range old.Messages {
		removed = removed || (om.Deprecation == nil && new.Message(om.URN) == nil)
	}
	if !removed {
		return out // the common case, and the first pull request: no shape to compute
	}
	added := map[string][]string{}
	for _, nm := range new.Messages {
		if old.Message(nm.URN) == nil {
			k := shape(nm.Data)
			added[k] = append(added[k], nm.URN)
		}
	}
	for _, om := range old.Messages {
		if new.Message(om.URN) != nil || om.Deprecation != nil {
			continue
		}
		k := shape(om.Data)
		if l := added[k]; len(l) > 0 {
			out[om.URN] = l[0]
			added[k] = l[1:]
		}
	}
	return out
}

// maxDepth bounds the recursion (the registry's own depth limit is far below it).
const maxDepth = 1000

type comparer struct {
	old, new *model.Registry
	mode     Mode
	rep      *Report
	// urn is the URN being compared, or "" while a named type (typ) is.
	urn, typ string
	// typeDone holds the named types compared (or being compared).
	typeDone map[string]bool
	// uses maps a named type to the places the comparison met it on both sides.
	uses map[string][]typeUse
	// successor is successors(new).
	successor map[string]string
	// family maps a URN family (a URN without `.vN`) to its URNs in new, maxVersion to
	// its highest version in old or new (successorOf fills both).
	family     map[string][]string
	maxVersion map[string]int
	// stack holds the pairs of named types being compared, to stop on recursive types.
	stack map[[2]*model.NamedType]bool
	depth int
}

// add records a finding of rule id for the current URN. alt is the rule-specific
// alternative to minting a new URN, shown when the change is breaking; note is the
// advice shown when it is not.
func (c *comparer) add(id, path, old, new string, pos, anchor model.Pos, msg, alt, note string) {
	r := RuleByID(id)
	if r == nil {
		panic("diff: unknown rule " + id)
	}
	sev := r.Severity(c.mode)
	remedy := note
	if sev != Breaking {
		alt = ""
	} else if c.typ != "" {
		remedy = "" // typeFindings writes it, once every use of the type is known
	} else if id != RuleURNRemoved {
		mint := c.mint()
		c.rep.Mint[c.urn] = mint
		remedy = mint
		if alt != "" {
			remedy += "; or " + alt
		}
	}
	c.rep.Findings = append(c.rep.Findings, Finding{Rule: r, Severity: sev, URN: c.urn, Type: c.typ, Path: path, Old: old, New: new,
		Pos: pos, Anchor: anchor, Message: msg, Remedy: remedy, Alternative: alt})
}

// last returns the finding added last.
func (c *comparer) last() *Finding { return &c.rep.Findings[len(c.rep.Findings)-1] }

var versionSuffix = regexp.MustCompile(`^(.*)\.v([0-9]+)$`)

// NextURN returns the URN to mint for an incompatible change of urn: the next free
// version of its family (urn without its `.vN` suffix), one above the highest version
// any of regs holds: `<urn>.v2` when there is none, `.v4` for `a` when `a.v3` exists.
func NextURN(urn string, regs ...*model.Registry) string {
	base, n := urnFamily(urn)
	for _, r := range regs {
		if r == nil {
			continue
		}
		for _, m := range r.Messages {
			if b, v := urnFamily(m.URN); b == base && v > n {
				n = v
			}
		}
	}
	return base + ".v" + strconv.Itoa(n+1)
}

// urnFamily splits urn into its family (urn without a `.vN` suffix) and its version (1
// without a suffix).
func urnFamily(urn string) (string, int) {
	if m := versionSuffix.FindStringSubmatch(urn); m != nil {
		if v, err := strconv.Atoi(m[2]); err == nil {
			return m[1], v
		}
	}
	return urn, 1
}

// successorOf returns the URN to mint after urn and the URN it must name in
// `supersedes:`: the predecessor BQ063 requires in the new registry, the highest
// earlier version of the family, which is urn itself unless the family has later
// versions that do not supersede it (`a` and `a.v2` without `supersedes:` → mint
// `a.v3` superseding `a.v2`).
func (c *comparer) successorOf(urn string) (next, pred string) {
	if c.family == nil { // once: a type reaching thousands of URNs asks for each
		c.family, c.maxVersion = map[string][]string{}, map[string]int{}
		for _, r := range []*model.Registry{c.old, c.new} {
			for _, m := range r.Messages {
				b, v := urnFamily(m.URN)
				c.maxVersion[b] = max(c.maxVersion[b], v)
				if r == c.new {
					c.family[b] = append(c.family[b], m.URN)
				}
			}
		}
	}
	base, n := urnFamily(urn)
	next = base + ".v" + strconv.Itoa(max(n, c.maxVersion[base])+1)
	if pred = registry.Predecessor(next, c.family[base]); pred == "" {
		pred = urn
	}
	return next, pred
}

// mint is the fix of a breaking change of the current URN, consistent along its
// supersedes chain: the last URN of the chain mints the next version; a URN already
// superseded keeps its old shape, and the new shape goes to the chain's next version.
func (c *comparer) mint() string {
	h := c.head(c.urn)
	if h == c.urn {
		next, pred := c.successorOf(c.urn)
		also := ""
		if pred != c.urn {
			also = " and " + pred
		}
		return fmt.Sprintf("mint %s with this shape and `supersedes: %s`, deprecate %s%s and keep its old shape until its consumers have moved", next, pred, c.urn, also)
	}
	return fmt.Sprintf("keep the old shape of %s: it is superseded by %s, and its consumers read the old shape until they have moved; %s",
		c.urn, h, c.newShapeIn(h, "this shape"))
}

// newShapeIn says where a new shape goes for the supersedes chain whose last URN is h:
// into h when this change adds it, else into h's next version.
func (c *comparer) newShapeIn(h, what string) string {
	if c.old.Message(h) == nil {
		return fmt.Sprintf("put %s in %s, which this change adds", what, h)
	}
	next, pred := c.successorOf(h)
	return fmt.Sprintf("put %s in %s, minted with `supersedes: %s`", what, next, pred)
}

func deprecationText(d *model.Deprecation) string {
	if d == nil {
		return ""
	}
	if d.Reason == "" {
		return "deprecated"
	}
	return "deprecated: " + d.Reason
}

// short shortens documentation text for old → new.
func short(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 60 {
		s = string(r[:57]) + "…"
	}
	return s
}

func (c *comparer) message(om, nm *model.Message) {
	if om.Kind != nm.Kind {
		c.add(RuleKindChanged, "", string(om.Kind), string(nm.Kind), nm.Pos, nm.Pos, "message kind changed", "",
			fmt.Sprintf("check that every producer and consumer of %s treats it as a %s; a change of meaning mints a new URN", nm.URN, nm.Kind))
	}
	if om.Queue != nm.Queue {
		c.add(RuleQueueChanged, "", om.Queue, nm.Queue, nm.Pos, nm.Pos, "default queue changed", "",
			fmt.Sprintf("move the consumers of %s to queue %q before (or while) its producers switch, or set `queue: %s` to keep it", nm.URN, nm.Queue, om.Queue))
	}
	if deprecationText(om.Deprecation) != deprecationText(nm.Deprecation) {
		msg := "message deprecated"
		switch {
		case nm.Deprecation == nil:
			msg = "message no longer deprecated"
		case om.Deprecation != nil:
			msg = "deprecation reason changed"
		}
		c.add(RuleDeprecation, "", deprecationText(om.Deprecation), deprecationText(nm.Deprecation), nm.Pos, nm.Pos, msg, "", "")
	}
	for _, d := range []struct{ what, o, n string }{
		{"summary", om.Summary, nm.Summary},
		{"description", om.Description, nm.Description},
		{"owner", om.Owner, nm.Owner},
		{"supersedes", om.Supersedes, nm.Supersedes},
	} {
		if d.o != d.n {
			c.add(RuleDoc, "", short(d.o), short(d.n), nm.Pos, nm.Pos, d.what+" changed", "", "")
		}
	}
	c.stack = map[[2]*model.NamedType]bool{}
	c.schema("$", om.Data, nm.Data, roleRoot, nm.Data.Pos)
}

// role says where a schema sits, for the retype rule.
type role int

const (
	roleRoot role = iota
	roleProperty
	roleItems
	roleValues
	// roleType: the schema of a named type, compared once for all its uses.
	roleType
)

// effective annotations of a schema use: a Ref node carries its own, else those of the
// named type.
func nullable(s *model.Schema) bool {
	for ; s != nil; s = refTarget(s) {
		if s.Nullable {
			return true
		}
	}
	return false
}

func refTarget(s *model.Schema) *model.Schema {
	if s.Kind == model.Ref && s.Named != nil {
		return s.Named.Schema
	}
	return nil
}

func deprecationOf(s *model.Schema) *model.Deprecation {
	for ; s != nil; s = refTarget(s) {
		if s.Deprecation != nil {
			return s.Deprecation
		}
	}
	return nil
}

func descriptionOf(s *model.Schema) string {
	for ; s != nil; s = refTarget(s) {
		if s.Description != "" {
			return s.Description
		}
	}
	return ""
}

func gdprOf(s *model.Schema) string {
	for ; s != nil; s = refTarget(s) {
		if s.GDPR != "" {
			return s.GDPR
		}
	}
	return ""
}

func examplesOf(s *model.Schema) string {
	for ; s != nil; s = refTarget(s) {
		if s.Examples != nil {
			return jsonText(s.Examples)
		}
	}
	return ""
}

func goNamesOf(s *model.Schema) string {
	var parts []string
	if s.GoName != "" {
		parts = append(parts, "name: "+s.GoName)
	}
	if r := s.Resolve(); r != nil && len(r.GoEnumNames) > 0 {
		keys := make([]string, 0, len(r.GoEnumNames))
		for k := range r.GoEnumNames {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var es []string
		for _, k := range keys {
			es = append(es, k+": "+r.GoEnumNames[k])
		}
		parts = append(parts, "enum: {"+strings.Join(es, ", ")+"}")
	}
	return strings.Join(parts, ", ")
}

// keyPos returns the position of keyword key in s, else s's own position.
func keyPos(s *model.Schema, key string) model.Pos {
	if p, ok := s.KeyPos(key); ok {
		return p
	}
	return s.Pos
}

// keyPosChain is keyPos looking through Ref nodes (the keyword of a named type).
func keyPosChain(s *model.Schema, key string) model.Pos {
	for t := s; t != nil; t = refTarget(t) {
		if p, ok := t.KeyPos(key); ok {
			return p
		}
	}
	return s.Pos
}

// schema compares two uses of a schema at path. at is the position of the use in the
// new registry (the property key, or the schema itself).
func (c *comparer) schema(path string, o, n *model.Schema, r role, at model.Pos) {
	if o == nil || n == nil {
		return
	}
	c.depth++
	defer func() { c.depth-- }()
	if c.depth > maxDepth {
		return
	}
	// Both sides use the same named type: its own changes are one finding at the type
	// (compareType); here only the annotations written at the use are compared.
	same := o.Kind == model.Ref && n.Kind == model.Ref && o.Named != nil && n.Named != nil && o.Ref == n.Ref
	if same {
		c.uses[n.Ref] = append(c.uses[n.Ref], typeUse{urn: c.urn, typ: c.typ, path: path})
		c.useAnnotations(path, o, n, r, at)
		c.compareType(o.Named, n.Named)
		return
	}
	// Annotations of the use.
	if od, nd := deprecationText(deprecationOf(o)), deprecationText(deprecationOf(n)); od != nd && r != roleRoot {
		c.add(RuleDeprecation, path, od, nd, keyPosChain(n, "deprecated"), at, fieldDeprecationMessage(od, nd), "", "")
	}
	for _, d := range []struct{ key, what, o, n string }{
		{"description", "description", descriptionOf(o), descriptionOf(n)},
		{"examples", "examples", examplesOf(o), examplesOf(n)},
		{"x-gdpr-sensitive", "x-gdpr-sensitive", gdprOf(o), gdprOf(n)},
		{"go", "go names", goNamesOf(o), goNamesOf(n)},
	} {
		if d.o != d.n {
			p := keyPosChain(n, d.key)
			c.add(RuleDoc, path, short(d.o), short(d.n), p, p, d.what+" changed", "", "")
		}
	}
	if on, nn := nullable(o), nullable(n); on && !nn {
		c.add(RuleNullableRemoved, path, "nullable", "not nullable", at, at, "nullable removed: null is no longer accepted", "keep `nullable: true`", "")
	} else if !on && nn {
		p := keyPosChain(n, "nullable")
		c.add(RuleNullableAdded, path, "not nullable", "nullable", p, p, "nullable added: null is now accepted", "", "")
	}

	// Recursive named types: stop when this pair is already being compared below.
	if o.Kind == model.Ref && n.Kind == model.Ref {
		key := [2]*model.NamedType{o.Named, n.Named}
		if c.stack[key] {
			return
		}
		c.stack[key] = true
		defer delete(c.stack, key)
	}
	ro, rn := o.Resolve(), n.Resolve()
	if ro == nil || rn == nil {
		return
	}
	if ro.Kind != rn.Kind {
		id, what := RuleRetyped, "property retyped"
		switch r {
		case roleItems:
			id, what = RuleItemsRetyped, "array item type changed"
		case roleValues:
			id, what = RuleValuesRetyped, "map value type changed"
		}
		p := keyPosChain(n, "type")
		if _, ok := n.KeyPos("type"); !ok {
			p = at
		}
		c.add(id, path, describe(o), describe(n), p, p, what, "", "")
		return
	}
	switch rn.Kind {
	case model.String:
		c.counts(path, ro, rn, "minLength", ro.MinLength, rn.MinLength, true)
		c.counts(path, ro, rn, "maxLength", ro.MaxLength, rn.MaxLength, false)
		c.text(path, rn, "pattern", ro.Pattern, rn.Pattern)
		c.text(path, rn, "format", ro.Format, rn.Format)
		c.enum(path, ro, rn, at)
	case model.Integer:
		if ro.Encoding != rn.Encoding {
			p := keyPos(rn, "encoding")
			c.add(RuleEncodingChanged, path, encodingText(ro.Encoding), encodingText(rn.Encoding), p, p,
				"integer encoding changed: the value travels in another JSON form", "", "")
		}
		c.intBounds(path, ro, rn)
		c.enum(path, ro, rn, at)
	case model.Number:
		c.numBounds(path, ro, rn)
		c.enum(path, ro, rn, at)
	case model.Boolean:
		c.enum(path, ro, rn, at)
	case model.Object:
		c.object(path, ro, rn)
	case model.Array:
		// the array's own keywords first, then the changes below it (docs/ordering.md)
		c.counts(path, ro, rn, "minItems", ro.MinItems, rn.MinItems, true)
		c.counts(path, ro, rn, "maxItems", ro.MaxItems, rn.MaxItems, false)
		if ro.UniqueItems != rn.UniqueItems {
			p := keyPos(rn, "uniqueItems")
			if rn.UniqueItems {
				c.add(RuleTightened, path, "uniqueItems: false", "uniqueItems: true", p, p, "uniqueItems turned on: arrays with duplicates are rejected", "keep `uniqueItems: false`", "")
			} else {
				c.add(RuleRelaxed, path, "uniqueItems: true", "uniqueItems: false", p, p, "uniqueItems turned off: duplicates are accepted", "", "")
			}
		}
		c.schema(path+"[*]", ro.Items, rn.Items, roleItems, itemsPos(rn))
	case model.Map:
		c.schema(path+".*", ro.Values, rn.Values, roleValues, valuesPos(rn))
	}
}

func itemsPos(s *model.Schema) model.Pos {
	if s.Items != nil && s.Items.Pos.IsValid() {
		return s.Items.Pos
	}
	return keyPos(s, "items")
}

func valuesPos(s *model.Schema) model.Pos {
	if s.Values != nil && s.Values.Pos.IsValid() {
		return s.Values.Pos
	}
	return keyPos(s, "values")
}

func encodingText(e string) string {
	if e == "" {
		return "JSON number"
	}
	return "encoding: " + e
}

// describe names a schema's type for old → new: `integer`, `Address (object)`,
// `array of string`, `map of integer`.
func describe(s *model.Schema) string {
	if s == nil {
		return ""
	}
	r := s.Resolve()
	if r == nil {
		return string(s.Kind)
	}
	var d string
	switch r.Kind {
	case model.Array:
		d = "array of " + describeInner(r.Items)
	case model.Map:
		d = "map of " + describeInner(r.Values)
	case model.Integer:
		d = "integer"
		if r.Encoding != "" {
			d += " (encoding: " + r.Encoding + ")"
		}
	default:
		d = string(r.Kind)
	}
	if s.Kind == model.Ref {
		d = s.Ref + " (" + d + ")"
	}
	return d
}

func describeInner(s *model.Schema) string {
	if s == nil {
		return "?"
	}
	if s.Kind == model.Ref {
		return s.Ref
	}
	return string(s.Kind)
}

// counts compares a non-negative count (minLength, maxLength, minItems, maxItems). For a
// lower count, nil means 0; for an upper count, nil means no limit.
func (c *comparer) counts(path string, ro, rn *model.Schema, key string, o, n *int64, lower bool) {
	ov, nv := int64(0), int64(0)
	if !lower {
		ov, nv = math.MaxInt64, math.MaxInt64
	}
	if o != nil {
		ov = *o
	}
	if n != nil {
		nv = *n
	}
	if ov == nv {
		return
	}
	os, ns := countText(key, o), countText(key, n)
	p := keyPos(rn, key)
	if (lower && nv > ov) || (!lower && nv < ov) {
		c.add(RuleTightened, path, os, ns, p, p, key+" tightened", keep(os), "")
	} else {
		c.add(RuleRelaxed, path, os, ns, p, p, key+" relaxed", "", "")
	}
}

func countText(key string, v *int64) string {
	if v == nil {
		return key + ": none"
	}
	return key + ": " + strconv.FormatInt(*v, 10)
}

// keep is the alternative remedy of a tightened constraint: keep the old one.
func keep(old string) string {
	if strings.HasPrefix(old, "no ") || strings.HasSuffix(old, ": none") {
		return "leave the new constraint out"
	}
	return "keep `" + old + "`"
}

// text compares pattern or format.
func (c *comparer) text(path string, rn *model.Schema, key, o, n string) {
	if o == n {
		return
	}
	os, ns := key+": "+o, key+": "+n
	p := keyPos(rn, key)
	switch {
	case o == "":
		os = key + ": none"
		c.add(RuleTightened, path, os, ns, p, p, key+" added", "leave the "+key+" out", "")
	case n == "":
		ns = key + ": none"
		c.add(RuleRelaxed, path, os, ns, p, p, key+" removed", "", "")
	default:
		c.add(RuleReplaced, path, os, ns, p, p, key+" changed", "keep `"+os+"`", "")
	}
}

func enumKey(v any) string { return fmt.Sprintf("%T:%v", v, v) }

func enumText(v any) string { return jsonText(v) }

// jsonText is v as compact JSON, written as in the registry: `&`, `<` and `>` are not
// escaped (encoding/json's HTML escaping would show "R&D" as "R\u0026D"); each output
// format escapes for its own medium (the Markdown one through internal/mdtext). A value
// JSON cannot encode is shown with fmt's %v.
func jsonText(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func enumList(vs []any) string {
	var parts []string
	for _, v := range vs {
		parts = append(parts, enumText(v))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func (c *comparer) enum(path string, ro, rn *model.Schema, at model.Pos) {
	switch {
	case ro.Enum == nil && rn.Enum == nil:
		return
	case ro.Enum == nil:
		p := keyPos(rn, "enum")
		c.add(RuleEnumAdded, path, "any "+string(rn.Kind), "enum: "+enumList(rn.Enum), p, p,
			"enum added: only the listed values are accepted", "leave the enum out", "")
		return
	case rn.Enum == nil:
		c.add(RuleEnumRemoved, path, "enum: "+enumList(ro.Enum), "any "+string(rn.Kind), at, at,
			"enum removed: any value is accepted", "", "")
		return
	}
	if sameEnum(ro.Enum, rn.Enum) {
		return // the same values in the same order: none removed, none added
	}
	in := func(vs []any) map[string]bool {
		m := map[string]bool{}
		for _, v := range vs {
			m[enumKey(v)] = true
		}
		return m
	}
	om, nm := in(ro.Enum), in(rn.Enum)
	p := keyPos(rn, "enum")
	for _, v := range ro.Enum {
		if !nm[enumKey(v)] {
			c.add(RuleEnumValueRemoved, path, enumText(v), "", p, p, "enum value removed", "keep "+enumText(v)+" in the enum", "")
		}
	}
	for _, v := range rn.Enum {
		if !om[enumKey(v)] {
			c.add(RuleEnumWidened, path, "", enumText(v), p, p, "enum value added", "", "")
		}
	}
}

// sameEnum reports whether o and n hold the same values in the same order, each of
// the same type and (for a number) the same bits, so that their enumKey sets are equal.
// Values of other types than the model's are never taken as the same.
func sameEnum(o, n []any) bool {
	if len(o) != len(n) {
		return false
	}
	for i, v := range o {
		switch v := v.(type) {
		case string:
			if w, ok := n[i].(string); !ok || w != v {
				return false
			}
		case int64:
			if w, ok := n[i].(int64); !ok || w != v {
				return false
			}
		case bool:
			if w, ok := n[i].(bool); !ok || w != v {
				return false
			}
		case float64:
			if w, ok := n[i].(float64); !ok || math.Float64bits(w) != math.Float64bits(v) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// propertyPath appends a property to a JSON path: `.name` for a plain name, else the
// bracket form with a quoted name (`["a b\n"]`), so that a name with spaces, quotes or
// newlines can neither break a report's line nor inject Markdown.
func propertyPath(path, name string) string {
	if plainName(name) {
		return path + "." + name
	}
	return path + "[" + strconv.Quote(name) + "]"
}

func plainName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r == '-' || r == '$' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}

// propertyIndex returns the lookup of s's properties by name (nil when s has none of
// that name; the last of that name, were there several).
func propertyIndex(s *model.Schema) func(string) *model.Property {
	m := make(map[string]*model.Property, len(s.Properties))
	for _, p := range s.Properties {
		m[p.Name] = p
	}
	return func(name string) *model.Property { return m[name] }
}

// samePropertyNames returns the lookups of propertyIndex for o and n without building
// maps when both have the same property names in the same order, each name once (the
// common case); else nil, nil.
func samePropertyNames(o, n *model.Schema) (oIndex, nIndex func(string) *model.Property) {
	if len(o.Properties) != len(n.Properties) {
		return nil, nil
	}
	for i, op := range o.Properties {
		if op.Name != n.Properties[i].Name {
			return nil, nil
		}
	}
	if len(o.Properties) > 64 { // names once each: checked with a set above a few dozen
		seen := make(map[string]bool, len(o.Properties))
		for _, p := range o.Properties {
			if seen[p.Name] {
				return nil, nil
			}
			seen[p.Name] = true
		}
	} else {
		for i, p := range o.Properties {
			for _, q := range o.Properties[:i] {
				if q.Name == p.Name {
					return nil, nil
				}
			}
		}
	}
	at := func(ps []*model.Property) func(string) *model.Property {
		next := 0 // lookups come in property order: try the next index first
		return func(name string) *model.Property {
			if next < len(ps) && ps[next].Name == name {
				next++
				return ps[next-1]
			}
			for i, p := range ps {
				if p.Name == name {
					next = i + 1
					return p
				}
			}
			return nil
		}
	}
	return at(o.Properties), at(n.Properties)
}

func (c *comparer) object(path string, ro, rn *model.Schema) {
	oClosed, nClosed := !ro.AdditionalProperties, !rn.AdditionalProperties
	// Indexes: looking each property up by a scan made objects with thousands of
	// properties quadratic. When both sides name the same properties in the same order
	// (most objects of a pull request), the property at the same index is the one.
	oIndex, nIndex := samePropertyNames(ro, rn)
	if oIndex == nil {
		oIndex, nIndex = propertyIndex(ro), propertyIndex(rn)
	}
	var gone, fresh []*model.Property
	for _, op := range ro.Properties {
		if nIndex(op.Name) == nil {
			gone = append(gone, op)
		}
	}
	for _, np := range rn.Properties {
		if oIndex(np.Name) == nil {
			fresh = append(fresh, np)
		}
	}
	renamed := renames(gone, fresh)
	for _, op := range ro.Properties {
		np := nIndex(op.Name)
		if np == nil {
			pp := propertyPath(path, op.Name)
			id := RuleOptionalRemoved
			switch {
			case op.Required && nClosed:
				id = RuleRequiredRemovedClosed
			case op.Required:
				id = RuleRequiredRemoved
			case nClosed:
				id = RuleOptionalRemovedClosed
			}
			what := "optional"
			if op.Required {
				what = "required"
			}
			alt := fmt.Sprintf("keep %q (mark it `deprecated:`)", op.Name)
			note := fmt.Sprintf("never reuse the name %q for another shape", op.Name)
			c.add(id, pp, what+" "+describe(op.Schema), "", op.Pos, rn.Pos,
				what+" property removed", alt, note)
			if to, ok := renamed[op.Name]; ok {
				c.last().Hint = renameHint(op.Name, to)
			}
		}
	}
	for _, np := range rn.Properties {
		pp := propertyPath(path, np.Name)
		op := oIndex(np.Name)
		if op == nil {
			id := RuleOptionalAdded
			switch {
			case np.Required && oClosed:
				id = RuleRequiredAddedClosed
			case np.Required:
				id = RuleRequiredAdded
			case oClosed:
				id = RuleOptionalAddedClosed
			}
			what := "optional"
			remedy := ""
			if np.Required {
				what = "required"
				remedy = fmt.Sprintf("add %q as optional instead", np.Name)
			}
			c.add(id, pp, "", what+" "+describe(np.Schema), np.Pos, np.Pos,
				what+" property added", remedy, "")
			continue
		}
		if op.Required != np.Required {
			rp := keyPos(rn, "required")
			if np.Required {
				c.add(RuleMadeRequired, pp, "optional", "required", rp, rp,
					"property made required", fmt.Sprintf("keep %q optional", np.Name), "")
			} else {
				c.add(RuleMadeOptional, pp, "required", "optional", np.Pos, np.Pos,
					"property made optional", "", "")
			}
		}
		c.schema(pp, op.Schema, np.Schema, roleProperty, np.Pos)
	}
	if oClosed != nClosed {
		p := keyPos(rn, "additionalProperties")
		if nClosed {
			c.add(RuleClosed, path, "additionalProperties: true", "additionalProperties: false", p, p,
				"object closed: undeclared keys are rejected", "keep the object open", "")
		} else {
			c.add(RuleOpened, path, "additionalProperties: false", "additionalProperties: true", p, p,
				"object opened: undeclared keys are accepted", "", "")
		}
	}
}

// intBound is an integer schema's effective lower and upper bounds (int64 when
// unbounded; int32 with format: int32), with the keywords that set them.
func intBounds(s *model.Schema) (lo, hi int64, loText, hiText string) {
	lo, hi = math.MinInt64, math.MaxInt64
	var lt, ht []string
	if s.IntFormat == "int32" {
		lo, hi = math.MinInt32, math.MaxInt32
		lt = append(lt, "format: int32")
		ht = append(ht, "format: int32")
	}
	if b := s.Minimum; b != nil {
		lo = max(lo, b.I)
		lt = append(lt, "minimum: "+strconv.FormatInt(b.I, 10))
	}
	if b := s.ExclusiveMinimum; b != nil {
		v := b.I
		if v < math.MaxInt64 {
			v++
		}
		lo = max(lo, v)
		lt = append(lt, "exclusiveMinimum: "+strconv.FormatInt(b.I, 10))
	}
	if b := s.Maximum; b != nil {
		hi = min(hi, b.I)
		ht = append(ht, "maximum: "+strconv.FormatInt(b.I, 10))
	}
	if b := s.ExclusiveMaximum; b != nil {
		v := b.I
		if v > math.MinInt64 {
			v--
		}
		hi = min(hi, v)
		ht = append(ht, "exclusiveMaximum: "+strconv.FormatInt(b.I, 10))
	}
	loText, hiText = strings.Join(lt, ", "), strings.Join(ht, ", ")
	if loText == "" {
		loText = "no lower bound"
	}
	if hiText == "" {
		hiText = "no upper bound"
	}
	return lo, hi, loText, hiText
}

// sameIntBounds reports whether o and n have the same integer format and bounds, so
// that intBounds gives the same for both and comparer.intBounds finds nothing.
func sameIntBounds(o, n *model.Schema) bool {
	same := func(a, b *model.Bound) bool { return (a == nil) == (b == nil) && (a == nil || a.I == b.I) }
	return o.IntFormat == n.IntFormat && same(o.Minimum, n.Minimum) && same(o.ExclusiveMinimum, n.ExclusiveMinimum) &&
		same(o.Maximum, n.Maximum) && same(o.ExclusiveMaximum, n.ExclusiveMaximum)
}

// boundKey picks the keyword whose position a bound finding points at.
func boundKey(s *model.Schema, keys ...string) model.Pos {
	for _, k := range keys {
		if p, ok := s.KeyPos(k); ok {
			return p
		}
	}
	return s.Pos
}

func (c *comparer) intBounds(path string, ro, rn *model.Schema) {
	if sameIntBounds(ro, rn) {
		return // the same keywords: no bound moved, no width changed
	}
	olo, ohi, olt, oht := intBounds(ro)
	nlo, nhi, nlt, nht := intBounds(rn)
	lp := boundKey(rn, "minimum", "exclusiveMinimum", "format")
	hp := boundKey(rn, "maximum", "exclusiveMaximum", "format")
	switch {
	case nlo > olo:
		c.add(RuleTightened, path, olt, nlt, lp, lp, "lower bound raised", keep(olt), "")
	case nlo < olo:
		c.add(RuleRelaxed, path, olt, nlt, lp, lp, "lower bound lowered", "", "")
	}
	switch {
	case nhi < ohi:
		c.add(RuleTightened, path, oht, nht, hp, hp, "upper bound lowered", keep(oht), "")
	case nhi > ohi:
		c.add(RuleRelaxed, path, oht, nht, hp, hp, "upper bound raised", "", "")
	}
	if ro.IntFormat != rn.IntFormat && olo == nlo && ohi == nhi {
		of, nf := "int64", "int64"
		if ro.IntFormat != "" {
			of = ro.IntFormat
		}
		if rn.IntFormat != "" {
			nf = rn.IntFormat
		}
		p := boundKey(rn, "format")
		c.add(RuleDoc, path, "Go type "+of, "Go type "+nf, p, p, "integer width changed within unchanged bounds", "", "")
	}
}

// numBound is a number schema's bound on one side: a value and whether it is
// exclusive; set is false when there is none.
type numBound struct {
	set  bool
	v    float64
	excl bool
	text string
}

// tighter reports whether a excludes more than b on the lower side (lower) or the
// upper side.
func tighter(a, b numBound, lower bool) bool {
	switch {
	case !a.set:
		return false
	case !b.set:
		return true
	case a.v != b.v:
		return (a.v > b.v) == lower
	}
	return a.excl && !b.excl
}

func numBounds(s *model.Schema) (lo, hi numBound) {
	fmtB := func(key string, b *model.Bound) string {
		return key + ": " + strconv.FormatFloat(b.Float(), 'g', -1, 64)
	}
	var lt, ht []string
	if b := s.Minimum; b != nil {
		lo = numBound{set: true, v: b.Float()}
		lt = append(lt, fmtB("minimum", b))
	}
	if b := s.ExclusiveMinimum; b != nil {
		if x := (numBound{set: true, v: b.Float(), excl: true}); tighter(x, lo, true) {
			lo = x
		}
		lt = append(lt, fmtB("exclusiveMinimum", b))
	}
	if b := s.Maximum; b != nil {
		hi = numBound{set: true, v: b.Float()}
		ht = append(ht, fmtB("maximum", b))
	}
	if b := s.ExclusiveMaximum; b != nil {
		if x := (numBound{set: true, v: b.Float(), excl: true}); tighter(x, hi, false) {
			hi = x
		}
		ht = append(ht, fmtB("exclusiveMaximum", b))
	}
	lo.text, hi.text = strings.Join(lt, ", "), strings.Join(ht, ", ")
	if lo.text == "" {
		lo.text = "no lower bound"
	}
	if hi.text == "" {
		hi.text = "no upper bound"
	}
	return lo, hi
}

func (c *comparer) numBounds(path string, ro, rn *model.Schema) {
	olo, ohi := numBounds(ro)
	nlo, nhi := numBounds(rn)
	lp := boundKey(rn, "minimum", "exclusiveMinimum")
	hp := boundKey(rn, "maximum", "exclusiveMaximum")
	switch {
	case tighter(nlo, olo, true):
		c.add(RuleTightened, path, olo.text, nlo.text, lp, lp, "lower bound raised", keep(olo.text), "")
	case tighter(olo, nlo, true):
		c.add(RuleRelaxed, path, olo.text, nlo.text, lp, lp, "lower bound lowered", "", "")
	}
	switch {
	case tighter(nhi, ohi, false):
		c.add(RuleTightened, path, ohi.text, nhi.text, hp, hp, "upper bound lowered", keep(ohi.text), "")
	case tighter(ohi, nhi, false):
		c.add(RuleRelaxed, path, ohi.text, nhi.text, hp, hp, "upper bound raised", "", "")
	}
}

// fieldDeprecationMessage says how a field's deprecation text changed from od to nd.
func fieldDeprecationMessage(od, nd string) string {
	switch {
	case nd == "":
		return "field no longer deprecated"
	case od != "":
		return "deprecation reason changed"
	}
	return "field deprecated"
}

// typeUse is one place the comparison met a named type on both sides: in the data of
// urn, or (urn "") in the named type typ, at path.
type typeUse struct {
	urn, typ, path string
}

// useAnnotations compares the annotations written on two uses of the same named type
// (nullable, description, deprecated, examples, x-gdpr-sensitive, go name), not those
// of the type, which compareType reports once.
func (c *comparer) useAnnotations(path string, o, n *model.Schema, r role, at model.Pos) {
	if od, nd := deprecationText(o.Deprecation), deprecationText(n.Deprecation); od != nd && r != roleRoot {
		c.add(RuleDeprecation, path, od, nd, keyPos(n, "deprecated"), at, fieldDeprecationMessage(od, nd), "", "")
	}
	own := func(s *model.Schema) string {
		if s.Examples == nil {
			return ""
		}
		return jsonText(s.Examples)
	}
	goName := func(s *model.Schema) string {
		if s.GoName == "" {
			return ""
		}
		return "name: " + s.GoName
	}
	for _, d := range []struct{ key, what, o, n string }{
		{"description", "description", o.Description, n.Description},
		{"examples", "examples", own(o), own(n)},
		{"x-gdpr-sensitive", "x-gdpr-sensitive", o.GDPR, n.GDPR},
		{"go", "go names", goName(o), goName(n)},
	} {
		if d.o != d.n {
			p := keyPos(n, d.key)
			c.add(RuleDoc, path, short(d.o), short(d.n), p, p, d.what+" changed", "", "")
		}
	}
	if o.Nullable && !n.Nullable && !nullable(n) {
		c.add(RuleNullableRemoved, path, "nullable", "not nullable", at, at, "nullable removed: null is no longer accepted", "keep `nullable: true`", "")
	} else if !o.Nullable && n.Nullable && !nullable(o) {
		p := keyPos(n, "nullable")
		c.add(RuleNullableAdded, path, "not nullable", "nullable", p, p, "nullable added: null is now accepted", "", "")
	}
}

// compareType compares a named type that both registries define under one name, once
// per report, with findings for the type (Finding.Type) rather than for each URN.
func (c *comparer) compareType(ot, nt *model.NamedType) {
	if c.typeDone[nt.Name] {
		return
	}
	c.typeDone[nt.Name] = true
	urn, typ, stack, depth := c.urn, c.typ, c.stack, c.depth
	c.urn, c.typ, c.stack, c.depth = "", nt.Name, map[[2]*model.NamedType]bool{}, 0
	c.schema("$", ot.Schema, nt.Schema, roleType, nt.Pos)
	c.urn, c.typ, c.stack, c.depth = urn, typ, stack, depth
}

// reach returns the URNs a named type reaches, directly or through other named types,
// with the path of the first use met, in URN order.
func (c *comparer) reach(name string) []Use {
	type item struct{ typ, suffix string }
	var out []Use
	seenURN := map[string]bool{}
	seenType := map[string]bool{name: true}
	queue := []item{{name, ""}}
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		for _, u := range c.uses[it.typ] {
			p := u.path + it.suffix
			if u.urn != "" {
				if !seenURN[u.urn] {
					seenURN[u.urn] = true
					out = append(out, Use{URN: u.urn, Path: p})
				}
			} else if !seenType[u.typ] {
				seenType[u.typ] = true
				queue = append(queue, item{u.typ, strings.TrimPrefix(p, "$")})
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].URN < out[j].URN })
	return out
}

// typeFindings completes the findings of named types: the uses each reaches, the fix of
// the breaking ones (once per supersedes chain), and the reached URNs in Changed.
func (c *comparer) typeFindings() {
	reach := map[string][]Use{}
	changed := map[string]bool{}
	for _, u := range c.rep.Changed {
		changed[u] = true
	}
	for i := range c.rep.Findings {
		f := &c.rep.Findings[i]
		if f.Type == "" {
			continue
		}
		r, ok := reach[f.Type]
		if !ok {
			r = c.reach(f.Type)
			reach[f.Type] = r
			for _, u := range r {
				if !changed[u.URN] {
					changed[u.URN] = true
					c.rep.Changed = append(c.rep.Changed, u.URN)
				}
			}
		}
		f.Reaches = r
		if f.Severity != Breaking {
			continue
		}
		fix, ok := c.rep.TypeFix[f.Type]
		if !ok {
			fix = c.typeFix(f.Type, r)
			c.rep.TypeFix[f.Type] = fix
		}
		f.Remedy = fix
		if f.Alternative != "" {
			f.Remedy = f.Alternative + " in " + f.Type + "; or " + fix
		}
	}
}

// typeFix is the fix of a breaking change in named type name that reaches uses: leave
// the type as it was, give the new shape a new named type, and use it in one new
// version per supersedes chain (never one per URN of a chain).
func (c *comparer) typeFix(name string, uses []Use) string {
	nt := nextTypeName(name, c.old, c.new)
	var heads []string
	seen := map[string]bool{}
	for _, u := range uses {
		if h := c.head(u.URN); !seen[h] {
			seen[h] = true
			heads = append(heads, h)
		}
	}
	var where []string
	for _, h := range heads {
		where = append(where, c.newShapeIn(h, "it"))
	}
	fix := typeFixText{fmt.Sprintf("leave %s as it was for the URNs it reaches and give the new shape a new named type, %s", name, nt), where}
	c.rep.typeFix[name] = fix
	return fix.String(len(where))
}

// typeFixText is a named type's fix in parts, so that the Markdown report can list
// some of its places: Lead, then "used in a new version of each URN that needs it: "
// and Where, one entry per supersedes chain.
type typeFixText struct {
	Lead  string
	Where []string
}

// String is the fix with the first n entries of Where, counting the others.
func (t typeFixText) String(n int) string {
	if len(t.Where) == 0 {
		return t.Lead
	}
	where := t.Where
	if n < len(where) {
		where = append(where[:n:n], fmt.Sprintf("and %d more (`bqgen diff --format text` lists them all)", len(t.Where)-n))
	}
	return t.Lead + ", used in a new version of each URN that needs it: " + strings.Join(where, "; ")
}

// nextTypeName returns `<name>V2` (or the next free `V<n>`) for a new named type.
func nextTypeName(name string, regs ...*model.Registry) string {
	for n := 2; ; n++ {
		cand := name + "V" + strconv.Itoa(n)
		free := true
		for _, r := range regs {
			if r != nil && r.Type(cand) != nil {
				free = false
			}
		}
		if free {
			return cand
		}
	}
}

// renames pairs the properties removed from an object with properties added to it
// whose schema is equal (shape), one to one, in the old and the new registry's order.
func renames(removed, added []*model.Property) map[string]string {
	out := map[string]string{}
	if len(removed) == 0 || len(added) == 0 {
		return out
	}
	free := map[string][]string{}
	for _, p := range added {
		k := shape(p.Schema)
		free[k] = append(free[k], p.Name)
	}
	for _, p := range removed {
		k := shape(p.Schema)
		if l := free[k]; len(l) > 0 {
			out[p.Name] = l[0]
			free[k] = l[1:]
		}
	}
	return out
}

// nameCode writes a property name for advice: in backticks when plain, else quoted.
func nameCode(name string) string {
	if plainName(name) {
		return "`" + name + "`"
	}
	return strconv.Quote(name)
}

// renameHint is the hint of a removed property that looks renamed to another.
func renameHint(from, to string) string {
	return fmt.Sprintf("looks like a rename of %s to %s (equal schemas): JSON has no renames, so a consumer reading %s no longer finds it "+
		"and messages that carry %s do not fill %s; to rename in place, keep %s (mark it `deprecated:`) and add %s as optional, "+
		"have producers write both until every consumer reads %s, and remove %s in a later change",
		nameCode(from), nameCode(to), nameCode(from), nameCode(from), nameCode(to), nameCode(from), nameCode(to), nameCode(to), nameCode(from))
}

// shape is a canonical text of what a schema accepts, for telling equal schemas apart
// from different ones (renames): documentation, key order, enum order, the spelling of
// bounds and whether a shape is inline or a named type play no part.
func shape(s *model.Schema) string {
	var b strings.Builder
	writeShape(&b, s, map[*model.NamedType]bool{}, 0)
	return b.String()
}

func writeShape(b *strings.Builder, s *model.Schema, seen map[*model.NamedType]bool, depth int) {
	if s == nil || depth > maxDepth {
		b.WriteString("?")
		return
	}
	if nullable(s) {
		b.WriteString("null|")
	}
	var named []*model.NamedType
	for t := s; t != nil && t.Kind == model.Ref && t.Named != nil; t = t.Named.Schema {
		if seen[t.Named] {
			b.WriteString("@" + t.Named.Name)
			return
		}
		seen[t.Named] = true
		named = append(named, t.Named)
	}
	defer func() {
		for _, t := range named {
			delete(seen, t)
		}
	}()
	r := s.Resolve()
	if r == nil {
		b.WriteString("?")
		return
	}
	b.WriteString(string(r.Kind))
	enum := func() {
		if r.Enum == nil {
			return
		}
		var vs []string
		for _, v := range r.Enum {
			vs = append(vs, enumKey(v))
		}
		sort.Strings(vs)
		fmt.Fprintf(b, " enum%q", vs)
	}
	count := func(k string, v *int64) {
		if v != nil {
			fmt.Fprintf(b, " %s=%d", k, *v)
		}
	}
	switch r.Kind {
	case model.String:
		count("minLength", r.MinLength)
		count("maxLength", r.MaxLength)
		fmt.Fprintf(b, " pattern=%q format=%q", r.Pattern, r.Format)
		enum()
	case model.Integer:
		lo, hi, _, _ := intBounds(r)
		fmt.Fprintf(b, " enc=%q [%d,%d]", r.Encoding, lo, hi)
		enum()
	case model.Number:
		lo, hi := numBounds(r)
		fmt.Fprintf(b, " [%v %v %v, %v %v %v]", lo.set, lo.v, lo.excl, hi.set, hi.v, hi.excl)
		enum()
	case model.Boolean:
		enum()
	case model.Object:
		fmt.Fprintf(b, " open=%v {", r.AdditionalProperties)
		ps := append([]*model.Property(nil), r.Properties...)
		sort.Slice(ps, func(i, j int) bool { return ps[i].Name < ps[j].Name })
		for _, p := range ps {
			fmt.Fprintf(b, "%q req=%v:", p.Name, p.Required)
			writeShape(b, p.Schema, seen, depth+1)
			b.WriteString(";")
		}
		b.WriteString("}")
	case model.Array:
		count("minItems", r.MinItems)
		count("maxItems", r.MaxItems)
		fmt.Fprintf(b, " unique=%v [", r.UniqueItems)
		writeShape(b, r.Items, seen, depth+1)
		b.WriteString("]")
	case model.Map:
		b.WriteString(" <")
		writeShape(b, r.Values, seen, depth+1)
		b.WriteString(">")
	}
}
