//go:build unix

package cputime

import (
	"syscall"
	"time"
)

// Process returns the CPU time (user + system, all threads) the process has used so
// far, from getrusage(2), and true. Should getrusage fail, it returns the wall time
// since the package was initialised and false.
func Process() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return time.Since(start), false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
