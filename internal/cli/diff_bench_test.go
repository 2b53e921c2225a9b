//go:build unix

package cli

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"syscall"
	"testing"
	"time"

	"github.com/babelqueue/bqgen/internal/diff"
	"github.com/babelqueue/bqgen/internal/synth"
)

// BenchmarkRunDiff times `bqgen diff -r NEW --against OLD` (runDiff, with the
// collector set as cmd/bqgen sets it, no build cache) on the synthetic registry of
// 10,000 URNs (-short: 1,000) against a copy with one summary edited, as in a pull
// request: ns/op is wall time, cpu-s/op the process's user and system CPU seconds.
func BenchmarkRunDiff(b *testing.B) {
	n := 10000
	if testing.Short() {
		n = 1000
	}
	root := b.TempDir()
	oldDir, newDir := filepath.Join(root, "old"), filepath.Join(root, "new")
	for name, data := range synth.Files(synth.Options{Messages: n}) {
		writeBenchFile(b, filepath.Join(oldDir, name), data)
		if name == "orders.yaml" {
			data = bytes.Replace(data, []byte("Synthetic message number 0."), []byte("Synthetic message number 0, edited."), 1)
		}
		writeBenchFile(b, filepath.Join(newDir, name), data)
	}
	defer debug.SetGCPercent(debug.SetGCPercent(gcPercent))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(memoryLimit))
	e := env{ctx: context.Background(), stdout: io.Discard, stderr: io.Discard, lookup: func(string) string { return "" }}
	cpu0 := cpuTime()
	for b.Loop() {
		if code := runDiff(e, newDir, oldDir, diff.Backward, "text"); code != ExitOK {
			b.Fatalf("exit %d", code)
		}
	}
	b.ReportMetric((cpuTime()-cpu0).Seconds()/float64(b.N), "cpu-s/op")
}

// cpuTime is the user and system CPU time of the process so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func writeBenchFile(b *testing.B, path string, data []byte) {
	b.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		b.Fatal(err)
	}
}
