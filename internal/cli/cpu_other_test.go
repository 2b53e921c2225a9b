//go:build !unix

package cli

// cpuTime reports that the process's CPU time is not known here: the benchmarks
// then report wall time only.
func cpuTime() (int64, bool) { return 0, false }
