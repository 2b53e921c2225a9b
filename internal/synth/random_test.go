package synth

import (
	"bytes"
	"context"
	"testing"

	"github.com/babelqueue/bqgen/internal/gonames"
	"github.com/babelqueue/bqgen/registry"
)

// TestRandomLoadsClean checks the promise of Random: every seed gives a registry
// that loads without errors and whose Go names do not collide.
func TestRandomLoadsClean(t *testing.T) {
	n := 200
	if testing.Short() {
		n = 40
	}
	for seed := uint64(0); seed < uint64(n); seed++ {
		src := Random(RandomOptions{Seed: seed, Package: "p"})
		reg, diags, err := registry.LoadFiles(context.Background(), map[string][]byte{"random.yaml": src})
		if err != nil || reg == nil || diags.HasErrors() {
			t.Fatalf("seed %d: err %v, diagnostics:\n%v\n%s", seed, err, diags, src)
		}
		if _, colls := gonames.Plan(reg, "p"); len(colls) > 0 {
			t.Fatalf("seed %d: Go name collisions %+v\n%s", seed, colls, src)
		}
	}
}

func TestRandomDeterministic(t *testing.T) {
	a := Random(RandomOptions{Seed: 3})
	if b := Random(RandomOptions{Seed: 3}); !bytes.Equal(a, b) {
		t.Error("same options, different bytes")
	}
	if c := Random(RandomOptions{Seed: 4}); bytes.Equal(a, c) {
		t.Error("the seed changes nothing")
	}
}
