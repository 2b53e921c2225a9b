package ecmare

import (
	"reflect"
	"testing"

	"github.com/babelqueue/bqgen/internal/nodetools"
)

// TestFuzzTranslateFresh: `go test -fuzz FuzzTranslate` on a fresh clone (no
// node_modules) installs the Node tools once, in the coordinating process before any
// worker starts, and fuzzes; no worker runs npm (issue 20, item 20: the first run hung
// while npm ci ran inside a worker).
func TestFuzzTranslateFresh(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs the fuzzing engine and node")
	}
	calls, out, err := nodetools.FreshFuzzRun(t, "FuzzTranslate", 20)
	if err != nil {
		t.Fatalf("fuzz run: %v\n%s", err, out)
	}
	if want := []string{"coordinator"}; !reflect.DeepEqual(calls, want) {
		t.Errorf("npm calls %v, want %v:\n%s", calls, want, out)
	}
}
