package cli

import "runtime/debug"

// Garbage-collector settings for one bqgen process (docs/performance.md, "Garbage
// collection"). bqgen is a short-lived batch process that allocates ~100× its input
// while it parses YAML and renders Go; at Go's default GOGC of 100 the collector took
// a quarter of the CPU time of `bqgen generate` on 10,000 URNs.
const (
	// gcPercent is the GOGC bqgen runs with when the environment sets none.
	gcPercent = 400
	// memoryLimit is the soft heap limit, in bytes, bqgen runs with when the
	// environment sets no GOMEMLIMIT: above it the collector runs as often as needed
	// (it never fails an allocation), so gcPercent cannot take the heap past it. It
	// keeps `bqgen generate` on 10,000 URNs under 1 GiB of peak RSS (issue 6), with
	// room above the ~600 MiB that it keeps alive.
	memoryLimit = 900 << 20
)

// TuneGC sets the collector for a bqgen run: GOGC gcPercent unless the GOGC
// environment variable is set, and a soft memory limit of memoryLimit bytes unless
// GOMEMLIMIT is set (lookup is os.LookupEnv, injectable for tests). It returns the
// GOGC and memory limit in force afterwards. cmd/bqgen calls it once, before Run;
// tests and library users keep Go's defaults.
func TuneGC(lookup func(string) (string, bool)) (percent int, limit int64) {
	if _, ok := lookup("GOGC"); !ok {
		debug.SetGCPercent(gcPercent)
	}
	if _, ok := lookup("GOMEMLIMIT"); !ok {
		debug.SetMemoryLimit(memoryLimit)
	}
	percent = debug.SetGCPercent(-1)
	debug.SetGCPercent(percent)
	return percent, debug.SetMemoryLimit(-1)
}
