package registry

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"

	"github.com/babelqueue/bqgen/internal/model"
)

// TreeStore keeps encoded trees of registry files across runs (bqgen's build cache;
// docs/performance.md, "Build cache"). Keys are TreeKey values: the SHA-256 of a
// file's bytes and of treeFormat, so an entry is a pure function of its key. Get
// returns what Put stored under key, or false; an implementation may lose entries or
// return false for any reason. Bytes that are not an intact encoding are a miss (the
// file is parsed as usual), but bytes that decode to another tree are not detected:
// the store must keep its entries intact (the build cache checks a SHA-256 of each).
// Both must be safe for concurrent use: a Load calls them from several goroutines.
type TreeStore interface {
	Get(key [sha256.Size]byte) ([]byte, bool)
	Put(key [sha256.Size]byte, enc []byte)
}

// WithTreeStore makes Load and LoadFiles look up, for each file (not taken from a
// Cache), the encoded tree of a file with the same bytes in s and decode it instead of
// parsing and format-checking the file, and store in s the encoded tree of every file
// it parsed that had no parse or format diagnostic (the files a Cache keeps), unless
// the file uses YAML anchors (its tree shares subtrees) or is over maxCachedFile bytes.
// A decoded tree is the tree a parse gives (TestTreeCodecRoundTrip), so a Load returns
// the same registry and diagnostics with or without s.
func WithTreeStore(s TreeStore) Option { return func(o *options) { o.trees = s } }

// treeFormat names the tree encoding; it is part of every TreeKey, so a change of the
// encoding, or of what a parse puts into a tree, must change it.
const treeFormat = "bqgen tree 1"

// treeMagic starts every encoded tree.
const treeMagic = "BQT1"

// TreeKey is the TreeStore key of a file with content data: the SHA-256 of treeFormat
// and data.
func TreeKey(data []byte) [sha256.Size]byte {
	h := sha256.New()
	h.Write([]byte(treeFormat))
	h.Write([]byte{0})
	h.Write(data)
	var k [sha256.Size]byte
	h.Sum(k[:0])
	return k
}

// Node flags of the encoding (one byte after the kind).
const (
	fB = 1 << iota
	fBad
	fPlain
	fShared
	fStr
	fNum
	fLit
)

// encodeTree returns the encoding of the tree at root, or nil when it cannot be
// encoded: a tree that shares subtrees (YAML anchors, root.shared), or one holding the
// marks of a load (textChecked) or of a format error (unsure). The encoding is
//
//	"BQT1", uvarint nodes, entries, items (the tree's counts), uvarint length of the
//	string table, the string table (each distinct string once), then the nodes in
//	preorder: kind, flags, line (zigzag delta from the node before), column, then as
//	the flags say str, num, lit (uvarint offset and length into the string table); a
//	mapping: uvarint count, then each entry's key (offset, length), key line (delta),
//	key column and value node; a sequence: uvarint count, then its items.
//
// The file name is not encoded (decodeTree sets it); size and height are not either:
// they follow from the tree and decodeTree computes them.
func encodeTree(root *tnode) []byte {
	if root == nil || root.shared {
		return nil
	}
	e := &treeEncoder{strs: map[string]uint64{}}
	if !e.node(root, 0) {
		return nil
	}
	out := make([]byte, 0, len(treeMagic)+4*binary.MaxVarintLen64+len(e.table)+len(e.body))
	out = append(out, treeMagic...)
	out = binary.AppendUvarint(out, e.nodes)
	out = binary.AppendUvarint(out, e.entries)
	out = binary.AppendUvarint(out, e.items)
	out = binary.AppendUvarint(out, uint64(len(e.table)))
	out = append(out, e.table...)
	if out = append(out, e.body...); len(out) > maxStoredTree {
		return nil
	}
	return out
}

// maxStoredTree is the largest encoding, in bytes, encodeTree returns and decodeTree
// reads (8 MiB): the trees of files up to maxCachedFile bytes take less (about four
// fifths of the YAML), and it bounds what a decode of a corrupt entry allocates (at most
// a node per 4 bytes).
const maxStoredTree = 4 * maxCachedFile

type treeEncoder struct {
	strs                  map[string]uint64 // offset in table
	table, body           []byte
	nodes, entries, items uint64
	line                  int
}

func (e *treeEncoder) str(s string) {
	off, ok := e.strs[s]
	if !ok {
		off = uint64(len(e.table))
		e.table = append(e.table, s...)
		e.strs[s] = off
	}
	e.body = binary.AppendUvarint(e.body, off)
	e.body = binary.AppendUvarint(e.body, uint64(len(s)))
}

func (e *treeEncoder) pos(p model.Pos) {
	e.body = binary.AppendVarint(e.body, int64(p.Line-e.line))
	e.body = binary.AppendUvarint(e.body, uint64(p.Column))
	e.line = p.Line
}

func (e *treeEncoder) node(n *tnode, depth int) bool {
	if n == nil || n.textChecked || n.unsure != nil || depth > MaxDepth+1 || n.kind > tMap {
		return false
	}
	e.nodes++
	var f byte
	for _, b := range []struct {
		on   bool
		flag byte
	}{{n.b, fB}, {n.bad, fBad}, {n.plain, fPlain}, {n.shared, fShared}, {n.str != "", fStr}, {n.num != "", fNum}, {n.lit != "", fLit}} {
		if b.on {
			f |= b.flag
		}
	}
	e.body = append(e.body, byte(n.kind), f)
	e.pos(n.pos)
	if n.str != "" {
		e.str(n.str)
	}
	if n.num != "" {
		e.str(string(n.num))
	}
	if n.lit != "" {
		e.str(n.lit)
	}
	switch n.kind {
	case tMap:
		e.body = binary.AppendUvarint(e.body, uint64(len(n.entries)))
		e.entries += uint64(len(n.entries))
		for _, en := range n.entries {
			e.str(en.key)
			e.pos(en.keyPos)
			if !e.node(en.val, depth+1) {
				return false
			}
		}
	case tSeq:
		e.body = binary.AppendUvarint(e.body, uint64(len(n.items)))
		e.items += uint64(len(n.items))
		for _, it := range n.items {
			if !e.node(it, depth+1) {
				return false
			}
		}
	default:
		if len(n.entries) > 0 || len(n.items) > 0 {
			return false
		}
	}
	return true
}

// errBadTree is decodeTree's error for anything that is not an intact encoding.
var errBadTree = errors.New("registry: not an encoded tree")

// decodeTree returns the tree enc encodes (encodeTree), its positions in the file
// called name, or errBadTree when enc is not an intact encoding: truncated, of another
// format, with counts, offsets or kinds out of range, nested deeper than MaxDepth, or
// with bytes left over. It never panics. Its nodes, entries and items are allocated in
// one slice each and its strings are substrings of one copy of the string table, so
// enc may be reused afterwards.
func decodeTree(name string, enc []byte) (*tnode, error) {
	d := &treeDecoder{b: enc, file: name}
	if len(enc) < len(treeMagic) || string(enc[:len(treeMagic)]) != treeMagic {
		return nil, errBadTree
	}
	d.i = len(treeMagic)
	nodes, entries, items, tlen := d.uvarint(), d.uvarint(), d.uvarint(), d.uvarint()
	if d.bad || len(enc) > maxStoredTree || tlen > uint64(len(enc)-d.i) {
		return nil, errBadTree
	}
	d.table = string(enc[d.i : d.i+int(tlen)])
	d.i += int(tlen)
	// In what follows the table every node takes at least 4 bytes, every entry 4 more
	// and its node, every item its node: counts beyond that are corrupt, and would make
	// the slabs below huge.
	if rest := uint64(len(enc) - d.i); nodes == 0 || nodes > rest/4 || entries > rest/8 || items > nodes {
		return nil, errBadTree
	}
	d.nodes = make([]tnode, nodes)
	d.entries = make([]tentry, entries)
	d.items = make([]*tnode, items)
	root := d.node(1)
	if d.bad || d.i != len(d.b) || len(d.nodes) != 0 || len(d.entries) != 0 || len(d.items) != 0 {
		return nil, errBadTree
	}
	return root, nil
}

type treeDecoder struct {
	b       []byte
	i       int
	bad     bool
	file    string
	table   string
	line    int
	nodes   []tnode
	entries []tentry
	items   []*tnode
}

func (d *treeDecoder) uvarint() uint64 {
	if d.bad {
		return 0
	}
	v, n := binary.Uvarint(d.b[d.i:])
	if n <= 0 {
		d.bad = true
		return 0
	}
	d.i += n
	return v
}

func (d *treeDecoder) byte() byte {
	if d.bad || d.i >= len(d.b) {
		d.bad = true
		return 0
	}
	c := d.b[d.i]
	d.i++
	return c
}

func (d *treeDecoder) str() string {
	off, n := d.uvarint(), d.uvarint()
	if d.bad || off > uint64(len(d.table)) || n > uint64(len(d.table))-off {
		d.bad = true
		return ""
	}
	return d.table[off : off+n]
}

// pos reads a position; lines and columns are at least 1 and fit an int32 (a file is
// at most MaxFileSize bytes).
func (d *treeDecoder) pos() model.Pos {
	if d.bad {
		return model.Pos{}
	}
	delta, n := binary.Varint(d.b[d.i:])
	if n <= 0 {
		d.bad = true
		return model.Pos{}
	}
	d.i += n
	col := d.uvarint()
	line := int64(d.line) + delta
	if line < 1 || line > 1<<31 || col < 1 || col > 1<<31 {
		d.bad = true
		return model.Pos{}
	}
	d.line = int(line)
	return model.Pos{File: d.file, Line: int(line), Column: int(col)}
}

// node decodes the node at nesting depth depth, with its size and height.
func (d *treeDecoder) node(depth int) *tnode {
	if d.bad || len(d.nodes) == 0 || depth > MaxDepth+1 {
		d.bad = true
		return nil
	}
	t := &d.nodes[0]
	d.nodes = d.nodes[1:]
	kind, f := tkind(d.byte()), d.byte()
	if kind > tMap || f >= fLit<<1 {
		d.bad = true
		return nil
	}
	t.kind, t.b, t.bad, t.plain, t.shared = kind, f&fB != 0, f&fBad != 0, f&fPlain != 0, f&fShared != 0
	t.pos = d.pos()
	if f&fStr != 0 {
		t.str = d.str()
	}
	if f&fNum != 0 {
		t.num = json.Number(d.str())
	}
	if f&fLit != 0 {
		t.lit = d.str()
	}
	t.size, t.height = 1, 1
	switch kind {
	case tMap:
		n := d.uvarint()
		if d.bad || n > uint64(len(d.entries)) {
			d.bad = true
			return nil
		}
		t.entries = d.entries[:n:n]
		d.entries = d.entries[n:]
		for i := range t.entries {
			en := &t.entries[i]
			en.key = d.str()
			en.keyPos = d.pos()
			if en.val = d.node(depth + 1); en.val == nil {
				return nil
			}
			t.size += en.val.size + 1
			t.height = max(t.height, en.val.height+1)
		}
	case tSeq:
		n := d.uvarint()
		if d.bad || n > uint64(len(d.items)) {
			d.bad = true
			return nil
		}
		t.items = d.items[:n:n]
		d.items = d.items[n:]
		for i := range t.items {
			if t.items[i] = d.node(depth + 1); t.items[i] == nil {
				return nil
			}
			t.size += t.items[i].size
			t.height = max(t.height, t.items[i].height+1)
		}
	}
	if d.bad {
		return nil
	}
	return t
}

// lookupTree returns the tree of the file called name with content data from the
// TreeStore (WithTreeStore), or nil: no store, no entry, or one that does not decode.
func (o *options) lookupTree(name string, data []byte) *tnode {
	if o.trees == nil || len(data) > maxCachedFile {
		return nil
	}
	enc, ok := o.trees.Get(TreeKey(data))
	if !ok {
		return nil
	}
	root, err := decodeTree(name, enc)
	if err != nil {
		return nil
	}
	return root
}

// storeTree puts the encoding of root, the clean tree of a file with content data
// (parsed, no parse or format diagnostic), into the TreeStore, unless it cannot be
// encoded (encodeTree) or the file is over maxCachedFile bytes.
func (o *options) storeTree(data []byte, root *tnode) {
	if o.trees == nil || len(data) > maxCachedFile {
		return
	}
	if enc := encodeTree(root); enc != nil {
		o.trees.Put(TreeKey(data), enc)
	}
}
