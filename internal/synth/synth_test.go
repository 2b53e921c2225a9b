package synth

import (
	"bytes"
	"context"
	"maps"
	"strings"
	"testing"

	"github.com/babelqueue/bqgen/internal/diff"
	"github.com/babelqueue/bqgen/internal/model"
	"github.com/babelqueue/bqgen/registry"
)

func TestRegistryLoadsClean(t *testing.T) {
	for _, n := range []int{1, 100} {
		src := Registry(Options{Messages: n})
		reg, diags, err := registry.LoadFiles(context.Background(), map[string][]byte{"synth.yaml": src})
		if err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		for _, d := range diags {
			t.Errorf("n=%d: %s", n, d)
		}
		if reg == nil {
			t.Fatalf("n=%d: no registry", n)
		}
		want := n + (n+9)/10
		if len(reg.Messages) != want {
			t.Errorf("n=%d: %d messages, want %d", n, len(reg.Messages), want)
		}
		ctxs := map[string]bool{}
		for _, m := range reg.Messages {
			ctxs[m.Context()] = true
			if got := len(m.Data.Properties); got != FieldsPerMessage {
				t.Errorf("%s: %d fields", m.URN, got)
			}
		}
		if want := (n + PerContext - 1) / PerContext; len(ctxs) != want {
			t.Errorf("n=%d: %d contexts, want %d", n, len(ctxs), want)
		}
	}
}

func TestFilesLoadClean(t *testing.T) {
	files := Files(Options{Messages: 100})
	if len(files) != 6 {
		t.Errorf("%d files, want registry.yaml and 5 contexts", len(files))
	}
	reg, diags, err := registry.LoadFiles(context.Background(), files)
	if err != nil || reg == nil || len(diags) > 0 {
		t.Fatalf("err %v, diagnostics %v", err, diags)
	}
	if len(reg.Messages) != 110 {
		t.Errorf("%d messages", len(reg.Messages))
	}
}

func TestRegistryDeterministic(t *testing.T) {
	a := Registry(Options{Messages: 100, Seed: 7})
	if b := Registry(Options{Messages: 100, Seed: 7}); !bytes.Equal(a, b) {
		t.Error("same options, different bytes")
	}
	if c := Registry(Options{Messages: 100, Seed: 8}); bytes.Equal(a, c) {
		t.Error("the seed changes nothing")
	}
	if !strings.Contains(string(a), ".v2:\n") {
		t.Error("no .v2 URN")
	}
}

// TestEvolve checks the next version of the registry: one message in 20 gains an
// optional field, one in 100 a new summary, one in 200 a new required field; five of
// the 51 files change at 1,000 URNs (the messages i ≡ 7 mod 20 fall in the contexts
// i mod 50 ≡ 7 mod 10).
func TestEvolve(t *testing.T) {
	old, evolved := Files(Options{Messages: 1000}), Files(Options{Messages: 1000, Evolve: true})
	changed := 0
	for name, b := range old {
		if !bytes.Equal(b, evolved[name]) {
			changed++
		}
	}
	if changed != 5 || len(evolved) != len(old) {
		t.Errorf("%d of %d files changed (%d files evolved); want 5 of 51", changed, len(old), len(evolved))
	}
	load := func(files map[string][]byte) *model.Registry {
		reg, diags, err := registry.LoadFiles(context.Background(), files)
		if err != nil || reg == nil || len(diags) > 0 {
			t.Fatalf("err %v, diagnostics %v", err, diags)
		}
		return reg
	}
	rep := diff.Compare(load(old), load(evolved), diff.Backward)
	got := map[string]int{}
	for _, f := range rep.Findings {
		got[f.Rule.ID+" "+string(f.Severity)+" "+f.Path]++
	}
	want := map[string]int{
		"BQ114 notice $.evolved_note":  50,
		"BQ115 breaking $.evolved_ref": 5,
		"BQ106 info ":                  10,
	}
	if !maps.Equal(got, want) {
		t.Errorf("findings %v, want %v", got, want)
	}
}
