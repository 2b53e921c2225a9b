package importer

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/babelqueue/bqgen/registry"
)

// TestECMAPatterns: draft-07 patterns are ECMA-262 (docs/patterns.md); import copies
// them unchanged and the check of the result accepts them (no BQ035), with BQ039 only
// for the Unicode property escape.
func TestECMAPatterns(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "registry.json"), `{"schemas": [{"urn": "urn:babel:t:happened", "schema": "s.json", "owner": "t"}]}`)
	write(t, filepath.Join(dir, "s.json"), `{"type": "object", "properties": {
		"line": {"type": "string", "pattern": "^.{1,50}$"},
		"token": {"type": "string", "pattern": "^\\S+$"},
		"email": {"type": "string", "pattern": "^[^\\s@]+@[^\\s@]+$"},
		"emoji": {"type": "string", "pattern": "^\\u{1F600}$"},
		"name": {"type": "string", "pattern": "^\\p{Lu}"}}}`)
	res, err := BQSchema(filepath.Join(dir, "registry.json"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, is := range res.Issues {
		t.Errorf("issue: %s", is)
	}
	reg, diags, err := registry.LoadFiles(context.Background(), map[string][]byte{"imported.yaml": res.YAML})
	if err != nil || reg == nil {
		t.Fatal(err, diags)
	}
	var got []string
	for _, p := range reg.Messages[0].Data.Properties {
		got = append(got, p.Name+" "+p.Schema.Pattern)
	}
	if want := `line ^.{1,50}$|token ^\S+$|email ^[^\s@]+@[^\s@]+$|emoji ^\u{1F600}$|name ^\p{Lu}`; strings.Join(got, "|") != want {
		t.Errorf("patterns after import: %s\nwant %s", strings.Join(got, "|"), want)
	}
	if len(diags) != 1 || diags[0].Rule != registry.RuleUnicodeProperty {
		t.Errorf("check of the import: %v; want one BQ039", diags)
	}
}
