package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/babelqueue/bqgen/registry"
)

func TestInit(t *testing.T) {
	t.Parallel()
	dir := moduleDir(t)
	out := filepath.Join(dir, "messages", "registry.yaml")
	code, stdout, stderr := run(t, "init", "-o", out)
	if code != ExitOK || !strings.HasPrefix(stdout, "wrote "+out+" and "+filepath.Join(dir, "messages", "registry.schema.json")+"\n") {
		t.Fatalf("exit %d, %q\n%s", code, stdout, stderr)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if first, _, _ := strings.Cut(string(b), "\n"); first != "# yaml-language-server: $schema=./registry.schema.json" {
		t.Errorf("first line %q", first)
	}
	schema, err := os.ReadFile(filepath.Join(dir, "messages", "registry.schema.json"))
	if err != nil || string(schema) != string(registry.Schema()) {
		t.Errorf("registry.schema.json is not registry.Schema(): %v", err)
	}
	// The starter passes the strictest check, and has one event and one command.
	if code, stdout, _ := run(t, "check", "-r", out, "--strict"); code != ExitOK || stdout != "" {
		t.Errorf("check --strict: exit %d\n%s", code, stdout)
	}
	for _, want := range []string{"kind: event", "kind: command"} {
		if strings.Count(string(b), want) != 1 {
			t.Errorf("starter has %d %q", strings.Count(string(b), want), want)
		}
	}
	// It generates a Go package.
	if code, _, stderr := run(t, "generate", "-r", out, "-o", filepath.Join(dir, "events")); code != ExitOK {
		t.Errorf("generate: exit %d: %s", code, stderr)
	}

	// Never overwrites: either file existing stops it, nothing written.
	code, _, stderr = run(t, "init", "-o", out)
	if code != ExitError || !strings.Contains(stderr, "exists; init never overwrites") {
		t.Errorf("second init: exit %d, %s", code, stderr)
	}
	other := filepath.Join(dir, "messages", "other.yaml")
	code, _, stderr = run(t, "init", "-o", other)
	if code != ExitError || !strings.Contains(stderr, "registry.schema.json exists") {
		t.Errorf("init beside a schema file: exit %d, %s", code, stderr)
	}
	if _, err := os.Stat(other); err == nil {
		t.Error("init wrote other.yaml although it refused")
	}
}

func TestInitDefaultAndUsage(t *testing.T) {
	dir := t.TempDir()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	if code, _, stderr := run(t, "init"); code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, f := range []string{"registry.yaml", "registry.schema.json"} {
		if _, err := os.Stat(f); err != nil {
			t.Error(err)
		}
	}
	if code, _, stderr := run(t, "init", "extra"); code != ExitError || !strings.Contains(stderr, `unexpected argument "extra"`) {
		t.Errorf("exit %d: %s", code, stderr)
	}
	if code, _, stderr := run(t, "init", "-o", "x/registry.schema.json"); code != ExitError || !strings.Contains(stderr, "-o must name the registry file") {
		t.Errorf("exit %d: %s", code, stderr)
	}
	if code, _, stderr := run(t, "int"); code != ExitError || !strings.Contains(stderr, `did you mean "init"?`) {
		t.Errorf("exit %d: %s", code, stderr)
	}
}
