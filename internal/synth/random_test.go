package synth

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/babelqueue/bqgen/internal/gonames"
	"github.com/babelqueue/bqgen/internal/model"
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

// TestKeywordMessagesCoverRegistry: the keyword messages cover exactly the keywords
// the registry format gives each built-in type, so that a keyword added to the
// loader fails here until Random writes it (issue 20, item 10: no registry Random
// wrote had an enum on a boolean, and the differential suite never saw one). Each
// keyword appears, on every seed, on a field, on a nullable field, in array items and
// in map values; on scalars also marked x-gdpr-sensitive.
func TestKeywordMessagesCoverRegistry(t *testing.T) {
	want := registry.KindKeywords()
	if len(want) != len(keywordKinds) {
		t.Errorf("registry types with keywords %v, synth covers %v", want, keywordKinds)
	}
	for _, kind := range keywordKinds {
		if got := keywordNames[kind]; !slices.Equal(got, want[kind]) {
			t.Errorf("keywords of %s: registry %v, synth %v", kind, want[kind], got)
		}
	}
	for seed := uint64(1); seed <= 3; seed++ {
		src := Random(RandomOptions{Seed: seed, Package: "p"})
		reg, diags, err := registry.LoadFiles(context.Background(), map[string][]byte{"random.yaml": src})
		if err != nil || diags.HasErrors() {
			t.Fatalf("seed %d: %v %v", seed, err, diags)
		}
		seen := map[string]bool{}
		for _, m := range reg.Messages {
			model.Walk(m.Data, "$", func(p string, s *model.Schema) {
				for kind, kws := range want {
					if string(s.Kind) != kind {
						continue
					}
					for _, kw := range kws {
						if !hasKeyword(s, kw) {
							continue
						}
						pos := "field"
						switch {
						case strings.HasSuffix(p, "[*]"):
							pos = "items"
						case strings.HasSuffix(p, ".*"):
							pos = "values"
						}
						seen[kind+" "+kw+" "+pos] = true
						if s.Nullable {
							seen[kind+" "+kw+" nullable"] = true
						}
						if s.GDPR != "" {
							seen[kind+" "+kw+" marked"] = true
						}
					}
				}
			})
		}
		for kind, kws := range want {
			for _, kw := range kws {
				positions := []string{"field", "items", "values", "nullable"}
				if kind != "object" && kind != "array" && kind != "map" {
					positions = append(positions, "marked")
				}
				for _, pos := range positions {
					if !seen[kind+" "+kw+" "+pos] {
						t.Errorf("seed %d: no %s with %s in position %s", seed, kind, kw, pos)
					}
				}
			}
		}
	}
}

// hasKeyword reports whether the model schema s carries the registry keyword kw.
func hasKeyword(s *model.Schema, kw string) bool {
	switch kw {
	case "minLength":
		return s.MinLength != nil
	case "maxLength":
		return s.MaxLength != nil
	case "pattern":
		return s.Pattern != ""
	case "enum":
		return len(s.Enum) > 0
	case "format":
		return s.Format != "" || s.IntFormat != ""
	case "encoding":
		return s.Encoding != ""
	case "minimum":
		return s.Minimum != nil
	case "maximum":
		return s.Maximum != nil
	case "exclusiveMinimum":
		return s.ExclusiveMinimum != nil
	case "exclusiveMaximum":
		return s.ExclusiveMaximum != nil
	case "properties":
		return len(s.Properties) > 0
	case "required":
		for _, p := range s.Properties {
			if p.Required {
				return true
			}
		}
		return false
	case "additionalProperties":
		return !s.AdditionalProperties
	case "items":
		return s.Items != nil
	case "minItems":
		return s.MinItems != nil
	case "maxItems":
		return s.MaxItems != nil
	case "uniqueItems":
		return s.UniqueItems
	case "values":
		return s.Values != nil
	}
	panic("hasKeyword: unknown keyword " + kw)
}
