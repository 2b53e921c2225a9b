package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestGoTool follows the README's "Use in a service" as a new user would: a fresh
// module requires bqgen as a tool (`go get -tool`, through a replace to this checkout),
// `go tool bqgen init` writes the starter registry, a //go:generate line runs
// `go tool bqgen generate`, and a tiny program built against the generated package
// produces, dispatches and validates messages.
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
		"replace github.com/babelqueue/bqgen => "+root+"\n")
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
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "GOTOOLCHAIN=local", "GOPROXY=off")
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
	gocmd("tool", "bqgen", "init")
	gocmd("tool", "bqgen", "check", "-r", "registry.yaml", "--strict")

	putFile(t, filepath.Join(mod, "events", "generate.go"), "// Package events holds the typed BabelQueue messages of registry.yaml.\n"+
		"package events\n\n"+
		"//go:generate go tool bqgen generate -r ../registry.yaml -o .\n")
	putFile(t, filepath.Join(mod, "main.go"), `package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"example.com/shop/events"
	"example.com/shop/events/orders"
)

func main() {
	ctx := context.Background()
	msg, err := events.New(orders.Created{
		OrderID:  1042,
		Total:    events.Money{Amount: 1299, Currency: "EUR"},
		PlacedAt: events.TimestampOf(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)),
	}, events.WithTraceID("7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b"))
	if err != nil {
		log.Fatal(err)
	}
	body, err := msg.Encode()
	if err != nil {
		log.Fatal(err)
	}
	r := events.NewRouter()
	events.Handle(r, func(ctx context.Context, m events.Message[orders.Created]) error {
		fmt.Printf("%s trace %s: order %d, %d %s minor units, placed %s\n", m.URN, m.TraceID,
			m.Data.OrderID, m.Data.Total.Amount, m.Data.Total.Currency, m.Data.PlacedAt.Time().UTC().Format(time.RFC3339))
		return nil
	})
	if err := r.Dispatch(ctx, body); err != nil {
		log.Fatal(err)
	}
	_, err = events.New(orders.Ship{OrderID: 0})
	fmt.Println("invalid command refused:", errors.Is(err, events.ErrInvalidData))
}
`)
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
