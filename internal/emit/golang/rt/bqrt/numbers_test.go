package bqrt

import (
	"context"
	"errors"
	"math"
	"math/big"
	"math/rand"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// Number literals longer than strconv.ParseFloat reads right (docs/hardening.md,
// "Generated decoder"): every position reads them by their mathematical value, as
// JSON Schema does, or rejects them as malformed.

// longSpelling writes the value of the literal lit with zeros more digits in its
// integer part: 1.5 with zeros 1000 is 15 followed by 1,000 zeros and e-1001 (zero
// becomes 0., zeros zeros, e5).
func longSpelling(lit string, zeros int) string {
	d := readDecimal(lit)
	if d.len() == 0 {
		if d.neg {
			return "-0." + strings.Repeat("0", zeros) + "e5"
		}
		return "0." + strings.Repeat("0", zeros) + "e5"
	}
	var b strings.Builder
	if d.neg {
		b.WriteByte('-')
	}
	b.WriteString(d.hi + d.lo + strings.Repeat("0", zeros) + "e")
	b.WriteString(strconv.FormatInt(d.exp-int64(d.len())-int64(zeros), 10))
	return b.String()
}

// zeros5e10 is 5×10¹⁰ written as 5, 1,000 zeros and e-990 (issue 16: read as 5×10⁻¹⁹¹
// by strconv.ParseFloat); zeros5e400 is 5×10⁴⁰⁰ written the same way (e-600), beyond
// a double, read as 5×10¹⁹⁹ by strconv.ParseFloat.
var (
	zeros5e10  = "5" + strings.Repeat("0", 1000) + "e-990"
	zeros5e400 = "5" + strings.Repeat("0", 1000) + "e-600"
)

// ratFloat is the double nearest to lit, by exact arithmetic; ok is false beyond the
// doubles.
func ratFloat(t *testing.T, lit string) (float64, bool) {
	t.Helper()
	f, _ := ratOf(t, lit).Float64()
	if math.IsInf(f, 0) {
		return 0, false
	}
	if strings.HasPrefix(lit, "-") && f == 0 {
		f = math.Copysign(0, -1)
	}
	return f, true
}

// halfwayText is the exact decimal of the point halfway between g and the next double
// above it (the rounding boundary).
func halfwayText(g float64) string {
	next := math.Nextafter(g, math.Inf(1))
	var h *big.Rat
	if math.IsInf(next, 1) { // above MaxFloat64: half an ulp of it
		h = new(big.Rat).SetFloat64(g)
		h.Add(h, new(big.Rat).SetFrac(new(big.Int).Lsh(big.NewInt(1), 970), big.NewInt(1)))
	} else {
		h = new(big.Rat).Add(new(big.Rat).SetFloat64(g), new(big.Rat).SetFloat64(next))
		h.Quo(h, big.NewRat(2, 1))
	}
	s := h.FloatString(1100)
	return strings.TrimRight(strings.TrimRight(s, "0"), ".")
}

func TestParseFloatLitAgreesWithExactRounding(t *testing.T) {
	t.Parallel()
	doubles := []float64{0, math.SmallestNonzeroFloat64, 2 * math.SmallestNonzeroFloat64,
		math.Float64frombits(0x000FFFFFFFFFFFFF), 0x1p-1022, 0.1, 0.3, 1, 1.5, 10, 5e10, 1e22, 1 << 53,
		123456789.123, 1e300, math.MaxFloat64 / 2, math.Nextafter(math.MaxFloat64, 0), math.MaxFloat64}
	r := rand.New(rand.NewSource(16))
	for i := 0; i < 40; i++ {
		doubles = append(doubles, math.Float64frombits(r.Uint64()&^(1<<63)))
	}
	var lits []string
	for _, g := range doubles {
		if math.IsNaN(g) || math.IsInf(g, 0) {
			continue
		}
		h := halfwayText(g)
		if !strings.Contains(h, ".") {
			h += "."
		}
		for _, lit := range []string{
			strconv.FormatFloat(g, 'g', -1, 64),
			strings.TrimSuffix(h, "."),         // exactly halfway: ties to even
			h + strings.Repeat("0", 900) + "1", // just above
		} {
			lits = append(lits, lit, longSpelling(lit, 1000), "-"+longSpelling(lit, 1000))
		}
		// just below halfway: the last digit of h lowered, 900 nines after it.
		if d := readDecimal(strings.TrimSuffix(h, ".")); d.len() > 0 {
			digits := []byte(d.hi + d.lo)
			digits[len(digits)-1]--
			below := string(digits) + strings.Repeat("9", 900) + "e" + strconv.FormatInt(d.exp-int64(len(digits))-900, 10)
			lits = append(lits, below)
		}
	}
	for i := 0; i < 200; i++ {
		var b strings.Builder
		b.WriteString(strconv.Itoa(1 + r.Intn(9)))
		for n := 100 + r.Intn(1500); n > 0; n-- {
			b.WriteByte(byte('0' + r.Intn(10)))
		}
		b.WriteString("e" + strconv.Itoa(-1900+r.Intn(2300)))
		lits = append(lits, b.String())
	}
	lits = append(lits, zeros5e10, zeros5e400, "0."+strings.Repeat("0", 1000), "-0"+strings.Repeat("0", 0)+"."+strings.Repeat("0", 900)+"e5",
		"1"+strings.Repeat("0", 1000)+"e-1000")
	for _, lit := range lits {
		want, wantOK := ratFloat(t, lit)
		got, ok := parseFloatLit(lit)
		if ok != wantOK || (ok && math.Float64bits(got) != math.Float64bits(want)) {
			t.Errorf("parseFloatLit(%s) = %v, %v; want %v, %v", abbreviate(lit), got, ok, want, wantOK)
		}
	}
	if f, ok := parseFloatLit(zeros5e10); f != 5e10 || !ok {
		t.Errorf("parseFloatLit(5, 1000 zeros, e-990) = %v, %v; want 5e10", f, ok)
	}
	if _, ok := parseFloatLit(zeros5e400); ok {
		t.Error("parseFloatLit(5, 1000 zeros, e-600) is finite, want beyond a double")
	}
	// Exponents beyond what big.Rat reads: saturated, still classified right.
	for _, tt := range []struct {
		lit string
		f   float64
		ok  bool
	}{
		{"1" + strings.Repeat("0", 900) + "e-99999999999999999999", 0, true},
		{"-1" + strings.Repeat("0", 900) + "e-99999999999999999999", math.Copysign(0, -1), true},
		{"1" + strings.Repeat("0", 900) + "e99999999999999999999", 0, false},
		{"0." + strings.Repeat("0", 900) + "e99999999999999999999", 0, true},
	} {
		if f, ok := parseFloatLit(tt.lit); ok != tt.ok || math.Float64bits(f) != math.Float64bits(tt.f) {
			t.Errorf("parseFloatLit(%s) = %v, %v; want %v, %v", abbreviate(tt.lit), f, ok, tt.f, tt.ok)
		}
	}
}

// TestHalfwayDigits pins the bound floatLitDigits relies on: the halfway points of
// the doubles with the longest decimal expansions (around the smallest normal double)
// have at most 768 significant digits.
func TestHalfwayDigits(t *testing.T) {
	t.Parallel()
	most := 0
	for _, g := range []float64{0x1p-1022, math.Nextafter(0x1p-1022, 0), math.Nextafter(0x1p-1021, 0), 0x1.fffffffffffffp-1022,
		math.Float64frombits(0x000FFFFFFFFFFFFF), math.SmallestNonzeroFloat64} {
		d := readDecimal(halfwayText(g))
		most = max(most, d.len())
	}
	if most > 768 || most < 760 || floatLitDigits <= most {
		t.Errorf("longest halfway expansion %d significant digits; floatLitDigits %d", most, floatLitDigits)
	}
}

func TestReadDecimal(t *testing.T) {
	t.Parallel()
	tests := []struct {
		lit   string
		exact string // appendExactDecimal: ±0.<digits>e<exp>
	}{
		{"0", "0"},
		{"-0.000e7", "0"},
		{"1", "0.1e1"},
		{"120", "0.12e3"},
		{"0.0012", "0.12e-2"},
		{"-10.50e-1", "-0.105e1"},
		{"100.001", "0.100001e3"},
		{"1E+2", "0.1e3"},
		{"0.1e-0", "0.1e0"},
		{longSpelling("1.5", 1000), "0.15e1"},
	}
	for _, tt := range tests {
		if got := string(appendExactDecimal(nil, tt.lit)); got != tt.exact {
			t.Errorf("appendExactDecimal(%s) = %s, want %s", abbreviate(tt.lit), got, tt.exact)
		}
	}
}

// hostileNumberCases are data blocks of streamKinds with long literals in every kind
// of field, and the exact error (or none) each must give; the same literals written
// short give the same verdict.
var hostileNumberCases = []struct {
	name, data, err string
}{
	{"number over its maximum", `{"s":"abc","f":` + zeros5e10 + `}`, "$.f: must be at most 1.5, got 50000000000"},
	{"number at its maximum", `{"s":"abc","f":` + longSpelling("1.5", 1000) + `}`, ""},
	{"number just above its maximum", `{"s":"abc","f":` + longSpelling("1.5000000000000000000001", 1000) + `}`,
		"$.f: must be at most 1.5, got " + abbreviate(longSpelling("1.5000000000000000000001", 1000))},
	{"number below its maximum", `{"s":"abc","f":-` + zeros5e10 + `}`, ""},
	{"int32 out of range", `{"s":"abc","i32":` + zeros5e10 + `}`, "$.i32: integer " + abbreviate(zeros5e10) + " out of int32 range"},
	{"int32 within range", `{"s":"abc","i32":` + longSpelling("10", 1000) + `}`, ""},
	{"int32 over its maximum", `{"s":"abc","i32":` + longSpelling("101", 1000) + `}`, "$.i32: must be at most 100, got 101"},
	{"int32 not an integer", `{"s":"abc","i32":` + longSpelling("10.5", 1000) + `}`, "$.i32: expected integer, got number " + abbreviate(longSpelling("10.5", 1000))},
	{"map value under its minimum", `{"s":"abc","m":{"a":-` + zeros5e10 + `}}`, "$.m.a: must be at least 0, got -50000000000"},
	{"map value", `{"s":"abc","m":{"a":` + zeros5e10 + `}}`, ""},
	{"array item", `{"s":"abc","aa":[[` + longSpelling("7", 1000) + `]]}`, ""},
	{"array items equal", `{"s":"abc","aa":[[` + longSpelling("7", 1000) + `,7]]}`, "$.aa[0]: items at index 0 and 1 are equal"},
	{"money amount", `{"s":"abc","o":{"a":{"amount":` + zeros5e10 + `,"currency":"EUR"}}}`, ""},
	{"money amount beyond ±(2^53-1)", `{"s":"abc","o":{"a":{"amount":` + longSpelling("9007199254740992", 1000) + `,"currency":"EUR"}}}`,
		"$.o.a.amount: amount 9007199254740992 (minor units) outside ±9007199254740991"},
	{"timestamp", `{"s":"abc","o":{"a":{"amount":1,"currency":"EUR"},"t":` + zeros5e10 + `}}`, ""},
	{"timestamp out of range", `{"s":"abc","o":{"a":{"amount":1,"currency":"EUR"},"t":` + longSpelling("8640000000000001", 1000) + `}}`,
		"$.o.t: timestamp 8640000000000001 ms outside ±8640000000000000"},
	{"unknown key", `{"s":"abc","zz":` + zeros5e10 + `}`, ""},
	{"unknown key beyond a double", `{"s":"abc","zz":` + zeros5e400 + `}`, "$: malformed JSON at byte 16: number overflows a float64"},
	{"number beyond a double", `{"s":"abc","f":` + zeros5e400 + `}`, "$: malformed JSON at byte 15: number overflows a float64"},
	{"int32 beyond a double", `{"s":"abc","i32":` + zeros5e400 + `}`, "$: malformed JSON at byte 17: number overflows a float64"},
	{"nested unknown key beyond a double", `{"s":"abc","zz":[{"y":` + zeros5e400 + `}]}`, "$: malformed JSON at byte 22: number overflows a float64"},
	{"underflow to zero", `{"s":"abc","f":` + longSpelling("1e-400", 1000) + `}`, ""},
}

func TestHostileNumbersEveryPosition(t *testing.T) {
	t.Parallel()
	for _, tc := range hostileNumberCases {
		var got streamKinds
		err := Unmarshal([]byte(tc.data), &got, &streamKindsDesc)
		want := ""
		if tc.err != "" {
			want = ErrInvalidData.Error() + ": " + tc.err
		}
		if errText(err) != want {
			t.Errorf("%s: unmarshal\ngot  %v\nwant %s", tc.name, err, want)
		}
		checkUnmarshalAgrees(t, []byte(tc.data))
		checkDispatchAgrees(t, []byte(envelopeWith(`"data":`+sampleDataJSON, `"data":`+tc.data)))
	}
	var x streamKinds
	if err := Unmarshal([]byte(`{"s":"abc","i32":`+longSpelling("10", 1000)+`,"m":{"a":`+zeros5e10+`},"aa":[[`+longSpelling("-7", 900)+`]]}`), &x, &streamKindsDesc); err != nil {
		t.Fatal(err)
	}
	if *x.I32 != 10 || x.M["a"] != 5e10 || x.AA[0][0] != -7 {
		t.Errorf("decoded %d, %d, %d; want 10, 5e10, -7", *x.I32, x.M["a"], x.AA[0][0])
	}
}

// TestHostileNumbersEnvelope: the envelope's integer fields and its tolerated unknown
// keys read long literals by value too.
func TestHostileNumbersEnvelope(t *testing.T) {
	t.Parallel()
	ok := func(err error) bool { return err == nil }
	malformedNumber := func(err error) bool {
		return errors.Is(err, ErrMalformedEnvelope) && strings.Contains(err.Error(), "overflows a float64")
	}
	tests := []struct {
		name     string
		old, new string
		want     func(error) bool
		attempts int
	}{
		{"attempts", `"attempts":0`, `"attempts":` + longSpelling("3", 1000), ok, 3},
		{"attempts beyond a double", `"attempts":0`, `"attempts":` + zeros5e400, malformedNumber, 0},
		{"schema_version", `"schema_version":1`, `"schema_version":` + longSpelling("1", 1000), ok, 0},
		{"schema_version 5e10", `"schema_version":1`, `"schema_version":` + zeros5e10,
			func(err error) bool { return errors.Is(err, ErrUnsupportedSchemaVersion) }, 0},
		{"created_at", `"created_at":1700000000123`, `"created_at":` + longSpelling("1700000000123", 1000), ok, 0},
		{"unknown top-level key", `"attempts":0`, `"attempts":0,"x":` + zeros5e10, ok, 0},
		{"unknown top-level key beyond a double", `"attempts":0`, `"attempts":0,"x":` + zeros5e400, malformedNumber, 0},
		{"unknown meta key beyond a double", `"lang":"go"`, `"lang":"go","x":[` + zeros5e400 + `]`, malformedNumber, 0},
		{"dead_letter beyond a double", `"attempts":0`, `"attempts":0,"dead_letter":{"reason":"poison","failed_at":1,"original_queue":"q","attempts":` + zeros5e400 + `}`, malformedNumber, 0},
	}
	for _, tt := range tests {
		body := envelopeWith(tt.old, tt.new)
		if body == sampleEnvelope {
			t.Fatalf("%s: %s not in the sample envelope", tt.name, tt.old)
		}
		m, err := decodeMessage[sampleOrder]([]byte(body), sampleURN)
		if !tt.want(err) {
			t.Errorf("%s: decodeMessage = %v", tt.name, err)
		}
		if err == nil && m.Attempts != tt.attempts {
			t.Errorf("%s: attempts %d, want %d", tt.name, m.Attempts, tt.attempts)
		}
		checkDispatchAgrees(t, []byte(body))
		r := newRouter()
		handle(r, sampleURN, func(context.Context, Message[sampleOrder]) error { return nil })
		if err := r.Dispatch(context.Background(), []byte(body)); !tt.want(err) {
			t.Errorf("%s: Dispatch = %v", tt.name, err)
		}
	}
}

// TestUniqueItemsExact: uniqueItems compares decoded numbers by their exact values,
// as jsonschema/v6 does.
func TestUniqueItemsExact(t *testing.T) {
	t.Parallel()
	schemas := []struct {
		json string
		desc Desc
		typ  reflect.Type
	}{
		{`{"type":"array","uniqueItems":true,"items":{"type":"number"}}`,
			Desc{Kind: KArray, Flags: FChecked | FUnique, Elem: &Desc{Kind: KFloat64}}, reflect.TypeFor[[]float64]()},
		{`{"type":"array","uniqueItems":true,"items":{"type":"array","items":{"type":"number","maximum":1}}}`,
			Desc{Kind: KArray, Flags: FChecked | FUnique, Elem: &Desc{Kind: KArray, Flags: FChecked, Elem: &Desc{Kind: KFloat64, Flags: FChecked | FFMax, FHi: 1}}}, reflect.TypeFor[[][]float64]()},
		{`{"type":"array","uniqueItems":true,"items":{"type":"object","additionalProperties":{"type":"number"}}}`,
			Desc{Kind: KArray, Flags: FChecked | FUnique, Elem: &Desc{Kind: KMap, Elem: &Desc{Kind: KFloat64}}}, reflect.TypeFor[[]map[string]float64]()},
	}
	exact01 := exactText(0.1)
	pairs := [][2]string{
		{"1", "1.00000000000000000001"}, {"1", "1.0"}, {"1e0", "10e-1"}, {"-0", "0"}, {"-0.0e3", "0"}, {"0.5", "5e-1"},
		{"0.1", exact01}, {exact01, exact01 + "0"}, {"0.1", "0.10000000000000000001"},
		{zeros5e10, "50000000000"}, {zeros5e10, longSpelling("50000000000.000000000000000001", 900)},
		{longSpelling("0.3", 1000), "0.3"}, {"1.5", "1.50"},
	}
	for _, s := range schemas {
		sch := compileSchema(t, s.json)
		for _, p := range pairs {
			var lit string
			switch s.typ.Elem().Kind() {
			case reflect.Slice:
				lit = "[[" + p[0] + "],[" + p[1] + "]]"
			case reflect.Map:
				lit = `[{"a":` + p[0] + `},{"a":` + p[1] + `}]`
			default:
				lit = "[" + p[0] + "," + p[1] + "]"
			}
			want := sch.Validate(instance(t, lit)) == nil
			j := must(parseJSON([]byte(lit)))
			treeErr := decodeTree(j, &s.desc, reflect.New(s.typ).Elem())
			streamErr := Unmarshal([]byte(lit), reflect.New(s.typ).Interface(), &s.desc)
			if (treeErr == nil) != want || (streamErr == nil) != want {
				t.Errorf("%s on %s: tree %v, stream %v; jsonschema/v6 valid: %v", abbreviate(lit), s.json, treeErr, streamErr, want)
			}
		}
	}
}

// TestExactInt64Long: long integer literals are judged on their digits, as exact
// arithmetic judges them.
func TestExactInt64Long(t *testing.T) {
	t.Parallel()
	zeros := strings.Repeat("0", 1_000_000)
	tests := []struct {
		lit     string
		want    int64
		verdict intVerdict
	}{
		{"1." + zeros, 1, intOK},
		{"-1." + zeros, -1, intOK},
		{"1" + zeros + "e-1000000", 1, intOK},
		{"0." + zeros, 0, intOK},
		{"0." + zeros + "1", 0, intNotInteger},
		{"1." + zeros + "1", 0, intNotInteger},
		{"1" + zeros + "e-1000001", 0, intNotInteger},
		{"1" + zeros + "e-999981", 0, intOutOfRange}, // 10^19
		{"9223372036854775807" + zeros + "e-1000000", math.MaxInt64, intOK},
		{"-9223372036854775808" + zeros + "e-1000000", math.MinInt64, intOK},
		{"9223372036854775808" + zeros + "e-1000000", 0, intOutOfRange},
		{"-9223372036854775809" + zeros + "e-1000000", 0, intOutOfRange},
		{"1" + zeros, 0, intOutOfRange},
		{"-" + "1" + zeros, 0, intOutOfRange},
		{"0.0e99999999999999999999", 0, intOK},
		{"1e-99999999999999999999", 0, intNotInteger},
		{"1e99999999999999999999", 0, intOutOfRange},
		{"1.5e1", 15, intOK},
		{"-0.5e1", -5, intOK},
		{"123.456e3", 123456, intOK},
		{"123.4567e3", 0, intNotInteger},
	}
	for _, tt := range tests {
		n, v := exactInt64(tt.lit)
		if n != tt.want || v != tt.verdict {
			t.Errorf("exactInt64(%s) = %d, %d; want %d, %d", abbreviate(tt.lit), n, v, tt.want, tt.verdict)
		}
	}
	if _, ok := parseCanonicalInt("1" + zeros); ok {
		t.Error("parseCanonicalInt(1 and 10^6 zeros) accepted")
	}
}

// TestExactInt64AgreesWithBigRat compares exactInt64 with exact arithmetic on random
// literals around the int64 range and the integer boundary.
func TestExactInt64AgreesWithBigRat(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewSource(4))
	lo, hi := new(big.Int).SetInt64(math.MinInt64), new(big.Int).SetInt64(math.MaxInt64)
	for i := 0; i < 20000; i++ {
		var b strings.Builder
		if r.Intn(2) == 0 {
			b.WriteByte('-')
		}
		n := 1 + r.Intn(25)
		b.WriteByte(byte('1' + r.Intn(9)))
		for k := 1; k < n; k++ {
			b.WriteByte(byte('0' + r.Intn(10)))
		}
		if r.Intn(2) == 0 {
			b.WriteString("." + strings.Repeat("0", r.Intn(3)) + []string{"", "5", "000"}[r.Intn(3)])
		}
		if r.Intn(2) == 0 {
			b.WriteString("e" + strconv.Itoa(r.Intn(40)-20))
		}
		lit := b.String()
		rat := ratOf(t, lit)
		want, wantV := int64(0), intNotInteger
		if rat.IsInt() {
			wantV = intOutOfRange
			if num := rat.Num(); num.Cmp(lo) >= 0 && num.Cmp(hi) <= 0 {
				want, wantV = num.Int64(), intOK
			}
		}
		if n, v := exactInt64(lit); n != want || v != wantV {
			t.Fatalf("exactInt64(%s) = %d, %d; want %d, %d", lit, n, v, want, wantV)
		}
	}
}

// TestLongLiteralVerdicts: the bodies of BenchmarkLongLiteral dispatch, with the values
// of their literals (1 for the integer ones).
func TestLongLiteralVerdicts(t *testing.T) {
	t.Parallel()
	for _, kind := range longLiteralKinds {
		var got Message[sampleOrder]
		r := newRouter()
		handle(r, sampleURN, func(_ context.Context, m Message[sampleOrder]) error { got = m; return nil })
		if err := r.Dispatch(context.Background(), longLiteralBody(kind, 1_000_000)); err != nil {
			t.Errorf("%s: %v", kind, err)
			continue
		}
		if want := map[string]int64{"integer": 1, "integer-exp": 1}[kind]; want != 0 && got.Data.OrderID != want {
			t.Errorf("%s: order_id %d, want %d", kind, got.Data.OrderID, want)
		}
		if kind == "number" && *got.Data.Ratio != 0.25 {
			t.Errorf("number: ratio %v, want 0.25", *got.Data.Ratio)
		}
	}
}

// TestCanonicalZeroLinear: many -0 tokens in one encoding are rewritten in one pass;
// strings and longer numbers are left alone.
func TestCanonicalZeroLinear(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{`[-0,-0.5,-0e1,-01,-0]`, `[0,-0.5,-0e1,-01,0]`},
		{`{"a":"-0","b\"-0":-0}`, `{"a":"-0","b\"-0":0}`},
		{`"\\"-0`, `"\\"0`},
		{`-0`, `0`},
		{`"\`, `"\`},
	}
	for _, tt := range tests {
		if got := string(canonicalZero([]byte(tt.in))); got != tt.want {
			t.Errorf("canonicalZero(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
	n := 300_000
	in := []byte("[" + strings.Repeat("-0,", n-1) + "-0]")
	if got := canonicalZero(in); string(got) != "["+strings.Repeat("0,", n-1)+"0]" {
		t.Errorf("canonicalZero of %d zeros: %d bytes", n, len(got))
	}
}
