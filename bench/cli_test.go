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

	baseOnce   sync.Once
	baseBinary string
	baseErr    error  // the build failed
	baseSkip   string // why there is no baseline (no git history)
)

// bqgen builds cmd/bqgen once per test process and returns the binary's path; the
// environment variable BQGEN_BENCH_BINARY names another binary to time instead.
func bqgen(b *testing.B) string {
	b.Helper()
	buildOnce.Do(func() {
		if bin := os.Getenv("BQGEN_BENCH_BINARY"); bin != "" {
			binary = bin
			return
		}
		dir, err := tempDir("bqgen-bench-")
		if err != nil {
			buildErr = err
			return
		}
		binary = filepath.Join(dir, "bqgen")
		buildErr = goBuild(".", binary)
	})
	if buildErr != nil {
		b.Fatal(buildErr)
	}
	return binary
}

// baselineCommit is the build the CLI benchmarks compare with: main when issue 22
// (scale) was filed, whose numbers that targets are ratios of.
const baselineCommit = "6a70da9"

// baselineBinary returns the path of bqgen built from baselineCommit, built once per
// test process: the commit's tree is taken from this repository's history with `git
// archive` into a temporary directory and built there with the module cache of this
// machine. BQGEN_BENCH_CLI_BASELINE names a binary to use instead (a build of
// another commit, or the same one built earlier). Without git or without the commit
// in the history (a shallow clone, a source archive) the benchmark is skipped,
// saying so; a failing build fails it.
func baselineBinary(b *testing.B) string {
	b.Helper()
	baseOnce.Do(func() {
		if bin := os.Getenv("BQGEN_BENCH_CLI_BASELINE"); bin != "" {
			baseBinary = bin
			return
		}
		if _, err := exec.LookPath("git"); err != nil {
			baseSkip = "no git on PATH to build the baseline " + baselineCommit + "; set BQGEN_BENCH_CLI_BASELINE to a bqgen binary built from it"
			return
		}
		if out, err := exec.Command("git", "cat-file", "-e", baselineCommit+"^{commit}").CombinedOutput(); err != nil {
			baseSkip = fmt.Sprintf("commit %s is not in this repository's git history (%s); fetch it (git fetch --unshallow) or set BQGEN_BENCH_CLI_BASELINE to a bqgen binary built from it",
				baselineCommit, strings.TrimSpace(string(out)))
			return
		}
		dir, err := tempDir("bqgen-bench-base-")
		if err != nil {
			baseErr = err
			return
		}
		top, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
		if err != nil {
			baseErr = fmt.Errorf("git rev-parse --show-toplevel: %v", err)
			return
		}
		// Run at the top: in a subdirectory git archive takes only that directory.
		archive := exec.Command("git", "archive", "--format=tar", baselineCommit)
		archive.Dir = strings.TrimSpace(string(top))
		extract := exec.Command("tar", "-x", "-C", dir)
		extract.Stdin, err = archive.StdoutPipe()
		if err != nil {
			baseErr = err
			return
		}
		var stderr strings.Builder
		archive.Stderr, extract.Stderr = &stderr, &stderr
		if err := extract.Start(); err != nil {
			baseErr = err
			return
		}
		if err := archive.Run(); err != nil {
			baseErr = fmt.Errorf("git archive %s: %v\n%s", baselineCommit, err, stderr.String())
			return
		}
		if err := extract.Wait(); err != nil {
			baseErr = fmt.Errorf("tar -x: %v\n%s", err, stderr.String())
			return
		}
		baseBinary = filepath.Join(dir, "bqgen")
		baseErr = goBuild(dir, baseBinary)
	})
	if baseSkip != "" {
		b.Skip(baseSkip)
	}
	if baseErr != nil {
		b.Fatal(baseErr)
	}
	return baseBinary
}

// tempDirs are the directories of the binaries built by this test process, removed
// by TestMain when it ends.
var (
	tempMu   sync.Mutex
	tempDirs []string
)

// tempDir makes a directory that TestMain removes when the test process ends.
func tempDir(pattern string) (string, error) {
	dir, err := os.MkdirTemp("", pattern)
	if err == nil {
		tempMu.Lock()
		tempDirs = append(tempDirs, dir)
		tempMu.Unlock()
	}
	return dir, err
}

// TestMain runs the benchmarks and removes the binaries (and the baseline's source
// tree) they built.
func TestMain(m *testing.M) {
	code := m.Run()
	for _, dir := range tempDirs {
		os.RemoveAll(dir)
	}
	os.Exit(code)
}

// goBuild builds cmd/bqgen of the module in dir into the file out.
func goBuild(dir, out string) error {
	cmd := exec.Command("go", "build", "-o", out, "./cmd/bqgen")
	if dir == "." {
		cmd.Args[len(cmd.Args)-1] = "github.com/babelqueue/bqgen/cmd/bqgen"
	}
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=readonly")
	if o, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build in %s: %v\n%s", dir, err, o)
	}
	return nil
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

// run runs the bqgen binary bin with args and returns its wall time, CPU time
// (user+system) and peak RSS in KiB. An exit code other than wantExit fails the
// benchmark.
func run(b *testing.B, bin string, env []string, wantExit int, args ...string) (wall, cpu time.Duration, peakKiB int64) {
	b.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	var stderr strings.Builder
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	wall = time.Since(start)
	code := 0
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			b.Fatal(err)
		}
		code = ee.ExitCode()
	}
	if code != wantExit {
		b.Fatalf("%s %s: exit %d, want %d\n%s", bin, strings.Join(args, " "), code, wantExit, stderr.String())
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	return wall, cpu, ru.Maxrss
}

// paths are the files one size of BenchmarkCLI works on: the synthetic registry
// (reg), its next version (next, internal/synth's Evolve) and an output directory.
type paths struct{ reg, next, out string }

// cliCase is one command BenchmarkCLI times. A case is added by appending to
// cliCases; every case runs at every size of sizes, for the binary of this tree and
// the baseline's, interleaved.
type cliCase struct {
	name string
	exit int                    // the exit code every run must end with
	args func(p paths) []string // the command line
	// prepare, when set, runs before each run of either binary, untimed; by default
	// the output directory is removed (a run from scratch).
	prepare func(b *testing.B, p paths)
	// metrics, when set, runs after the last run of this tree's binary and may report
	// more metrics (the output's size).
	metrics func(b *testing.B, p paths)
	// cached runs this tree's binary with a build cache (BQGEN_CACHE in a directory
	// beside the output) warmed before each run by a run of the same command, untimed,
	// instead of prepare: the re-run of an unchanged input. Every other case runs
	// with BQGEN_CACHE=off, so that it times the work itself. edit, when set, changes
	// the registry after that warm-up (and is undone after the timed runs).
	cached bool
	edit   func(b *testing.B, p paths, undo bool)
}

// editSummary is a cliCase.edit: one message's summary in one file of the registry
// (a directory: the first context's file; one file: its first summary) gains a
// word, and loses it again on undo.
func editSummary(b *testing.B, p paths, undo bool) {
	file := p.reg
	if fi, err := os.Stat(p.reg); err == nil && fi.IsDir() {
		file = filepath.Join(p.reg, "orders.yaml")
	}
	old, err := os.ReadFile(file)
	if err != nil {
		b.Fatal(err)
	}
	from, to := "summary: Synthetic message number", "summary: Edited synthetic message number"
	if undo {
		from, to = to, from
	}
	edited := strings.Replace(string(old), from, to, 1)
	if edited == string(old) {
		b.Fatalf("%s: no %q to edit", file, from)
	}
	if err := os.WriteFile(file, []byte(edited), 0o644); err != nil {
		b.Fatal(err)
	}
}

// cliCases are the commands of BenchmarkCLI.
var cliCases = []cliCase{
	{name: "generate", args: func(p paths) []string { return []string{"generate", "-r", p.reg, "-o", p.out} }},
	{name: "jsonschema", args: func(p paths) []string { return []string{"jsonschema", "-r", p.reg, "-o", p.out} }},
	{name: "check", args: func(p paths) []string { return []string{"check", "-r", p.reg} }},
	{name: "fixtures", args: func(p paths) []string { return []string{"fixtures", "-r", p.reg, "-o", p.out} },
		metrics: func(b *testing.B, p paths) { b.ReportMetric(float64(dirSize(b, p.out))/(1<<20), "out-MiB") }},
	// diff of a pull request: the evolved registry against the original (exit 1: it
	// has breaking changes); diff-self: the registry against itself (issue 22's).
	{name: "diff", exit: 1, args: func(p paths) []string { return []string{"diff", "-r", p.next, "--against", p.reg} }},
	{name: "diff-self", args: func(p paths) []string { return []string{"diff", "-r", p.reg, "--against", p.reg} }},
	// The build cache (docs/performance.md, "Build cache"): the same command again
	// on an unchanged registry and output, and generate after one message's summary
	// changed (one of the context files).
	{name: "generate-rerun", cached: true, args: func(p paths) []string { return []string{"generate", "-r", p.reg, "-o", p.out} }},
	{name: "generate-one-edit", cached: true, edit: editSummary, args: func(p paths) []string { return []string{"generate", "-r", p.reg, "-o", p.out} }},
	{name: "jsonschema-rerun", cached: true, args: func(p paths) []string { return []string{"jsonschema", "-r", p.reg, "-o", p.out} }},
	{name: "check-rerun", cached: true, args: func(p paths) []string { return []string{"check", "-r", p.reg} }},
}

// BenchmarkCLI times bqgen end to end, as a separate process on registries on disk,
// for every case of cliCases at every size, and in the same run the baseline build
// (baselineBinary: commit baselineCommit, built from this repository's history), the
// two interleaved run by run so that both see the same load of a shared machine.
// sec/op is this tree's wall time; it also reports cpu-sec/op (user+system) and
// peak-MiB (the largest peak RSS of its runs), the baseline's base-sec/op,
// base-cpu-sec/op and base-peak-MiB, and the ratios x-base (wall) and cpu-x-base
// (CPU), this tree's over the baseline's. Targets (docs/performance.md): issue 6's on
// 2 cores, generate 1,000 URNs ≤ 1 s and 10,000 ≤ 10 s in ≤ 1 GiB; issue 19's,
// fixtures 1,000 ≤ 2 s, 10,000 ≤ 20 s; issue 22's at 10,000 URNs, check ≤ 1 s and
// ≤ 0.25 x-base, diff ≤ 2 s, generate ≤ 5 s and ≤ 0.3 x-base, jsonschema ≤ 4 s,
// peak RSS ≤ 1 GiB, and every command ≤ 0.5 s at 1,000 URNs.
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
		p := paths{out: filepath.Join(root, fmt.Sprint(n), "out")}
		for _, c := range cliCases {
			b.Run(fmt.Sprintf("%s/%d", c.name, n), func(b *testing.B) {
				once.Do(func() {
					p.reg = writeRegistry(b, filepath.Join(root, fmt.Sprint(n), "old"), n, false)
					p.next = writeRegistry(b, filepath.Join(root, fmt.Sprint(n), "new"), n, true)
				})
				timeRuns(b, c, p)
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

// timeRuns runs case c on p b.N times with this tree's binary and as often with the
// baseline's, interleaved (the baseline first, untimed), and reports the metrics of
// BenchmarkCLI.
func timeRuns(b *testing.B, c cliCase, p paths) {
	b.Helper()
	bin, base := bqgen(b), baselineBinary(b)
	prepare := c.prepare
	if prepare == nil {
		prepare = func(b *testing.B, p paths) {
			if err := os.RemoveAll(p.out); err != nil {
				b.Fatal(err)
			}
		}
	}
	args := c.args(p)
	env := append(os.Environ(), "BQGEN_CACHE=off")
	if c.cached {
		env = append(os.Environ(), "BQGEN_CACHE="+filepath.Join(filepath.Dir(p.out), "cache"))
		prepare = func(b *testing.B, p paths) {
			if c.edit != nil {
				c.edit(b, p, true) // back to the registry of the other cases
			}
			run(b, bin, env, c.exit, args...)
			if c.edit != nil {
				c.edit(b, p, false)
			}
		}
		if c.edit != nil {
			c.edit(b, p, false) // so that the first undo has an edit to undo
		}
		defer func() {
			if c.edit != nil {
				c.edit(b, p, true)
			}
		}()
	}
	var cpu, baseWall, baseCPU time.Duration
	var peak, basePeak int64
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		prepare(b, p)
		w, t, rss := run(b, base, env, c.exit, args...)
		baseWall, baseCPU, basePeak = baseWall+w, baseCPU+t, max(basePeak, rss)
		prepare(b, p)
		b.StartTimer()
		_, t, rss = run(b, bin, env, c.exit, args...)
		cpu += t
		peak = max(peak, rss)
	}
	b.StopTimer()
	wall := b.Elapsed()
	n := float64(b.N)
	b.ReportMetric(cpu.Seconds()/n, "cpu-sec/op")
	b.ReportMetric(float64(peak)/1024, "peak-MiB")
	b.ReportMetric(baseWall.Seconds()/n, "base-sec/op")
	b.ReportMetric(baseCPU.Seconds()/n, "base-cpu-sec/op")
	b.ReportMetric(float64(basePeak)/1024, "base-peak-MiB")
	b.ReportMetric(wall.Seconds()/baseWall.Seconds(), "x-base")
	b.ReportMetric(cpu.Seconds()/baseCPU.Seconds(), "cpu-x-base")
	if c.metrics != nil {
		c.metrics(b, p)
	}
}

// BenchmarkCLIOneFile is BenchmarkCLI's generate, check and diff on the 10,000-URN
// registry written as one file (19 MB; issue 13, item 11: refused by the alias budget
// and the 16 MiB cap before), with the same metrics and baseline. Every run must
// succeed (diff: exit 1, breaking changes).
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
	p := paths{reg: reg, next: next, out: filepath.Join(root, "out")}
	for _, c := range cliCases {
		if c.name != "generate" && c.name != "check" && c.name != "diff" {
			continue
		}
		b.Run(fmt.Sprintf("%s/%d", c.name, n), func(b *testing.B) { timeRuns(b, c, p) })
	}
}
