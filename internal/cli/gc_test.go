package cli

import (
	"math"
	"runtime/debug"
	"testing"
)

// TestTuneGC checks that TuneGC sets GOGC 400 and a 900 MiB soft memory limit, and
// that GOGC and GOMEMLIMIT in the environment win. Not parallel: it changes
// process-wide settings, and restores them.
func TestTuneGC(t *testing.T) {
	oldPercent := debug.SetGCPercent(100)
	oldLimit := debug.SetMemoryLimit(math.MaxInt64)
	t.Cleanup(func() {
		debug.SetGCPercent(oldPercent)
		debug.SetMemoryLimit(oldLimit)
	})
	env := func(vars map[string]string) func(string) (string, bool) {
		return func(k string) (string, bool) { v, ok := vars[k]; return v, ok }
	}
	cases := []struct {
		name        string
		vars        map[string]string
		wantPercent int
		wantLimit   int64
	}{
		{"defaults", nil, 400, 900 << 20},
		{"GOGC set", map[string]string{"GOGC": "100"}, 100, 900 << 20},
		{"GOMEMLIMIT set", map[string]string{"GOMEMLIMIT": "off"}, 400, math.MaxInt64},
		{"both set", map[string]string{"GOGC": "100", "GOMEMLIMIT": "off"}, 100, math.MaxInt64},
	}
	for _, c := range cases {
		debug.SetGCPercent(100) // what the runtime read from the environment
		debug.SetMemoryLimit(math.MaxInt64)
		percent, limit := TuneGC(env(c.vars))
		if percent != c.wantPercent || limit != c.wantLimit {
			t.Errorf("%s: TuneGC = %d, %d; want %d, %d", c.name, percent, limit, c.wantPercent, c.wantLimit)
		}
	}
}
