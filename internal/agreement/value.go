package agreement

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"sync"
)

// A value is a JSON value under construction: nil, bool, string, Raw, []value or Obj.
// Numbers are always Raw so that their literal text (1.0, 1e2, -0, 2^63) reaches every
// validator exactly as written.
type value = any

// Raw is JSON text written as is: a number literal, or a string with escapes.
type Raw string

// Obj is a JSON object with its members in order.
type Obj []Member

// Member is one key of an Obj.
type Member struct {
	Key string
	Val value
}

// step is one element of a path: an object key or an array index.
type step struct {
	key   string
	index int // -1 for a key
}

type path []step

func (p path) key(k string) path {
	return append(append(path(nil), p...), step{key: k, index: -1})
}

func (p path) index(i int) path {
	return append(append(path(nil), p...), step{index: i})
}

// String renders p like the generated decoder's error paths: $.a.b[0]["x y"].
func (p path) String() string {
	var b strings.Builder
	b.WriteString("$")
	for _, s := range p {
		switch {
		case s.index >= 0:
			fmt.Fprintf(&b, "[%d]", s.index)
		case isIdent(s.key):
			b.WriteString("." + s.key)
		default:
			b.WriteString("[" + strconv.Quote(s.key) + "]")
		}
	}
	return b.String()
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// encode writes v as compact JSON (no HTML escaping, non-ASCII kept as UTF-8).
func encode(v value) []byte {
	var b bytes.Buffer
	encodeTo(&b, v)
	return b.Bytes()
}

func encodeTo(b *bytes.Buffer, v value) {
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case Raw:
		b.WriteString(string(v))
	case string:
		quoteTo(b, v)
	case []value:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			encodeTo(b, e)
		}
		b.WriteByte(']')
	case Obj:
		b.WriteByte('{')
		for i, m := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			quoteTo(b, m.Key)
			b.WriteByte(':')
			encodeTo(b, m.Val)
		}
		b.WriteByte('}')
	default:
		panic(fmt.Sprintf("agreement: cannot encode %T", v))
	}
}

// quote returns s as a JSON string, as encoding/json writes it without HTML escaping.
func quote(s string) []byte {
	var b bytes.Buffer
	quoteTo(&b, s)
	return b.Bytes()
}

// quoteTo appends s to b as a JSON string, byte for byte as encoding/json's Encoder
// with SetEscapeHTML(false) writes it. A string of printable ASCII other than '"' and
// '\\' (most keys and values of the corpus) is written as it is; any other goes
// through the Encoder. (The corpus writes millions of strings: the Encoder's
// allocations were a fifth of internal/sdksubset's corpus time.)
func quoteTo(b *bytes.Buffer, s string) {
	if plainASCII(s) {
		b.Grow(len(s) + 2)
		b.WriteByte('"')
		b.WriteString(s)
		b.WriteByte('"')
		return
	}
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		panic(err)
	}
	b.Truncate(b.Len() - 1) // Encode's newline
}

// plainASCII reports whether every byte of s is printable ASCII (0x20 to 0x7e) other
// than '"' and '\\': the bytes encoding/json writes unescaped without HTML escaping.
func plainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// replace returns a copy of root with the value at p replaced by v, or removed when del
// is true. The containers along p must exist (an absent last key is added).
func replace(root value, p path, v value, del bool) value {
	if len(p) == 0 {
		if del {
			panic("agreement: cannot delete the root")
		}
		return v
	}
	s := p[0]
	switch c := root.(type) {
	case Obj:
		out := make(Obj, 0, len(c)+1)
		found := false
		for _, m := range c {
			if m.Key == s.key && s.index < 0 {
				found = true
				if len(p) == 1 && del {
					continue
				}
				m = Member{m.Key, replace(m.Val, p[1:], v, del)}
			}
			out = append(out, m)
		}
		if !found {
			if len(p) != 1 {
				panic("agreement: no " + s.key + " on the path")
			}
			if !del {
				out = append(out, Member{s.key, v})
			}
		}
		return out
	case []value:
		if s.index < 0 || s.index >= len(c) {
			panic("agreement: bad index on the path")
		}
		out := append([]value(nil), c...)
		if len(p) == 1 && del {
			return append(out[:s.index], out[s.index+1:]...)
		}
		out[s.index] = replace(c[s.index], p[1:], v, del)
		return out
	}
	panic(fmt.Sprintf("agreement: path step %v into %T", s, root))
}

// lookup returns the value at p in root.
func lookup(root value, p path) value {
	for _, s := range p {
		switch c := root.(type) {
		case Obj:
			var next value
			for _, m := range c {
				if m.Key == s.key {
					next = m.Val
				}
			}
			root = next
		case []value:
			root = c[s.index]
		default:
			return nil
		}
	}
	return root
}

// ratOf parses a JSON number literal exactly and returns a value the caller owns.
// Parses are memoized (rats): the corpus spells the same few hundred literals for
// every number field, and one of them, 1e999999, costs a million-digit power of ten
// each time it is parsed (about a quarter of the corpus's CPU time before the memo).
func ratOf(lit string) (*big.Rat, bool) {
	if r, ok := rats.Load(lit); ok {
		if r == nil {
			return nil, false
		}
		return new(big.Rat).Set(r.(*big.Rat)), true
	}
	r, ok := new(big.Rat).SetString(lit)
	if !ok {
		rats.Store(lit, nil)
		return nil, false
	}
	rats.Store(lit, new(big.Rat).Set(r))
	return r, true
}

// rats memoizes ratOf: literal → its exact value (never handed out), or nil when the
// literal is no number.
var rats sync.Map

// AjvDomain reports whether every number literal in the JSON text b is in the domain
// where ajv must agree with the Go decoder and jsonschema/v6 (docs/decisions.md#agreement-domain): exactly
// representable as an IEEE-754 double and at most 2^53 in magnitude. ajv parses
// instance and schema numbers into doubles, so beyond that it rounds the instance (a
// literal that is no double) or the schema's bounds (int64's 2^63−1 reads as 2^63).
// Each literal is parsed exactly (big.Rat, cross-checked with big.Float).
func AjvDomain(b []byte) bool {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	for {
		tok, err := d.Token()
		if err != nil {
			return true // io.EOF: the corpus holds only well-formed JSON
		}
		n, ok := tok.(json.Number)
		if !ok {
			continue
		}
		if !exactDouble(string(n)) {
			return false
		}
		if r, _ := ratOf(string(n)); new(big.Rat).Abs(r).Cmp(new(big.Rat).SetInt(two53)) > 0 {
			return false
		}
	}
}

// exactDouble reports whether the number literal lit is exactly an IEEE-754 double.
func exactDouble(lit string) bool {
	r, ok := ratOf(lit)
	if !ok {
		return false
	}
	f, exact := r.Float64()
	if !exact {
		return false
	}
	// Cross-check with big.Float: the double's value must equal the literal.
	bf, _, err := big.ParseFloat(lit, 10, 4096, big.ToNearestEven)
	if err != nil {
		return false
	}
	return bf.Cmp(new(big.Float).SetFloat64(f)) == 0
}
