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
        choice: {type: string, enum: ["a|b", "c"], pattern: "^(a[|]b|c)$", description: "one | two\nthree"}
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
		"| `choice` | string |  |  | pattern `^(a[\\|]b\\|c)$`; one of `a\\|b`, `c` |  | one \\| two<br>three |",
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

// hostile is a registry whose text tries to add headings, links, images, HTML and
// fences to the catalog.
const hostile = `version: 1
types:
  Note:
    type: object
    description: "Type text.\n## Sub <u>x</u>\n` + "```" + `"
    properties:
      body: {type: string}
messages:
  urn:babel:t:happened:
    summary: "# Heading [click](http://evil.example) <img src=x onerror=alert(1)> ![i](http://t/p.png)"
    description: |
      Safe first line.
      # Injected heading
      <script>alert(1)</script>
      ` + "```" + `
    owner: "o | x ](http://evil) <b>"
    deprecated: "Use [this](http://evil.example) <b>now</b>"
    data:
      properties:
        choice: {type: string, enum: ["<b>x</b>", "[a](http://e)"], examples: ["[a](http://e)"], description: "# h <img src=x> [l](http://e)\n` + "```" + `"}
        old: {type: string, deprecated: "gone ](http://e) <s>"}
        note: {type: Note}
  urn:babel:t:other:
    supersedes: urn:babel:t:happened
    data: {}
`

func TestHostileTextIsEscaped(t *testing.T) {
	md := string(render(t, map[string][]byte{"r.yaml": []byte(hostile)}))
	for _, want := range []string{
		// Table of contents: the summary is one escaped line.
		"  - [`urn:babel:t:happened`](#t-happened) — event, deprecated: \\# Heading \\[click\\](http\\://evil.example) \\<img src=x onerror=alert(1)\\> \\!\\[i\\](http\\://t/p.png)\n",
		"**event** · owner: o \\| x \\](http\\://evil) \\<b\\> · queue: `t`\n",
		"> **Deprecated.** Use \\[this\\](http\\://evil.example) \\<b\\>now\\</b\\> Superseded by [`urn:babel:t:other`](#t-other).\n",
		"\n\\# Heading \\[click\\](http\\://evil.example) \\<img src=x onerror=alert(1)\\> \\!\\[i\\](http\\://t/p.png)\n\n",
		// The description keeps its lines; the fence is escaped, so the table follows.
		"\nSafe first line.\n\\# Injected heading\n\\<script\\>alert(1)\\</script\\>\n\\`\\`\\`\n\n| field | type |",
		"| `choice` | string |  |  | one of `<b>x</b>`, `[a](http://e)` |  | \\# h \\<img src=x\\> \\[l\\](http\\://e)<br>\\`\\`\\` Examples: `[a](http://e)` |\n",
		"| `old` | string |  |  |  |  | **Deprecated:** gone \\](http\\://e) \\<s\\> |\n",
		"\nType text.\n\\#\\# Sub \\<u\\>x\\</u\\>\n\\`\\`\\`\n\n| field | type |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("catalog lacks %q:\n%s", want, md)
		}
	}
	ours := map[string]bool{"# Message catalog": true, "## Contents": true, "## t": true, "## Types": true,
		"### `urn:babel:t:happened`": true, "### `urn:babel:t:other`": true, "### Note": true}
	for i, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "#") && !ours[line] {
			t.Errorf("line %d is a heading from registry text: %q", i+1, line)
		}
		if strings.HasPrefix(line, "```") || strings.HasPrefix(line, "~~~") {
			t.Errorf("line %d opens a fence: %q", i+1, line)
		}
		// Outside code spans, every < is escaped, except the tags the template writes.
		prose := stripCodeSpans(line)
		for _, tag := range []string{"<!-- Code generated by bqgen docs. DO NOT EDIT. -->", "<br>", `<a id="`, "</a>"} {
			prose = strings.ReplaceAll(prose, tag, "")
		}
		if unescaped(prose, "<") >= 0 {
			t.Errorf("line %d has raw HTML: %q", i+1, line)
		}
		for _, bad := range []string{"](http", "![", "://"} {
			if unescaped(prose, bad) >= 0 {
				t.Errorf("line %d has link or image syntax %q: %q", i+1, bad, line)
			}
		}
	}
}

// stripCodeSpans removes `…` spans (a backtick run closed by a run of the same length).
func stripCodeSpans(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '`' || i > 0 && s[i-1] == '\\' {
			b.WriteByte(s[i])
			i++
			continue
		}
		n := 0
		for i+n < len(s) && s[i+n] == '`' {
			n++
		}
		fence := strings.Repeat("`", n)
		if end := strings.Index(s[i+n:], fence); end >= 0 {
			i += n + end + n
			continue
		}
		b.WriteString(s[i : i+n])
		i += n
	}
	return b.String()
}

// unescaped returns the index of the first occurrence of sub in s that does not follow
// an odd number of backslashes, or -1.
func unescaped(s, sub string) int {
	for k := 0; k+len(sub) <= len(s); k++ {
		if !strings.HasPrefix(s[k:], sub) {
			continue
		}
		bs := 0
		for bs < k && s[k-1-bs] == '\\' {
			bs++
		}
		if bs%2 == 0 {
			return k
		}
	}
	return -1
}

// TestPIILines: each message lists the paths the SDKs protect and the marks they
// cannot reach (pii.Of), with escaped keys.
func TestPIILines(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("../../testdata/rules/BQ048/registry.yaml")
	if err != nil {
		t.Fatal(err)
	}
	md := render(t, map[string][]byte{"r.yaml": src})
	for _, want := range []string{
		"**PII**, protected by the SDKs at: `primary.email` (contact).\n\n" +
			"**PII the SDKs cannot reach** (BQ048): `data`: the data block itself; `by_source.*.email` (contact): inside map values; " +
			"`by_source.*.phones.*` (phone): inside map values; `primary.phones.*` (phone): inside map values; " +
			"`\"legacy.email\"` (contact): under a key the SDKs' paths cannot spell; `matrix[][].ssn`: in an array inside an array.\n",
		"**PII**, protected by the SDKs at: `ceo.name`, `ceo.reports[].name`, `ceo.reports[].reports[].name`.\n\n" +
			"**PII the SDKs cannot reach** (BQ048): `ceo.reports[].reports[].reports[].name`: below the unroll depth of a recursive type.\n",
	} {
		if !bytes.Contains(md, []byte(want)) {
			t.Errorf("catalog lacks %q:\n%s", want, md)
		}
	}
}
