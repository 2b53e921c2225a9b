package cli

import (
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"testing"

	"github.com/babelqueue/bqgen/internal/synth"
)

// TestFilesIndependentOfGOMAXPROCS (issue 22): generate and jsonschema build their
// files concurrently and write a new output directory by the fast path (one staged
// tree) or an existing one file by file; the bytes are the same whatever GOMAXPROCS is
// and whichever path wrote them, on the example registry and on a synthetic one with
// every registry type.
func TestFilesIndependentOfGOMAXPROCS(t *testing.T) {
	syn := t.TempDir()
	for name, b := range synth.Files(synth.Options{Messages: 120}) {
		if err := os.WriteFile(filepath.Join(syn, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, reg := range []string{exampleRegistry, syn} {
		for _, cmd := range [][]string{{"generate", "--import-path", "example.com/gen"}, {"jsonschema"}} {
			var first map[string]string
			for _, run1 := range []struct {
				procs    int
				existing bool // -o exists (empty): written file by file
			}{{1, false}, {8, false}, {8, true}, {1, true}} {
				runtime.GOMAXPROCS(run1.procs)
				out := filepath.Join(t.TempDir(), "out")
				if run1.existing {
					if err := os.Mkdir(out, 0o755); err != nil {
						t.Fatal(err)
					}
				}
				args := append([]string{cmd[0], "-r", reg, "-o", out}, cmd[1:]...)
				if code, _, stderr := run(t, args...); code != ExitOK {
					t.Fatalf("%v: exit %d\n%s", args, code, stderr)
				}
				got := tree(t, out)
				if first == nil {
					first = got
					if len(got) < 10 {
						t.Fatalf("%v: only %d entries", args, len(got))
					}
					continue
				}
				if !reflect.DeepEqual(got, first) {
					for k, v := range got {
						if first[k] != v {
							t.Errorf("%v, GOMAXPROCS=%d, existing -o %v: %s differs", args, run1.procs, run1.existing, k)
						}
					}
					t.Fatalf("%v, GOMAXPROCS=%d, existing -o %v: %d entries, first run %d", args, run1.procs, run1.existing, len(got), len(first))
				}
			}
		}
	}
}
