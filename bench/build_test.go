package bench

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/babelqueue/bqgen/internal/gomodtest"
)

// buildModule is the module path the build benchmarks generate into.
const buildModule = "example.com/bench"

// goRun runs the go command in dir with the build cache cache and returns its CPU
// time (user+system of go and its children) and the peak RSS of its largest child
// (a compile or link process), in bytes.
func goRun(b *testing.B, dir, cache string, args ...string) (cpu time.Duration, rss int64, out string) {
	b.Helper()
	cmd := exec.Command(gomodtest.GoTool(b), args...)
	cmd.Dir = dir
	// A user's build: without the -trimpath the tests' generated modules get (the last
	// GOFLAGS wins), so the figures stay comparable with docs/performance.md's.
	cmd.Env = append(gomodtest.Env(), "GOCACHE="+cache, "GOFLAGS=-mod=mod")
	o, err := cmd.CombinedOutput()
	if err != nil {
		b.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, o)
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), ru.Maxrss * 1024, string(o)
}

// copyTree copies the directory src to dst (a Go build cache: regular files and
// directories).
func copyTree(b *testing.B, src, dst string) {
	b.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		in, err := os.Open(p)
		if err != nil {
			return err
		}
		defer in.Close()
		outf, err := os.Create(target)
		if err != nil {
			return err
		}
		if _, err := io.Copy(outf, in); err != nil {
			outf.Close()
			return err
		}
		return outf.Close()
	})
	if err != nil {
		b.Fatal(err)
	}
}

// buildTree is a module with the packages one bqgen binary generated for the
// synthetic registry, and a build cache holding the standard library it needs.
type buildTree struct {
	dir      string   // the module
	stdCache string   // GOCACHE with the standard library built
	contexts []string // the context packages' directories below events/, sorted
}

// generateTree writes the module of bin's output for the n-URN synthetic registry
// under root and warms a build cache with the standard library.
func generateTree(b *testing.B, bin, root string, n int) buildTree {
	b.Helper()
	t := buildTree{dir: filepath.Join(root, "mod"), stdCache: filepath.Join(root, "std-cache")}
	reg := writeRegistry(b, filepath.Join(root, "registry"), n, false)
	if err := os.MkdirAll(t.dir, 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(t.dir, "go.mod"), []byte("module "+buildModule+"\n\ngo 1.24\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(bin, "generate", "-r", reg, "-o", filepath.Join(t.dir, "events"))
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("%s generate: %v\n%s", bin, err, out)
	}
	ents, err := os.ReadDir(filepath.Join(t.dir, "events"))
	if err != nil {
		b.Fatal(err)
	}
	for _, e := range ents {
		if e.IsDir() && e.Name() != "internal" {
			t.contexts = append(t.contexts, e.Name())
		}
	}
	sort.Strings(t.contexts)
	if len(t.contexts) >= 3 {
		var src strings.Builder
		src.WriteString("// Command three is a service that imports three bounded contexts.\npackage main\n\nimport (\n")
		for _, c := range t.contexts[:3] {
			fmt.Fprintf(&src, "\t_ %q\n", buildModule+"/events/"+c)
		}
		src.WriteString(")\n\nfunc main() {}\n")
		if err := os.MkdirAll(filepath.Join(t.dir, "cmd", "three"), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(t.dir, "cmd", "three", "main.go"), []byte(src.String()), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	// The standard library the generated packages (and a main package) import, built
	// once into the cache every measured build starts from.
	_, _, list := goRun(b, t.dir, t.stdCache, "list", "-deps", "-f", "{{if .Standard}}{{.ImportPath}}{{end}}", "./...")
	pkgs := append(strings.Fields(list), "runtime")
	goRun(b, t.dir, t.stdCache, append([]string{"build"}, pkgs...)...)
	return t
}

// BenchmarkGoBuild is `go build` of what bqgen generates for the synthetic registry
// (internal/synth), each build with a fresh build cache that holds only the standard
// library (the generated packages are compiled every time). Targets, per size:
//
//   - one-context: the runtime package, its machinery and one context package, what a
//     service that handles one bounded context compiles;
//   - three-contexts: a main package importing three contexts, linked;
//   - all: every generated package (go build ./events/...).
//
// With BQGEN_BENCH_BASELINE naming an older bqgen binary (one that wrote one package),
// the same run also builds its output at 1,000 URNs as "baseline/all", so the layouts
// are compared in the same conditions. Besides sec/op (wall) it reports cpu-s/build
// and MiB-rss, the peak RSS of the largest compile or link process. Targets
// (docs/performance.md): at 1,000 URNs one-context ≤ 1.5 s, all ≤ half the baseline's
// wall time, no compile above 400 MiB; at 10,000 URNs no compile above 600 MiB and
// three-contexts ≤ 3 s.
func BenchmarkGoBuild(b *testing.B) {
	root := b.TempDir()
	type target struct {
		name string
		args func(t buildTree) []string
	}
	targets := []target{
		{"one-context", func(t buildTree) []string { return []string{"build", "./events/" + t.contexts[0]} }},
		{"three-contexts", func(t buildTree) []string { return []string{"build", "-o", os.DevNull, "./cmd/three"} }},
		{"all", func(t buildTree) []string { return []string{"build", "./events/..."} }},
	}
	layouts := []struct {
		name  string
		bin   func(b *testing.B) string
		sizes []int
		only  string // the target measured, "" for all
	}{
		{"tree", bqgen, []int{1000, 10000}, ""},
		{"baseline", func(b *testing.B) string {
			bin := os.Getenv("BQGEN_BENCH_BASELINE")
			if bin == "" {
				b.Skip("set BQGEN_BENCH_BASELINE to an older bqgen binary to build its output in the same run")
			}
			return bin
		}, []int{1000}, "all"},
	}
	for _, l := range layouts {
		for _, n := range l.sizes {
			var tree *buildTree
			for _, tg := range targets {
				if l.only != "" && tg.name != l.only {
					continue
				}
				b.Run(fmt.Sprintf("%s/%s/%d", l.name, tg.name, n), func(b *testing.B) {
					if tree == nil {
						t := generateTree(b, l.bin(b), filepath.Join(root, l.name, fmt.Sprint(n)), n)
						tree = &t
					}
					if tg.name == "three-contexts" && len(tree.contexts) < 3 {
						b.Skip("fewer than three contexts")
					}
					var cpu time.Duration
					var peak int64
					i := 0
					for b.Loop() {
						b.StopTimer()
						cache := filepath.Join(root, fmt.Sprintf("cache-%s-%s-%d-%d", l.name, tg.name, n, i))
						i++
						copyTree(b, tree.stdCache, cache)
						b.StartTimer()
						c, rss, _ := goRun(b, tree.dir, cache, tg.args(*tree)...)
						cpu += c
						peak = max(peak, rss)
						b.StopTimer()
						os.RemoveAll(cache)
						b.StartTimer()
					}
					b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/build")
					b.ReportMetric(float64(peak)/(1<<20), "MiB-rss")
				})
			}
		}
	}
}
