package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSIGTERMDuringGenerate: the real command, sent SIGTERM while it runs (waiting
// for the lock of its output directory, which this test holds), stops as on SIGINT:
// exit 2 with the cancellation named, nothing written, no .bqgen-* file. The signal
// is sent once the child has the directory open (/proc/<pid>/fd), which it does
// after main installed its signal handling, so the test does not depend on timing.
func TestSIGTERMDuringGenerate(t *testing.T) {
	mod := t.TempDir()
	if err := os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module example.com/svc\n\ngo 1.24\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(mod, "events")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	d, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := syscall.Flock(int(d.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "generate", "-r", filepath.Join("..", "..", "examples", "registry.yaml"), "-o", out)
	cmd.Env = append(os.Environ(), "BQGEN_TEST_MAIN=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	fds := filepath.Join("/proc", strconv.Itoa(cmd.Process.Pid), "fd")
	for deadline := time.Now().Add(30 * time.Second); !holds(fds, out); time.Sleep(5 * time.Millisecond) {
		select {
		case err := <-done:
			t.Fatalf("the child ended before it opened %s: %v: %s", out, err, stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			<-done
			t.Fatalf("the child never opened %s: %s", out, stderr.String())
		}
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	err = <-done
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 2 ||
		!strings.Contains(stderr.String(), "waiting for another bqgen run writing this directory: context canceled") {
		t.Fatalf("after SIGTERM: %v, stderr %q; want exit 2 naming the cancellation", err, stderr.String())
	}
	if ents, err := os.ReadDir(out); err != nil || len(ents) != 0 {
		t.Errorf("%s holds %v (%v), want nothing", out, ents, err)
	}
}

// holds reports whether one of the file descriptors listed in the directory fds
// (/proc/<pid>/fd) is open on path.
func holds(fds, path string) bool {
	ents, _ := os.ReadDir(fds)
	for _, e := range ents {
		if target, err := os.Readlink(filepath.Join(fds, e.Name())); err == nil && target == path {
			return true
		}
	}
	return false
}
