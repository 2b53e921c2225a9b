// Package ordjson writes and reads JSON documents whose object keys keep their order, so
// that emitted schemas are byte-identical across runs and read in a chosen key order.
// It is the one JSON writer of the schema emitters (JSON Schema, AsyncAPI).
package ordjson

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Object is a JSON object whose keys keep the order they were set in. Keys and Values
// are parallel slices.
type Object struct {
	Keys   []string
	Values []any
}

// New returns an empty Object.
func New() *Object { return &Object{} }

// NewCap returns an empty Object with room for n keys before its slices grow.
func NewCap(n int) *Object {
	if n <= 0 {
		return New()
	}
	return &Object{Keys: make([]string, 0, n), Values: make([]any, 0, n)}
}

// Arena hands out Objects, and the room for their keys, from a few blocks instead of
// three allocations each: for trees built, written and dropped together (a JSON Schema
// of ~500 objects). An Object of an Arena keeps its block alive; one that outgrows its
// room moves to its own slices, as any slice does. Reset makes the blocks serve the
// next tree. The zero Arena is ready to use; it is not safe for concurrent use.
type Arena struct {
	objs [][]Object // blocks; objs[:oi] are full, objs[oi][:len] is in use
	keys [][]string // blocks of keys, and of as many values
	vals [][]any
	oi   int
	ki   int
}

// The blocks of an Arena: Objects, and keys (with as many values).
const (
	arenaObjects = 64
	arenaKeys    = 256
)

// New returns an empty Object with room for n keys, as NewCap does.
func (a *Arena) New(n int) *Object {
	if a.oi == len(a.objs) || len(a.objs[a.oi]) == cap(a.objs[a.oi]) {
		if a.oi < len(a.objs) {
			a.oi++
		}
		if a.oi == len(a.objs) {
			a.objs = append(a.objs, make([]Object, 0, arenaObjects))
		}
	}
	blk := a.objs[a.oi]
	a.objs[a.oi] = blk[:len(blk)+1]
	o := &blk[:len(blk)+1][len(blk)]
	if n <= 0 {
		return o
	}
	for a.ki == len(a.keys) || cap(a.keys[a.ki])-len(a.keys[a.ki]) < n {
		if a.ki < len(a.keys) {
			a.ki++
		}
		if a.ki == len(a.keys) {
			size := max(n, arenaKeys)
			a.keys, a.vals = append(a.keys, make([]string, 0, size)), append(a.vals, make([]any, 0, size))
		}
	}
	k, v := a.keys[a.ki], a.vals[a.ki]
	l := len(k)
	o.Keys, o.Values = k[l:l:l+n], v[l:l:l+n] // an append past n reallocates
	a.keys[a.ki], a.vals[a.ki] = k[:l+n], v[:l+n]
	return o
}

// Reset drops every Object a handed out, and clears its blocks for the next ones:
// nothing may use those Objects afterwards.
func (a *Arena) Reset() {
	for i, b := range a.objs {
		clear(b)
		a.objs[i] = b[:0]
	}
	for i := range a.keys {
		clear(a.keys[i])
		clear(a.vals[i])
		a.keys[i], a.vals[i] = a.keys[i][:0], a.vals[i][:0]
	}
	a.oi, a.ki = 0, 0
}

// Set adds key (or replaces its value, keeping its place) and returns o.
func (o *Object) Set(key string, v any) *Object {
	for i, k := range o.Keys {
		if k == key {
			o.Values[i] = v
			return o
		}
	}
	return o.Add(key, v)
}

// Add appends key without looking for it: the caller knows it is new. It returns o.
func (o *Object) Add(key string, v any) *Object {
	o.Keys = append(o.Keys, key)
	o.Values = append(o.Values, v)
	return o
}

// Get returns the value of key and whether it is present.
func (o *Object) Get(key string) (any, bool) {
	for i, k := range o.Keys {
		if k == key {
			return o.Values[i], true
		}
	}
	return nil, false
}

// Del removes key, if present.
func (o *Object) Del(key string) {
	for i, k := range o.Keys {
		if k == key {
			o.Keys = append(o.Keys[:i], o.Keys[i+1:]...)
			o.Values = append(o.Values[:i], o.Values[i+1:]...)
			return
		}
	}
}

// Equal reports whether two values built of *Object, []any and scalars are the same,
// key order included.
func Equal(a, b any) bool {
	switch a := a.(type) {
	case *Object:
		b, ok := b.(*Object)
		if !ok || len(a.Keys) != len(b.Keys) {
			return false
		}
		for i, k := range a.Keys {
			if b.Keys[i] != k || !Equal(a.Values[i], b.Values[i]) {
				return false
			}
		}
		return true
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !Equal(a[i], b[i]) {
				return false
			}
		}
		return true
	default:
		return a == b // string, json.Number, bool, nil
	}
}

// Decode reads one JSON value, keeping object key order (objects become *Object);
// numbers stay json.Number so that bounds such as 9223372036854775807 keep their exact
// text. It returns an error for invalid JSON or trailing data.
func Decode(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	v, err := decodeValue(d)
	if err != nil {
		return nil, err
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, fmt.Errorf("trailing data after the JSON value")
	}
	return v, nil
}

func decodeValue(d *json.Decoder) (any, error) {
	tok, err := d.Token()
	if err != nil {
		return nil, err
	}
	delim, ok := tok.(json.Delim)
	if !ok {
		return tok, nil // string, json.Number, bool, nil
	}
	switch delim {
	case '{':
		o := New()
		for d.More() {
			kt, err := d.Token()
			if err != nil {
				return nil, err
			}
			k, _ := kt.(string)
			v, err := decodeValue(d)
			if err != nil {
				return nil, err
			}
			o.Set(k, v)
		}
		if _, err := d.Token(); err != nil {
			return nil, err
		}
		return o, nil
	case '[':
		arr := []any{}
		for d.More() {
			v, err := decodeValue(d)
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
		}
		if _, err := d.Token(); err != nil {
			return nil, err
		}
		return arr, nil
	}
	return nil, fmt.Errorf("unexpected %v", delim)
}

// Marshal writes v as 2-space indented JSON without HTML escaping, with a trailing
// newline. Values are *Object, map[string]any (written with sorted keys), []any,
// []string, string, Raw, bool, nil, int, int64, json.Number and finite float64;
// anything else, and NaN or ±Inf, is an error. The result has its own memory (of
// exactly its length); the text is built in a pooled buffer.
func Marshal(v any) ([]byte, error) {
	return marshal(v, true)
}

// Append appends v to b as Marshal writes it (with the trailing newline) and returns
// the extended buffer: Marshal without the copy, for a caller that reuses its buffers.
// On an error b is returned as it was, with the error.
func Append(b []byte, v any) ([]byte, error) {
	out, err := appendValue(b, v, 0)
	if err != nil {
		return b, err
	}
	return append(out, '\n'), nil
}

// MarshalRaw is Marshal without the trailing newline, as a Raw to splice into other
// documents.
func MarshalRaw(v any) (Raw, error) {
	b, err := marshal(v, false)
	return Raw(b), err
}

func marshal(v any, nl bool) ([]byte, error) {
	bp := bufPool.Get().(*[]byte)
	b, err := appendValue((*bp)[:0], v, 0)
	if err != nil {
		bufPool.Put(bp)
		return nil, err
	}
	n := len(b)
	if nl {
		n++
	}
	out := make([]byte, n)
	copy(out, b)
	if nl {
		out[n-1] = '\n'
	}
	if cap(b) <= maxPooled {
		*bp = b
		bufPool.Put(bp)
	}
	return out, nil
}

// Raw is a JSON value already written as Marshal writes it at the top level (2-space
// indented, without the trailing newline), e.g. by MarshalRaw: Marshal splices it in,
// indented to the level it stands at, instead of walking a tree again. A document
// shared by many files (a named type's schema, the envelope's fixed blocks) is built
// and written once this way. Marshal does not check the text.
type Raw string

// bufPool holds the buffers Marshal builds its text in: the schemas of a registry
// are written one after the other on a few workers, so a buffer grown to a schema's
// size serves the next ones without growing again.
var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, marshalStart); return &b }}

// marshalStart is the buffer a new pooled buffer starts with: a JSON Schema of a
// message of 20 fields takes about 10 to 15 KB. maxPooled is the largest buffer put
// back, so that one huge document does not stay in the pool.
const (
	marshalStart = 16 << 10
	maxPooled    = 4 << 20
)

// indent is the indentation of 32 levels; deeper levels are written in pieces.
const indent = "                                                                "

func newline(b []byte, depth int) []byte {
	b = append(b, '\n')
	for n := 2 * depth; n > 0; {
		k := min(n, len(indent))
		b = append(b, indent[:k]...)
		n -= k
	}
	return b
}

// appendRaw appends r indented by depth levels: every newline of r is followed by
// the indentation of depth (a newline in JSON text is only ever between tokens).
func appendRaw(b []byte, r Raw, depth int) []byte {
	if depth == 0 {
		return append(b, r...)
	}
	s := string(r)
	for {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			return append(b, s...)
		}
		b = append(b, s[:i]...)
		b = newline(b, depth)
		s = s[i+1:]
	}
}

func appendValue(b []byte, v any, depth int) ([]byte, error) {
	switch v := v.(type) { // the most frequent first
	case *Object:
		if len(v.Keys) == 0 {
			return append(b, "{}"...), nil
		}
		b = append(b, '{')
		for i, k := range v.Keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = newline(b, depth+1)
			b = appendString(b, k)
			b = append(b, ": "...)
			var err error
			if b, err = appendValue(b, v.Values[i], depth+1); err != nil {
				return b, err
			}
		}
		b = newline(b, depth)
		b = append(b, '}')
	case string:
		b = appendString(b, v)
	case Raw:
		b = appendRaw(b, v, depth)
	case nil:
		b = append(b, "null"...)
	case bool:
		b = strconv.AppendBool(b, v)
	case int:
		b = strconv.AppendInt(b, int64(v), 10)
	case int64:
		b = strconv.AppendInt(b, v, 10)
	case json.Number:
		b = append(b, v...)
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return b, fmt.Errorf("non-finite number %v", v)
		}
		enc, err := json.Marshal(v)
		if err != nil {
			return b, err
		}
		b = append(b, enc...)
	case []string:
		return appendArray(b, v, depth, func(b []byte, e string, _ int) ([]byte, error) { return appendString(b, e), nil })
	case []any:
		return appendArray(b, v, depth, appendValue)
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		vals := make([]any, len(keys))
		for i, k := range keys {
			vals[i] = v[k]
		}
		return appendValue(b, &Object{Keys: keys, Values: vals}, depth)
	default:
		return b, fmt.Errorf("cannot encode %T as JSON", v)
	}
	return b, nil
}

// appendArray appends v, its elements written by elem at depth+1.
func appendArray[E any](b []byte, v []E, depth int, elem func([]byte, E, int) ([]byte, error)) ([]byte, error) {
	if len(v) == 0 {
		return append(b, "[]"...), nil
	}
	b = append(b, '[')
	for i, e := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = newline(b, depth+1)
		var err error
		if b, err = elem(b, e, depth+1); err != nil {
			return b, err
		}
	}
	b = newline(b, depth)
	return append(b, ']'), nil
}

// appendString appends s as a JSON string without HTML escaping, as encoding/json
// writes it (`"`, `\\`, \b, \f, \n, \r, \t escaped by name, the other control
// characters as \u00XX, invalid UTF-8 as \ufffd), except that invisible non-ASCII
// characters (white space, separators, format and control characters) are written as
// \u escapes (four hex digits) so that a reader of the file sees them.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	if plainASCII(s) {
		// Most strings of a schema: keys, types, formats, patterns.
		b = append(b, s...)
		return append(b, '"')
	}
	start := 0 // s[start:i] is still to be copied as it is
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = appendEscape(b, rune(c))
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case unicode.IsSpace(r) || unicode.In(r, unicode.Cc, unicode.Cf, unicode.Z):
			b = append(b, s[start:i]...)
			for _, u := range utf16.Encode([]rune{r}) {
				b = appendEscape(b, rune(u))
			}
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// appendEscape appends \u and the four lowercase hex digits of u (below 0x10000).
func appendEscape(b []byte, u rune) []byte {
	const hex = "0123456789abcdef"
	return append(b, '\\', 'u', hex[u>>12&0xf], hex[u>>8&0xf], hex[u>>4&0xf], hex[u&0xf])
}

// plainASCII reports whether s holds only ASCII from 0x20 on other than `"` and `\`:
// the bytes encoding/json (HTML escaping off) writes unchanged.
func plainASCII(s string) bool {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		// Eight bytes at a time: no byte ≥ 0x80 or < 0x20, none equal to '"' or '\\'
		// (a byte is zero in x^c·lo exactly where it equals c), then 0x7f (DEL,
		// which encoding/json writes unchanged too) needs no test.
		const lo, hi = 0x0101010101010101, 0x8080808080808080
		x := binary.LittleEndian.Uint64([]byte(s[i : i+8]))
		if x&hi != 0 || (x-0x20*lo)&hi != 0 {
			return false
		}
		if q := x ^ '"'*lo; (q-lo)&^q&hi != 0 {
			return false
		}
		if q := x ^ '\\'*lo; (q-lo)&^q&hi != 0 {
			return false
		}
	}
	for ; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x80 || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// Size returns the number of bytes and of newlines Marshal writes for v at the top
// level, without the trailing newline; 0, 0 for a value Marshal refuses. Written at
// indentation level k instead, v takes bytes + 2·k·newlines bytes.
func Size(v any) (bytes, newlines int) {
	if s, ok := v.(string); ok && plainASCII(s) {
		return len(s) + 2, 0
	}
	b, err := Marshal(v)
	if err != nil {
		return 0, 0
	}
	b = b[:len(b)-1]
	nl := 0
	for _, c := range b {
		if c == '\n' {
			nl++
		}
	}
	return len(b), nl
}
