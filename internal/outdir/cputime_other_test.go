//go:build !unix

package outdir

import "time"

// cpuTime is not measured here: the benchmarks report no CPU time.
func cpuTime() (time.Duration, bool) { return 0, false }
