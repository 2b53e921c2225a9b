//go:build unix

package outdir

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// swapOut stands for another process that replaces the empty directory dir, which
// bqgen created, while bqgen writes it: by a symbolic link to a new directory beside it
// (link) or by a new empty directory of its own. It returns what now is at dir.
func swapOut(t *testing.T, dir string, link bool) os.FileInfo {
	t.Helper()
	if err := os.Remove(dir); err != nil {
		t.Fatal(err)
	}
	if link {
		tgt := filepath.Join(filepath.Dir(dir), "tgt")
		if err := os.Mkdir(tgt, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("tgt", dir); err != nil {
			t.Fatal(err)
		}
	} else if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	info, err := os.Lstat(dir)
	if err != nil {
		t.Fatal(err)
	}
	return info
}

// TestSyncFastPathLeavesAReplacedDirectory: another process replaces the empty -o that
// Sync created, by a symbolic link or by a directory of its own, while the fast path
// stages the tree (on the first staged file) or between Sync's last check and the
// rename of the staged tree onto -o. Sync fails with nothing changed, and what the
// other process put at -o is still there, untouched (before: the cleanup unlinked the
// symbolic link, and a directory of its own was replaced by the staged tree).
func TestSyncFastPathLeavesAReplacedDirectory(t *testing.T) {
	if !replaceEmptyDir {
		t.Skip("no fast path on this platform")
	}
	for _, c := range []struct {
		name        string
		link, late  bool
		wantErrText string
	}{
		{"symlink while staging", true, false, "replaced by another process"},
		{"directory while staging", false, false, "replaced by another process"},
		{"symlink before the rename", true, true, "not a directory"},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			dir := filepath.Join(root, "intr")
			var other os.FileInfo
			if c.late {
				old := moveTree
				moveTree = func(from, to string) error {
					other = swapOut(t, dir, c.link)
					return old(from, to)
				}
				defer func() { moveTree = old }()
			} else {
				old := createFile
				var once sync.Once // the staged files are created on several goroutines
				createFile = func(name string) (newFile, error) {
					once.Do(func() { other = swapOut(t, dir, c.link) })
					return old(name)
				}
				defer func() { createFile = old }()
			}
			_, err := Sync(context.Background(), dir, tree3, opts())
			if err == nil || !strings.Contains(err.Error(), c.wantErrText) || !strings.HasSuffix(err.Error(), "(nothing was changed)") {
				t.Fatalf("err = %v, want one saying %q, ending (nothing was changed)", err, c.wantErrText)
			}
			if other == nil {
				t.Fatal("the directory was never replaced")
			}
			now, err := os.Lstat(dir)
			if err != nil {
				t.Fatalf("the other process's %s is gone: %v", c.name, err)
			}
			if !os.SameFile(now, other) {
				t.Fatalf("%s was replaced: %v", dir, now.Mode())
			}
			want := map[string]string{"intr": "<dir>"}
			if c.link {
				want = map[string]string{"tgt": "<dir>"}
				if dest, err := os.Readlink(dir); err != nil || dest != "tgt" {
					t.Fatalf("link = %q, %v", dest, err)
				}
				if got := dirState(t, filepath.Join(root, "tgt")); len(got) != 0 {
					t.Fatalf("written through the link: %v", got)
				}
				if err := os.Remove(dir); err != nil { // dirState would read the link
					t.Fatal(err)
				}
			} else if got := dirState(t, dir); len(got) != 0 {
				t.Fatalf("written into the other directory: %v", got)
			}
			if got := dirState(t, root); !reflect.DeepEqual(got, want) {
				t.Fatalf("beside it: %v, want %v", got, want)
			}
		})
	}
}

// TestSyncEmptyDirectoryMadeMeanwhile: another process creates -o (empty) between
// Sync's look and its mkdir. That directory is the user's, not bqgen's: it is written
// file by file, keeping its identity, and a failing run leaves it in place (before: it
// counted as created by bqgen, was replaced by the fast path's staged tree, and a
// failing run removed it).
func TestSyncEmptyDirectoryMadeMeanwhile(t *testing.T) {
	for _, fail := range []bool{false, true} {
		root := t.TempDir()
		dir := filepath.Join(root, "a", "out")
		var theirs os.FileInfo
		old := mkdir
		mkdir = func(name string, perm os.FileMode) error {
			if name == dir && theirs == nil {
				if err := old(name, perm); err != nil {
					t.Fatal(err)
				}
				var err error
				if theirs, err = os.Lstat(name); err != nil {
					t.Fatal(err)
				}
			}
			return old(name, perm)
		}
		restore := func() {}
		if fail {
			restore = Fail("write", 1, syscall.ENOSPC)
		}
		_, err := Sync(context.Background(), dir, tree3, opts())
		restore()
		mkdir = old
		if fail != (err != nil) || fail && !errors.Is(err, syscall.ENOSPC) {
			t.Fatalf("fail=%v: err = %v", fail, err)
		}
		now, err := os.Lstat(dir)
		if err != nil {
			t.Fatalf("fail=%v: %v", fail, err)
		}
		if !os.SameFile(now, theirs) {
			t.Fatalf("fail=%v: %s was replaced", fail, dir)
		}
		want := map[string]string{"a.go": hdr + "a", "orders": "<dir>", "internal": "<dir>", "billing": "<dir>"}
		if fail {
			want = map[string]string{}
		}
		if got := dirState(t, dir); !reflect.DeepEqual(got, want) {
			t.Fatalf("fail=%v: %s = %v, want %v", fail, dir, got, want)
		}
	}
}
