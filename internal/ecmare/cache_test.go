package ecmare

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// TestTranslationSizeCap: a translation longer than MaxRE2Size is an ErrTooLarge
// error (also ErrUnsupported), written no further than the limit, and a syntax error
// anywhere still wins (issue 20, item 12: each \p{Cn} is 10 KB of RE2).
func TestTranslationSizeCap(t *testing.T) {
	t.Parallel()
	three, four := strings.Repeat(`\p{Cn}`, 3), strings.Repeat(`\p{Cn}`, 4)
	if re2, err := Translate(three); err != nil || len(re2) != 30279 {
		t.Errorf("Translate(3 × \\p{Cn}) = %d bytes, %v; want 30279 bytes", len(re2), err)
	}
	_, err := Translate(four)
	if !errors.Is(err, ErrTooLarge) || !errors.Is(err, ErrUnsupported) {
		t.Errorf("Translate(4 × \\p{Cn}) = %v, want ErrTooLarge", err)
	}
	if _, err := Translate(four + `(`); !errors.Is(err, ErrSyntax) {
		t.Errorf("Translate(4 × \\p{Cn} + '(') = %v, want ErrSyntax", err)
	}
	if _, err := Translate(four + `(?=a)`); !errors.Is(err, ErrTooLarge) {
		t.Errorf("a lookahead after the cap: %v, want the first problem, ErrTooLarge", err)
	}
	if _, err := Translate(`(?=a)` + four); errors.Is(err, ErrTooLarge) || !errors.Is(err, ErrUnsupported) {
		t.Errorf("a lookahead before the cap: %v, want the lookahead", err)
	}
	huge := strings.Repeat(`[\p{Cn}\p{Alphabetic}]`, 3000) // 66 KB; 49 MB once translated
	start := time.Now()
	if _, err := Translate(huge); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Translate(huge) = %v", err)
	}
	if d := time.Since(start); d > 500*time.Millisecond {
		t.Errorf("Translate of a 66 KB pattern took %v; the cap should stop it early", d)
	}
}

// TestParseCached: the same pattern is translated once per process and shared.
func TestParseCached(t *testing.T) {
	t.Parallel()
	p := `^[\p{Alphabetic}]{1,3}-cache-test$`
	a, err := Parse(p)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Parse(p)
	if a != b {
		t.Error("Parse returned two translations of one pattern")
	}
	r1, _ := Compile(p)
	r2, _ := Compile(p)
	if r1 != r2 || r1.String() != a.RE2 {
		t.Error("Compile compiled one pattern twice")
	}
	if _, err1 := Parse(`(`); err1 == nil {
		t.Fatal("( parses")
	} else if _, err2 := Parse(`(`); err1 != err2 {
		t.Error("errors are not cached")
	}
}
