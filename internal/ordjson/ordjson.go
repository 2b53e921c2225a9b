// Package ordjson writes and reads JSON documents whose object keys keep their order, so
// that emitted schemas are byte-identical across runs and read in a chosen key order.
// It is the one JSON writer of the schema emitters (JSON Schema, AsyncAPI).
package ordjson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
)

// Object is a JSON object whose keys keep the order they were set in. Keys and Values
// are parallel slices.
type Object struct {
	Keys   []string
	Values []any
}

// New returns an empty Object.
func New() *Object { return &Object{} }

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
// []string, string, bool, nil, int, int64, json.Number and finite float64; anything
// else, and NaN or ±Inf, is an error.
func Marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	b.Grow(marshalStart)
	if err := write(&b, v, 0); err != nil {
		return nil, err
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}

// marshalStart is the buffer Marshal starts with: a JSON Schema of a message of 20
// fields takes about 10 KB, reached in two doublings instead of eight; no more, as
// the result keeps the buffer's capacity.
const marshalStart = 4 << 10

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
		b.WriteString(strconv.FormatBool(v))
	case int:
		b.WriteString(strconv.Itoa(v))
	case int64:
		b.WriteString(strconv.FormatInt(v, 10))
	case json.Number:
		b.WriteString(v.String())
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("non-finite number %v", v)
		}
		enc, err := json.Marshal(v)
		if err != nil {
			return err
		}
		b.Write(enc)
	case string:
		writeString(b, v)
	case []string:
		arr := make([]any, len(v))
		for i, s := range v {
			arr[i] = s
		}
		return write(b, arr, depth)
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
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		o := New()
		for _, k := range keys {
			o.Add(k, v[k])
		}
		return write(b, o, depth)
	case *Object:
		if len(v.Keys) == 0 {
			b.WriteString("{}")
			return nil
		}
		b.WriteByte('{')
		for i, k := range v.Keys {
			if i > 0 {
				b.WriteByte(',')
			}
			newline(b, depth+1)
			writeString(b, k)
			b.WriteString(": ")
			if err := write(b, v.Values[i], depth+1); err != nil {
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

// writeString writes s as a JSON string without HTML escaping. Invisible non-ASCII
// characters (white space, separators, format and control characters) are written as
// \u escapes (four hex digits) so that a reader of the file sees them.
func writeString(b *bytes.Buffer, s string) {
	if plainASCII(s) {
		// What encoding/json writes for it, without an encoder per string (most
		// strings of a schema: keys, types, formats, patterns).
		b.WriteByte('"')
		b.WriteString(s)
		b.WriteByte('"')
		return
	}
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

// plainASCII reports whether s holds only printable ASCII other than `"` and `\`:
// the bytes encoding/json (HTML escaping off) writes unchanged.
func plainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
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
