package outdir

import (
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
)

// fileMode is the mode of every file Sync writes, whatever the umask
// (docs/decisions.md, "Writing files on every core").
const fileMode fs.FileMode = 0o644

// perms remembers, per directory, whether a file created there with mode fileMode
// keeps it (the umask, or a default ACL, takes no bit of it away): only where it does
// not is each file chmod'ed to fileMode. The first file created in a directory is
// looked at (fstat(2)); a umask of 022 or 002, the usual ones, costs no fchmod per file.
type perms struct {
	mu    sync.Mutex
	chmod map[string]bool // directory → its files need a chmod
}

// fix gives f, created in the directory dir, the mode fileMode.
func (p *perms) fix(f newFile, dir string) error {
	p.mu.Lock()
	need, known := p.chmod[dir]
	p.mu.Unlock()
	if !known {
		m, err := f.perm()
		if err != nil {
			return err
		}
		need = m != fileMode
		p.mu.Lock()
		if p.chmod == nil {
			p.chmod = map[string]bool{}
		}
		p.chmod[dir] = need
		p.mu.Unlock()
	}
	if need {
		return chmodFile(f)
	}
	return nil
}

// chmodFile gives a file Sync created the mode fileMode; tests count the calls.
var chmodFile = func(f newFile) error { return f.chmod(fileMode) }

// writeNew writes content to f, a file just created in the directory dir, gives it
// mode fileMode (perms) and closes it; final is the name errors report. On an error
// f is closed and left, part-written: the caller removes it.
func writeNew(f newFile, dir, final string, content []byte, p *perms) error {
	if _, err := writeTemp(f, content); err != nil {
		f.close()
		return fmt.Errorf("%s: %w", final, err)
	}
	if err := p.fix(f, dir); err != nil {
		f.close()
		return fmt.Errorf("%s: %w", final, err)
	}
	if err := f.close(); err != nil {
		return fmt.Errorf("%s: %w", final, err)
	}
	return nil
}

// createNew creates the file name (the fast path's staged file), which must not
// exist, with mode fileMode less the umask.
func createNew(name string) (newFile, error) { return createExcl(name, uint32(fileMode)) }

// openTemp creates a temporary file in dir for apply, named for isLeftover
// (".bqgen-<pid>-<random>.tmp"), with mode fileMode less the umask.
func openTemp(dir string) (newFile, error) {
	for range 10000 {
		name := filepath.Join(dir, fmt.Sprintf(".bqgen-%d-%d.tmp", os.Getpid(), rand.Uint32()))
		f, err := createExcl(name, uint32(fileMode))
		if err == nil || !os.IsExist(err) {
			return f, err
		}
	}
	return newFile{}, &fs.PathError{Op: "createtemp", Path: filepath.Join(dir, ".bqgen-*.tmp"), Err: fs.ErrExist}
}

// each calls fn(i) for every i in [0, n) on up to GOMAXPROCS goroutines, which take
// the indexes in increasing order, each as it is free (no handoff between goroutines
// per index). Once a call fails no further index is taken, and each returns the error
// of the lowest index that failed: every lower index was taken before it and has run,
// so that is the first error in index order, whatever the schedule.
func each(n int, fn func(i int) error) error {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := range n {
			if err := fn(i); err != nil {
				return err
			}
		}
		return nil
	}
	var (
		next  atomic.Int64
		stop  atomic.Bool
		mu    sync.Mutex
		first = n
		ferr  error
		wg    sync.WaitGroup
	)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if err := fn(i); err != nil {
					mu.Lock()
					if i < first {
						first, ferr = i, err
					}
					mu.Unlock()
					stop.Store(true)
				}
			}
		}()
	}
	wg.Wait()
	return ferr
}
