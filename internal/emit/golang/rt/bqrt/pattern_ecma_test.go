package bqrt

import (
	"regexp"
	"testing"

	"github.com/babelqueue/bqgen/internal/ecmare"
)

// TestMatchPatternOnTranslations: the generated code compiles the RE2 translation of a
// registry's ECMA-262 pattern (internal/ecmare); the fast path must read those
// translations with regexp's verdict, and still take the common anchored ones.
func TestMatchPatternOnTranslations(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		ecma   string
		simple bool
	}{
		{`^.+$`, true}, {`^.{1,50}$`, true}, {`^\S+$`, true}, {`^\s*$`, true}, {`^[^\s@]+@[^\s@]+$`, false},
		{`^\p{Lu}`, false}, {`^\p{Lu}[a-z]*$`, true}, {`^[A-Z0-9-]{3,32}$`, true}, {`^\u{1F600}+$`, true},
		{`^[^]{2}$`, true}, {`^[]$`, true}, {`^(?:EUR|USD)$|^X[A-Z]{2}$`, false}, {`^\cJ?x$`, true},
	} {
		re2, err := ecmare.Translate(c.ecma)
		if err != nil {
			t.Fatalf("%s: %v", c.ecma, err)
		}
		re := regexp.MustCompile(re2)
		if got := compileSimple(re.String()).ok; got != c.simple {
			t.Errorf("compileSimple(%q) (from %s).ok = %v, want %v", re2, c.ecma, got, c.simple)
		}
		for _, s := range []string{"", "a", "Ab", "a\rb", "a\nb", "a\u2028b", "a\u2029b", "a\u00a0b", "a\ufeffb",
			"a\u3000b", "a\vb", "😀", "😀😀", "a@b", "a @b", "É", "x", "\nx", "EUR", "XAB", "ABC-12", "\xff"} {
			if got, want := matchPattern(re, s), re.MatchString(s); got != want {
				t.Errorf("matchPattern(%q from %s, %+q) = %v, regexp says %v", re2, c.ecma, s, got, want)
			}
		}
	}
}
