//go:build !unix

package cputime

import "time"

// Process returns, where getrusage(2) is missing, the wall time since the package
// was initialised and false: not a CPU time, but one that grows with the process's
// work, for the cost tests that compare two of them.
func Process() (time.Duration, bool) { return time.Since(start), false }
