// Package regexgen builds strings from an ECMA-262 pattern (through its RE2
// translation, internal/ecmare): a string the pattern matches, and a near miss with
// each counted repetition one step too long. The agreement corpus (internal/agreement)
// and the conformance fixtures (internal/fixtures) build their pattern cases with it.
package regexgen

import (
	"regexp/syntax"
	"strings"

	"github.com/babelqueue/bqgen/internal/ecmare"
)

// Sample returns a string matched by the ECMA-262 pattern p (built from its RE2
// translation, internal/ecmare), repeating each repetition extra times more
// than its minimum where its maximum allows; ok is false for constructs it does not
// know (the caller then needs an example). Every class contributes a letter or digit
// it holds (else its first rune); alternations their first branch.
func Sample(p string, extra int) (string, bool) {
	return patternString(p, extra, true)
}

// Overflow is Sample with every repetition extra times over its minimum
// even past its maximum: a near miss of counted repetitions such as {3,32}.
func Overflow(p string, extra int) (string, bool) {
	return patternString(p, extra, false)
}

func patternString(p string, extra int, capped bool) (string, bool) {
	re2, err := ecmare.Translate(p)
	if err != nil {
		return "", false
	}
	re, err := syntax.Parse(re2, syntax.Perl)
	if err != nil {
		return "", false
	}
	var b strings.Builder
	if !sample(&b, re, extra, capped) {
		return "", false
	}
	return b.String(), true
}

func sample(b *strings.Builder, re *syntax.Regexp, extra int, capped bool) bool {
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return true
	case syntax.OpLiteral:
		b.WriteString(string(re.Rune))
		return true
	case syntax.OpCharClass:
		if len(re.Rune) == 0 {
			return false
		}
		// Prefer a printable ASCII letter or digit of the class.
		for i := 0; i+1 < len(re.Rune); i += 2 {
			for r := re.Rune[i]; r <= re.Rune[i+1] && r < 0x7f; r++ {
				if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
					b.WriteRune(r)
					return true
				}
			}
		}
		b.WriteRune(re.Rune[0])
		return true
	case syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		b.WriteByte('x')
		return true
	case syntax.OpCapture:
		return sample(b, re.Sub[0], extra, capped)
	case syntax.OpConcat:
		for _, s := range re.Sub {
			if !sample(b, s, extra, capped) {
				return false
			}
		}
		return true
	case syntax.OpAlternate:
		return sample(b, re.Sub[0], extra, capped)
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		lo, hi := 0, -1
		switch re.Op {
		case syntax.OpPlus:
			lo = 1
		case syntax.OpQuest:
			hi = 1
		case syntax.OpRepeat:
			lo, hi = re.Min, re.Max
		}
		n := lo + extra
		if capped && hi >= 0 && n > hi {
			n = hi
		}
		for i := 0; i < n; i++ {
			if !sample(b, re.Sub[0], extra, capped) {
				return false
			}
		}
		return true
	}
	return false
}
