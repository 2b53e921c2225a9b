package registry

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/babelqueue/bqgen/internal/model"
	"github.com/babelqueue/bqgen/internal/pii"
)

// checkPII reports the messages whose SDK schema cannot be written within their own
// budget (BQ050, an error: pii.MaxBytes, pii.MaxNesting), the x-gdpr-sensitive marks the
// BabelQueue SDKs cannot reach (BQ048) and the marked strings inside marked values,
// which their Unprotect cannot restore (BQ049), from each message's pii.Inventory
// (docs/pii.md). A finding whose construct
// lies in a named type names the type and paths from its root, so that the URNs using
// the type report it once; it can be silenced by the lint block of the type's file.
// One in a message's own data can be silenced by the message's lint block. broken says
// a type is unknown or infinite (BQ033): the messages are then not measured. l is a
// copy of the loader of its own (checkRules runs it beside the other rules): it only
// reports, and reads the model.
func checkPII(l *loader, broken bool) {
	ix := pii.NewIndex(l.reg)
	for _, m := range l.reg.Messages {
		if !broken && !ix.Inlined(m) {
			l.curLint = nil
			l.reportSize(m, ix)
			continue // its marks inside named types are not placed: BQ050 says why
		}
		inv := ix.Problems(m)
		if inv == nil {
			continue
		}
		l.reportLost(m, inv.Lost)
		l.reportNested(m, inv.Nested)
	}
	l.curLint = nil
}

// hasRule reports whether an error of rule was reported.
func (l *loader) hasRule(rule string) bool {
	for _, p := range l.diags {
		if p.d.Rule == rule && p.d.Severity == SeverityError {
			return true
		}
	}
	return false
}

// reportSize reports BQ050 at m: its SDK schema would exceed pii.MaxBytes or
// pii.MaxNesting.
func (l *loader) reportSize(m *model.Message, ix *pii.Index) {
	_, _, deep := ix.Size(m)
	why := fmt.Sprintf("inlining its named types (as the SDKs follow no $ref) would add more than %d bytes (1 MiB) to its SDK schema", pii.MaxBytes)
	hint := "use fewer or smaller named types in this message (a type used twice at each of many levels doubles the schema at each level; each use copies the type's descriptions), or split the message"
	if deep > pii.MaxNesting {
		why = fmt.Sprintf("its SDK schema, with its named types inlined (as the SDKs follow no $ref), would nest deeper than %d levels", pii.MaxNesting)
		hint = "give the message a flatter shape: fewer objects, arrays and named types nested inside each other along one path"
	}
	msg := fmt.Sprintf("message %q: %s; it cannot be written within the message's own budget", m.URN, why)
	if ix.Marked(m) {
		msg += ", and with $ref the SDKs' gdpr.Protect would send the x-gdpr-sensitive values inside its named types in clear text"
	}
	l.report(m.Pos, RuleSDKSchemaSize, msg, hint)
}

// ownerLint returns the lint block of m when owner is "" (m's own data), else nil.
func ownerLint(m *model.Message, owner string) *model.Lint {
	if owner == "" {
		return m.Lint
	}
	return nil
}

// ownerName names where a path starts: type "T", or the data of message "urn".
func ownerName(m *model.Message, owner string) string {
	if owner == "" {
		return fmt.Sprintf("the data of message %q", m.URN)
	}
	return fmt.Sprintf("type %q", owner)
}

// fieldList renders paths as `field a` or `fields a, b and c`.
func fieldList(what string, paths []string) string {
	if len(paths) == 1 {
		return what + " " + paths[0]
	}
	return what + "s " + listOf(paths)
}

// listOf renders paths as `a`, `a and b`, `a, b and c` (at most five named, then
// "and N more").
func listOf(paths []string) string {
	const most = 5
	switch n := len(paths); {
	case n == 1:
		return paths[0]
	case n <= most:
		return strings.Join(paths[:n-1], ", ") + " and " + paths[n-1]
	default:
		return fmt.Sprintf("%s and %d more", strings.Join(paths[:most], ", "), n-most)
	}
}

// pathGroup collects the distinct paths of the entries that share a key, in first-seen
// order of both.
type pathGroup[K comparable, V any] struct {
	keys  []K
	first map[K]V
	paths map[K][]string
	seen  map[K]map[string]bool
}

func newPathGroup[K comparable, V any]() *pathGroup[K, V] {
	return &pathGroup[K, V]{first: map[K]V{}, paths: map[K][]string{}, seen: map[K]map[string]bool{}}
}

func (g *pathGroup[K, V]) add(k K, v V, path string) {
	if _, ok := g.first[k]; !ok {
		g.keys = append(g.keys, k)
		g.first[k] = v
		g.seen[k] = map[string]bool{}
	}
	if !g.seen[k][path] {
		g.seen[k][path] = true
		g.paths[k] = append(g.paths[k], path)
	}
}

type causeKey struct {
	at     model.Pos
	reason pii.Reason
}

func (l *loader) reportLost(m *model.Message, lost []pii.Lost) {
	g := newPathGroup[causeKey, pii.Cause]()
	for _, x := range lost {
		g.add(causeKey{x.Cause.At, x.Cause.Reason}, x.Cause, x.CauseRel)
	}
	for _, k := range g.keys {
		c := g.first[k]
		paths := g.paths[k]
		in := ownerName(m, c.Owner)
		fields := "x-gdpr-sensitive " + fieldList("field", paths)
		// Verb forms for one field or several.
		lies, is, it := "lies", "is", "it"
		if len(paths) > 1 {
			lies, is, it = "lie", "are", "them"
		}
		var msg, hint string
		switch c.Reason {
		case pii.MapValue:
			msg = fmt.Sprintf("%s of %s %s inside the values of map %s, which the SDKs' path syntax cannot address: their gdpr.Protect sends %s in clear text", fields, in, lies, c.Path, it)
			hint = "carry the entries as an array of objects ({type: array, items: {type: object, properties: {key: …, value: …}}}), or mark the whole map (the SDKs then protect it as one value)"
		case pii.Key:
			msg = fmt.Sprintf("%s of %s %s under the key %s, which the SDKs' path syntax cannot spell (it splits paths at \".\" and reads a trailing \"[]\" as an array): their gdpr.Protect protects another value or none, and sends %s in clear text", fields, in, lies, strconv.Quote(c.Key), it)
			hint = "rename the key without \".\" and without a trailing \"[]\" (a rename is a breaking change: mint <urn>.v2)"
		case pii.NestedArray:
			msg = fmt.Sprintf("%s of %s %s in an array directly inside an array (%s), which the SDKs' path syntax cannot address: their gdpr.Protect sends %s in clear text", fields, in, lies, c.Path, it)
			hint = "wrap the inner array in an object ({type: object, properties: {values: {type: array, …}}}), or mark the inner arrays themselves"
		case pii.Root:
			msg = fmt.Sprintf("x-gdpr-sensitive on the data of message %q marks the whole data block, which the SDKs do not protect (their gdpr.Protect skips the empty path)", m.URN)
			hint = "mark the fields that hold personal data instead"
		case pii.Recursion:
			msg = fmt.Sprintf("%s uses the recursive type %q at %s, and the SDK schemas inline a recursive type %d times along a path: %s below that depth %s not reached, and the SDKs' gdpr.Protect sends %s in clear text",
				in, c.Type, c.Path, pii.UnrollDepth, fields, is, it)
			hint = "keep personal data out of recursive types, or mark the recursive field itself (the SDKs then protect the whole subtree as one value)"
		}
		l.curLint = ownerLint(m, c.Owner)
		l.report(c.At, RulePIIReach, msg, hint)
	}
}

func (l *loader) reportNested(m *model.Message, nested []pii.Nested) {
	g := newPathGroup[model.Pos, pii.Mark]()
	for _, n := range nested {
		g.add(n.Outer.Pos, n.Outer, n.InnerRel)
	}
	for _, k := range g.keys {
		o := g.first[k]
		paths := g.paths[k]
		l.curLint = ownerLint(m, o.Owner)
		l.report(o.Pos, RulePIINested,
			fmt.Sprintf("x-gdpr-sensitive on %s of %s covers the marked %s: the SDKs' gdpr.Unprotect decrypts %s as one value, then fails on the clear string inside it (ErrDecrypt), so a consumer that unprotects rejects the message",
				o.Rel, ownerName(m, o.Owner), fieldList("string", paths), o.Rel),
			"mark either the value or the fields inside it, not both: a marked object, array or map is protected as one value")
	}
}
