package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/babelqueue/bqgen/internal/gomodtest"
)

// TestGoTool follows the README's "Use in a service" as a new user would: a fresh
// module requires bqgen as a tool (`go get -tool`, through a replace to this checkout),
// `go tool bqgen init` writes the starter registry, a //go:generate line runs
// `go tool bqgen generate`, and a tiny program built against the generated package
// produces, dispatches and validates messages. The README's worker package, which runs
// the typed handlers with the generated Worker over a BabelQueue Go SDK transport, is
// vetted against sdkStub, a stand-in module with the SDK's API (the SDK itself is not a
// dependency of the tests).
//
// It runs the go command (with GOPROXY=off: bqgen's dependencies come from the module
// cache this test was built with); -short skips it.
func TestGoTool(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command; skipped with -short")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatal("no go command in PATH")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	mod := t.TempDir()
	putFile(t, filepath.Join(mod, "go.mod"), "module example.com/shop\n\ngo 1.24\n\n"+
		"require github.com/babelqueue/bqgen v0.0.0-00010101000000-000000000000\n\n"+
		"replace github.com/babelqueue/bqgen => "+root+"\n\n"+
		"require github.com/babelqueue/babelqueue-go v0.0.0\n\n"+
		"replace github.com/babelqueue/babelqueue-go => ./_sdk\n")
	for name, content := range sdkStub {
		putFile(t, filepath.Join(mod, "_sdk", filepath.FromSlash(name)), content)
	}
	// bqgen's own checksums, so no new download needs verifying.
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	putFile(t, filepath.Join(mod, "go.sum"), string(sum))

	gocmd := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(goBin, args...)
		cmd.Dir = mod
		// GOPROXY=off: bqgen's dependencies are in the module cache already (this test
		// was built from them), so the run is hermetic.
		cmd.Env = gomodtest.Env()
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}

	gocmd("get", "-tool", "github.com/babelqueue/bqgen/cmd/bqgen")
	gomod, err := os.ReadFile(filepath.Join(mod, "go.mod"))
	if err != nil || !strings.Contains(string(gomod), "\ntool github.com/babelqueue/bqgen/cmd/bqgen\n") {
		t.Fatalf("go get -tool did not add the tool directive:\n%s", gomod)
	}
	// Run as a tool, init's next steps and version speak of the tool.
	if out := gocmd("tool", "bqgen", "init"); !strings.Contains(out, "\n  go tool bqgen check -r registry.yaml\n  go tool bqgen generate -r registry.yaml -o events\n") {
		t.Errorf("go tool bqgen init printed next steps for another invocation:\n%s", out)
	}
	if out := gocmd("tool", "bqgen", "version"); !regexp.MustCompile(`^bqgen v0\.0\.0-00010101000000-000000000000 go\S+, replaced by the directory \S+, executable sha256 [0-9a-f]{12}\n$`).MatchString(out) {
		t.Errorf("go tool bqgen version = %q; want the module version, the replacement and the executable's digest", out)
	}
	gocmd("tool", "bqgen", "check", "-r", "registry.yaml", "--strict")

	// The two Go files of the README's "Use in a service", as written there.
	files := readmeGoFiles(t, filepath.Join(root, "README.md"))
	putFile(t, filepath.Join(mod, "events", "generate.go"), files["events"])
	putFile(t, filepath.Join(mod, "main.go"), files["main"])
	putFile(t, filepath.Join(mod, "worker", "worker.go"), files["worker"])
	gocmd("generate", "./...")
	if _, err := os.Stat(filepath.Join(mod, "events", "orders", "orders.go")); err != nil {
		t.Fatalf("go generate wrote no events/orders/orders.go: %v", err)
	}
	gocmd("vet", "./...")
	got := gocmd("run", ".")
	want := "urn:babel:orders:created trace 7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b: order 1042, 1299 EUR minor units, placed 2026-01-02T03:04:05Z\n" +
		"invalid command refused: true\n"
	if got != want {
		t.Errorf("program printed\n%s\nwant\n%s", got, want)
	}
	// Regenerating changes nothing: the drift gate passes.
	gocmd("tool", "bqgen", "generate", "-r", "registry.yaml", "-o", "events", "--check")
}

// readmeGoFiles returns the Go code blocks of the README that are whole files of
// "package events", "package main" and "package worker", by package name: one each.
func readmeGoFiles(t *testing.T, path string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	rest := string(b)
	for {
		i := strings.Index(rest, "\n```go\n")
		if i < 0 {
			break
		}
		rest = rest[i+len("\n```go\n"):]
		j := strings.Index(rest, "\n```\n")
		if j < 0 {
			t.Fatal("README: unterminated ```go block")
		}
		block := rest[:j+1]
		rest = rest[j:]
		pkg, _, ok := strings.Cut(strings.TrimPrefix(block, "package "), "\n")
		if !strings.HasPrefix(block, "package ") || !ok {
			t.Fatalf("README: a Go block that is not a whole file (every snippet must compile as written):\n%s", block)
		}
		if _, dup := out[pkg]; dup {
			t.Fatalf("README: two Go files of package %s", pkg)
		}
		out[pkg] = block
	}
	if out["events"] == "" || out["main"] == "" || out["worker"] == "" {
		t.Fatalf("README: Go files of packages %v, want events, main and worker", out)
	}
	// Other whole files (the events_test of "Testing other languages against the
	// registry") are run by the tests of their own section (internal/fixtures).
	return map[string]string{"events": out["events"], "main": out["main"], "worker": out["worker"]}
}

// putFile writes content to path, creating its directory.
func putFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// sdkStub is a stand-in for the BabelQueue Go SDK (github.com/babelqueue/babelqueue-go)
// with the part of its API the README's worker uses, as the SDK declares it: the
// Transport interface with its ReceivedMessage (the generated Worker infers its message
// type from it), and gdpr's AES-GCM cipher. Its bodies do nothing useful;
// examples/events/worker_redis_test.go runs the Worker over a real redis-server with a
// transport of the SDK's semantics, and internal/emit/golang/rt's sdk_test.go tests
// DispatchEnvelope on an envelope that behaves as the SDK's does.
var sdkStub = map[string]string{
	"go.mod": "module github.com/babelqueue/babelqueue-go\n\ngo 1.21\n",
	"babelqueue.go": `package babelqueue

import (
	"context"
	"time"
)

type ReceivedMessage struct {
	Body    string
	Queue   string
	Handle  any
	Headers map[string]string
}

type Transport interface {
	Publish(ctx context.Context, queue, body string) error
	Pop(ctx context.Context, queue string, timeout time.Duration) (*ReceivedMessage, error)
	Ack(ctx context.Context, msg *ReceivedMessage) error
}
`,
	"gdpr/cipher.go": `package gdpr

import "errors"

type AESGCMCipher struct{}

func NewAESGCMCipher(key []byte) (*AESGCMCipher, error) { return &AESGCMCipher{}, nil }

func (c *AESGCMCipher) Encrypt(plaintext []byte) (string, error) { return "", errors.New("stub") }

func (c *AESGCMCipher) Decrypt(ciphertext string) ([]byte, error) { return nil, errors.New("stub") }
`,
}
