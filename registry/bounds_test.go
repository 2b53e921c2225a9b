package registry

import (
	"encoding/json"
	"testing"
)

// TestEmptyRangeIntegersAsRationals holds emptyRange's int64 comparison to its
// big.Rat one: every pair of bounds from a grid of values (near zero and at the ends
// of int64), both exclusive or not, for integer and number fields, is reported as
// empty given as int64 literals (the int64 path) exactly when given as the fractions
// N/1, which only big.Rat reads (the big.Rat path).
func TestEmptyRangeIntegersAsRationals(t *testing.T) {
	vals := []string{"-9223372036854775808", "-9223372036854775807", "-2", "-1", "0", "1", "2", "3",
		"9223372036854775806", "9223372036854775807"}
	empty := func(lk, lo, hk, hi string, integer bool) bool {
		bound := func(key, num string) tentry {
			return tentry{key: key, val: &tnode{kind: tNum, num: json.Number(num), lit: num}}
		}
		n := &tnode{kind: tMap, entries: []tentry{bound(lk, lo), bound(hk, hi)}}
		l := &loader{}
		l.emptyRange(n, "field", integer)
		return len(l.diags) > 0
	}
	count := 0
	for _, integer := range []bool{true, false} {
		for _, lk := range []string{"minimum", "exclusiveMinimum"} {
			for _, hk := range []string{"maximum", "exclusiveMaximum"} {
				for _, lo := range vals {
					for _, hi := range vals {
						got, want := empty(lk, lo, hk, hi, integer), empty(lk, lo+"/1", hk, hi+"/1", integer)
						if got != want {
							t.Errorf("integer %v, %s %s, %s %s: empty %v as int64, %v as big.Rat", integer, lk, lo, hk, hi, got, want)
						}
						if got {
							count++
						}
					}
				}
			}
		}
	}
	if count < 200 {
		t.Fatalf("only %d empty ranges", count)
	}
}
