//go:build unix

package cputime

import "testing"

// TestProcessIsCPUTimeOnUnix: on unix, getrusage answers.
func TestProcessIsCPUTimeOnUnix(t *testing.T) {
	if _, ok := Process(); !ok {
		t.Fatal("Process: false on unix; want the CPU time from getrusage")
	}
}
