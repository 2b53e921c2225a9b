package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

const (
	diffOld = "version: 1\nmessages:\n  urn:babel:orders:created:\n    data:\n      required: [order_id]\n      properties:\n        order_id: {type: integer, minimum: 1, maximum: 100}\n"
	// diffNew lowers the maximum (breaking under backward) and adds an optional field.
	diffNew = "version: 1\nmessages:\n  urn:babel:orders:created:\n    data:\n      required: [order_id]\n      properties:\n        order_id: {type: integer, minimum: 1, maximum: 50}\n        note: {type: string}\n"
	// diffCompatible only adds an optional field.
	diffCompatible = "version: 1\nmessages:\n  urn:babel:orders:created:\n    data:\n      required: [order_id]\n      properties:\n        order_id: {type: integer, minimum: 1, maximum: 100}\n        note: {type: string}\n"
	diffBroken     = "version: 1\nmessages:\n  urn:babel:orders:created:\n    data:\n      properties:\n        order_id: {type: nope}\n"
)

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestDiffCommandPaths(t *testing.T) {
	dir := t.TempDir()
	old, nw, comp := filepath.Join(dir, "old.yaml"), filepath.Join(dir, "new.yaml"), filepath.Join(dir, "comp.yaml")
	writeFile(t, old, diffOld)
	writeFile(t, nw, diffNew)
	writeFile(t, comp, diffCompatible)
	d := diffCommand()

	code, out, errOut := runCommandDirect(t, d, "", "-r", nw, "--against", old)
	if code != ExitFindings || !strings.Contains(out, nw+":7:47: breaking BQ130: urn:babel:orders:created $.order_id: upper bound lowered (maximum: 100 → maximum: 50)") ||
		!strings.Contains(out, "remedy: mint urn:babel:orders:created.v2 with this shape and `supersedes: urn:babel:orders:created`") {
		t.Errorf("backward: exit %d\n%s%s", code, out, errOut)
	}
	// The same change is compatible under forward.
	if code, out, _ := runCommandDirect(t, d, "", "-r", nw, "--against", old, "--mode", "forward"); code != ExitOK || !strings.Contains(out, "notice BQ130") {
		t.Errorf("forward: exit %d\n%s", code, out)
	}
	if code, out, _ := runCommandDirect(t, d, "", "-r", comp, "--against", old); code != ExitOK || !strings.Contains(out, "notice BQ114") {
		t.Errorf("compatible: exit %d\n%s", code, out)
	}
	for _, format := range []string{"json", "github", "markdown"} {
		code, out, _ := runCommandDirect(t, d, "", "-r", nw, "--against", old, "--format", format)
		want := map[string]string{"json": `"rule": "BQ130"`, "github": "::error file=" + nw + ",line=7,col=47,", "markdown": "### bqgen diff: 1 breaking change (backward mode)"}[format]
		if code != ExitFindings || !strings.Contains(out, want) {
			t.Errorf("%s: exit %d\n%s", format, code, out)
		}
	}

	// The old registry with errors is reported as the old one, and bqgen cannot do its
	// job: exit 2, never a silent pass.
	broken := filepath.Join(dir, "broken.yaml")
	writeFile(t, broken, diffBroken)
	code, out, errOut = runCommandDirect(t, d, "", "-r", nw, "--against", broken)
	if code != ExitError || out != "" || !strings.Contains(errOut, "the old registry (--against "+broken+") is rejected, so there is nothing sound to compare with") ||
		!strings.Contains(errOut, broken+":6:") || !strings.Contains(errOut, "--against git:<older ref>") {
		t.Errorf("broken old: exit %d\n%s%s", code, out, errOut)
	}
	// The new registry with errors: exit 1, its diagnostics.
	if code, _, errOut := runCommandDirect(t, d, "", "-r", broken, "--against", old); code != ExitFindings || !strings.Contains(errOut, broken+":6:") {
		t.Errorf("broken new: exit %d %s", code, errOut)
	}

	// Usage and I/O errors exit 2.
	for _, args := range [][]string{
		{"--against", old},
		{"-r", nw},
		{"-r", nw, "--against", old, "--mode", "both"},
		{"-r", nw, "--against", old, "--format", "html"},
		{"-r", nw, "--against", old, "extra"},
		{"-r", nw, "--against", filepath.Join(dir, "missing.yaml")},
		{"-r", nw, "--against", "git:"},
		{"-r", nw, "--against", "git:HEAD"}, // not a git repository
	} {
		if code, _, errOut := runCommandDirect(t, d, "", args...); code != ExitError {
			t.Errorf("%v: exit %d, want 2 (%s)", args, code, errOut)
		}
	}
}

// TestDiffCommandGit builds a repository with two commits and compares against
// git:HEAD~1 (a file and a directory) and git:HEAD with an explicit path.
func TestDiffCommandGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is required: bqgen diff --against git:REF runs it")
	}
	repo := t.TempDir()
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=bqgen", "-c", "user.email=bqgen@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	file := filepath.Join(repo, "registry.yaml")
	regDir := filepath.Join(repo, "reg")
	run("init", "-q")
	writeFile(t, file, diffOld)
	writeFile(t, filepath.Join(regDir, "orders.yaml"), diffOld)
	writeFile(t, filepath.Join(regDir, "README.md"), "not a registry file\n")
	run("add", ".")
	run("commit", "-q", "-m", "first")
	writeFile(t, file, diffNew)
	writeFile(t, filepath.Join(regDir, "orders.yaml"), diffNew)
	run("commit", "-q", "-am", "second")
	d := diffCommand()

	for _, c := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"file HEAD~1", []string{"-r", file, "--against", "git:HEAD~1"}, ExitFindings, "breaking BQ130"},
		{"dir HEAD~1", []string{"-r", regDir, "--against", "git:HEAD~1"}, ExitFindings, "breaking BQ130"},
		{"file HEAD", []string{"-r", file, "--against", "git:HEAD"}, ExitOK, "backward: no changes"},
		{"dir HEAD", []string{"-r", regDir, "--against", "git:HEAD"}, ExitOK, "backward: no changes"},
		{"explicit path", []string{"-r", file, "--against", "git:HEAD~1:reg/orders.yaml"}, ExitFindings, "breaking BQ130"},
		{"explicit dir", []string{"-r", file, "--against", "git:HEAD~1:reg"}, ExitFindings, "breaking BQ130"},
		{"json", []string{"-r", file, "--against", "git:HEAD~1", "--format", "json"}, ExitFindings, `"file": "` + file + `"`},
	} {
		code, out, errOut := runCommandDirect(t, d, "", c.args...)
		if code != c.code || !strings.Contains(out, c.want) {
			t.Errorf("%s: exit %d, want %d and %q\n%s%s", c.name, code, c.code, c.want, out, errOut)
		}
	}

	// A removal points at the old file, named REF:PATH.
	writeFile(t, file, "version: 1\nmessages:\n  urn:babel:orders:paid:\n    data: {}\n")
	code, out, _ := runCommandDirect(t, d, "", "-r", file, "--against", "git:HEAD")
	if code != ExitFindings || !strings.Contains(out, "HEAD:registry.yaml:3:3: breaking BQ100: urn:babel:orders:created: URN removed without prior deprecation") {
		t.Errorf("removal: exit %d\n%s", code, out)
	}

	// Errors in the old registry at a revision are reported, labelled with the revision.
	writeFile(t, file, diffBroken)
	run("commit", "-q", "-am", "broken")
	writeFile(t, file, diffOld)
	code, out, errOut := runCommandDirect(t, d, "", "-r", file, "--against", "git:HEAD")
	if code != ExitError || out != "" || !strings.Contains(errOut, "the old registry (--against git:HEAD) is rejected") ||
		!strings.Contains(errOut, "HEAD:registry.yaml:6:") {
		t.Errorf("broken old at HEAD: exit %d\n%s%s", code, out, errOut)
	}

	// Unknown revisions and paths are I/O errors (exit 2).
	for _, against := range []string{"git:nope", "git:HEAD:missing.yaml", "git:-x", "git:HEAD:../outside.yaml"} {
		if code, _, errOut := runCommandDirect(t, d, "", "-r", file, "--against", against); code != ExitError {
			t.Errorf("%s: exit %d, want 2 (%s)", against, code, errOut)
		}
	}
	// A directory at the revision with no registry file.
	os.MkdirAll(filepath.Join(repo, "docs"), 0o755)
	writeFile(t, filepath.Join(repo, "docs", "x.md"), "x\n")
	run("add", ".")
	run("commit", "-q", "-m", "docs")
	if code, _, errOut := runCommandDirect(t, d, "", "-r", file, "--against", "git:HEAD:docs"); code != ExitError || !strings.Contains(errOut, "no *.yaml or *.yml files") {
		t.Errorf("docs dir: exit %d %s", code, errOut)
	}
}

// gitRepo makes a git repository in a temporary directory and returns it with a
// function that runs git there (failing the test on an error).
func gitRepo(t *testing.T) (string, func(args ...string) string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is required: bqgen diff --against git:REF runs it")
	}
	repo := t.TempDir()
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=bqgen", "-c", "user.email=bqgen@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	run("init", "-q", "-b", "main")
	return repo, run
}

// TestDiffFirstPR: on the change that adds the registry, the base has nothing at -r's
// place: every URN is added, a note says why, exit 0 (issue 21, item 2). An explicit
// PATH missing at the revision stays an error.
func TestDiffFirstPR(t *testing.T) {
	repo, run := gitRepo(t)
	writeFile(t, filepath.Join(repo, "README.md"), "x\n")
	run("add", ".")
	run("commit", "-q", "-m", "first")
	file := filepath.Join(repo, "registry.yaml")
	writeFile(t, file, diffOld)
	d := diffCommand()
	note := "the base (git:main) has no registry at registry.yaml: every URN is reported as added"
	for _, c := range []struct{ format, want string }{
		{"text", "note: " + note + "\n" + file + ":3:3: notice BQ102: urn:babel:orders:created: URN added (— → event on queue orders)\nbackward: 1 URN added, 0 removed, 0 changed; 1 notice\n"},
		{"github", "::notice title=bqgen diff::" + note + "\n::notice file=" + file + ",line=3,col=3,title=BQ102 notice (backward)::urn:babel:orders:created: URN added (— → event on queue orders)\n"},
		{"markdown", "> **Note:** the base (git:main) has no registry at registry.yaml: every URN is reported as added"},
		{"json", `"rule": "BQ102"`},
	} {
		code, out, errOut := runCommandDirect(t, d, "", "-r", file, "--against", "git:main", "--format", c.format)
		wantErr := ""
		if c.format == "json" {
			wantErr = "bqgen diff: note: " + note + "\n"
		}
		if code != ExitOK || !strings.Contains(out, c.want) || errOut != wantErr {
			t.Errorf("%s: exit %d, want 0 and %q\n%s%s", c.format, code, c.want, out, errOut)
		}
		if c.format == "text" && out != c.want {
			t.Errorf("text: %q, want %q", out, c.want)
		}
	}
	code, _, errOut := runCommandDirect(t, d, "", "-r", file, "--against", "git:main:registry.yaml")
	if code != ExitError || !strings.Contains(errOut, "registry.yaml does not exist at main (to compare -r's own place, leave out :PATH)") {
		t.Errorf("explicit path: exit %d %s", code, errOut)
	}
	// A directory of the base with no registry file in it yet is like no directory.
	dir := filepath.Join(repo, "reg")
	writeFile(t, filepath.Join(dir, "README.md"), "hi\n")
	run("add", "reg")
	run("commit", "-q", "-m", "reg")
	writeFile(t, filepath.Join(dir, "a.yaml"), diffOld)
	code, out, errOut := runCommandDirect(t, d, "", "-r", dir, "--against", "git:main")
	if want := "note: the base (git:main) has no registry at reg (no *.yaml or *.yml files there): every URN is reported as added\n"; code != ExitOK ||
		!strings.HasPrefix(out, want) || !strings.HasSuffix(out, "backward: 1 URN added, 0 removed, 0 changed; 1 notice\n") || errOut != "" {
		t.Errorf("directory without registry files: exit %d\n%s%s", code, out, errOut)
	}
}

// TestDiffBadBase: a name that is no file but a revision, a revision that does not
// exist, and a shallow clone without the base: exit 2 with the fix (issue 21, item 2
// and "Bad input").
func TestDiffBadBase(t *testing.T) {
	repo, run := gitRepo(t)
	file := filepath.Join(repo, "registry.yaml")
	writeFile(t, file, diffOld)
	run("add", ".")
	run("commit", "-q", "-m", "base")
	run("checkout", "-q", "-b", "feature")
	writeFile(t, file, diffNew)
	run("commit", "-q", "-am", "head")
	d := diffCommand()
	// Run from inside the repository so that "main" is read as a path first.
	t.Chdir(repo)
	code, out, errOut := runCommandDirect(t, d, "", "-r", "registry.yaml", "--against", "main")
	for against, want := range map[string]string{
		"main":               `--against "main": no such file or directory (--against takes a registry PATH or git:REF[:PATH]); main is a git revision: did you mean git:main?`,
		"main:registry.yaml": `--against "main:registry.yaml": no such file or directory (--against takes a registry PATH or git:REF[:PATH]); main is a git revision: did you mean git:main:registry.yaml?`,
		"nosuch":             `--against "nosuch": no such file or directory (--against takes a registry PATH or git:REF[:PATH])`,
		"git:main:":          `--against "git:main:": the PATH after "main:" is empty: leave out the colon to compare -r's own place (git:main), or name the registry (git:main:registry.yaml; git:main:. for the repository root)`,
	} {
		code, out, errOut := runCommandDirect(t, d, "", "-r", "registry.yaml", "--against", against)
		if code != ExitError || out != "" || errOut != "bqgen diff: "+want+"\n" {
			t.Errorf("--against %s: exit %d %q\n got %s\nwant %s", against, code, out, errOut, want)
		}
	}
	code, _, errOut = runCommandDirect(t, d, "", "-r", "registry.yaml", "--against", "git:nope")
	if code != ExitError || !strings.Contains(errOut, `"nope" is not a revision of the repository`) || !strings.Contains(errOut, "fetch-depth: 0") {
		t.Errorf("git:nope: exit %d %s", code, errOut)
	}
	// A shallow clone of the feature branch alone, as actions/checkout makes by default.
	clone := filepath.Join(t.TempDir(), "clone")
	cmd := exec.Command("git", "clone", "-q", "--depth", "1", "--branch", "feature", "--single-branch", "file://"+repo, clone)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("clone: %v\n%s", err, out)
	}
	code, out, errOut = runCommandDirect(t, d, "", "-r", filepath.Join(clone, "registry.yaml"), "--against", "main")
	if want := "bqgen diff: --against \"main\": no such file or directory (--against takes a registry PATH or git:REF[:PATH]); " +
		"if main is a git revision, this shallow clone does not have it: did you mean git:main? (then fetch it: actions/checkout needs `fetch-depth: 0`; elsewhere `git fetch origin main`)\n"; code != ExitError || out != "" || errOut != want {
		t.Errorf("shallow --against main: exit %d %q\n got %s\nwant %s", code, out, errOut, want)
	}
	code, out, errOut = runCommandDirect(t, d, "", "-r", filepath.Join(clone, "registry.yaml"), "--against", "git:origin/main")
	if code != ExitError || out != "" || !strings.Contains(errOut, `"origin/main" is not a revision of the repository`) ||
		!strings.Contains(errOut, "which is a shallow clone without it: fetch the base (actions/checkout: set `fetch-depth: 0`") {
		t.Errorf("shallow: exit %d %q %s", code, out, errOut)
	}
}

// TestDiffLinks: with GITHUB_SERVER_URL, GITHUB_REPOSITORY and GITHUB_SHA set, the
// Markdown report links each finding to its line in the head commit (issue 21, item 7).
func TestDiffLinks(t *testing.T) {
	dir := t.TempDir()
	old, nw := filepath.Join(dir, "old.yaml"), filepath.Join(dir, "reg", "new.yaml")
	writeFile(t, old, diffOld)
	writeFile(t, nw, diffNew)
	vars := map[string]string{"GITHUB_SERVER_URL": "https://github.example", "GITHUB_REPOSITORY": "acme/shop", "GITHUB_SHA": "0123abc", "GITHUB_WORKSPACE": dir}
	fs := pflag.NewFlagSet("bqgen diff", pflag.ContinueOnError)
	run := diffCommand().flags(fs)
	if err := fs.Parse([]string{"-r", nw, "--against", old, "--format", "markdown"}); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	code := run(env{ctx: context.Background(), stdout: &out, stderr: &errOut, lookup: func(k string) string { return vars[k] }}, nil)
	want := "· [`" + nw + ":7:47`](https://github.example/acme/shop/blob/0123abc/reg/new.yaml#L7)"
	if code != ExitFindings || !strings.Contains(out.String(), want) {
		t.Errorf("exit %d, want 1 and %s in\n%s%s", code, want, out.String(), errOut.String())
	}
}

// TestDiffJSONRejected: --format json on a rejected -r registry still writes a JSON
// document to standard output: the diagnostics, as check --format json writes them.
func TestDiffJSONRejected(t *testing.T) {
	dir := t.TempDir()
	old, nw := filepath.Join(dir, "old.yaml"), filepath.Join(dir, "new.yaml")
	writeFile(t, old, diffOld)
	writeFile(t, nw, diffBroken)
	code, out, errOut := runCommandDirect(t, diffCommand(), "", "-r", nw, "--against", old, "--format", "json")
	var diags []map[string]any
	if err := json.Unmarshal([]byte(out), &diags); err != nil || code != ExitFindings || len(diags) == 0 ||
		diags[0]["severity"] != "error" || diags[0]["file"] != nw || diags[0]["line"] != float64(6) || !strings.Contains(errOut, nw+":6:") {
		t.Errorf("exit %d, %v\nstdout %s\nstderr %s", code, err, out, errOut)
	}
	_, checkOut, _ := runCommandDirect(t, checkCommand(), "", "-r", nw, "--format", "json")
	if checkOut != out {
		t.Errorf("diff --format json:\n%s\ncheck --format json:\n%s", out, checkOut)
	}
}
