package cputime

import "testing"

// TestProcessGrows: the CPU time after a busy loop is later than before it, and on
// unix it is a CPU time (true).
func TestProcessGrows(t *testing.T) {
	t0, ok0 := Process()
	x := 0
	for i := range 50_000_000 {
		x ^= i * i
	}
	t1, ok1 := Process()
	if ok0 != ok1 || t1 <= t0 {
		t.Fatalf("Process: %v (%v), then %v (%v) after a busy loop (%d); want a later time", t0, ok0, t1, ok1, x)
	}
}
