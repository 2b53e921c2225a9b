package cli

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// TestGenerateLeavesNestedOutputAlone is the report of issue 20, item 16: a second
// registry generated into gen/legacy, then `generate -o gen` of the first one again.
// On main that run removed gen/legacy/babelqueue.go and types.go with exit 0; now
// every file of the nested output stays, byte for byte, and a context of the outer
// registry that needs the nested output's directory is refused with nothing written.
func TestGenerateLeavesNestedOutputAlone(t *testing.T) {
	t.Parallel()
	gen := filepath.Join(t.TempDir(), "gen")
	outer, inner := smallRegistry(t, "orders"), filepath.Join(t.TempDir(), "legacy.yaml")
	src := "version: 1\ngo: {package: legacy}\ntypes:\n  Sku: {type: string, maxLength: 8}\nmessages:\n  urn:babel:billing:paid:\n    summary: S.\n" +
		"    data: {properties: {sku: {type: Sku}}}\n"
	if err := os.WriteFile(inner, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := run(t, "generate", "-r", outer, "-o", gen, "--import-path", "example.com/gen"); code != ExitOK {
		t.Fatalf("outer: exit %d: %s", code, stderr)
	}
	legacy := filepath.Join(gen, "legacy")
	if code, _, stderr := run(t, "generate", "-r", inner, "-o", legacy, "--import-path", "example.com/gen/legacy"); code != ExitOK {
		t.Fatalf("inner: exit %d: %s", code, stderr)
	}
	before := listDir(t, legacy)
	if _, ok := before["babelqueue.go"]; !ok || before["types.go"] == "" {
		t.Fatalf("the nested output lacks babelqueue.go or types.go: %v", keys(before))
	}
	code, stdout, stderr := run(t, "generate", "-r", outer, "-o", gen, "--import-path", "example.com/gen")
	if code != ExitOK || stderr != "" || stdout != gen+": 0 written, 0 removed, "+countFiles(t, gen, legacy)+" unchanged\n" {
		t.Errorf("outer again: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if after := listDir(t, legacy); !reflect.DeepEqual(after, before) {
		t.Errorf("the nested output changed: %v, was %v", keys(after), keys(before))
	}
	// --check sees nothing stale either.
	if code, _, stderr := run(t, "generate", "-r", outer, "-o", gen, "--import-path", "example.com/gen", "--check"); code != ExitOK {
		t.Errorf("--check: exit %d: %s", code, stderr)
	}
	// A context whose package directory is the nested output's: refused (exit 2), nothing written.
	clash := smallRegistry(t, "legacy")
	code, _, stderr = run(t, "generate", "-r", clash, "-o", gen, "--import-path", "example.com/gen")
	if code != ExitError || !strings.Contains(stderr, "holds the output of another bqgen run (its babelqueue.go)") {
		t.Errorf("context legacy: exit %d, stderr %q", code, stderr)
	}
	if after := listDir(t, legacy); !reflect.DeepEqual(after, before) {
		t.Errorf("the nested output changed after a refused run: %v", keys(after))
	}
	if _, err := os.Stat(filepath.Join(gen, "orders", "orders.go")); err != nil {
		t.Errorf("the refused run changed the outer output: %v", err)
	}
}

// countFiles is the number of files below dir, not counting those below skip, in
// decimal.
func countFiles(t *testing.T, dir, skip string) string {
	t.Helper()
	n := 0
	for p := range listDir(t, dir) {
		if !strings.HasPrefix(filepath.Join(dir, filepath.FromSlash(p)), skip+string(filepath.Separator)) {
			n++
		}
	}
	return strconv.Itoa(n)
}
