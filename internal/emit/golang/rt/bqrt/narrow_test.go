package bqrt

import (
	"math"
	"math/big"
	"math/rand"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// ratOf parses a JSON number literal exactly.
func ratOf(t *testing.T, lit string) *big.Rat {
	t.Helper()
	r, ok := new(big.Rat).SetString(lit)
	if !ok {
		t.Fatalf("big.Rat cannot read %q", lit)
	}
	return r
}

// exactText is the exact decimal expansion of the double f.
func exactText(f float64) string {
	s := new(big.Float).SetFloat64(f).Text('f', 1100)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

func TestCmpDecimal(t *testing.T) {
	t.Parallel()
	lits := []string{"0", "-0", "0.0", "-0.0e5", "1", "1.0", "10e-1", "0.1e1", "1e0", "100e-2", "-1", "1.5",
		"1.49999999999999999999", "1.50000000000000000001", "0.3", "0.29999999999999998889776975374843459576368331909179687",
		"0.299999999999999988897769753748434595763683319091796875", "1000000.00000000000000000001", "1e6", "1E+6",
		"4.9e-324", "5e-324", "1e-400", "1e308", "123456789.123456789", "-2.75", "-2.7500", "0.000001", "1e-6"}
	r := rand.New(rand.NewSource(5))
	for i := 0; i < 500; i++ {
		var b strings.Builder
		if r.Intn(2) == 0 {
			b.WriteByte('-')
		}
		b.WriteString([]string{"0", "1", "9", "10", "100"}[r.Intn(5)])
		if r.Intn(2) == 0 {
			b.WriteString("." + []string{"0", "00", "5", "05", "50", "000001"}[r.Intn(6)])
		}
		if r.Intn(2) == 0 {
			b.WriteString([]string{"e", "E", "e+", "e-"}[r.Intn(4)] + []string{"0", "1", "2", "02", "10"}[r.Intn(5)])
		}
		lits = append(lits, b.String())
	}
	for _, a := range lits {
		for _, b := range lits[:40] {
			want := ratOf(t, a).Cmp(ratOf(t, b))
			if got := cmpDecimal(a, b); got != want {
				t.Errorf("cmpDecimal(%s, %s) = %d, want %d", a, b, got, want)
			}
		}
	}
	// A hostile exponent costs nothing.
	if got := cmpDecimal("1e-99999999999999999999999", "0"); got != 1 {
		t.Errorf("tiny positive vs 0: %d", got)
	}
	if got := cmpDecimal("1e99999999999999999999999", "1e308"); got != 1 {
		t.Errorf("huge vs 1e308: %d", got)
	}
}

// TestNumberVerdictAgreesWithJSONSchemaV6 decodes number literals near bounds and
// enum values (including decimals that round onto them and exact expansions of the
// doubles next to them) and compares with jsonschema/v6, which compares exactly.
func TestNumberVerdictAgreesWithJSONSchemaV6(t *testing.T) {
	t.Parallel()
	type numSchema struct {
		json string
		desc Desc
	}
	ck := FChecked
	schemas := []numSchema{
		{`{"type":"number","exclusiveMaximum":1.5,"exclusiveMinimum":-1.5}`, Desc{Kind: KFloat64, Flags: ck | FFMin | FFExclMin | FFMax | FFExclMax, FLo: -1.5, FHi: 1.5}},
		{`{"type":"number","minimum":-90,"maximum":90}`, Desc{Kind: KFloat64, Flags: ck | FFMin | FFMax, FLo: -90, FHi: 90}},
		{`{"type":"number","exclusiveMaximum":0.3}`, Desc{Kind: KFloat64, Flags: ck | FFMax | FFExclMax, FHi: 0.3}},
		{`{"type":"number","maximum":0.1,"minimum":0.1}`, Desc{Kind: KFloat64, Flags: ck | FFMin | FFMax, FLo: 0.1, FHi: 0.1}},
		{`{"type":"number","exclusiveMinimum":0}`, Desc{Kind: KFloat64, Flags: ck | FFMin | FFExclMin}},
		{`{"type":"number","maximum":1000000}`, Desc{Kind: KFloat64, Flags: ck | FFMax, FHi: 1e6}},
		{`{"type":"number","enum":[0.5,1,0.3]}`, Desc{Kind: KFloat64, Flags: ck, EnumFloat: []float64{0.5, 1, 0.3}}},
	}
	var lits []string
	for _, c := range []float64{0, 0.1, 0.3, 0.5, 1, 1.5, 90, 1e6} {
		for _, f := range []float64{c, -c} {
			for _, g := range []float64{f, math.Nextafter(f, math.Inf(1)), math.Nextafter(f, math.Inf(-1))} {
				ex := exactText(g)
				lits = append(lits, ex, strconv.FormatFloat(g, 'g', -1, 64), strconv.FormatFloat(g, 'e', 25, 64))
				if !strings.Contains(ex, ".") {
					ex += "."
				}
				lits = append(lits, ex+"00000000000000000001", ex+"0000000000000000000000000000000000000000000000000001")
				if r, ok := new(big.Rat).SetString(strconv.FormatFloat(g, 'g', -1, 64)); ok {
					eps := big.NewRat(1, 1)
					eps.SetString("1e-25")
					lits = append(lits, new(big.Rat).Sub(r, eps).FloatString(30), new(big.Rat).Add(r, eps).FloatString(30))
				}
			}
		}
	}
	lits = append(lits, "1e-400", "-1e-400", "0.30000000000000000000", "3e-1", "30e-2", "1.0", "1e0", "100e-2", "0.50", "5e-1")
	// The same values with more than 800 digits before the point (strconv.ParseFloat
	// alone misreads them).
	for _, lit := range slices.Clone(lits) {
		lits = append(lits, longSpelling(lit, 1000))
	}
	verdicts := map[bool]int{}
	for _, s := range schemas {
		sch := compileSchema(t, s.json)
		for _, lit := range lits {
			j, err := parseJSON([]byte(lit))
			if err != nil {
				t.Fatalf("%s: %v", lit, err)
			}
			v := reflect.New(reflect.TypeOf(float64(0))).Elem()
			desc := s.desc
			gotErr := decodeTree(j, &desc, v)
			want := sch.Validate(instance(t, lit)) == nil
			verdicts[want]++
			if got := gotErr == nil; got != want {
				t.Errorf("%s with %s: Go %v (%v), jsonschema/v6 %v", lit, s.json, got, gotErr, want)
			}
		}
	}
	if verdicts[true] < 100 || verdicts[false] < 100 {
		t.Errorf("differential test is lopsided: %v", verdicts)
	}
}

// TestValidateFloatJudgesTheEncoding: a float64 built in Go is judged by the
// shortest decimal it encodes to, so 0.3 meets maximum 0.3 and misses
// exclusiveMaximum 0.3, as the encoded 0.3 does in every validator.
func TestValidateFloatJudgesTheEncoding(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		desc Desc
		f    float64
		ok   bool
	}{
		{Desc{Kind: KFloat64, Flags: FChecked | FFMax, FHi: 0.3}, 0.3, true},
		{Desc{Kind: KFloat64, Flags: FChecked | FFMax | FFExclMax, FHi: 0.3}, 0.3, false},
		{Desc{Kind: KFloat64, Flags: FChecked | FFMin, FLo: 0.3}, 0.3, true},
		{Desc{Kind: KFloat64, Flags: FChecked | FFMin | FFExclMin, FLo: 0.3}, 0.3, false},
		{Desc{Kind: KFloat64, Flags: FChecked, EnumFloat: []float64{0.3, 1}}, 0.3, true},
		{Desc{Kind: KFloat64, Flags: FChecked, EnumFloat: []float64{0.3, 1}}, math.Nextafter(0.3, 1), false},
	} {
		f := tt.f
		err := Validate(&f, &tt.desc)
		if (err == nil) != tt.ok {
			t.Errorf("%v under %+v: %v, want ok=%v", f, tt.desc, err, tt.ok)
		}
	}
}

// TestNumberTieMessage: a literal that decides a tie is named in the error.
func TestNumberTieMessage(t *testing.T) {
	t.Parallel()
	desc := Desc{Kind: KFloat64, Flags: FChecked | FFMax, FHi: 1e6}
	j, err := parseJSON([]byte("1000000.00000000000000000001"))
	if err != nil {
		t.Fatal(err)
	}
	err = decodeTree(j, &desc, reflect.New(reflect.TypeOf(float64(0))).Elem())
	want := "babelqueue: invalid data: $: must be at most 1000000, got 1000000.00000000000000000001"
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

// TestNarrowMatchersAgreeWithPatterns: the hand-written matchers of narrowFormat
// accept exactly what their patterns (the emitted schemas' patterns) match.
func TestNarrowMatchersAgreeWithPatterns(t *testing.T) {
	t.Parallel()
	pats := map[string]string{"email": narrowEmail, "uri": narrowURI, "date": narrowDate, "date-time": narrowDateTime, "uuid": narrowUUID}
	seeds := map[string][]string{
		"email": {"joe@example.com", "a.b-c+d@x-y.example.org", strings.Repeat("a", 64) + "@" + strings.Repeat("b", 63) + ".c",
			strings.Repeat("a", 65) + "@b.c", "a@" + strings.Repeat("b", 64) + ".c", "a@b", "a@b.", ".a@b.c", "a.@b.c", "a..b@c.d", "a@-b.c", "a@b-.c", "a@b..c"},
		"uri":       {"https://example.com/a?b#c", "urn:a:b", "http://[::1]:80/", "http:"},
		"date":      {"2024-02-29", "0000-00-00"},
		"date-time": {"2024-02-29T12:34:56.5+05:30", "2016-12-31t23:59:60z", "2024-01-01T00:00:00.Z", "2024-01-01T00:00:00+0530"},
		"uuid":      {"0f8fad5b-d9cb-469f-a165-70867728950e", "0F8FAD5B-D9CB-469F-A165-70867728950E", "0f8fad5b-d9cb-469f-a165-70867728950G"},
	}
	alphabet := []string{"a", "Z", "0", "9", "-", ".", ":", "@", "[", "]", "/", "?", "#", "%", " ", "\"", "+", "T", "t", "z", "Z", "é", "_", "~", "!", "`", "{", "|", "G", "g", "F", "f", "@"}
	r := rand.New(rand.NewSource(7))
	n := 0
	for _, f := range []string{"date", "date-time", "email", "uri", "uuid"} {
		re := regexp.MustCompile(pats[f])
		for _, seed := range seeds[f] {
			for i := 0; i < 3000; i++ {
				b := []byte(seed)
				if i > 0 {
					for k := r.Intn(3) + 1; k > 0; k-- {
						pos := r.Intn(len(b) + 1)
						ins := []byte(alphabet[r.Intn(len(alphabet))])
						switch r.Intn(3) {
						case 0:
							b = append(b[:pos], append(ins, b[pos:]...)...)
						case 1:
							if pos < len(b) {
								b = append(b[:pos], b[pos+1:]...)
							}
						default:
							if pos < len(b) {
								b = append(b[:pos], append(ins, b[pos+1:]...)...)
							}
						}
					}
				}
				s := string(b)
				want := re.MatchString(s)
				if f == "email" {
					want = want && len(s) <= narrowEmailMax
				}
				if got := narrowFormat(f, s); got != want {
					t.Errorf("narrowFormat(%s, %q) = %v, pattern %v", f, s, got, want)
				}
				n++
			}
		}
	}
	t.Logf("%d strings", n)
}
