package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestYAMLOutputInsideRegistryDirectory: asyncapi and docs refuse (exit 2, nothing
// written) a .yaml/.yml output file inside the registry directory given with -r, which
// loads every *.yaml/*.yml below it: before, the run succeeded and the next `bqgen
// check -r regd` read the output as registry and exited 1. Paths are compared cleaned,
// absolute, with symbolic links resolved; other names, other directories and a registry
// that is one file are written as before, and check still passes after them.
func TestYAMLOutputInsideRegistryDirectory(t *testing.T) {
	root := t.TempDir()
	regd := filepath.Join(root, "regd")
	if err := os.Mkdir(regd, 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(exampleRegistry)
	if err != nil {
		t.Fatal(err)
	}
	regFile := filepath.Join(regd, "registry.yaml")
	if err := os.WriteFile(regFile, b, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, "link")
	if err := os.Symlink("regd", link); err != nil {
		t.Fatal(err)
	}
	refused := []struct{ cmd, reg, out, hint string }{
		{"asyncapi", regd, filepath.Join(regd, "asyncapi.yaml"), "asyncapi.json"},
		{"asyncapi", regd + "/", filepath.Join(regd, ".", "asyncapi.YML"), "asyncapi.json"},
		{"asyncapi", regd, filepath.Join(regd, "sub", "deeper", "asyncapi.yml"), "asyncapi.json"},
		{"asyncapi", regd, filepath.Join(link, "asyncapi.yaml"), "asyncapi.json"},
		{"asyncapi", link, filepath.Join(root, "x", "..", "regd", "asyncapi.yaml"), "asyncapi.json"},
		{"docs", regd, filepath.Join(regd, "catalog.yaml"), "catalog.md"},
	}
	for _, c := range refused {
		code, out, errOut := run(t, c.cmd, "-r", c.reg, "-o", c.out)
		want := "bqgen " + c.cmd + ": -o " + c.out + " lies inside the registry directory " + c.reg + " (-r)"
		if code != ExitError || out != "" || !strings.Contains(errOut, want) || !strings.Contains(errOut, c.hint) ||
			!strings.Contains(errOut, "write it outside "+c.reg) {
			t.Errorf("%s -r %s -o %s: exit %d, stdout %q, stderr:\n%s\nwant exit 2 and %q, naming %s", c.cmd, c.reg, c.out, code, out, errOut, want, c.hint)
		}
	}
	if got := listDir(t, regd); len(got) != 1 || got["registry.yaml"] != string(b) {
		t.Fatalf("regd holds %v, want only registry.yaml", keys(got))
	}
	if code, _, errOut := run(t, "check", "-r", regd); code != ExitOK {
		t.Fatalf("check after the refusals: exit %d\n%s", code, errOut)
	}

	allowed := []struct{ cmd, reg, out string }{
		{"asyncapi", regd, filepath.Join(regd, "asyncapi.json")}, // JSON: not loaded
		{"asyncapi", regd, filepath.Join(root, "asyncapi.yaml")}, // outside
		{"asyncapi", regd, filepath.Join(root, "regd2", "asyncapi.yaml")},
		{"docs", regd, filepath.Join(regd, "catalog.md")},
		{"asyncapi", regFile, filepath.Join(regd, "one.yaml")}, // -r names one file: nothing else is loaded
	}
	for _, c := range allowed {
		if code, _, errOut := run(t, c.cmd, "-r", c.reg, "-o", c.out); code != ExitOK {
			t.Errorf("%s -r %s -o %s: exit %d\n%s", c.cmd, c.reg, c.out, code, errOut)
		}
		if _, err := os.Stat(c.out); err != nil {
			t.Errorf("%s -o %s: %v", c.cmd, c.out, err)
		}
	}
	os.Remove(filepath.Join(regd, "one.yaml")) // the one run above that does break a directory registry
	if code, _, errOut := run(t, "check", "-r", regd); code != ExitOK {
		t.Fatalf("check after the allowed runs: exit %d\n%s", code, errOut)
	}
}
