package registry

import (
	"errors"
	"fmt"
	"regexp/syntax"
	"strconv"

	"github.com/babelqueue/bqgen/internal/ecmare"
)

// Patterns (BQ035, BQ039, BQ037, BQ056, BQ057).
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
//   - BQ056 (warning): the compiled program is above MaxPatternProgram instructions,
//     so Go's regexp may spend microseconds per byte of a long value.
//   - BQ057 (error): the RE2 translation is above ecmare.MaxRE2Size bytes.
//
// Each distinct pattern is analysed once per load (loader.factsOf), and translated
// once per process (ecmare's cache), however many fields use it.

// MaxPatternProgram is the largest compiled program (instructions of the
// regexp/syntax program of a pattern's RE2 translation, as regexp.Compile builds it)
// that gets no BQ056 finding: 256. Go's regexp runs in time linear in the value, but
// each byte costs up to about patternNsPerInst nanoseconds per instruction that can
// be live at once, and an unanchored pattern can have every instruction live:
// `.{0,1000}x` (2,003 instructions) took 41 s on a 1 MiB value,
// `\S{1,64}@\S{1,255}\.\S{2,63}` (764) 5.6-8.8 s. At the limit the estimate is about
// 5 µs per byte (BenchmarkWorstAcceptedPattern measures it).
const MaxPatternProgram = 256

// MaxRE2Total bounds the RE2 text of all distinct patterns of a registry together:
// 1 MiB (1,048,576 bytes). The generated Go holds each distinct pattern of a package
// once, so this bounds what patterns add to it; each pattern is also bounded alone
// (ecmare.MaxRE2Size, 32 KiB). A 12 KB registry of short patterns with \p{Cn} used to
// make a 22.5 MB orders.go. The pattern that crosses the limit is a BQ057 error.
const MaxRE2Total = 1 << 20

// patternNsPerInst is the measured cost of Go's regexp per byte of input and
// instruction of the program, in nanoseconds, on the reference machine of
// docs/hardening.md (unanchored counted repetitions on a long value; 20 ns).
const patternNsPerInst = 20

// patternFacts is what checkPattern finds about one distinct pattern, computed once
// per load (loader.patterns).
type patternFacts struct {
	pat       *ecmare.Pattern
	err       error
	slow      slowFinding
	isSlow    bool
	insts     int  // the compiled program's instructions
	overTotal bool // its translation takes the registry past MaxRE2Total (the first to)
	analysed  bool // slow and insts were computed (within MaxRE2Total)
}

// factsOf returns the analysis of pattern p, computing it on first use.
func (l *loader) factsOf(p string) *patternFacts {
	if f := l.patterns[p]; f != nil {
		return f
	}
	if l.spec {
		// A prebuild: analysed as the merge would if the budget holds there (the
		// merge checks it, takePrebuilt).
		f, ok := l.share.facts(p)
		if !ok {
			l.abort = true
			f = &patternFacts{err: errAborted}
		}
		if l.patterns == nil {
			l.patterns = map[string]*patternFacts{}
		}
		l.patterns[p] = f
		l.specPats = append(l.specPats, p)
		return f
	}
	f := &patternFacts{}
	f.pat, f.err = ecmare.Parse(p)
	if f.err == nil {
		// Past the limit the registry is refused: the patterns after the one that
		// crossed it are translated (for their syntax errors) but not analysed.
		if l.re2Total <= MaxRE2Total {
			if sf := l.share.analysed(p); sf != nil {
				f.slow, f.isSlow, f.insts = sf.slow, sf.isSlow, sf.insts // a prebuild's
			} else {
				f.slow, f.isSlow = slowTree(f.pat.Root)
				f.insts = programSize(f.pat.RE2)
			}
			f.analysed = true
			l.re2Total += len(f.pat.RE2)
			f.overTotal = l.re2Total > MaxRE2Total
		}
	}
	if l.patterns == nil {
		l.patterns = map[string]*patternFacts{}
	}
	l.patterns[p] = f
	return f
}

// programSize is the number of instructions regexp.Compile gives the RE2 expression
// re2 (0 when it does not compile).
func programSize(re2 string) int {
	re, err := syntax.Parse(re2, syntax.Perl)
	if err != nil {
		return 0
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		return 0
	}
	return len(prog.Inst)
}

// checkPattern reports the pattern findings of a string field's pattern (e.val.str).
func checkPattern(l *loader, e *tentry, what string) {
	p := e.val.str
	facts := l.factsOf(p)
	pat, err := facts.pat, facts.err
	if err != nil {
		var pe *ecmare.Error
		if !errors.As(err, &pe) {
			l.report(e.val.pos, RulePattern, fmt.Sprintf("pattern of %s: %v", what, err), "")
			return
		}
		if errors.Is(err, ecmare.ErrTooLarge) {
			l.report(e.val.pos, RulePatternSize, fmt.Sprintf("pattern of %s translates to more than %d bytes of RE2 (Go's regexp), the limit", what, ecmare.MaxRE2Size), pe.Hint)
			return
		}
		msg := fmt.Sprintf("pattern of %s uses %s", what, pe.Message())
		if errors.Is(err, ecmare.ErrSyntax) {
			msg = fmt.Sprintf("pattern of %s is not an ECMA-262 regular expression (JSON Schema's pattern, read with the u flag): %s", what, pe.Message())
		}
		l.report(e.val.pos, RulePattern, msg, pe.Hint)
		return
	}
	if facts.overTotal {
		l.report(e.val.pos, RulePatternSize, fmt.Sprintf("pattern of %s takes the registry's patterns past %d bytes of RE2 (Go's regexp) in all, the limit (this one: %d bytes)", what, MaxRE2Total, len(pat.RE2)),
			"use fewer distinct patterns with property escapes RE2 has no name for (\\p{Cn}, \\p{C}, \\p{LC}, \\p{Alphabetic}, …): each is written out as its ranges, up to 10 KB")
	}
	if len(pat.Properties) > 0 {
		pr := pat.Properties[0]
		l.report(e.val.pos, RuleUnicodeProperty,
			fmt.Sprintf("pattern of %s uses the Unicode property escape %s (character %d), which each validator matches by its own Unicode tables: %s",
				what, pr.Text, charIndex(p, pr.Offset), ecmare.UnicodeVersionNote()),
			"characters assigned between those versions pass one validator and fail another; list the ranges instead if that matters (Latin letters: [A-Za-z\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u00FF]), or silence the warning with a reason")
	}
	if f := facts.slow; facts.isSlow {
		l.report(e.val.pos, RuleSlowPattern, fmt.Sprintf("pattern of %s can backtrack catastrophically in ECMA-262, PCRE and Java validators: %s %s",
			what, clipText(strconv.Quote(p[f.lo:f.hi]), 80), f.why),
			"rewrite it so that each character can be matched one way only (`^a+$` for `^(a+)+$`, `[ab]` for `(a|b)`, `a*` for `(a|a?)*`, `\\d*` for `\\d*\\d*\\d*`): RE2 (Go) is immune, but ajv, PHP and Java validators can hang on a short hostile message")
	}
	if facts.insts > MaxPatternProgram {
		l.report(e.val.pos, RulePatternCost,
			fmt.Sprintf("pattern of %s compiles to a program of %d instructions (the limit is %d): Go's regexp may spend about %s per byte of a value that passes the other checks (%d ns per instruction)",
				what, facts.insts, MaxPatternProgram, nsText(facts.insts*patternNsPerInst), patternNsPerInst),
			"bound the value with maxLength (checked before the pattern), or write large counts as + or * ({1,255} is 255 copies of its atom); silence the warning with a reason if the values are short")
	}
}

// nsText writes a duration in nanoseconds as ns or µs.
func nsText(ns int) string {
	if ns < 10_000 {
		return fmt.Sprintf("%d ns", ns)
	}
	return fmt.Sprintf("%d µs", ns/1000)
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
