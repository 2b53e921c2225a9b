// This file is hand-written (it has no generated-code header, so bqgen generate
// leaves it alone): the generated decoder against hostile bodies (issue 7, item 5).
// Every body must come back with the right classified error, never a panic and never a
// silent repair. docs/hardening.md ("Generated decoder") lists the limits.

package events_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/babelqueue/bqgen/examples/events"
	"github.com/babelqueue/bqgen/examples/events/orders"
)

const (
	hTrace = `"trace_id":"7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b"`
	hMeta  = `"meta":{"id":"f08fd9ac-9b9c-4ba9-9569-c482f9df2664","queue":"orders","lang":"go","schema_version":1,"created_at":1796040000000}`
	// hData is a valid urn:babel:orders:created.v2 data block with every kind of
	// nesting: a named type, money, an array of objects, a map.
	hData = `{"order_id":1042,"customer":{"customer_id":"0b6f2a9e-3c1d-4e5f-8a7b-9c0d1e2f3a4b","email":"ada@example.com"},"total":{"amount":2598,"currency":"EUR"},"placed_at":1796040000000,"lines":[{"sku":"BOOK-123","quantity":2,"unit_price":{"amount":1299,"currency":"EUR"}}],"tags":{"campaign":"winter"}}`
)

// hEnv returns a urn:babel:orders:created.v2 envelope with the data block data and
// the members extra appended at the top level.
func hEnv(data string, extra ...string) string {
	s := `{"job":"urn:babel:orders:created.v2",` + hTrace + `,"data":` + data + `,` + hMeta + `,"attempts":0`
	for _, e := range extra {
		s += "," + e
	}
	return s + "}"
}

// hData2 returns hData with old replaced by new (exactly once).
func hData2(old, new string) string {
	if strings.Count(hData, old) != 1 {
		panic("hData2: " + old)
	}
	return strings.Replace(hData, old, new, 1)
}

// nested returns depth nested arrays around 0: [[0]] for 2.
func nested(depth int) string {
	return strings.Repeat("[", depth) + "0" + strings.Repeat("]", depth)
}

type hostileCase struct {
	name string
	body []byte
	want error  // nil: dispatches
	msg  string // a substring of the error text
}

// hostileBodies is the table of TestHostileBodies, also seeds of FuzzDispatch.
func hostileBodies() []hostileCase {
	b := func(name, body string, want error, msg string) hostileCase {
		return hostileCase{name, []byte(body), want, msg}
	}
	const dl = `"dead_letter":{"reason":"poison","error":null,"exception":null,"failed_at":1,"original_queue":"orders","attempts":0}`
	// The envelope object is depth 1 and data depth 2: an unknown data key holding
	// n nested arrays reaches depth 2+n.
	deep := func(n int) string { return hEnv(hData2(`"order_id":1042`, `"order_id":1042,"x":`+nested(n))) }
	return []hostileCase{
		b("baseline", hEnv(hData), nil, ""),

		// Invalid UTF-8: rejected, never replaced with U+FFFD (docs/decisions.md#unicode).
		b("invalid UTF-8 byte in a data string", hEnv(hData2(`"winter"`, "\"win\xfftor\"")), events.ErrMalformedEnvelope, "invalid UTF-8"),
		b("invalid UTF-8 in a key", hEnv(hData2(`"campaign"`, "\"camp\xc3\"")), events.ErrMalformedEnvelope, "invalid UTF-8"),
		b("invalid UTF-8 in job", strings.Replace(hEnv(hData), "created.v2", "created\xe2\x82", 1), events.ErrMalformedEnvelope, "invalid UTF-8"),
		b("overlong UTF-8 encoding of '/'", hEnv(hData2(`"winter"`, "\"\xc0\xaf\"")), events.ErrMalformedEnvelope, "invalid UTF-8"),
		b("UTF-8-encoded surrogate U+D800", hEnv(hData2(`"winter"`, "\"\xed\xa0\x80\"")), events.ErrMalformedEnvelope, "invalid UTF-8"),
		b("code point above U+10FFFF", hEnv(hData2(`"winter"`, "\"\xf4\x90\x80\x80\"")), events.ErrMalformedEnvelope, "invalid UTF-8"),
		b("truncated multi-byte sequence at the end", hEnv(hData)+"\xe2", events.ErrMalformedEnvelope, ""),
		b("invalid UTF-8 outside a string", hEnv(hData)+" \xff", events.ErrMalformedEnvelope, "byte 0xff"),
		b("UTF-8 byte order mark", "\xef\xbb\xbf"+hEnv(hData), events.ErrMalformedEnvelope, "byte 0xef"),
		b("unpaired high surrogate escape", hEnv(hData2(`"winter"`, `"\ud800"`)), events.ErrMalformedEnvelope, "unpaired surrogate"),
		b("unpaired low surrogate escape", hEnv(hData2(`"winter"`, `"\udc00x"`)), events.ErrMalformedEnvelope, "unpaired surrogate"),
		b("high surrogate escape then a non-surrogate", hEnv(hData2(`"winter"`, `"\ud83d\u0041"`)), events.ErrMalformedEnvelope, "unpaired surrogate"),
		b("paired surrogate escapes", hEnv(hData2(`"winter"`, `"\ud83d\udce6"`)), nil, ""),
		b("raw control character in a string", hEnv(hData2(`"winter"`, "\"a\x00b\"")), events.ErrMalformedEnvelope, "control character"),
		b("escaped NUL in a string", hEnv(hData2(`"winter"`, `"a\u0000b"`)), nil, ""),

		// Duplicate keys, at every level: rejected (docs/hardening.md says why).
		b("duplicate key: top level (job)", `{"job":"urn:babel:orders:created.v2","job":"urn:babel:orders:ship",`+hTrace+`,"data":`+hData+`,`+hMeta+`}`, events.ErrMalformedEnvelope, `duplicate object key`),
		b("duplicate key: job and an unknown key twice", hEnv(hData, `"x":1`, `"x":1`), events.ErrMalformedEnvelope, `duplicate object key`),
		b("duplicate key: meta", strings.Replace(hEnv(hData), `"schema_version":1`, `"schema_version":1,"schema_version":2`, 1), events.ErrMalformedEnvelope, `duplicate object key`),
		b("duplicate key: data", hEnv(hData2(`"order_id":1042`, `"order_id":1042,"order_id":7`)), events.ErrMalformedEnvelope, `duplicate object key`),
		b("duplicate key: named type in data", hEnv(hData2(`"email":"ada@example.com"`, `"email":"ada@example.com","email":"eve@example.com"`)), events.ErrMalformedEnvelope, `duplicate object key`),
		b("duplicate key: money", hEnv(hData2(`"amount":2598`, `"amount":2598,"amount":1`)), events.ErrMalformedEnvelope, `duplicate object key`),
		b("duplicate key: object in an array", hEnv(hData2(`"sku":"BOOK-123"`, `"sku":"BOOK-123","sku":"PEN-9"`)), events.ErrMalformedEnvelope, `duplicate object key`),
		b("duplicate key: map", hEnv(hData2(`"campaign":"winter"`, `"campaign":"winter","campaign":"summer"`)), events.ErrMalformedEnvelope, `duplicate object key`),
		b("duplicate key: dead_letter", hEnv(hData, strings.Replace(dl, `"attempts":0`, `"attempts":0,"attempts":0`, 1)), events.ErrMalformedEnvelope, `duplicate object key`),
		b("duplicate key: tolerated unknown object", hEnv(hData, `"x":{"a":[{"b":1,"b":1}]}`), events.ErrMalformedEnvelope, `duplicate object key`),
		b("duplicate key: escaped spelling of the same key", hEnv(hData2(`"order_id":1042`, `"order_id":1042,"order\u005fid":7`)), events.ErrMalformedEnvelope, `duplicate object key`),
		b("duplicate key: in an object of 40 keys (map path)", hEnv(hData, `"x":{`+manyKeys(40)+`,"k7":0}`), events.ErrMalformedEnvelope, `duplicate object key`),

		// Numbers: integers exact within int64, no overflow to ±Inf.
		b("integer beyond int64 in data", hEnv(hData2(`"order_id":1042`, `"order_id":9223372036854775808`)), events.ErrInvalidData, "out of int64 range"),
		b("integer below int64 in data", hEnv(hData2(`"placed_at":1796040000000`, `"placed_at":-9223372036854775809`)), events.ErrInvalidData, "out of int64 range"),
		b("integer beyond int32 in data", hEnv(hData2(`"quantity":2`, `"quantity":2147483648`)), events.ErrInvalidData, "out of int32 range"),
		b("integer 1e19 (exponent form) in data", hEnv(hData2(`"order_id":1042`, `"order_id":1e19`)), events.ErrInvalidData, "out of int64 range"),
		b("1e400 in data", hEnv(hData2(`"order_id":1042`, `"order_id":1e400`)), events.ErrMalformedEnvelope, "overflows a float64"),
		b("-1e400 in an unknown key", hEnv(hData, `"x":-1e400`), events.ErrMalformedEnvelope, "overflows a float64"),
		b("1e-400 for an integer", hEnv(hData2(`"order_id":1042`, `"order_id":1e-400`)), events.ErrInvalidData, "expected integer"),
		b("1.5 for an integer", hEnv(hData2(`"order_id":1042`, `"order_id":1.5`)), events.ErrInvalidData, "expected integer"),
		b("1042.0 for an integer (accepted)", hEnv(hData2(`"order_id":1042`, `"order_id":1042.0`)), nil, ""),
		b("integer with 400 digits", hEnv(hData2(`"order_id":1042`, `"order_id":1`+strings.Repeat("0", 400))), events.ErrMalformedEnvelope, "overflows a float64"),
		b("NaN literal", hEnv(hData2(`"order_id":1042`, `"order_id":NaN`)), events.ErrMalformedEnvelope, "expected a value"),
		b("Infinity literal", hEnv(hData2(`"order_id":1042`, `"order_id":-Infinity`)), events.ErrMalformedEnvelope, "expected a digit"),
		b("leading zero", hEnv(hData2(`"order_id":1042`, `"order_id":01042`)), events.ErrMalformedEnvelope, ""),
		b("leading plus", hEnv(hData2(`"order_id":1042`, `"order_id":+1042`)), events.ErrMalformedEnvelope, ""),
		b("attempts beyond int64", strings.Replace(hEnv(hData), `"attempts":0`, `"attempts":9223372036854775808`, 1), events.ErrMalformedEnvelope, "attempts 9223372036854775808 out of range"),
		b("meta.created_at beyond int64", strings.Replace(hEnv(hData), `"created_at":1796040000000`, `"created_at":1e19`, 1), events.ErrMalformedEnvelope, "meta.created_at"),

		// Long literals, read by their value (docs/hardening.md, "Long number literals"):
		// strconv.ParseFloat alone reads 5, 1,000 zeros, e-990 as 5×10⁻¹⁹¹.
		b("order_id 5, 1,000 zeros, e-990 (5×10¹⁰, accepted)", hEnv(hData2(`"order_id":1042`, `"order_id":`+zeros5e10)), nil, ""),
		b("order_id 5, 1,000 zeros, e-984 (5×10¹⁶, over its maximum)", hEnv(hData2(`"order_id":1042`, `"order_id":5`+strings.Repeat("0", 1000)+`e-984`)), events.ErrInvalidData, "$.order_id: must be at most 9007199254740991, got 50000000000000000"),
		b("order_id 1. and 1,000,000 zeros (the integer 1, under the 1 MiB limit)", hEnv(hData2(`"order_id":1042`, `"order_id":`+oneMillionZeros)), nil, ""),
		b("5, 1,000 zeros, e-600 in an unknown key", hEnv(hData, `"x":`+zeros5e400), events.ErrMalformedEnvelope, "overflows a float64"),
		b("5, 1,000 zeros, e-600 in an unknown data key", hEnv(hData2(`"order_id":1042`, `"order_id":1042,"x":`+zeros5e400)), events.ErrMalformedEnvelope, "overflows a float64"),
		b("5, 1,000 zeros, e-600 in meta", strings.Replace(hEnv(hData), `"lang":"go"`, `"lang":"go","x":`+zeros5e400, 1), events.ErrMalformedEnvelope, "overflows a float64"),
		b("5, 1,000 zeros, e-600 in dead_letter", hEnv(hData, strings.Replace(dl, `"attempts":0`, `"attempts":`+zeros5e400, 1)), events.ErrMalformedEnvelope, "overflows a float64"),

		// Nesting: at most maxJSONDepth (128) levels, envelope included.
		b("nesting at the limit (128)", deep(126), nil, ""),
		b("nesting over the limit (129)", deep(127), events.ErrMalformedEnvelope, "nesting deeper than 128"),
		b("100,000 open brackets", strings.Repeat("[", 100000), events.ErrMalformedEnvelope, "nesting deeper than 128"),
		b("100,000 open braces", strings.Repeat(`{"a":`, 100000), events.ErrMalformedEnvelope, "nesting deeper than 128"),

		// The shape of the envelope (docs/contract.md#envelope, #meta-block, #consumer-rules).
		b("data is an array", hEnv(`[`+hData+`]`), events.ErrMalformedEnvelope, "data must be an object, got array"),
		b("data is a string", hEnv(`"`+strings.ReplaceAll(hData, `"`, `\"`)+`"`), events.ErrMalformedEnvelope, "data must be an object, got string"),
		b("data is null", hEnv(`null`), events.ErrMalformedEnvelope, "data must be an object, got null"),
		b("data missing", `{"job":"urn:babel:orders:created.v2",`+hTrace+`,`+hMeta+`}`, events.ErrMalformedEnvelope, "missing data"),
		b("attempts negative", strings.Replace(hEnv(hData), `"attempts":0`, `"attempts":-1`, 1), events.ErrMalformedEnvelope, "attempts must be >= 0"),
		b("attempts fractional", strings.Replace(hEnv(hData), `"attempts":0`, `"attempts":0.5`, 1), events.ErrMalformedEnvelope, "attempts must be an integer"),
		b("attempts a string", strings.Replace(hEnv(hData), `"attempts":0`, `"attempts":"1"`, 1), events.ErrMalformedEnvelope, "attempts must be an integer"),
		b("attempts 2.0 (an integer)", strings.Replace(hEnv(hData), `"attempts":0`, `"attempts":2.0`, 1), nil, ""),
		b("dead_letter.attempts negative", hEnv(hData, strings.Replace(dl, `"attempts":0`, `"attempts":-3`, 1)), events.ErrMalformedEnvelope, "dead_letter.attempts must be >= 0"),
		b("meta missing", `{"job":"urn:babel:orders:created.v2",`+hTrace+`,"data":`+hData+`,"attempts":0}`, events.ErrMalformedEnvelope, "missing meta"),
		b("meta is an array", strings.Replace(hEnv(hData), hMeta, `"meta":[]`, 1), events.ErrMalformedEnvelope, "meta must be an object"),
		b(`schema_version "1" (a string)`, strings.Replace(hEnv(hData), `"schema_version":1`, `"schema_version":"1"`, 1), events.ErrMalformedEnvelope, "meta.schema_version must be an integer, got string"),
		b("schema_version 2", strings.Replace(hEnv(hData), `"schema_version":1`, `"schema_version":2`, 1), events.ErrUnsupportedSchemaVersion, "2 (supported: 1)"),
		b("schema_version 1.5", strings.Replace(hEnv(hData), `"schema_version":1`, `"schema_version":1.5`, 1), events.ErrMalformedEnvelope, "meta.schema_version must be an integer"),
		b("schema_version 1e30", strings.Replace(hEnv(hData), `"schema_version":1`, `"schema_version":1e30`, 1), events.ErrUnsupportedSchemaVersion, ""),
		b("schema_version missing", strings.Replace(hEnv(hData), `"schema_version":1,`, ``, 1), events.ErrMalformedEnvelope, "missing meta.schema_version"),
		b("no identity", strings.Replace(hEnv(hData), `"job":"urn:babel:orders:created.v2",`, ``, 1), events.ErrMalformedEnvelope, "no identity"),
		b("job is a number", strings.Replace(hEnv(hData), `"job":"urn:babel:orders:created.v2"`, `"job":1`, 1), events.ErrMalformedEnvelope, "job must be a string"),
		b("job empty", strings.Replace(hEnv(hData), `"job":"urn:babel:orders:created.v2"`, `"job":""`, 1), events.ErrMalformedEnvelope, "no identity"),
		b("job null", strings.Replace(hEnv(hData), `"job":"urn:babel:orders:created.v2"`, `"job":null`, 1), events.ErrMalformedEnvelope, "no identity"),
		// An empty or null job next to a usable urn is absent, as the SDKs read it.
		b("job empty, urn set", strings.Replace(hEnv(hData), `"job":"urn:babel:orders:created.v2"`, `"job":"","urn":"urn:babel:orders:created.v2"`, 1), nil, ""),
		b("job null, urn set", strings.Replace(hEnv(hData), `"job":"urn:babel:orders:created.v2"`, `"job":null,"urn":"urn:babel:orders:created.v2"`, 1), nil, ""),
		b("job empty, urn empty", strings.Replace(hEnv(hData), `"job":"urn:babel:orders:created.v2"`, `"job":"","urn":""`, 1), events.ErrMalformedEnvelope, "no identity"),
		b("blank trace_id", strings.Replace(hEnv(hData), hTrace, `"trace_id":" \t"`, 1), events.ErrMalformedEnvelope, "blank trace_id"),
		b("unknown URN", strings.Replace(hEnv(hData), `created.v2`, `created.v3`, 1), events.ErrUnknownURN, `no handler for "urn:babel:orders:created.v3"`),
		b("data of another URN's shape", strings.Replace(hEnv(hData), `created.v2`, `ship`, 1), events.ErrInvalidData, "$.carrier: required property missing"),

		// Not one JSON object.
		b("empty body", "", events.ErrMalformedEnvelope, "unexpected end of input"),
		b("whitespace only", " \n\t ", events.ErrMalformedEnvelope, "unexpected end of input"),
		b("null body", "null", events.ErrMalformedEnvelope, "body must be a JSON object, got null"),
		b("array body", "["+hEnv(hData)+"]", events.ErrMalformedEnvelope, "body must be a JSON object, got array"),
		b("two envelopes", hEnv(hData)+hEnv(hData), events.ErrMalformedEnvelope, "after the top-level value"),
		b("trailing comma", strings.TrimSuffix(hEnv(hData), "}")+",}", events.ErrMalformedEnvelope, "expected a string key"),
		b("single-quoted strings", strings.ReplaceAll(hEnv(hData), `"`, `'`), events.ErrMalformedEnvelope, "expected a string key"),
		b("comment", "/* hi */"+hEnv(hData), events.ErrMalformedEnvelope, "expected a value"),
	}
}

// zeros5e10 is 5×10¹⁰ written as 5, 1,000 zeros and e-990; zeros5e400 is 5×10⁴⁰⁰
// (beyond a double) written the same way with e-600.
var (
	zeros5e10  = "5" + strings.Repeat("0", 1000) + "e-990"
	zeros5e400 = "5" + strings.Repeat("0", 1000) + "e-600"
	// oneMillionZeros is the integer 1 written as 1. and 10⁶ zeros: linear cost, and
	// an integer, as JSON Schema says (issue 16, item 4).
	oneMillionZeros = "1." + strings.Repeat("0", 1_000_000)
)

// manyKeys returns n members "k0":0,"k1":0,….
func manyKeys(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"k` + strconv.Itoa(i) + `":0`)
	}
	return b.String()
}

// TestHostileBodies dispatches every hostile body with a handler for each URN: the
// error wraps the expected sentinel (and only it), its text says why, and every body
// also satisfies the fuzz property (checkDispatch).
func TestHostileBodies(t *testing.T) {
	for _, tc := range hostileBodies() {
		t.Run(tc.name, func(t *testing.T) {
			err := checkDispatch(t, tc.body)
			switch {
			case tc.want == nil && err != nil:
				t.Fatalf("Dispatch = %v, want nil", err)
			case tc.want != nil && !errors.Is(err, tc.want):
				t.Fatalf("Dispatch = %v, want %v", err, tc.want)
			case err != nil && !strings.Contains(err.Error(), tc.msg):
				t.Fatalf("Dispatch = %v, want a message containing %q", err, tc.msg)
			}
			if err != nil && len(err.Error()) > 400 {
				t.Errorf("error text of %d bytes: hostile input must not be echoed whole", len(err.Error()))
			}
		})
	}
}

// TestHostileLongLiteralValues: a long literal decodes to its value, not to what
// strconv.ParseFloat alone reads.
func TestHostileLongLiteralValues(t *testing.T) {
	tests := []struct {
		name, lit string
		want      int64
	}{
		{"5, 1,000 zeros, e-990", zeros5e10, 5e10},
		{"1. and 1,000,000 zeros", oneMillionZeros, 1},
	}
	for _, tt := range tests {
		m, err := events.Decode[orders.CreatedV2]([]byte(hEnv(hData2(`"order_id":1042`, `"order_id":`+tt.lit))))
		if err != nil {
			t.Fatalf("%s: Decode = %v", tt.name, err)
		}
		if m.Data.OrderID != tt.want {
			t.Errorf("%s: order_id %d, want %d", tt.name, m.Data.OrderID, tt.want)
		}
	}
}

// TestHostileProducerText: the producer refuses a string that is not UTF-8 (issue 13,
// item 2) at its path, map keys included, instead of writing U+FFFD in its place; an
// envelope string that is not UTF-8 is ErrMalformedEnvelope.
func TestHostileProducerText(t *testing.T) {
	x := benchOrder()
	x.Shipping.City = "caf\xff"
	x.Tags = map[string]string{"caf\xff": "winter"}
	want := events.ValidationErrors{
		{Path: "$.shipping.city", Message: "invalid UTF-8 (byte 0xff at offset 3)"},
		{Path: `$.tags["caf\xff"]`, Message: "map key: invalid UTF-8 (byte 0xff at offset 3)"},
	}
	check := func(what string, err error) {
		t.Helper()
		var got events.ValidationErrors
		if !errors.Is(err, events.ErrInvalidData) || !errors.As(err, &got) || !reflect.DeepEqual(got, want) {
			t.Errorf("%s = %v\nwant %v", what, err, want)
		}
	}
	check("Validate", x.Validate())
	_, err := events.New(x, benchOpts()...)
	check("New", err)
	m, err := events.New(benchOrder(), benchOpts()...)
	if err != nil {
		t.Fatal(err)
	}
	m.Data = x
	b, err := m.Encode()
	check("Encode", err)
	if b != nil {
		t.Errorf("Encode wrote %q", b)
	}
	b, err = json.Marshal(x)
	check("json.Marshal", err)
	if b != nil {
		t.Errorf("json.Marshal wrote %q", b)
	}
	_, err = events.New(benchOrder(), events.WithTraceID("caf\xff"))
	if !errors.Is(err, events.ErrMalformedEnvelope) || !strings.HasSuffix(err.Error(), ": trace_id: invalid UTF-8 (byte 0xff at offset 3)") {
		t.Errorf("New(WithTraceID(\"caf\\xff\")) = %v, want ErrMalformedEnvelope naming trace_id", err)
	}
}

// TestMaxBodySize checks the events.Router's body size limit: events.DefaultMaxBodySize for
// events.NewRouter() and the zero events.Router, events.WithMaxBodySize to change it, n <= 0 for none.
func TestMaxBodySize(t *testing.T) {
	// pad returns a valid envelope of exactly n bytes (an unknown key carries the padding).
	pad := func(n int) []byte {
		base := hEnv(hData, `"x":""`)
		if n < len(base) {
			t.Fatalf("pad(%d): the smallest envelope has %d bytes", n, len(base))
		}
		return []byte(hEnv(hData, `"x":"`+strings.Repeat("a", n-len(base))+`"`))
	}
	handled := func(r *events.Router) *events.Router {
		events.Handle(r, func(context.Context, events.Message[orders.CreatedV2]) error { return nil })
		return r
	}
	if events.DefaultMaxBodySize != 1<<20 {
		t.Errorf("DefaultMaxBodySize = %d, want 1 MiB (docs/generated-code.md)", events.DefaultMaxBodySize)
	}
	cases := []struct {
		name string
		r    *events.Router
		size int
		want error
	}{
		{"default, at the limit", events.NewRouter(), events.DefaultMaxBodySize, nil},
		{"default, one byte over", events.NewRouter(), events.DefaultMaxBodySize + 1, events.ErrMalformedEnvelope},
		{"zero events.Router, one byte over", &events.Router{}, events.DefaultMaxBodySize + 1, events.ErrMalformedEnvelope},
		{"WithMaxBodySize(4096), at the limit", events.NewRouter(events.WithMaxBodySize(4096)), 4096, nil},
		{"WithMaxBodySize(4096), one byte over", events.NewRouter(events.WithMaxBodySize(4096)), 4097, events.ErrMalformedEnvelope},
		{"WithMaxBodySize(8 MiB), 2 MiB", events.NewRouter(events.WithMaxBodySize(8 << 20)), 2 << 20, nil},
		{"WithMaxBodySize(0): no limit", events.NewRouter(events.WithMaxBodySize(0)), 3 << 20, nil},
		{"WithMaxBodySize(-1): no limit", events.NewRouter(events.WithMaxBodySize(-1)), 3 << 20, nil},
		{"nil option ignored", events.NewRouter(nil), events.DefaultMaxBodySize + 1, events.ErrMalformedEnvelope},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			body := pad(tc.size)
			err := handled(tc.r).Dispatch(context.Background(), body)
			if tc.want == nil && err != nil || tc.want != nil && !errors.Is(err, tc.want) {
				t.Fatalf("Dispatch(%d bytes) = %v, want %v", len(body), err, tc.want)
			}
			if tc.want != nil {
				if !strings.Contains(err.Error(), "over the limit") {
					t.Errorf("error %q does not say the body is over the limit", err)
				}
				if events.DeadLetterReasonOf(err) != events.ReasonPoison {
					t.Errorf("DeadLetterReasonOf = %q, want poison", events.DeadLetterReasonOf(err))
				}
			}
		})
	}
	// The limit is checked before parsing: a huge body that is not JSON at all is
	// still reported as over the limit.
	err := events.NewRouter(events.WithMaxBodySize(10)).Dispatch(context.Background(), []byte(strings.Repeat("[", 11)))
	if !errors.Is(err, events.ErrMalformedEnvelope) || !strings.Contains(err.Error(), "over the limit") {
		t.Errorf("Dispatch = %v, want the size error before the syntax error", err)
	}
}
