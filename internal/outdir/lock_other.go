//go:build !unix

package outdir

import (
	"context"
	"os"
)

// replaceEmptyDir is false: Windows cannot rename a directory onto an existing one, so
// Sync has no fast path there (and lockDir creates no directory to replace).
const replaceEmptyDir = false

// renameDir is not used where replaceEmptyDir is false.
func renameDir(from, to string) error { return os.Rename(from, to) }

// lockDir takes no lock where flock(2) does not exist (Windows): two runs into one
// directory at once are not serialised there (docs/hardening.md, "Output safety").
func lockDir(ctx context.Context, dir string, shared bool) (unlock func(), created []madeDir, err error) {
	return func() {}, nil, nil
}

// rmdir removes the empty directory name (os.Remove; removeDirs checks first that
// name is still the directory Sync created).
func rmdir(name string) error { return os.Remove(name) }

// processAlive reports whether a process with the id pid runs: os.FindProcess
// finds it (on Windows it opens the process, so it fails for one that does not run).
func processAlive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	p.Release()
	return true
}
