package validate

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/babelqueue/bqgen/internal/emit/jsonschema/fixture"
	"github.com/babelqueue/bqgen/registry"
)

// numbersRegistry has a field for every keyword that reads a number: open and bounded
// numbers, integers, a number enum, a unique array (equality; uniqueItems on numbers
// is BQ038, on integers allowed, and jsonschema/v6 compares any numbers in it).
const numbersRegistry = `version: 1
consumers: [go]
messages:
  urn:babel:num:checked:
    summary: Numbers.
    owner: num
    data:
      properties:
        free: {type: number}
        ratio: {type: number, exclusiveMinimum: 0, maximum: 1.5}
        tiny: {type: number, minimum: 5e-324, exclusiveMaximum: 1e-300}
        big: {type: number, minimum: 1e300}
        int: {type: integer}
        small: {type: integer, minimum: -3, maximum: 3}
        choice: {type: number, enum: [0.5, 7, 1e300]}
        xs: {type: array, items: {type: number}}
        ints: {type: array, uniqueItems: true, items: {type: integer}}
`

const numbersURN = "urn:babel:num:checked"

func numbersValidator(t testing.TB) *Validator {
	t.Helper()
	reg, diags, err := registry.LoadFiles(context.Background(), map[string][]byte{"num.yaml": []byte(numbersRegistry)})
	if err != nil || reg == nil {
		t.Fatalf("%v %v", err, diags)
	}
	v, err := New(reg)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// exactPaths validates body without replacing any literal (jsonschema/v6 on the exact
// values, however costly) and returns the paths of the problems, sorted, leaving out a
// bound problem at a path the prepared run reports as beyond the doubles.
func exactPaths(t testing.TB, v *Validator, body []byte, reported map[string]bool) []string {
	t.Helper()
	tree, err := parseMessage(body)
	if err != nil {
		t.Fatalf("%s: %v", body, err)
	}
	ps, err := v.data(numbersURN, tree, "$", &numbers{reported: reported})
	if err != nil {
		t.Fatal(err)
	}
	return paths(ps)
}

func paths(ps []Problem) []string {
	var out []string
	for _, p := range ps {
		if p.Kind != Malformed {
			out = append(out, p.Path)
		}
	}
	sort.Strings(out)
	return out
}

// literalsAroundWindow are number literals inside, on and outside the window of exact
// values, of both signs, integers and not, and spellings of one value.
func literalsAroundWindow() []string {
	w := numberWindow
	var out []string
	for _, e := range []int{w - 1, w, w + 1, w + 2, 2 * w, -w + 1, -w, -w - 1, -w - 2, -2 * w, 308, 309, -323, -324, 0, 3} {
		for _, m := range []string{"1", "15", "5", "1" + strings.Repeat("0", w) + "1", "7" + strings.Repeat("3", w+50)} {
			out = append(out, fmt.Sprintf("%se%d", m, e), fmt.Sprintf("-%se%d", m, e))
		}
	}
	out = append(out,
		"1e999999", "-1e-999999", "1.5e999999", "0e-999999", "-0.0e999999", "1e-999999",
		"0."+strings.Repeat("0", 2*w)+"1", "1."+strings.Repeat("0", 3*w), "1."+strings.Repeat("0", 3*w)+"1",
		"3."+strings.Repeat("0", 3*w), "1"+strings.Repeat("0", 2*w)+".5", "0.5", "1e-300", "1e300", "1e+300",
		"0.5"+strings.Repeat("0", 900), "5e-324", "4.9e-324", "1e-325", "9.999999999999999e-301",
		"1.49999999999999999999999999999999999999999999999999999999999999999999999999999999999", "1.5"+strings.Repeat("0", 500)+"1",
	)
	return out
}

// TestNumbersExact: with the costly literals replaced, every keyword gives the verdict
// it gives on the exact values (issue 16, item 2: "exact verdicts must stay exact").
func TestNumbersExact(t *testing.T) {
	v := numbersValidator(t)
	lits := literalsAroundWindow()
	fields := []string{"free", "ratio", "tiny", "big", "int", "small", "choice"}
	check := func(body string) {
		t.Helper()
		ps, err := v.Data(numbersURN, []byte(body))
		if err != nil {
			t.Fatal(err)
		}
		_, nums := prepareNumbers(mustParse(t, body), "$")
		if got, want := paths(ps), exactPaths(t, v, []byte(body), nums.reported); strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%.200s\nproblems at %v, exact values give %v", body, got, want)
		}
	}
	for _, lit := range lits {
		for _, f := range fields {
			check(fmt.Sprintf(`{%q: %s}`, f, lit))
		}
	}
	// Equality: uniqueItems on every pair, and arrays of one value spelled three ways.
	for i, a := range lits {
		b := lits[(i*31+7)%len(lits)]
		check(fmt.Sprintf(`{"ints": [%s, %s], "xs": [%s, %s]}`, a, b, a, b))
		check(fmt.Sprintf(`{"ints": [%s, %s]}`, a, a))
	}
	// Pairs of the cheaper literals, for equality between stand-ins: each with the 24
	// after it (the list groups literals of one exponent, so of one kind of stand-in).
	var cheap []string
	for _, a := range lits {
		if !strings.Contains(a, "999999") {
			cheap = append(cheap, a)
		}
	}
	for i, a := range cheap {
		for _, b := range cheap[i+1 : min(i+25, len(cheap))] {
			check(fmt.Sprintf(`{"ints": [%s, %s]}`, a, b))
		}
	}
	for _, same := range [][]string{
		{"1e-999999", "10e-1000000", "0.1e-999998"},
		{"15e999998", "1.5e999999", "0.15e1000000"},
		{"1." + strings.Repeat("0", 1000) + "1", "10." + strings.Repeat("0", 1000) + "1e-1", "0.1" + strings.Repeat("0", 1000) + "1e1"},
		{"1e999999999999999999999", "10e999999999999999999998", "0.01e1000000000000000000001"},
	} {
		if !bigExponent.MatchString(same[0]) {
			// (math/big reads no exponent beyond ±10^6: jsonschema/v6 then calls
			// 1e999999999999999999999 no integer, where JSON Schema says it is one.)
			check(fmt.Sprintf(`{"ints": [%s, %s, %s]}`, same[0], same[1], same[2]))
		}
		ps, _ := v.Data(numbersURN, []byte(fmt.Sprintf(`{"ints": [%s, %s]}`, same[0], same[2])))
		// Equal items are named, unless they are no integers: an item that does not
		// decode leaves uniqueItems unjudged, as in the generated decoder.
		want := "$.ints: invalid_data: items at index 0 and 1 are equal"
		if strings.Contains(fmt.Sprint(ps), "$.ints[1]: invalid_data: expected integer, got number") {
			want = ""
		}
		if got := fmt.Sprint(ps); want != "" && !strings.Contains(got, want) || want == "" && strings.Contains(got, "are equal") {
			t.Errorf("%.60s and %.60s: the same value, problems %v", same[0], same[2], ps)
		}
	}
}

// bigExponent matches an exponent math/big refuses (beyond ±10^6, ratconv.go), on
// which jsonschema/v6 cannot give JSON Schema's verdict.
var bigExponent = regexp.MustCompile(`[eE][+-]?0*[1-9][0-9]{6,}`)

func mustParse(t *testing.T, body string) any {
	t.Helper()
	tree, err := parseMessage([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

// TestNumbersMessages: messages show the literal that was sent, not its replacement.
func TestNumbersMessages(t *testing.T) {
	v := newValidator(t)
	ps, _ := v.Envelope(fixture.Mutate(fixture.BaseEnvelope, "attempts", "1.5e-999999"))
	if len(ps) != 1 || ps[0].String() != "$.attempts: envelope: must be an integer, got 1.5e-999999" {
		t.Errorf("problems %v", ps)
	}
	ps, _ = v.Envelope(fixture.Mutate(fixture.BaseEnvelope, "meta.schema_version", "2"+strings.Repeat("0", 100)+".0"))
	if len(ps) != 1 || !strings.HasPrefix(ps[0].String(), "$.meta.schema_version: unsupported_schema_version: unsupported schema_version 200000000000000000000000...00000000000.0 (supported: 1)") {
		t.Errorf("problems %v", ps)
	}
}

// BenchmarkHostileNumbers: the cost of a message is linear in its size whatever its
// numbers (issue 16, item 2): a 10 KB body of 1e-999999 literals, of numbers just
// outside the window, of a 1,000,000-digit integer written 1.000…, against the same
// size of ordinary numbers (the baseline). Compare ns/B.
func BenchmarkHostileNumbers(b *testing.B) {
	v := numbersValidator(b)
	const size = 10_000
	body := func(field, lit string) []byte {
		var s strings.Builder
		s.WriteString(`{"` + field + `": [`)
		for s.Len() < size {
			if s.Len() > len(field)+6 {
				s.WriteByte(',')
			}
			s.WriteString(lit)
		}
		s.WriteString("]}")
		return []byte(s.String())
	}
	for _, c := range []struct {
		name string
		body []byte
	}{
		{"baseline=1.5", body("xs", "1.5")},
		{"baseline=123456.789", body("xs", "123456.789")},
		{"xs=1e-999999", body("xs", "1e-999999")},
		{"ints=1e-999999", body("ints", "1e-999999")},
		{"xs=1e-401", body("xs", "1e-401")},
		{"xs=1e-400", body("xs", "1e-400")},
		{"ints=1e999999", body("ints", "1e999999")},
		{"int=1.0x1M", []byte(`{"int": 1.` + strings.Repeat("0", 1_000_000) + `}`)},
		{"free=7x1M", []byte(`{"free": 0.` + strings.Repeat("7", 1_000_000) + `}`)},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.body)))
			for b.Loop() {
				if _, err := v.Data(numbersURN, c.body); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// FuzzValidate: any body gets problems, never an error or a panic; a body the strict
// parser refuses for anything but numbers beyond the doubles is one malformed problem
// at $; and the verdict with costly literals replaced is the one jsonschema/v6 gives on
// the exact values.
func FuzzValidate(f *testing.F) {
	for _, s := range []string{`{}`, `{"free": 1e-999999}`, `{"int": 1.` + strings.Repeat("0", 500) + `}`, `{"ints": [1e999999, 10e999998]}`,
		`{"ratio": 1.5` + strings.Repeat("0", 450) + `1}`, `{"xs": [1e400, -1e-401, 0e-999999]}`, `{"a":1e400,}`, `1e400`, `[`, "{\"free\": 1e-400}\n{}",
		fixture.BaseEnvelope, string(fixture.Mutate(fixture.BaseEnvelope, "attempts", "1e999999"))} {
		f.Add([]byte(s))
	}
	v := numbersValidator(f)
	env := newValidator(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		if len(body) > 1<<12 {
			return
		}
		ps, err := v.Data(numbersURN, body)
		if err != nil {
			t.Fatal(err)
		}
		eps, err := env.Envelope(body)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range append(ps, eps...) {
			if !strings.HasPrefix(p.Path, "$") || p.Message == "" {
				t.Fatalf("%q: problem %v", body, p)
			}
		}
		tree, perr := parseMessage(body)
		if perr != nil {
			if len(ps) != 1 || ps[0].Path != "$" || ps[0].Kind != Malformed || len(eps) != 1 || eps[0].Kind != Malformed {
				t.Fatalf("%q: not parsed (%v), problems %v / %v", body, perr, ps, eps)
			}
			return
		}
		if bigExponent.Match(body) {
			return // math/big reads no exponent beyond ±10^6 (see TestNumbersExact)
		}
		_, nums := prepareNumbers(tree, "$")
		if got, want := paths(ps), exactPaths(t, v, body, nums.reported); strings.Join(got, " ") != strings.Join(want, " ") {
			t.Fatalf("%q: problems at %v, exact values give %v", body, got, want)
		}
	})
}
