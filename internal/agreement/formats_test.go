package agreement

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"testing"

	js "github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/babelqueue/bqgen/internal/emit/jsonschema"
	"github.com/babelqueue/bqgen/internal/nodetools"
)

// formatSchema is the string schema the emitter writes for format f with no other
// constraint: format plus its narrowing (docs/jsonschema.md, "Formats").
func formatSchema(f string) string {
	s := `{"type":"string","format":` + string(must(json.Marshal(f)))
	if f == "email" {
		s += fmt.Sprintf(`,"maxLength":%d`, jsonschema.EmailMaxLength)
	}
	return s + `,"pattern":` + string(must(json.Marshal(jsonschema.FormatPatterns[f]))) + `}`
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// formatStrings are, per format, the samples of the corpus and random mutations of
// valid and doubtful values: the strings TestFormatNarrowing runs.
func formatStrings() map[string][]string {
	seeds := map[string][]string{
		"email": {"joe@example.com", `"a b"@x.io`, "x@[1.2.3.4]", "x@[IPv6:::1]", "first.last+tag@sub.example.org",
			"a@localhost", "a@example.com.", "x_y-z@a-b.co.uk", strings.Repeat("a", 64) + "@" + strings.Repeat("b", 63) + ".com"},
		"uri": {"https://example.com/a?b#c", "urn:a:b", "http://[::1]:80/", "http://u:p@h:8080/p/q?x=1&y=%20#f",
			"mailto:a@example.com", "http:", "file:///etc/hosts", "http://[1:2:3:4:5:6:7:8]/", "a:/b//c", "http://a/%7e"},
		"date": {"2024-02-29", "2023-12-31", "0000-01-01"},
		"date-time": {"2024-02-29T12:34:56.5+05:30", "2016-12-31T23:59:60Z", "2016-12-31T22:59:60-01:00",
			"2024-01-01t00:00:00z", "2024-01-01T00:00:00.123456789-00:00", "2024-01-01T00:59:60+01:00"},
		"uuid": {"0f8fad5b-d9cb-469f-a165-70867728950e", "urn:uuid:0f8fad5b-d9cb-469f-a165-70867728950e", "0F8FAD5B-D9CB-469F-A165-70867728950E"},
	}
	alphabet := []string{"a", "Z", "0", "9", "1", "2", "3", "5", "6", "-", ".", ":", "@", "[", "]", "/", "?", "#", "%",
		" ", "\"", "\\", "+", "T", "t", "z", "Z", "é", "_", "~", "!", "(", ",", ";", "=", "'", "*", "&", "$", "%41",
		"%2", "v", "IPv6:", "::", "..", "\t", "\u00a0", "例", "%25", "//", "60", "24", "23:59:"}
	r := rand.New(rand.NewSource(11))
	out := map[string][]string{}
	for f, set := range formatSamples {
		out[f] = append(append(append(out[f], set.valid...), set.invalid...), set.unknown...)
	}
	names := make([]string, 0, len(seeds))
	for f := range seeds {
		names = append(names, f)
	}
	sort.Strings(names) // one sequence of random numbers: deterministic strings
	for _, f := range names {
		for _, seed := range seeds[f] {
			out[f] = append(out[f], seed)
			for i := 0; i < 500; i++ {
				b := []byte(seed)
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
				out[f] = append(out[f], strings.ToValidUTF8(string(b), ""))
			}
		}
	}
	// Dates and times in the right shape with random fields: day-of-month and leap-year
	// rules, leap seconds under offsets, out-of-range fields.
	two := func() string {
		return fmt.Sprintf("%02d", []int{0, 1, 9, 12, 13, 23, 24, 28, 29, 30, 31, 32, 59, 60, 61, 99}[r.Intn(16)])
	}
	year := func() string {
		return []string{"0000", "1900", "2000", "2023", "2024", "2100", "9999", "1600"}[r.Intn(8)]
	}
	for i := 0; i < 1500; i++ {
		date := year() + "-" + two() + "-" + two()
		out["date"] = append(out["date"], date)
		tm := two() + ":" + two() + ":" + two()
		if r.Intn(3) == 0 {
			tm += "." + []string{"0", "5", "999999999", "000"}[r.Intn(4)]
		}
		off := []string{"Z", "z", "+" + two() + ":" + two(), "-" + two() + ":" + two(), "+00:00", "-00:01", "+01:00"}[r.Intn(7)]
		out["date-time"] = append(out["date-time"], date+"T"+tm+off)
		leap := []string{"23:59:60", "00:00:60", "00:59:60", "22:59:60", "23:00:60", "12:30:60"}[r.Intn(6)]
		out["date-time"] = append(out["date-time"], "2016-12-31T"+leap+off)
	}
	return out
}

// TestFormatNarrowing checks that jsonschema/v6 (format assertion on) and ajv with
// ajv-formats give the same verdict on every format string of formatStrings under the
// emitted narrowing, and that the narrowing leaves both enough valid strings. The Go
// runtime's format check equals jsonschema/v6 with the same narrowing
// (rt.TestFormatAgreesWithJSONSchemaV6).
func TestFormatNarrowing(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped with -short: runs node")
	}
	strs := formatStrings()
	formats := make([]string, 0, len(strs))
	for f := range strs {
		formats = append(formats, f)
	}
	sort.Strings(formats)

	// jsonschema/v6.
	c := js.NewCompiler()
	c.AssertFormat()
	v6 := map[string][]bool{}
	for _, f := range formats {
		id := "mem://" + f
		if err := c.AddResource(id, must(js.UnmarshalJSON(strings.NewReader(formatSchema(f))))); err != nil {
			t.Fatal(err)
		}
		sch, err := c.Compile(id)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range strs[f] {
			v6[f] = append(v6[f], sch.Validate(s) == nil)
		}
	}

	// ajv, 2020-12 and draft-07.
	in := map[string]any{}
	schemas := map[string]json.RawMessage{}
	for _, f := range formats {
		in[f] = strs[f]
		schemas[f] = json.RawMessage(formatSchema(f))
	}
	stdin := must(json.Marshal(map[string]any{"schemas": schemas, "strings": in}))
	out := nodetools.RunNode(t, nodetools.AjvSetup+`
const {schemas, strings} = JSON.parse(require("fs").readFileSync(0, "utf8"));
const res = {};
for (const C of [Ajv2020, Ajv7]) {
  const ajv = newAjv(C);
  for (const [f, schema] of Object.entries(schemas)) {
    const v = ajv.compile(schema);
    const r = strings[f].map(s => v(s));
    if (!res[f]) res[f] = r; else res[f] = res[f].map((x, i) => x === r[i] ? x : "differ");
  }
}
process.stdout.write(JSON.stringify(res));`, stdin)
	var ajv map[string][]any
	if err := json.Unmarshal(out, &ajv); err != nil {
		t.Fatalf("ajv output: %v\n%.300s", err, out)
	}
	for _, f := range formats {
		valid := 0
		for i, s := range strs[f] {
			if ajv[f][i] != v6[f][i] {
				t.Errorf("format %s, %q: jsonschema/v6 %v, ajv %v", f, s, v6[f][i], ajv[f][i])
			}
			if v6[f][i] {
				valid++
			}
		}
		if valid < 20 || valid > len(strs[f])-20 {
			t.Errorf("format %s: %d of %d strings valid: lopsided", f, valid, len(strs[f]))
		}
		t.Logf("format %s: %d strings, %d valid", f, len(strs[f]), valid)
	}
}
