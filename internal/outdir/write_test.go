//go:build unix

package outdir

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// TestSyncModeWhateverTheUmask: every file Sync writes has mode 0644, on the fast path
// (a new -o) and on the general path (files replaced in an existing one), whatever the
// umask; a file is chmod'ed only where the umask takes a bit of 0644 away (022 and
// 002, the usual ones, cost no chmod per file).
func TestSyncModeWhateverTheUmask(t *testing.T) {
	defer syscall.Umask(syscall.Umask(0o022))
	var chmods atomic.Int32
	old := chmodFile
	chmodFile = func(f newFile) error { chmods.Add(1); return old(f) }
	defer func() { chmodFile = old }()
	for _, c := range []struct {
		umask  int
		chmods int32 // per run of the four files of tree3
	}{{0o022, 0}, {0o002, 0}, {0o000, 0}, {0o077, 4}, {0o027, 4}, {0o444, 4}} {
		syscall.Umask(c.umask)
		dir := filepath.Join(t.TempDir(), "out")
		chmods.Store(0)
		if _, err := Sync(context.Background(), dir, tree3, opts()); err != nil {
			t.Fatal(err)
		}
		fast := chmods.Load()
		chmods.Store(0)
		changed := make([]File, len(tree3))
		for i, f := range tree3 {
			changed[i] = File{f.Name, append(append([]byte(nil), f.Content...), '2')}
		}
		if _, err := Sync(context.Background(), dir, changed, opts()); err != nil {
			t.Fatal(err)
		}
		if general := chmods.Load(); fast != c.chmods || general != c.chmods {
			t.Errorf("umask %03o: %d chmods on the fast path, %d on the general one; want %d", c.umask, fast, general, c.chmods)
		}
		for _, f := range tree3 {
			if info, err := os.Stat(filepath.Join(dir, f.Name)); err != nil || info.Mode().Perm() != 0o644 {
				t.Errorf("umask %03o: %s: %v %v, want 0644", c.umask, f.Name, info.Mode(), err)
			}
		}
	}
}

// TestEachFirstErrorInOrder: each runs every index once on several goroutines; when
// calls fail, it returns the error of the lowest failing index (every index below it
// has run), whichever failed first in time.
func TestEachFirstErrorInOrder(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	const n = 500
	var calls [n]atomic.Int32
	if err := each(n, func(i int) error { calls[i].Add(1); return nil }); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if c := calls[i].Load(); c != 1 {
			t.Fatalf("index %d ran %d times", i, c)
		}
		calls[i].Store(0)
	}
	err := each(n, func(i int) error {
		calls[i].Add(1)
		switch i {
		case 120:
			time.Sleep(20 * time.Millisecond) // fails after 121 has
			return errors.New("120")
		case 121:
			return errors.New("121")
		}
		if i > 121 {
			// Long enough that the workers cannot take all 378 later indexes (at
			// least 126 ms on three of them) before the one that ran 121 stops them:
			// a free loop ran through them all under load before it had.
			time.Sleep(time.Millisecond)
		}
		return nil
	})
	if err == nil || err.Error() != "120" {
		t.Fatalf("err = %v, want 120's", err)
	}
	for i := range 121 {
		if c := calls[i].Load(); c != 1 {
			t.Fatalf("index %d ran %d times, want once", i, c)
		}
	}
	ran := 0
	for i := range n {
		ran += int(calls[i].Load())
	}
	if ran >= n {
		t.Errorf("%d calls: the indexes after the failure were all taken", ran)
	}
}
