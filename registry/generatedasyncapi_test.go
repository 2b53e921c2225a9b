package registry

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/babelqueue/bqgen/internal/emit/asyncapi"
)

// TestGeneratedAsyncAPIInDirectory: bqgen's own YAML AsyncAPI output inside a directory
// registry is rejected as before, but every error in it says what the file is and
// what to do; a YAML file that only starts like an AsyncAPI document keeps its hints.
func TestGeneratedAsyncAPIInDirectory(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(filepath.Join("..", "examples", "registry.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "registry.yaml"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	reg, _, err := Load(context.Background(), dir)
	if err != nil || reg == nil {
		t.Fatalf("load: %v", err)
	}
	doc, err := asyncapi.Emit(reg, asyncapi.Options{YAML: true})
	if err != nil {
		t.Fatal(err)
	}
	gen, look := filepath.Join(dir, "asyncapi.yaml"), filepath.Join(dir, "lookalike.yaml")
	if err := os.WriteFile(gen, doc, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(look, []byte("asyncapi: 3.0.0\ninfo: {title: mine}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, diags, err := Load(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	const hint = "this looks like bqgen's AsyncAPI output; move it out of the registry directory (or write it as .json)"
	counts := map[string]int{}
	for _, d := range diags {
		if d.Severity != SeverityError {
			continue
		}
		counts[d.Pos.File]++
		if (d.Hint == hint) != (d.Pos.File == gen) {
			t.Errorf("%s: hint %q", d, d.Hint)
		}
	}
	if counts[gen] == 0 || counts[look] == 0 || len(counts) != 2 {
		t.Fatalf("errors per file: %v, want some in %s and %s only", counts, gen, look)
	}
}
