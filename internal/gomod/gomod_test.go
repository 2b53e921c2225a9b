package gomod

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestImportPath(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	write(t, filepath.Join(root, "go.mod"), "// comment\nmodule example.com/svc\n\ngo 1.24\n")
	write(t, filepath.Join(root, "tools", "go.mod"), "module \"example.com/tools\"\n")
	if err := os.MkdirAll(filepath.Join(root, "internal", "events"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "internal"), filepath.Join(root, "in")); err != nil {
		t.Fatal(err)
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ dir, want string }{
		{root, "example.com/svc"},
		{filepath.Join(root, "internal", "events"), "example.com/svc/internal/events"},
		{filepath.Join(root, "internal", "events") + "/", "example.com/svc/internal/events"},
		{filepath.Join(root, "internal", "events", "."), "example.com/svc/internal/events"},
		{filepath.Join(root, "not", "yet", "there"), "example.com/svc/not/yet/there"},
		{filepath.Join(root, "in", "events"), "example.com/svc/internal/events"}, // through a symlink
		{filepath.Join(root, "tools", "gen"), "example.com/tools/gen"},           // the nearest go.mod
	}
	for _, c := range cases {
		got, modDir, err := ImportPath(c.dir)
		if err != nil || got != c.want {
			t.Errorf("ImportPath(%s) = %q, %v; want %q", c.dir, got, err, c.want)
			continue
		}
		if want := realRoot; c.want == "example.com/tools/gen" {
			if modDir != filepath.Join(realRoot, "tools") {
				t.Errorf("ImportPath(%s): module dir %s", c.dir, modDir)
			}
		} else if modDir != want {
			t.Errorf("ImportPath(%s): module dir %s, want %s", c.dir, modDir, want)
		}
	}
}

func TestImportPathErrors(t *testing.T) {
	t.Parallel()
	// No go.mod anywhere above a fresh temporary directory (on this machine, /tmp has
	// none; the test says so when that is not true).
	dir := t.TempDir()
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			t.Skipf("%s has a go.mod above it", dir)
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	if _, _, err := ImportPath(filepath.Join(dir, "events")); !errors.Is(err, ErrNoModule) {
		t.Errorf("no module: err = %v, want ErrNoModule", err)
	}
	bad := t.TempDir()
	write(t, filepath.Join(bad, "go.mod"), "go 1.24\n")
	if _, _, err := ImportPath(bad); err == nil || errors.Is(err, ErrNoModule) {
		t.Errorf("go.mod without module line: err = %v", err)
	}
	sp := t.TempDir()
	write(t, filepath.Join(sp, "go.mod"), "module example.com/svc\n")
	if p, _, err := ImportPath(filepath.Join(sp, "my events")); err == nil {
		t.Errorf("a directory with a space: %q accepted", p)
	}
}

func TestCheckImportPath(t *testing.T) {
	t.Parallel()
	for p, ok := range map[string]bool{"example.com/svc/events": true, "example.com/svc/": false, "": false, "a b/c": false, "../x": false} {
		if err := CheckImportPath(p); (err == nil) != ok {
			t.Errorf("CheckImportPath(%q) = %v", p, err)
		}
	}
}

// TestCheckElem checks the elements a generated import path may not have: the go
// tool's own (module.CheckImportPath) and those `./...` skips or reads as vendored.
func TestCheckElem(t *testing.T) {
	t.Parallel()
	for elem, want := range map[string]string{
		"orders": "", "n2fa": "", "auxiliary": "", "internal": "", "a.b": "", "con2": "",
		"aux":      `"aux" disallowed as path element component on Windows, and the go tool refuses it on every system`,
		"Nul.txt":  `"Nul" disallowed as path element component on Windows, and the go tool refuses it on every system`,
		"com9":     `"com9" disallowed as path element component on Windows, and the go tool refuses it on every system`,
		"vendor":   "the go tool reads a package below a vendor directory as vendored: the generated packages could not import each other",
		"testdata": "`./...` skips a directory named testdata: go build, go vet and go list of ./... would leave the packages out",
		"_x":       "`./...` skips a directory whose name starts with . or _: go build, go vet and go list of ./... would leave the packages out",
		".x":       "`./...` skips a directory whose name starts with . or _: go build, go vet and go list of ./... would leave the packages out",
		"abcdef~1": "trailing tilde and digits in path element",
		"a b":      "invalid char ' '",
	} {
		got := ""
		if err := CheckElem(elem); err != nil {
			got = err.Error()
		}
		if got != want {
			t.Errorf("CheckElem(%q) = %q, want %q", elem, got, want)
		}
	}
}
