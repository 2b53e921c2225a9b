package nodetools

import (
	"os"
	"strings"
	"testing"
)

// FuzzInstallProbe calls Dir in its fuzz function's body, which the fuzzing engine
// runs in a worker: TestFuzzWorkerInstallsNothing runs it on a fresh layout (it is a
// no-op anywhere else).
func FuzzInstallProbe(f *testing.F) {
	if os.Getenv("NODETOOLS_INSTALL_PROBE") == "" {
		f.Skip("run by TestFuzzWorkerInstallsNothing")
	}
	f.Add(0)
	f.Fuzz(func(t *testing.T, _ int) { Dir(t) })
}

// TestFuzzWorkerInstallsNothing: Dir in a fuzz worker, with the tools not installed,
// fails with the fix instead of running npm ci there (issue 20, item 20: the first
// `-fuzz FuzzTranslate` on a fresh clone hung while npm ci ran in its workers).
func TestFuzzWorkerInstallsNothing(t *testing.T) {
	t.Setenv("NODETOOLS_INSTALL_PROBE", "1")
	calls, out, err := FreshFuzzRun(t, "FuzzInstallProbe", 1)
	if len(calls) != 0 {
		t.Errorf("npm ran in the fuzz run (%v):\n%s", calls, out)
	}
	if err == nil || !strings.Contains(out, "a fuzz worker installs nothing") || !strings.Contains(out, "call nodetools.Dir(f) in the fuzz target before f.Fuzz") {
		t.Errorf("the fuzz run did not fail with the fix (err %v):\n%s", err, out)
	}
}
