package registry

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/babelqueue/bqgen/internal/ecmare"
)

// Patterns (BQ035, BQ039, BQ037).
//
// A registry pattern is an ECMA-262 regular expression with the u flag, as JSON Schema
// defines `pattern` and as ajv reads it (docs/patterns.md). bqgen translates it to an
// RE2 expression with the same meaning (internal/ecmare) wherever Go matches it: the
// generated decoder, bqgen validate, the examples check (BQ034). The emitted JSON
// Schemas carry its portable form (portability.go: BQ060–BQ062).
//
//   - BQ035 (error): the pattern is not ECMA-262 (ajv cannot compile it), or it uses
//     what RE2 cannot express: lookahead, lookbehind, backreferences, counts above
//     1000. The message names the construct and its position in the pattern.
//   - BQ039 (warning): a Unicode property escape (\p{L}, \p{Script=Greek}): both sides
//     support it, but each matches by the Unicode version of its own tables.
//   - BQ037 (warning): the pattern backtracks catastrophically in backtracking engines
//     (redos.go), analysed on the ECMA-262 syntax tree.

// checkPattern reports the pattern findings of a string field's pattern (e.val.str).
func checkPattern(l *loader, e *tentry, what string) {
	p := e.val.str
	pat, err := ecmare.Parse(p)
	if err != nil {
		var pe *ecmare.Error
		if !errors.As(err, &pe) {
			l.report(e.val.pos, RulePattern, fmt.Sprintf("pattern of %s: %v", what, err), "")
			return
		}
		msg := fmt.Sprintf("pattern of %s uses %s", what, pe.Message())
		if errors.Is(err, ecmare.ErrSyntax) {
			msg = fmt.Sprintf("pattern of %s is not an ECMA-262 regular expression (JSON Schema's pattern, read with the u flag): %s", what, pe.Message())
		}
		l.report(e.val.pos, RulePattern, msg, pe.Hint)
		return
	}
	if len(pat.Properties) > 0 {
		pr := pat.Properties[0]
		l.report(e.val.pos, RuleUnicodeProperty,
			fmt.Sprintf("pattern of %s uses the Unicode property escape %s (character %d), which each validator matches by its own Unicode tables: %s",
				what, pr.Text, charIndex(p, pr.Offset), ecmare.UnicodeVersionNote()),
			"characters assigned between those versions pass one validator and fail another; list the ranges instead if that matters (Latin letters: [A-Za-z\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u00FF]), or silence the warning with a reason")
	}
	if f, slow := slowTree(pat.Root); slow {
		l.report(e.val.pos, RuleSlowPattern, fmt.Sprintf("pattern of %s can backtrack catastrophically in ECMA-262, PCRE and Java validators: %s %s",
			what, clipText(strconv.Quote(p[f.lo:f.hi]), 80), f.why),
			"rewrite it so that each character can be matched one way only (`^a+$` for `^(a+)+$`, `[ab]` for `(a|b)`, `a*` for `(a|a?)*`, `\\d*` for `\\d*\\d*\\d*`): RE2 (Go) is immune, but ajv, PHP and Java validators can hang on a short hostile message")
	}
}

// charIndex is the 1-based character (code point) position of byte offset off in s.
func charIndex(s string, off int) int {
	n := 1
	for i := range s {
		if i >= off {
			break
		}
		n++
	}
	return n
}
