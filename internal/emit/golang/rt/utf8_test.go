package rt

import (
	"errors"
	"reflect"
	"testing"
)

// The producer refuses strings that are not valid UTF-8 (issue 13, item 2): NewX and
// Message.Encode report those of the data as ValidationErrors at their paths, those
// of the envelope (the options included) as ErrMalformedEnvelope. bqrt/utf8_test.go
// covers every kind of string and shape of data.

func TestNewAndEncodeRefuseInvalidUTF8(t *testing.T) {
	t.Parallel()
	x := sampleData()
	x.Note = ptr("caf\xff")
	x.Tags = map[string]string{"caf\xff": "1"}
	want := ValidationErrors{
		{Path: "$.note", Message: "invalid UTF-8 (byte 0xff at offset 3)"},
		{Path: `$.tags["caf\xff"]`, Message: "map key: invalid UTF-8 (byte 0xff at offset 3)"},
	}
	check := func(what string, err error) {
		t.Helper()
		var got ValidationErrors
		if !errors.Is(err, ErrInvalidData) || !errors.As(err, &got) || !reflect.DeepEqual(got, want) {
			t.Errorf("%s = %v\nwant %v", what, err, want)
		}
	}
	check("Validate", x.Validate())
	_, err := newMessage(sampleURN, "orders", x, fixedOpts())
	check("NewX", err)
	m, err := newMessage(sampleURN, "orders", sampleData(), fixedOpts())
	if err != nil {
		t.Fatal(err)
	}
	m.Data = x
	b, err := m.Encode()
	check("Encode", err)
	if b != nil {
		t.Errorf("Encode wrote %q", b)
	}
	// U+FFFD itself is valid text.
	x = sampleData()
	x.Note = ptr("\ufffd")
	if m, err := newMessage(sampleURN, "orders", x, fixedOpts()); err != nil {
		t.Errorf("NewX(U+FFFD) = %v", err)
	} else if _, err := m.Encode(); err != nil {
		t.Errorf("Encode(U+FFFD) = %v", err)
	}
}

// TestEnvelopeRefusesInvalidUTF8: envelope strings set on the message (bqrt's test of
// Encode has every one) or given to New by its options.
func TestEnvelopeRefusesInvalidUTF8(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		set  func(m *Message[sampleOrder])
		want string
	}{
		{"job", func(m *Message[sampleOrder]) { m.URN = "urn:babel:orders:cr\xffated" }, "job: invalid UTF-8 (byte 0xff at offset 19)"},
		{"trace_id", func(m *Message[sampleOrder]) { m.TraceID = "caf\xff" }, "trace_id: invalid UTF-8 (byte 0xff at offset 3)"},
		{"dead_letter.error", func(m *Message[sampleOrder]) { m.DeadLetter.Error = ptr("boom\xff") }, "dead_letter.error: invalid UTF-8 (byte 0xff at offset 4)"},
	} {
		m := deadLettered(t)
		tt.set(m)
		b, err := m.Encode()
		if !errors.Is(err, ErrMalformedEnvelope) || err.Error() != ErrMalformedEnvelope.Error()+": "+tt.want || b != nil {
			t.Errorf("%s: Encode = %q, %v; want %s", tt.name, b, err, tt.want)
		}
	}
	for _, tt := range []struct {
		name string
		opt  Option
		want string
	}{
		{"WithTraceID", WithTraceID("caf\xff"), "trace_id: invalid UTF-8 (byte 0xff at offset 3)"},
		{"WithQueue", WithQueue("q\xff"), "meta.queue: invalid UTF-8 (byte 0xff at offset 1)"},
		{"WithIDSource", WithIDSource(func() string { return "id\xff" }), "meta.id: invalid UTF-8 (byte 0xff at offset 2)"},
	} {
		_, err := newMessage(sampleURN, "orders", sampleData(), append(fixedOpts(), tt.opt))
		if !errors.Is(err, ErrMalformedEnvelope) || err.Error() != ErrMalformedEnvelope.Error()+": "+tt.want {
			t.Errorf("%s: NewX = %v; want %s", tt.name, err, tt.want)
		}
	}
	if _, err := newMessage(sampleURN, "q\xff", sampleData(), fixedOpts()[:1]); !errors.Is(err, ErrMalformedEnvelope) {
		t.Errorf("default queue: NewX = %v", err)
	}
}
