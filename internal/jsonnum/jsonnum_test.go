package jsonnum

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"math/rand"
	"strconv"
	"strings"
	"testing"
)

func mustParse(t testing.TB, lit string) Decimal {
	t.Helper()
	d, ok := Parse(lit)
	if !ok {
		t.Fatalf("Parse(%q) failed", lit)
	}
	return d
}

func TestParse(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		lit  string
		want Decimal
	}{
		{"0", Decimal{}},
		{"-0", Decimal{}},
		{"0.000e99", Decimal{}},
		{"1", Decimal{Digits: "1", Exp: 1}},
		{"-1.50", Decimal{Neg: true, Digits: "15", Exp: 1}},
		{"100", Decimal{Digits: "1", Exp: 3}},
		{"0.001", Decimal{Digits: "1", Exp: -2}},
		{"12.34e2", Decimal{Digits: "1234", Exp: 4}},
		{"5" + strings.Repeat("0", 1000) + "e-990", Decimal{Digits: "5", Exp: 11}},
		{"1e-999999", Decimal{Digits: "1", Exp: -999998}},
		{"1.5e999999", Decimal{Digits: "15", Exp: 1000000}},
		{"1e999999999999999998", Decimal{Digits: "1", Exp: MaxExp}},
		{"1e999999999999999999", Decimal{Digits: "1", Exp: MaxExp + 1, BigExp: "1000000000000000000"}},
		{"10e999999999999999999", Decimal{Digits: "1", Exp: MaxExp + 1, BigExp: "1000000000000000001"}},
		{"0.01e-1000000000000000000", Decimal{Digits: "1", Exp: -(MaxExp + 1), BigExp: "-1000000000000000001"}},
		{"100e-1000000000000000002", Decimal{Digits: "1", Exp: -MaxExp}},
		{"1e+00000000000000000000000000005", Decimal{Digits: "1", Exp: 6}},
	} {
		if got := mustParse(t, c.lit); got != c.want {
			t.Errorf("Parse(%.40q) = %+v, want %+v", c.lit, got, c.want)
		}
	}
	for _, bad := range []string{"", "-", "01", "1.", ".5", "1e", "1e+", "+1", "1.5.5", "0x1", "1 ", "NaN", "Infinity", "-Infinity", "1E5e"} {
		if _, ok := Parse(bad); ok {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
}

// randomLiteral writes a JSON number literal with a few digits and a small exponent,
// so that math/big can check it.
func randomLiteral(r *rand.Rand) string {
	var b strings.Builder
	if r.Intn(2) == 0 {
		b.WriteByte('-')
	}
	digits := func(n int) {
		for range n {
			b.WriteByte(byte('0' + r.Intn(10)))
		}
	}
	if r.Intn(4) == 0 {
		b.WriteByte('0')
	} else {
		b.WriteByte(byte('1' + r.Intn(9)))
		digits(r.Intn(5))
	}
	if r.Intn(2) == 0 {
		b.WriteByte('.')
		digits(1 + r.Intn(5))
	}
	if r.Intn(2) == 0 {
		b.WriteString([]string{"e", "E", "e+", "e-"}[r.Intn(4)])
		b.WriteString(strconv.Itoa(r.Intn(30)))
	}
	return b.String()
}

// TestAgainstBig: Cmp, IsInt, Int64 and String agree with math/big on random literals.
func TestAgainstBig(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewSource(1))
	lits := []string{"0", "-0", "1", "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809", "1e19", "0.5", "100e-2"}
	for range 3000 {
		lits = append(lits, randomLiteral(r))
	}
	for i, a := range lits {
		da := mustParse(t, a)
		ra, _ := new(big.Rat).SetString(a)
		if da.IsInt() != ra.IsInt() {
			t.Errorf("IsInt(%s) = %v", a, da.IsInt())
		}
		n, ok := da.Int64()
		wantOK := ra.IsInt() && ra.Num().IsInt64()
		if ok != wantOK || ok && n != ra.Num().Int64() {
			t.Errorf("Int64(%s) = %d, %v", a, n, ok)
		}
		if back := mustParse(t, da.String()); back != da {
			t.Errorf("String(%s) = %s reads back as %+v", a, da.String(), back)
		}
		b := lits[(i*7919+13)%len(lits)]
		rb, _ := new(big.Rat).SetString(b)
		if got, want := da.Cmp(mustParse(t, b)), ra.Cmp(rb); got != want {
			t.Errorf("Cmp(%s, %s) = %d, want %d", a, b, got, want)
		}
	}
}

func TestCmpHugeExponents(t *testing.T) {
	t.Parallel()
	order := []string{
		"-1e1000000000000000000000", "-1e999999999999999999", "-1e999999", "-1", "-1e-999999999999999999999",
		"0", "1e-1000000000000000000000", "1e-999999999999999999", "9e-999999999999999999", "1e-999999",
		"1", "1e999999", "1e999999999999999998", "1e999999999999999999", "1.5e999999999999999999", "1e1000000000000000000000",
	}
	for i, a := range order {
		for j, b := range order {
			want := 0
			switch {
			case i < j:
				want = -1
			case i > j:
				want = 1
			}
			if got := mustParse(t, a).Cmp(mustParse(t, b)); got != want {
				t.Errorf("Cmp(%s, %s) = %d, want %d", a, b, got, want)
			}
		}
	}
	if mustParse(t, "10e999999999999999999").Cmp(mustParse(t, "1e1000000000000000000")) != 0 {
		t.Error("10e999999999999999999 != 1e1000000000000000000")
	}
	if !mustParse(t, "1e999999999999999999999").IsInt() || mustParse(t, "1e-999999999999999999999").IsInt() {
		t.Error("IsInt beyond MaxExp")
	}
}

func TestOverflowsFloat64(t *testing.T) {
	t.Parallel()
	max, _ := new(big.Float).SetFloat64(math.MaxFloat64).Int(nil)
	threshold := new(big.Int).Add(max, new(big.Int).Lsh(big.NewInt(1), 970)) // half an ulp above
	below := new(big.Int).Sub(threshold, big.NewInt(1))
	for _, c := range []struct {
		lit  string
		want bool
	}{
		{"1e308", false}, {"1.7976931348623157e308", false}, {"1.7976931348623158e308", false},
		{"1.797693134862315807937e308", false}, {"1.797693134862315808e308", true},
		{threshold.String(), true}, {below.String(), false},
		{"-" + threshold.String(), true}, {"1e309", true}, {"-1e400", true}, {"1e999999", true},
		{"1e-999999", false}, {"0e999999", false}, {"5" + strings.Repeat("0", 1000) + "e-990", false},
	} {
		if got := mustParse(t, c.lit).OverflowsFloat64(); got != c.want {
			t.Errorf("OverflowsFloat64(%.40s…) = %v, want %v", c.lit, got, c.want)
		}
		if len(c.lit) < 400 {
			_, err := strconv.ParseFloat(c.lit, 64)
			if (err != nil) != c.want {
				t.Errorf("%.40s: strconv.ParseFloat says overflow=%v", c.lit, err != nil)
			}
		}
	}
}

// BenchmarkParse: the cost of a literal is linear in its length, whatever its exponent.
func BenchmarkParse(b *testing.B) {
	for _, lit := range []string{"1042", "1e-999999", "1.5e999999", "1." + strings.Repeat("0", 1_000_000), strings.Repeat("7", 1_000_000) + "e-999999999999999999999"} {
		b.Run(fmt.Sprintf("len=%d", len(lit)), func(b *testing.B) {
			b.SetBytes(int64(len(lit)))
			for b.Loop() {
				Parse(lit)
			}
		})
	}
}

// FuzzParse: Parse accepts exactly the JSON number grammar (as encoding/json's
// json.Valid does), String reads back to the same Decimal, and on literals that math/big
// handles cheaply Cmp and IsInt agree with it.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"0", "-0.0e-0", "1e999999", "12.34e-5", "1e999999999999999999999", "01", "1.", "-"} {
		f.Add(s, "1")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		da, ok := Parse(a)
		if ok != (json.Valid([]byte(a)) && a != "" && strings.Trim(a, " \t\r\n") == a && (a[0] == '-' || isDigit(a[0]))) {
			t.Fatalf("Parse(%q) ok=%v disagrees with the grammar", a, ok)
		}
		if !ok {
			return
		}
		if back, _ := Parse(da.String()); back != da {
			t.Fatalf("String(%q) = %q reads back as %+v, want %+v", a, da.String(), back, da)
		}
		db, okb := Parse(b)
		if !okb || len(a) > 60 || len(b) > 60 || strings.ContainsAny(a+b, "eE") {
			return
		}
		ra, _ := new(big.Rat).SetString(a)
		rb, _ := new(big.Rat).SetString(b)
		if da.Cmp(db) != ra.Cmp(rb) || da.IsInt() != ra.IsInt() {
			t.Fatalf("Cmp(%s, %s) = %d, IsInt %v; math/big: %d, %v", a, b, da.Cmp(db), da.IsInt(), ra.Cmp(rb), ra.IsInt())
		}
	})
}

func TestFloorCeil(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		lit               string
		floor, ceil       int64
		floorOut, ceilOut int
	}{
		{"0", 0, 0, 0, 0}, {"2.5", 2, 3, 0, 0}, {"-2.5", -3, -2, 0, 0}, {"3", 3, 3, 0, 0}, {"-3e0", -3, -3, 0, 0},
		{"0.001", 0, 1, 0, 0}, {"-0.001", -1, 0, 0, 0}, {"1e-999999", 0, 1, 0, 0}, {"-1e-999999", -1, 0, 0, 0},
		{"9223372036854775807", math.MaxInt64, math.MaxInt64, 0, 0}, {"9223372036854775807.5", math.MaxInt64, 0, 0, 1},
		{"9223372036854775808", 0, 0, 1, 1}, {"-9223372036854775808", math.MinInt64, math.MinInt64, 0, 0},
		{"-9223372036854775808.5", 0, math.MinInt64, -1, 0}, {"-9223372036854775809", 0, 0, -1, -1},
		{"1.5e999999", 0, 0, 1, 1}, {"-1e400", 0, 0, -1, -1}, {"1." + strings.Repeat("0", 100000), 1, 1, 0, 0},
		{"12345678901234567890e-10", 1234567890, 1234567891, 0, 0},
	} {
		d := mustParse(t, c.lit)
		if n, out := d.Floor(); n != c.floor || out != c.floorOut {
			t.Errorf("Floor(%.30s) = %d, %d; want %d, %d", c.lit, n, out, c.floor, c.floorOut)
		}
		if n, out := d.Ceil(); n != c.ceil || out != c.ceilOut {
			t.Errorf("Ceil(%.30s) = %d, %d; want %d, %d", c.lit, n, out, c.ceil, c.ceilOut)
		}
	}
	if FromInt64(math.MinInt64).Cmp(mustParse(t, "-9223372036854775808")) != 0 {
		t.Error("FromInt64")
	}
}

func TestRatText(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, want string }{
		{"9223372036854775808", "9223372036854775808"},
		{"-0.125", "-0.125"},
		{"1/3", "1/3"},
		{"0", "0"},
		{"1e32", "1e32"},
		{"12345678901234567890123456789012", "12345678901234567890123456789012"},
		{"1234567890123456789012345678901.25", "1.23456789012345678901234567890125e30"},
		{"1e300", "1e300"},
		{"4.9406564584124654e-324", "4.9406564584124654e-324"},
		{"17976931348623157e292", "1.7976931348623157e308"},
		{"1e400", "≈1e400"},
		{"-2.5e-400", "≈-2.5e-400"},
		{"1" + strings.Repeat("0", 400) + "1", "≈1e401"},
		{"99999999e392", "≈1e400"},
		{"12345678e-1000", "≈1.23457e-993"},
	} {
		r, ok := new(big.Rat).SetString(tt.in)
		if !ok {
			t.Fatal(tt.in)
		}
		if got := RatText(r); got != tt.want {
			t.Errorf("RatText(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
}
