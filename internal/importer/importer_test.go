package importer

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/babelqueue/bqgen/internal/emit/jsonschema"
	"github.com/babelqueue/bqgen/registry"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./internal/importer -update writes it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (go test ./internal/importer -update rewrites it):\n--- got\n%s--- want\n%s", path, got, want)
	}
}

// TestBQSchemaExample converts a registry shaped like babelqueue-registry's own
// examples (the bqschema README's orders-created.json with its float amount, its
// users-registered.json with GDPR marks) plus schemas with hints, definitions and
// constructs bqgen cannot express, then runs bqgen's checks on the result.
func TestBQSchemaExample(t *testing.T) {
	res, err := BQSchema("testdata/bqschema/registry.json", Options{})
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "testdata/bqschema.golden.yaml", res.YAML)
	var issues strings.Builder
	for _, is := range res.Issues {
		issues.WriteString(is.String() + "\n")
		if is.Hint != "" {
			issues.WriteString("    hint: " + is.Hint + "\n")
		}
	}
	golden(t, "testdata/bqschema.issues.golden", []byte(issues.String()))
	if !res.HasErrors() || res.Messages != 4 || res.Types != 1 {
		t.Errorf("HasErrors %v, %d messages, %d types; want true, 4, 1", res.HasErrors(), res.Messages, res.Types)
	}

	// The output, gaps included, is a registry bqgen reads; its rule findings are the
	// ones the source schemas deserve (BQ020 on the float amount, with the money fix).
	_, diags, err := registry.LoadFiles(context.Background(), map[string][]byte{"registry.yaml": res.YAML})
	if err != nil {
		t.Fatal(err)
	}
	// Positions and rule ids only: the rules' wording belongs to the registry package.
	var check strings.Builder
	for _, d := range diags {
		fmt.Fprintf(&check, "%s: %s %s\n", d.Pos, d.Severity, d.Rule)
	}
	golden(t, "testdata/bqschema.check.golden", []byte(check.String()))
	found := false
	for _, d := range diags {
		if d.Rule == registry.RuleMoneyFloat && strings.Contains(d.Message, `"amount"`) && strings.Contains(d.Hint, "type: money") {
			found = true
		}
	}
	if !found {
		t.Errorf("no BQ020 on the float amount with the money fix:\n%s", check.String())
	}

	// Deterministic.
	again, err := BQSchema("testdata/bqschema/registry.json", Options{})
	if err != nil || !bytes.Equal(again.YAML, res.YAML) {
		t.Errorf("second run differs (err %v)", err)
	}
}

// convertOne imports a one-message registry whose data has one property "f" with the
// given schema, and returns the line of f in the output and the issues.
func convertOne(t *testing.T, field string) (string, []Issue) {
	t.Helper()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "registry.json"), `{"schemas": [{"urn": "urn:babel:t:happened", "schema": "s.json", "owner": "t"}]}`)
	write(t, filepath.Join(dir, "s.json"), `{"type": "object", "properties": {"f": `+field+`}, "definitions": {"thing": {"type": "object", "properties": {"a": {"type": "string"}}}, "Other": {"type": "integer", "minimum": 0}}}`)
	res, err := BQSchema(filepath.Join(dir, "registry.json"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(res.YAML), "\n") {
		if strings.HasPrefix(line, "        f:") {
			return strings.TrimSpace(strings.TrimPrefix(line, "        f:")), res.Issues
		}
	}
	return "", res.Issues
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestFieldMapping(t *testing.T) {
	cases := []struct {
		name, schema, want string
	}{
		{"string", `{"type": "string", "minLength": 1, "maxLength": 5, "pattern": "^a", "format": "email"}`, `{type: string, format: email, minLength: 1, maxLength: 5, pattern: ^a}`},
		{"format narrowing", `{"type": "string", "format": "email", "maxLength": 254, "pattern": ` + quoteJSON(jsonschema.EmailPattern) + `}`, `{type: string, format: email}`},
		{"format narrowing beside a pattern", `{"type": "string", "format": "uri", "pattern": "^https:", "allOf": [{"pattern": ` + quoteJSON(jsonschema.URIPattern) + `}]}`, `{type: string, format: uri, pattern: '^https:'}`},
		{"enum without type", `{"enum": ["a", "b"]}`, `{type: string, enum: [a, b]}`},
		{"enum with null", `{"enum": ["a", null]}`, `{type: string, enum: [a], nullable: true}`},
		{"integer enum", `{"type": "integer", "enum": [1, 2.0, 2.5]}`, `{type: integer, enum: [1, 2]}`},
		{"const", `{"const": 3}`, `{type: integer, enum: [3]}`},
		{"nullable type", `{"type": ["integer", "null"], "minimum": 1}`, `{type: integer, minimum: 1, nullable: true}`},
		{"integer or number", `{"type": ["integer", "number"]}`, `{type: number}`},
		{"integer bounds exact", `{"type": "integer", "minimum": 0.5, "exclusiveMaximum": 10.5}`, `{type: integer, minimum: 1, maximum: 10}`},
		{"integer 1e3", `{"type": "integer", "maximum": 1e3}`, `{type: integer, maximum: 1000}`},
		{"int64 range implied", `{"type": "integer", "minimum": -9223372036854775808, "maximum": 9223372036854775807}`, `{type: integer}`},
		{"int32 range", `{"type": "integer", "minimum": -2147483648, "maximum": 2147483647}`, `{type: integer, format: int32}`},
		{"int32 format", `{"type": "integer", "format": "int32", "minimum": 0}`, `{type: integer, format: int32, minimum: 0}`},
		{"number", `{"type": "number", "exclusiveMinimum": 0, "maximum": 1.5}`, `{type: number, exclusiveMinimum: 0, maximum: 1.5}`},
		{"boolean", `{"type": "boolean", "description": "On?"}`, `{type: boolean, description: 'On?'}`},
		{"map", `{"type": "object", "additionalProperties": {"type": "integer"}}`, ""},
		{"array", `{"type": "array", "items": {"type": "string"}, "minItems": 1, "uniqueItems": true}`, ""},
		{"ref", `{"$ref": "#/definitions/thing", "description": "A thing."}`, `{type: Thing, description: A thing.}`},
		{"nullable ref", `{"anyOf": [{"type": "null"}, {"$ref": "#/definitions/Other"}]}`, `{type: Other, nullable: true}`},
		{"oneOf null", `{"oneOf": [{"type": "string"}, {"type": "null"}]}`, `{type: string, nullable: true}`},
		{"allOf ref", `{"allOf": [{"$ref": "#/definitions/thing"}], "deprecated": true, "x-deprecated-reason": "Gone."}`, `{type: Thing, deprecated: Gone.}`},
		{"money hint", `{"x-babel-type": "money", "type": ["object", "null"], "properties": {"amount": {"type": "integer"}}}`, `{type: money, nullable: true}`},
		{"timestamp hint", `{"x-babel-type": "timestamp", "type": "integer", "minimum": -8640000000000000, "maximum": 8640000000000000}`, `{type: timestamp}`},
		{"uuid hint", `{"x-babel-type": "uuid", "type": "string", "format": "uuid", "pattern": "x"}`, `{type: uuid}`},
		{"integer-string", `{"x-babel-type": "integer-string", "type": "string", "pattern": "` + jsonschema.IntRangePattern(1, 500) + `"}`, `{type: integer, encoding: string, minimum: 1, maximum: 500}`},
		{"integer-string int64", `{"x-babel-type": "integer-string", "type": "string", "pattern": "` + jsonschema.IntRangePattern(math.MinInt64, math.MaxInt64) + `"}`, `{type: integer, encoding: string}`},
		{"gdpr and examples", `{"type": "string", "x-gdpr-sensitive": "contact", "examples": ["a@b.c"]}`, `{type: string, x-gdpr-sensitive: contact, examples: [a@b.c]}`},
		{"title as description", `{"type": "string", "title": "Name"}`, `{type: string, description: Name}`},
		{"quoted strings", `{"type": "string", "enum": ["yes", "1", "null", "a: b"]}`, `{type: string, enum: ["yes", "1", "null", 'a: b']}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, issues := convertOne(t, c.schema)
			for _, is := range issues {
				if is.Severity == SeverityError {
					t.Errorf("unexpected issue %s", is)
				}
			}
			if c.want != "" && got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

func TestUnconvertible(t *testing.T) {
	cases := []struct {
		name, schema, pointer, severity string
	}{
		{"oneOf", `{"oneOf": [{"type": "string"}, {"type": "integer"}]}`, "/properties/f/oneOf", SeverityError},
		{"anyOf", `{"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]}`, "/properties/f/anyOf", SeverityError},
		{"allOf", `{"allOf": [{"type": "object"}, {"required": ["a"]}]}`, "/properties/f/allOf", SeverityError},
		{"if", `{"type": "string", "if": {"minLength": 1}, "then": {"pattern": "a"}}`, "/properties/f/if", SeverityError},
		{"const object", `{"type": "object", "const": {"a": 1}}`, "/properties/f/const", SeverityError},
		{"patternProperties", `{"type": "object", "patternProperties": {"^a": {"type": "string"}}}`, "/properties/f/patternProperties", SeverityError},
		{"default", `{"type": "string", "default": "x"}`, "/properties/f/default", SeverityError},
		{"tuple", `{"type": "array", "items": [{"type": "string"}]}`, "/properties/f/items", SeverityError},
		{"no items", `{"type": "array"}`, "/properties/f", SeverityError},
		{"type union", `{"type": ["string", "integer"]}`, "/properties/f/type", SeverityError},
		{"any", `{}`, "/properties/f", SeverityError},
		{"only null", `{"type": "null"}`, "/properties/f/type", SeverityError},
		{"remote ref", `{"$ref": "other.json#/definitions/x"}`, "/properties/f/$ref", SeverityError},
		{"missing def", `{"$ref": "#/definitions/nope"}`, "/properties/f/$ref", SeverityError},
		{"multipleOf", `{"type": "integer", "multipleOf": 5}`, "/properties/f/multipleOf", SeverityError},
		{"format", `{"type": "string", "format": "hostname"}`, "/properties/f/format", SeverityError},
		{"draft-04 exclusive", `{"type": "number", "minimum": 0, "exclusiveMinimum": true}`, "/properties/f/exclusiveMinimum", SeverityError},
		{"map beside properties", `{"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": {"type": "string"}}`, "/properties/f/additionalProperties", SeverityError},
		{"unknown keyword", `{"type": "string", "maxlength": 3}`, "/properties/f/maxlength", SeverityError},
		{"mixed enum", `{"enum": ["a", 1]}`, "/properties/f/enum", SeverityError},
		{"nested", `{"type": "object", "properties": {"g": {"type": "array", "items": {"not": {"type": "string"}}}}}`, "/properties/f/properties/g/items/not", SeverityError},
		{"extension", `{"type": "string", "x-team": "a"}`, "/properties/f/x-team", SeverityWarning},
		{"wrong-type keyword", `{"type": "integer", "maxLength": 3}`, "/properties/f/maxLength", SeverityWarning},
		{"readOnly", `{"type": "integer", "readOnly": true}`, "/properties/f/readOnly", SeverityWarning},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, issues := convertOne(t, c.schema)
			var found bool
			for _, is := range issues {
				if is.Pointer == c.pointer && is.Severity == c.severity && strings.HasSuffix(is.File, "s.json") && is.Line > 0 {
					found = true
				}
			}
			if !found {
				t.Errorf("want a %s at %s; issues: %v", c.severity, c.pointer, issues)
			}
		})
	}
}

// TestNeverSilent: for a schema with an unconvertible construct, the output names the
// gap in a comment and still loads as a registry.
func TestNeverSilent(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "registry.json"), `{"schemas": [{"urn": "urn:babel:t:happened", "schema": "s.json"}]}`)
	write(t, filepath.Join(dir, "s.json"), `{"type": "object", "required": ["a", "b"], "properties": {"a": {"oneOf": [{"type": "string"}, {"type": "integer"}]}, "b": {"type": "string"}}}`)
	res, err := BQSchema(filepath.Join(dir, "registry.json"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !res.HasErrors() || !bytes.Contains(res.YAML, []byte("# bqgen import: not converted")) || !bytes.Contains(res.YAML, []byte("#/properties/a/oneOf")) {
		t.Errorf("gap not marked:\n%s", res.YAML)
	}
	_, diags, err := registry.LoadFiles(context.Background(), map[string][]byte{"r.yaml": res.YAML})
	if err != nil || diags.HasErrors() {
		t.Errorf("output does not load: %v %v\n%s", err, diags, res.YAML)
	}
}

func TestManifestProblems(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "registry.json"), `{"schemas": [
  {"urn": "urn:babel:t:a", "schema": "missing.json"},
  {"urn": "urn:babel:t:b", "schema": "bad.json"},
  {"urn": "urn:babel:t:b", "schema": "bad.json"},
  {"urn": "urn:babel:t:c"}
]}`)
	write(t, filepath.Join(dir, "bad.json"), "{\"type\": \"object\",\n \"type\": \"object\"}")
	res, err := BQSchema(filepath.Join(dir, "registry.json"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, is := range res.Issues {
		got = append(got, filepath.Base(is.File)+" "+is.Pointer+" "+is.Message)
	}
	want := []string{"bad.json  not valid JSON: duplicate key \"type\"", "registry.json /schemas/0/schema urn:babel:t:a: schema file", "registry.json /schemas/2/urn URN \"urn:babel:t:b\" is declared twice", "registry.json /schemas/3 a manifest entry needs"}
	if len(got) != len(want) {
		t.Fatalf("issues:\n%s", strings.Join(got, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("issue %d = %q, want prefix %q", i, got[i], want[i])
		}
	}
	if _, err := BQSchema(filepath.Join(dir, "nope.json"), Options{}); err == nil {
		t.Error("missing manifest: no error")
	}
}

// TestRoundTrip: bqgen jsonschema's own manifest imports back to a registry whose data
// schemas are byte-identical, so a team can move between the two formats.
func TestRoundTrip(t *testing.T) {
	ctx := context.Background()
	reg, diags, err := registry.Load(ctx, "../../examples/registry.yaml")
	if err != nil || reg == nil {
		t.Fatal(err, diags)
	}
	files, err := jsonschema.Emit(reg, jsonschema.Options{Draft: jsonschema.Draft7})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range files {
		write(t, filepath.Join(dir, f.Name), string(f.Content))
	}
	res, err := BQSchema(filepath.Join(dir, jsonschema.RegistryFile), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, is := range res.Issues {
		t.Errorf("issue: %s", is)
	}
	reg2, diags, err := registry.LoadFiles(ctx, map[string][]byte{"imported.yaml": res.YAML})
	if err != nil || reg2 == nil {
		t.Fatalf("%v %v\n%s", err, diags, res.YAML)
	}
	files2, err := jsonschema.Emit(reg2, jsonschema.Options{Draft: jsonschema.Draft7})
	if err != nil {
		t.Fatal(err)
	}
	if len(files2) != len(files) {
		t.Fatalf("%d files, want %d", len(files2), len(files))
	}
	for i, f := range files {
		if strings.HasSuffix(f.Name, ".data.schema.json") && !bytes.Equal(f.Content, files2[i].Content) {
			t.Errorf("%s differs after the round trip:\n--- got\n%s\n--- want\n%s", f.Name, files2[i].Content, f.Content)
		}
	}
}

func TestParseJSON(t *testing.T) {
	v, err := parseJSON([]byte("{\n  \"b\": 1,\n  \"a\": [true, null, \"x\", 1e400]\n}"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(v.keys, ",") != "b,a" || v.vals[1].line != 3 || v.vals[1].col != 8 || v.vals[1].elems[3].str != "1e400" {
		t.Errorf("parsed %+v", v)
	}
	for _, bad := range []string{`{"a": 1, "a": 2}`, `{"a": 1} x`, `{"a": }`, `[1,`, strings.Repeat("[", 200) + strings.Repeat("]", 200)} {
		if _, err := parseJSON([]byte(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestRangeOfPattern(t *testing.T) {
	for _, r := range [][2]int64{{0, 0}, {1, 500}, {-20, 7}, {1000, 2000}, {math.MinInt64, -5}, {123456789, math.MaxInt64}, {math.MinInt32, math.MaxInt32}} {
		lo, hi, ok := rangeOfPattern(jsonschema.IntRangePattern(r[0], r[1]))
		if !ok || lo != r[0] || hi != r[1] {
			t.Errorf("%v: got %d, %d, %v", r, lo, hi, ok)
		}
	}
	if _, _, ok := rangeOfPattern("^[0-9]+$"); ok {
		t.Error("a non-range pattern was read as a range")
	}
}

func TestTypeName(t *testing.T) {
	for in, want := range map[string]string{"address": "Address", "line-item": "LineItem", "Money_v2": "MoneyV2", "3d": "T3d"} {
		if got := typeName(in); got != want {
			t.Errorf("typeName(%q) = %q, want %q", in, got, want)
		}
	}
}

func quoteJSON(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// TestHugeNumbers: number literals are read exactly at a cost linear in their length
// (issue 16, item 5: "minimum": 1.5e999999 became a million-digit integer). A bound
// beyond int64 or the doubles on the side the type already closes is dropped; one that
// leaves no value, an enum value no field value can equal, a count beyond int64 and a
// literal longer than the registry reads are errors.
func TestHugeNumbers(t *testing.T) {
	long := "1." + strings.Repeat("0", 1_000_000)
	digits1001 := "0." + strings.Repeat("3", 1000)
	cases := []struct {
		name, schema, want string
		errs               []string // pointer: message prefix
	}{
		{"integer minimum above int64", `{"type": "integer", "minimum": 1.5e999999}`, `{type: integer}`,
			[]string{"/properties/f/minimum: minimum 1.5e999999 is above the int64 range of a bqgen integer: no value satisfies it"}},
		{"integer exclusiveMaximum below int64", `{"type": "integer", "exclusiveMaximum": -1e400}`, `{type: integer}`,
			[]string{"/properties/f/exclusiveMaximum: exclusiveMaximum -1e400 is below the int64 range"}},
		{"integer bounds the type implies", `{"type": "integer", "minimum": -1e999999, "maximum": 1.5e999999, "exclusiveMaximum": 9223372036854775808}`, `{type: integer}`, nil},
		{"integer bound spelled long", `{"type": "integer", "minimum": ` + long + `, "exclusiveMaximum": 10.` + strings.Repeat("0", 1000) + `1}`, `{type: integer, minimum: 1, maximum: 10}`, nil},
		{"integer bound 2^63", `{"type": "integer", "minimum": 9223372036854775808}`, `{type: integer}`,
			[]string{"/properties/f/minimum: minimum 9223372036854775808 is above the int64 range"}},
		{"integer enum beyond int64", `{"type": "integer", "enum": [1, 1e999999, 1.5]}`, `{type: integer, enum: [1]}`,
			[]string{"/properties/f/enum: enum value 1e999999 is outside the int64 range of a bqgen integer"}},
		{"number minimum beyond the doubles", `{"type": "number", "minimum": 1e999999}`, `{type: number}`,
			[]string{"/properties/f/minimum: minimum 1e999999 is beyond the range of a double: no number satisfies it"}},
		{"number bounds every double satisfies", `{"type": "number", "minimum": -1.5e999999, "exclusiveMaximum": 1e400}`, `{type: number}`, nil},
		{"number bound too long", `{"type": "number", "maximum": ` + digits1001 + `}`, `{type: number}`,
			[]string{"/properties/f/maximum: maximum is a number literal of 1002 characters; a registry reads at most 1000"}},
		{"number enum beyond the doubles", `{"type": "number", "enum": [0.5, 1e400]}`, `{type: number, enum: [0.5]}`,
			[]string{"/properties/f/enum: enum value 1e400 is beyond the range of a double"}},
		{"count beyond int64", `{"type": "string", "maxLength": 1e999999}`, `{type: string}`,
			[]string{"/properties/f/maxLength: maxLength must be a non-negative integer within int64"}},
		// The digits are kept; the exponent gains a sign, which YAML 1.1 readers need to
		// read a float (internal/yamlsafe).
		{"kept as written", `{"type": "number", "minimum": 1.5e300, "maximum": 1.7976931348623157e308}`, `{type: number, minimum: 1.5e+300, maximum: 1.7976931348623157e+308}`, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, issues := convertOne(t, c.schema)
			if got != c.want {
				t.Errorf("f: %s, want %s", got, c.want)
			}
			var errs []string
			for _, is := range issues {
				if is.Severity == SeverityError {
					errs = append(errs, is.Pointer+": "+is.Message)
				}
			}
			if len(errs) != len(c.errs) {
				t.Fatalf("errors %q, want %q", errs, c.errs)
			}
			for i := range errs {
				if !strings.HasPrefix(errs[i], c.errs[i]) {
					t.Errorf("error %q, want %q…", errs[i], c.errs[i])
				}
			}
		})
	}
}

// TestHugeNumbersSize: 50 integer bounds of 1.5e999999 give a small registry (it was a
// 50 MB file, 9.6 s).
func TestHugeNumbersSize(t *testing.T) {
	dir := t.TempDir()
	var props []string
	for i := range 50 {
		props = append(props, fmt.Sprintf(`"f%d": {"type": "integer", "maximum": 1.5e999999, "minimum": -1.5e999999}`, i))
	}
	write(t, filepath.Join(dir, "registry.json"), `{"schemas": [{"urn": "urn:babel:t:happened", "schema": "s.json", "owner": "t"}]}`)
	write(t, filepath.Join(dir, "s.json"), `{"type": "object", "properties": {`+strings.Join(props, ", ")+`}}`)
	res, err := BQSchema(filepath.Join(dir, "registry.json"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.YAML) > 4096 || res.HasErrors() || strings.Count(string(res.YAML), "{type: integer}") != 50 {
		t.Errorf("%d bytes, errors %v:\n%.2000s", len(res.YAML), res.HasErrors(), res.YAML)
	}
}
