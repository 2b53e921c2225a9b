package outdir

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"sync"
)

// fresh reports whether Sync writes dir by the fast path: dir did not exist before this
// run (lockDir created it, so it is the last of created, and it still is that
// directory: madeDir.ours), it is still empty, the
// platform renames a directory onto an empty one (replaceEmptyDir), and this is no
// dry run. A directory that existed, even empty, is the user's (its mode, owner,
// inode): it is written file by file.
func fresh(dir string, created []madeDir, opts Options) bool {
	if opts.DryRun || !replaceEmptyDir || len(created) == 0 || created[len(created)-1].path != dir || !created[len(created)-1].ours() {
		return false
	}
	if len(filepath.Base(dir)) > maxStagedBase {
		return false // the staged tree's name would be too long (NAME_MAX is 255)
	}
	f, err := os.Open(dir)
	if err != nil {
		return false
	}
	defer f.Close()
	_, err = f.Readdirnames(1)
	return errors.Is(err, io.EOF)
}

// maxStagedBase is the longest base name of an output directory that the fast path
// stages for: its staged tree's name adds up to 33 bytes to it.
const maxStagedBase = 200

// stagingName is the name of the fast path's temporary tree beside the output
// directory base: ".bqgen-<pid>-<random>.<base>.tmp".
var stagingName = regexp.MustCompile(`^\.bqgen-([0-9]+)-[0-9]+\.(.+)\.tmp$`)

// stage writes every file of src into a new directory beside dir (stagingName), with
// plain exclusive creates, and renames that directory onto dir, which lockDir created
// empty (mine). GOMAXPROCS workers each build a file (src.Content), write it and
// release it (Source.Release), taking the files in the order of src.Names (each):
// memory holds one content per worker, and the error reported is the first in that
// order. On any failure the staged tree is removed: dir
// stays empty, and Sync removes it again. When dir is no longer mine right before the
// rename (another process replaced it by a symbolic link or a directory of its own),
// the error wraps ErrUnsafePath and nothing is changed: the fast path replaces only the
// directory bqgen created. What remains is the instant between that check and
// rename(2): a symbolic link put there then makes the rename fail (ENOTDIR), an empty
// directory would be replaced.
func stage(dir string, mine madeDir, src Source) (err error) {
	if len(src.Names) == 0 {
		return nil
	}
	parent, base := filepath.Split(dir)
	var tmp string
	for {
		tmp = filepath.Join(parent, fmt.Sprintf(".bqgen-%d-%d.%s.tmp", os.Getpid(), rand.Uint32(), base))
		err := os.Mkdir(tmp, 0o755)
		if err == nil {
			break
		}
		if !errors.Is(err, os.ErrExist) {
			return fmt.Errorf("%s: %w (nothing was changed)", filepath.Clean(parent), err)
		}
	}
	defer func() {
		if err != nil {
			os.RemoveAll(tmp)
			err = fmt.Errorf("%w (nothing was changed)", err)
		}
	}()
	// The directories first (parents before children), then the files on every
	// worker, each built, written and released by the worker that took it.
	var subdirs []string
	seen := set{".": true}
	for _, name := range src.Names {
		for d := path.Dir(name); !seen[d]; d = path.Dir(d) {
			seen[d] = true
			subdirs = append(subdirs, d)
		}
	}
	sort.Strings(subdirs)
	for _, d := range subdirs {
		if err := os.Mkdir(filepath.Join(tmp, filepath.FromSlash(d)), 0o755); err != nil {
			return fmt.Errorf("%s: %w", filepath.Join(dir, filepath.FromSlash(d)), err)
		}
	}
	var modes perms
	err = each(len(src.Names), func(i int) error {
		content, err := src.Content(i)
		if err != nil {
			return err
		}
		name := src.Names[i]
		final := filepath.Join(dir, filepath.FromSlash(name))
		staged := filepath.Join(tmp, filepath.FromSlash(name))
		f, err := createFile(staged)
		if err == nil {
			err = writeNew(f, filepath.Dir(staged), final, content, &modes)
		} else {
			err = fmt.Errorf("%s: %w", final, err)
		}
		src.release(content)
		return err
	})
	if err != nil {
		return err
	}
	if !mine.ours() {
		return fmt.Errorf("%s: %w: replaced by another process while bqgen wrote it (run bqgen again)", dir, ErrUnsafePath)
	}
	if err := moveTree(tmp, dir); err != nil {
		return fmt.Errorf("%s: %w", dir, err)
	}
	return nil
}

// removeStaleStaging removes the staged trees (stagingName) that runs into dir left
// beside it when they were killed: those of processes that no longer run. Nothing else
// beside dir is touched; failures are ignored (the tree is only litter).
func removeStaleStaging(dir string) {
	parent, base := filepath.Split(dir)
	if parent == "" {
		parent = "."
	}
	entries, err := os.ReadDir(parent)
	if err != nil {
		return
	}
	for _, e := range entries {
		m := stagingName.FindStringSubmatch(e.Name())
		if m == nil || m[2] != base || !e.IsDir() {
			continue
		}
		pid, err := strconv.Atoi(m[1])
		if err != nil || pid == os.Getpid() || pid > 0 && processAlive(pid) {
			continue
		}
		os.RemoveAll(filepath.Join(parent, e.Name()))
	}
}

// produce calls work(i) for every i in [0, n) on up to GOMAXPROCS goroutines and
// hands each result to use in index order. The goroutines take the indexes in runs of
// consecutive ones (chunkSize: one handoff per run, not per index), and at most two
// runs per goroutine are done and not used yet: the output does not depend on the
// schedule, and memory holds a few results, not all. It returns the first error in
// index order (of work or of use) and then produces nothing more.
func produce[T any](n int, work func(i int) (T, error), use func(i int, v T) error) error {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := range n {
			v, err := work(i)
			if err != nil {
				return err
			}
			if err := use(i, v); err != nil {
				return err
			}
		}
		return nil
	}
	type run struct {
		vs  []T
		err error // of the index after vs
	}
	size := chunkSize(n, workers)
	runs := (n + size - 1) / size
	slots := make([]chan run, runs)
	for c := range slots {
		slots[c] = make(chan run, 1)
	}
	ahead := make(chan struct{}, 2*workers) // runs produced and not used yet
	jobs := make(chan int)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // the feeder: runs in order, never too far ahead of use
		defer wg.Done()
		defer close(jobs)
		for c := range runs {
			select {
			case ahead <- struct{}{}:
			case <-done:
				return
			}
			select {
			case jobs <- c:
			case <-done:
				return
			}
		}
	}()
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range jobs {
				var r run
				for i := c * size; i < min(n, (c+1)*size); i++ {
					v, err := work(i)
					if err != nil {
						r.err = err
						break
					}
					r.vs = append(r.vs, v)
				}
				slots[c] <- r
			}
		}()
	}
	defer func() {
		close(done)
		wg.Wait()
	}()
	for c := range runs {
		r := <-slots[c]
		slots[c] = nil
		for k, v := range r.vs {
			if err := use(c*size+k, v); err != nil {
				return err
			}
		}
		if r.err != nil {
			return r.err
		}
		<-ahead
	}
	return nil
}

// chunkSize is the length of produce's runs for n indexes on workers goroutines: up
// to 16, and at least 16 runs per worker, so that the runs balance the work.
func chunkSize(n, workers int) int {
	return max(1, min(16, n/(16*workers)))
}
