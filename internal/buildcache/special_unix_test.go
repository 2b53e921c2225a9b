//go:build unix

package buildcache

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestSpecialEntries: an entry path that holds a named pipe, or a symbolic link (to a
// pipe, a device or an intact entry: bqgen writes entries as regular files), is a miss
// at once. Opening a named pipe waits for a writer, and
// a signal does not end the wait (cmd/bqgen turns SIGINT and SIGTERM into a context
// cancellation): a pipe left in the cache once hung every run with that key.
func TestSpecialEntries(t *testing.T) {
	t.Parallel()
	c := New(t.TempDir(), []byte("exe"))
	k := key(c, "k")
	c.Put(k, []byte("payload"))
	p := c.path(k)
	good, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p+".intact", good, 0o600); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for name, create := range map[string]func() error{
		"a named pipe":             func() error { return syscall.Mkfifo(p, 0o600) },
		"a link to a named pipe":   func() error { return os.Symlink(fifo, p) },
		"a link to a device":       func() error { return os.Symlink("/dev/zero", p) },
		"a link to an intact file": func() error { return os.Symlink(p+".intact", p) },
	} {
		os.Remove(p)
		if err := create(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		done := make(chan bool, 1)
		go func() {
			_, ok := c.Get(k)
			done <- ok
		}()
		select {
		case ok := <-done:
			if ok {
				t.Errorf("%s in place of the entry was a hit", name)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s in place of the entry: Get still waits after 5 s", name)
		}
	}
}
