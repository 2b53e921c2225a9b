//go:build !unix

package registry

import "time"

// processCPU is 0 where getrusage is missing: the benchmarks' cpu-sec/op reads 0.
func processCPU() time.Duration { return 0 }
