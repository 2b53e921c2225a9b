//go:build unix

package registry

import (
	"syscall"
	"time"
)

// processCPU is the CPU time (user + system) this process has used so far; load from
// other processes does not add to it, as it adds to wall time.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
