package jsonschema

import (
	"bytes"
	"testing"

	js "github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/babelqueue/bqgen/internal/emit/jsonschema/fixture"
)

func verdict(t *testing.T, s *js.Schema, instance []byte) (bool, error) {
	t.Helper()
	v, err := js.UnmarshalJSON(bytes.NewReader(instance))
	if err != nil {
		t.Fatalf("%s: %v", instance, err)
	}
	err = s.Validate(v)
	return err == nil, err
}

// TestDataInstances checks every data case of the fixture against the data schemas
// (2020-12, its draft-07 copy, and the --draft 7 output) with jsonschema/v6 and
// format assertion on: the verdict must be the Go decoder's.
func TestDataInstances(t *testing.T) {
	reg := fixture.Registry()
	s20 := compiled(t, emit(t, reg, Draft2020))
	s7 := compiled(t, emit(t, reg, Draft7))
	n := 0
	for _, c := range fixture.DataCases() {
		for label, s := range map[string]*js.Schema{
			"2020-12":       s20[DataFile(c.URN)],
			"draft7 copy":   s20[Draft7DataFile(c.URN)],
			"--draft 7":     s7[DataFile(c.URN)],
			"envelope data": nil,
		} {
			inst := c.JSON
			if s == nil {
				// The same data inside an otherwise valid envelope.
				s = s20[EnvelopeFile(c.URN)]
				inst = fixture.Mutate(string(fixture.Mutate(fixture.BaseEnvelope, "job", `"`+c.URN+`"`)), "data", string(c.JSON))
			}
			ok, err := verdict(t, s, inst)
			n++
			if ok != c.Valid {
				t.Errorf("%s %s [%s] %s: valid=%v, want %v\n%v", c.URN, label, c.Name, inst, ok, c.Valid, err)
			}
		}
	}
	t.Logf("%d instance verdicts checked", n)
}

// TestEnvelopeInstances checks the envelope cases against the envelope schemas of both
// drafts.
func TestEnvelopeInstances(t *testing.T) {
	reg := fixture.Registry()
	s20 := compiled(t, emit(t, reg, Draft2020))
	s7 := compiled(t, emit(t, reg, Draft7))
	for _, c := range fixture.EnvelopeCases() {
		for label, s := range map[string]*js.Schema{"2020-12": s20[EnvelopeFile(c.URN)], "7": s7[EnvelopeFile(c.URN)]} {
			ok, err := verdict(t, s, c.JSON)
			if ok != c.Valid {
				t.Errorf("%s [%s] %s: valid=%v, want %v\n%v", label, c.Name, c.JSON, ok, c.Valid, err)
			}
		}
	}
}
