package importer

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestRefFragments: a $ref fragment is read as RFC 6901 §6 says — percent-decoded
// first (a URI fragment), then ~1 and ~0 unescaped in each token — so every spelling
// of a definition's pointer names it, and one definition is one type whatever the
// spelling (issue 20, item 19).
func TestRefFragments(t *testing.T) {
	t.Parallel()
	defs := `"definitions": {"shelf unit": {"type": "string", "maxLength": 9}, "a/b": {"type": "integer", "minimum": 0}, "m~n": {"type": "boolean"}, "100%": {"type": "number", "minimum": 0}}`
	cases := []struct{ ref, want string }{
		{"#/definitions/shelf%20unit", "ShelfUnit"},
		{"#/definitions/shelf unit", "ShelfUnit"},
		{"#/definitions/shelf%20un%69t", "ShelfUnit"},
		{"#/definitions/a~1b", "AB"},
		{"#/definitions/m~0n", "MN"},
		{"#/definitions/m%7E0n", "MN"}, // %7E is ~: decoded first, then read as the escape ~0
		{"#/definitions/100%25", "T100"},
		{"#%2Fdefinitions%2Fshelf%20unit", "ShelfUnit"}, // %2F is /: decoded before the pointer is split
	}
	props := make([]string, len(cases))
	for i, c := range cases {
		props[i] = `"f` + string(rune('a'+i)) + `": {"$ref": ` + quoteJSON(c.ref) + `}`
	}
	dir := t.TempDir()
	write(t, filepath.Join(dir, "registry.json"), `{"schemas": [{"urn": "urn:babel:t:happened", "schema": "s.json", "owner": "t"}]}`)
	write(t, filepath.Join(dir, "s.json"), `{"type": "object", "properties": {`+strings.Join(props, ", ")+`}, `+defs+`}`)
	res, err := BQSchema(filepath.Join(dir, "registry.json"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, is := range res.Issues {
		t.Errorf("unexpected issue %s", is)
	}
	out := string(res.YAML)
	for i, c := range cases {
		want := "        f" + string(rune('a'+i)) + ": {type: " + c.want + "}\n"
		if !strings.Contains(out, want) {
			t.Errorf("$ref %q: no %q in\n%s", c.ref, strings.TrimSpace(want), out)
		}
	}
	for _, name := range []string{"ShelfUnit", "AB", "MN", "T100"} {
		if n := strings.Count(out, "\n  "+name+":"); n != 1 {
			t.Errorf("type %s declared %d times, want once:\n%s", name, n, out)
		}
	}
}

// TestRefFragmentErrors: a malformed $ref fragment is an error Issue at the $ref
// (file, line, column, JSON pointer) that names the bad escape and gives the fix, also
// for the $ref of a data schema's root.
func TestRefFragmentErrors(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, ref, msg, hint string }{
		{"percent-escape with one digit", "#/definitions/shelf%2unit",
			`$ref "#/definitions/shelf%2unit": the fragment has the bad percent-escape "%2u"`, "a space is %20"},
		{"percent-escape at the end", "#/definitions/shelf%",
			`$ref "#/definitions/shelf%": the fragment has the bad percent-escape "%"`, "% itself is %25"},
		{"percent-escapes not UTF-8", "#/definitions/%FF",
			`$ref "#/definitions/%FF": the fragment's percent-escapes decode to bytes that are not UTF-8`, "%C3%BC"},
		{"tilde escape ~2", "#/definitions/a~2b",
			`$ref "#/definitions/a~2b": "~2" in the JSON Pointer "/definitions/a~2b" is not an escape (RFC 6901 has ~0 and ~1 only)`, "write ~ as ~0 and / as ~1"},
		{"tilde at the end", "#/definitions/a~",
			`$ref "#/definitions/a~": "~" in the JSON Pointer "/definitions/a~" is not an escape (RFC 6901 has ~0 and ~1 only)`, "write ~ as ~0"},
		{"tilde after decoding", "#/definitions/a%7E",
			`$ref "#/definitions/a%7E": "~" in the JSON Pointer "/definitions/a~" is not an escape (RFC 6901 has ~0 and ~1 only)`, "write ~ as ~0"},
		{"encoded slash splits the token", "#/definitions/a%2Fb",
			`$ref "#/definitions/a%2Fb": cannot be expressed in a bqgen registry`, "only local references"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			for _, root := range []bool{false, true} {
				dir := t.TempDir()
				write(t, filepath.Join(dir, "registry.json"), `{"schemas": [{"urn": "urn:babel:t:happened", "schema": "s.json", "owner": "t"}]}`)
				src := "{\"type\": \"object\",\n \"properties\": {\"f\":\n  {\"$ref\": " + quoteJSON(c.ref) + "}},\n \"definitions\": {\"a/b\": {\"type\": \"object\"}}}"
				line, col, ptr := 3, 12, "/properties/f/$ref"
				if root {
					src = "{\"type\": \"object\",\n \"$ref\": " + quoteJSON(c.ref) + ",\n \"definitions\": {\"a/b\": {\"type\": \"object\"}}}"
					line, col, ptr = 2, 10, "/$ref"
				}
				write(t, filepath.Join(dir, "s.json"), src)
				res, err := BQSchema(filepath.Join(dir, "registry.json"), Options{})
				if err != nil {
					t.Fatal(err)
				}
				if len(res.Issues) != 1 {
					t.Fatalf("root %v: issues %v, want one", root, res.Issues)
				}
				is := res.Issues[0]
				if filepath.Base(is.File) != "s.json" || is.Line != line || is.Column != col || is.Pointer != ptr || is.Severity != SeverityError {
					t.Errorf("root %v: issue at %s:%d:%d #%s (%s), want s.json:%d:%d #%s (error)", root, is.File, is.Line, is.Column, is.Pointer, is.Severity, line, col, ptr)
				}
				if is.Message != c.msg && !strings.HasPrefix(is.Message, c.msg) {
					t.Errorf("root %v: message\n %s\nwant\n %s", root, is.Message, c.msg)
				}
				if !strings.Contains(is.Hint, c.hint) {
					t.Errorf("root %v: hint %q does not say %q", root, is.Hint, c.hint)
				}
			}
		})
	}
}
