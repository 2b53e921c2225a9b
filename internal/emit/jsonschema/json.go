package jsonschema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
)

// obj is a JSON object whose keys keep the order they were set in, so that emitted
// bytes do not depend on map iteration.
type obj struct {
	keys []string
	vals []any
}

func newObj() *obj { return &obj{} }

// set adds key (or replaces its value, keeping its place) and returns o.
func (o *obj) set(key string, v any) *obj {
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

func (o *obj) get(key string) (any, bool) {
	for i, k := range o.keys {
		if k == key {
			return o.vals[i], true
		}
	}
	return nil, false
}

// marshal writes v as 2-space indented JSON without HTML escaping, with a trailing
// newline. Values are *obj, []any, []string, string, bool, nil, int, int64 and finite
// float64.
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
		b.WriteString(strconv.FormatBool(v))
	case int:
		b.WriteString(strconv.Itoa(v))
	case int64:
		b.WriteString(strconv.FormatInt(v, 10))
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
		// Example values from the model: sort keys for determinism.
		o := newObj()
		for _, k := range sortedKeys(v) {
			o.set(k, v[k])
		}
		return write(b, o, depth)
	case *obj:
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

// writeString writes s as a JSON string without HTML escaping. Invisible non-ASCII
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
