package cli

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/babelqueue/bqgen/internal/gomodtest"
	"github.com/babelqueue/bqgen/internal/model"
	"github.com/babelqueue/bqgen/registry"
)

// Text that reaches generated output (issue 7, item 3): testdata/hostile/text.yaml holds
// comment closers, line comments, backquotes, quotes, backslashes, newlines, Markdown,
// HTML and template syntax in descriptions, summaries, enum values and examples. Every
// output must say exactly what the registry said, escaped for its format. (Control and
// bidi characters never get this far: BQ036, tested in registry.)

const hostileRegistry = "../../testdata/hostile/text.yaml"

func loadHostile(t *testing.T) *model.Registry {
	t.Helper()
	reg, ds, err := registry.Load(context.Background(), hostileRegistry)
	if err != nil || reg == nil || len(ds) != 0 {
		t.Fatalf("%s: %v %v", hostileRegistry, err, ds)
	}
	return reg
}

// carries reports whether some string of got contains s.
func carries(got map[string]bool, s string) bool {
	if got[s] {
		return true
	}
	for g := range got {
		if strings.Contains(g, s) {
			return true
		}
	}
	return false
}

// jsonStrings collects every string of a decoded JSON document.
func jsonStrings(v any, into map[string]bool) {
	switch v := v.(type) {
	case string:
		into[v] = true
	case []any:
		for _, x := range v {
			jsonStrings(x, into)
		}
	case map[string]any:
		for k, x := range v {
			into[k] = true
			jsonStrings(x, into)
		}
	}
}

// registryTexts returns the texts of the hostile registry that every output must carry
// verbatim: descriptions, enum values and examples. (A message's description is joined
// to its summary, its final newline trimmed.)
func registryTexts(t *testing.T, reg *model.Registry) []string {
	t.Helper()
	m := reg.Message("urn:babel:hostile:text")
	kind := m.Data.Property("kind").Schema
	texts := []string{strings.TrimSpace(m.Description), kind.Description, reg.Type("Note").Schema.Description,
		reg.Type("Note").Schema.Property("text").Schema.Description}
	for _, v := range kind.Enum {
		texts = append(texts, v.(string))
	}
	for _, v := range m.Data.Property("note").Schema.Examples {
		texts = append(texts, v.(string))
	}
	for _, s := range texts {
		if s == "" {
			t.Fatal("empty text in the hostile registry")
		}
	}
	return texts
}

func TestHostileTextInSchemas(t *testing.T) {
	t.Parallel()
	reg := loadHostile(t)
	texts := registryTexts(t, reg)
	out := t.TempDir()
	if code, _, stderr := run(t, "jsonschema", "-r", hostileRegistry, "-o", out); code != ExitOK {
		t.Fatalf("jsonschema: exit %d\n%s", code, stderr)
	}
	got := map[string]bool{}
	entries, _ := os.ReadDir(out)
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(out, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		jsonStrings(v, got)
	}
	for _, s := range texts {
		if !carries(got, s) {
			t.Errorf("JSON Schemas do not carry %q verbatim", s)
		}
	}
	// The summary leads the message's description.
	found := false
	for s := range got {
		if strings.HasPrefix(s, reg.Message("urn:babel:hostile:text").Summary) {
			found = true
		}
	}
	if !found {
		t.Errorf("JSON Schemas do not carry the summary")
	}
}

func TestHostileTextInAsyncAPI(t *testing.T) {
	t.Parallel()
	reg := loadHostile(t)
	texts := append(registryTexts(t, reg), reg.Message("urn:babel:hostile:text").Summary)
	for _, name := range []string{"asyncapi.json", "asyncapi.yaml"} {
		out := filepath.Join(t.TempDir(), name)
		if code, _, stderr := run(t, "asyncapi", "-r", hostileRegistry, "-o", out); code != ExitOK {
			t.Fatalf("asyncapi: exit %d\n%s", code, stderr)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		var v any
		if err := yaml.Unmarshal(b, &v); err != nil { // JSON is YAML
			t.Fatal(err)
		}
		got := map[string]bool{}
		jsonStrings(v, got)
		for _, s := range texts {
			if !carries(got, s) {
				t.Errorf("%s does not carry %q verbatim", name, s)
			}
		}
	}
}

// TestHostileTextInDiffReports: property names and texts with newlines, backquotes,
// Markdown and HTML cannot break a report's lines or inject Markdown.
func TestHostileTextInDiffReports(t *testing.T) {
	t.Parallel()
	args := []string{"-r", "../../testdata/hostile/diff-new.yaml", "--against", "../../testdata/hostile/diff-old.yaml"}
	_, text, _ := runCommandDirect(t, diffCommand(), "", args...)
	_, md, _ := runCommandDirect(t, diffCommand(), "", append(args, "--format", "markdown")...)
	_, gh, _ := runCommandDirect(t, diffCommand(), "", append(args, "--format", "github")...)
	_, js, _ := runCommandDirect(t, diffCommand(), "", append(args, "--format", "json")...)

	// Text: every line is a finding (file:line:col:), a remedy, or the summary.
	for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if !strings.HasPrefix(line, "../../testdata/hostile/") && !strings.HasPrefix(line, "    remedy: ") && !strings.HasPrefix(line, "    hint: ") &&
			!strings.HasPrefix(line, "    reaches: ") && !strings.HasPrefix(line, "backward: ") {
			t.Errorf("text: a line that is no finding: %q", line)
		}
	}
	if !strings.Contains(text, `$["weird `+"`key`"+`\n# Heading <b>bold</b> | cell"]: optional property removed`) {
		t.Errorf("text: the odd property name is not in bracket form:\n%s", text)
	}
	// GitHub: one annotation per line.
	for _, line := range strings.Split(strings.TrimSuffix(gh, "\n"), "\n") {
		if !strings.HasPrefix(line, "::") {
			t.Errorf("github: a line that is no annotation: %q", line)
		}
	}
	// Markdown: only the template's own line shapes; registry text is in code spans or
	// escaped.
	prefixes := []string{"### ", "#### Named type `", "#### Bounded context `", "##### `", "Reaches ", "Uses named type `", "Changed only through named types:", "> **Note:** ",
		"| ", "|---", "- **", "  - ", "**Fix:** ", "<details><summary>", "</details>", "<sub>"}
	for _, line := range strings.Split(md, "\n") {
		ok := line == ""
		for _, p := range prefixes {
			ok = ok || strings.HasPrefix(line, p)
		}
		if !ok {
			t.Errorf("markdown: injected line %q", line)
		}
	}
	if !strings.Contains(md, `keep "weird `+"`key`"+`\\n\# Heading \<b\>bold\</b\> \| cell"`) {
		t.Errorf("markdown: prose not escaped:\n%s", md)
	}
	var v any
	if err := json.Unmarshal([]byte(js), &v); err != nil {
		t.Errorf("json: %v", err)
	}
}

// TestHostileTextGeneratesGo: the generated Go package compiles and passes go vet. (The
// Go emitter's own tests check that the comments and literals say what the registry
// said.)
func TestHostileTextGeneratesGo(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go vet; skipped with -short")
	}
	t.Parallel()
	dir := moduleDir(t)
	out := filepath.Join(dir, "hostile")
	if code, _, stderr := run(t, "generate", "-r", hostileRegistry, "-o", out); code != ExitOK {
		t.Fatalf("generate: exit %d\n%s", code, stderr)
	}
	cmd := exec.Command(gomodtest.GoTool(t), "vet", "./...")
	cmd.Dir = dir
	cmd.Env = gomodtest.Env()
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go vet: %v\n%s", err, b)
	}
	// The root package is "hostile" (the directory's name), so the context
	// "hostile" gets the package hostilepkg.
	src, err := os.ReadFile(filepath.Join(out, "hostilepkg", "hostilepkg.go"))
	if err != nil {
		t.Fatal(err)
	}
	// Enum values are Go string literals, byte for byte.
	for _, v := range loadHostile(t).Message("urn:babel:hostile:text").Data.Property("kind").Schema.Enum {
		if !strings.Contains(string(src), strconv.Quote(v.(string))) {
			t.Errorf("hostilepkg.go lacks the literal %s", strconv.Quote(v.(string)))
		}
	}
}
