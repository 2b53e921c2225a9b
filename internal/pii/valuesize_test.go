package pii

import (
	"math"
	"testing"

	"github.com/babelqueue/bqgen/internal/ordjson"
)

// TestValueSizeAsOrdjson holds valueSize's shortcuts to ordjson.Size, and
// listCostNull's null to listing nil.
func TestValueSizeAsOrdjson(t *testing.T) {
	for _, v := range []any{nil, true, false, int64(0), int64(-1), int64(7), int64(math.MaxInt64), int64(math.MinInt64),
		"a", "é\u2028", 1.5, float64(1e21), []any{int64(1)}} {
		gb, gn := valueSize(v)
		wb, wn := ordjson.Size(v)
		if gb != wb || gn != wn {
			t.Errorf("valueSize(%#v) = %d, %d; ordjson.Size = %d, %d", v, gb, gn, wb, wn)
		}
	}
	vals := []any{"a", int64(2), true}
	if got, want := listCostNull(vals, 3, true), listCost(append(vals[:3:3], nil), 3); got != want {
		t.Errorf("listCostNull = %v, listCost with nil = %v", got, want)
	}
	if got, want := listCostNull(vals, 0, false), listCost(vals, 0); got != want {
		t.Errorf("listCostNull without null = %v, listCost = %v", got, want)
	}
}
