package cli

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/babelqueue/bqgen/registry"
)

var updateGolden = flag.Bool("update", false, "rewrite the expected outputs under testdata/rules")

// repoRoot is the repository root, relative to this package's directory (the test's
// working directory).
const repoRoot = "../.."

// rulesDir is where the per-rule cases live, relative to the repository root.
const rulesDir = "testdata/rules"

// runCheck runs bqgen with args. Paths in args that start with "testdata/" are taken
// relative to the repository root; the prefix that makes them so is removed again from
// the output, which therefore reads as if bqgen ran at the repository root.
func runCheck(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	args = append([]string(nil), args...)
	for i, a := range args {
		if strings.HasPrefix(a, "testdata/") {
			args[i] = repoRoot + "/" + a
		}
	}
	var out, errb bytes.Buffer
	code = Run(context.Background(), args, strings.NewReader(""), &out, &errb)
	norm := func(s string) string { return strings.ReplaceAll(s, repoRoot+"/", "") }
	return code, norm(out.String()), norm(errb.String())
}

// golden compares got with the file at path (relative to the repository root), or
// rewrites it with -update.
func golden(t *testing.T, path, got string) {
	t.Helper()
	full := filepath.Join(repoRoot, path)
	if *updateGolden {
		if err := os.WriteFile(full, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(full)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/cli -run %s -update)", err, t.Name())
	}
	if got != string(want) {
		t.Errorf("output differs from %s (go test ./internal/cli -update rewrites it):\n--- got\n%s--- want\n%s", path, got, want)
	}
}

var summaryRe = regexp.MustCompile(`(?m)^(\d+) errors?, (\d+) warnings? in (\d+) files?$`)

// wantExit derives the exit code of `bqgen check` from its text output: 1 when the
// summary counts errors (or, with strict, warnings), else 0.
func wantExit(t *testing.T, out string, strict bool) int {
	t.Helper()
	if out == "" {
		return ExitOK
	}
	m := summaryRe.FindStringSubmatch(out)
	if m == nil || !strings.HasSuffix(out, m[0]+"\n") {
		t.Fatalf("output does not end with a summary line:\n%s", out)
	}
	if m[1] != "0" || (strict && m[2] != "0") {
		return ExitFindings
	}
	return ExitOK
}

// ruleCase is one directory of testdata/rules: the registry to check (a file or a
// directory) and, for a rule's own directory, its clean twin.
type ruleCase struct {
	name, dir, registry, clean string
}

func ruleCases(t *testing.T) []ruleCase {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(repoRoot, rulesDir))
	if err != nil {
		t.Fatal(err)
	}
	var cases []ruleCase
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		dir := rulesDir + "/" + e.Name()
		c := ruleCase{name: e.Name(), dir: dir}
		for _, r := range []string{"registry.yaml", "registry"} {
			if _, err := os.Stat(filepath.Join(repoRoot, dir, r)); err == nil {
				c.registry = dir + "/" + r
				break
			}
		}
		if c.registry == "" {
			t.Errorf("%s: no registry.yaml or registry/ directory", dir)
			continue
		}
		if _, err := os.Stat(filepath.Join(repoRoot, dir, "clean.yaml")); err == nil {
			c.clean = dir + "/clean.yaml"
		}
		cases = append(cases, c)
	}
	return cases
}

var ruleDirRe = regexp.MustCompile(`^BQ[0-9]{3}$`)

// TestCheckRules runs `bqgen check` on every case of testdata/rules and compares the
// text output byte for byte with expected.txt, and the exit code with the summary. A
// rule's own directory (BQ020, …) must report that rule, and its clean.yaml twin must
// pass `check --strict` with no output at all.
func TestCheckRules(t *testing.T) {
	t.Parallel()
	cases := ruleCases(t)
	seen := map[string]bool{}
	for _, c := range cases {
		seen[c.name] = true
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			code, out, errOut := runCheck(t, "check", "-r", c.registry)
			if errOut != "" {
				t.Errorf("stderr: %s", errOut)
			}
			golden(t, c.dir+"/expected.txt", out)
			if want := wantExit(t, out, false); code != want {
				t.Errorf("exit %d, want %d", code, want)
			}
			if !ruleDirRe.MatchString(c.name) {
				return
			}
			if !strings.Contains(out, " "+c.name+": ") {
				t.Errorf("%s does not report %s:\n%s", c.registry, c.name, out)
			}
			if c.clean == "" {
				t.Fatalf("%s has no clean.yaml twin", c.dir)
			}
			code, out, errOut = runCheck(t, "check", "--strict", "-r", c.clean)
			if code != ExitOK || out != "" || errOut != "" {
				t.Errorf("clean twin %s: exit %d, want 0 and no output:\n%s%s", c.clean, code, out, errOut)
			}
		})
	}
	for _, r := range registry.Rules() {
		if !seen[r.ID] {
			t.Errorf("rule %s has no test case in %s/%s", r.ID, rulesDir, r.ID)
		}
	}
}

// TestCheckMixed checks that one run reports ten and more different rules, each at its
// position, and covers the json and github formats with golden files.
func TestCheckMixed(t *testing.T) {
	t.Parallel()
	const reg = rulesDir + "/mixed/registry.yaml"
	code, out, _ := runCheck(t, "check", "-r", reg)
	if code != ExitFindings {
		t.Errorf("exit %d, want 1", code)
	}
	rules := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^\S+:\d+:\d+: (?:error|warning) (BQ\d{3}): `).FindAllStringSubmatch(out, -1) {
		rules[m[1]] = true
	}
	if len(rules) < 10 {
		t.Errorf("mixed registry reports %d different rules, want at least 10:\n%s", len(rules), out)
	}
	for _, f := range []struct{ format, file string }{{"json", "expected.json"}, {"github", "expected.github"}} {
		code, out, errOut := runCheck(t, "check", "--format", f.format, "-r", reg)
		if code != ExitFindings || errOut != "" {
			t.Errorf("--format %s: exit %d, stderr %q", f.format, code, errOut)
		}
		golden(t, rulesDir+"/mixed/"+f.file, out)
	}
}

// TestCheckOneRun: format errors (in one file and in another file of the directory)
// and rule findings come out of one run together, in every format (issue 13, item 6).
func TestCheckOneRun(t *testing.T) {
	t.Parallel()
	const reg = rulesDir + "/one-run/registry"
	for _, f := range []struct{ format, file string }{{"text", "expected.txt"}, {"json", "expected.json"}, {"github", "expected.github"}} {
		code, out, errOut := runCheck(t, "check", "--format", f.format, "-r", reg)
		if code != ExitFindings || errOut != "" {
			t.Errorf("--format %s: exit %d, stderr %q", f.format, code, errOut)
		}
		for _, rule := range []string{"BQ001", "BQ002", "BQ020", "BQ025", "BQ031"} {
			if !strings.Contains(out, rule) {
				t.Errorf("--format %s: no %s in\n%s", f.format, rule, out)
			}
		}
		golden(t, rulesDir+"/one-run/"+f.file, out)
	}
}

// TestCheckFormatsClean: a clean registry prints nothing in text and github formats and
// an empty array in json.
func TestCheckFormatsClean(t *testing.T) {
	t.Parallel()
	for format, want := range map[string]string{"text": "", "github": "", "json": "[]\n"} {
		code, out, errOut := runCheck(t, "check", "--strict", "--format", format, "-r", "testdata/rules/BQ020/clean.yaml")
		if code != ExitOK || out != want || errOut != "" {
			t.Errorf("--format %s: exit %d, stdout %q, stderr %q", format, code, out, errOut)
		}
	}
}

// TestCheckStrict: warnings pass without --strict and fail with it.
func TestCheckStrict(t *testing.T) {
	t.Parallel()
	for _, reg := range []string{"testdata/rules/BQ031/registry.yaml", "testdata/rules/BQ005/registry.yaml"} {
		code, out, _ := runCheck(t, "check", "-r", reg)
		if code != ExitOK || !strings.Contains(out, "0 errors, ") {
			t.Errorf("%s: exit %d, want 0 (warnings only):\n%s", reg, code, out)
		}
		code, out2, _ := runCheck(t, "check", "--strict", "-r", reg)
		if code != ExitFindings {
			t.Errorf("%s --strict: exit %d, want 1", reg, code)
		}
		if out2 != out {
			t.Errorf("%s: --strict changed the output:\n%s", reg, out2)
		}
	}
}

// TestCheckExample: examples/registry.yaml passes `check --strict`.
func TestCheckExample(t *testing.T) {
	t.Parallel()
	code, out, errOut := runCheck(t, "check", "--strict", "-r", exampleRegistry)
	if code != ExitOK || out != "" || errOut != "" {
		t.Errorf("exit %d, want 0:\n%s%s", code, out, errOut)
	}
}

// TestCheckExitCodes: usage and I/O errors exit 2 with a message on stderr and
// nothing on stdout.
func TestCheckExitCodes(t *testing.T) {
	t.Parallel()
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"check", "-r", "testdata/rules/does-not-exist.yaml"}, "bqgen: registry: stat testdata/rules/does-not-exist.yaml: no such file or directory\n"},
		{[]string{"check", "-r", "testdata/rules/BQ020/registry.yaml", "--nope"}, "bqgen check: unknown flag: --nope\n"},
		{[]string{"check", "-r", "testdata/rules/BQ020/registry.yaml", "--stirct"}, "bqgen check: unknown flag: --stirct; did you mean --strict?\n"},
		{[]string{"check", "-r", "testdata/rules/BQ020/registry.yaml", "--format", "xml"}, "bqgen check: --format must be text, json or github, not \"xml\"\n"},
		{[]string{"check"}, "bqgen check: -r/--registry is required\n"},
		{[]string{"check", "-r", "testdata/rules/BQ020/registry.yaml", "extra"}, "bqgen check: unexpected argument \"extra\"\n"},
	}
	for _, c := range cases {
		code, out, errOut := runCheck(t, c.args...)
		if code != ExitError {
			t.Errorf("%q: exit %d, want 2", c.args, code)
		}
		if out != "" {
			t.Errorf("%q: stdout %q", c.args, out)
		}
		if !strings.HasPrefix(errOut, c.want) {
			t.Errorf("%q: stderr = %q, want prefix %q", c.args, errOut, c.want)
		}
	}
}

// TestRulesDoc keeps docs/rules.md in sync with registry.Rules(): every rule has a
// `## BQnnn` section that states its severity and whether lint can silence it, and
// the document names no rule the code does not know.
func TestRulesDoc(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(filepath.Join(repoRoot, "docs", "rules.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	sections := map[string]string{}
	heads := regexp.MustCompile(`(?m)^## (BQ[0-9]{3})\b.*$`).FindAllStringSubmatchIndex(doc, -1)
	for i, h := range heads {
		end := len(doc)
		if i+1 < len(heads) {
			end = heads[i+1][0]
		}
		id := doc[h[2]:h[3]]
		if _, dup := sections[id]; dup {
			t.Errorf("docs/rules.md documents %s twice", id)
		}
		sections[id] = doc[h[0]:end]
	}
	known := map[string]bool{}
	for _, r := range registry.Rules() {
		known[r.ID] = true
		s, ok := sections[r.ID]
		if !ok {
			t.Errorf("docs/rules.md does not document %s (%s)", r.ID, r.Title)
			continue
		}
		if want := fmt.Sprintf("**Severity:** %s", r.Severity); !strings.Contains(s, want) {
			t.Errorf("docs/rules.md, %s: want %q", r.ID, want)
		}
		silence := "**Silence:** cannot be silenced"
		if r.Silenceable {
			silence = fmt.Sprintf("**Silence:** `lint: {ignore: [%s], reason: ", r.ID)
		}
		if !strings.Contains(s, silence) {
			t.Errorf("docs/rules.md, %s: want %q", r.ID, silence)
		}
		for _, part := range []string{"**Bad:**", "**Fix:**"} {
			if !strings.Contains(s, part) {
				t.Errorf("docs/rules.md, %s: no %s", r.ID, part)
			}
		}
	}
	for _, m := range regexp.MustCompile(`\bBQ[0-9]{3}\b`).FindAllString(doc, -1) {
		if !known[m] {
			t.Errorf("docs/rules.md names %s, which is not a rule", m)
		}
	}
}
