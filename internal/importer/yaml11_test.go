package importer

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/babelqueue/bqgen/internal/engines"
)

// TestPyYAMLReadsTheImport: the registry `bqgen import` writes reads the same in
// PyYAML (YAML 1.1) as in yaml.v3 (YAML 1.2): keys, enum values and texts spelled like
// YAML 1.1 booleans, numbers, timestamps and null are quoted (issue 19, item 4).
func TestPyYAMLReadsTheImport(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "registry.json"), `{"schemas": [{"urn": "urn:babel:t:happened", "schema": "s.json", "owner": "on"}]}`)
	write(t, filepath.Join(dir, "s.json"), `{"type": "object", "description": "yes", "properties": {
		"no": {"type": "string", "enum": ["on", "off", "no", "y", "Yes", "N", "~", "null", "1:30", "0777", "0x1F", "0b11", "1_000", "1e5", ".inf", ".NaN", "2001-12-14", "<<", "=", ""]},
		"on": {"type": "string", "description": "1:30", "examples": ["Off", "2001-12-14 21:59:43.10 -5"]},
		"y": {"type": "number", "maximum": 1e300, "minimum": -0.5},
		"off": {"type": "integer", "minimum": 0, "maximum": 1000}}}`)
	res, err := BQSchema(filepath.Join(dir, "registry.json"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := engines.YAMLv3(t, res.YAML)
	if got := engines.PyYAML(t, []string{string(res.YAML)}); !reflect.DeepEqual(got[0], want) {
		g, _ := json.Marshal(got[0])
		w, _ := json.Marshal(want)
		t.Errorf("PyYAML reads the import otherwise:\n%s\nyaml.v3: %s\nPyYAML:  %s", res.YAML, w, g)
	}
}

// TestFinalNewlineGuard: bqgen's final-newline sibling is read back where the pattern
// implies it (the registry gets the pattern alone, and emitting it writes the sibling
// again); beside a pattern that accepts a final newline it changes the meaning, and
// stays an error like any other `not`.
func TestFinalNewlineGuard(t *testing.T) {
	got, issues := convertOne(t, `{"type": "string", "pattern": "^[A-Z]{2}$", "not": {"type": "string", "pattern": "\\n$"}}`)
	if got != `{type: string, pattern: '^[A-Z]{2}$'}` || len(issues) != 0 {
		t.Errorf("implied guard: %s %v", got, issues)
	}
	got, issues = convertOne(t, `{"type": "string", "pattern": "^[^,]*$", "not": {"type": "string", "pattern": "\\n$"}}`)
	if len(issues) != 1 || !strings.Contains(issues[0].Message, "not cannot be expressed") {
		t.Errorf("a guard the pattern does not imply: %s %v", got, issues)
	}
}
