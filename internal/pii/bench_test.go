package pii_test

import (
	"context"
	"testing"

	"github.com/babelqueue/bqgen/internal/pii"
	"github.com/babelqueue/bqgen/internal/synth"
	"github.com/babelqueue/bqgen/registry"
)

// BenchmarkOf is the inventory of every URN of a synthetic registry of 1,000 URNs:
// impl=of is pii.Of (`bqgen check --pii`, `bqgen docs`), impl=problems Index.Problems
// (what `bqgen check` adds for BQ048 and BQ049).
func BenchmarkOf(b *testing.B) {
	reg, diags, err := registry.LoadFiles(context.Background(), synth.Files(synth.Options{Messages: 1000}))
	if err != nil || reg == nil || diags.HasErrors() {
		b.Fatal(err, diags)
	}
	b.Run("impl=of", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			ix := pii.NewIndex(reg)
			for _, m := range reg.Messages {
				ix.Of(m)
			}
		}
	})
	b.Run("impl=problems", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			ix := pii.NewIndex(reg)
			for _, m := range reg.Messages {
				ix.Problems(m)
			}
		}
	})
}
