package registry

import (
	"crypto/sha256"
	"encoding/binary"
	"sync"

	"github.com/babelqueue/bqgen/internal/gonames"
	"github.com/babelqueue/bqgen/internal/model"
)

// Cache hands the parsed trees of registry files from one Load to the next, by
// content: a Load given a Cache (WithCache) leaves in it the tree of every file that
// parsed and passed the format check with no diagnostic, and a later Load given the
// same Cache takes the tree of any file with the same bytes, whatever the file is
// called, instead of parsing and checking it again. Each tree is handed out once: it
// is the taker's, which does not leave it in the Cache again, so that the trees of
// the first load are freed as the second one goes. `bqgen diff` loads the new
// registry and the old one with one Cache (at the same time: Feed): in a pull
// request most files are unchanged, and parsing and the format check are most of a
// load's time. A Cache
// holds the trees (about ten times the size of the YAML) until they are taken or it
// is dropped; files over maxCachedFile are not kept. It is safe for concurrent use.
//
// A Cache also remembers the last registry loaded through it without errors. A later
// Load or LoadFiles given the same Cache and the same files — the same names, in the
// same order, with the same bytes — returns that registry and its diagnostics
// instead of loading them again (`bqgen diff -r R --against R`, or a directory
// compared with a copy of itself): what a load of those files returns but for the
// Go-name findings (BQ030, BQ053), which are those of the first load whatever
// WithoutGoNames says. Both callers then hold the same *model.Registry, which neither
// may modify. A load that asks for WithGoNames never takes it.
//
// A Cache can also hand the trees of one load to another running at the same time
// (Feed): `bqgen diff` loads the old registry beside the new one, each file's tree
// going to the old load as soon as the new load has merged it, so that the trees are
// not all alive at once (at 10,000 URNs holding them between the two loads kept
// ~200 MB more alive and the collector ran twice as long).
type Cache struct {
	files sync.Map // [sha256.Size]byte of the content → *tnode

	mu   sync.Mutex
	last *loaded // the last load without errors

	// feed is set by Feed: the trees promised by the feeding load. A Cache with a
	// feed keeps only the trees of the feeding load.
	feed *feed
	// of is set on the view Feed returns to the feeding load (the Cache it feeds);
	// such a view never waits and never takes a tree.
	of *Cache
}

// feed is what Cache.Feed promised: the content keys of the feeding load's files.
type feed struct {
	promised map[[sha256.Size]byte]chan struct{} // closed when the tree is left
	keys     map[*byte][sha256.Size]byte         // the content key of each file, by its first byte
	over     chan struct{}                       // closed by Feed's done: no more trees come
	keyed    chan struct{}                       // closed when key is set
	key      [sha256.Size]byte                   // sourcesKey of the feeding load, as its same got it
	mu       sync.Mutex                          // guards the closing of channels
}

// loaded is a registry a Load returned, with what identifies its input.
type loaded struct {
	key   [sha256.Size]byte // sourcesKey of its files
	reg   *model.Registry
	diags Diagnostics
}

// sourcesKey identifies a load's input: every file's name and content, in order.
func sourcesKey(srcs []source) [sha256.Size]byte {
	h := sha256.New()
	var n [8]byte
	for _, s := range srcs {
		for _, part := range [][]byte{[]byte(s.name), s.data} {
			binary.LittleEndian.PutUint64(n[:], uint64(len(part)))
			h.Write(n[:])
			h.Write(part)
		}
		if s.skip {
			h.Write([]byte{1})
		} else {
			h.Write([]byte{0})
		}
	}
	var k [sha256.Size]byte
	h.Sum(k[:0])
	return k
}

// same returns the registry and diagnostics of the last load through c when it read
// the files with key k, else nil. The trees c holds are dropped then: the load they
// were kept for is not done.
func (c *Cache) same(k [sha256.Size]byte) *loaded {
	if c == nil {
		return nil
	}
	if c.of != nil { // the feeding load: it waits for nothing, and says what it reads
		f := c.of.feed
		f.mu.Lock()
		select {
		case <-f.keyed:
		default:
			f.key = k
			close(f.keyed)
		}
		f.mu.Unlock()
		c = c.of
	} else if f := c.feed; f != nil {
		select { // a load with WithGoNames asks no same: then its end
		case <-f.keyed:
			if f.key == k {
				<-f.over // the same files as the feeding load: its registry is the answer
			}
		case <-f.over:
		}
	}
	c.mu.Lock()
	last := c.last
	c.mu.Unlock()
	if last == nil || last.key != k {
		return nil
	}
	c.files.Clear()
	return last
}

// remember records reg and diags as the load of the files with key k.
func (c *Cache) remember(k [sha256.Size]byte, reg *model.Registry, diags Diagnostics) {
	if c == nil || reg == nil {
		return
	}
	if c.of != nil {
		c = c.of
	}
	c.mu.Lock()
	c.last = &loaded{key: k, reg: reg, diags: diags}
	c.mu.Unlock()
}

// maxCachedFile is the largest file, in bytes, whose tree a Cache keeps (2 MiB). A
// registry kept as one large file changes whenever any of its messages does, so in a
// pull request its tree is almost never taken, and holding it through the second load
// (tens of times the file's size) cost more than parsing it again: `bqgen diff` on the
// 10,000-URN registry in one 19 MB file took 13 s of CPU with the tree kept, ~6 s without.
const maxCachedFile = 2 << 20

// NewCache returns an empty Cache.
func NewCache() *Cache { return &Cache{} }

// Option configures Load and LoadFiles.
type Option func(*options)

type options struct {
	cache       *Cache
	trees       TreeStore
	skipGoNames bool
	goNames     **gonames.Names
	// serialBuild (tests only) makes the merge build every file itself, as before
	// prebuilds (prebuild.go); prebuilds, when not nil, counts the prebuilds the
	// merge took ([0]) and built again itself ([1]).
	serialBuild bool
	prebuilds   *[2]int
}

// WithCache makes Load and LoadFiles take parsed files from c and leave theirs in it.
func WithCache(c *Cache) Option { return func(o *options) { o.cache = c } }

// WithoutGoNames makes Load and LoadFiles skip Go-name planning, and so rule BQ030
// (Go identifier collisions): for a registry that is read only to be compared with
// another (`bqgen diff --against`), where Go names play no part. At 10,000 URNs the
// planning is ~0.35 s of CPU on the load's critical path.
func WithoutGoNames() Option { return func(o *options) { o.skipGoNames = true } }

// WithGoNames makes Load and LoadFiles store in *dst the Go names they planned for
// rule BQ030 when the registry loads without errors and they collide nowhere (else
// nil): what
// gonames.Plan(reg, reg.GoPackage) returns for the loaded registry, without planning
// twice (`bqgen generate` sets the package name it settles on in dst.Package).
func WithGoNames(dst **gonames.Names) Option { return func(o *options) { o.goNames = dst } }

// take removes from c and returns the tree of a file with data's content, its
// positions moved to the file called name, or nil when c holds no such file.
func (c *Cache) take(name string, data []byte) *tnode {
	if c == nil || c.of != nil {
		return nil
	}
	k := keyOf(data)
	if f := c.feed; f != nil {
		if p, ok := f.promised[k]; ok {
			select { // wait until the feeding load has merged a file with this content
			case <-p:
			case <-f.over:
			}
		} else if len(data) > maxCachedFile {
			// A large file the feeding load has no tree of: it is parsed here, after
			// the feeding load is done, as when the loads ran one after the other.
			// Parsed beside the feeding load's parse of its own large file, the two
			// took a 10,000-URN registry kept as one 19 MB file over the soft memory
			// limit: 1.17 GB of peak RSS and twice the CPU (docs/hardening.md).
			<-f.over
		}
	}
	v, ok := c.files.LoadAndDelete(k)
	if !ok {
		return nil
	}
	root := v.(*tnode)
	root.relabel(name)
	return root
}

// put leaves root, the clean tree of a file with data's content, in c. The caller
// must be done with root: the next taker changes it.
func (c *Cache) put(data []byte, root *tnode) {
	if c == nil || len(data) > maxCachedFile {
		return
	}
	if c.of != nil {
		f := c.of.feed
		var k [sha256.Size]byte
		ok := false
		if len(data) > 0 {
			k, ok = f.keys[&data[0]] // hashed by Feed already
		}
		if !ok {
			k = keyOf(data)
		}
		c.of.files.Store(k, root)
		f.mu.Lock()
		if p := f.promised[k]; p != nil {
			select {
			case <-p:
			default:
				close(p)
			}
		}
		f.mu.Unlock()
		return
	}
	if c.feed != nil {
		// Only the feeding load leaves trees: the loader that built a tree may still
		// read nodes of it (examples, enum values), which a taker would relabel.
		return
	}
	c.files.Store(keyOf(data), root)
}

// Feed makes the Cache c hand the trees of a load of in to a load given c that runs
// at the same time, as soon as each file is merged, instead of after the first load
// is done: `bqgen diff` loads the old registry beside the new one. It returns the
// Option the load of in must run with (in place of WithCache(c)), and done, which
// must be called once that load has returned (whatever it returned).
//
// Another load given c that meets a file with the bytes of one of in's (any name)
// waits until the feeding load has merged that file and takes its tree; when the
// feeding load leaves no tree for it (a file with diagnostics, one over 2 MiB), it
// waits for done and parses the file itself (it waits, canceled or not: done must
// come). With the same files as in (same names, order and bytes) it waits for done
// and takes the feeding load's registry, as WithCache's loads do one after the other. The feeding load takes no tree from c and
// copies out the nodes it keeps past each file's merge, so that a taker may change the
// tree; after Feed, c keeps no tree of another load. Feed is called at most once per
// Cache, before the loads start.
func (c *Cache) Feed(in *Input) (opt Option, done func()) {
	f := &feed{promised: map[[sha256.Size]byte]chan struct{}{}, keys: map[*byte][sha256.Size]byte{},
		over: make(chan struct{}), keyed: make(chan struct{})}
	for _, s := range in.srcs {
		if !s.skip && len(s.data) > 0 && len(s.data) <= maxCachedFile {
			k := keyOf(s.data)
			f.promised[k] = make(chan struct{})
			f.keys[&s.data[0]] = k
		}
	}
	c.feed = f
	view := &Cache{of: c}
	var once sync.Once
	return WithCache(view), func() { once.Do(func() { close(f.over) }) }
}

// feeds reports whether c is the view of a feeding load (Feed): the nodes it keeps
// past a file's merge are copied out of the tree, which another load may change.
func (c *Cache) feeds() bool { return c != nil && c.of != nil }

// keyOf is the cache key of a file with content data.
func keyOf(data []byte) [sha256.Size]byte { return sha256.Sum256(data) }

// relabel moves every position of the tree at n to the file called name and clears
// the mark a load leaves on a tree (textChecked). A subtree shared
// through a YAML alias is visited once per use; the expansion budget bounds that.
func (n *tnode) relabel(name string) {
	n.pos.File = name
	n.textChecked = false
	for _, it := range n.items {
		it.relabel(name)
	}
	for i := range n.entries {
		n.entries[i].keyPos.File = name
		n.entries[i].val.relabel(name)
	}
}
