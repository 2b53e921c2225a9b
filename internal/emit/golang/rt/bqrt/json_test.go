package bqrt

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"math/rand"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// dump renders a parsed tree compactly, to assert parse results exactly.
func dump(v *jsonValue) string {
	switch v.kind {
	case jsonNull:
		return "null"
	case jsonBool:
		if v.boolean {
			return "true"
		}
		return "false"
	case jsonNumber:
		return "n:" + v.str
	case jsonString:
		return "s:" + v.str
	case jsonArray:
		parts := make([]string, len(v.arr))
		for i, it := range v.arr {
			parts[i] = dump(it)
		}
		return "[" + strings.Join(parts, ",") + "]"
	case jsonObject:
		parts := make([]string, len(v.obj))
		for i, m := range v.obj {
			parts[i] = m.key + "=" + dump(m.val)
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
	return "?"
}

func TestParseJSONAccepts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want string
	}{
		{`null`, `null`},
		{` true `, `true`},
		{"\t\r\nfalse\n", `false`},
		{`0`, `n:0`},
		{`-0`, `n:-0`},
		{`1.5e-3`, `n:1.5e-3`},
		{`1E+2`, `n:1E+2`},
		{`1e-400`, `n:1e-400`}, // underflows to 0: finite, accepted
		{`1.7976931348623157e308`, `n:1.7976931348623157e308`},
		{`""`, `s:`},
		{`"a\"\\\/\b\f\n\r\tz"`, "s:a\"\\/\b\f\n\r\tz"},
		{`"\u00e9\u20AC"`, "s:é€"},
		{`"\ud83d\ude00"`, "s:😀"},
		{`"é😀"`, "s:é😀"},
		{`"<>&"`, "s:<>&"},
		{`[]`, `[]`},
		{`{}`, `{}`},
		{`[1, "a" ,{"b":null}]`, `[n:1,s:a,{b=null}]`},
		{`{"z":1,"a":2,"m":3}`, `{z=n:1,a=n:2,m=n:3}`}, // document order kept
		{`{"a":1,"A":2}`, `{a=n:1,A=n:2}`},
		{`{"a":{"a":1}}`, `{a={a=n:1}}`},
		{strings.Repeat("[", maxJSONDepth) + strings.Repeat("]", maxJSONDepth), strings.Repeat("[", maxJSONDepth) + strings.Repeat("]", maxJSONDepth)},
	}
	for _, tt := range tests {
		v, err := parseJSON([]byte(tt.in))
		if err != nil {
			t.Errorf("parseJSON(%q): %v", tt.in, err)
			continue
		}
		if got := dump(v); got != tt.want {
			t.Errorf("parseJSON(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestParseJSONManyKeysDuplicate(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("{")
	for i := 0; i < 20; i++ {
		b.WriteString(`"k` + string(rune('a'+i)) + `":1,`)
	}
	b.WriteString(`"kc":2}`)
	_, err := parseJSON([]byte(b.String()))
	if !errors.Is(err, ErrMalformedEnvelope) || !strings.Contains(err.Error(), `duplicate object key`) {
		t.Fatalf("err = %v", err)
	}
}

func TestParseJSONRejects(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, msg string
	}{
		{"empty", ``, "unexpected end of input, expected a value"},
		{"space only", `  `, "unexpected end of input"},
		{"two values", `1 2`, "after the top-level value"},
		{"trailing comma array", `[1,]`, "expected a value"},
		{"trailing comma object", `{"a":1,}`, "expected a string key"},
		{"single quotes", `{'a':1}`, "expected a string key"},
		{"unquoted key", `{a:1}`, "expected a string key"},
		{"missing colon", `{"a" 1}`, "expected ':'"},
		{"leading zero", `01`, "after the top-level value"},
		{"plus sign", `+1`, "expected a value"},
		{"bare dot", `1.`, "after decimal point"},
		{"leading dot", `.5`, "expected a value"},
		{"bad exponent", `1e`, "in exponent"},
		{"NaN", `NaN`, "expected a value"},
		{"Infinity", `-Infinity`, "expected a digit"},
		{"overflow", `1e400`, "number overflows a float64"},
		{"overflow negative", `[-1e309]`, "overflows a float64"},
		{"huge exponent", `1e99999999999999999999`, "overflows a float64"},
		{"tru", `tru`, "expected a value"},
		{"Null", `Null`, "expected a value"},
		{"invalid utf8 in string", "\"a\xffb\"", "invalid UTF-8 in string"},
		{"invalid utf8 after escape", "\"\\n\xc3\"", "invalid UTF-8 in string"},
		{"utf8 encoded surrogate", "\"\xed\xa0\x80\"", "invalid UTF-8 in string"},
		{"overlong utf8", "\"\xc0\xaf\"", "invalid UTF-8 in string"},
		{"invalid utf8 outside string", "\xff", "byte 0xff"},
		{"BOM", "\xef\xbb\xbf{}", "byte 0xef"},
		{"lone high surrogate", `"\ud800"`, `unpaired surrogate escape`},
		{"lone low surrogate", `"\udc00"`, `unpaired surrogate escape`},
		{"high then char", `"\ud83dx"`, "unpaired surrogate"},
		{"high then high", `"\ud83d\ud83d"`, "unpaired surrogate"},
		{"reversed pair", `"\ude00\ud83d"`, "unpaired surrogate"},
		{"bad hex", `"\u12g4"`, "expected a hex digit"},
		{"short hex", `"\u12"`, "expected a hex digit"},
		{"bad escape", `"\x"`, `invalid escape, character 'x' after the backslash`},
		{"raw control", "\"a\tb\"", "unescaped control character 0x09"},
		{"raw newline", "\"a\nb\"", "unescaped control character 0x0a"},
		{"unterminated", `"abc`, "unexpected end of input in string"},
		{"unterminated array", `[1`, "expected ',' or ']'"},
		{"unterminated object", `{"a":1`, "expected ',' or '}'"},
		{"duplicate key", `{"a":1,"b":2,"a":3}`, `duplicate object key`},
		{"duplicate key after unescape", `{"a":1,"\u0061":2}`, `duplicate object key`},
		{"nested duplicate", `{"x":{"k":1,"k":1}}`, `duplicate object key`},
		{"too deep arrays", strings.Repeat("[", maxJSONDepth+1) + strings.Repeat("]", maxJSONDepth+1), "nesting deeper than 128"},
		{"too deep objects", strings.Repeat(`{"a":`, maxJSONDepth+1) + "1" + strings.Repeat("}", maxJSONDepth+1), "nesting deeper than 128"},
		{"comment", `{} // x`, "after the top-level value"},
		{"vertical tab whitespace", "\v1", "expected a value"},
	}
	for _, tt := range tests {
		_, err := parseJSON([]byte(tt.in))
		if err == nil {
			t.Errorf("%s: parseJSON(%q) accepted", tt.name, tt.in)
			continue
		}
		if !errors.Is(err, ErrMalformedEnvelope) {
			t.Errorf("%s: error %v does not wrap ErrMalformedEnvelope", tt.name, err)
		}
		if !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("%s: error %q does not contain %q", tt.name, err, tt.msg)
		}
	}
}

func TestParseJSONErrorOffset(t *testing.T) {
	t.Parallel()
	_, err := parseJSON([]byte(`{"a":1,"a":2}`))
	want := `babelqueue: malformed envelope: at byte 7: duplicate object key`
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v, want %s", err, want)
	}
}

func num(lit string) *jsonValue { return &jsonValue{kind: jsonNumber, str: lit} }

func TestDecoderInt64(t *testing.T) {
	t.Parallel()
	tests := []struct {
		lit  string
		want int64
		msg  string
	}{
		{"0", 0, ""},
		{"-0", 0, ""},
		{"1.0", 1, ""},
		{"1e2", 100, ""},
		{"1E+2", 100, ""},
		{"-0.0", 0, ""},
		{"0e-5", 0, ""},
		{"0.000e400", 0, ""},
		{"12.50e1", 125, ""},
		{"1000e-3", 1, ""},
		{"9223372036854775807", math.MaxInt64, ""},
		{"-9223372036854775808", math.MinInt64, ""},
		{"9223372036854775807.0", math.MaxInt64, ""},
		{"-9.223372036854775808e18", math.MinInt64, ""},
		{"9007199254740993", 9007199254740993, ""}, // exact beyond 2^53
		{"1.5", 0, "expected integer, got number 1.5"},
		{"1e-1", 0, "expected integer, got number 1e-1"},
		{"1e-400", 0, "expected integer, got number 1e-400"},
		{"1.0000000000000000001", 0, "expected integer, got number 1.0000000000000000001"},
		{"9223372036854775807.5", 0, "expected integer, got number 9223372036854775807.5"},
		{"9223372036854775808", 0, "integer 9223372036854775808 out of int64 range"},
		{"-9223372036854775809", 0, "integer -9223372036854775809 out of int64 range"},
		{"9.223372036854775808e18", 0, "integer 9.223372036854775808e18 out of int64 range"},
		{"1e19", 0, "integer 1e19 out of int64 range"},
		{"1e300", 0, "integer 1e300 out of int64 range"},
		{"123456789012345678901234567890123456789012345", 0, "integer 123456789012345678901234...3456789012345 out of int64 range"},
	}
	for _, tt := range tests {
		d := &decoder{}
		got, ok := d.int64(num(tt.lit), "$.n")
		if tt.msg == "" {
			if !ok || got != tt.want || len(d.errs) != 0 {
				t.Errorf("int64(%s) = %d, %v, %v; want %d", tt.lit, got, ok, d.errs, tt.want)
			}
			continue
		}
		want := ValidationErrors{{Path: "$.n", Message: tt.msg}}
		if ok || got != 0 || !reflect.DeepEqual(d.errs, want) {
			t.Errorf("int64(%s) = %d, %v, %v; want error %v", tt.lit, got, ok, d.errs, want)
		}
	}
}

func TestDecoderInt32(t *testing.T) {
	t.Parallel()
	tests := []struct {
		lit  string
		want int32
		msg  string
	}{
		{"2147483647", math.MaxInt32, ""},
		{"-2147483648", math.MinInt32, ""},
		{"2.147483647e9", math.MaxInt32, ""},
		{"2147483648", 0, "integer 2147483648 out of int32 range"},
		{"-2147483649", 0, "integer -2147483649 out of int32 range"},
		{"9223372036854775808", 0, "integer 9223372036854775808 out of int32 range"},
		{"0.5", 0, "expected integer, got number 0.5"},
	}
	for _, tt := range tests {
		d := &decoder{}
		got, ok := d.int32(num(tt.lit), "$")
		if tt.msg == "" {
			if !ok || got != tt.want {
				t.Errorf("int32(%s) = %d, %v, %v", tt.lit, got, ok, d.errs)
			}
			continue
		}
		want := ValidationErrors{{Path: "$", Message: tt.msg}}
		if ok || !reflect.DeepEqual(d.errs, want) {
			t.Errorf("int32(%s) = %v, %v; want %v", tt.lit, ok, d.errs, want)
		}
	}
}

func TestDecoderInt64String(t *testing.T) {
	t.Parallel()
	tests := []struct {
		s    string
		want int64
		ok   bool
	}{
		{"0", 0, true},
		{"7", 7, true},
		{"-7", -7, true},
		{"9223372036854775807", math.MaxInt64, true},
		{"-9223372036854775808", math.MinInt64, true},
		{"9223372036854775808", 0, false},
		{"-9223372036854775809", 0, false},
		{"-0", 0, false},
		{"+1", 0, false},
		{"01", 0, false},
		{"-01", 0, false},
		{"00", 0, false},
		{" 1", 0, false},
		{"1 ", 0, false},
		{"", 0, false},
		{"-", 0, false},
		{"1.0", 0, false},
		{"1e2", 0, false},
		{"١", 0, false}, // Arabic-Indic digit one
	}
	for _, tt := range tests {
		d := &decoder{}
		got, ok := d.int64String(&jsonValue{kind: jsonString, str: tt.s}, "$.id")
		if ok != tt.ok || got != tt.want {
			t.Errorf("int64String(%q) = %d, %v; want %d, %v", tt.s, got, ok, tt.want, tt.ok)
		}
		if !tt.ok {
			want := ValidationErrors{{Path: "$.id", Message: "expected an integer in canonical decimal form within int64, got " + quoteGo(tt.s)}}
			if !reflect.DeepEqual(d.errs, want) {
				t.Errorf("int64String(%q) errs = %v, want %v", tt.s, d.errs, want)
			}
		}
	}
	d := &decoder{}
	if _, ok := d.int64String(num("12"), "$.id"); ok || d.errs[0].Message != "expected string, got number" {
		t.Errorf("int64String(number) = %v, %v", ok, d.errs)
	}
}

func quoteGo(s string) string { return string(must(json.Marshal(s))) }

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func TestDecoderTypeMismatch(t *testing.T) {
	t.Parallel()
	str := &jsonValue{kind: jsonString, str: "x"}
	null := &jsonValue{kind: jsonNull}
	arr := &jsonValue{kind: jsonArray}
	obj := &jsonValue{kind: jsonObject}
	boo := &jsonValue{kind: jsonBool, boolean: true}
	tests := []struct {
		name string
		call func(d *decoder) bool
		want string
	}{
		{"int64 string", func(d *decoder) bool { _, ok := d.int64(str, "$.a"); return ok }, "expected integer, got string"},
		{"int32 null", func(d *decoder) bool { _, ok := d.int32(null, "$.a"); return ok }, "expected integer, got null"},
		{"float64 bool", func(d *decoder) bool { _, ok := d.float64(boo, "$.a"); return ok }, "expected number, got boolean"},
		{"str number", func(d *decoder) bool { _, ok := d.str(num("1"), "$.a"); return ok }, "expected string, got number"},
		{"bool number", func(d *decoder) bool { _, ok := d.bool(num("1"), "$.a"); return ok }, "expected boolean, got number"},
		{"bool string", func(d *decoder) bool { _, ok := d.bool(str, "$.a"); return ok }, "expected boolean, got string"},
		{"object array", func(d *decoder) bool { _, ok := d.object(arr, "$.a"); return ok }, "expected object, got array"},
		{"array object", func(d *decoder) bool { _, ok := d.array(obj, "$.a"); return ok }, "expected array, got object"},
		{"money string", func(d *decoder) bool { _, ok := d.money(str, "$.a"); return ok }, "expected object, got string"},
		{"timestamp string", func(d *decoder) bool { _, ok := d.timestamp(str, "$.a"); return ok }, "expected integer, got string"},
		{"timestamp fraction", func(d *decoder) bool { _, ok := d.timestamp(num("1.5"), "$.a"); return ok }, "expected integer, got number 1.5"},
		{"uuid number", func(d *decoder) bool { _, ok := d.uuid(num("1"), "$.a"); return ok }, "expected string, got number"},
	}
	for _, tt := range tests {
		d := &decoder{}
		if ok := tt.call(d); ok {
			t.Errorf("%s: accepted", tt.name)
			continue
		}
		want := ValidationErrors{{Path: "$.a", Message: tt.want}}
		if !reflect.DeepEqual(d.errs, want) {
			t.Errorf("%s: errs = %v, want %v", tt.name, d.errs, want)
		}
	}
}

func TestDecoderScalars(t *testing.T) {
	t.Parallel()
	d := &decoder{}
	if f, ok := d.float64(num("-2.5e-3"), "$"); !ok || f != -0.0025 {
		t.Errorf("float64 = %v, %v", f, ok)
	}
	if f, ok := d.float64(num("-0"), "$"); !ok || f != 0 || !math.Signbit(f) {
		t.Errorf("float64(-0) = %v, %v", f, ok)
	}
	if f, ok := d.float64(num("1e-400"), "$"); !ok || f != 0 {
		t.Errorf("float64(1e-400) = %v, %v", f, ok)
	}
	if b, ok := d.bool(&jsonValue{kind: jsonBool, boolean: true}, "$"); !ok || !b {
		t.Errorf("bool = %v, %v", b, ok)
	}
	if s, ok := d.str(&jsonValue{kind: jsonString, str: "hé"}, "$"); !ok || s != "hé" {
		t.Errorf("str = %q, %v", s, ok)
	}
	if ts, ok := d.timestamp(num("1700000000000"), "$"); !ok || ts != 1700000000000 {
		t.Errorf("timestamp = %v, %v", ts, ok)
	}
	if u, ok := d.uuid(&jsonValue{kind: jsonString, str: "ABC"}, "$"); !ok || u != "ABC" {
		t.Errorf("uuid = %v, %v", u, ok)
	}
	if len(d.errs) != 0 {
		t.Errorf("errs = %v", d.errs)
	}
	if !isNull(&jsonValue{kind: jsonNull}) || isNull(num("0")) {
		t.Error("isNull")
	}
}

func TestDecoderMoney(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want money
		errs ValidationErrors
	}{
		{`{"amount":1299,"currency":"EUR"}`, money{1299, "EUR"}, nil},
		{`{"currency":"EUR","amount":-5.0}`, money{-5, "EUR"}, nil},
		{`{"currency":"EUR"}`, money{}, ValidationErrors{{"$.total.amount", "required property missing"}}},
		{`{"amount":1}`, money{}, ValidationErrors{{"$.total.currency", "required property missing"}}},
		{`{"amount":1.5,"currency":7}`, money{}, ValidationErrors{
			{"$.total.amount", "expected integer, got number 1.5"},
			{"$.total.currency", "expected string, got number"},
		}},
		{`{"amount":1,"currency":"EUR","rate":2}`, money{}, ValidationErrors{{"$.total.rate", "additional property not allowed"}}},
		{`{"amount":"1","currency":"EUR","my key":2}`, money{}, ValidationErrors{
			{"$.total.amount", "expected integer, got string"},
			{`$.total["my key"]`, "additional property not allowed"},
		}},
	}
	for _, tt := range tests {
		v := must(parseJSON([]byte(tt.in)))
		d := &decoder{}
		got, ok := d.money(v, "$.total")
		if ok != (tt.errs == nil) || !reflect.DeepEqual(d.errs, tt.errs) {
			t.Errorf("money(%s) = %v, %v; errs %v, want %v", tt.in, got, ok, d.errs, tt.errs)
		}
		if ok && got != tt.want {
			t.Errorf("money(%s) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestPaths(t *testing.T) {
	t.Parallel()
	tests := []struct{ got, want string }{
		{pathKey("$", "order_id"), "$.order_id"},
		{pathKey("$", "_x9"), "$._x9"},
		{pathIndex(pathKey("$", "lines"), 0) + ".sku", "$.lines[0].sku"},
		{pathKey(pathIndex("$.lines", 12), "sku"), "$.lines[12].sku"},
		{pathKey("$", "weird key"), `$["weird key"]`},
		{pathKey("$", "9lives"), `$["9lives"]`},
		{pathKey("$", ""), `$[""]`},
		{pathKey("$", "a-b"), `$["a-b"]`},
		{pathKey("$", "é"), `$["é"]`},
		{pathKey("$", `q"\`), `$["q\"\\"]`},
		{pathKey("$", "a.b"), `$["a.b"]`},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("path = %s, want %s", tt.got, tt.want)
		}
	}
	d := &decoder{}
	d.missing("$.lines[0]", "sku")
	d.unknown("$", "extra field")
	want := ValidationErrors{
		{"$.lines[0].sku", "required property missing"},
		{`$["extra field"]`, "additional property not allowed"},
	}
	if !reflect.DeepEqual(d.errs, want) {
		t.Errorf("errs = %v, want %v", d.errs, want)
	}
}

// stdEncode is the reference: encoding/json with SetEscapeHTML(false), no
// trailing newline.
func stdEncode(t *testing.T, v any) string {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatalf("encoding/json: %v", err)
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

func TestAppendStringMatchesEncodingJSON(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"", `""`},
		{"plain", `"plain"`},
		{`<a href="x">&amp;</a>`, `"<a href=\"x\">&amp;</a>"`},
		{"back\\slash", `"back\\slash"`},
		{"\b\f\n\r\t", `"\b\f\n\r\t"`},
		{"\x00\x01\x1f\x7f", `"\u0000\u0001\u001f` + "\x7f\""},
		{"\u2028\u2029", `"\u2028\u2029"`},
		{"é€😀", `"é€😀"`},
		{"\ufffd", "\"\ufffd\""}, // U+FFFD itself is valid, written as is
		{"/", `"/"`},
	}
	for _, tt := range tests {
		got := string(appendString(nil, tt.in))
		if got != tt.want {
			t.Errorf("appendString(%q) = %s, want %s", tt.in, got, tt.want)
		}
		if std := stdEncode(t, tt.in); got != std {
			t.Errorf("appendString(%q) = %s, encoding/json %s", tt.in, got, std)
		}
		if q := string(appendQuoted(nil, tt.in)); q != got {
			t.Errorf("appendQuoted(%q) = %s, appendString %s", tt.in, q, got)
		}
	}
}

// TestAppendStringNeverRepairs: bytes that are not UTF-8 are copied as they are (never
// replaced with U+FFFD, as encoding/json does), or shown as \xNN by appendQuoted.
func TestAppendStringNeverRepairs(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want, quoted string }{
		{"a\xffb", "\"a\xffb\"", `"a\xffb"`},
		{"caf\xff", "\"caf\xff\"", `"caf\xff"`},
		{"\xed\xa0\x80", "\"\xed\xa0\x80\"", `"\xed\xa0\x80"`},
		{"\xc3\"\n", "\"\xc3\\\"\\n\"", `"\xc3\"\n"`},
		{"é\xc0\xafé", "\"é\xc0\xafé\"", `"é\xc0\xafé"`},
	}
	for _, tt := range tests {
		if got := string(appendString(nil, tt.in)); got != tt.want {
			t.Errorf("appendString(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if got := string(appendQuoted(nil, tt.in)); got != tt.quoted {
			t.Errorf("appendQuoted(%q) = %s, want %s", tt.in, got, tt.quoted)
		}
	}
}

// refAppendString is appendString by another route: encoding/json for the valid runs
// of s, the invalid bytes as they are.
func refAppendString(t *testing.T, s string) string {
	t.Helper()
	var b strings.Builder
	b.WriteByte('"')
	run := 0
	flush := func(i int) { b.WriteString(strings.TrimSuffix(strings.TrimPrefix(stdEncode(t, s[run:i]), `"`), `"`)) }
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			flush(i)
			b.WriteByte(s[i])
			run = i + 1
		}
		i += size
	}
	flush(len(s))
	b.WriteByte('"')
	return b.String()
}

func TestAppendFloatMatchesEncodingJSON(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   float64
		want string
	}{
		{0, "0"},
		{math.Copysign(0, -1), "-0"},
		{1, "1"},
		{-1.5, "-1.5"},
		{0.1, "0.1"},
		{1e-6, "0.000001"},
		{9.99e-7, "9.99e-7"},
		{1e-7, "1e-7"},
		{1e20, "100000000000000000000"},
		{1e21, "1e+21"},
		{123456789e15, "1.23456789e+23"},
		{math.MaxFloat64, "1.7976931348623157e+308"},
		{math.SmallestNonzeroFloat64, "5e-324"},
		{9007199254740993, "9007199254740992"},
		{1.0 / 3, "0.3333333333333333"},
	}
	for _, tt := range tests {
		got := string(appendFloat(nil, tt.in))
		if got != tt.want {
			t.Errorf("appendFloat(%v) = %s, want %s", tt.in, got, tt.want)
		}
		if std := stdEncode(t, tt.in); got != std {
			t.Errorf("appendFloat(%v) = %s, encoding/json %s", tt.in, got, std)
		}
	}
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if got := string(appendFloat(nil, f)); got != "null" {
			t.Errorf("appendFloat(%v) = %s, want null", f, got)
		}
	}
}

func TestAppendOthers(t *testing.T) {
	t.Parallel()
	tests := []struct{ got, want string }{
		{string(appendKey(nil, "a b")), `"a b":`},
		{string(appendInt(nil, math.MinInt64)), "-9223372036854775808"},
		{string(appendIntString(nil, -42)), `"-42"`},
		{string(appendBool(nil, true)) + string(appendBool(nil, false)), "truefalse"},
		{string(appendMoney(nil, money{-1299, "EUR"})), `{"amount":-1299,"currency":"EUR"}`},
		{string(appendTimestamp(nil, 1700000000123)), "1700000000123"},
		{string(appendUUID(nil, "0f8fad5b-d9cb-469f-a165-70867728950e")), `"0f8fad5b-d9cb-469f-a165-70867728950e"`},
		{string(appendArray(nil, []int64(nil), appendInt)), "[]"},
		{string(appendArray(nil, []int64{1, -2}, appendInt)), "[1,-2]"},
		{string(appendMap(nil, map[string]int64(nil), appendInt)), "{}"},
		{string(appendMap(nil, map[string]int64{"b": 2, "a": 1, "B": 3, "é": 4}, appendInt)), `{"B":3,"a":1,"b":2,"é":4}`},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %s, want %s", tt.got, tt.want)
		}
	}
	m := map[string]int64{"b": 2, "a": 1, "B": 3, "é": 4, "<": 5, "\u2028": 6}
	if got, std := string(appendMap(nil, m, appendInt)), stdEncode(t, m); got != std {
		t.Errorf("appendMap = %s, encoding/json %s", got, std)
	}
	s := []string{"x", "<y>"}
	if got, std := string(appendArray(nil, s, appendString)), stdEncode(t, s); got != std {
		t.Errorf("appendArray = %s, encoding/json %s", got, std)
	}
}

// randString returns a string mixing ASCII, controls, invalid bytes and
// multi-byte runes, including U+2028/U+2029.
func randString(r *rand.Rand) string {
	pieces := []string{"a", "Z", " ", "\"", "\\", "/", "<", ">", "&", "\x00", "\x1f", "\x7f", "\n", "\t",
		"\xff", "\xc3", "\xed\xa0\x80", "é", "€", "😀", "\u2028", "\u2029", "\ufffd", "\U0010ffff"}
	var b strings.Builder
	for n := r.Intn(12); n > 0; n-- {
		if r.Intn(4) == 0 {
			b.WriteByte(byte(r.Intn(256)))
		} else {
			b.WriteString(pieces[r.Intn(len(pieces))])
		}
	}
	return b.String()
}

func TestEncoderPropertyAgainstEncodingJSON(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 20000; i++ {
		s := randString(r)
		if got, ref := string(appendString(nil, s)), refAppendString(t, s); got != ref {
			t.Fatalf("appendString(%q) = %q, want %q", s, got, ref)
		}
		if v := strings.ToValidUTF8(s, ""); string(appendString(nil, v)) != stdEncode(t, v) {
			t.Fatalf("appendString(%q) = %s, encoding/json %s", v, appendString(nil, v), stdEncode(t, v))
		}
		var f float64
		switch i % 3 {
		case 0:
			f = math.Float64frombits(r.Uint64())
		case 1:
			f = r.NormFloat64() * math.Pow(10, float64(r.Intn(60)-30))
		default:
			f = float64(r.Int63n(1<<60)) * math.Pow(10, float64(r.Intn(10)-5))
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			continue
		}
		if got, std := string(appendFloat(nil, f)), stdEncode(t, f); got != std {
			t.Fatalf("appendFloat(%v) = %s, encoding/json %s", f, got, std)
		}
		n := r.Int63() - r.Int63()
		if got, std := string(appendInt(nil, n)), stdEncode(t, n); got != std {
			t.Fatalf("appendInt(%d) = %s, encoding/json %s", n, got, std)
		}
		m := map[string]string{}
		for range 2 {
			m[strings.ToValidUTF8(randString(r), "")] = strings.ToValidUTF8(randString(r), "")
		}
		if got, std := string(appendMap(nil, m, appendString)), stdEncode(t, m); got != std {
			t.Fatalf("appendMap(%q) = %s, encoding/json %s", m, got, std)
		}
	}
}

func TestStringRoundTripThroughParser(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewSource(2))
	for i := 0; i < 5000; i++ {
		s := strings.ToValidUTF8(randString(r), "")
		v, err := parseJSON(appendString(nil, s))
		if err != nil {
			t.Fatalf("parse(appendString(%q)): %v", s, err)
		}
		if v.kind != jsonString || v.str != s {
			t.Fatalf("round trip of %q = %q", s, v.str)
		}
	}
}

func TestSpecial8(t *testing.T) {
	t.Parallel()
	isSpecial := func(c byte) bool { return c == '"' || c == '\\' || c < 0x20 || c >= 0x80 }
	// Every byte value in every lane, the other lanes plain ASCII letters.
	for lane := 0; lane < 8; lane++ {
		for c := 0; c < 256; c++ {
			w := []byte("abcdefgh")
			w[lane] = byte(c)
			if got, want := special8(w), isSpecial(byte(c)); got != want {
				t.Fatalf("special8(%q) = %v, want %v", w, got, want)
			}
		}
	}
	// Pairs of bytes (the lanes borrow from each other): exact on the whole word.
	for c1 := 0; c1 < 256; c1++ {
		for c2 := 0; c2 < 256; c2 += 7 {
			w := []byte{'x', byte(c1), byte(c2), 'y', 'z', byte(c2), '~', ' '}
			want := isSpecial(byte(c1)) || isSpecial(byte(c2))
			if got := special8(w); got != want {
				t.Fatalf("special8(%q) = %v, want %v", w, got, want)
			}
		}
	}
}
