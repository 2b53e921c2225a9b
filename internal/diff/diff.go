// Package diff compares two resolved registries (docs/diff.md) and classifies every change
// of every URN with a rule from the catalogue (Rules) and a severity under a
// compatibility mode (backward, forward, full, as Confluent defines them).
//
// The comparison is structural, on the model: key order, formatting, comments and
// moving a shape into (or out of) a named type give no finding.
package diff

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/babelqueue/bqgen/internal/model"
)

// Finding is one classified change.
type Finding struct {
	Rule     *Rule
	Severity Severity // under the report's mode
	URN      string
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
}

// Report is the result of Compare.
type Report struct {
	Mode Mode
	// Findings are sorted by URN, then severity (most serious first), path and rule.
	Findings []Finding
	// Added, Removed and Changed list URNs (sorted); Changed holds URNs in both
	// registries with at least one finding.
	Added, Removed, Changed []string
	// Mint maps each URN with a breaking data change to the advice to mint its next
	// version.
	Mint map[string]string
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
	c := &comparer{old: old, new: new, mode: mode, rep: &Report{Mode: mode, Mint: map[string]string{}}}
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
	sort.Strings(c.rep.Removed)
	sort.Strings(c.rep.Added)
	sort.Strings(c.rep.Changed)
	// By URN, breaking first; within that, in the order the comparison walks the
	// schemas, which is the registries' own: per object, the removed properties in the
	// old registry's order, then the new registry's properties as written, each followed
	// by the changes below it (docs/ordering.md).
	fs := c.rep.Findings
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if a.URN != b.URN {
			return a.URN < b.URN
		}
		return a.Severity.rank() < b.Severity.rank()
	})
	return c.rep
}

// maxDepth bounds the recursion (the registry's own depth limit is far below it).
const maxDepth = 1000

type comparer struct {
	old, new *model.Registry
	mode     Mode
	rep      *Report
	urn      string
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
	} else if id != RuleURNRemoved {
		mint := c.mint()
		c.rep.Mint[c.urn] = mint
		remedy = mint
		if alt != "" {
			remedy += "; or " + alt
		}
	}
	c.rep.Findings = append(c.rep.Findings, Finding{Rule: r, Severity: sev, URN: c.urn, Path: path, Old: old, New: new,
		Pos: pos, Anchor: anchor, Message: msg, Remedy: remedy, Alternative: alt})
}

var versionSuffix = regexp.MustCompile(`^(.*)\.v([0-9]+)$`)

// NextURN returns the URN to mint for an incompatible change of urn: `<urn>.v2`, or
// `.v<n+1>` for `<base>.v<n>`, skipping URNs that already exist in regs.
func NextURN(urn string, regs ...*model.Registry) string {
	base, n := urn, 1
	if m := versionSuffix.FindStringSubmatch(urn); m != nil {
		if v, err := strconv.Atoi(m[2]); err == nil {
			base, n = m[1], v
		}
	}
	for {
		n++
		cand := base + ".v" + strconv.Itoa(n)
		taken := false
		for _, r := range regs {
			if r != nil && r.Message(cand) != nil {
				taken = true
			}
		}
		if !taken {
			return cand
		}
	}
}

func (c *comparer) mint() string {
	next := NextURN(c.urn, c.old, c.new)
	return fmt.Sprintf("mint %s with this shape and `supersedes: %s`, deprecate %s and keep its old shape until its consumers have moved", next, c.urn, c.urn)
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
			b, _ := json.Marshal(s.Examples)
			return string(b)
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
	// Annotations of the use.
	if od, nd := deprecationText(deprecationOf(o)), deprecationText(deprecationOf(n)); od != nd && r != roleRoot {
		msg := "field deprecated"
		switch {
		case nd == "":
			msg = "field no longer deprecated"
		case od != "":
			msg = "deprecation reason changed"
		}
		c.add(RuleDeprecation, path, od, nd, keyPosChain(n, "deprecated"), at, msg, "", "")
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
		c.schema(path+"[*]", ro.Items, rn.Items, roleItems, itemsPos(rn))
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

func enumText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
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

func propertyIndex(s *model.Schema) map[string]*model.Property {
	m := make(map[string]*model.Property, len(s.Properties))
	for _, p := range s.Properties {
		m[p.Name] = p
	}
	return m
}

func (c *comparer) object(path string, ro, rn *model.Schema) {
	oClosed, nClosed := !ro.AdditionalProperties, !rn.AdditionalProperties
	// Indexes: looking each property up by a scan made objects with thousands of
	// properties quadratic.
	oIndex, nIndex := propertyIndex(ro), propertyIndex(rn)
	for _, op := range ro.Properties {
		pp := propertyPath(path, op.Name)
		np := nIndex[op.Name]
		if np == nil {
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
		}
	}
	for _, np := range rn.Properties {
		pp := propertyPath(path, np.Name)
		op := oIndex[np.Name]
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
