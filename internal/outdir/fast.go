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
// empty (mine). Contents are produced concurrently (produce) and written in the order of
// src.Names, a few at a time in memory. On any failure the staged tree is removed: dir
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
	made := set{".": true}
	err = produce(src, func(i int, content []byte) error {
		name := src.Names[i]
		if d := path.Dir(name); !made[d] {
			for _, sub := range []string{path.Dir(d), d} {
				if made[sub] {
					continue
				}
				if err := os.Mkdir(filepath.Join(tmp, filepath.FromSlash(sub)), 0o755); err != nil {
					return fmt.Errorf("%s: %w", filepath.Join(dir, filepath.FromSlash(sub)), err)
				}
				made[sub] = true
			}
		}
		final := filepath.Join(dir, filepath.FromSlash(name))
		f, err := createFile(filepath.Join(tmp, filepath.FromSlash(name)))
		if err != nil {
			return fmt.Errorf("%s: %w", final, err)
		}
		if _, err := writeTemp(f, content); err != nil {
			f.Close()
			return fmt.Errorf("%s: %w", final, err)
		}
		if err := f.Chmod(0o644); err != nil { // as the general path: 0644 whatever the umask
			f.Close()
			return fmt.Errorf("%s: %w", final, err)
		}
		if err := f.Close(); err != nil {
			return fmt.Errorf("%s: %w", final, err)
		}
		return nil
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

// produce calls src.Content for every file on up to GOMAXPROCS goroutines and hands
// each result to use in the order of src.Names, with at most two results per goroutine
// waiting: the output does not depend on the schedule, and memory holds a few files,
// not all. It returns the first error in that order (of Content or of use) and then
// produces nothing more.
func produce(src Source, use func(i int, content []byte) error) error {
	n := len(src.Names)
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := range n {
			b, err := src.Content(i)
			if err != nil {
				return err
			}
			if err := use(i, b); err != nil {
				return err
			}
		}
		return nil
	}
	type result struct {
		b   []byte
		err error
	}
	slots := make([]chan result, n)
	for i := range slots {
		slots[i] = make(chan result, 1)
	}
	ahead := make(chan struct{}, 2*workers) // results produced and not used yet
	jobs := make(chan int)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // the feeder: indexes in order, never too far ahead of use
		defer wg.Done()
		defer close(jobs)
		for i := range n {
			select {
			case ahead <- struct{}{}:
			case <-done:
				return
			}
			select {
			case jobs <- i:
			case <-done:
				return
			}
		}
	}()
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				b, err := src.Content(i)
				slots[i] <- result{b, err}
			}
		}()
	}
	defer func() {
		close(done)
		wg.Wait()
	}()
	for i := range n {
		r := <-slots[i]
		slots[i] = nil
		<-ahead
		if r.err != nil {
			return r.err
		}
		if err := use(i, r.b); err != nil {
			return err
		}
	}
	return nil
}
