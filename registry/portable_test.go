package registry

import (
	"context"
	"strconv"
	"testing"

	"github.com/babelqueue/bqgen/internal/ecmare"
)

// patternDiags loads a registry whose one field has pattern p and returns the
// diagnostics as "rule: message".
func patternDiags(t *testing.T, p string) []string {
	t.Helper()
	src := "version: 1\nmessages:\n  urn:babel:orders:created:\n    data:\n      properties:\n        x: {type: string, pattern: " +
		strconv.Quote(p) + "}\n"
	_, ds, err := LoadFiles(context.Background(), map[string][]byte{"f.yaml": []byte(src)})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range ds {
		out = append(out, d.Rule+": "+d.Message)
	}
	return out
}

// TestPatternFindings: a pattern is ECMA-262 with the u flag; what RE2 cannot express
// is BQ035, Unicode properties are BQ039, and the rest (., \s, \S, \u{…}) is accepted
// and translated.
func TestPatternFindings(t *testing.T) {
	t.Parallel()
	const f = `pattern of field "x" `
	notECMA := f + "is not an ECMA-262 regular expression (JSON Schema's pattern, read with the u flag): "
	for _, c := range []struct{ p, want string }{
		{`^.+$`, ""},
		{`^.{1,50}$`, ""},
		{`^\S+$`, ""},
		{`^[^\s@]+@[^\s@]+$`, ""},
		{`^\u{1F600}\u00e9\cJ$`, ""},
		{`^[^]$`, ""},
		{`^(?<cc>[A-Z]{2})$`, ""},
		{`^a(?=b)`, "BQ035: " + f + "uses a lookahead (?=…) at character 3, which RE2 (Go's regexp) cannot express"},
		{`(?<!x)y`, "BQ035: " + f + "uses a negative lookbehind (?<!…) at character 1, which RE2 (Go's regexp) cannot express"},
		{`^(a)\1$`, "BQ035: " + f + "uses the backreference \\1 at character 5, which RE2 (Go's regexp) cannot express"},
		{`^(?<q>['"]).*\k<q>$`, "BQ035: " + f + "uses the named backreference \\k<q> at character 14, which RE2 (Go's regexp) cannot express"},
		{`^a{1001}$`, "BQ035: " + f + "uses the count {1001} at character 3, which is above 1000, the largest count RE2 (Go's regexp) accepts"},
		{`(?i)^a$`, "BQ035: " + notECMA + "the group syntax (?i) at character 1 is not ECMA-262 (Node 20 has no inline flags or modifiers)"},
		{`\Aa\z`, "BQ035: " + notECMA + "the escape \\A at character 1 is not an escape ECMA-262 knows with the u flag"},
		{`^a{,3}$`, "BQ035: " + notECMA + "a lone { at character 3"},
		{`^\p{Greek}$`, "BQ035: " + notECMA + "\\p{Greek} at character 2 is not a Unicode property ECMA-262 knows"},
		{`^\p{Lu}[a-z]+$`, "BQ039: " + f + "uses the Unicode property escape \\p{Lu} (character 2), which each validator matches by its own Unicode tables: " + ecmare.UnicodeVersionNote()},
		{`^é\p{Script=Greek}+$`, "BQ039: " + f + "uses the Unicode property escape \\p{Script=Greek} (character 3), which each validator matches by its own Unicode tables: " + ecmare.UnicodeVersionNote()},
	} {
		got := patternDiags(t, c.p)
		if c.want == "" && len(got) != 0 || c.want != "" && (len(got) != 1 || got[0] != c.want) {
			t.Errorf("%s:\n got %q\nwant %q", c.p, got, c.want)
		}
	}
}

// TestPatternExamples: examples are matched by the translation (BQ034), so an example
// with an ideographic space fails `\S` as it fails in ajv, and a no-break space passes
// `.`.
func TestPatternExamples(t *testing.T) {
	t.Parallel()
	src := "version: 1\nmessages:\n  urn:babel:orders:created:\n    data:\n      properties:\n" +
		"        x: {type: string, pattern: \"^.+$\", examples: [\"a\\u00a0b\"]}\n" +
		"        y: {type: string, pattern: \"^\\\\S+$\", examples: [\"a\\u3000b\"]}\n"
	_, ds, err := LoadFiles(context.Background(), map[string][]byte{"f.yaml": []byte(src)})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range ds {
		got = append(got, d.Rule+": "+d.Message)
	}
	want := `BQ034: example 1 of field "y" is invalid: $: "a\u3000b" does not match the pattern "^\\S+$"`
	if len(got) != 1 || got[0] != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}
