package importer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
)

// jkind is the JSON type of a value.
type jkind int

const (
	jNull jkind = iota
	jBool
	jNumber
	jString
	jObject
	jArray
)

func (k jkind) String() string {
	return [...]string{"null", "boolean", "number", "string", "object", "array"}[k]
}

// jval is a parsed JSON value that keeps the order of object keys and the position of
// every value, so the converter can preserve property order and report line:col.
type jval struct {
	kind  jkind
	str   string // jString: the string; jNumber: the number's text as written
	b     bool
	keys  []string // jObject, in source order
	vals  []*jval
	elems []*jval // jArray
	line  int
	col   int
}

// get returns the value of key in an object, or nil.
func (v *jval) get(key string) *jval {
	if v == nil || v.kind != jObject {
		return nil
	}
	for i, k := range v.keys {
		if k == key {
			return v.vals[i]
		}
	}
	return nil
}

// canonical is a position-free text of v, used to compare definitions from two files.
func (v *jval) canonical() string {
	var b strings.Builder
	v.writeCanonical(&b)
	return b.String()
}

func (v *jval) writeCanonical(b *strings.Builder) {
	switch v.kind {
	case jNull:
		b.WriteString("null")
	case jBool:
		fmt.Fprint(b, v.b)
	case jNumber:
		b.WriteString(v.str)
	case jString:
		q, _ := json.Marshal(v.str)
		b.Write(q)
	case jArray:
		b.WriteByte('[')
		for i, e := range v.elems {
			if i > 0 {
				b.WriteByte(',')
			}
			e.writeCanonical(b)
		}
		b.WriteByte(']')
	case jObject:
		idx := make([]int, len(v.keys))
		for i := range idx {
			idx[i] = i
		}
		sort.Slice(idx, func(i, j int) bool { return v.keys[idx[i]] < v.keys[idx[j]] })
		b.WriteByte('{')
		for n, i := range idx {
			if n > 0 {
				b.WriteByte(',')
			}
			q, _ := json.Marshal(v.keys[i])
			b.Write(q)
			b.WriteByte(':')
			v.vals[i].writeCanonical(b)
		}
		b.WriteByte('}')
	}
}

// maxJSONDepth bounds nesting, as the generated decoder does.
const maxJSONDepth = 128

// jsonError is a syntax error at a position.
type jsonError struct {
	line, col int
	msg       string
}

func (e *jsonError) Error() string { return fmt.Sprintf("%d:%d: %s", e.line, e.col, e.msg) }

// parseJSON parses one JSON document, keeping key order and positions. Duplicate keys
// and trailing data are errors.
func parseJSON(data []byte) (*jval, error) {
	p := &jparser{data: data, dec: json.NewDecoder(bytes.NewReader(data))}
	p.dec.UseNumber()
	for i, c := range data {
		if c == '\n' {
			p.lines = append(p.lines, i+1)
		}
	}
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	if _, err := p.dec.Token(); err != io.EOF {
		line, col := p.pos(p.next())
		return nil, &jsonError{line, col, "unexpected data after the JSON value"}
	}
	return v, nil
}

type jparser struct {
	data  []byte
	dec   *json.Decoder
	lines []int // offsets at which lines 2, 3, … start
}

// next is the offset of the next token: past white space, ':' and ','.
func (p *jparser) next() int {
	off := int(p.dec.InputOffset())
	for off < len(p.data) {
		switch p.data[off] {
		case ' ', '\t', '\r', '\n', ':', ',':
			off++
			continue
		}
		break
	}
	return off
}

func (p *jparser) pos(off int) (int, int) {
	i := sort.Search(len(p.lines), func(i int) bool { return p.lines[i] > off })
	start := 0
	if i > 0 {
		start = p.lines[i-1]
	}
	return i + 1, off - start + 1
}

func (p *jparser) fail(off int, err error) error {
	line, col := p.pos(off)
	msg := err.Error()
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line, col = p.pos(int(se.Offset))
		msg = se.Error()
	} else if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		msg = "unexpected end of JSON input"
	}
	return &jsonError{line, col, msg}
}

func (p *jparser) value(depth int) (*jval, error) {
	off := p.next()
	tok, err := p.dec.Token()
	if err != nil {
		return nil, p.fail(off, err)
	}
	line, col := p.pos(off)
	v := &jval{line: line, col: col}
	switch t := tok.(type) {
	case nil:
		v.kind = jNull
	case bool:
		v.kind, v.b = jBool, t
	case json.Number:
		v.kind, v.str = jNumber, string(t)
	case string:
		v.kind, v.str = jString, t
	case json.Delim:
		if depth >= maxJSONDepth {
			return nil, &jsonError{line, col, fmt.Sprintf("nesting deeper than %d", maxJSONDepth)}
		}
		switch t {
		case '{':
			v.kind = jObject
			seen := map[string]bool{}
			for p.dec.More() {
				koff := p.next()
				kt, err := p.dec.Token()
				if err != nil {
					return nil, p.fail(koff, err)
				}
				k, ok := kt.(string)
				if !ok {
					return nil, p.fail(koff, fmt.Errorf("object key is not a string"))
				}
				if seen[k] {
					kl, kc := p.pos(koff)
					return nil, &jsonError{kl, kc, fmt.Sprintf("duplicate key %q", k)}
				}
				seen[k] = true
				val, err := p.value(depth + 1)
				if err != nil {
					return nil, err
				}
				v.keys = append(v.keys, k)
				v.vals = append(v.vals, val)
			}
		case '[':
			v.kind = jArray
			for p.dec.More() {
				e, err := p.value(depth + 1)
				if err != nil {
					return nil, err
				}
				v.elems = append(v.elems, e)
			}
		default:
			return nil, p.fail(off, fmt.Errorf("unexpected %q", t))
		}
		end := p.next()
		if _, err := p.dec.Token(); err != nil {
			return nil, p.fail(end, err)
		}
	}
	return v, nil
}
