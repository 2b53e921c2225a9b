package golang

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/babelqueue/bqgen/internal/gonames"
	"github.com/babelqueue/bqgen/internal/synth"
	"github.com/babelqueue/bqgen/registry"
)

// synthModule generates the Go package of an n-URN synthetic registry
// (internal/synth) into dir/events of a fresh module at dir.
func synthModule(tb testing.TB, dir string, n int) {
	tb.Helper()
	src := synth.Registry(synth.Options{Messages: n})
	reg, diags, err := registry.LoadFiles(context.Background(), map[string][]byte{"synth.yaml": src})
	if err != nil || reg == nil || diags.HasErrors() {
		tb.Fatalf("synthetic registry (n=%d) does not load: %v %v", n, err, diags)
	}
	names, colls := gonames.Plan(reg, "events")
	if len(colls) > 0 {
		tb.Fatalf("collisions: %v", colls)
	}
	files, err := Emit(reg, names, Options{Package: "events"})
	if err != nil {
		tb.Fatal(err)
	}
	writeModule(tb, dir, files)
}

func writeModule(tb testing.TB, dir string, files []File) {
	tb.Helper()
	if err := os.MkdirAll(filepath.Join(dir, "events"), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/synth\n\ngo 1.24\n"), 0o644); err != nil {
		tb.Fatal(err)
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, "events", f.Name), f.Content, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
}

// buildStats is one `go build` run.
type buildStats struct {
	wall   time.Duration
	cpu    time.Duration // user + system time of the go command and its children
	maxRSS int64         // bytes, the largest resident set of the go command's children
}

// goBuild runs `go build ./...` in dir with the given GOCACHE and returns its wall
// time and peak RSS (rusage of the waited-for children: the compiler).
func goBuild(tb testing.TB, gocmd, dir, cache string) buildStats {
	tb.Helper()
	cmd := exec.Command(gocmd, "build", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOCACHE="+cache, "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local", "GOWORK=off", "GOPROXY=off")
	start := time.Now()
	out, err := cmd.CombinedOutput()
	wall := time.Since(start)
	if err != nil {
		tb.Fatalf("go build: %v\n%s", err, out)
	}
	var rss int64
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rss = ru.Maxrss * 1024 // Linux reports KiB
	}
	return buildStats{wall: wall, cpu: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), maxRSS: rss}
}

// measureBuild times the build of the generated package of an n-URN synthetic
// registry with a fresh GOCACHE. It first builds the package's runtime file alone,
// so that the standard library is compiled (and cached) before the clock starts:
// "pkg" is the cost of the generated package, "cold" the first build including the
// standard library.
func measureBuild(tb testing.TB, n int) (cold, pkg buildStats) {
	tb.Helper()
	gocmd := goTool(tb)
	dir := tb.TempDir()
	cache := filepath.Join(tb.TempDir(), "gocache")
	synthModule(tb, dir, n)
	// The runtime alone (the std packages it imports) first.
	all, err := os.ReadDir(filepath.Join(dir, "events"))
	if err != nil {
		tb.Fatal(err)
	}
	stash := tb.TempDir()
	for _, e := range all {
		if e.Name() != runtimeFile {
			if err := os.Rename(filepath.Join(dir, "events", e.Name()), filepath.Join(stash, e.Name())); err != nil {
				tb.Fatal(err)
			}
		}
	}
	cold = goBuild(tb, gocmd, dir, cache)
	for _, e := range all {
		if e.Name() != runtimeFile {
			if err := os.Rename(filepath.Join(stash, e.Name()), filepath.Join(dir, "events", e.Name())); err != nil {
				tb.Fatal(err)
			}
		}
	}
	pkg = goBuild(tb, gocmd, dir, cache)
	cold.wall += pkg.wall
	cold.cpu += pkg.cpu
	cold.maxRSS = max(cold.maxRSS, pkg.maxRSS)
	return cold, pkg
}

// TestBuildSynthetic reports how long the generated package of synthetic registries
// takes to build. It runs only when BQGEN_BUILD_N lists sizes, e.g.
// BQGEN_BUILD_N=100,1000 go test -run TestBuildSynthetic -v ./internal/emit/golang.
// With BQGEN_SYNTH_OUT=DIR (and one size) it only writes the module to DIR.
func TestBuildSynthetic(t *testing.T) {
	env := os.Getenv("BQGEN_BUILD_N")
	if out := os.Getenv("BQGEN_SYNTH_OUT"); out != "" && env != "" {
		n, err := strconv.Atoi(env)
		if err != nil {
			t.Fatal(err)
		}
		synthModule(t, out, n)
		return
	}
	if env == "" {
		t.Skip("a measurement, not a check: set BQGEN_BUILD_N=100,1000 to time the build (docs/performance.md); BenchmarkGoBuild runs it under make bench")
	}
	for _, s := range strings.Split(env, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			t.Fatal(err)
		}
		cold, pkg := measureBuild(t, n)
		t.Logf("n=%d: generated package %.2fs wall, %.2fs CPU, peak RSS %.0f MiB; cold cache incl. std %.2fs wall, %.2fs CPU",
			n, pkg.wall.Seconds(), pkg.cpu.Seconds(), float64(pkg.maxRSS)/(1<<20), cold.wall.Seconds(), cold.cpu.Seconds())
	}
}

// BenchmarkGoBuild is `go build` of the generated package of a synthetic registry,
// standard library cached, the package itself not (see measureBuild). sec/op counts
// the whole iteration (generating and caching the standard library too); s/build and
// cpu-s/build are the package's build alone, MiB-rss its peak RSS. One iteration takes
// seconds, so the default -benchtime runs one.
func BenchmarkGoBuild(b *testing.B) {
	for _, n := range []int{100, 1000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			var rss int64
			var total, cpu time.Duration
			for b.Loop() {
				_, pkg := measureBuild(b, n)
				total += pkg.wall
				cpu += pkg.cpu
				rss = max(rss, pkg.maxRSS)
			}
			b.ReportMetric(total.Seconds()/float64(b.N), "s/build")
			b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/build")
			b.ReportMetric(float64(rss)/(1<<20), "MiB-rss")
		})
	}
}
