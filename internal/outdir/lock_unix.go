//go:build unix

package outdir

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// replaceEmptyDir: rename(2) replaces an empty directory atomically, so Sync's fast
// path (fast.go) can rename its staged tree onto the directory lockDir created.
const replaceEmptyDir = true

// renameDir is rename(2) itself: os.Rename refuses to replace a directory.
func renameDir(from, to string) error {
	if err := syscall.Rename(from, to); err != nil {
		return &os.LinkError{Op: "rename", Old: from, New: to, Err: err}
	}
	return nil
}

// lockPoll is how often lockDir tries again while another run holds the lock.
const lockPoll = 20 * time.Millisecond

// lockDir takes an advisory lock (flock(2)) on the directory dir, exclusive to
// write, shared for a dry run, so that two runs into one directory (two `go
// generate` at once in a monorepo) do not interleave: the second waits until the
// first has finished, then plans against what it left, and the directory always
// holds the complete output of one run. The lock is on the directory itself, so
// nothing is left behind, and the kernel releases it when the process ends. A
// missing dir is created first (and returned in created, parents first, so that
// the caller removes it when it ends up writing nothing); a dry run on a missing
// dir takes no lock. It waits until ctx is done.
//
// A run on the fast path (fast.go) replaces the empty directory it locked by its
// staged tree: a run that was waiting for that lock then holds one on a directory no
// longer at dir, so lockDir checks, once it has the lock, that dir is still the
// directory it locked, and starts again if not.
func lockDir(ctx context.Context, dir string, shared bool) (unlock func(), created []madeDir, err error) {
	for {
		unlock, made, replaced, err := lockOnce(ctx, dir, shared)
		created = append(created, made...)
		if err != nil || !replaced {
			return unlock, created, err
		}
	}
}

// lockOnce is one attempt of lockDir; replaced reports that dir was replaced while
// it waited (the lock is then released).
//
// A directory counts as created only when this run's mkdir made it: one that appeared
// meanwhile (another process's, even empty) is the user's, neither removed nor replaced.
func lockOnce(ctx context.Context, dir string, shared bool) (unlock func(), created []madeDir, replaced bool, err error) {
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		if shared {
			return func() {}, nil, false, nil
		}
		var missing []string
		for d := dir; ; d = filepath.Dir(d) {
			if _, err := os.Lstat(d); err == nil || !errors.Is(err, fs.ErrNotExist) {
				break
			}
			missing = append([]string{d}, missing...)
			if filepath.Dir(d) == d {
				break
			}
		}
		for _, d := range missing {
			m, err := makeDir(d)
			if errors.Is(err, fs.ErrExist) {
				continue // made by someone else meanwhile: not ours
			}
			if err != nil {
				removeDirs(created)
				return nil, nil, false, fmt.Errorf("%s: %w", d, err)
			}
			created = append(created, m)
		}
	}
	f, err := os.Open(dir)
	if err != nil {
		removeDirs(created)
		return nil, nil, false, fmt.Errorf("%s: %w", dir, err)
	}
	how := syscall.LOCK_EX
	if shared {
		how = syscall.LOCK_SH
	}
	for {
		err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
		if err == nil {
			break
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			f.Close()
			removeDirs(created)
			return nil, nil, false, fmt.Errorf("%s: locking: %w", dir, err)
		}
		select {
		case <-ctx.Done():
			f.Close()
			removeDirs(created)
			return nil, nil, false, fmt.Errorf("%s: waiting for another bqgen run writing this directory: %w", dir, ctx.Err())
		case <-time.After(lockPoll):
		}
	}
	unlock = func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}
	locked, err1 := f.Stat()
	now, err2 := os.Lstat(dir)
	if err1 == nil && (err2 != nil || !os.SameFile(locked, now)) {
		unlock()
		return nil, created, true, nil
	}
	return unlock, created, false, nil
}

// rmdir removes the directory name only if it is an empty directory (rmdir(2):
// never a file or a symbolic link, as os.Remove would).
func rmdir(name string) error { return syscall.Rmdir(name) }

// processAlive reports whether a process with the id pid runs (kill(2) with signal
// 0: it exists, though perhaps another user's).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
