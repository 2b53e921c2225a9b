//go:build unix

package outdir

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// counting replaces createTemp, createFile, rename and moveTree by counting wrappers
// until the test ends.
// (creates of files run on several goroutines: the counts are taken under a lock).
func counting(t *testing.T) (temps, creates, renames, trees *int) {
	t.Helper()
	temps, creates, renames, trees = new(int), new(int), new(int), new(int)
	var mu sync.Mutex
	count := func(n *int) { mu.Lock(); *n++; mu.Unlock() }
	oldTemp, oldFile, oldRename, oldTree := createTemp, createFile, rename, moveTree
	createTemp = func(d string) (newFile, error) { count(temps); return oldTemp(d) }
	createFile = func(n string) (newFile, error) { count(creates); return oldFile(n) }
	rename = func(a, b string) error { count(renames); return oldRename(a, b) }
	moveTree = func(a, b string) error { count(trees); return oldTree(a, b) }
	t.Cleanup(func() { createTemp, createFile, rename, moveTree = oldTemp, oldFile, oldRename, oldTree })
	return
}

var tree3 = []File{gen("a.go", "a"), gen("orders/orders.go", "o"), gen("internal/bqrt/x.go", "x"), gen("billing/billing.go", "b")}

// TestSyncFastPath: a directory that does not exist yet is written as one staged tree
// (a plain create per file, one rename of the tree), with the files and directories of
// the general path (content, 0644 files, 0755 directories), and nothing left beside it.
func TestSyncFastPath(t *testing.T) {
	if !replaceEmptyDir {
		t.Skip("no fast path on this platform")
	}
	root := t.TempDir()
	dir := filepath.Join(root, "out")
	temps, creates, renames, trees := counting(t)
	plan, err := Sync(context.Background(), dir, tree3, opts())
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a.go", "billing/billing.go", "internal/bqrt/x.go", "orders/orders.go"}; !reflect.DeepEqual(plan.Write, want) || len(plan.Unchanged)+len(plan.Remove) != 0 {
		t.Errorf("plan = %+v", plan)
	}
	if *temps != 0 || *creates != 4 || *renames != 0 || *trees != 1 {
		t.Errorf("temporary files %d, creates %d, file renames %d, tree renames %d; want 0, 4, 0, 1", *temps, *creates, *renames, *trees)
	}
	want := []string{"a.go=" + hdr + "a", "billing/", "billing/billing.go=" + hdr + "b", "internal/", "internal/bqrt/", "internal/bqrt/x.go=" + hdr + "x", "orders/", "orders/orders.go=" + hdr + "o"}
	if got := tree(t, dir); !reflect.DeepEqual(got, want) {
		t.Errorf("tree = %q", got)
	}
	for _, p := range []string{"a.go", "internal/bqrt/x.go"} {
		if info, err := os.Stat(filepath.Join(dir, p)); err != nil || info.Mode().Perm() != 0o644 {
			t.Errorf("%s: %v %v, want 0644", p, info.Mode(), err)
		}
	}
	for _, p := range []string{".", "internal", "internal/bqrt"} {
		if info, err := os.Stat(filepath.Join(dir, p)); err != nil || info.Mode().Perm() != 0o755&^umask(t) {
			t.Errorf("%s: %v %v, want 0755 less the umask", p, info.Mode(), err)
		}
	}
	if ents, _ := os.ReadDir(root); len(ents) != 1 {
		t.Errorf("beside the output: %v", ents)
	}
	// The next run into the directory that now exists takes the general path.
	*creates, *temps, *renames, *trees = 0, 0, 0, 0
	if _, err := Sync(context.Background(), dir, append([]File{gen("a.go", "a2")}, tree3[1:]...), opts()); err != nil {
		t.Fatal(err)
	}
	if *temps != 1 || *creates != 0 || *renames != 1 || *trees != 0 {
		t.Errorf("second run: temporary files %d, creates %d, file renames %d, tree renames %d; want 1, 0, 1, 0", *temps, *creates, *renames, *trees)
	}
}

// umask returns the process's umask (set and restored at once; the tests of this
// package create no files meanwhile in this goroutine).
func umask(t *testing.T) os.FileMode {
	t.Helper()
	m := syscall.Umask(0)
	syscall.Umask(m)
	return os.FileMode(m)
}

// TestSyncFastPathFailures: a failure at any step of the fast path (creating a staged
// file, a full disk on a later file, the rename of the tree) leaves nothing: no output
// directory, none of the directories created for it, no staged tree beside it. The
// files are written by four workers at once, whatever the machine.
func TestSyncFastPathFailures(t *testing.T) {
	if !replaceEmptyDir {
		t.Skip("no fast path on this platform")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	for _, c := range []struct {
		op  string
		n   int
		err error
	}{
		{"create", 0, syscall.EACCES},
		{"create", 3, syscall.EROFS},
		{"write", 0, syscall.ENOSPC},
		{"write", 2, syscall.ENOSPC},
		{"rename", 0, syscall.EIO},
	} {
		root := t.TempDir()
		restore := Fail(c.op, c.n, c.err)
		_, err := Sync(context.Background(), filepath.Join(root, "a", "out"), tree3, opts())
		restore()
		if !errors.Is(err, c.err) {
			t.Errorf("%s#%d: err = %v, want %v", c.op, c.n, err, c.err)
		}
		if got := dirState(t, root); len(got) != 0 {
			t.Errorf("%s#%d: left %v", c.op, c.n, got)
		}
	}
}

// TestSyncRemovesStaleStaging: the staged tree a killed run left beside the output
// directory (its process gone) is removed by the next run into that directory; one
// of a live process, one of another output directory and other hidden entries stay.
func TestSyncRemovesStaleStaging(t *testing.T) {
	root := t.TempDir()
	dead := 1 << 30 // above any pid_max: no such process
	mk := func(name string) {
		if err := os.MkdirAll(filepath.Join(root, name, "orders"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	stale := fmt.Sprintf(".bqgen-%d-7.out.tmp", dead)
	live := fmt.Sprintf(".bqgen-%d-8.out.tmp", os.Getpid())
	other := fmt.Sprintf(".bqgen-%d-9.other.tmp", dead)
	for _, n := range []string{stale, live, other, ".bqgen-x-1.out.tmp"} {
		mk(n)
	}
	if _, err := Sync(context.Background(), filepath.Join(root, "out"), tree3, opts()); err != nil {
		t.Fatal(err)
	}
	got := dirState(t, root)
	want := map[string]string{"out": "<dir>", live: "<dir>", other: "<dir>", ".bqgen-x-1.out.tmp": "<dir>"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("beside the output: %v, want %v", names(got), names(want))
	}
}

// TestLockFollowsAReplacedDirectory: a run waiting for the lock of a directory that the
// fast path of the run holding it replaces (rename of the staged tree) ends up holding
// the lock of the directory now at that path, not of the one it waited on.
func TestLockFollowsAReplacedDirectory(t *testing.T) {
	if !replaceEmptyDir {
		t.Skip("no fast path on this platform")
	}
	root := t.TempDir()
	dir := filepath.Join(root, "out")
	unlock1, _, err := lockDir(context.Background(), dir, false)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan func())
	go func() {
		unlock2, _, err := lockDir(context.Background(), dir, false)
		if err != nil {
			t.Error(err)
		}
		got <- unlock2
	}()
	time.Sleep(200 * time.Millisecond) // the second has opened dir and polls its lock
	staged := filepath.Join(root, "staged")
	if err := os.Mkdir(staged, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := renameDir(staged, dir); err != nil {
		t.Fatal(err)
	}
	unlock1()
	unlock2 := <-got
	defer unlock2()
	f, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); !errors.Is(err, syscall.EWOULDBLOCK) {
		t.Fatalf("locking the new directory: %v; want it held by the second run", err)
	}
}

// TestProduceKeepsOrder: contents produced by several goroutines, finishing in any
// order, are used in the order of the names, each produced once; the first error in
// that order stops it, and nothing after it is used.
func TestProduceKeepsOrder(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	const n = 200
	src := Source{Names: make([]string, n)}
	var calls [n]atomic.Int32
	src.Content = func(i int) ([]byte, error) {
		calls[i].Add(1)
		time.Sleep(time.Duration((i*7919)%5) * 100 * time.Microsecond)
		return []byte(fmt.Sprint(i)), nil
	}
	var used []string
	var produced, maxAhead atomic.Int32 // contents built and not used yet
	content := src.Content
	src.Content = func(i int) ([]byte, error) {
		b, err := content(i)
		n := produced.Add(1)
		for m := maxAhead.Load(); n > m && !maxAhead.CompareAndSwap(m, n); m = maxAhead.Load() {
		}
		return b, err
	}
	if err := produce(n, src.Content, func(i int, b []byte) error {
		produced.Add(-1)
		used = append(used, fmt.Sprintf("%d:%s", i, b))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	// Runs of 3 indexes (chunkSize), at most two per worker taken and not used.
	if size := chunkSize(n, 4); size != 3 {
		t.Fatalf("chunkSize(%d, 4) = %d, want 3", n, size)
	}
	if m := maxAhead.Load(); m > 2*3*4 {
		t.Errorf("%d contents held at once, want at most 2 runs of 3 per worker (24)", m)
	}
	for i := range n {
		if used[i] != fmt.Sprintf("%d:%d", i, i) || calls[i].Load() != 1 {
			t.Fatalf("use %d = %q, %d calls", i, used[i], calls[i].Load())
		}
	}
	boom := errors.New("boom")
	src.Content = func(i int) ([]byte, error) {
		if i == 50 || i == 120 {
			return nil, fmt.Errorf("%d: %w", i, boom)
		}
		return nil, nil
	}
	last := -1
	err := produce(n, src.Content, func(i int, b []byte) error { last = i; return nil })
	if err == nil || err.Error() != "50: boom" || last != 49 {
		t.Fatalf("err = %v, last used %d; want 50: boom after 49", err, last)
	}
}

// TestSyncKeepsFewContents: on the general path, the contents to write beyond
// keepLimit are built again when written (twice in all), the others once; the result
// is the same, and an error building one again undoes everything.
func TestSyncKeepsFewContents(t *testing.T) {
	defer func(old int) { keepLimit = old }(keepLimit)
	keepLimit = 2 * len(hdr+"a2") // two files' worth
	dir, before := setup(t)
	var calls [4]atomic.Int32
	var fail atomic.Int32
	fail.Store(-1)
	src := Source{Names: []string{"a.go", "b.go", "d.go", "e.go"}, Content: func(i int) ([]byte, error) {
		if calls[i].Add(1) == 2 && int(fail.Load()) == i {
			return nil, syscall.EIO
		}
		return next[i].Content, nil
	}}
	fail.Store(3)
	if _, err := SyncSource(context.Background(), dir, src, opts()); !errors.Is(err, syscall.EIO) {
		t.Fatalf("err = %v, want EIO from building e.go again", err)
	}
	if got := dirState(t, dir); !reflect.DeepEqual(got, before) {
		t.Fatalf("directory changed: %v", names(got))
	}
	for i := range calls {
		calls[i].Store(0)
	}
	fail.Store(-1)
	if _, err := SyncSource(context.Background(), dir, src, opts()); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"a.go": hdr + "a2", "b.go": hdr + "b2", "d.go": hdr + "d2", "e.go": hdr + "e2", "hand.go": before["hand.go"]}
	if got := dirState(t, dir); !reflect.DeepEqual(got, want) {
		t.Errorf("directory = %v", got)
	}
	var got []int32
	for i := range calls {
		got = append(got, calls[i].Load())
	}
	if !reflect.DeepEqual(got, []int32{1, 1, 2, 2}) {
		t.Errorf("Content calls per file = %v, want [1 1 2 2]", got)
	}
}

// TestSyncLongDirectoryName: an output directory whose name leaves no room for the
// staged tree's name (NAME_MAX) is written file by file, as an existing one.
func TestSyncLongDirectoryName(t *testing.T) {
	temps, _, _, trees := counting(t)
	dir := filepath.Join(t.TempDir(), strings.Repeat("o", 240))
	if _, err := Sync(context.Background(), dir, tree3, opts()); err != nil {
		t.Fatal(err)
	}
	if *temps != 4 || *trees != 0 {
		t.Errorf("temporary files %d, tree renames %d; want 4, 0", *temps, *trees)
	}
	if got := tree(t, dir); len(got) != 8 {
		t.Errorf("tree = %q", got)
	}
}
