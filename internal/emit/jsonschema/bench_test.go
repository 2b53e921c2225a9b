package jsonschema

import (
	"context"
	"fmt"
	"testing"

	"github.com/babelqueue/bqgen/internal/synth"
	"github.com/babelqueue/bqgen/registry"
)

// BenchmarkFiles builds every schema file of the synthetic registry (synth.Files;
// 1,000 URNs are 1,100 messages, 4,401 files) one after the other, as Emit does:
// the CPU cost of the emitter alone, without loading or writing. `bqgen jsonschema`
// builds them on GOMAXPROCS workers while it writes them (outdir.SyncSource).
//
//	go test ./internal/emit/jsonschema -run '^$' -bench Files -benchmem -benchtime 3x
func BenchmarkFiles(b *testing.B) {
	for _, n := range []int{100, 1000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			reg, diags, err := registry.LoadFiles(context.Background(), synth.Files(synth.Options{Messages: n}))
			if err != nil || diags.HasErrors() {
				b.Fatal(err, diags)
			}
			bytes := 0
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
				}
			}
			b.ReportMetric(float64(bytes), "bytes/registry")
		})
	}
}
