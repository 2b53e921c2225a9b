// Package nodetools gives Go tests the pinned Node.js tools of tools/node (ajv,
// ajv-formats, @asyncapi/parser, @asyncapi/specs, quicktype, typescript; versions in
// tools/node/package.json and its committed package-lock.json).
//
// Dir installs them on first use (`npm ci --no-audit --no-fund`, once per machine, under
// a file lock so that parallel test binaries do not race); `make node-tools` and
// .ci/run install them ahead of time. A missing node or npm fails the test: these
// checks are part of the suite, never skipped.
//
// A worker of `go test -fuzz` installs nothing: the fuzzing engine runs a fuzz
// function's body in worker processes under its own time limits, and an install there
// (minutes on a fresh clone) stalled every worker and left the run hanging. A fuzz
// target that needs the tools calls Dir(f) before f.Fuzz, which runs in the process
// that coordinates the workers (and in a plain `go test`, in the test process); Dir in
// a worker fails when the tools are not installed yet.
package nodetools

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// RelDir is the tools directory relative to the module root.
const RelDir = "tools/node"

var (
	once    sync.Once
	dir     string
	initErr string
)

// Dir returns the absolute path of tools/node with its node_modules installed, running
// `npm ci --no-audit --no-fund` there when node_modules is missing or older than
// package-lock.json. It fails the test when node or npm is missing or the install fails.
func Dir(t testing.TB) string {
	t.Helper()
	once.Do(func() { dir, initErr = setup() })
	if initErr != "" {
		t.Fatal(initErr)
	}
	return dir
}

// ModulesDir returns tools/node/node_modules, installed (see Dir).
func ModulesDir(t testing.TB) string {
	t.Helper()
	return filepath.Join(Dir(t), "node_modules")
}

func setup() (string, string) {
	root, err := moduleRoot()
	if err != nil {
		return "", "nodetools: " + err.Error()
	}
	d := filepath.Join(root, filepath.FromSlash(RelDir))
	if _, err := exec.LookPath("node"); err != nil {
		return "", "nodetools: node is not on PATH; install Node.js >= 20.19 and npm (.ci/run does: apt-get install -y nodejs npm), then run make node-tools"
	}
	if installed(d) {
		return d, ""
	}
	if inFuzzWorker() {
		return "", "nodetools: " + d + "/node_modules is not installed, and a fuzz worker installs nothing (npm ci would run under the fuzzing engine's time limits and stall the run): call nodetools.Dir(f) in the fuzz target before f.Fuzz, or run make node-tools"
	}
	unlock, err := lock(filepath.Join(d, ".install.lock"))
	if err != nil {
		return "", "nodetools: " + err.Error()
	}
	defer unlock()
	if installed(d) { // another test binary installed them while we waited
		return d, ""
	}
	if _, err := exec.LookPath("npm"); err != nil {
		return "", "nodetools: npm is not on PATH; install npm (apt-get install -y npm), then run make node-tools"
	}
	cmd := exec.Command("npm", "ci", "--no-audit", "--no-fund")
	cmd.Dir = d
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", "nodetools: npm ci in " + d + ": " + err.Error() + "\n" + string(out)
	}
	if !installed(d) {
		return "", "nodetools: npm ci in " + d + " left no node_modules/.package-lock.json\n" + string(out)
	}
	return d, ""
}

// inFuzzWorker reports whether this process is a worker of `go test -fuzz`: the test
// binary run again with -test.fuzzworker by the process that coordinates fuzzing.
func inFuzzWorker() bool {
	f := flag.Lookup("test.fuzzworker")
	return f != nil && f.Value.String() == "true"
}

// installed reports whether d/node_modules holds an install of d/package-lock.json:
// npm writes node_modules/.package-lock.json after a complete install.
func installed(d string) bool {
	hidden, err := os.Stat(filepath.Join(d, "node_modules", ".package-lock.json"))
	if err != nil {
		return false
	}
	lockFile, err := os.Stat(filepath.Join(d, "package-lock.json"))
	if err != nil {
		return false
	}
	return !hidden.ModTime().Before(lockFile.ModTime())
}

// moduleRoot walks up from the working directory (a test's package directory) to the
// directory holding go.mod and tools/node/package.json.
func moduleRoot() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := wd; ; {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			if _, err := os.Stat(filepath.Join(d, filepath.FromSlash(RelDir), "package.json")); err == nil {
				return d, nil
			}
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", &os.PathError{Op: "find", Path: wd, Err: os.ErrNotExist}
		}
		d = parent
	}
}

// Command returns a node command with args, run in tools/node with NODE_PATH set to
// its node_modules, so that scripts anywhere can require the pinned packages.
func Command(t testing.TB, args ...string) *exec.Cmd {
	t.Helper()
	d := Dir(t)
	cmd := exec.Command("node", args...)
	cmd.Dir = d
	cmd.Env = append(os.Environ(), "NODE_PATH="+filepath.Join(d, "node_modules"))
	return cmd
}

// RunNode runs script with `node -e` (CommonJS; require() finds the pinned packages),
// feeding it stdin, and returns its standard output. A non-zero exit fails the test
// with the script's standard error.
func RunNode(t testing.TB, script string, stdin []byte) []byte {
	t.Helper()
	cmd := Command(t, "-e", script)
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("node -e: %v\nstderr:\n%s\nstdout:\n%s", err, errOut.Bytes(), out.Bytes())
	}
	return out.Bytes()
}

// FreshFuzzRun runs the fuzz target target (a name, matched exactly) of the test
// binary running t for execs inputs with one worker, as on a fresh clone: in a scratch
// copy of the module's layout (go.mod and tools/node's package files; the package's
// directory as the working directory) with no node_modules, and with npm replaced by
// a stand-in that "installs" an empty node_modules and records which process called
// it: "coordinator" (the process that runs the fuzz target and starts the workers) or
// "worker" (a process running the fuzz function's body). It returns those calls in
// order and the run's combined output; err is the run's exit error. Node must be on
// PATH. It reads /proc to tell the callers apart, and skips t where there is none.
func FreshFuzzRun(t testing.TB, target string, execs int) (calls []string, out string, err error) {
	t.Helper()
	if _, err := os.Stat("/proc/self/cmdline"); err != nil {
		t.Skip("FreshFuzzRun reads /proc, which this system lacks")
	}
	root, rerr := moduleRoot()
	if rerr != nil {
		t.Fatal(rerr)
	}
	wd, _ := os.Getwd()
	rel, rerr := filepath.Rel(root, wd)
	if rerr != nil {
		t.Fatal(rerr)
	}
	scratch := t.TempDir()
	mustWrite := func(name string, data []byte, mode os.FileMode) {
		t.Helper()
		p := filepath.Join(scratch, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, mode); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"go.mod", RelDir + "/package.json", RelDir + "/package-lock.json"} {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		mustWrite(name, data, 0o644)
	}
	pkgDir := filepath.Join(scratch, rel)
	if err := os.MkdirAll(pkgDir, 0o755); err != nil {
		t.Fatal(err)
	}
	logFile := filepath.Join(scratch, "npm.log")
	mustWrite("bin/npm", []byte(`#!/bin/sh
if tr '\000' ' ' < /proc/$PPID/cmdline | grep -q -- '-test.fuzzworker'; then who=worker; else who=coordinator; fi
echo "$who" >> "$NPM_CALLS"
mkdir -p node_modules && : > node_modules/.package-lock.json
`), 0o755)
	cmd := exec.Command(os.Args[0], "-test.run=^$", "-test.fuzz=^"+target+"$", "-test.fuzztime="+strconv.Itoa(execs)+"x",
		"-test.parallel=1", "-test.fuzzcachedir="+filepath.Join(scratch, "fuzzcache"))
	cmd.Dir = pkgDir
	cmd.Env = append(os.Environ(), "PATH="+filepath.Join(scratch, "bin")+string(os.PathListSeparator)+os.Getenv("PATH"), "NPM_CALLS="+logFile)
	b, err := cmd.CombinedOutput()
	if log, lerr := os.ReadFile(logFile); lerr == nil {
		calls = strings.Fields(string(log))
	}
	return calls, string(b), err
}

// AjvSetup is the JavaScript every test that judges with ajv starts its script with:
// it loads ajv (Ajv2020 for 2020-12, Ajv7 for draft-07) and ajv-formats, and defines
// newAjv(C, vocabulary), an instance as the tests judge with it: strict mode, all
// errors, lengths in code points (unicode), the formats asserted, and the keywords of
// vocabulary (the emitted schemas' x- keywords; undefined: none) registered.
const AjvSetup = `
const Ajv2020 = require("ajv/dist/2020"), Ajv7 = require("ajv"), addFormats = require("ajv-formats");
function newAjv(C, vocabulary) {
  const ajv = new C({strict: true, allErrors: true, unicode: true});
  addFormats(ajv);
  if (vocabulary) ajv.addVocabulary(vocabulary);
  return ajv;
}
`
