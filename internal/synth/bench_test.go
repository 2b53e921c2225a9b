package synth

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/babelqueue/bqgen/internal/cputime"
	"github.com/babelqueue/bqgen/internal/diff"
	"github.com/babelqueue/bqgen/internal/emit/golang"
	"github.com/babelqueue/bqgen/internal/emit/jsonschema"
	"github.com/babelqueue/bqgen/internal/gonames"
	"github.com/babelqueue/bqgen/internal/model"
	"github.com/babelqueue/bqgen/registry"
)

// sizes are the registry sizes of the generator benchmarks (URNs before the .v2s).
var sizes = []int{100, 1000, 10000}

func load(b *testing.B, files map[string][]byte) *model.Registry {
	b.Helper()
	reg, diags, err := registry.LoadFiles(context.Background(), files)
	if err != nil || reg == nil || diags.HasErrors() {
		b.Fatalf("synthetic registry does not load: %v %v", err, diags)
	}
	return reg
}

// BenchmarkLoadCheck is registry.LoadFiles on a synthetic registry (one file per
// bounded context, see Files): YAML parsing,
// the registry schema, every rule and Go-name planning (all of `bqgen check`).
func BenchmarkLoadCheck(b *testing.B) {
	for _, n := range sizes {
		files := Files(Options{Messages: n})
		size := 0
		for _, f := range files {
			size += len(f)
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				load(b, files)
			}
		})
	}
}

// BenchmarkGenerateGo is gonames.Plan + golang.Emit (every file written in its final,
// gofmt'd form), with its CPU time per operation (cpu-ns/op).
func BenchmarkGenerateGo(b *testing.B) {
	for _, n := range sizes {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			reg := load(b, Files(Options{Messages: n}))
			b.ReportAllocs()
			defer cputime.PerOp(b)()
			for b.Loop() {
				names, colls := gonames.Plan(reg, "events")
				if len(colls) > 0 {
					b.Fatal(colls)
				}
				if _, err := golang.Emit(reg, names, golang.Options{ImportPath: "example.com/bench/events"}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// loadPlanned loads the synthetic registry of n URNs and plans its Go names (package
// events), failing b on a collision.
func loadPlanned(b *testing.B, n int) (*model.Registry, *gonames.Names) {
	b.Helper()
	reg := load(b, Files(Options{Messages: n}))
	names, colls := gonames.Plan(reg, "events")
	if len(colls) > 0 {
		b.Fatal(colls)
	}
	return reg, names
}

// BenchmarkEmitGo is golang.Emit alone, on names planned once (BenchmarkGenerateGo
// less gonames.Plan), with its CPU time per operation (cpu-ns/op).
func BenchmarkEmitGo(b *testing.B) {
	for _, n := range sizes {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			reg, names := loadPlanned(b, n)
			b.ReportAllocs()
			defer cputime.PerOp(b)()
			for b.Loop() {
				if _, err := golang.Emit(reg, names, golang.Options{ImportPath: "example.com/bench/events"}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkGenerateJSONSchema is jsonschema.Emit (draft 2020-12).
func BenchmarkGenerateJSONSchema(b *testing.B) {
	for _, n := range sizes {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			reg := load(b, Files(Options{Messages: n}))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := jsonschema.Emit(reg, jsonschema.Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkDiff is `bqgen diff` in process: the evolved registry (Options.Evolve) and
// the original loaded with one registry.Cache (the original without Go-name
// planning), as the command does, then
// diff.Compare under BACKWARD.
func BenchmarkDiff(b *testing.B) {
	for _, n := range sizes {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			old, next := Files(Options{Messages: n}), Files(Options{Messages: n, Evolve: true})
			b.ReportAllocs()
			for b.Loop() {
				cache := registry.NewCache()
				newReg, diags, err := registry.LoadFiles(context.Background(), next, registry.WithCache(cache))
				if err != nil || newReg == nil || diags.HasErrors() {
					b.Fatalf("evolved registry does not load: %v %v", err, diags)
				}
				oldReg, diags, err := registry.LoadFiles(context.Background(), old, registry.WithCache(cache), registry.WithoutGoNames())
				if err != nil || oldReg == nil || diags.HasErrors() {
					b.Fatalf("registry does not load: %v %v", err, diags)
				}
				if !diff.Compare(oldReg, newReg, diff.Backward).Breaking() {
					b.Fatal("no breaking change found")
				}
			}
		})
	}
}

// memCache is a golang.ContextCache in memory.
type memCache struct {
	mu sync.Mutex
	m  map[golang.ContextKey][]byte
}

func (c *memCache) Get(k golang.ContextKey) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.m[k]
	return b, ok
}

func (c *memCache) Put(k golang.ContextKey, b []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[k] = b
}

// BenchmarkEmitGoEdit is golang.Emit with a context cache (golang.Options.Cache)
// that holds every context file of the registry, after one message's summary changed
// (a new text each time): the Emit of `generate` after one context's file was edited,
// which renders that context and takes the others from the cache. It reports the CPU
// time per operation (cpu-ns/op) and the contexts rendered per operation
// (rendered/op, which must be 1).
func BenchmarkEmitGoEdit(b *testing.B) {
	for _, n := range sizes {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			reg, names := loadPlanned(b, n)
			cache := &memCache{m: map[golang.ContextKey][]byte{}}
			opts := golang.Options{ImportPath: "example.com/bench/events", Cache: cache}
			if _, err := golang.Emit(reg, names, opts); err != nil {
				b.Fatal(err)
			}
			entries := len(cache.m)
			m := reg.Messages[0]
			b.ReportAllocs()
			defer cputime.PerOp(b)()
			i := 0
			for b.Loop() {
				i++
				m.Summary = fmt.Sprintf("Edited summary %d.", i)
				if _, err := golang.Emit(reg, names, opts); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(cache.m)-entries)/float64(i), "rendered/op")
		})
	}
}
