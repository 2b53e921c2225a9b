package cli

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"syscall"
	"testing"

	"github.com/babelqueue/bqgen/internal/outdir"
)

// Output safety (issue 7, item 4): for every command that writes files, an -o that is
// a file, a symbolic link out, an unwritable directory, a full disk or a rename failing
// midway ends with exit 2, the previous output untouched and no temporary file left; a
// hand-written file is never overwritten or deleted.
//
// These tests replace outdir's filesystem operations (outdir.Fail) and so do not run in
// parallel.

const goodRegistry = "../../testdata/registry/good/registry.yaml"

// tree returns every file below dir (hidden ones included) with its content.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case info.Mode()&os.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			m[rel] = "-> " + target
		case info.IsDir():
			if rel != "." {
				m[rel+"/"] = ""
			}
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			m[rel] = string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// writer is one command that writes output: its arguments for a registry and an -o,
// and a hand-written file that must survive in its output directory.
type writer struct {
	name string
	args func(reg, out string) []string
	// dirOut: -o is a directory (generate, jsonschema), else a file (asyncapi).
	dirOut bool
	// handName is a file the command would write, as a hand-written file in the way.
	handName string
	// strayName is a hand-written file with the command's extension that it must leave.
	strayName string
}

var writers = []writer{
	{name: "generate", dirOut: true, handName: "types.go", strayName: "hand.go",
		args: func(reg, out string) []string {
			return []string{"generate", "-r", reg, "-o", out, "--package", "events"}
		}},
	{name: "jsonschema", dirOut: true, handName: "registry.json", strayName: "hand.schema.json",
		args: func(reg, out string) []string { return []string{"jsonschema", "-r", reg, "-o", out} }},
	{name: "asyncapi", handName: "asyncapi.json",
		args: func(reg, out string) []string { return []string{"asyncapi", "-r", reg, "-o", out} }},
}

// prepare runs w on the example registry into root/out (a directory, or a file for
// asyncapi), adds a hand-written file, and returns -o and the directory to watch.
func prepare(t *testing.T, w writer) (out, watch string) {
	t.Helper()
	root := moduleDir(t)
	watch = filepath.Join(root, "out")
	out = watch
	if !w.dirOut {
		if err := os.Mkdir(watch, 0o755); err != nil {
			t.Fatal(err)
		}
		out = filepath.Join(watch, w.handName)
	}
	if code, _, stderr := run(t, w.args(exampleRegistry, out)...); code != ExitOK {
		t.Fatalf("%s: first run: exit %d\n%s", w.name, code, stderr)
	}
	stray := "hand.json"
	if w.strayName != "" {
		stray = w.strayName
	}
	if err := os.WriteFile(filepath.Join(watch, stray), []byte("hand-written\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return out, watch
}

// TestOutputFailuresLeavePreviousOutput: the second run would change, add and remove
// files; a failure at any step of writing leaves the first run's output as it was.
func TestOutputFailuresLeavePreviousOutput(t *testing.T) {
	faults := []struct {
		what string
		op   string
		n    int
		err  error
	}{
		{"unwritable directory", "create", 0, syscall.EACCES},
		{"read-only file system", "create", 1, syscall.EROFS},
		{"full disk", "write", 0, syscall.ENOSPC},
		{"full disk on a later file", "write", 2, syscall.ENOSPC},
		{"first rename fails", "rename", 0, syscall.EIO},
		{"rename fails midway", "rename", 1, syscall.EIO},
	}
	for _, w := range writers {
		for _, f := range faults {
			if !w.dirOut && f.n > 0 {
				continue // one file: only the first operation can fail
			}
			out, watch := prepare(t, w)
			before := tree(t, watch)
			restore := outdir.Fail(f.op, f.n, f.err)
			code, stdout, stderr := run(t, w.args(goodRegistry, out)...)
			restore()
			if code != ExitError {
				t.Errorf("%s, %s: exit %d, want 2\nstdout: %s\nstderr: %s", w.name, f.what, code, stdout, stderr)
			}
			if !strings.Contains(stderr, f.err.Error()) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
				t.Errorf("%s, %s: want one line naming %q, got %q", w.name, f.what, f.err, stderr)
			}
			if after := tree(t, watch); !reflect.DeepEqual(after, before) {
				t.Errorf("%s, %s: output changed:\n got %v\nwant %v", w.name, f.what, keys(after), keys(before))
			}
		}
	}
	// Without a fault the same run succeeds, and the hand-written file is still there.
	for _, w := range writers {
		out, watch := prepare(t, w)
		if code, _, stderr := run(t, w.args(goodRegistry, out)...); code != ExitOK {
			t.Fatalf("%s: exit %d\n%s", w.name, code, stderr)
		}
		stray := "hand.json"
		if w.strayName != "" {
			stray = w.strayName
		}
		if got := tree(t, watch)[stray]; got != "hand-written\n" {
			t.Errorf("%s: hand-written %s = %q after a successful run", w.name, stray, got)
		}
		for name := range tree(t, watch) {
			if strings.HasPrefix(filepath.Base(name), ".bqgen-") {
				t.Errorf("%s: left %s", w.name, name)
			}
		}
	}
}

// TestOutputRefusals: -o that is a file, under a file, a symbolic link out of the tree,
// and a hand-written file in the way: exit 2, nothing written anywhere.
func TestOutputRefusals(t *testing.T) {
	for _, w := range writers {
		t.Run(w.name, func(t *testing.T) {
			root := moduleDir(t)
			outside := filepath.Join(root, "outside")
			if err := os.Mkdir(outside, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(outside, w.handName), []byte("precious\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			file := filepath.Join(root, "file")
			if err := os.WriteFile(file, []byte("a file\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			link := filepath.Join(root, "link")
			if w.dirOut {
				if err := os.Symlink(outside, link); err != nil {
					t.Fatal(err)
				}
			} else {
				if err := os.Symlink(filepath.Join(outside, w.handName), link); err != nil {
					t.Fatal(err)
				}
			}
			inTheWay := filepath.Join(root, "hand")
			if err := os.Mkdir(inTheWay, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(inTheWay, w.handName), []byte("hand-written\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			handOut := inTheWay
			if !w.dirOut {
				handOut = filepath.Join(inTheWay, w.handName)
			}
			cases := map[string]string{
				"under a file":        filepath.Join(file, "out"),
				"a symbolic link out": link,
				"hand-written in way": handOut,
				"a directory (as -o)": outside,
			}
			if w.dirOut {
				cases["a file"] = file
				delete(cases, "a directory (as -o)")
			}
			before := tree(t, root)
			for what, out := range cases {
				code, _, stderr := run(t, w.args(exampleRegistry, out)...)
				if code != ExitError {
					t.Errorf("-o %s: exit %d, want 2\n%s", what, code, stderr)
				}
				if stderr == "" {
					t.Errorf("-o %s: no message", what)
				}
				if after := tree(t, root); !reflect.DeepEqual(after, before) {
					t.Errorf("-o %s: files changed:\n got %v\nwant %v", what, keys(after), keys(before))
				}
			}
		})
	}
}

// TestOutputIsAFile: -o of a command that writes a directory naming a regular file, or a
// path below one, is a usage error (exit 2) that says so and how to fix it, before any
// lookup below it (generate's go.mod search said `stat …/go.mod: not a directory`).
func TestOutputIsAFile(t *testing.T) {
	root := t.TempDir()
	file := filepath.Join(root, "afile")
	if err := os.WriteFile(file, []byte("a file\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"generate", "jsonschema", "fixtures"} {
		for _, c := range []struct{ out, want string }{
			{file, "bqgen " + cmd + ": -o " + file + " is a file, not a directory: choose a directory (it is created when missing)\n"},
			{filepath.Join(file, "sub", "dir"), "bqgen " + cmd + ": -o " + filepath.Join(file, "sub", "dir") + ": " + file + " is a file, not a directory: choose a directory (it is created when missing)\n"},
		} {
			code, stdout, stderr := run(t, cmd, "-r", exampleRegistry, "-o", c.out)
			if code != ExitError || stdout != "" || stderr != c.want {
				t.Errorf("%s -o %s: exit %d, stdout %q, stderr %q\nwant exit 2, stderr %q", cmd, c.out, code, stdout, stderr, c.want)
			}
		}
	}
}
