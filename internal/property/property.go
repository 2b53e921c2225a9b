// Package property holds the property test of issue 7, item 1(c): random valid
// registries (internal/synth.Random) must generate Go packages that compile and pass
// go vet, whose decoders agree with jsonschema/v6 on the emitted data schemas for
// instances built from the model (internal/agreement.Corpus: valid instances and
// systematic mutations) and random mutations of them (Mutate), and whose Router
// agrees with the decoder. The test is property_test.go; docs/hardening.md gives the
// scope and the figures.
package property

import (
	"bytes"
	"encoding/json"
	"math"
	"math/big"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
)

// Mutate returns a random mutation of the JSON text b (a valid instance), drawn
// from rng: a node replaced by another JSON value (of another type, an edge number,
// a non-ASCII string), a key removed or added, an array item removed or
// duplicated, a string or number nudged. Number literals keep their text. The
// result is compact JSON with object keys sorted.
func Mutate(rng *rand.Rand, b []byte) []byte {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var root any
	if err := d.Decode(&root); err != nil {
		panic("property.Mutate: " + err.Error())
	}
	n := 0
	rewrite(root, func(v any) (any, bool) { n++; return v, false })
	target := rng.IntN(n)
	i := 0
	root = rewrite(root, func(v any) (any, bool) {
		if i++; i-1 != target {
			return v, false
		}
		return mutateNode(rng, v), true
	})
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(root); err != nil {
		panic("property.Mutate: " + err.Error())
	}
	return bytes.TrimSuffix(out.Bytes(), []byte("\n"))
}

// rewrite walks v (parents before children, keys sorted) and replaces the
// first node f says to.
func rewrite(v any, f func(any) (any, bool)) any {
	if nv, done := f(v); done {
		return nv
	}
	switch v := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(v) {
			v[k] = rewrite(v[k], f)
		}
	case []any:
		for i := range v {
			v[i] = rewrite(v[i], f)
		}
	}
	return v
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// replacements are the values a node may become.
var replacements = []string{`null`, `true`, `false`, `0`, `-0`, `1`, `-1`, `0.5`, `1.0`, `1e2`,
	`2147483648`, `9007199254740992`, `9223372036854775807`, `9223372036854775808`, `1e308`,
	`-1e-300`, `""`, `"x"`, `"EUR"`, `"2024-02-30"`, `"ü"`, `"📦"`, `"a\u0000b"`,
	`"0b6f2a9e-3c1d-4e5f-8a7b-9c0d1e2f3a4b"`, `"0B6F2A9E-3C1D-4E5F-8A7B-9C0D1E2F3A4B"`,
	`"123"`, `"-0"`, `"+1"`, `[]`, `[null]`, `{}`, `{"amount":1,"currency":"EUR"}`,
	`{"label":"x"}`}

func parse(s string) any {
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		panic(err)
	}
	return v
}

func mutateNode(rng *rand.Rand, v any) any {
	if rng.IntN(3) == 0 {
		return parse(replacements[rng.IntN(len(replacements))])
	}
	switch v := v.(type) {
	case map[string]any:
		keys := sortedKeys(v)
		switch {
		case len(keys) > 0 && rng.IntN(2) == 0:
			delete(v, keys[rng.IntN(len(keys))])
		case len(keys) > 0 && rng.IntN(2) == 0:
			v[keys[rng.IntN(len(keys))]] = nil
		default:
			v[[]string{"extra", "x", "Label", "amount", "ü"}[rng.IntN(5)]] = parse(replacements[rng.IntN(len(replacements))])
		}
		return v
	case []any:
		switch {
		case len(v) > 0 && rng.IntN(2) == 0:
			return append(v, v[0]) // a duplicate: uniqueItems, maxItems
		case len(v) > 0:
			return v[1:]
		}
		return append(v, parse(replacements[rng.IntN(len(replacements))]))
	case string:
		switch rng.IntN(4) {
		case 0:
			return v + "x"
		case 1:
			return v + "é📦"
		case 2:
			return strings.ToUpper(v)
		}
		return strings.Repeat(v+"a", 30)
	case json.Number:
		r, ok := new(big.Rat).SetString(string(v))
		if !ok {
			return v
		}
		switch rng.IntN(5) {
		case 0:
			r.Add(r, big.NewRat(1, 1))
		case 1:
			r.Sub(r, big.NewRat(1, 1))
		case 2:
			r.Neg(r)
		case 3:
			r.Add(r, big.NewRat(1, 2))
		default:
			if !strings.ContainsAny(string(v), "eE") {
				return json.Number(string(v) + "e1")
			}
			r.Mul(r, big.NewRat(10, 1))
		}
		if r.IsInt() {
			return json.Number(r.Num().String())
		}
		if f, _ := r.Float64(); !math.IsInf(f, 0) {
			return json.Number(strconv.FormatFloat(f, 'g', -1, 64))
		}
		return json.Number(r.FloatString(3)) // beyond a double: keep it exact
	}
	return parse(replacements[rng.IntN(len(replacements))])
}

// ExactDoubles reports whether every number literal in the JSON text b that is not
// a plain integer is exactly a double (1.5, 0.25; not 0.1, not
// 1.00000000000000000001). Outside that domain the Go decoder still compares
// number bounds as float64 (internal/agreement known classes roundingIntoRange,
// roundingOutOfRange), so the property test reports disagreements there
// separately.
func ExactDoubles(b []byte) bool {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	for {
		tok, err := d.Token()
		if err != nil {
			return true
		}
		n, ok := tok.(json.Number)
		if !ok || !strings.ContainsAny(string(n), ".eE") {
			continue
		}
		r, ok := new(big.Rat).SetString(string(n))
		if !ok {
			return false
		}
		f, _ := r.Float64()
		if new(big.Rat).SetFloat64(f) == nil || new(big.Rat).SetFloat64(f).Cmp(r) != 0 {
			return false
		}
	}
}

// OverflowsDouble reports whether a number literal in the JSON text b is beyond the
// range of a double (1e400, or 310 digits). docs/decisions.md#non-finite-numbers: such a message body is
// malformed, wherever the number is, while JSON Schema validators with arbitrary
// precision (jsonschema/v6) accept it where nothing constrains it.
func OverflowsDouble(b []byte) bool {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	for {
		tok, err := d.Token()
		if err != nil {
			return false
		}
		if n, ok := tok.(json.Number); ok {
			if _, err := strconv.ParseFloat(string(n), 64); err != nil {
				return true
			}
		}
	}
}
