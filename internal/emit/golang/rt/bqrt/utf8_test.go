package bqrt

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// The producer refuses strings that are not valid UTF-8, as the decoder does, instead
// of letting the encoder repair them (issue 13, item 2): Validate and Encode report them
// as ValidationErrors at their paths, MarshalJSON (Marshal) refuses them, envelope
// strings are ErrMalformedEnvelope. The runtime package's tests (rt/utf8_test.go) do
// the same through NewX, Message.Encode and the options.

func ptr[T any](v T) *T { return &v }

// sampleData is a valid sampleOrder (the data of sampleEnvelope).
func sampleData() sampleOrder {
	return sampleOrder{
		OrderID:  1042,
		Note:     ptr("é<&>"),
		Total:    Money{Amount: 1299, Currency: "EUR"},
		Lines:    []sampleLine{{SKU: "SKU-1", Quantity: 2}},
		Tags:     map[string]string{"b": "2", "a": "1"},
		PlacedAt: 1700000000000,
		Ref:      ptr(int64(-9007199254740993)),
		Ratio:    ptr(0.25),
		Status:   sampleStatusNew,
	}
}

// sampleHeader is the envelope header of sampleEnvelope.
func sampleHeader() *Header {
	return &Header{URN: sampleURN, TraceID: testTrace, Meta: Meta{ID: testID, Queue: "orders", Lang: "go", SchemaVersion: 1, CreatedAt: 1700000000123}}
}

// badUTF8Order is the sample order with a byte that is not UTF-8 in every kind of
// string it has: checked and unchecked strings, a map key and value, a nested pattern
// field, an email, an enum, a uuid and a money currency.
func badUTF8Order() sampleOrder {
	x := sampleData()
	x.Note = ptr("caf\xff")
	x.Total.Currency = "EU\xff"
	x.Lines = []sampleLine{{SKU: "SKU\xfe", Quantity: 1}}
	x.Tags = map[string]string{"caf\xff": "1", "a": "b\xc3", `q"`: "ok"}
	x.Email = ptr("a\xff@example.com")
	x.Status = "n\xffew"
	x.Customer = ptr(UUID("0f8fad5b-d9cb-469f-a165-70867728950\xff"))
	return x
}

// badUTF8Errors is what Validate reports on badUTF8Order, in field order.
var badUTF8Errors = ValidationErrors{
	{`$.note`, "invalid UTF-8 (byte 0xff at offset 3)"},
	{`$.total.currency`, `currency "EU\xff" is not three upper-case letters (ISO 4217)`},
	{`$.lines[0].sku`, "invalid UTF-8 (byte 0xfe at offset 3)"},
	{`$.tags.a`, "invalid UTF-8 (byte 0xc3 at offset 1)"},
	{`$.tags["caf\xff"]`, "map key: invalid UTF-8 (byte 0xff at offset 3)"},
	{`$.email`, "invalid UTF-8 (byte 0xff at offset 1)"},
	{`$.status`, "invalid UTF-8 (byte 0xff at offset 1)"},
	{`$.customer`, `"0f8fad5b-d9cb-469f-a165-70867728950\xff" is not a canonical lowercase UUID`},
}

// badUTF8TextErrors is what MarshalJSON reports on badUTF8Order: the strings only.
var badUTF8TextErrors = ValidationErrors{
	{`$.note`, "invalid UTF-8 (byte 0xff at offset 3)"},
	{`$.total.currency`, "invalid UTF-8 (byte 0xff at offset 2)"},
	{`$.lines[0].sku`, "invalid UTF-8 (byte 0xfe at offset 3)"},
	{`$.tags.a`, "invalid UTF-8 (byte 0xc3 at offset 1)"},
	{`$.tags["caf\xff"]`, "map key: invalid UTF-8 (byte 0xff at offset 3)"},
	{`$.email`, "invalid UTF-8 (byte 0xff at offset 1)"},
	{`$.status`, "invalid UTF-8 (byte 0xff at offset 1)"},
	{`$.customer`, "invalid UTF-8 (byte 0xff at offset 35)"},
}

// marshalOrder has the generated MarshalJSON of the sample order.
type marshalOrder sampleOrder

func (x marshalOrder) MarshalJSON() ([]byte, error) { return Marshal(&x, &sampleOrderDesc) }

func TestProducerRefusesInvalidUTF8(t *testing.T) {
	t.Parallel()
	x := badUTF8Order()
	checkErrs := func(what string, err error, want ValidationErrors) {
		t.Helper()
		var got ValidationErrors
		if !errors.Is(err, ErrInvalidData) || !errors.As(err, &got) || !reflect.DeepEqual(got, want) {
			t.Errorf("%s = %v\nwant %v", what, err, want)
		}
	}
	checkErrs("Validate", x.Validate(), badUTF8Errors)
	b, err := Encode(sampleHeader(), &x, &sampleOrderDesc, nil, nil)
	checkErrs("Encode", err, badUTF8Errors)
	if b != nil {
		t.Errorf("Encode wrote %q", b)
	}
	b, err = Marshal(&x, &sampleOrderDesc)
	checkErrs("Marshal", err, badUTF8TextErrors)
	if b != nil {
		t.Errorf("Marshal wrote %q", b)
	}
	// through encoding/json, which wraps the error
	if b, err := json.Marshal(marshalOrder(x)); !errors.Is(err, ErrInvalidData) || b != nil {
		t.Errorf("json.Marshal = %q, %v; want ErrInvalidData", b, err)
	}
	// One bad byte at a time: each alone is found, and nothing else.
	for i, mutate := range []func(*sampleOrder){
		func(x *sampleOrder) { x.Note = ptr("caf\xff") },
		func(x *sampleOrder) { x.Tags = map[string]string{"caf\xff": "1"} },
		func(x *sampleOrder) { x.Tags = map[string]string{"k": "\xed\xa0\x80"} },
	} {
		y := sampleData()
		mutate(&y)
		if err := y.Validate(); err == nil || len(err.(ValidationErrors)) != 1 {
			t.Errorf("mutation %d: Validate = %v, want one error", i, err)
		}
		if _, err := Marshal(&y, &sampleOrderDesc); err == nil || len(err.(ValidationErrors)) != 1 {
			t.Errorf("mutation %d: Marshal = %v, want one error", i, err)
		}
	}
}

// TestProducerUTF8EveryShape: strings that are not UTF-8 inside checked maps, nullable
// values, nested objects, arrays of arrays and named types, in streamKinds.
func TestProducerUTF8EveryShape(t *testing.T) {
	t.Parallel()
	x := streamKinds{
		S:  "ab\xff",
		NS: &Nullable[string]{Value: "\xff", Valid: true},
		NO: NullableOf(streamInner{A: Money{Amount: 1, Currency: "EUR"}}),
		MS: map[string]string{"k\xff": "v", "ok": "\xc0"},
		MN: map[string]Nullable[string]{"a": NullableOf("x\xff"), "b": {}},
		U:  ptr(UUID("\xff")),
		E:  ptr(sampleStatus("\xfe")),
	}
	want := ValidationErrors{
		{"$.s", "invalid UTF-8 (byte 0xff at offset 2)"},
		{"$.ns", "invalid UTF-8 (byte 0xff at offset 0)"},
		{`$.ms["k\xff"]`, "map key: invalid UTF-8 (byte 0xff at offset 1)"},
		{"$.ms.ok", "invalid UTF-8 (byte 0xc0 at offset 0)"},
		{"$.mn.a", "invalid UTF-8 (byte 0xff at offset 1)"},
		{"$.u", `"\xff" is not a canonical lowercase UUID`},
		{"$.e", "invalid UTF-8 (byte 0xfe at offset 0)"},
	}
	if err := Validate(&x, &streamKindsDesc); !reflect.DeepEqual(err, want) {
		t.Errorf("Validate = %v\nwant %v", err, want)
	}
	// Unchecked descriptors hold no constraint, but strings are still checked.
	plain := Desc{Kind: KArray, Elem: &Desc{Kind: KMap, Elem: &Desc{Kind: KArray, Elem: &Desc{Kind: KString}}}}
	y := []map[string][]string{{"a": {"ok", "x\xff"}}, {"\xfe": nil}}
	wantY := ValidationErrors{
		{"$[0].a[1]", "invalid UTF-8 (byte 0xff at offset 1)"},
		{`$[1]["\xfe"]`, "map key: invalid UTF-8 (byte 0xfe at offset 0)"},
	}
	if err := Validate(&y, &plain); !reflect.DeepEqual(err, wantY) {
		t.Errorf("Validate(unchecked) = %v\nwant %v", err, wantY)
	}
	if _, err := Marshal(&y, &plain); !reflect.DeepEqual(err, wantY) {
		t.Errorf("Marshal(unchecked) = %v\nwant %v", err, wantY)
	}
	// uniqueItems no longer sees two different bad strings as one (both used to be
	// written as \ufffd); each is refused.
	uniq := Desc{Kind: KArray, Flags: FChecked | FUnique, Elem: &Desc{Kind: KString}}
	z := []string{"a\xff", "a\xfe"}
	wantZ := ValidationErrors{{"$[0]", "invalid UTF-8 (byte 0xff at offset 1)"}, {"$[1]", "invalid UTF-8 (byte 0xfe at offset 1)"}}
	if err := Validate(&z, &uniq); !reflect.DeepEqual(err, wantZ) {
		t.Errorf("Validate(unique) = %v\nwant %v", err, wantZ)
	}
	ints := Desc{Kind: KArray, Elem: &Desc{Kind: KInt64}}
	if holdsText(&ints) || !holdsText(&plain) || !holdsText(&streamKindsDesc) {
		t.Error("holdsText")
	}
}

// TestProducerKeepsValidText: U+FFFD itself, and every other valid string, passes and is
// written as it is.
func TestProducerKeepsValidText(t *testing.T) {
	t.Parallel()
	x := sampleData()
	x.Note = ptr("\ufffd\u2028é")
	x.Tags = map[string]string{"\ufffd": "😀"}
	if err := x.Validate(); err != nil {
		t.Fatal(err)
	}
	b, err := Marshal(&x, &sampleOrderDesc)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"note":"`+"\ufffd"+`\u2028é"`) || !strings.Contains(string(b), `"tags":{"`+"\ufffd"+`":"😀"}`) {
		t.Errorf("Marshal = %s", b)
	}
	if _, err := Encode(sampleHeader(), &x, &sampleOrderDesc, nil, nil); err != nil {
		t.Fatal(err)
	}
}

// TestEnvelopeRefusesInvalidUTF8: every string Encode writes into the envelope.
func TestEnvelopeRefusesInvalidUTF8(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		set  func(h *Header)
		want string
	}{
		{"job", func(h *Header) { h.URN = "urn:babel:orders:cr\xffated" }, "job: invalid UTF-8 (byte 0xff at offset 19)"},
		{"trace_id", func(h *Header) { h.TraceID = "caf\xff" }, "trace_id: invalid UTF-8 (byte 0xff at offset 3)"},
		{"meta.id", func(h *Header) { h.Meta.ID = "\xff" }, "meta.id: invalid UTF-8 (byte 0xff at offset 0)"},
		{"meta.queue", func(h *Header) { h.Meta.Queue = "q\xff" }, "meta.queue: invalid UTF-8 (byte 0xff at offset 1)"},
		{"meta.lang", func(h *Header) { h.Meta.Lang = "g\xc3" }, "meta.lang: invalid UTF-8 (byte 0xc3 at offset 1)"},
		{"dead_letter.reason", func(h *Header) { h.DeadLetter.Reason = "p\xff" }, "dead_letter.reason: invalid UTF-8 (byte 0xff at offset 1)"},
		{"dead_letter.error", func(h *Header) { h.DeadLetter.Error = ptr("boom\xff") }, "dead_letter.error: invalid UTF-8 (byte 0xff at offset 4)"},
		{"dead_letter.exception", func(h *Header) { h.DeadLetter.Exception = ptr("\xffE") }, "dead_letter.exception: invalid UTF-8 (byte 0xff at offset 0)"},
		{"dead_letter.original_queue", func(h *Header) { h.DeadLetter.OriginalQueue = "o\xff" }, "dead_letter.original_queue: invalid UTF-8 (byte 0xff at offset 1)"},
		{"dead_letter.lang", func(h *Header) { h.DeadLetter.Lang = "p\xff" }, "dead_letter.lang: invalid UTF-8 (byte 0xff at offset 1)"},
	} {
		h := sampleHeader()
		h.Attempts = 3
		h.DeadLetter = &DeadLetter{Reason: "failed", Error: ptr("boom"), FailedAt: 1700000009999, OriginalQueue: "orders", Attempts: 3, Lang: "go"}
		x := sampleData()
		if _, err := Encode(h, &x, &sampleOrderDesc, nil, nil); err != nil {
			t.Fatalf("%s: the valid envelope: %v", tt.name, err)
		}
		tt.set(h)
		b, err := Encode(h, &x, &sampleOrderDesc, nil, nil)
		if !errors.Is(err, ErrMalformedEnvelope) || err.Error() != ErrMalformedEnvelope.Error()+": "+tt.want || b != nil {
			t.Errorf("%s: Encode = %q, %v; want %s", tt.name, b, err, tt.want)
		}
	}
	if err := CheckEnvelopeText("a", "ok", "b", "caf\xff", "c"); err == nil || err.Error() != ErrMalformedEnvelope.Error()+": b: invalid UTF-8 (byte 0xff at offset 3)" {
		t.Errorf("CheckEnvelopeText = %v", err)
	}
	if err := CheckEnvelopeText("a", "\ufffd", "b", "", "c"); err != nil {
		t.Errorf("CheckEnvelopeText(valid) = %v", err)
	}
}

// FuzzProducerText: for any bytes in a string field and a map key, the producer
// refuses them exactly when they are not UTF-8, and what it writes parses back to the
// same strings.
func FuzzProducerText(f *testing.F) {
	for _, s := range []string{"", "caf\xff", "\ufffd", "\xed\xa0\x80", "\xc0\xaf", "é\u2028\"\\\x00", "\xf4\x90\x80\x80", "ok"} {
		f.Add(s, s)
	}
	f.Fuzz(func(t *testing.T, note, key string) {
		x := sampleData()
		x.Note = &note
		x.Tags = map[string]string{key: "v"}
		valid := utf8.ValidString(note) && utf8.ValidString(key)
		b, err := Marshal(&x, &sampleOrderDesc)
		if (err == nil) != valid || (err != nil && !errors.Is(err, ErrInvalidData)) {
			t.Fatalf("Marshal(%q, %q) = %v, valid %v", note, key, err, valid)
		}
		verr := x.Validate()
		if !valid {
			var ve ValidationErrors
			if !errors.As(verr, &ve) || b != nil {
				t.Fatalf("Validate(%q, %q) = %v; Marshal wrote %q", note, key, verr, b)
			}
			return
		}
		j, err := parseJSON(b)
		if err != nil {
			t.Fatalf("Marshal(%q, %q) wrote %q: %v", note, key, b, err)
		}
		if got := member(j.obj, "note").str; got != note {
			t.Fatalf("note %q came back as %q", note, got)
		}
		if tags := member(j.obj, "tags"); len(tags.obj) != 1 || tags.obj[0].key != key {
			t.Fatalf("key %q came back as %+v", key, tags.obj)
		}
	})
}
