package bench

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/babelqueue/bqgen/internal/synth"
)

// sizes are the registry sizes of issue 6 (URNs before the .v2s: N/10 more messages).
var sizes = []int{100, 1000, 10000}

var (
	buildOnce sync.Once
	binary    string
	buildErr  error
)

// bqgen builds cmd/bqgen once per test process and returns the binary's path; the
// environment variable BQGEN_BENCH_BINARY names another binary to time instead (an
// older build, for a before/after comparison with benchstat).
func bqgen(b *testing.B) string {
	b.Helper()
	buildOnce.Do(func() {
		if bin := os.Getenv("BQGEN_BENCH_BINARY"); bin != "" {
			binary = bin
			return
		}
		dir, err := os.MkdirTemp("", "bqgen-bench-")
		if err != nil {
			buildErr = err
			return
		}
		binary = filepath.Join(dir, "bqgen")
		out, err := exec.Command("go", "build", "-o", binary, "github.com/babelqueue/bqgen/cmd/bqgen").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		b.Fatal(buildErr)
	}
	return binary
}

// writeRegistry writes the synthetic registry of n URNs (evolved: its next version)
// under dir, one file per bounded context, and returns the directory.
func writeRegistry(b *testing.B, dir string, n int, evolved bool) string {
	b.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	for name, data := range synth.Files(synth.Options{Messages: n, Evolve: evolved}) {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return dir
}

// run runs bqgen with args and returns its CPU time (user+system) and peak RSS. An
// exit code other than wantExit fails the benchmark.
func run(b *testing.B, wantExit int, args ...string) (cpu time.Duration, peakKiB int64) {
	b.Helper()
	cmd := exec.Command(bqgen(b), args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err := cmd.Run()
	code := 0
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			b.Fatal(err)
		}
		code = ee.ExitCode()
	}
	if code != wantExit {
		b.Fatalf("bqgen %s: exit %d, want %d\n%s", strings.Join(args, " "), code, wantExit, stderr.String())
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	return cpu, ru.Maxrss
}

// BenchmarkCLI times bqgen end to end, as a separate process on registries on disk:
// generate (a fresh output directory each time), jsonschema, check, and diff of the
// evolved registry against the original (exit 1: it has breaking changes). Besides
// sec/op (wall) it reports cpu-sec/op (user+system) and peak-MiB (the largest peak
// RSS of the runs). Issue 6's targets, on 2 cores: generate 1,000 URNs ≤ 1 s and
// 10,000 ≤ 10 s in ≤ 1 GiB; check and diff on 10,000 ≤ 2 s. Issue 19's: fixtures 1,000 ≤ 2 s,
// 10,000 ≤ 20 s; its sub-benchmarks also report the output size, out-MiB.
func BenchmarkCLI(b *testing.B) {
	root := b.TempDir()
	// generate takes the import path of its output from the nearest go.mod.
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module "+buildModule+"\n\ngo 1.24\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	for _, n := range sizes {
		// The registries of size n, written by the first sub-benchmark of that size
		// that -bench selects.
		var once sync.Once
		var reg, next string
		out := filepath.Join(root, fmt.Sprint(n), "out")
		cases := []struct {
			name string
			exit int
			args func() []string // reg and next are written when it is called
		}{
			{"generate", 0, func() []string { return []string{"generate", "-r", reg, "-o", out} }},
			{"jsonschema", 0, func() []string { return []string{"jsonschema", "-r", reg, "-o", out} }},
			{"check", 0, func() []string { return []string{"check", "-r", reg} }},
			{"fixtures", 0, func() []string { return []string{"fixtures", "-r", reg, "-o", out} }},
			{"diff", 1, func() []string { return []string{"diff", "-r", next, "--against", reg} }},
		}
		for _, c := range cases {
			b.Run(fmt.Sprintf("%s/%d", c.name, n), func(b *testing.B) {
				bqgen(b) // built before the first timed run
				once.Do(func() {
					reg = writeRegistry(b, filepath.Join(root, fmt.Sprint(n), "old"), n, false)
					next = writeRegistry(b, filepath.Join(root, fmt.Sprint(n), "new"), n, true)
				})
				timeRuns(b, out, c.exit, c.args())
				if c.name == "fixtures" {
					b.ReportMetric(float64(dirSize(b, out))/(1<<20), "out-MiB")
				}
			})
		}
	}
}

// dirSize is the total size of the regular files below dir, in bytes.
func dirSize(b *testing.B, dir string) int64 {
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			info, err := d.Info()
			if err != nil {
				return err
			}
			n += info.Size()
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return n
}

// timeRuns runs bqgen with args b.N times (out removed before each run) and reports
// cpu-sec/op and peak-MiB beside sec/op.
func timeRuns(b *testing.B, out string, exit int, args []string) {
	b.Helper()
	b.ResetTimer()
	var cpu time.Duration
	var peak int64
	for b.Loop() {
		b.StopTimer()
		if err := os.RemoveAll(out); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		t, rss := run(b, exit, args...)
		cpu += t
		peak = max(peak, rss)
	}
	b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-sec/op")
	b.ReportMetric(float64(peak)/1024, "peak-MiB")
}

// BenchmarkCLIOneFile is BenchmarkCLI's generate, check and diff on the 10,000-URN
// registry written as one file (19 MB; issue 13, item 11: refused by the alias budget
// and the 16 MiB cap before). Every run must succeed (diff: exit 1, breaking changes).
func BenchmarkCLIOneFile(b *testing.B) {
	const n = 10000
	root := b.TempDir()
	// A module around the output: a generate that writes packages importing each
	// other takes its import path from the nearest go.mod.
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/onefile\n\ngo 1.24\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	reg, next := filepath.Join(root, "old.yaml"), filepath.Join(root, "new.yaml")
	for path, evolved := range map[string]bool{reg: false, next: true} {
		if err := os.WriteFile(path, synth.Registry(synth.Options{Messages: n, Evolve: evolved}), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	out := filepath.Join(root, "out")
	for _, c := range []struct {
		name string
		exit int
		args []string
	}{
		{"generate", 0, []string{"generate", "-r", reg, "-o", out}},
		{"check", 0, []string{"check", "-r", reg}},
		{"diff", 1, []string{"diff", "-r", next, "--against", reg}},
	} {
		b.Run(fmt.Sprintf("%s/%d", c.name, n), func(b *testing.B) {
			bqgen(b) // built before the first timed run
			timeRuns(b, out, c.exit, c.args)
		})
	}
}
