package ecmare

import (
	"regexp"
	"sync"
)

// The translation cache. A registry uses one pattern in many fields (YAML aliases,
// shared named types), and every consumer of a pattern (the checks, the examples
// check, the Go emitter, bqgen validate) asks for it again: translating once per
// distinct pattern keeps the work linear in the registry's size (a 12 KB registry
// with 100 uses of one pattern took 108 s to check when each use translated it).
// Entries are kept for the life of the process, up to maxCacheBytes of pattern and
// translation text; past that, patterns are translated on every call.

// maxCacheBytes bounds the text the cache holds: 64 MiB.
const maxCacheBytes = 64 << 20

type cacheEntry struct {
	pat  *Pattern
	err  error
	once sync.Once
	re   *regexp.Regexp
	rerr error
}

// compile returns the compiled translation, compiling it on first use.
func (e *cacheEntry) compile() (*regexp.Regexp, error) {
	e.once.Do(func() { e.re, e.rerr = regexp.Compile(e.pat.RE2) })
	return e.re, e.rerr
}

var cache struct {
	sync.Mutex
	m     map[string]*cacheEntry
	bytes int
}

// cached returns the entry of pattern, translating it when it is not cached.
func cached(pattern string) *cacheEntry {
	cache.Lock()
	e := cache.m[pattern]
	cache.Unlock()
	if e != nil {
		return e
	}
	e = &cacheEntry{}
	e.pat, e.err = parse(pattern)
	size := len(pattern)
	if e.pat != nil {
		size += len(e.pat.RE2)
	}
	cache.Lock()
	defer cache.Unlock()
	if old := cache.m[pattern]; old != nil {
		return old // another goroutine translated it meanwhile
	}
	if cache.bytes+size <= maxCacheBytes {
		if cache.m == nil {
			cache.m = map[string]*cacheEntry{}
		}
		cache.m[pattern] = e
		cache.bytes += size
	}
	return e
}
