package property

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
)

// TestMutate checks that Mutate always returns JSON, changes its input, and is
// deterministic for a seed.
func TestMutate(t *testing.T) {
	in := []byte(`{"a":[1,2.5,"x",{"b":null}],"c":{"amount":9007199254740991,"currency":"EUR"},"d":1e300,"e":"ü📦"}`)
	run := func() [][]byte {
		rng := rand.New(rand.NewPCG(1, 2))
		var out [][]byte
		b := in
		for i := 0; i < 2000; i++ {
			if i%20 == 0 {
				b = in
			}
			b = Mutate(rng, b)
			if !json.Valid(b) {
				t.Fatalf("Mutate returned %s", b)
			}
			out = append(out, b)
		}
		return out
	}
	a, b := run(), run()
	changed := 0
	for i := range a {
		if string(a[i]) != string(b[i]) {
			t.Fatalf("run %d differs: %s / %s", i, a[i], b[i])
		}
		if i%20 == 0 && string(a[i]) != string(in) {
			changed++
		}
	}
	if changed < 90 {
		t.Errorf("only %d of 100 first mutations changed the input", changed)
	}
}

func TestNumberDomains(t *testing.T) {
	for _, tc := range []struct {
		json            string
		exact, overflow bool
	}{
		{`[1, 2.5, 1e2, -0.125, 12345678901234567890]`, true, false},
		{`{"a": 0.1}`, false, false},
		{`[1.00000000000000000001]`, false, false},
		{`[1e400]`, false, true},
		{`{"a":"1e400"}`, true, false},
	} {
		if got := ExactDoubles([]byte(tc.json)); got != tc.exact {
			t.Errorf("ExactDoubles(%s) = %v", tc.json, got)
		}
		if got := OverflowsDouble([]byte(tc.json)); got != tc.overflow {
			t.Errorf("OverflowsDouble(%s) = %v", tc.json, got)
		}
	}
}
