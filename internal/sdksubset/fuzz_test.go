package sdksubset

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	js "github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/babelqueue/bqgen/internal/agreement"
	"github.com/babelqueue/bqgen/internal/emit/jsonschema"
	"github.com/babelqueue/bqgen/internal/model"
	"github.com/babelqueue/bqgen/internal/pii"
	"github.com/babelqueue/bqgen/internal/synth"
	"github.com/babelqueue/bqgen/registry"
)

// fuzzRegistries is how many random registries FuzzReader draws from.
const fuzzRegistries = 8

// fuzzSet is one random registry of FuzzReader with what every instance is checked
// against: per URN, the SDK reader of its manifest schema and its full-fidelity data
// schema compiled by jsonschema/v6.
type fuzzSet struct {
	reg     *model.Registry
	readers []*rnode
	full    []*js.Schema
}

var fuzzSets sync.Map // seed → *fuzzSet, built once per process

// fuzzSetOf builds (once) the random registry of seed 1 to fuzzRegistries, checking
// that the SDK reader's sensitive paths of every URN are internal/pii's.
func fuzzSetOf(t *testing.T, seed uint64) *fuzzSet {
	if s, ok := fuzzSets.Load(seed); ok {
		return s.(*fuzzSet)
	}
	name := fmt.Sprintf("random-%d", seed)
	reg, diags, err := registry.LoadFiles(context.Background(), map[string][]byte{name + ".yaml": synth.Random(synth.RandomOptions{Seed: seed, Package: "p"})})
	if err != nil || reg == nil {
		t.Fatalf("%s: %v %v", name, err, diags)
	}
	files, err := jsonschema.Emit(reg, jsonschema.Options{})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	byName := map[string][]byte{}
	for _, f := range files {
		byName[f.Name] = f.Content
	}
	compiled := compileAll(t, name, files)
	s := &fuzzSet{reg: reg}
	ix := pii.NewIndex(reg)
	for _, m := range reg.Messages {
		var doc map[string]any
		if err := json.Unmarshal(byName[jsonschema.SDKDataFile(m.URN)], &doc); err != nil {
			t.Fatalf("%s %s: the SDK reader cannot decode the manifest schema: %v", name, m.URN, err)
		}
		reader := readNode(doc)
		var want []string
		for _, p := range ix.Of(m).Paths {
			want = append(want, withCategory(p.Path, p.Category))
		}
		if got := reader.paths(); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("%s %s: the SDK reader's sensitive paths %q, internal/pii's %q", name, m.URN, got, want)
		}
		s.readers = append(s.readers, reader)
		s.full = append(s.full, compiled[jsonschema.DataFile(m.URN)])
	}
	actual, _ := fuzzSets.LoadOrStore(seed, s)
	return actual.(*fuzzSet)
}

// FuzzReader: on any JSON instance of any URN of a random registry, the SDK reader of
// the URN's manifest schema rejects nothing that jsonschema/v6 accepts on the
// full-fidelity data schema, and agrees with the oracle of the constraints the SDKs'
// subset expresses; on every such URN its sensitive paths are internal/pii's (issue
// 20, item 20).
func FuzzReader(f *testing.F) {
	for seed := uint64(1); seed <= 2; seed++ {
		reg, _, err := registry.LoadFiles(context.Background(), map[string][]byte{"r.yaml": synth.Random(synth.RandomOptions{Seed: seed, Package: "p"})})
		if err != nil || reg == nil {
			f.Fatalf("random registry %d: %v", seed, err)
		}
		corpus, err := agreement.Corpus("fuzz", reg)
		if err != nil {
			f.Fatal(err)
		}
		for i, in := range corpus {
			if i%40 == 0 { // a sample: every instance costs the baseline run of each worker
				f.Add(uint8(seed-1), uint8(messageIndex(reg, in.URN)), in.JSON)
			}
		}
	}
	f.Add(uint8(3), uint8(0), []byte(`{}`))
	f.Add(uint8(4), uint8(1), []byte(`{"a": null, "b": [1, "x", {}], "c": -0.0}`))
	f.Fuzz(func(t *testing.T, seed, urn uint8, instance []byte) {
		if len(instance) > 4096 {
			return
		}
		s := fuzzSetOf(t, uint64(seed)%fuzzRegistries+1)
		i := int(urn) % len(s.reg.Messages)
		m := s.reg.Messages[i]
		var v any
		if err := json.Unmarshal(instance, &v); err != nil {
			return // not JSON, or a number beyond a double: malformed for every Go reader
		}
		inst, err := js.UnmarshalJSON(bytes.NewReader(instance))
		if err != nil {
			return
		}
		fullOK := s.full[i].Validate(inst) == nil
		subOK := s.readers[i].valid(v)
		expressOK := (&oracle{reg: s.reg, counts: map[*model.NamedType]int{}}).ok(m.Data, v)
		switch {
		case fullOK && !subOK:
			t.Fatalf("%s: the SDK reader rejects what jsonschema/v6 accepts: %s", m.URN, instance)
		case subOK != expressOK:
			t.Fatalf("%s: the SDK reader says valid=%v, the oracle of expressible constraints valid=%v: %s", m.URN, subOK, expressOK, instance)
		case !expressOK && fullOK:
			t.Fatalf("%s: the oracle rejects what jsonschema/v6 accepts (an oracle bug): %s", m.URN, instance)
		}
	})
}

// messageIndex is the index of the message urn in reg.Messages.
func messageIndex(reg *model.Registry, urn string) int {
	for i, m := range reg.Messages {
		if m.URN == urn {
			return i
		}
	}
	return 0
}
