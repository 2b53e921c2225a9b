package validate

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// maxDepth is the deepest nesting accepted, as in the generated decoder.
const maxDepth = 128

// syntaxError is a malformed body: where and why.
type syntaxError struct {
	Line, Column int
	Msg          string
}

func (e *syntaxError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Msg)
}

// parse reads one JSON value as strictly as the generated Go decoder does (BRIEF §8):
// invalid UTF-8, unpaired surrogate escapes, duplicate object keys, numbers that
// overflow a double, control characters in strings, nesting deeper than 128 and
// trailing data are errors. Numbers are json.Number, objects map[string]any, arrays
// []any, as santhosh-tekuri/jsonschema expects.
func parse(b []byte) (any, error) {
	p := &parser{b: b}
	p.space()
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i < len(p.b) {
		return nil, p.errf("unexpected %s after the top-level value", p.describe())
	}
	return v, nil
}

type parser struct {
	b []byte
	i int
}

func (p *parser) errAt(off int, format string, args ...any) error {
	line, col := 1, 1
	for j := 0; j < off && j < len(p.b); j++ {
		if p.b[j] == '\n' {
			line, col = line+1, 1
		} else if p.b[j] < 0x80 || p.b[j] >= 0xC0 {
			col++
		}
	}
	return &syntaxError{Line: line, Column: col, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) errf(format string, args ...any) error { return p.errAt(p.i, format, args...) }

func (p *parser) describe() string {
	if p.i >= len(p.b) {
		return "end of input"
	}
	r, _ := utf8.DecodeRune(p.b[p.i:])
	return strconv.QuoteRune(r)
}

func (p *parser) space() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *parser) value(depth int) (any, error) {
	if p.i >= len(p.b) {
		return nil, p.errf("unexpected end of input, expected a value")
	}
	switch c := p.b[p.i]; {
	case c == '{':
		return p.object(depth + 1)
	case c == '[':
		return p.array(depth + 1)
	case c == '"':
		return p.string()
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	}
	for _, lit := range []struct {
		word string
		v    any
	}{{"true", true}, {"false", false}, {"null", nil}} {
		if len(p.b)-p.i >= len(lit.word) && string(p.b[p.i:p.i+len(lit.word)]) == lit.word {
			p.i += len(lit.word)
			return lit.v, nil
		}
	}
	return nil, p.errf("unexpected %s, expected a value", p.describe())
}

func (p *parser) object(depth int) (any, error) {
	if depth > maxDepth {
		return nil, p.errf("nesting deeper than %d", maxDepth)
	}
	p.i++
	obj := map[string]any{}
	p.space()
	if p.i < len(p.b) && p.b[p.i] == '}' {
		p.i++
		return obj, nil
	}
	for {
		if p.i >= len(p.b) || p.b[p.i] != '"' {
			return nil, p.errf("unexpected %s, expected a string key", p.describe())
		}
		at := p.i
		key, err := p.string()
		if err != nil {
			return nil, err
		}
		if _, dup := obj[key]; dup {
			return nil, p.errAt(at, "duplicate object key %q", key)
		}
		p.space()
		if p.i >= len(p.b) || p.b[p.i] != ':' {
			return nil, p.errf("unexpected %s, expected ':'", p.describe())
		}
		p.i++
		p.space()
		v, err := p.value(depth)
		if err != nil {
			return nil, err
		}
		obj[key] = v
		p.space()
		if p.i >= len(p.b) {
			return nil, p.errf("unexpected end of input, expected ',' or '}'")
		}
		switch p.b[p.i] {
		case ',':
			p.i++
			p.space()
		case '}':
			p.i++
			return obj, nil
		default:
			return nil, p.errf("unexpected %s, expected ',' or '}'", p.describe())
		}
	}
}

func (p *parser) array(depth int) (any, error) {
	if depth > maxDepth {
		return nil, p.errf("nesting deeper than %d", maxDepth)
	}
	p.i++
	arr := []any{}
	p.space()
	if p.i < len(p.b) && p.b[p.i] == ']' {
		p.i++
		return arr, nil
	}
	for {
		v, err := p.value(depth)
		if err != nil {
			return nil, err
		}
		arr = append(arr, v)
		p.space()
		if p.i >= len(p.b) {
			return nil, p.errf("unexpected end of input, expected ',' or ']'")
		}
		switch p.b[p.i] {
		case ',':
			p.i++
			p.space()
		case ']':
			p.i++
			return arr, nil
		default:
			return nil, p.errf("unexpected %s, expected ',' or ']'", p.describe())
		}
	}
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func (p *parser) number() (any, error) {
	start := p.i
	if p.b[p.i] == '-' {
		p.i++
	}
	switch {
	case p.i < len(p.b) && p.b[p.i] == '0':
		p.i++
	case p.i < len(p.b) && p.b[p.i] >= '1' && p.b[p.i] <= '9':
		for p.i < len(p.b) && isDigit(p.b[p.i]) {
			p.i++
		}
	default:
		return nil, p.errf("unexpected %s in number, expected a digit", p.describe())
	}
	if p.i < len(p.b) && p.b[p.i] == '.' {
		p.i++
		if p.i >= len(p.b) || !isDigit(p.b[p.i]) {
			return nil, p.errf("unexpected %s after decimal point, expected a digit", p.describe())
		}
		for p.i < len(p.b) && isDigit(p.b[p.i]) {
			p.i++
		}
	}
	if p.i < len(p.b) && (p.b[p.i] == 'e' || p.b[p.i] == 'E') {
		p.i++
		if p.i < len(p.b) && (p.b[p.i] == '+' || p.b[p.i] == '-') {
			p.i++
		}
		if p.i >= len(p.b) || !isDigit(p.b[p.i]) {
			return nil, p.errf("unexpected %s in exponent, expected a digit", p.describe())
		}
		for p.i < len(p.b) && isDigit(p.b[p.i]) {
			p.i++
		}
	}
	lit := string(p.b[start:p.i])
	if _, err := strconv.ParseFloat(lit, 64); err != nil {
		return nil, p.errAt(start, "number %s overflows a double (non-finite numbers are not allowed)", abbreviate(lit))
	}
	return json.Number(lit), nil
}

func abbreviate(s string) string {
	if len(s) > 40 {
		return s[:37] + "..."
	}
	return s
}

func hexVal(c byte) rune {
	switch {
	case c >= '0' && c <= '9':
		return rune(c - '0')
	case c >= 'a' && c <= 'f':
		return rune(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return rune(c-'A') + 10
	}
	return -1
}

// hex4 reads the four hex digits after \u at p.i.
func (p *parser) hex4() (rune, error) {
	if len(p.b)-p.i < 4 {
		return 0, p.errf("truncated \\u escape")
	}
	var r rune
	for k := 0; k < 4; k++ {
		h := hexVal(p.b[p.i+k])
		if h < 0 {
			return 0, p.errAt(p.i+k, "invalid hex digit in \\u escape")
		}
		r = r<<4 | h
	}
	p.i += 4
	return r, nil
}

func (p *parser) string() (string, error) {
	p.i++ // opening quote
	var buf []byte
	for {
		if p.i >= len(p.b) {
			return "", p.errf("unterminated string")
		}
		c := p.b[p.i]
		switch {
		case c == '"':
			p.i++
			return string(buf), nil
		case c < 0x20:
			return "", p.errf("unescaped control character 0x%02x in string", c)
		case c == '\\':
			at := p.i
			p.i++
			if p.i >= len(p.b) {
				return "", p.errf("unterminated escape")
			}
			e := p.b[p.i]
			p.i++
			switch e {
			case '"', '\\', '/':
				buf = append(buf, e)
			case 'b':
				buf = append(buf, '\b')
			case 'f':
				buf = append(buf, '\f')
			case 'n':
				buf = append(buf, '\n')
			case 'r':
				buf = append(buf, '\r')
			case 't':
				buf = append(buf, '\t')
			case 'u':
				r, err := p.hex4()
				if err != nil {
					return "", err
				}
				if utf16.IsSurrogate(r) {
					if r >= 0xDC00 || len(p.b)-p.i < 6 || p.b[p.i] != '\\' || p.b[p.i+1] != 'u' {
						return "", p.errAt(at, "unpaired surrogate escape \\u%04x", r)
					}
					p.i += 2
					r2, err := p.hex4()
					if err != nil {
						return "", err
					}
					if r2 < 0xDC00 || r2 > 0xDFFF {
						return "", p.errAt(at, "unpaired surrogate escape \\u%04x", r)
					}
					r = utf16.DecodeRune(r, r2)
				}
				buf = utf8.AppendRune(buf, r)
			default:
				return "", p.errAt(at, "invalid escape \\%c", e)
			}
		case c < utf8.RuneSelf:
			buf = append(buf, c)
			p.i++
		default:
			r, size := utf8.DecodeRune(p.b[p.i:])
			if r == utf8.RuneError && size == 1 {
				return "", p.errf("invalid UTF-8 in string")
			}
			buf = append(buf, p.b[p.i:p.i+size]...)
			p.i += size
		}
	}
}

// intVerdict classifies a JSON number literal as an integer.
type intVerdict uint8

const (
	intOK intVerdict = iota
	intNotInteger
	intOutOfRange
)

// exactInt64 decides exactly whether a number literal (finite, from parse) is an
// integer within int64, as the generated decoder does (1.0, 1e2 and -0 are integers).
func exactInt64(lit string) (int64, intVerdict) {
	plain := true
	for i := 0; i < len(lit); i++ {
		if c := lit[i]; !isDigit(c) && !(i == 0 && c == '-') {
			plain = false
			break
		}
	}
	if plain {
		n, err := strconv.ParseInt(lit, 10, 64)
		if err != nil {
			return 0, intOutOfRange
		}
		return n, intOK
	}
	f, _ := strconv.ParseFloat(lit, 64)
	if f == 0 {
		for i := 0; i < len(lit); i++ {
			c := lit[i]
			if c == 'e' || c == 'E' {
				break
			}
			if c >= '1' && c <= '9' {
				return 0, intNotInteger
			}
		}
		return 0, intOK
	}
	if f != math.Trunc(f) {
		return 0, intNotInteger
	}
	r, ok := new(big.Rat).SetString(lit)
	if !ok || !r.IsInt() {
		return 0, intNotInteger
	}
	if !r.Num().IsInt64() {
		return 0, intOutOfRange
	}
	return r.Num().Int64(), intOK
}
