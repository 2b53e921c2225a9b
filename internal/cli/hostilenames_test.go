package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// Registry and input file names reach text output (issue 16, item 9): a name holding
// ESC/OSC sequences and a newline must not forge a diagnostic line or drive the
// terminal. Text output quotes such names (termtext.Name); JSON carries them exactly.

// hostileName is a file name that, printed raw, sets the terminal title, turns the text
// red and starts a forged diagnostic line.
const hostileName = "a\x1b]0;pwned\a\x1b[31m\nforged.yaml:1:1: error BQ001: fake\u202e.yaml"

// noControls fails when out holds a byte that drives a terminal (ESC, BEL, CR) or the
// bidi override.
func noControls(t *testing.T, what, out string) {
	t.Helper()
	if strings.ContainsAny(out, "\x1b\a\r\u202e") {
		t.Errorf("%s: control characters reach the output:\n%q", what, out)
	}
}

// hostileRegistryDir writes a registry directory holding one file with the hostile name
// and content.
func hostileRegistryDir(t *testing.T, content string) (dir, file string) {
	t.Helper()
	dir = t.TempDir()
	file = filepath.Join(dir, hostileName)
	if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, file
}

const hostileNameRegistry = `version: 1
consumers: [go]
messages:
  urn:babel:orders:created:
    summary: S.
    owner: o
    data: {properties: {x: {type: Nope}}}
`

func TestHostileFileNameCheck(t *testing.T) {
	t.Parallel()
	dir, file := hostileRegistryDir(t, hostileNameRegistry)
	code, out, errOut := run(t, "check", "-r", dir)
	if code != ExitFindings {
		t.Fatalf("check: exit %d\n%s%s", code, out, errOut)
	}
	noControls(t, "check", out+errOut)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], strconv.Quote(file)+":7:") || !strings.HasPrefix(lines[1], "    hint: ") ||
		lines[2] != "1 error, 0 warnings in 1 file" {
		t.Errorf("check text output:\n%s", out)
	}

	code, out, _ = run(t, "check", "-r", dir, "--format", "json")
	var ds []jsonDiagnostic
	if err := json.Unmarshal([]byte(out), &ds); code != ExitFindings || err != nil || len(ds) != 1 || ds[0].File != file {
		t.Errorf("check --format json: exit %d, %v\n%s", code, err, out)
	}
	code, out, _ = run(t, "check", "-r", dir, "--format", "github")
	noControls(t, "check --format github", out)
	want := "::error file=" + ghProp(dir) + "/a%1B]0;pwned%07%1B[31m%0Aforged.yaml%3A1%3A1%3A error BQ001%3A fake%E2%80%AE.yaml,line=7,"
	if code != ExitFindings || strings.Count(out, "\n") != 1 || !strings.HasPrefix(out, want) {
		t.Errorf("check --format github: exit %d\n%s\nwant the prefix\n%s", code, out, want)
	}
}

func TestHostileFileNameGenerateAndDiff(t *testing.T) {
	t.Parallel()
	// generate: the registry is rejected with the diagnostic; a FIFO with that name is an
	// error line.
	dir, file := hostileRegistryDir(t, hostileNameRegistry)
	code, out, errOut := run(t, "generate", "-r", dir, "-o", filepath.Join(t.TempDir(), "out"))
	noControls(t, "generate", out+errOut)
	if code != ExitFindings || !strings.HasPrefix(errOut, strconv.Quote(file)+":7:") {
		t.Errorf("generate: exit %d\n%s", code, errOut)
	}
	fifoDir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(fifoDir, hostileName), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = run(t, "generate", "-r", fifoDir, "-o", filepath.Join(t.TempDir(), "out"))
	noControls(t, "generate on a FIFO", out+errOut)
	if code != ExitError || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, `forged.yaml:1:1: error BQ001: fake\u202e.yaml: not a regular file`) {
		t.Errorf("generate on a FIFO: exit %d\n%s", code, errOut)
	}

	// diff: a breaking change found in a file with that name.
	oldDir, _ := hostileRegistryDir(t, strings.Replace(hostileNameRegistry, "type: Nope", "type: string", 1))
	newDir, newFile := hostileRegistryDir(t, strings.Replace(hostileNameRegistry, "type: Nope", "type: integer", 1))
	code, out, errOut = run(t, "diff", "-r", newDir, "--against", oldDir)
	noControls(t, "diff", out+errOut)
	if code != ExitFindings || !strings.HasPrefix(out, strconv.Quote(newFile)+":7:") {
		t.Errorf("diff: exit %d\n%s%s", code, out, errOut)
	}
}

func TestHostileFileNameValidate(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	input := filepath.Join(dir, hostileName)
	if err := os.WriteFile(input, []byte(`{"job": "urn:babel:orders:created"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := run(t, "validate", "-r", exampleRegistry, input, filepath.Join(dir, hostileName+".missing"))
	noControls(t, "validate", out+errOut)
	if code != ExitError {
		t.Errorf("validate: exit %d", code)
	}
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if !strings.HasPrefix(l, strconv.Quote(input)+": ") && !strings.HasPrefix(l, "2 inputs, ") {
			t.Errorf("validate: line %q does not start with the quoted name", l)
		}
	}
	if !strings.HasPrefix(errOut, strconv.Quote(input+".missing")+": ") || strings.Count(errOut, "\n") != 1 {
		t.Errorf("validate errors:\n%s", errOut)
	}
}
