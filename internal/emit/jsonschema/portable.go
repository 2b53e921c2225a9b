package jsonschema

import (
	"sync"

	"github.com/babelqueue/bqgen/internal/ecmare"
	"github.com/babelqueue/bqgen/internal/ordjson"
)

// Patterns every engine reads alike (docs/patterns.md, "Patterns every engine reads
// alike"; docs/jsonschema.md, "Which pattern dialect").
//
// A registry pattern is ECMA-262; the emitted schema carries its portable form
// (ecmare's Pattern.Portable): the same strings in ECMA-262 with the u flag, and the
// same verdicts in Go's regexp, Python's re and PCRE2 (PHP) but for what `bqgen check`
// reports (BQ060–BQ062). bqgen's own patterns (formats, currency codes, canonical
// integers) are written portable by hand (TestOwnPatternsInFourEngines) and kept as they
// are. Where Python and PCRE2 would also accept a string ending in a newline, which
// the pattern rejects in ECMA-262 (`$` matches before a final "\n" there), the schema
// adds `"not": {"type": "string", "pattern": "\\n$"}` (NotFinalNewline), whose pattern
// all four read alike.

// portableForm is the emitted form of one pattern.
type portableForm struct {
	text  string
	guard bool
}

// portable returns the emitted text of pattern p and whether it needs the final-newline
// guard. own patterns keep their text. A pattern that does not parse (a model built
// without the registry's checks) is written as it is.
func portable(p string, own bool) portableForm {
	f := portableForm{text: p}
	if res, err := ecmare.PortableCached(p); err == nil {
		f.guard = res.GuardFinalNewline
		if !own {
			f.text = res.Pattern
		}
	}
	return f
}

// NotFinalNewline is the sibling subschema that rejects the strings ending in "\n":
// `{"type": "string", "pattern": "\\n$"}` under `not` (only strings are ruled out, so
// a nullable field's null passes).
func NotFinalNewline() *ordjson.Object {
	return ordjson.New().Set("type", "string").Set("pattern", ecmare.FinalNewlinePattern)
}

// setPatterns writes the pattern keywords of a string schema: the registry's pattern
// author (may be empty) in portable form and bqgen's own patterns (a format's
// narrowing, a currency code, a canonical integer range). The first becomes "pattern",
// the others go under "allOf"; "not" is NotFinalNewline when any of them needs the
// guard.
func setPatterns(o *ordjson.Object, author string, own ...string) {
	writePatterns(o, nil, author, own...)
}

// patterns is setPatterns for a schema of g, with one "not" for all documents: a
// shared tree in the manifest profile's (whose trees SDKDataSchemas returns), written
// once in the others, which are only written.
func (g *gen) patterns(o *ordjson.Object, author string, own string) {
	var guard any = notFinalNewlineTree
	if g.inline == nil {
		guard = notFinalNewlineText()
	}
	writePatterns(o, guard, author, own)
}

// notFinalNewlineTree is the NotFinalNewline of every manifest-profile schema: one
// tree, which nothing modifies (sdkPass walks properties and items only), and
// notFinalNewlineText the same written once.
var (
	notFinalNewlineTree = NotFinalNewline()
	notFinalNewlineText = sync.OnceValue(func() Raw { return mustRaw(notFinalNewlineTree) })
)

// writePatterns is setPatterns with guard as the value of "not" (nil: a new
// NotFinalNewline).
func writePatterns(o *ordjson.Object, guard any, author string, own ...string) {
	var rest []any
	first, needGuard := true, false
	for i := -1; i < len(own); i++ {
		var f portableForm
		switch {
		case i < 0 && author != "":
			f = portable(author, false)
		case i >= 0 && own[i] != "":
			f = portable(own[i], true)
		default:
			continue
		}
		needGuard = needGuard || f.guard
		if first {
			o.Set("pattern", f.text)
			first = false
			continue
		}
		rest = append(rest, ordjson.NewCap(1).Set("pattern", f.text))
	}
	if len(rest) > 0 {
		o.Set("allOf", rest)
	}
	if needGuard {
		if guard == nil {
			guard = NotFinalNewline()
		}
		o.Set("not", guard)
	}
}
