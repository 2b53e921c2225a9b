package registry

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func TestReadNumber(t *testing.T) {
	t.Parallel()
	zeros := strings.Repeat("0", 1000)
	cases := []struct {
		in     string
		num    json.Number
		double string
		class  numClass
	}{
		{"0", "0", "", numExact},
		{"-0.0", "0", "", numExact},
		{"0e999999999", "0", "", numExact},
		{"0.000e-999999999999999999999", "0", "", numExact},
		{"12", "12", "", numExact},
		{"+12", "12", "", numExact},
		{"-12.50", "-12.5", "", numExact},
		{"1.5e3", "1500", "", numExact},
		{"1e300", json.Number("1" + strings.Repeat("0", 300)), "", numExact},
		{"0.1", "0.1", "", numExact},
		{".5", "0.5", "", numExact},
		{"5.", "5", "", numExact},
		{"1e-5", "1e-05", "", numExact},
		{"00012.3400", "12.34", "", numExact},
		{"1.7976931348623157e308", json.Number("17976931348623157" + strings.Repeat("0", 292)), "", numExact},
		{"1e308", json.Number("1" + strings.Repeat("0", 308)), "", numExact},
		{"1e309", "", "", numInfinite},
		{"1.8e308", "", "", numInfinite},
		{"1e400", "", "", numInfinite},
		{"-1e400", "", "", numInfinite},
		{"1e999999", "", "", numInfinite},
		{"1e99999999999999999999999999", "", "", numInfinite},
		{"0.1e310", "", "", numInfinite},
		{"1e-400", "", "0", numInexact},
		{"-1e-400", "", "-0", numInexact},
		{"1e-999999", "", "0", numInexact},
		{"1e-99999999999999999999999999", "", "0", numInexact},
		{"5e-324", "5e-324", "", numExact},
		{"2e-324", "", "0", numInexact},
		{"0.1000000000000000000001", "", "0.1", numInexact},
		{"0.30000000000000004", "0.30000000000000004", "", numExact},
		// Past 800 digits strconv.ParseFloat misplaces the decimal point of a literal
		// without one (issue 16): 5, 1,000 zeros, e-990 is 5e10, not 5e-191.
		{"5" + zeros + "e-990", "50000000000", "", numExact},
		{"5" + zeros + "e-1001", "0.5", "", numExact},
		{"5" + zeros + "1e-1001", "", "5", numInexact},
		{"0." + zeros + "5e1001", "5", "", numExact},
		{"", "", "", numMalformed},
		{".", "", "", numMalformed},
		{"1e", "", "", numMalformed},
		{"1e+", "", "", numMalformed},
		{"0x10", "", "", numMalformed},
		{"1_000", "", "", numMalformed},
		{"--1", "", "", numMalformed},
		{"1.2.3", "", "", numMalformed},
	}
	for _, c := range cases {
		num, double, class := readNumber(c.in)
		if num != c.num || double != c.double || class != c.class {
			t.Errorf("readNumber(%.40q) = %.60q, %q, %d; want %.60q, %q, %d", c.in, num, double, class, c.num, c.double, c.class)
		}
	}
}

// exactReference classifies s the slow, obviously right way: big.Rat, for literals
// whose exponent is small enough to build.
func exactReference(s string) (json.Number, string, numClass) {
	r, ok := new(big.Rat).SetString(strings.TrimPrefix(s, "+"))
	if !ok {
		return "", "", numMalformed
	}
	f, _ := r.Float64()
	if math.IsInf(f, 0) {
		return "", "", numInfinite
	}
	if r.IsInt() {
		return json.Number(r.Num().String()), "", numExact
	}
	shortest := strconv.FormatFloat(f, 'g', -1, 64)
	if back, _ := new(big.Rat).SetString(shortest); back.Cmp(r) != 0 {
		return "", shortest, numInexact
	}
	return json.Number(shortest), "", numExact
}

var bigExponentRe = regexp.MustCompile(`[eE][-+]?0*[0-9]{5,}$`)

// FuzzReadNumber: readNumber agrees with exact big.Rat arithmetic on every decimal
// literal whose exponent big.Rat can afford, and classifies the others without
// building their powers of ten.
func FuzzReadNumber(f *testing.F) {
	for _, s := range []string{"0", "1e999999", "!!float 1e-999999", "1e308", "1.8e308", "5e-324", "2e-324", "0.1",
		"0.1000000000000000000001", "-12.5e-3", "5" + strings.Repeat("0", 900) + "e-890", ".5", "5.", "1e99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		num, double, class := readNumber(s)
		d, ok := parseDecimal(s)
		if !ok {
			if class != numMalformed {
				t.Fatalf("%q: not a decimal, but class %d", s, class)
			}
			return
		}
		if d.exp > 2000 || d.exp < -2000 || bigExponentRe.MatchString(s) {
			return // the reference would build 10^|exp|, or refuse the exponent
		}
		wn, wd, wc := exactReference(s)
		if num != wn || double != wd || class != wc {
			// big.Rat and strconv spell the negative zero of an underflow the same way.
			t.Fatalf("readNumber(%q) = %q, %q, %d; big.Rat says %q, %q, %d", s, num, double, class, wn, wd, wc)
		}
	})
}

// TestManyHugeExponents is issue 16's registry: 2,000 `!!float 1e999999` examples
// (36 KB) cost 68 s of CPU before numbers were read without building 5^999999. Each
// is one BQ023 at its position.
func TestManyHugeExponents(t *testing.T) {
	t.Parallel()
	src := hugeExponentRegistry(2000, "!!float 1e999999")
	reg, ds, err := LoadFiles(context.Background(), map[string][]byte{"f.yaml": src})
	if err != nil {
		t.Fatal(err)
	}
	if reg != nil || len(ds) != 2000 {
		t.Fatalf("got %d diagnostics, want 2000", len(ds))
	}
	for i, d := range ds {
		want := fmt.Sprintf("f.yaml:%d:13: error BQ023: 1e999999 is not a finite number", 10+i)
		if !strings.HasPrefix(d.String(), want) {
			t.Fatalf("diagnostic %d: %s, want %s…", i+1, d, want)
		}
	}
}

// hugeExponentRegistry is a registry whose one number field lists n examples, each lit.
func hugeExponentRegistry(n int, lit string) []byte {
	var b strings.Builder
	b.WriteString(msgHead + "        x:\n          type: number\n          examples:\n")
	for i := 0; i < n; i++ {
		b.WriteString("          - " + lit + "\n")
	}
	return []byte(b.String())
}

// BenchmarkHugeExponent loads the 2,000-example registry with exponents of growing
// size, tagged and plain: the cost per load must not grow with the exponent (it did,
// as 10^exp: 68 s at 1e999999).
func BenchmarkHugeExponent(b *testing.B) {
	for _, exp := range []string{"1", "400", "999999", "999999999", "999999999999999999999999"} {
		for _, form := range []struct{ name, lit string }{
			{"float", "!!float 1e" + exp}, {"plain", "1e" + exp},
			{"tiny", "!!float 1e-" + exp}, {"plain-tiny", "1e-" + exp},
		} {
			src := hugeExponentRegistry(2000, form.lit)
			b.Run(form.name+"/e="+exp, func(b *testing.B) {
				b.SetBytes(int64(len(src)))
				for i := 0; i < b.N; i++ {
					LoadFiles(context.Background(), map[string][]byte{"f.yaml": src})
				}
			})
		}
	}
}
