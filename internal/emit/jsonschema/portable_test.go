package jsonschema

import (
	"math"
	"sort"
	"strings"
	"testing"

	"github.com/babelqueue/bqgen/internal/ecmare"
	"github.com/babelqueue/bqgen/internal/engines"
	"github.com/babelqueue/bqgen/internal/ordjson"
)

// ownPatterns are the patterns bqgen writes itself, with strings each accepts.
func ownPatterns() map[string][]string {
	m := map[string][]string{
		UUIDPattern:     {"123e4567-e89b-12d3-a456-426614174000"},
		CurrencyPattern: {"DE", "EUR"},
		IntRangePattern(math.MinInt64, math.MaxInt64): {"0", "-9223372036854775808", "42"},
		IntRangePattern(-5, 100):                      {"-5", "100", "7"},
		NonBlankPattern:                               {"x", " x "},
	}
	ex := map[string][]string{"email": {"a@example.com"}, "uri": {"https://example.com/a?b#c"}, "date": {"2024-01-31"},
		"date-time": {"2024-01-31T10:00:00Z"}, "uuid": {"123E4567-e89b-12d3-a456-426614174000"}}
	for f, p := range FormatPatterns {
		m[p] = ex[f]
	}
	return m
}

// TestOwnPatternsInFourEngines: bqgen's own patterns (formats, currency codes,
// canonical integers, the envelope's non-blank test) give one verdict in Node
// (ECMA-262, u flag), Go's regexp, Python's re and PHP's preg_match once the emitted
// final-newline guard is applied, on their valid strings, those strings with a final
// newline ("DE\n" passed in Python before the guard), and other near misses. Every
// anchored one needs the guard, and the portable rewrite would change none of their
// verdicts (they are written portable already).
func TestOwnPatternsInFourEngines(t *testing.T) {
	pats := ownPatterns()
	var qs []engines.Query
	for p, valid := range pats {
		var ss []string
		for _, v := range valid {
			ss = append(ss, v, v+"\n", v+"\n\n", "\n"+v, v+"\r", v+"\u2028", " "+v, v+" ", strings.ToUpper(v)+"\n")
		}
		ss = append(ss, "", "\n", "DE\n", "0\n", "٣", "é@example.com")
		qs = append(qs, engines.Query{P: p, S: ss})
	}
	sort.Slice(qs, func(i, j int) bool { return qs[i].P < qs[j].P })
	e := engines.MatchAll(t, qs)
	for i, q := range qs {
		f := portable(q.P, true)
		if strings.HasPrefix(q.P, "^") != f.guard {
			t.Errorf("%.60s: guard %v, want it exactly on the anchored patterns", q.P, f.guard)
		}
		res, err := ecmare.PortablePattern(q.P)
		if err != nil || len(res.Issues) > 0 {
			t.Errorf("%.60s: %v %v", q.P, err, res)
		}
		for name, v := range map[string]engines.Verdicts{"Go": e.Go[i], "Python": e.Python[i], "PHP": e.PHP[i]} {
			if v.Err != "" || e.Node[i].Err != "" {
				t.Fatalf("%.60s: %s %q, node %q", q.P, name, v.Err, e.Node[i].Err)
			}
			for j, s := range q.S {
				got := v.M[j] && !(f.guard && strings.HasSuffix(s, "\n"))
				if got != e.Node[i].M[j] {
					t.Errorf("%.60s on %+q: %s %v, ECMA-262 %v", q.P, s, name, got, e.Node[i].M[j])
				}
			}
		}
	}
}

// TestSetPatterns: the registry's pattern is written in portable form, bqgen's own
// beside it under allOf, and the guard once (the date's: the registry's pattern here
// accepts "1\n" and is a BQ060 finding, which no guard fixes).
func TestSetPatterns(t *testing.T) {
	o := ordjson.New()
	setPatterns(o, `^\d+\s?$`, DatePattern)
	want := ordjson.New().
		Set("pattern", "^[0-9]+[\\t-\\r \\xA0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]?$").
		Set("allOf", []any{ordjson.New().Set("pattern", DatePattern)}).
		Set("not", ordjson.New().Set("type", "string").Set("pattern", `\n$`))
	got, _ := ordjson.Marshal(o)
	w, _ := ordjson.Marshal(want)
	if string(got) != string(w) {
		t.Errorf("setPatterns:\n got %s\nwant %s", got, w)
	}
	o = ordjson.New()
	setPatterns(o, `^[^,]*$`)
	if got, _ := ordjson.Marshal(o); string(got) != "{\n  \"pattern\": \"^[^,]*$\"\n}\n" {
		t.Errorf("a pattern Python reads alike gets no guard: %s", got)
	}
}
