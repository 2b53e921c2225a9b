//go:build !unix

package registry

import "time"

var start = time.Now()

// processCPU stands in for the process's CPU time where getrusage is missing: the wall
// time since the test binary started.
func processCPU() time.Duration { return time.Since(start) }
