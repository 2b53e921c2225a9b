//go:build unix

package main

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSignalsCancelTheContext: SIGTERM and SIGINT cancel the context main runs
// under, and do not kill the process. Each signal goes to a child process (this
// test binary again), since a signal that is not caught would kill the test run.
func TestSignalsCancelTheContext(t *testing.T) {
	if sig := os.Getenv("BQGEN_TEST_SIGNAL"); sig != "" {
		ctx, stop := notifyContext()
		defer stop()
		s := map[string]syscall.Signal{"TERM": syscall.SIGTERM, "INT": syscall.SIGINT}[sig]
		if err := syscall.Kill(os.Getpid(), s); err != nil {
			t.Fatal(err)
		}
		select {
		case <-ctx.Done():
			fmt.Println("context cancelled by SIG" + sig)
		case <-time.After(5 * time.Second):
			t.Fatal("the context was not cancelled")
		}
		return
	}
	for _, sig := range []string{"TERM", "INT"} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestSignalsCancelTheContext$", "-test.v")
		cmd.Env = append(os.Environ(), "BQGEN_TEST_SIGNAL="+sig)
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "context cancelled by SIG"+sig+"\n") {
			t.Errorf("SIG%s: %v\n%s", sig, err, out)
		}
	}
}
