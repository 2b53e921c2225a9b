package bqrt

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/babelqueue/bqgen/internal/ecmare"
)

// largeClassPattern is a simple pattern whose one class has 784 ranges
// (issue 20, item 14).
const largeClassPattern = `^[\p{L}\p{M}\p{N}\p{P}\p{Zs}]*$`

// largeClassValue is a valid value of largeClassPattern of n bytes: letters,
// marks, digits and punctuation from across the class's ranges.
func largeClassValue(n int) string {
	unit := "aZ9.é中ٹअ٣—ゔ한ꙮ ́" // ASCII, Latin-1, CJK, Arabic, Devanagari, digits, punctuation, kana, Hangul, Cyrillic ext., a mark
	return strings.Repeat(unit, n/len(unit)+1)
}

// largeClass compiles largeClassPattern as the generated code does (its RE2
// translation) and as the fast path reads it.
func largeClass(tb testing.TB) (*regexp.Regexp, *simplePattern) {
	re2, err := ecmare.Translate(largeClassPattern)
	if err != nil {
		tb.Fatal(err)
	}
	re := regexp.MustCompile(re2)
	return re, compileSimple(re.String())
}

// TestMatchPatternLargeClassCost: on a class of many ranges the fast path must not
// be slower than regexp (it was 25 times slower: each rune scanned the ranges one by
// one). Both run on the same 256 KiB value in the same run, best of 3 each, and the
// fast path may take at most twice regexp's time.
func TestMatchPatternLargeClassCost(t *testing.T) {
	re, sp := largeClass(t)
	if !sp.ok {
		t.Fatalf("%s is not taken by the fast path", largeClassPattern)
	}
	if n := len(sp.items[0].ranges) / 2; n < 500 {
		t.Fatalf("the class has %d ranges; the test needs a large one", n)
	}
	s := largeClassValue(256 << 10)
	if !re.MatchString(s) || !sp.match(s) {
		t.Fatal("the value must match")
	}
	best := func(f func()) time.Duration {
		min := time.Duration(1 << 62)
		for range 3 {
			start := time.Now()
			f()
			if d := time.Since(start); d < min {
				min = d
			}
		}
		return min
	}
	fast := best(func() { sp.match(s) })
	slow := best(func() { re.MatchString(s) })
	if fast > 2*slow {
		t.Errorf("fast path %v, regexp %v on %d bytes: the fast path must not be slower than regexp", fast, slow, len(s))
	}
}

// TestPatItemMembership holds the bit set and the binary search to a scan of the
// ranges, on every code point of a large class and of small ones.
func TestPatItemMembership(t *testing.T) {
	t.Parallel()
	for _, expr := range []string{`[a-z]`, `[\x{0}-\x{10FFFF}]`, `[^a]`, `[\p{L}\p{M}\p{N}\p{P}\p{Zs}]`, `[\p{Greek}0-9]`, `é`, `\x{7F}`, `\x{80}`} {
		sp := compileSimple(`^` + expr + `$`)
		if !sp.ok {
			t.Fatalf("%s: not simple", expr)
		}
		it := sp.items[0]
		scan := func(r rune) bool {
			for i := 0; i+1 < len(it.ranges); i += 2 {
				if it.ranges[i] <= r && r <= it.ranges[i+1] {
					return true
				}
			}
			return false
		}
		for r := rune(0); r <= 0x10FFFF; r++ {
			if got, want := it.in(r), scan(r); got != want {
				t.Fatalf("%s: in(%U) = %v, want %v", expr, r, got, want)
			}
		}
	}
}

// BenchmarkPatternLargeClass compares the fast path with regexp on a valid 1 MiB
// value of largeClassPattern, in the same run (issue 20, item 14).
func BenchmarkPatternLargeClass(b *testing.B) {
	re, sp := largeClass(b)
	s := largeClassValue(1 << 20)
	b.Run("fast", func(b *testing.B) {
		b.SetBytes(int64(len(s)))
		for b.Loop() {
			if !sp.match(s) {
				b.Fatal("no match")
			}
		}
	})
	b.Run("regexp", func(b *testing.B) {
		b.SetBytes(int64(len(s)))
		for b.Loop() {
			if !re.MatchString(s) {
				b.Fatal("no match")
			}
		}
	})
}

// TestPatternSkippedOnceRejected: a value the cheap checks reject is not matched
// against the pattern (issue 20, item 11: one Dispatch of a 1 MiB value against
// `\S{1,64}@\S{1,255}\.\S{2,63}` with maxLength 254 took 5.6-8.8 s, all of it in the
// pattern). The only problem reported is the length; a value that passes them is
// matched.
func TestPatternSkippedOnceRejected(t *testing.T) {
	re := regexp.MustCompile(ecmare.MustCompile(`\S{1,64}@\S{1,255}\.\S{2,63}`).String())
	field := Desc{Kind: KString, Flags: FChecked | FMax, Hi: 254, Pattern: &re}
	enumField := Desc{Kind: KString, Flags: FChecked, Pattern: &re, Enum: []string{"a@b.cd"}}
	formatField := Desc{Kind: KString, Flags: FChecked, Pattern: &re, Format: "date"}
	type data struct{ S, E, F string }
	desc := Desc{Kind: KObject, Flags: FChecked, Fields: []Field{{Key: "s", Type: field}, {Key: "e", Type: enumField}, {Key: "f", Type: formatField}}}
	long := strings.Repeat("a", 1<<20)
	start := time.Now()
	err := Validate(&data{S: long, E: long, F: long}, &desc)
	elapsed := time.Since(start)
	want := "babelqueue: invalid data: $.s: length 1048576 is greater than the maximum 254 (code points); " +
		`$.e: value "` + long + `" is not one of the enum values "a@b.cd"; ` +
		`$.f: is not a valid "date": `
	if got := errText(err); !strings.HasPrefix(got, want[:80]) || strings.Contains(got, "does not match pattern") {
		t.Errorf("Validate = %.300q…, want only the length, enum and format problems", got)
	}
	if elapsed > 2*time.Second {
		t.Errorf("Validate of three 1 MiB values took %v", elapsed)
	}
	if got := errText(Validate(&data{S: "x@y", E: "a@b.cd", F: "2024-01-02"}, &desc)); got != "babelqueue: invalid data: $.s: does not match pattern "+strconv.Quote(re.String())+"; $.f: does not match pattern "+strconv.Quote(re.String()) {
		t.Errorf("short values: %q", got)
	}
}
