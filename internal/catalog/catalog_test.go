package catalog

import (
	"bytes"
	"context"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/babelqueue/bqgen/registry"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden.md")

func render(t *testing.T, files map[string][]byte) []byte {
	t.Helper()
	reg, diags, err := registry.LoadFiles(context.Background(), files)
	if err != nil || reg == nil {
		t.Fatalf("%v %v", err, diags)
	}
	md, err := Render(reg, Options{Source: "examples/registry.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	return md
}

func TestExampleCatalog(t *testing.T) {
	src, err := os.ReadFile("../../examples/registry.yaml")
	if err != nil {
		t.Fatal(err)
	}
	got := render(t, map[string][]byte{"examples/registry.yaml": src})
	const path = "testdata/examples.golden.md"
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./internal/catalog -update writes it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("catalog differs from %s (go test ./internal/catalog -update rewrites it):\n%s", path, got)
	}
	if !IsGenerated(got) {
		t.Error("no generated header")
	}
}

// TestCellsAreEscaped: text with | and line breaks stays inside its table cell.
func TestCellsAreEscaped(t *testing.T) {
	md := render(t, map[string][]byte{"r.yaml": []byte(`version: 1
messages:
  urn:babel:t:happened:
    summary: "Pipes | and\nlines"
    data:
      properties:
        choice: {type: string, enum: ["a|b", "c"], pattern: "^(x|y)$", description: "one | two\nthree"}
        note:
          type: object
          properties:
            inner: {type: string, x-gdpr-sensitive: "contact|email"}
        items:
          type: array
          items: {type: object, properties: {sku: {type: string}}}
        tags: {type: map, values: {type: object, properties: {v: {type: integer, minimum: 0, maximum: 9}}}}
`)})
	for _, want := range []string{
		"| `choice` | string |  |  | pattern `^(x\\|y)$`; one of `a\\|b`, `c` |  | one \\| two<br>three |",
		"| `note.inner` | string |  |  |  | contact\\|email |  |",
		"| `items[].sku` | string |",
		"| `tags.*.v` | integer |  |  | ≥ 0, ≤ 9 |",
		"  - [`urn:babel:t:happened`](#t-happened) — event: Pipes \\| and<br>lines",
	} {
		if !bytes.Contains(md, []byte(want)) {
			t.Errorf("catalog lacks %q:\n%s", want, md)
		}
	}
	for i, line := range strings.Split(string(md), "\n") {
		if strings.HasPrefix(line, "| `") && strings.Count(strings.ReplaceAll(line, `\|`, ""), "|") != 8 {
			t.Errorf("line %d has a broken row: %q", i+1, line)
		}
	}
}

func TestCode(t *testing.T) {
	for in, want := range map[string]string{
		"a":      "`a`",
		"a`b":    "``a`b``",
		"`a":     "`` `a ``",
		"x|y":    "`x\\|y`",
		"l1\nl2": "`l1 l2`",
	} {
		if got := Code(in); got != want {
			t.Errorf("Code(%q) = %q, want %q", in, got, want)
		}
	}
	if got := Cell("a|b\r\nc"); got != `a\|b<br>c` {
		t.Errorf("Cell = %q", got)
	}
}
