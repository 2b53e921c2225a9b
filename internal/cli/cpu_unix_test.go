//go:build unix

package cli

import "syscall"

// cpuTime returns the CPU time (user + system) the process has used, in
// nanoseconds, and true; the benchmarks report it per operation, which does not
// depend on how many other processes share the machine as wall time does.
func cpuTime() (int64, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return ru.Utime.Nano() + ru.Stime.Nano(), true
}
