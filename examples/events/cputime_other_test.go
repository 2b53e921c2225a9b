// This file is hand-written (it has no generated-code header, so bqgen generate
// leaves it alone).

//go:build !unix

package events_test

import "time"

// cpuTime is not measured here: the benchmarks report no CPU time.
func cpuTime() (time.Duration, bool) { return 0, false }
