package buildcache

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

func key(c *Cache, parts ...string) Key {
	k := c.NewKey("test")
	for _, p := range parts {
		k.String(p)
	}
	return k.Sum()
}

func TestPutGet(t *testing.T) {
	c := New(t.TempDir(), []byte("exe-1"))
	k := key(c, "a")
	if _, ok := c.Get(k); ok {
		t.Fatal("hit in an empty cache")
	}
	c.Put(k, []byte("payload"))
	got, ok := c.Get(k)
	if !ok || string(got) != "payload" {
		t.Fatalf("Get = %q, %v; want payload, true", got, ok)
	}
	c.Put(k, []byte("other"))
	if got, _ := c.Get(k); string(got) != "other" {
		t.Fatalf("after a second Put, Get = %q; want other", got)
	}
	if empty := key(c, ""); empty == k {
		t.Fatal("different parts, same key")
	}
	c.Put(key(c, "empty"), nil)
	if got, ok := c.Get(key(c, "empty")); !ok || len(got) != 0 {
		t.Fatalf("empty payload: Get = %q, %v", got, ok)
	}
}

// The executable's identity is part of every key: another build never reads this
// one's entries.
func TestExecutableInKey(t *testing.T) {
	dir := t.TempDir()
	a, b := New(dir, []byte("exe-1")), New(dir, []byte("exe-2"))
	a.Put(key(a, "x"), []byte("from a"))
	if key(a, "x") == key(b, "x") {
		t.Fatal("two executables, one key")
	}
	if _, ok := b.Get(key(b, "x")); ok {
		t.Fatal("another executable's entry was a hit")
	}
	if got, ok := New(dir, []byte("exe-1")).Get(key(a, "x")); !ok || string(got) != "from a" {
		t.Fatalf("the same executable again: Get = %q, %v", got, ok)
	}
}

// Parts are length-prefixed: ("ab", "c") and ("a", "bc") differ.
func TestKeyParts(t *testing.T) {
	c := New(t.TempDir(), []byte("exe"))
	if key(c, "ab", "c") == key(c, "a", "bc") {
		t.Fatal(`("ab","c") and ("a","bc") have one key`)
	}
	if c.NewKey("one").Sum() == c.NewKey("two").Sum() {
		t.Fatal("two kinds, one key")
	}
}

// A corrupt, truncated or unreadable entry is a miss, never an error or a panic.
func TestCorruptEntries(t *testing.T) {
	c := New(t.TempDir(), []byte("exe"))
	k := key(c, "k")
	c.Put(k, []byte("the payload of the entry"))
	p := c.path(k)
	good, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	flipped := bytes.Clone(good)
	flipped[len(flipped)-1] ^= 1
	longer := append(bytes.Clone(good), 'x')
	for name, b := range map[string][]byte{
		"empty":       {},
		"magic only":  []byte(magic),
		"truncated":   good[:len(good)-3],
		"header only": good[:len(magic)+40],
		"flipped bit": flipped,
		"longer":      longer,
		"garbage":     bytes.Repeat([]byte{0xff}, 100),
	} {
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		if got, ok := c.Get(k); ok {
			t.Errorf("%s: Get = %q, true; want a miss", name, got)
		}
	}
	// An entry that is a directory, or unreadable.
	os.Remove(p)
	if err := os.Mkdir(p, 0o700); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Get(k); ok {
		t.Error("a directory in place of the entry was a hit")
	}
	c.Put(k, []byte("again")) // cannot replace the directory: ignored
	os.Remove(p)
	if err := os.WriteFile(p, good, 0o000); err != nil {
		t.Fatal(err)
	}
	if os.Getuid() != 0 {
		if _, ok := c.Get(k); ok {
			t.Error("an unreadable entry was a hit")
		}
	}
	os.Chmod(p, 0o600)
	if got, ok := c.Get(k); !ok || string(got) != "the payload of the entry" {
		t.Fatalf("the intact entry again: Get = %q, %v", got, ok)
	}
}

// A cache directory that cannot be created means no cache: Put stores nothing and
// does not fail, Get misses.
func TestUncreatableDir(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	c := New(filepath.Join(file, "cache"), []byte("exe"))
	k := key(c, "k")
	c.Put(k, []byte("p"))
	if _, ok := c.Get(k); ok {
		t.Fatal("hit in a cache that could not be created")
	}
}

// The directory is created 0700, and an entry is written through a temporary file:
// none is left behind.
func TestLayout(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sub", "cache")
	c := New(dir, []byte("exe"))
	c.Put(key(c, "k"), []byte("p"))
	info, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" && info.Mode().Perm() != 0o700 {
		t.Errorf("cache directory mode %v; want 0700", info.Mode().Perm())
	}
	var files []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			files = append(files, rel)
		}
		return nil
	})
	want := filepath.Join(fmt.Sprintf("%x", key(c, "k"))[:2], fmt.Sprintf("%x-e", key(c, "k")))
	if len(files) != 1 || files[0] != want {
		t.Fatalf("files in the cache: %q; want [%q]", files, want)
	}
}

// Concurrent writers and readers of one key (in one process here; across processes
// the rename is as atomic) never see a partial entry.
func TestConcurrent(t *testing.T) {
	dir := t.TempDir()
	payloads := [][]byte{bytes.Repeat([]byte("a"), 1<<16), bytes.Repeat([]byte("b"), 1<<17)}
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := New(dir, []byte("exe")) // a process of its own
			k := key(c, "shared")
			for j := range 50 {
				c.Put(k, payloads[(i+j)%2])
				if got, ok := c.Get(k); ok && !bytes.Equal(got, payloads[0]) && !bytes.Equal(got, payloads[1]) {
					errs <- errors.New("read a partial or mixed entry")
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	c := New(dir, []byte("exe"))
	if _, ok := c.Get(key(c, "shared")); !ok {
		t.Fatal("no entry after the writers")
	}
	leftovers, _ := filepath.Glob(filepath.Join(dir, "*", ".tmp-*"))
	if len(leftovers) > 0 {
		t.Fatalf("temporary files left: %q", leftovers)
	}
}

func TestDefault(t *testing.T) {
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == EnvVar {
				return v
			}
			return ""
		}
	}
	for _, v := range []string{Off, "OFF", "Off", "cache", ".bqgen-cache", "./cache", "../cache", "~/cache"} {
		if c := Default(env(v)); c != nil {
			t.Fatalf("BQGEN_CACHE=%s: Default in %q; want nil (off, or not an absolute path)", v, c.Dir())
		}
	}
	var none *Cache
	none.Put(Key{}, []byte("x")) // a nil cache stores nothing and does not panic
	if _, ok := none.Get(Key{}); ok || none.Enabled() || none.NewKey("k") != nil {
		t.Fatal("a nil cache is enabled")
	}
	dir := t.TempDir()
	c := Default(env(dir))
	if c.Dir() != dir {
		t.Fatalf("BQGEN_CACHE=%s: Dir = %q", dir, c.Dir())
	}
	// The test binary is the running executable: its digest is the identity.
	want, err := ExecutableDigest()
	if err != nil {
		t.Fatal(err)
	}
	if !c.Enabled() || !bytes.Equal(c.identity(), want) || len(want) != 32 {
		t.Fatalf("identity %x; want the executable's SHA-256 %x", c.identity(), want)
	}
	if ucd, err := os.UserCacheDir(); err == nil {
		if got := Default(env("")).Dir(); got != filepath.Join(ucd, "bqgen") {
			t.Fatalf("unset: Dir = %q; want %q", got, filepath.Join(ucd, "bqgen"))
		}
	}
	// An executable that cannot be read: a cache that never hits.
	broken := &Cache{dir: dir, idFn: func() ([]byte, error) { return nil, errors.New("unreadable") }}
	broken.Put(key(broken, "k"), []byte("p"))
	if _, ok := broken.Get(key(broken, "k")); ok || broken.Enabled() {
		t.Fatal("a cache without the executable's identity hit")
	}
}

// BenchmarkExecutableDigest is what hashing the executable costs each run that uses
// the cache (the test binary stands in for bqgen; see docs/performance.md).
func BenchmarkExecutableDigest(b *testing.B) {
	for b.Loop() {
		if _, err := ExecutableDigest(); err != nil {
			b.Fatal(err)
		}
	}
}
