package agreement

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"github.com/babelqueue/bqgen/internal/ecmare"
	"github.com/babelqueue/bqgen/internal/emit/jsonschema"
	"github.com/babelqueue/bqgen/internal/engines"
	"github.com/babelqueue/bqgen/internal/model"
)

// emittedPattern is the pattern keywords of one string schema of an emitted document:
// its patterns ("pattern" and those under "allOf") and whether it carries the
// final-newline guard ("not": {"type": "string", "pattern": "\\n$"}).
type emittedPattern struct {
	patterns []string
	guard    bool
}

// collectPatterns walks an emitted JSON Schema document.
func collectPatterns(v any, out map[string]emittedPattern) {
	switch x := v.(type) {
	case map[string]any:
		if p, ok := x["pattern"].(string); ok {
			ep := emittedPattern{patterns: []string{p}}
			if all, ok := x["allOf"].([]any); ok {
				for _, a := range all {
					if m, ok := a.(map[string]any); ok {
						if q, ok := m["pattern"].(string); ok {
							ep.patterns = append(ep.patterns, q)
						}
					}
				}
			}
			if n, ok := x["not"].(map[string]any); ok && n["pattern"] == ecmare.FinalNewlinePattern && n["type"] == "string" {
				ep.guard = true
			}
			if p != ecmare.FinalNewlinePattern {
				out[strings.Join(ep.patterns, "\x00")] = ep
			}
		}
		for _, c := range x {
			collectPatterns(c, out)
		}
	case []any:
		for _, c := range x {
			collectPatterns(c, out)
		}
	}
}

// stringPool is every string candidate of the corpus for the registry's string fields
// (corpus.go's stringCandidates: samples built from each pattern, its bounds, and the
// dialect characters inserted around them), each also with a final newline.
func stringPool(set string, reg *model.Registry) []string {
	g := &gen{set: set, seen: map[string]int{}, names: map[string]int{}, formats: map[string]bool{}}
	seen := map[string]bool{}
	var pool []string
	var walk func(s *model.Schema)
	walk = func(s *model.Schema) {
		if s == nil {
			return
		}
		if s.Kind == model.String {
			for _, c := range g.stringCandidates(s) {
				for _, v := range []string{c, c + "\n"} {
					if !seen[v] {
						seen[v] = true
						pool = append(pool, v)
					}
				}
			}
		}
		for _, p := range s.Properties {
			walk(p.Schema)
		}
		walk(s.Items)
		walk(s.Values)
	}
	for _, m := range reg.Messages {
		walk(m.Data)
	}
	for _, nt := range reg.Types {
		walk(nt.Schema)
	}
	sort.Strings(pool)
	return pool
}

// TestEmittedPatternsInFourEngines: every pattern the emitted schemas of the corpus
// registries carry (the registries' own in portable form, bqgen's format, currency,
// uuid and canonical-integer patterns) gives one verdict, with the schema's
// final-newline guard, in Node (ECMA-262, u flag, as ajv), Go's regexp (as
// jsonschema/v6 reads pattern by default), Python's re (python-jsonschema) and PHP's
// preg_match with the u flag, on every string candidate of the corpus (issue 19,
// item 3). Constructs `bqgen check` reports for Python or PHP (BQ060–BQ062) exempt that
// engine on that pattern: testdata/extra.yaml has a few (\bok\b, ^a|b$), which declare
// no python or php consumer.
func TestEmittedPatternsInFourEngines(t *testing.T) {
	if testing.Short() {
		t.Skip("needs node, python3 and php")
	}
	var qs []engines.Query
	var eps []emittedPattern
	for _, rs := range registries(t) {
		files, err := jsonschema.Emit(rs.reg, jsonschema.Options{})
		if err != nil {
			t.Fatal(err)
		}
		found := map[string]emittedPattern{}
		for _, f := range files {
			var doc any
			if err := json.Unmarshal(f.Content, &doc); err != nil {
				t.Fatal(err)
			}
			collectPatterns(doc, found)
		}
		pool := stringPool(rs.name, rs.reg)
		keys := make([]string, 0, len(found))
		for k := range found {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			ep := found[k]
			for _, p := range ep.patterns {
				qs = append(qs, engines.Query{P: p, S: pool})
				eps = append(eps, ep)
			}
		}
	}
	e := engines.MatchAll(t, qs)
	guarded, exempted := 0, 0
	for i, q := range qs {
		res, err := ecmare.PortablePattern(q.P)
		if err != nil {
			t.Fatalf("emitted pattern %q: %v", q.P, err)
		}
		exempt := map[string]bool{}
		for _, is := range res.Issues {
			for _, en := range is.Engines {
				exempt[en] = true
			}
		}
		if len(exempt) > 0 {
			exempted++
		}
		if res.GuardFinalNewline && !eps[i].guard {
			t.Errorf("emitted pattern %q needs the final-newline guard, which its schema lacks", q.P)
		}
		if eps[i].guard {
			guarded++
		}
		if e.Node[i].Err != "" {
			t.Fatalf("%q: node: %s", q.P, e.Node[i].Err)
		}
		for _, en := range []struct {
			name string
			v    engines.Verdicts
		}{{"Go", e.Go[i]}, {"Python", e.Python[i]}, {"PHP", e.PHP[i]}} {
			if exempt[strings.ToLower(en.name)] {
				continue
			}
			if en.v.Err != "" {
				t.Errorf("%.80q: %s rejects it: %s", q.P, en.name, en.v.Err)
				continue
			}
			bad := 0
			for j, s := range q.S {
				g := !(eps[i].guard && strings.HasSuffix(s, "\n"))
				if got, want := en.v.M[j] && g, e.Node[i].M[j] && g; got != want {
					if bad++; bad <= 3 {
						t.Errorf("%.80q on %+q: %s %v, ECMA-262 %v", q.P, s, en.name, got, want)
					}
				}
			}
		}
	}
	n := 0
	for _, q := range qs {
		n += len(q.S)
	}
	t.Logf("%d emitted patterns (%d guarded, %d with constructs Python and PHP read otherwise), %d verdicts per engine", len(qs), guarded, exempted, n)
	if len(qs) < 20 || guarded < 10 {
		t.Errorf("the corpus is off: %d patterns, %d guarded", len(qs), guarded)
	}
}
