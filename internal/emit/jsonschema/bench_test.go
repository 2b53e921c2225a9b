package jsonschema

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/babelqueue/bqgen/internal/cputime"
	"github.com/babelqueue/bqgen/internal/synth"
	"github.com/babelqueue/bqgen/registry"
)

// BenchmarkFiles builds every schema file of the synthetic registry (synth.Files;
// 1,000 URNs are 1,100 messages, 4,401 files) one after the other, each released
// (Source.Release) once measured, as outdir.SyncSource does once it is written: the
// cost of the emitter alone, without loading or writing. `bqgen jsonschema`
// builds them on GOMAXPROCS workers while it writes them (outdir.SyncSource).
// cpu-ns/op is the CPU time of the process (user + system, the collector's included)
// per build, which a machine shared with other work distorts less than ns/op.
//
//	go test ./internal/emit/jsonschema -run '^$' -bench 'Files/1000$' -benchmem -benchtime 3x
//
// The 10,000-URN case (44,001 files) is run only when asked for by name
// (-bench 'Files/10000$'); loading its registry takes several seconds.
func BenchmarkFiles(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			if f := flag.Lookup("test.bench"); n == 10000 && (f == nil || !strings.Contains(f.Value.String(), "10000")) {
				b.Skip("run with -bench 'Files/10000$'")
			}
			reg, diags, err := registry.LoadFiles(context.Background(), synth.Files(synth.Options{Messages: n}))
			if err != nil || diags.HasErrors() {
				b.Fatal(err, diags)
			}
			bytes := 0
			b.ResetTimer()
			reportCPU := cputime.PerOp(b)
			for b.Loop() {
				src, err := Files(reg, Options{})
				if err != nil {
					b.Fatal(err)
				}
				bytes = 0
				for i := range src.Names {
					c, err := src.Content(i)
					if err != nil {
						b.Fatal(err)
					}
					bytes += len(c)
					src.Release(c) // as outdir.SyncSource does once a file is written
				}
			}
			reportCPU()
			b.ReportMetric(float64(bytes), "bytes/registry")
		})
	}
}
