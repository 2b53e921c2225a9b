package asyncapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf16"
)

// object is a JSON object whose keys keep their order, so that the emitted bytes do not
// depend on map iteration and the schemas read as the JSON Schema emitter wrote them.
type object struct {
	keys []string
	vals []any
}

func newObject() *object { return &object{} }

// set adds key (or replaces its value, keeping its place) and returns o.
func (o *object) set(key string, v any) *object {
	for i, k := range o.keys {
		if k == key {
			o.vals[i] = v
			return o
		}
	}
	o.keys = append(o.keys, key)
	o.vals = append(o.vals, v)
	return o
}

// add appends key without looking for it: the caller knows it is new.
func (o *object) add(key string, v any) *object {
	o.keys = append(o.keys, key)
	o.vals = append(o.vals, v)
	return o
}

func (o *object) get(key string) (any, bool) {
	for i, k := range o.keys {
		if k == key {
			return o.vals[i], true
		}
	}
	return nil, false
}

func (o *object) del(key string) {
	for i, k := range o.keys {
		if k == key {
			o.keys = append(o.keys[:i], o.keys[i+1:]...)
			o.vals = append(o.vals[:i], o.vals[i+1:]...)
			return
		}
	}
}

// equal reports whether two decoded JSON values are the same, key order included.
func equal(a, b any) bool {
	switch a := a.(type) {
	case *object:
		b, ok := b.(*object)
		if !ok || len(a.keys) != len(b.keys) {
			return false
		}
		for i, k := range a.keys {
			if b.keys[i] != k || !equal(a.vals[i], b.vals[i]) {
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
			if !equal(a[i], b[i]) {
				return false
			}
		}
		return true
	default:
		return a == b // string, json.Number, bool, nil
	}
}

// decode reads one JSON value keeping object key order; numbers stay json.Number so
// that int64 bounds such as 9223372036854775807 keep their exact text.
func decode(b []byte) (any, error) {
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
	switch tok := tok.(type) {
	case json.Delim:
		switch tok {
		case '{':
			o := newObject()
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
				o.set(k, v)
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
		return nil, fmt.Errorf("unexpected %v", tok)
	default:
		return tok, nil // string, json.Number, bool, nil
	}
}

// marshal writes v as 2-space indented JSON without HTML escaping, with a trailing
// newline (the layout of the JSON Schema emitter's files).
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	if err := write(&b, v, 0); err != nil {
		return nil, err
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}

func newline(b *bytes.Buffer, depth int) {
	b.WriteByte('\n')
	for i := 0; i < depth; i++ {
		b.WriteString("  ")
	}
}

func write(b *bytes.Buffer, v any, depth int) error {
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		if v {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case json.Number:
		b.WriteString(v.String())
	case int:
		fmt.Fprintf(b, "%d", v)
	case string:
		writeString(b, v)
	case []any:
		if len(v) == 0 {
			b.WriteString("[]")
			return nil
		}
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			newline(b, depth+1)
			if err := write(b, e, depth+1); err != nil {
				return err
			}
		}
		newline(b, depth)
		b.WriteByte(']')
	case *object:
		if len(v.keys) == 0 {
			b.WriteString("{}")
			return nil
		}
		b.WriteByte('{')
		for i, k := range v.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			newline(b, depth+1)
			writeString(b, k)
			b.WriteString(": ")
			if err := write(b, v.vals[i], depth+1); err != nil {
				return err
			}
		}
		newline(b, depth)
		b.WriteByte('}')
	default:
		return fmt.Errorf("cannot encode %T as JSON", v)
	}
	return nil
}

// writeString writes s as a JSON string without HTML escaping; invisible non-ASCII
// characters (white space, separators, format and control characters) are written as
// \uXXXX escapes so that a reader of the file sees them.
func writeString(b *bytes.Buffer, s string) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(s) // a string always encodes
	for _, r := range strings.TrimSuffix(buf.String(), "\n") {
		if r >= 0x80 && (unicode.IsSpace(r) || unicode.In(r, unicode.Cc, unicode.Cf, unicode.Z)) {
			for _, u := range utf16.Encode([]rune{r}) {
				fmt.Fprintf(b, "\\u%04x", u)
			}
			continue
		}
		b.WriteRune(r)
	}
}
