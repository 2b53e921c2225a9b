package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/babelqueue/bqgen/internal/buildcache"
	"github.com/babelqueue/bqgen/internal/cputime"
	"github.com/babelqueue/bqgen/internal/synth"
)

// BenchmarkGenerateEdit is `bqgen generate` in process with a build cache, after one
// message's summary changed in one context's file (a new text each time, so that no
// whole-run entry answers): the run the build cache's context files are for (issue 22:
// ≤ 1 s at 10,000 URNs on 2 cores). The cache and the output directory are warmed by
// a run on the registry as written. It reports cpu-ns/op (user + system of the
// process, all goroutines) beside the wall time.
func BenchmarkGenerateEdit(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			dir := b.TempDir()
			reg, out := filepath.Join(dir, "reg"), filepath.Join(dir, "out")
			if err := os.Mkdir(reg, 0o755); err != nil {
				b.Fatal(err)
			}
			for name, data := range synth.Files(synth.Options{Messages: n}) {
				if err := os.WriteFile(filepath.Join(reg, name), data, 0o644); err != nil {
					b.Fatal(err)
				}
			}
			r := Runner{Cache: buildcache.New(filepath.Join(dir, "cache"), []byte("bench"))}
			args := []string{"generate", "-r", reg, "-o", out, "--import-path", "example.com/gen"}
			gen := func() {
				if code := r.Run(context.Background(), args, strings.NewReader(""), io.Discard, io.Discard); code != ExitOK {
					b.Fatalf("generate: exit %d", code)
				}
			}
			gen()
			file := filepath.Join(reg, "orders.yaml")
			orig, err := os.ReadFile(file)
			if err != nil {
				b.Fatal(err)
			}
			const from = "summary: Synthetic message number 0."
			if !strings.Contains(string(orig), from) {
				b.Fatalf("%s: no %q", file, from)
			}
			i := 0
			defer cputime.PerOp(b)()
			for b.Loop() {
				b.StopTimer()
				i++
				edited := strings.Replace(string(orig), from, fmt.Sprintf("summary: Edited summary %d.", i), 1)
				if err := os.WriteFile(file, []byte(edited), 0o644); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				gen()
			}
		})
	}
}
