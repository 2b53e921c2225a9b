package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// smallRegistry is a registry of one bounded context, ctx.
func smallRegistry(t *testing.T, ctx string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "r.yaml")
	src := "version: 1\ngo: {package: events}\nmessages:\n  urn:babel:" + ctx + ":created:\n    summary: S.\n" +
		"    data: {properties: {id: {type: integer, minimum: 1}}}\n"
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestGenerateRefusesImportPaths: an output directory or --import-path with an
// element the go tool refuses or skips (vendor, testdata, a leading . or _, a Windows
// device name) is a usage error (exit 2) naming the element, and nothing is written;
// on main the packages were written, and then did not build (vendor, aux) or dropped
// out of `./...` (testdata, _x, .x).
func TestGenerateRefusesImportPaths(t *testing.T) {
	t.Parallel()
	reg := smallRegistry(t, "orders")
	mod := t.TempDir()
	if err := os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module example.com/m\n\ngo 1.24\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ out, imp, want string }{
		{out: "x/vendor/gen", want: `element "vendor": the go tool reads a package below a vendor directory as vendored`},
		{out: "vendor/gen", want: `element "vendor"`},
		{out: "testdata/gen", want: `element "testdata": ` + "`./...` skips a directory named testdata"},
		{out: "x/_gen", want: `element "_gen": ` + "`./...` skips a directory whose name starts with . or _"},
		{out: ".cache/gen", want: `element ".cache"`},
		{out: "AUX/gen", want: `"AUX" disallowed as path element component on Windows, and the go tool refuses it on every system`},
		{out: "x/con.d", want: `"con" disallowed as path element component on Windows`},
		{out: "gen", imp: "example.com/m/vendor/gen", want: `--import-path: import path "example.com/m/vendor/gen": element "vendor"`},
		{out: "gen", imp: "vendor/gen", want: `--import-path: import path "vendor/gen": the go tool reads a package below a vendor directory`},
		{out: "gen", imp: "example.com/m/testdata", want: `element "testdata"`},
		{out: "gen", imp: "example.com/_m/gen", want: `element "_m"`},
		{out: "gen", imp: "example.com/m/lpt1", want: `"lpt1" disallowed as path element component on Windows`},
	} {
		out := filepath.Join(mod, filepath.FromSlash(c.out))
		args := []string{"generate", "-r", reg, "-o", out}
		if c.imp != "" {
			args = append(args, "--import-path", c.imp)
		}
		code, stdout, stderr := run(t, args...)
		if code != ExitError || stdout != "" || !strings.HasPrefix(stderr, "bqgen generate: ") || !strings.Contains(stderr, c.want) {
			t.Errorf("-o %s --import-path %q: exit %d, stdout %q, stderr %q; want exit 2 with %q", c.out, c.imp, code, stdout, stderr, c.want)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("-o %s: the output directory was created (%v)", c.out, err)
		}
	}
	// The module path itself is not a directory of the module: its elements are
	// not checked for ./... (a leading _ there is the module's name).
	under := filepath.Join(t.TempDir(), "u")
	if err := os.MkdirAll(under, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(under, "go.mod"), []byte("module example.com/_tools\n\ngo 1.24\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := run(t, "generate", "-r", reg, "-o", filepath.Join(under, "gen")); code != ExitOK {
		t.Errorf("module example.com/_tools: exit %d: %s", code, stderr)
	}
}

// TestGenerateRefusesDeviceContext: a bounded context named like a Windows device is
// a finding of check (BQ053, exit 1) and generate writes nothing.
func TestGenerateRefusesDeviceContext(t *testing.T) {
	t.Parallel()
	reg := smallRegistry(t, "aux")
	out := filepath.Join(t.TempDir(), "gen")
	code, stdout, stderr := run(t, "generate", "-r", reg, "-o", out, "--import-path", "example.com/gen")
	if code != ExitFindings || stdout != "" || !strings.Contains(stderr, `error BQ053: the Go package directory "aux" of bounded context "aux" cannot be in an import path`) ||
		!strings.Contains(stderr, "hint: name the package with `go: {contexts: {aux: auxpkg}}`") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("the output directory was created (%v)", err)
	}
}
