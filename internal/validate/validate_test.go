package validate

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/babelqueue/bqgen/internal/emit/jsonschema/fixture"
	"github.com/babelqueue/bqgen/registry"
)

func newValidator(t testing.TB) *Validator {
	t.Helper()
	v, err := New(fixture.Registry())
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func hasKind(ps []Problem, k Kind) bool {
	for _, p := range ps {
		if p.Kind == k {
			return true
		}
	}
	return false
}

// TestEnvelopeCases: the verdict of every envelope case is the envelope schema's
// (which internal/emit/jsonschema tests on the same cases), and the problem has the
// expected kind.
func TestEnvelopeCases(t *testing.T) {
	v := newValidator(t)
	for _, c := range fixture.EnvelopeCases() {
		ps, err := v.Envelope(c.JSON)
		if err != nil {
			t.Fatal(err)
		}
		if (len(ps) == 0) != c.Valid {
			t.Errorf("[%s] %s: problems %v, want valid=%v", c.Name, c.JSON, ps, c.Valid)
			continue
		}
		if !c.Valid && !hasKind(ps, Kind(c.Kind)) {
			t.Errorf("[%s] %s: problems %v, want one of kind %s", c.Name, c.JSON, ps, c.Kind)
		}
	}
}

// TestDataCases: bare data (--urn) and the same data inside a valid envelope.
func TestDataCases(t *testing.T) {
	v := newValidator(t)
	for _, c := range fixture.DataCases() {
		ps, err := v.Data(c.URN, c.JSON)
		if err != nil {
			t.Fatal(err)
		}
		if (len(ps) == 0) != c.Valid {
			t.Errorf("%s [%s] %s: problems %v, want valid=%v", c.URN, c.Name, c.JSON, ps, c.Valid)
		}
		env := fixture.Mutate(string(fixture.Mutate(fixture.BaseEnvelope, "job", `"`+c.URN+`"`)), "data", string(c.JSON))
		ps, err = v.Envelope(env)
		if err != nil {
			t.Fatal(err)
		}
		if (len(ps) == 0) != c.Valid || (!c.Valid && !hasKind(ps, InvalidData)) {
			t.Errorf("%s [%s] in an envelope: problems %v, want valid=%v", c.URN, c.Name, ps, c.Valid)
		}
	}
	if _, err := v.Data("urn:babel:nope:nope", []byte(`{}`)); err == nil {
		t.Error("unknown --urn accepted")
	}
}

func TestMalformed(t *testing.T) {
	v := newValidator(t)
	deep := strings.Repeat("[", 200) + strings.Repeat("]", 200)
	for _, body := range []string{
		"", "{", `{"a":1,"a":2}`, "{\"a\":\"\xff\"}", `{"a":"\ud800"}`, `{"a":"\udc00\ud800"}`, `{"a":"\ud800x"}`,
		`{} {}`, `{"a":01}`, `{"a":1.}`, `{"a":"x` + "\n" + `"}`, `{"a":NaN}`, `{"a":Infinity}`,
		`{"a":tru}`, `{"a":"\x"}`, `{"a" 1}`, `[1,]`, deep,
	} {
		ps, _ := v.Envelope([]byte(body))
		if len(ps) != 1 || ps[0].Kind != Malformed {
			t.Errorf("%q: %v, want one malformed problem", body, ps)
		}
		ps, _ = v.Data(fixture.URNClosed, []byte(body))
		if len(ps) != 1 || ps[0].Kind != Malformed {
			t.Errorf("%q as data: %v, want one malformed problem", body, ps)
		}
	}
	// Valid surrogate pairs and escapes are fine.
	ps, _ := v.Data(fixture.URNAll, fixture.Mutate(fixture.BaseAll, "str", `"\ud83d\udce6 \u00e9 \/"`))
	if len(ps) != 0 {
		t.Errorf("escapes: %v", ps)
	}
	// A non-object envelope is an envelope problem.
	if ps, _ := v.Envelope([]byte(`[]`)); len(ps) != 1 || ps[0].Kind != Envelope {
		t.Errorf("array envelope: %v", ps)
	}
}

func TestProblemPathsAndMessages(t *testing.T) {
	v := newValidator(t)
	env := fixture.Mutate(fixture.BaseEnvelope, "timestamp", `1`)
	env = fixture.Mutate(string(env), "meta.ts", `1`)
	env = fixture.Mutate(string(env), "meta.source", `"php"`)
	env = fixture.Mutate(string(env), "meta.max_retries", `3`)
	ps, _ := v.Envelope(env)
	var lines []string
	for _, p := range ps {
		lines = append(lines, p.String())
	}
	got := strings.Join(lines, "\n")
	for _, want := range []string{
		"$.timestamp: forbidden_field: forbidden field timestamp (BabelQueue wire contract): use meta.created_at (Unix ms)",
		"$.meta.ts: forbidden_field: forbidden field meta.ts",
		"$.meta.source: forbidden_field: forbidden field meta.source (BabelQueue wire contract): use meta.lang",
		"$.meta.max_retries: forbidden_field: forbidden field meta.max_retries",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}

	// Unknown URN and unsupported schema_version are distinct.
	ps, _ = v.Envelope(fixture.Mutate(fixture.BaseEnvelope, "job", `"urn:babel:x:y"`))
	if len(ps) != 1 || ps[0].Kind != UnknownURN || ps[0].Path != "$.job" {
		t.Errorf("unknown URN: %v", ps)
	}
	ps, _ = v.Envelope(fixture.Mutate(fixture.BaseEnvelope, "meta.schema_version", `2`))
	if len(ps) != 1 || ps[0].Kind != UnsupportedSchemaVersion || ps[0].Path != "$.meta.schema_version" {
		t.Errorf("schema_version 2: %v", ps)
	}

	// Data problems carry the JSON path into the envelope.
	all := fixture.Mutate(fixture.BaseAll, "lines", `[{"sku":"a","quantity":1},{"sku":"b","quantity":0,"x":1}]`)
	all = fixture.Mutate(string(all), "tags", `{"a b":"xyz"}`)
	all = fixture.Mutate(string(all), "n", `1.5`)
	env = fixture.Mutate(string(fixture.Mutate(fixture.BaseEnvelope, "job", `"`+fixture.URNAll+`"`)), "data", string(all))
	ps, _ = v.Envelope(env)
	lines = nil
	for _, p := range ps {
		lines = append(lines, p.String())
	}
	got = strings.Join(lines, "\n")
	if want := strings.Join([]string{
		`$.data.lines[1].quantity: invalid_data: must be at least 1, got 0`,
		`$.data.lines[1].x: invalid_data: additional property not allowed`,
		`$.data.n: invalid_data: expected integer, got number 1.5`,
		`$.data.tags["a b"]: invalid_data: length 3 is greater than the maximum 2 (code points)`,
	}, "\n"); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}

	// A format outside its narrowing (docs/jsonschema.md, Formats) is named as such.
	all = fixture.Mutate(fixture.BaseAll, "email", `"a@localhost"`)
	ps, _ = v.Data(fixture.URNAll, all)
	// The fixture's email is marked x-gdpr-sensitive: the value is not shown.
	if len(ps) != 1 || ps[0].Path != "$.email" || ps[0].Message != `is not a valid "email" (x-gdpr-sensitive: the value is not shown; if it is protected, validate with --protected)` {
		t.Errorf("narrowed email: %v", ps)
	}
}

// textLines reports each message as the CLI's text format does (without quoting).
func textLines(out *bytes.Buffer) func(Message) error {
	return func(m Message) error {
		name := m.Input
		if name == "-" {
			name = "<stdin>"
		}
		if m.Stream {
			name += ":" + strconv.Itoa(m.Index)
		}
		if len(m.Problems) == 0 {
			fmt.Fprintf(out, "%s: valid\n", name)
		}
		for _, p := range m.Problems {
			fmt.Fprintf(out, "%s: %s\n", name, p)
		}
		return nil
	}
}

func TestFiles(t *testing.T) {
	v := newValidator(t)
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(good, []byte(fixture.BaseEnvelope), 0o644)
	os.WriteFile(bad, fixture.Mutate(fixture.BaseEnvelope, "meta.ts", `1`), 0o644)
	var out, errOut bytes.Buffer
	res, err := Files(v, []string{good, bad, "-", filepath.Join(dir, "missing.json"), dir}, Options{}, strings.NewReader(fixture.BaseEnvelope), textLines(&out), &errOut)
	if err != nil {
		t.Fatal(err)
	}
	if res != (Result{Valid: 2, Invalid: 1, IOErrors: 2}) {
		t.Errorf("result %+v", res)
	}
	want := good + ": valid\n" + bad + ": $.meta.ts: forbidden_field: forbidden field meta.ts (BabelQueue wire contract): use meta.created_at (Unix ms)\n<stdin>: valid\n"
	if out.String() != want {
		t.Errorf("out:\n%s\nwant:\n%s", out.String(), want)
	}
	if want := filepath.Join(dir, "missing.json") + ": open " + filepath.Join(dir, "missing.json") + ": no such file or directory\n" + dir + ": is a directory\n"; errOut.String() != want {
		t.Errorf("errOut:\n%s\nwant:\n%s", errOut.String(), want)
	}

	out.Reset()
	res, err = Files(v, []string{"-"}, Options{URN: fixture.URNClosed}, strings.NewReader(`{"id":0}`), textLines(&out), &errOut)
	if err != nil || res.Invalid != 1 || !strings.HasPrefix(out.String(), "<stdin>: $.id: invalid_data: ") {
		t.Errorf("--urn: %+v %v %q", res, err, out.String())
	}
	if _, err := Files(v, []string{"-"}, Options{URN: "urn:babel:x:y"}, strings.NewReader(`{}`), textLines(&out), &errOut); err == nil {
		t.Error("unknown --urn accepted")
	}
	// Empty and blank inputs are one malformed message.
	for _, in := range []string{"", " \n\t"} {
		out.Reset()
		res, _ := Files(v, []string{"-"}, Options{}, strings.NewReader(in), textLines(&out), &errOut)
		if res != (Result{Invalid: 1}) || out.String() != "<stdin>: $: malformed: at byte 0: unexpected end of input, expected a value\n" {
			t.Errorf("%q: %+v %q", in, res, out.String())
		}
	}
}

func TestFilesStream(t *testing.T) {
	v := newValidator(t)
	bad := string(fixture.Mutate(fixture.BaseEnvelope, "meta.ts", `1`))
	compact := func(s string) string {
		var b bytes.Buffer
		if err := json.Compact(&b, []byte(s)); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	var pretty bytes.Buffer
	json.Indent(&pretty, []byte(fixture.BaseEnvelope), "", "  ")
	stream := compact(fixture.BaseEnvelope) + "\n" + compact(bad) + "\n\n" + pretty.String() + "\n{\"job\": [\n" + fixture.BaseEnvelope + "\n"
	var out, errOut bytes.Buffer
	var lines []int
	rec := textLines(&out)
	res, err := Files(v, []string{"-"}, Options{}, strings.NewReader(stream), func(m Message) error { lines = append(lines, m.Line); return rec(m) }, &errOut)
	if err != nil {
		t.Fatal(err)
	}
	if res != (Result{Valid: 3, Invalid: 2}) {
		t.Errorf("result %+v\n%s", res, out.String())
	}
	got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(got) != 5 || got[0] != "<stdin>:1: valid" || !strings.HasPrefix(got[1], "<stdin>:2: $.meta.ts: forbidden_field: ") ||
		got[2] != "<stdin>:3: valid" || !strings.HasPrefix(got[3], "<stdin>:4: $: malformed: ") || got[4] != "<stdin>:5: valid" {
		t.Errorf("out:\n%s", out.String())
	}
	if want := []int{1, 2, 4, 4 + strings.Count(pretty.String(), "\n") + 1, 6 + strings.Count(pretty.String(), "\n")}; fmt.Sprint(lines) != fmt.Sprint(want) {
		t.Errorf("lines %v, want %v", lines, want)
	}
}

// TestNumbersBeyondDoubles: a number literal beyond the doubles is reported at its JSON
// path (the generated decoder rejects the message as malformed), and the rest of the
// message is still checked; the schema's bound on it, which says the same, is left out
// (issue 13, item 4).
func TestNumbersBeyondDoubles(t *testing.T) {
	v := newValidator(t)
	const tail = " is beyond the range of a double (±1.7976931348623157e308): the generated decoder rejects the message as malformed"
	inAll := func(path, raw string) []byte {
		return fixture.Mutate(string(fixture.Mutate(fixture.BaseEnvelope, "job", `"`+fixture.URNAll+`"`)), "data", string(fixture.Mutate(fixture.BaseAll, path, raw)))
	}
	for _, c := range []struct {
		name string
		body []byte
		urn  string // bare data of this URN, else an envelope
		want []string
	}{
		{"number field", inAll("ratio", "1e400"), "", []string{"$.data.ratio: malformed: number 1e400" + tail}},
		{"integer field", inAll("n", "-1e400"), "", []string{"$.data.n: malformed: number -1e400" + tail}},
		{"two, and an invalid value", inAll("lines", `[{"sku":"a","quantity":1e309},{"sku":"b","quantity":0}]`), "", []string{
			"$.data.lines[0].quantity: malformed: number 1e309" + tail,
			"$.data.lines[1].quantity: invalid_data: must be at least 1, got 0"}},
		{"unknown envelope key", fixture.Mutate(fixture.BaseEnvelope, "extra", "1e999999"), "", []string{"$.extra: malformed: number 1e999999" + tail}},
		{"attempts", fixture.Mutate(fixture.BaseEnvelope, "attempts", "1e400"), "", []string{"$.attempts: malformed: number 1e400" + tail}},
		{"escaped key", []byte(`{"\u0069d":1,"x\"y":[0,{"a":2e400}]}`), fixture.URNClosed, []string{
			`$["x\"y"][1].a: malformed: number 2e400` + tail,
			`$["x\"y"]: invalid_data: additional property not allowed`}},
		{"whole body", []byte(`1e400`), fixture.URNClosed, []string{"$: malformed: number 1e400" + tail}}, // one problem per path,
		{"and a syntax error", []byte(`{"a":1e400,}`), fixture.URNClosed, []string{"$: malformed: at byte 11: unexpected character '}', expected a string key"}},
		{"largest double", inAll("ratio", "1.7976931348623157e308"), "", []string{"$.data.ratio: invalid_data: must be less than 1.5, got 1.7976931348623157e+308"}},
		// Numbers are named as the generated decoder names them (bqrt's problems.go):
		// beyond int64 as written, a bound's value by its double, or as written where
		// the double is the bound's and the exact value decided.
		{"beyond int64", inAll("n", "9223372036854775808"), "", []string{"$.data.n: invalid_data: integer 9223372036854775808 out of int64 range"}},
		{"long literal", inAll("ratio", "5"+strings.Repeat("0", 1000)+"e-990"), "", []string{"$.data.ratio: invalid_data: must be less than 1.5, got 50000000000"}},
		{"tiny literal", inAll("ratio", "-1e-999999"), "", []string{"$.data.ratio: invalid_data: must be at least 0, got -1e-999999"}},
	} {
		var ps []Problem
		var err error
		if c.urn != "" {
			ps, err = v.Data(c.urn, c.body)
		} else {
			ps, err = v.Envelope(c.body)
		}
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, p := range ps {
			got = append(got, p.String())
		}
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s: %s\ngot:\n%s\nwant:\n%s", c.name, c.body, strings.Join(got, "\n"), strings.Join(c.want, "\n"))
		}
	}
}

// TestBlankJobBesideURN: a job that is empty or null beside a usable urn is reported
// (a producer always writes job), and the data is still checked against the URN a
// consumer routes by, as the generated Router does: both problems, in one run.
func TestBlankJobBesideURN(t *testing.T) {
	v := newValidator(t)
	for _, job := range []string{`""`, `null`} {
		body := fixture.Mutate(string(fixture.Mutate(string(fixture.Mutate(fixture.BaseEnvelope, "job", job)), "urn", `"`+fixture.URNClosed+`"`)), "data.id", `1.5`)
		ps, err := v.Envelope(body)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, p := range ps {
			got = append(got, p.Path+" "+string(p.Kind))
		}
		if want := "$.job envelope|$.data.id invalid_data"; strings.Join(got, "|") != want {
			t.Errorf("job %s beside urn: problems %v, want %s", job, ps, want)
		}
	}
}

// TestLengthBeforeFormat: a string that breaks its length and its format gets the
// length problem, as the generated decoder reports it (it checks the length first);
// jsonschema/v6 reports only the format of such a string (issue 23, item 1).
func TestLengthBeforeFormat(t *testing.T) {
	t.Parallel()
	const src = `version: 1
messages:
  urn:babel:t:checked:
    summary: s
    data:
      properties:
        a: {type: string, format: email, maxLength: 5}
        d: {type: string, format: date, maxLength: 10}
        u: {type: string, format: uri, minLength: 12}
        e: {type: string, format: email, maxLength: 40}
`
	v := validatorOf(t, src)
	ps, err := v.Data("urn:babel:t:checked", []byte(`{"a":"noatsign","d":"20260101000","u":"x","e":"noatsign"}`))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range ps {
		got = append(got, p.String())
	}
	want := []string{
		"$.a: invalid_data: length 8 is greater than the maximum 5 (code points)",
		"$.d: invalid_data: length 11 is greater than the maximum 10 (code points)",
		`$.e: invalid_data: is not a valid "email": missing @`,
		"$.u: invalid_data: length 1 is less than the minimum 12 (code points)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestNumbersBeyondDoublesSealed: a number beyond the doubles at or inside an
// x-gdpr-sensitive value is reported without its literal and with the keys the schema
// does not declare written `*`, in bare data and in an envelope, with --protected too;
// one problem per path (a found attack: the literal and a map key, an e-mail address,
// were printed in clear).
func TestNumbersBeyondDoublesSealed(t *testing.T) {
	t.Parallel()
	const src = `version: 1
messages:
  urn:babel:t:x:
    summary: s
    data:
      properties:
        m: {type: map, values: {type: integer, maximum: 5}, x-gdpr-sensitive: contact}
        sal: {type: integer, x-gdpr-sensitive: "true", maximum: 100}
        o: {type: object, x-gdpr-sensitive: "true", properties: {n: {type: integer, maximum: 5}}}
        arr: {type: array, items: {type: string}}
`
	data := `{"m":{"ada.lovelace@example.com":1e999},"sal":123456789e999,"o":{"zz":77777e500},"arr":[55555e400]}`
	const beyond = "is beyond the range of a double (±1.7976931348623157e308): the generated decoder rejects the message as malformed"
	sealed := "a number " + beyond + " (x-gdpr-sensitive: the value is not shown)"
	for _, protected := range []bool{false, true} {
		var opts []Option
		if protected {
			opts = append(opts, WithProtected())
		}
		v := validatorOf(t, src, opts...)
		ps, err := v.Data("urn:babel:t:x", []byte(data))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, p := range ps {
			got = append(got, p.String())
		}
		want := []string{"$.arr[0]: malformed: number 55555e400 " + beyond, "$.m.*: malformed: " + sealed, "$.o.*: malformed: " + sealed, "$.sal: malformed: " + sealed}
		if protected {
			want = append(want, "$.m: invalid_data: x-gdpr-sensitive value is not protected: got object, want a ciphertext string (x-gdpr-sensitive: the value is not shown)",
				"$.o: invalid_data: x-gdpr-sensitive value is not protected: got object, want a ciphertext string (x-gdpr-sensitive: the value is not shown)")
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("protected %v:\ngot:\n%s\nwant:\n%s", protected, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		env := `{"job":"urn:babel:t:x","trace_id":"t","data":` + data + `,"attempts":0,"meta":{"id":"7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b","queue":"q","lang":"go","schema_version":1,"created_at":1}}`
		eps, err := v.Envelope([]byte(env))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range eps {
			for _, secret := range []string{"ada.lovelace", "1e999", "123456789e999", "77777e500", "zz"} {
				if strings.Contains(p.String(), secret) {
					t.Errorf("protected %v: envelope problem shows %q: %s", protected, secret, p)
				}
			}
		}
		if len(eps) != len(want) {
			t.Errorf("protected %v: envelope problems %d, want %d: %v", protected, len(eps), len(want), eps)
		}
	}
}

// TestPathLess: paths in text order, array indices by their number.
func TestPathLess(t *testing.T) {
	t.Parallel()
	sorted := []string{"$", "$.a", "$.a.b", "$.lines", "$.lines[2]", "$.lines[2].sku", "$.lines[10]", "$.lines[100087]", "$.m[\"1\"]", "$.m[\"10\"]", "$.m[\"2\"]", "$.z"}
	for i := range sorted {
		for j := range sorted {
			if got := pathLess(sorted[i], sorted[j]); got != (i < j) {
				t.Errorf("pathLess(%q, %q) = %v, want %v", sorted[i], sorted[j], got, i < j)
			}
		}
	}
}

// TestProblemsListedAsTheDecoderLists: at most bqrt.MaxProblems problems, then one at
// "$" saying more were found, as the generated decoder lists them; a 1.5 MB body with
// 500,000 wrong elements printed 66 MB before.
func TestProblemsListedAsTheDecoderLists(t *testing.T) {
	t.Parallel()
	reg, diags, err := registry.Load(context.Background(), "../../examples/registry.yaml")
	if err != nil || reg == nil {
		t.Fatalf("%v %v", err, diags)
	}
	v, err := New(reg)
	if err != nil {
		t.Fatal(err)
	}
	body := `{"order_id":1,"lines":[` + strings.Repeat("0,", 999) + `0]}`
	ps, err := v.Data("urn:babel:orders:created.v2", []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 101 || ps[100].String() != "$: invalid_data: more problems, not listed (at most 100 are)" || ps[2].Path != "$.lines[0]" || ps[3].Path != "$.lines[1]" || ps[4].Path != "$.lines[2]" {
		t.Errorf("%d problems: %v … %v", len(ps), ps[:3], ps[len(ps)-1])
	}
}

// TestFirstProblemPerPath: where several checks fail at one path, validate reports the
// one the generated decoder reports (length, format, enum, pattern for strings;
// minimum, maximum, enum for numbers), also where jsonschema/v6 reports only a later
// keyword (the enum, the format); the decoder's output for this body, word for word.
func TestFirstProblemPerPath(t *testing.T) {
	t.Parallel()
	const src = `version: 1
messages:
  urn:babel:t:o:
    summary: s
    data:
      properties:
        e: {type: string, format: email, maxLength: 10}
        u: {type: string, format: uri, maxLength: 10}
        d: {type: string, format: date-time, minLength: 30}
        p: {type: string, pattern: "^[ab]+$", maxLength: 3, enum: [aa, bbb]}
        q: {type: string, pattern: "^[ab]+$", enum: [aa, bbb]}
        num: {type: integer, minimum: 0, maximum: 10, enum: [1, 2]}
        f: {type: number, minimum: 0.5, maximum: 10, enum: [1, 2]}
`
	v := validatorOf(t, src)
	ps, err := v.Data("urn:babel:t:o", []byte(`{"e":"not-an-email-and-long","u":"::::::::::::::","d":"x","p":"bbbbb","q":"c","num":11,"f":0.25}`))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range ps {
		got = append(got, p.Path+": "+p.Message)
	}
	want := []string{
		"$.d: length 1 is less than the minimum 30 (code points)",
		"$.e: length 21 is greater than the maximum 10 (code points)",
		"$.f: must be at least 0.5, got 0.25",
		"$.num: must be at most 10, got 11",
		"$.p: length 5 is greater than the maximum 3 (code points)",
		`$.q: value "c" is not one of the enum values "aa", "bbb"`,
		"$.u: length 14 is greater than the maximum 10 (code points)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// validatorOf is a Validator of the registry src (one file), with opts.
func validatorOf(t *testing.T, src string, opts ...Option) *Validator {
	t.Helper()
	reg, diags, err := registry.LoadFiles(context.Background(), map[string][]byte{"r.yaml": []byte(src)})
	if err != nil || reg == nil {
		t.Fatalf("%v %v", err, diags)
	}
	v, err := New(reg, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
