package selfcontained

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// repoRoot is the repository root, relative to this package's directory (the test's
// working directory).
const repoRoot = "../.."

// skipped are path prefixes that are not the project's own text: the npm packages
// `make node-tools` installs (not tracked, but listed for a checkout that has them).
var skipped = []string{"tools/node/node_modules/"}

// self is this package, whose tests spell out the forbidden forms; the citation
// check does not read it.
const self = "internal/selfcontained/"

// citation is one way of citing a document outside the repository.
type citation struct {
	re   *regexp.Regexp
	what string
}

// citations are the forbidden forms. `CONTRACT` in capitals is the contract summary's
// name wherever it appears as a word, except in the legal phrase "OF CONTRACT" of
// license texts (checked in forbidden).
var citations = []citation{
	{regexp.MustCompile(`\bBRIEF\b`), "BRIEF (the product brief)"},
	{regexp.MustCompile(`(?i)\b(the|product) brief\b`), "the brief"},
	{regexp.MustCompile(`\bCONTRACT\b`), "CONTRACT (the contract summary: CONTRACT §n, CONTRACT.md)"},
	// The repository names no package registry's host: it says "the Go module proxy",
	// "npm", "Debian's packages" (docs/decisions.md#self-contained-project).
	{regexp.MustCompile(`(?i)\b(?:proxy|sum)\.golang\.org\b|\bregistry\.npmjs\.org\b|\bnpmjs\.(?:com|org)\b|\bpypi\.org\b|\bpythonhosted\.org\b|\b(?:deb|security)\.debian\.org\b|\bpackagist\.org\b|\bcrates\.io\b|\brubygems\.org\b|\bnuget\.org\b`), "a package registry's host (say the Go module proxy, npm, Debian's packages)"},
}

// trackedFiles lists the repository's tracked files (git ls-files), minus skipped.
func trackedFiles(t *testing.T) []string {
	t.Helper()
	cmd := exec.Command("git", "ls-files", "-z")
	cmd.Dir = repoRoot
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git ls-files: %v (the test needs git and a checkout)", err)
	}
	var files []string
	for _, f := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		if f != "" && !hasPrefix(f, skipped) {
			files = append(files, f)
		}
	}
	if len(files) < 100 {
		t.Fatalf("git ls-files listed %d files; expected the whole repository", len(files))
	}
	return files
}

func hasPrefix(f string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(f, p) {
			return true
		}
	}
	return false
}

// readText returns the content of the tracked file f, or ok false for a binary file
// (one holding a NUL byte) or a file missing from the work tree.
func readText(t *testing.T, f string) (text string, ok bool) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot, filepath.FromSlash(f)))
	if os.IsNotExist(err) {
		return "", false // deleted in the work tree, not yet committed
	}
	if err != nil {
		t.Fatal(err)
	}
	if bytes.IndexByte(b, 0) >= 0 {
		return "", false
	}
	return string(b), true
}

// forbidden returns every citation of an outside document in text, as
// "line:col: the match (what)".
func forbidden(text string) []string {
	var out []string
	for _, c := range citations {
		for _, loc := range c.re.FindAllStringIndex(text, -1) {
			if c.re.String() == `\bCONTRACT\b` && strings.HasSuffix(text[:loc[0]], "OF ") {
				continue // "ACTION OF CONTRACT" in a license
			}
			line := strings.Count(text[:loc[0]], "\n") + 1
			col := loc[0] - strings.LastIndexByte(text[:loc[0]], '\n')
			out = append(out, fmt.Sprintf("%d:%d: %q (%s)", line, col, text[loc[0]:loc[1]], c.what))
		}
	}
	return out
}

func TestForbiddenMatches(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		text string
		want int
	}{
		{"see BRIEF §8", 1},
		{"BRIEF.md and CONTRACT.md", 2},
		{"not on proxy.golang.org yet", 1},
		{"from registry.npmjs.org or PyPI.org", 2},
		{"the Go module proxy, npm", 0},
		{"(CONTRACT §3.2)", 1},
		{"the CONTRACT section on URNs", 1},
		{"as the brief says", 1},
		{"the product Brief", 1},
		{"a brief summary; briefly; BRIEFING; CONTRACTS", 0},
		{"docs/contract.md#urn-naming; the wire contract", 0},
		{"IN AN ACTION OF CONTRACT, TORT OR OTHERWISE", 0},
	} {
		if got := forbidden(tc.text); len(got) != tc.want {
			t.Errorf("forbidden(%q) = %q, want %d matches", tc.text, got, tc.want)
		}
	}
}

// TestNoOutsideDocuments fails on any tracked file that cites the
// product brief or the contract summary: their content lives in docs/contract.md,
// docs/registry-format.md and docs/decisions.md, and generated output cites the public
// wire contract, https://babelqueue.com/docs/spec/1.x/envelope/.
func TestNoOutsideDocuments(t *testing.T) {
	t.Parallel()
	for _, f := range trackedFiles(t) {
		if strings.HasPrefix(f, self) {
			continue
		}
		text, ok := readText(t, f)
		if !ok {
			continue
		}
		for _, m := range forbidden(text) {
			t.Errorf("%s:%s: cite docs/contract.md, docs/registry-format.md or docs/decisions.md instead (generated output: the public wire contract or plain words)", f, m)
		}
	}
}

// Slug returns the anchor GitHub gives a Markdown heading: lower case, every
// character other than a letter, digit, '_', '-' or space dropped, spaces as '-'.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case unicode.IsLetter(r), unicode.IsDigit(r), r == '_', r == '-':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}

var headingRe = regexp.MustCompile(`^#{1,6}\s+(.*?)\s*#*\s*$`)

// anchors returns the heading anchors of a Markdown text (outside fenced code), with
// GitHub's -1, -2… suffixes for repeated headings.
func anchors(text string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	fenced := false
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
			continue
		}
		m := headingRe.FindStringSubmatch(line)
		if fenced || m == nil {
			continue
		}
		a := slug(m[1])
		if n, dup := seen[a]; dup {
			seen[a] = n + 1
			a = fmt.Sprintf("%s-%d", a, n+1)
		} else {
			seen[a] = 0
		}
		out[a] = true
	}
	return out
}

var (
	// docRefRe is a citation docs/<page>.md#<anchor> in any file.
	docRefRe = regexp.MustCompile(`\bdocs/([A-Za-z0-9_-]+\.md)#([A-Za-z0-9_-]+)`)
	// mdLinkRe is a relative Markdown link with an anchor, [text](page.md#anchor) or
	// [text](#anchor), in a project doc.
	mdLinkRe = regexp.MustCompile(`\]\(((?:[A-Za-z0-9_./-]+\.md)?)#([A-Za-z0-9_-]+)\)`)
)

// isProjectDoc reports whether f is one of the project's hand-written Markdown pages
// (README.md, docs/*.md), whose headings carry GitHub's anchors. Generated Markdown
// (the catalog) sets its own HTML ids.
func isProjectDoc(f string) bool {
	return f == "README.md" || (strings.HasPrefix(f, "docs/") && strings.HasSuffix(f, ".md"))
}

func TestSlug(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"Dead-letter block":                     "dead-letter-block",
		"YAML 1.2 core schema":                  "yaml-12-core-schema",
		"Strict writer, tolerant reader":        "strict-writer-tolerant-reader",
		"BQ004 — input limits":                  "bq004--input-limits",
		"BQ031 — JSON key not in snake_case":    "bq031--json-key-not-in-snake_case",
		"`bqgen diff`: review URN changes":      "bqgen-diff-review-urn-changes",
		"ajv and non-shortest number spellings": "ajv-and-non-shortest-number-spellings",
	} {
		if got := slug(in); got != want {
			t.Errorf("slug(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestDocAnchors checks that every cited docs/<page>.md#<anchor>, and every anchored
// relative link in a Markdown file, names an existing heading, so that renaming a
// heading cannot silently break the citations of code, rules and docs.
func TestDocAnchors(t *testing.T) {
	t.Parallel()
	files := trackedFiles(t)
	cache := map[string]map[string]bool{}
	anchorsOf := func(page string) (map[string]bool, bool) {
		if a, ok := cache[page]; ok {
			return a, a != nil
		}
		text, ok := readText(t, page)
		if !ok {
			cache[page] = nil
			return nil, false
		}
		cache[page] = anchors(text)
		return cache[page], true
	}
	check := func(f, text, page, anchor string, at int) {
		line := strings.Count(text[:at], "\n") + 1
		a, ok := anchorsOf(page)
		switch {
		case !ok:
			t.Errorf("%s:%d: cites %s#%s, but %s is not a tracked file", f, line, page, anchor, page)
		case !a[anchor]:
			t.Errorf("%s:%d: cites %s#%s, but %s has no heading with that anchor", f, line, page, anchor, page)
		}
	}
	refs := 0
	for _, f := range files {
		text, ok := readText(t, f)
		if !ok {
			continue
		}
		for _, m := range docRefRe.FindAllStringSubmatchIndex(text, -1) {
			check(f, text, "docs/"+text[m[2]:m[3]], text[m[4]:m[5]], m[0])
			refs++
		}
		if !isProjectDoc(f) {
			continue
		}
		for _, m := range mdLinkRe.FindAllStringSubmatchIndex(text, -1) {
			page := f
			if target := text[m[2]:m[3]]; target != "" {
				page = path.Clean(path.Join(path.Dir(f), target))
			}
			check(f, text, page, text[m[4]:m[5]], m[0])
			refs++
		}
	}
	if refs < 50 {
		t.Errorf("found %d anchored citations; expected the docs/ cross-references (is the pattern broken?)", refs)
	}
}
