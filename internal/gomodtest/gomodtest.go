// Package gomodtest builds throwaway Go modules for the tests that compile, vet and run
// generated code: a temporary directory with a go.mod, files written into it, and the
// go command of the toolchain running the tests, run there hermetically
// (GOFLAGS=-mod=mod, GOTOOLCHAIN=local, GOWORK=off, GOPROXY=off: every dependency comes
// from the module cache the tests were built with). Only tests import it.
//
// Builds are shared through the go build cache of the process (GOCACHE): every command
// runs with -trimpath, so a compiled package is keyed by its import path and its source,
// not by the temporary directory it was written to. Tests that generate the same
// packages under the same module path (the generated runtime, internal/bqrt, is the same
// bytes for every registry) compile them once per cache, and a second run of the suite
// compiles only what changed.
package gomodtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// Env is the environment the go command runs with: the process's, made hermetic, and
// -trimpath (see the package doc), without bqgen's build cache (BQGEN_CACHE=off: a
// bqgen it runs, `go tool bqgen`, must not use the user's).
func Env() []string {
	return append(os.Environ(), "GOFLAGS=-mod=mod -trimpath", "GOTOOLCHAIN=local", "GOWORK=off", "GOPROXY=off", "BQGEN_CACHE=off")
}

// GoTool returns the go command of the toolchain running the tests (GOROOT's, else the
// one on PATH); the test fails when there is none.
func GoTool(t testing.TB) string {
	t.Helper()
	p := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(p); err == nil {
		return p
	}
	p, err := exec.LookPath("go")
	if err != nil {
		t.Fatal("no go command on PATH")
	}
	return p
}

// Module is a module in a temporary directory of the test.
type Module struct {
	t   testing.TB
	Dir string
}

// New returns a module with the module path path (go 1.24) in a fresh temporary
// directory, removed when the test ends.
func New(t testing.TB, path string) *Module {
	t.Helper()
	m := &Module{t: t, Dir: t.TempDir()}
	m.Write("go.mod", []byte("module "+path+"\n\ngo 1.24\n"))
	return m
}

// Write writes b to the slash-separated path rel inside the module, creating its
// directories; the test fails on an error.
func (m *Module) Write(rel string, b []byte) {
	m.t.Helper()
	p := filepath.Join(m.Dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		m.t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		m.t.Fatal(err)
	}
}

// Go runs the go command with args in the module and returns its combined output; the
// test fails, with that output, when the command does.
func (m *Module) Go(args ...string) []byte {
	m.t.Helper()
	cmd := exec.Command(GoTool(m.t), args...)
	cmd.Dir = m.Dir
	cmd.Env = Env()
	out, err := cmd.CombinedOutput()
	if err != nil {
		m.t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// Build builds the main package pkg ("./cmd/x") of the module and returns the path of
// the executable, linked without a symbol table and DWARF (-ldflags='-s -w': a third
// less link time; panics still name functions and lines).
func (m *Module) Build(pkg string) string {
	m.t.Helper()
	bin := filepath.Join(m.Dir, filepath.Base(pkg)+".bin")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	m.Go("build", "-trimpath", "-ldflags=-s -w", "-o", bin, pkg)
	return bin
}
