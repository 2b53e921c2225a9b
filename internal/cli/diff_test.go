package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
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

	// The old registry with errors is reported as the old one: exit 1.
	broken := filepath.Join(dir, "broken.yaml")
	writeFile(t, broken, diffBroken)
	code, out, errOut = runCommandDirect(t, d, "", "-r", nw, "--against", broken)
	if code != ExitFindings || out != "" || !strings.Contains(errOut, "the old registry (--against "+broken+") is rejected") || !strings.Contains(errOut, broken+":6:") {
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
	if code != ExitFindings || out != "" || !strings.Contains(errOut, "the old registry (--against git:HEAD) is rejected") ||
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
