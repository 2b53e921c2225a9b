package jsonschema

import (
	"encoding/json"
	"math"
	"math/big"
	"math/rand"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/babelqueue/bqgen/internal/nodetools"
)

// canonicalIn reports whether s is the canonical decimal form of an integer in
// [lo, hi]: the specification IntRangePattern must match exactly.
func canonicalIn(s string, lo, hi int64) bool {
	if !canonicalRE.MatchString(s) || s == "-0" {
		return false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return false // beyond int64, so beyond [lo, hi]
	}
	return lo <= n && n <= hi
}

var canonicalRE = regexp.MustCompile(`^-?(0|[1-9][0-9]*)$`)

// nonCanonical are forms the pattern must never accept.
var nonCanonical = []string{"", "-", "+", "-0", "00", "01", "-01", "+1", " 1", "1 ", "1\n", "\n1", "1.0", "1e2", "0x1", "１", "--1", "1-", "٣"}

func checkPattern(t *testing.T, lo, hi int64, inputs []string) {
	t.Helper()
	p := IntRangePattern(lo, hi)
	re, err := regexp.Compile(p)
	if err != nil {
		t.Fatalf("[%d, %d]: %v", lo, hi, err)
	}
	for _, s := range inputs {
		if got, want := re.MatchString(s), canonicalIn(s, lo, hi); got != want {
			t.Fatalf("[%d, %d] pattern %s: %q matched=%v, want %v", lo, hi, p, s, got, want)
		}
	}
}

func TestIntRangePatternSmallExhaustive(t *testing.T) {
	var inputs []string
	for v := -1100; v <= 1100; v++ {
		inputs = append(inputs, strconv.Itoa(v))
	}
	inputs = append(inputs, nonCanonical...)
	interesting := []int64{-1001, -1000, -999, -580, -123, -101, -100, -99, -57, -11, -10, -9, -1, 0, 1, 9, 10, 11, 57, 99, 100, 101, 123, 580, 999, 1000, 1001}
	for _, lo := range interesting {
		for _, hi := range interesting {
			if lo <= hi {
				checkPattern(t, lo, hi, inputs)
			}
		}
	}
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 300; i++ {
		lo := r.Int63n(2000) - 1000
		hi := lo + r.Int63n(1000-lo+1)
		checkPattern(t, lo, hi, inputs)
	}
}

func TestIntRangePatternEmpty(t *testing.T) {
	if p := IntRangePattern(5, 4); p != "" {
		t.Fatalf("empty range: %q", p)
	}
}

// edgeInputs are values around lo, hi, the int64 limits and powers of ten, written as
// decimal strings (some outside int64).
func edgeInputs(r *rand.Rand, lo, hi int64) []string {
	var out []string
	add := func(b *big.Int) { out = append(out, b.String()) }
	for _, c := range []int64{lo, hi, 0, math.MinInt64, math.MaxInt64} {
		for d := int64(-2); d <= 2; d++ {
			add(new(big.Int).Add(big.NewInt(c), big.NewInt(d)))
		}
	}
	for e := 0; e <= 20; e++ {
		p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(e)), nil)
		for d := int64(-1); d <= 1; d++ {
			v := new(big.Int).Add(p, big.NewInt(d))
			add(v)
			add(new(big.Int).Neg(v))
		}
	}
	span := new(big.Int).Sub(big.NewInt(hi), big.NewInt(lo))
	for i := 0; i < 200; i++ {
		if span.Sign() > 0 {
			add(new(big.Int).Add(big.NewInt(lo), new(big.Int).Rand(r, new(big.Int).Add(span, big.NewInt(1)))))
		}
		add(big.NewInt(int64(r.Uint64())))
	}
	return append(out, nonCanonical...)
}

func TestIntRangePatternInt64Edges(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	ranges := [][2]int64{
		{math.MinInt64, math.MaxInt64},
		{math.MinInt64, math.MinInt64},
		{math.MaxInt64, math.MaxInt64},
		{math.MinInt64, math.MinInt64 + 5},
		{math.MaxInt64 - 5, math.MaxInt64},
		{math.MinInt64, -1},
		{0, math.MaxInt64},
		{1, math.MaxInt64},
		{math.MinInt64, 0},
		{-(1<<53 - 1), 1<<53 - 1},
		{math.MinInt32, math.MaxInt32},
		{-1e18, 1e18},
		{-999999999999999999, 999999999999999999},
		{1000000000000000000, 1000000000000000001},
	}
	for i := 0; i < 300; i++ {
		a, b := int64(r.Uint64()), int64(r.Uint64())
		if i%3 == 0 {
			b = a + r.Int63n(1<<20)
			if b < a {
				b = math.MaxInt64
			}
		}
		ranges = append(ranges, [2]int64{min(a, b), max(a, b)})
	}
	for _, rg := range ranges {
		checkPattern(t, rg[0], rg[1], edgeInputs(r, rg[0], rg[1]))
	}
}

// TestIntRangePatternECMA checks that ECMA-262 (node, with and without the u flag)
// gives the same verdicts as RE2 on the same patterns.
func TestIntRangePatternECMA(t *testing.T) {
	type item struct {
		P string   `json:"p"`
		S []string `json:"s"`
	}
	r := rand.New(rand.NewSource(3))
	var items []item
	var want [][]bool
	ranges := [][2]int64{{math.MinInt64, math.MaxInt64}, {-5, 100}, {0, 0}, {-1000, -1}, {math.MinInt32, math.MaxInt32}, {7, 1234567}}
	for _, rg := range ranges {
		in := edgeInputs(r, rg[0], rg[1])
		var w []bool
		for _, s := range in {
			w = append(w, canonicalIn(s, rg[0], rg[1]))
		}
		items = append(items, item{IntRangePattern(rg[0], rg[1]), in})
		want = append(want, w)
	}
	input, _ := json.Marshal(items)
	script := `const items = JSON.parse(require("fs").readFileSync(0, "utf8"));
console.log(JSON.stringify(items.map(it => it.s.map(s => {
  const a = new RegExp(it.p, "u").test(s), b = new RegExp(it.p).test(s);
  if (a !== b) throw new Error("u flag disagrees on " + s);
  return a;
}))));`
	out := nodetools.RunNode(t, script, input)
	var got [][]bool
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	for i := range want {
		for j := range want[i] {
			if got[i][j] != want[i][j] {
				t.Errorf("pattern %s: ECMA says %v for %q, want %v", items[i].P, got[i][j], items[i].S[j], want[i][j])
			}
		}
	}
}

// TestNonBlankPattern checks NonBlankPattern against strings.TrimSpace (the Go
// decoder's blank test) for every single-rune string of the BMP and a few others,
// in RE2 and in ECMA-262 (node).
func TestNonBlankPattern(t *testing.T) {
	re := regexp.MustCompile(NonBlankPattern)
	var samples []string
	var want []bool
	for r := rune(0); r < 0x10000; r++ {
		if r >= 0xD800 && r <= 0xDFFF {
			continue
		}
		s := string(r)
		samples = append(samples, s, " "+s+"\t")
		w := strings.TrimSpace(s) != ""
		want = append(want, w, w)
	}
	samples = append(samples, "", "\U0001F4E6", " \u3000\u2028 ")
	want = append(want, false, true, false)
	for i, s := range samples {
		if got := re.MatchString(s); got != want[i] {
			t.Fatalf("%q: RE2 match=%v, want %v", s, got, want[i])
		}
	}
	input, _ := json.Marshal(map[string]any{"p": NonBlankPattern, "s": samples})
	script := `const it = JSON.parse(require("fs").readFileSync(0, "utf8"));
const a = new RegExp(it.p, "u"), b = new RegExp(it.p);
console.log(JSON.stringify(it.s.map(s => { if (a.test(s) !== b.test(s)) throw new Error("u flag"); return a.test(s); })));`
	out := nodetools.RunNode(t, script, input)
	var got []bool
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%q: ECMA match=%v, want %v", samples[i], got[i], want[i])
		}
	}
}
