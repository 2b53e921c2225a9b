package golang

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/babelqueue/bqgen/internal/gonames"
	"github.com/babelqueue/bqgen/internal/model"
	"github.com/babelqueue/bqgen/internal/synth"
	"github.com/babelqueue/bqgen/registry"
)

// pinnedDump names a directory TestOutputPinned writes every tree it hashes into
// (<dir>/<case>/…), to see what changed when a hash does: write the trees of the old
// and the new emitter, then diff -r them.
var pinnedDump = flag.String("pinned-dump", "", "write the trees TestOutputPinned hashes into this directory")

// treeHash is the SHA-256 of the sha256sum(1) listing of files, as a shell computes it
// over a generated directory: `find . -type f | LC_ALL=C sort | xargs sha256sum |
// sha256sum` (one line "<hex of the content>  ./<name>" per file, sorted by name).
// With -pinned-dump, it writes the files into <dir>/<name>.
func treeHash(name string, files []File) string {
	if *pinnedDump != "" {
		for _, f := range files {
			p := filepath.Join(*pinnedDump, name, filepath.FromSlash(f.Name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err == nil {
				os.WriteFile(p, f.Content, 0o644)
			}
		}
	}
	sorted := append([]File(nil), files...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	list := sha256.New()
	for _, f := range sorted {
		sum := sha256.Sum256(f.Content)
		fmt.Fprintf(list, "%s  ./%s\n", hex.EncodeToString(sum[:]), f.Name)
	}
	return hex.EncodeToString(list.Sum(nil))
}

// emitAt is Emit with the names planned for the registry's root package name pkg, at
// import path imp, as `bqgen generate --import-path imp` gives them.
func emitAt(t *testing.T, reg *model.Registry, pkg, imp string) []File {
	t.Helper()
	names, colls := gonames.Plan(reg, pkg)
	if len(colls) > 0 {
		t.Fatalf("collisions: %+v", colls)
	}
	files, err := Emit(reg, names, Options{ImportPath: imp})
	if err != nil {
		t.Fatalf("Emit: %v", err)
	}
	return files
}

// TestOutputPinned pins the bytes of whole generated trees, computed with the emitter
// of commit 4b066b2 (before it wrote its files as text rather than through jen and
// go/format): any change to what Emit writes changes a hash. When the output
// is meant to change, review the diff of the generated files and update the hash.
//
//   - synth1k: the 1,000-URN synthetic registry, as the shell gives it:
//     `go run ./bench/cmd/synth -n 1000 -o R && bqgen generate -r R --import-path
//     example.com/gen -o O`, then treeHash's command in O.
//   - random: 40 random registries of internal/synth (every type at every position,
//     hostile text, near-collision keys), one hash over their hashes.
//   - testdata: every registry of testdata that loads cleanly (the set
//     TestEveryTestdataRegistryBuilds builds), one hash over their hashes.
//
// With -short only synth1k runs.
func TestOutputPinned(t *testing.T) {
	t.Parallel()
	t.Run("synth1k", func(t *testing.T) {
		t.Parallel()
		reg, diags, err := registry.LoadFiles(context.Background(), synth.Files(synth.Options{Messages: 1000}))
		if err != nil || reg == nil || diags.HasErrors() {
			t.Fatalf("synthetic registry does not load (err %v): %v", err, diags)
		}
		const want = "5dec338b0368639ab9049f58cad7c6ae2471848927f676563da1e3d78758a414"
		if got := treeHash("synth1k", emitAt(t, reg, reg.GoPackage, "example.com/gen")); got != want {
			t.Errorf("tree hash %s, want %s", got, want)
		}
	})
	t.Run("random", func(t *testing.T) {
		if testing.Short() {
			t.Skip("skipped with -short: emits 40 registries")
		}
		t.Parallel()
		all := sha256.New()
		for seed := uint64(1); seed <= 40; seed++ {
			src := synth.Random(synth.RandomOptions{Seed: seed, Messages: 8})
			reg, diags, err := registry.LoadFiles(context.Background(), map[string][]byte{"r.yaml": src})
			if err != nil || reg == nil || diags.HasErrors() {
				t.Fatalf("seed %d does not load (err %v): %v", seed, err, diags)
			}
			fmt.Fprintf(all, "%d %s\n", seed, treeHash(fmt.Sprint("random/", seed), emitAt(t, reg, "events", "example.com/r/events")))
		}
		const want = "7e2f6c522278643842b3a68cac56973dd467e6e6575a3cb25d0d4a9519df4ff7"
		if got := hex.EncodeToString(all.Sum(nil)); got != want {
			t.Errorf("hash %s, want %s", got, want)
		}
	})
	t.Run("testdata", func(t *testing.T) {
		if testing.Short() {
			t.Skip("skipped with -short: emits every testdata registry")
		}
		t.Parallel()
		paths := cleanRegistries(t)
		all := sha256.New()
		n := 0
		for _, p := range paths {
			reg, diags, err := registry.Load(context.Background(), p)
			if err != nil || reg == nil || diags.HasErrors() {
				continue
			}
			n++
			fmt.Fprintf(all, "%s %s\n", filepath.ToSlash(p), treeHash("testdata/"+strings.TrimPrefix(filepath.ToSlash(p), "../../../"), emitAt(t, reg, "events", "example.com/all/events")))
		}
		const want = "2a6f97aacfb0d54e8cffca116d6c9e0ac0b8a11ad20540c828f190e70a872523"
		if got := hex.EncodeToString(all.Sum(nil)); got != want || n < 25 {
			t.Errorf("hash %s over %d registries, want %s", got, n, want)
		}
	})
}

// TestEmitAllocates bounds the allocations of Emit on the 100-URN synthetic registry
// at 1.5× what the text emitter makes (95,000, on 1 to 8 CPUs; a third of them the
// runtime file, which still goes through go/format). The emitter that built jen trees
// and ran go/format on every file made 451,000: a change that brings back work of that
// order per declaration fails here before it shows in the benchmarks.
func TestEmitAllocates(t *testing.T) {
	reg, diags, err := registry.LoadFiles(context.Background(), synth.Files(synth.Options{Messages: 100}))
	if err != nil || reg == nil || diags.HasErrors() {
		t.Fatalf("synthetic registry does not load (err %v): %v", err, diags)
	}
	names, colls := gonames.Plan(reg, reg.GoPackage)
	if len(colls) > 0 {
		t.Fatalf("collisions: %+v", colls)
	}
	allocs := testing.AllocsPerRun(2, func() {
		if _, err := Emit(reg, names, Options{ImportPath: "example.com/gen"}); err != nil {
			t.Fatal(err)
		}
	})
	t.Logf("%.0f allocations per Emit", allocs)
	if allocs > 145_000 {
		t.Errorf("Emit allocates %.0f times, want at most 145,000", allocs)
	}
}
