package golang

import (
	"bytes"
	"os"
	"testing"
)

// TestProblemCatalogueShared: the catalogue of problem texts bqgen validate words its
// problems with (rt/bqrt/problems.go, which internal/validate imports) is the file
// every generated runtime carries, byte for byte, and the one examples/events holds:
// the two vocabularies cannot drift apart (docs/jsonschema.md#one-vocabulary).
func TestProblemCatalogueShared(t *testing.T) {
	t.Parallel()
	src, err := rtFS.ReadFile("rt/bqrt/problems.go")
	if err != nil {
		t.Fatal(err)
	}
	bq, err := bqrtSources()
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, f := range bq {
		if f.Name == "internal/bqrt/problems.go" {
			found = true
			if !bytes.Equal(f.Content, src) {
				t.Error("the generated internal/bqrt/problems.go differs from rt/bqrt/problems.go")
			}
		}
	}
	if !found {
		t.Error("the generated runtime has no internal/bqrt/problems.go")
	}
	ex, err := os.ReadFile("../../../examples/events/internal/bqrt/problems.go")
	if err != nil || !bytes.Equal(ex, src) {
		t.Errorf("examples/events/internal/bqrt/problems.go is not the catalogue (run make generate): %v", err)
	}
}
