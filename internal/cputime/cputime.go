// Package cputime reads the CPU time of the running process, for the benchmarks and
// cost tests whose wall time a busy machine distorts: the CPU time of one process does
// not grow with the load of others (docs/performance.md compares builds by it).
package cputime

import (
	"testing"
	"time"
)

// start is when the package was initialised: Process's stand-in where the CPU time
// is not known.
var start = time.Now()

// PerOp starts measuring the process's CPU time; the function it returns reports it
// on b per operation as cpu-ns/op (user + system, all goroutines), and reports nothing
// where Process has no CPU time. Defer it after the set-up, before the loop.
func PerOp(b *testing.B) func() {
	start, ok := Process()
	return func() {
		if end, ok2 := Process(); ok && ok2 && b.N > 0 {
			b.ReportMetric(float64(end-start)/float64(b.N), "cpu-ns/op")
		}
	}
}
