// Package buildcache is bqgen's build cache: small entries on disk, addressed by a
// SHA-256 key that always includes the identity of the running executable, so that a
// run of the same bqgen on the same input can reuse what an earlier run computed
// (docs/performance.md, "Build cache"). It works like the Go build cache: an entry is
// a pure function of its key, written atomically (a temporary file renamed into
// place), and anything wrong with the cache — a directory that cannot be created, an
// entry that is corrupt, truncated or unreadable — only means a miss, never an error:
// the caller then computes the result as if there were no cache.
//
// The cache holds only what bqgen would print or write anyway (diagnostics, the
// digests of generated files), never message data.
package buildcache

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"hash"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// EnvVar is the environment variable that chooses the cache directory; the value
// Off disables the cache.
const (
	EnvVar = "BQGEN_CACHE"
	Off    = "off"
)

// Key addresses one entry: the SHA-256 of the executable's identity, a kind and the
// parts the caller hashed (Cache.NewKey).
type Key [sha256.Size]byte

// Cache is a cache directory. A nil *Cache is a valid cache that never hits and
// stores nothing. Its methods are safe for concurrent use, also by several processes
// sharing the directory.
type Cache struct {
	dir string

	idOnce sync.Once
	idFn   func() ([]byte, error)
	id     []byte // the executable's identity; nil: no cache

	mkOnce sync.Once
	mkErr  error
}

// New returns the cache in dir for an executable whose identity is id (any bytes that
// differ between builds; tests pass their own). The directory is created (0700) when
// the first entry is written. id must not be empty.
func New(dir string, id []byte) *Cache {
	id = bytes.Clone(id)
	return &Cache{dir: dir, idFn: func() ([]byte, error) { return id, nil }}
}

// Default returns the cache cmd/bqgen uses: the directory $BQGEN_CACHE when getenv
// returns it set (nil, no cache, when it is "off" in any case, or not an absolute
// path: as with the go command's GOCACHE, a relative one would put a cache in every
// directory bqgen runs in, which `go generate` makes each package's, the output
// directory with `-o .`), else "bqgen" in os.UserCacheDir,
// for the running executable, identified by the SHA-256 of its file (read on first
// use: a new build of bqgen, or one built by another Go toolchain, never reuses an
// entry). It returns nil when there is no cache directory; when the executable cannot
// be read, the Cache it returns never hits.
func Default(getenv func(string) string) *Cache {
	dir := getenv(EnvVar)
	switch {
	case strings.EqualFold(dir, Off):
		return nil
	case dir != "" && !filepath.IsAbs(dir):
		return nil
	case dir == "":
		d, err := os.UserCacheDir()
		if err != nil {
			return nil
		}
		dir = filepath.Join(d, "bqgen")
	}
	return &Cache{dir: dir, idFn: ExecutableDigest}
}

// ExecutableDigest returns the SHA-256 of the running executable's file
// (os.Executable), or an error when it cannot be read.
func ExecutableDigest() ([]byte, error) {
	p, err := os.Executable()
	if err != nil {
		return nil, err
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return nil, err
	}
	return h.Sum(nil), nil
}

// Dir returns the cache directory ("" for a nil Cache).
func (c *Cache) Dir() string {
	if c == nil {
		return ""
	}
	return c.dir
}

// identity returns the executable's identity, or nil when the cache is unusable.
func (c *Cache) identity() []byte {
	if c == nil {
		return nil
	}
	c.idOnce.Do(func() {
		id, err := c.idFn()
		if err == nil && len(id) > 0 {
			c.id = id
		}
	})
	return c.id
}

// Enabled reports whether the cache can hit: it is not nil and the executable's
// identity is known.
func (c *Cache) Enabled() bool { return c.identity() != nil }

// Hasher builds a Key from parts, each written with its length so that no two
// sequences of parts hash alike.
type Hasher struct{ h hash.Hash }

// NewKey starts a key of the given kind ("generate", "gofmt"; each use of the cache
// has its own) for this executable. It returns nil when the cache is disabled
// (Enabled); a nil *Hasher accepts parts and yields the zero Key.
func (c *Cache) NewKey(kind string) *Hasher {
	id := c.identity()
	if id == nil {
		return nil
	}
	k := &Hasher{h: sha256.New()}
	k.Bytes([]byte("bqgen build cache 1"))
	k.Bytes(id)
	k.String(kind)
	return k
}

// Bytes adds one part.
func (k *Hasher) Bytes(b []byte) *Hasher {
	if k == nil {
		return nil
	}
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(len(b)))
	k.h.Write(n[:])
	k.h.Write(b)
	return k
}

// String adds one part.
func (k *Hasher) String(s string) *Hasher {
	if k == nil {
		return nil
	}
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(len(s)))
	k.h.Write(n[:])
	io.WriteString(k.h, s)
	return k
}

// Sum returns the key.
func (k *Hasher) Sum() Key {
	var key Key
	if k != nil {
		k.h.Sum(key[:0])
	}
	return key
}

// magic starts every entry file; the SHA-256 of the payload and its length follow, so
// a truncated or altered entry is recognised and is a miss.
const magic = "bqgen-cache-entry 1\n"

// MaxEntry is the largest payload Put stores and Get reads, in bytes.
const MaxEntry = 64 << 20

// path is the file of the entry k: two hex digits of fan-out, then the key in hex.
func (c *Cache) path(k Key) string {
	h := hex.EncodeToString(k[:])
	return filepath.Join(c.dir, h[:2], h+"-e")
}

// Get returns the payload stored under k, or false: no cache, no entry, or an entry
// that cannot be read, is not intact or is not a regular file (Put writes regular
// files; opening a named pipe would wait for a writer, and a signal does not end that
// wait).
func (c *Cache) Get(k Key) ([]byte, bool) {
	if !c.Enabled() {
		return nil, false
	}
	p := c.path(k)
	if fi, err := os.Lstat(p); err != nil || !fi.Mode().IsRegular() {
		return nil, false
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil, false
	}
	// One read of the size the file has (an entry is written whole, then renamed
	// into place), and one more byte to see that it did not grow.
	limit := int64(len(magic) + sha256.Size + 8 + MaxEntry)
	if fi.Size() > limit {
		return nil, false
	}
	b := make([]byte, fi.Size()+1)
	n, err := io.ReadFull(f, b)
	if err != io.ErrUnexpectedEOF || int64(n) != fi.Size() {
		return nil, false
	}
	return decode(b[:n])
}

// decode returns the payload of an entry file's bytes, or false when they are not an
// intact entry.
func decode(b []byte) ([]byte, bool) {
	rest, ok := bytes.CutPrefix(b, []byte(magic))
	if !ok || len(rest) < sha256.Size+8 {
		return nil, false
	}
	sum, n, payload := rest[:sha256.Size], binary.LittleEndian.Uint64(rest[sha256.Size:sha256.Size+8]), rest[sha256.Size+8:]
	if n != uint64(len(payload)) || n > MaxEntry {
		return nil, false
	}
	if got := sha256.Sum256(payload); !bytes.Equal(got[:], sum) {
		return nil, false
	}
	return payload, true
}

// Put stores payload under k, atomically: readers see the old entry, none, or the new
// one whole. Failures are ignored (the next run computes the result again); a payload
// over MaxEntry is not stored.
func (c *Cache) Put(k Key, payload []byte) {
	if !c.Enabled() || len(payload) > MaxEntry {
		return
	}
	c.mkOnce.Do(func() { c.mkErr = os.MkdirAll(c.dir, 0o700) })
	if c.mkErr != nil {
		return
	}
	p := c.path(k)
	dir := filepath.Dir(p)
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return
	}
	f, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return
	}
	sum := sha256.Sum256(payload)
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(len(payload)))
	buf := make([]byte, 0, len(magic)+len(sum)+len(n)+len(payload))
	buf = append(append(append(append(buf, magic...), sum[:]...), n[:]...), payload...)
	_, err = f.Write(buf)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), p)
	}
	if err != nil {
		os.Remove(f.Name())
	}
}
