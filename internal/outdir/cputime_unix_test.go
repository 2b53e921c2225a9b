//go:build unix

package outdir

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time (user + system) this process has used so far, for
// benchmarks whose wall time a busy machine distorts.
func cpuTime() (time.Duration, bool) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
