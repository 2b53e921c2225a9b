package bqrt

// Differential tests against github.com/santhosh-tekuri/jsonschema/v6, the
// validator the emitted JSON Schemas must agree with (docs/agreement.md). Only this
// test file imports it; the runtime itself is standard library only.

import (
	"encoding/json"
	"math"
	"math/rand"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	emitjs "github.com/babelqueue/bqgen/internal/emit/jsonschema"
)

// TestNarrowingPatternsMatchRuntime: the runtime checks the same format narrowing as
// the emitted schemas carry.
func TestNarrowingPatternsMatchRuntime(t *testing.T) {
	rt := map[string]string{"email": narrowEmail, "uri": narrowURI, "date": narrowDate, "date-time": narrowDateTime, "uuid": narrowUUID}
	if len(rt) != len(emitjs.FormatPatterns) {
		t.Errorf("runtime narrows %d formats, the emitter %d", len(rt), len(emitjs.FormatPatterns))
	}
	for f, p := range emitjs.FormatPatterns {
		if rt[f] != p {
			t.Errorf("format %s: runtime pattern\n%s\nemitted pattern\n%s", f, rt[f], p)
		}
	}
	if narrowEmailMax != emitjs.EmailMaxLength {
		t.Errorf("email max length: runtime %d, emitter %d", narrowEmailMax, emitjs.EmailMaxLength)
	}
}

// narrowedSchema is the string schema the emitter writes for format f alone.
func narrowedSchema(f string) string {
	s := `{"type":"string","format":"` + f + `"`
	if f == "email" {
		s += `,"maxLength":` + strconv.Itoa(emitjs.EmailMaxLength)
	}
	return s + `,"pattern":` + string(must(json.Marshal(emitjs.FormatPatterns[f]))) + `}`
}

func compileSchema(t *testing.T, schema string) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(schema))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("mem://s.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("mem://s.json")
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

func instance(t *testing.T, js string) any {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(js))
	if err != nil {
		t.Fatalf("instance %s: %v", js, err)
	}
	return v
}

func TestFormatAgreesWithJSONSchemaV6(t *testing.T) {
	t.Parallel()
	formats := []string{"email", "uri", "date", "date-time", "uuid"}
	schemas := map[string]*jsonschema.Schema{}
	for _, f := range formats {
		schemas[f] = compileSchema(t, narrowedSchema(f))
	}
	verdicts := map[bool]int{}
	check := func(format, s string) {
		var e ValidationErrors
		checkFormat(&e, "$", s, format)
		want := schemas[format].Validate(instance(t, string(must(json.Marshal(s))))) == nil
		verdicts[want]++
		if got := len(e) == 0; got != want {
			t.Errorf("checkFormat(%q, %s) = %v, jsonschema/v6 %v (%v)", s, format, got, want, e)
		}
	}
	for _, tt := range formatCases {
		if schemas[tt.format] != nil {
			check(tt.format, tt.s)
		}
	}
	// Random mutations of valid values.
	seeds := map[string][]string{
		"email":     {"joe@example.com", `"a b"@x.io`, "x@[1.2.3.4]", "x@[IPv6:::1]"},
		"uri":       {"https://example.com/a?b#c", "urn:a:b", "http://[::1]:80/"},
		"date":      {"2024-02-29"},
		"date-time": {"2024-02-29T12:34:56.5+05:30", "2016-12-31T23:59:60Z"},
		"uuid":      {"0f8fad5b-d9cb-469f-a165-70867728950e"},
	}
	alphabet := []string{"a", "Z", "0", "9", "-", ".", ":", "@", "[", "]", "/", "?", "#", "%", " ", "\"", "\\", "+", "T", "z", "é", "6", "_", "~"}
	r := rand.New(rand.NewSource(3))
	for _, f := range formats {
		for _, seed := range seeds[f] {
			for i := 0; i < 400; i++ {
				b := []byte(seed)
				for k := r.Intn(3) + 1; k > 0; k-- {
					pos := r.Intn(len(b) + 1)
					switch r.Intn(3) {
					case 0: // insert
						b = append(b[:pos], append([]byte(alphabet[r.Intn(len(alphabet))]), b[pos:]...)...)
					case 1: // delete
						if pos < len(b) {
							b = append(b[:pos], b[pos+1:]...)
						}
					default: // replace
						if pos < len(b) {
							b = append(b[:pos], append([]byte(alphabet[r.Intn(len(alphabet))]), b[pos+1:]...)...)
						}
					}
				}
				s := strings.ToValidUTF8(string(b), "")
				check(f, s)
			}
		}
	}
	if verdicts[true] < 200 || verdicts[false] < 200 {
		t.Errorf("differential test is lopsided: %v", verdicts)
	}
}

func TestIntegerVerdictAgreesWithJSONSchemaV6(t *testing.T) {
	t.Parallel()
	sch := compileSchema(t, `{"type":"integer","minimum":-9223372036854775808,"maximum":9223372036854775807}`)
	lits := []string{"0", "-0", "1.0", "1.5", "1e2", "1e-1", "1E+2", "-0.0", "1e-400", "12.50e1",
		"9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
		"9223372036854775807.0", "9223372036854775807.5", "9.223372036854775807e18", "9.223372036854775808e18",
		"1e19", "1e300", "1.0000000000000000001", "100e-2", "0.1e1"}
	r := rand.New(rand.NewSource(4))
	for i := 0; i < 2000; i++ {
		var b strings.Builder
		if r.Intn(2) == 0 {
			b.WriteByte('-')
		}
		b.WriteString([]string{"0", "1", "9", "92233720368547758", "12345"}[r.Intn(5)])
		for n := r.Intn(4); n > 0; n-- {
			b.WriteByte(byte('0' + r.Intn(10)))
		}
		if r.Intn(2) == 0 {
			b.WriteString("." + []string{"0", "00", "5", "000001"}[r.Intn(4)])
		}
		if r.Intn(2) == 0 {
			b.WriteString([]string{"e", "E", "e+", "e-"}[r.Intn(4)])
			b.WriteString([]string{"0", "1", "2", "3", "5", "18", "19", "20", "400"}[r.Intn(9)])
		}
		lits = append(lits, b.String())
	}
	verdicts := map[bool]int{}
	for _, lit := range lits {
		v, err := parseJSON([]byte(lit))
		if err != nil {
			continue // overflows a double: malformed for us, out of the agreement domain
		}
		d := &decoder{}
		_, got := d.int64(v, "$")
		want := sch.Validate(instance(t, lit)) == nil
		verdicts[want]++
		if got != want {
			t.Errorf("int64(%s) ok = %v, jsonschema/v6 %v (%v)", lit, got, want, d.errs)
		}
	}
	if verdicts[true] < 200 || verdicts[false] < 200 {
		t.Errorf("differential test is lopsided: %v", verdicts)
	}
}

func TestUniqueAgreesWithJSONSchemaV6(t *testing.T) {
	t.Parallel()
	sch := compileSchema(t, `{"type":"array","uniqueItems":true}`)
	cases := [][]float64{{0, -0.0}, {1, 1.0}, {-0.5, 0.5}, {1e21, 1e21}, {5e-324, 0}}
	cases[0][1] = math.Copysign(0, -1)
	for _, items := range cases {
		var e ValidationErrors
		checkUnique(&e, "$", items, appendFloat)
		want := sch.Validate(instance(t, string(appendArray(nil, items, appendFloat)))) == nil
		if got := len(e) == 0; got != want {
			t.Errorf("checkUnique(%v) = %v, jsonschema/v6 %v", items, got, want)
		}
	}
}
