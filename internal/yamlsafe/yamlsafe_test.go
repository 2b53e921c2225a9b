package yamlsafe

import (
	"encoding/json"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"github.com/babelqueue/bqgen/internal/engines"
	"go.yaml.in/yaml/v3"
)

// tricky are the spellings YAML 1.1 and 1.2 readers resolve to non-strings (and a few
// near misses that stay strings).
var tricky = []string{
	"y", "Y", "yes", "Yes", "YES", "yEs", "n", "N", "no", "No", "NO", "nO", "on", "On", "ON", "oN", "off", "Off", "OFF",
	"true", "True", "TRUE", "tRUE", "false", "False", "FALSE", "null", "Null", "NULL", "nULL", "~", "",
	"1:30", "-1:30", "190:20:30", "1:30.5", "0777", "0o17", "0x1F", "0xff_ff", "0b1010", "-0b1", "1_000", "+12", "-0", "010",
	".inf", "-.inf", "+.INF", ".NaN", ".nan", "1e5", "1E+5", "6.8523015e+5", "685.230_15e+03", "1.", ".5", "-.5", "+1.5e-3", "3.14",
	"2001-12-14", "2001-12-14t21:59:43.10-05:00", "2001-12-14 21:59:43.10 -5", "2001-12-15T02:59:43.1Z", "2002-1-1 1:02:03",
	"<<", "=", "yes please", "1:3a", "0x", "0b", "12-12", "no.", "- a", "a: b", "#x", "@x", "`x", "%x", "!x", "&x", "*x", "|", ">",
	"'", "\"", "a\nb", " lead", "trail ", "\t", "é", "\u2028", "\u0085", "\ufeff", "😀", "0.5.1", "1-2-3", "v1.0",
}

// randomString draws a string from the characters that make up numbers, booleans,
// timestamps and YAML indicators.
func randomString(r *rand.Rand) string {
	if r.Intn(3) == 0 {
		return tricky[r.Intn(len(tricky))]
	}
	const alphabet = "0123456789+-._:eExXobBoOyYnNtTrRuUfFaAlLsS~<=Z \t:#'\"[]{},&*!|>%@`\n"
	n := r.Intn(8)
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteByte(alphabet[r.Intn(len(alphabet))])
	}
	return b.String()
}

// doc is a mapping whose keys and values are the strings ss (key i maps to ss[i], and
// the key is made unique by a suffix only when it repeats).
func doc(ss []string) (*yaml.Node, map[string]any) {
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	want := map[string]any{}
	for i, s := range ss {
		k := s
		for _, dup := want[k]; dup; _, dup = want[k] {
			k += "_"
		}
		m.Content = append(m.Content,
			&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: k},
			&yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{
				{Kind: yaml.ScalarNode, Tag: "!!str", Value: s},
				{Kind: yaml.ScalarNode, Tag: "!!str", Value: ss[(i+1)%len(ss)]},
			}})
		want[k] = []any{s, ss[(i+1)%len(ss)]}
	}
	return &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{m}}, want
}

// pyLoad is PyYAML's safe_load of each document, as JSON (a non-string key or value
// becomes its JSON form, so it cannot pass for the string).
const pyLoad = `
import json, sys, yaml
for line in sys.stdin:
    d = yaml.safe_load(json.loads(line))
    def norm(v):
        if isinstance(v, dict):
            return {("str:" + k) if isinstance(k, str) else ("other:" + repr(k)): norm(x) for k, x in v.items()}
        if isinstance(v, list):
            return [norm(x) for x in v]
        if isinstance(v, str):
            return "str:" + v
        return "other:" + repr(v)
    print(json.dumps(norm(d)))
`

func tagged(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, x := range v {
			out["str:"+k] = tagged(x)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = tagged(x)
		}
		return out
	case string:
		return "str:" + v
	}
	return v
}

// TestPyYAMLReadsStrings: PyYAML (YAML 1.1) and yaml.v3 (YAML 1.2) read every key and
// value Marshal writes as the string it is, for the tricky spellings and 3,000 random
// strings of the characters numbers, booleans and timestamps are made of.
func TestPyYAMLReadsStrings(t *testing.T) {
	py := engines.Python(t, "yaml")
	r := rand.New(rand.NewSource(19))
	batches := [][]string{tricky}
	for i := 0; i < 30; i++ {
		ss := make([]string, 100)
		for j := range ss {
			ss[j] = randomString(r)
		}
		batches = append(batches, ss)
	}
	var in []any
	var wants []map[string]any
	for _, ss := range batches {
		n, want := doc(ss)
		b, err := Marshal(n)
		if err != nil {
			t.Fatal(err)
		}
		var back map[string]any
		if err := yaml.Unmarshal(b, &back); err != nil {
			t.Fatalf("yaml.v3 cannot read its output: %v\n%s", err, b)
		}
		if !reflect.DeepEqual(back, want) {
			t.Errorf("yaml.v3 reads other values back:\n%s", b)
		}
		in = append(in, string(b))
		wants = append(wants, want)
	}
	var got []map[string]any
	engines.Run(t, py, "-c", pyLoad, in, &got)
	if len(got) != len(wants) {
		t.Fatalf("PyYAML read %d of %d documents", len(got), len(wants))
	}
	for i := range wants {
		if w := tagged(wants[i]); !reflect.DeepEqual(got[i], w) {
			for k, v := range w.(map[string]any) {
				if !reflect.DeepEqual(got[i][k], v) {
					gk, _ := json.Marshal(v)
					t.Errorf("PyYAML reads key %s otherwise: want %s; document:\n%s", k, gk, in[i])
				}
			}
			if len(got[i]) != len(w.(map[string]any)) {
				t.Errorf("PyYAML reads %d keys, want %d; got %v", len(got[i]), len(w.(map[string]any)), got[i])
			}
		}
	}
}

// TestNeedsQuotes pins the decision for each family of YAML 1.1 and 1.2 types.
func TestNeedsQuotes(t *testing.T) {
	for _, s := range []string{"yes", "Yes", "yEs", "Y", "on", "OFF", "no", "~", "", "null", "1:30", "190:20:30.15", "0777", "0o17",
		"0x1F", "0b101", "1_000", "1e5", ".inf", "-.Inf", ".NaN", "2001-12-14", "2001-12-14 21:59:43.10 -5", "<<", "=", "12", "-1.5", ".5"} {
		if !NeedsQuotes(s) {
			t.Errorf("NeedsQuotes(%q) = false, want true", s)
		}
	}
	for _, s := range []string{"yes please", "v1", "1:3a", "0x", "12-12", "a=b", "2001-12", "orders", "3.0.0", "1.2.3", "+", "-", "é"} {
		if NeedsQuotes(s) {
			t.Errorf("NeedsQuotes(%q) = true, want false", s)
		}
	}
}

// TestPortableFloat: floats are spelled so that YAML 1.1 reads them as floats.
func TestPortableFloat(t *testing.T) {
	for in, want := range map[string]string{"1.7976931348623158e308": "1.7976931348623158e+308", "1e5": "1.0e+5", "-1E-7": "-1.0e-7",
		".5": "0.5", "-.5": "-0.5", "+2.5": "2.5", "3.25": "3.25", "10": "10.0", ".inf": ".inf", "-.Inf": "-.Inf"} {
		if got := PortableFloat(in); got != want {
			t.Errorf("PortableFloat(%q) = %q, want %q", in, got, want)
		}
	}
}
