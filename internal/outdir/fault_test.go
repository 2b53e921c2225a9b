package outdir

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"testing"
)

// dirState returns every entry of dir with its content ("<dir>" for directories).
func dirState(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() {
			m[e.Name()] = "<dir>"
			continue
		}
		m[e.Name()] = read(t, filepath.Join(dir, e.Name()))
	}
	return m
}

func names(m map[string]string) []string {
	var out []string
	for n := range m {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// setup writes a.go, b.go, c.go (generated) and hand.go into a new directory.
func setup(t *testing.T) (string, map[string]string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "out")
	if _, err := Sync(context.Background(), dir, []File{gen("a.go", "a1"), gen("b.go", "b1"), gen("c.go", "c1")}, opts()); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "hand.go"), []byte("package x // mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, dirState(t, dir)
}

// next is a run that changes a.go and b.go, adds d.go and e.go and removes c.go.
var next = []File{gen("a.go", "a2"), gen("b.go", "b2"), gen("d.go", "d2"), gen("e.go", "e2")}

// TestSyncFailuresLeaveDirectoryAsItWas injects a failure at every step of a commit —
// staging (a full disk, an unwritable directory), each rename into place, each backup —
// and checks that the directory is exactly as before: old contents, no new file, no
// temporary or backup file, the hand-written file untouched. The files are staged by
// four workers at once, whatever the machine.
func TestSyncFailuresLeaveDirectoryAsItWas(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	cases := []struct {
		op string
		n  int
		// err is the cause Sync's error must wrap.
		err error
	}{
		{"create", 0, syscall.EACCES}, // read-only directory: nothing can be created
		{"create", 2, syscall.ENOSPC},
		{"write", 0, syscall.ENOSPC}, // full disk on the first file
		{"write", 3, syscall.ENOSPC}, // full disk on the last file
		{"rename", 0, syscall.EIO},   // first rename into place
		{"rename", 1, syscall.EIO},   // after a.go is in place
		{"rename", 3, syscall.EIO},   // after three of four are in place
		{"link", 1, syscall.EIO},     // backups fall back to a rename
	}
	for _, c := range cases {
		dir, before := setup(t)
		restore := Fail(c.op, c.n, c.err)
		_, err := Sync(context.Background(), dir, next, opts())
		restore()
		if c.op == "link" {
			// A failing hard link is not an error: the backup is made by a rename.
			if err != nil {
				t.Errorf("%s#%d: %v", c.op, c.n, err)
			}
			want := map[string]string{"a.go": hdr + "a2", "b.go": hdr + "b2", "d.go": hdr + "d2", "e.go": hdr + "e2", "hand.go": before["hand.go"]}
			if got := dirState(t, dir); !reflect.DeepEqual(got, want) {
				t.Errorf("%s#%d: directory = %v, want %v", c.op, c.n, got, want)
			}
			continue
		}
		if !errors.Is(err, c.err) {
			t.Errorf("%s#%d: err = %v, want %v", c.op, c.n, err, c.err)
		}
		if got := dirState(t, dir); !reflect.DeepEqual(got, before) {
			t.Errorf("%s#%d: directory changed:\n got %v\nwant %v", c.op, c.n, names(got), names(before))
			for n, v := range got {
				if before[n] != v {
					t.Errorf("  %s = %q, was %q", n, v, before[n])
				}
			}
		}
	}
}

// TestSyncRemoveFailureRollsBack fails the removal of a stale file after every new file
// is in place (the backup of c.go is a rename, and the rename fails).
func TestSyncRemoveFailureRollsBack(t *testing.T) {
	dir, before := setup(t)
	restoreLink := Fail("link", 2, syscall.EPERM) // backups of a.go, b.go link; c.go's must rename
	restoreRename := Fail("rename", 4, syscall.EIO)
	_, err := Sync(context.Background(), dir, next, opts())
	restoreRename()
	restoreLink()
	if !errors.Is(err, syscall.EIO) {
		t.Fatalf("err = %v", err)
	}
	if got := dirState(t, dir); !reflect.DeepEqual(got, before) {
		t.Fatalf("directory changed:\n got %v\nwant %v", got, before)
	}
}

// TestSyncFailureRemovesCreatedDirectories: a failed first run leaves no directory.
func TestSyncFailureRemovesCreatedDirectories(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "a", "b", "out")
	restore := Fail("write", 1, syscall.ENOSPC)
	_, err := Sync(context.Background(), dir, next, opts())
	restore()
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("err = %v", err)
	}
	if got := dirState(t, root); len(got) != 0 {
		t.Fatalf("left behind: %v", got)
	}
}

// TestSyncOutputPathIsAFile: an -o whose parent is a file cannot be created.
func TestSyncOutputUnderAFile(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	file := filepath.Join(root, "file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Sync(context.Background(), filepath.Join(file, "out"), next, opts())
	if err == nil || !errors.Is(err, ErrUnsafePath) || !strings.Contains(err.Error(), file+" is not a directory") {
		t.Fatalf("err = %v, want ErrUnsafePath naming %s", err, file)
	}
	if got := read(t, file); got != "x" {
		t.Fatalf("file = %q", got)
	}
}

// TestSyncSecondRemovalFails: c.go is removed (its backup a hard link), then removing
// c2.go fails; c.go must come back.
func TestSyncSecondRemovalFails(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	if _, err := Sync(context.Background(), dir, []File{gen("a.go", "a1"), gen("c.go", "c1"), gen("c2.go", "c2")}, opts()); err != nil {
		t.Fatal(err)
	}
	before := dirState(t, dir)
	restore := Fail("remove", 1, syscall.EBUSY)
	_, err := Sync(context.Background(), dir, []File{gen("a.go", "a2")}, opts())
	restore()
	if !errors.Is(err, syscall.EBUSY) {
		t.Fatalf("err = %v", err)
	}
	if got := dirState(t, dir); !reflect.DeepEqual(got, before) {
		t.Fatalf("directory changed:\n got %v\nwant %v", got, before)
	}
}
