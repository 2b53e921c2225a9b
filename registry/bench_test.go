package registry

import (
	"context"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/babelqueue/bqgen/internal/synth"
)

// syntheticFields is the data block of every synthetic message: 20 fields mixing every
// kind of type, bounds, enums, patterns, examples, nested objects, arrays and maps.
const syntheticFields = `    data:
      required: [id, name, total, created_at, status]
      properties:
        id: {type: integer, minimum: 1, maximum: 9007199254740991}
        name: {type: string, minLength: 1, maxLength: 100, examples: [Widget]}
        total: {type: money}
        created_at: {type: timestamp, examples: [1700000000000]}
        updated_at: {type: timestamp, nullable: true}
        status: {type: string, enum: [pending, active, closed]}
        quantity: {type: integer, format: int32, minimum: 0, maximum: 1000}
        weight_kg: {type: number, minimum: 0, maximum: 100000}
        active: {type: boolean}
        ref: {type: uuid}
        email: {type: string, format: email, maxLength: 254, x-gdpr-sensitive: contact}
        sku: {type: string, pattern: "^[A-Z0-9-]{3,32}$"}
        note: {type: string, maxLength: 500, nullable: true, description: Free text from the customer.}
        tags: {type: array, maxItems: 20, items: {type: string, maxLength: 64}}
        labels: {type: map, values: {type: string}}
        address: {type: Address}
        score: {type: number, exclusiveMinimum: 0, exclusiveMaximum: 1}
        big_count: {type: integer, encoding: string}
        lines:
          type: array
          minItems: 1
          items:
            type: object
            required: [sku, quantity]
            properties:
              sku: {type: string}
              quantity: {type: integer, minimum: 1, maximum: 1000}
        legacy_code: {type: string, deprecated: Use sku.}
`

const syntheticTypes = "types:\n  Address:\n    type: object\n    required: [line1, country]\n    properties:\n      line1: {type: string, maxLength: 200}\n      country: {type: string, pattern: \"^[A-Z]{2}$\"}\n"

// synthetic returns a registry of n messages with 20 fields each, in one file.
func synthetic(n int) []byte {
	return syntheticFile(0, n, true)
}

// syntheticFile returns a file with messages from..to-1 (and the named types).
func syntheticFile(from, to int, withTypes bool) []byte {
	var b strings.Builder
	b.WriteString("version: 1\nconsumers: [go, node]\n")
	if withTypes {
		b.WriteString(syntheticTypes)
	}
	b.WriteString("messages:\n")
	for i := from; i < to; i++ {
		fmt.Fprintf(&b, "  urn:babel:ctx%d:thing%d.created:\n    summary: Thing %d was created.\n", i%50, i, i)
		b.WriteString(syntheticFields)
	}
	return []byte(b.String())
}

// syntheticDir returns the same registry as synthetic(n), split into files of 500
// messages, the way a large registry is kept (one file per bounded context or team).
func syntheticDir(n int) map[string][]byte {
	files := map[string][]byte{}
	for i := 0; i < n; i += 500 {
		files[fmt.Sprintf("r%05d.yaml", i)] = syntheticFile(i, min(i+500, n), i == 0)
	}
	return files
}

// BenchmarkLoad measures Load, which is all of `bqgen check`: parse, format schema,
// rules, Go-name planning. "10000" is one 15 MB file; "10000-dir" the same registry in
// 20 files (parsed in parallel).
func BenchmarkLoad(b *testing.B) {
	cases := []struct {
		name  string
		files map[string][]byte
	}{
		{"100", map[string][]byte{"r.yaml": synthetic(100)}},
		{"1000", map[string][]byte{"r.yaml": synthetic(1000)}},
		{"10000", map[string][]byte{"r.yaml": synthetic(10000)}},
		{"10000-dir", syntheticDir(10000)},
	}
	for _, c := range cases {
		size := 0
		for _, f := range c.files {
			size += len(f)
		}
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(size))
			for i := 0; i < b.N; i++ {
				_, ds, err := LoadFiles(context.Background(), c.files)
				if err != nil || len(ds) > 0 {
					b.Fatal(err, ds[:min(len(ds), 5)])
				}
			}
		})
	}
}

// benchSynth runs op(files) b.N times in a sub-benchmark per size (1,000 and 10,000
// URNs) of internal/synth's registry, one file per bounded context, reporting bytes,
// allocations and cpu-sec/op (the process's CPU time per op, all goroutines).
func benchSynth(b *testing.B, op func(b *testing.B, files map[string][]byte)) {
	benchSynthPrep(b, func(b *testing.B, files map[string][]byte) func(b *testing.B) {
		return func(b *testing.B) { op(b, files) }
	})
}

// benchSynthPrep is benchSynth with an untimed setup: prep returns the op to time.
func benchSynthPrep(b *testing.B, prep func(b *testing.B, files map[string][]byte) func(b *testing.B)) {
	for _, n := range []int{1000, 10000} {
		files := synth.Files(synth.Options{Messages: n})
		size := 0
		for _, f := range files {
			size += len(f)
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.SetBytes(int64(size))
			b.ReportAllocs()
			op := prep(b, files)
			runtime.GC()
			b.ResetTimer()
			cpu := cpuNow()
			for b.Loop() {
				op(b)
			}
			b.ReportMetric((cpuNow()-cpu).Seconds()/float64(b.N), "cpu-sec/op")
		})
	}
}

// BenchmarkLoadSynth measures LoadFiles on internal/synth's registry (at 10,000 URNs
// 501 files, 20 MB): what `bqgen check -r` does but reading and printing (issue 22).
func BenchmarkLoadSynth(b *testing.B) {
	benchSynth(b, func(b *testing.B, files map[string][]byte) {
		_, ds, err := LoadFiles(context.Background(), files)
		if err != nil || len(ds) > 0 {
			b.Fatal(err, ds[:min(len(ds), 5)])
		}
	})
}

// BenchmarkYAMLFloor is the floor under BenchmarkLoadSynth: yaml.v3 alone decoding the
// same files into yaml.Node trees, on GOMAXPROCS goroutines, and nothing else.
func BenchmarkYAMLFloor(b *testing.B) {
	benchSynth(b, func(b *testing.B, files map[string][]byte) {
		all := slices.Collect(maps.Values(files))
		var next atomic.Int64
		var wg sync.WaitGroup
		for range runtime.GOMAXPROCS(0) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := int(next.Add(1) - 1); i < len(all); i = int(next.Add(1) - 1) {
					var doc yaml.Node
					if err := yaml.Unmarshal(all[i], &doc); err != nil {
						b.Error(err)
					}
				}
			}()
		}
		wg.Wait()
	})
}

// BenchmarkLoadSynthWarm measures LoadFiles on internal/synth's registry with every
// file's tree in a TreeStore (an in-memory one here; bqgen's build cache in the CLI):
// what `bqgen check` does after one file of a registry it has checked before changed,
// less the one file it parses and the reading of the cache's files (issue 22). The
// store is filled before the timed loop (and before cpu-sec/op starts counting).
func BenchmarkLoadSynthWarm(b *testing.B) {
	benchSynthPrep(b, func(b *testing.B, files map[string][]byte) func(b *testing.B) {
		s := newMemStore()
		if _, _, err := LoadFiles(context.Background(), files, WithTreeStore(s)); err != nil {
			b.Fatal(err)
		}
		return func(b *testing.B) {
			_, ds, err := LoadFiles(context.Background(), files, WithTreeStore(s))
			if err != nil || len(ds) > 0 || s.hits == 0 {
				b.Fatal(err, ds[:min(len(ds), 5)], s.hits)
			}
		}
	})
}
