package rt

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// sdkEnvelope stands for the BabelQueue Go SDK's babelqueue.Envelope, as its source
// defines it: data decoded by encoding/json into map[string]any (float64 numbers),
// Decode resolving the urn alias into Job, Encode writing encoding/json with HTML
// escaping off and no trailing newline; dead_letter omitted when nil, its lang always
// written.
type sdkEnvelope struct {
	Job        string         `json:"job"`
	TraceID    string         `json:"trace_id"`
	Data       map[string]any `json:"data"`
	Meta       sdkMeta        `json:"meta"`
	Attempts   int            `json:"attempts"`
	DeadLetter *sdkDeadLetter `json:"dead_letter,omitempty"`
}

type sdkMeta struct {
	ID            string `json:"id"`
	Queue         string `json:"queue"`
	Lang          string `json:"lang"`
	SchemaVersion int    `json:"schema_version"`
	CreatedAt     int64  `json:"created_at"`
}

type sdkDeadLetter struct {
	Reason        string  `json:"reason"`
	Error         *string `json:"error"`
	Exception     *string `json:"exception"`
	FailedAt      int64   `json:"failed_at"`
	OriginalQueue string  `json:"original_queue"`
	Attempts      int     `json:"attempts"`
	Lang          string  `json:"lang"`
}

func (e sdkEnvelope) Encode() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(e); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

func sdkDecode(raw []byte) (sdkEnvelope, error) {
	var e sdkEnvelope
	if err := json.Unmarshal(raw, &e); err != nil {
		return sdkEnvelope{}, err
	}
	if e.Job == "" {
		var alias struct {
			URN string `json:"urn"`
		}
		if json.Unmarshal(raw, &alias) == nil {
			e.Job = strings.TrimSpace(alias.URN)
		}
	}
	return e, nil
}

type failingEnvelope struct{}

func (failingEnvelope) Encode() ([]byte, error) {
	return nil, errors.New("json: unsupported value: NaN")
}

func TestDispatchEnvelope(t *testing.T) {
	t.Parallel()
	var got []Message[sampleOrder]
	r := NewRouter()
	Handle(r, func(_ context.Context, m Message[sampleOrder]) error { got = append(got, m); return nil })
	dispatch := func(body string) error {
		env, err := sdkDecode([]byte(body))
		if err != nil {
			t.Fatalf("the SDK does not decode %s: %v", body, err)
		}
		got = nil
		return r.DispatchEnvelope(context.Background(), env)
	}

	// What the SDK keeps: everything of the sample (its int64 string "ref" included).
	if err := dispatch(sampleEnvelope); err != nil {
		t.Fatal(err)
	}
	want, _ := New(sampleData(), fixedOpts()...)
	if len(got) != 1 || !reflect.DeepEqual(got[0], *want) {
		t.Fatalf("handler got %+v\nwant %+v", got, *want)
	}

	// What it changes, and so what the handler gets.
	tests := []struct {
		name, old, new string
		orderID        int64  // what the handler gets
		err            string // or the error
	}{
		{"an integer beyond 2^53 is rounded", `"order_id":1042`, `"order_id":9007199254740993`, 9007199254740992, ""},
		{"int64's maximum is rounded out of range", `"order_id":1042`, `"order_id":9223372036854775807`, 0,
			"urn:babel:orders:created: babelqueue: invalid data: $.order_id: integer 9223372036854776000 out of int64 range"},
		{"an exponent is written out", `"order_id":1042`, `"order_id":1.042e3`, 1042, ""},
		{"a duplicate key keeps the last value", `"order_id":1042`, `"order_id":1,"order_id":1042`, 1042, ""},
		{"the urn alias becomes job", `"job":"`, `"urn":"`, 1042, ""},
		{"unsupported schema_version", `"schema_version":1`, `"schema_version":2`, 0, "babelqueue: unsupported schema_version: 2 (supported: 1)"},
		{"an absent trace_id is blank", `"trace_id":"` + testTrace + `",`, ``, 0, "babelqueue: malformed envelope: blank trace_id"},
	}
	for _, tt := range tests {
		body := strings.Replace(sampleEnvelope, tt.old, tt.new, 1)
		if body == sampleEnvelope {
			t.Fatalf("%s: %q not in the sample", tt.name, tt.old)
		}
		err := dispatch(body)
		switch {
		case tt.err != "":
			if err == nil || err.Error() != tt.err || len(got) != 0 {
				t.Errorf("%s: DispatchEnvelope = %v, want %s", tt.name, err, tt.err)
			}
		case err != nil || len(got) != 1 || got[0].Data.OrderID != tt.orderID:
			t.Errorf("%s: DispatchEnvelope = %v, handler got %+v; want order_id %d", tt.name, err, got, tt.orderID)
		}
	}

	// Invalid UTF-8, which Dispatch refuses, arrives as U+FFFD.
	body := strings.Replace(sampleEnvelope, `"note":"é<&>"`, "\"note\":\"\xff\"", 1)
	if err := r.Dispatch(context.Background(), []byte(body)); !errors.Is(err, ErrMalformedEnvelope) {
		t.Errorf("Dispatch of invalid UTF-8: %v", err)
	}
	if err := dispatch(body); err != nil || len(got) != 1 || *got[0].Data.Note != "\uFFFD" {
		t.Errorf("DispatchEnvelope of invalid UTF-8: %v %+v", err, got)
	}

	// A dead-lettered envelope keeps its block (the SDK writes lang even when empty).
	dl := strings.TrimSuffix(sampleEnvelope, "}") + `,"dead_letter":{"reason":"failed","error":null,"exception":null,"failed_at":5,"original_queue":"orders","attempts":3}}`
	if err := dispatch(dl); err != nil || len(got) != 1 || got[0].DeadLetter == nil || got[0].DeadLetter.Attempts != 3 || got[0].DeadLetter.Lang != "" {
		t.Errorf("dead letter: %v %+v", err, got)
	}

	if err := r.DispatchEnvelope(context.Background(), failingEnvelope{}); !errors.Is(err, ErrMalformedEnvelope) ||
		err.Error() != "babelqueue: malformed envelope: the envelope does not encode: json: unsupported value: NaN" {
		t.Errorf("an envelope that does not encode: %v", err)
	}
}

// The SDK carries protected values as the strings they are: a Router with the cipher
// reads them under the SDK's App as it reads them from the queue.
func TestDispatchEnvelopeProtected(t *testing.T) {
	t.Parallel()
	env, err := sdkDecode([]byte(piiEnvelope(piiProtectedData)))
	if err != nil {
		t.Fatal(err)
	}
	var got []piiEvent
	r := NewRouter(WithRouterCipher(keyA))
	Handle(r, func(_ context.Context, m Message[piiEvent]) error { got = append(got, m.Data); return nil })
	if err := r.DispatchEnvelope(context.Background(), env); err != nil || len(got) != 1 || !reflect.DeepEqual(got[0], piiData()) {
		t.Fatalf("DispatchEnvelope = %v, handler got %+v", err, got)
	}
}
