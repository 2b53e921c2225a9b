package rt

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/babelqueue/bqgen/internal/emit/golang/rt/bqrt"
)

const (
	testTrace = "11111111-1111-4111-8111-111111111111"
	testID    = "22222222-2222-4222-8222-222222222222"
	testNow   = 1700000000123
)

func ptr[T any](v T) *T { return &v }

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

const sampleDataJSON = `{"order_id":1042,"note":"é<&>","total":{"amount":1299,"currency":"EUR"},"discount":null,` +
	`"lines":[{"sku":"SKU-1","quantity":2}],"tags":{"a":"1","b":"2"},"placed_at":1700000000000,` +
	`"ref":"-9007199254740993","ratio":0.25,"status":"new"}`

const sampleEnvelope = `{"job":"urn:babel:orders:created","trace_id":"` + testTrace + `","data":` + sampleDataJSON +
	`,"meta":{"id":"` + testID + `","queue":"orders","lang":"go","schema_version":1,"created_at":1700000000123},"attempts":0}`

func fixedOpts() []Option {
	return []Option{
		WithTraceID(testTrace),
		WithIDSource(func() string { return testID }),
		WithClock(func() time.Time { return time.UnixMilli(testNow) }),
	}
}

func TestNewMessageEncodeExactBytes(t *testing.T) {
	t.Parallel()
	m, err := newMessage(sampleURN, "orders", sampleData(), fixedOpts())
	if err != nil {
		t.Fatal(err)
	}
	want := &Message[sampleOrder]{
		URN:     sampleURN,
		TraceID: testTrace,
		Data:    sampleData(),
		Meta:    Meta{ID: testID, Queue: "orders", Lang: "go", SchemaVersion: 1, CreatedAt: testNow},
	}
	if !reflect.DeepEqual(m, want) {
		t.Fatalf("newMessage = %+v, want %+v", m, want)
	}
	b, err := m.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != sampleEnvelope {
		t.Fatalf("Encode =\n%s\nwant\n%s", b, sampleEnvelope)
	}
}

var uuidV4 = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

func TestNewMessageDefaults(t *testing.T) {
	t.Parallel()
	before := time.Now().UnixMilli()
	m, err := newMessage(sampleURN, "orders", sampleData(), nil)
	after := time.Now().UnixMilli()
	if err != nil {
		t.Fatal(err)
	}
	if !uuidV4.MatchString(m.TraceID) || !uuidV4.MatchString(m.Meta.ID) || m.TraceID == m.Meta.ID {
		t.Errorf("trace %q, id %q: want two distinct canonical UUID v4", m.TraceID, m.Meta.ID)
	}
	if int64(m.Meta.CreatedAt) < before || int64(m.Meta.CreatedAt) > after {
		t.Errorf("created_at %d not in [%d, %d]", m.Meta.CreatedAt, before, after)
	}
	if m.Meta.Queue != "orders" || m.Meta.Lang != "go" || m.Meta.SchemaVersion != 1 || m.Attempts != 0 || m.DeadLetter != nil {
		t.Errorf("meta = %+v, attempts %d, dead letter %v", m.Meta, m.Attempts, m.DeadLetter)
	}
	m2, err := newMessage(sampleURN, "orders", sampleData(), []Option{WithQueue("other"), WithTraceID(""), WithQueue("")})
	if err != nil {
		t.Fatal(err)
	}
	if m2.Meta.Queue != "orders" || m2.TraceID == m.TraceID || !uuidV4.MatchString(m2.TraceID) {
		t.Errorf("WithQueue(\"\")/WithTraceID(\"\"): queue %q trace %q", m2.Meta.Queue, m2.TraceID)
	}
	m3, err := newMessage(sampleURN, "orders", sampleData(), []Option{WithQueue("priority"), WithTraceID(testTrace)})
	if err != nil {
		t.Fatal(err)
	}
	if m3.Meta.Queue != "priority" || m3.TraceID != testTrace {
		t.Errorf("queue %q trace %q", m3.Meta.Queue, m3.TraceID)
	}
}

func TestNewMessageErrors(t *testing.T) {
	t.Parallel()
	bad := sampleData()
	bad.OrderID = 0
	bad.Total.Currency = "eur"
	bad.Lines = nil
	tests := []struct {
		name   string
		data   sampleOrder
		queue  string
		opts   []Option
		target error
		msg    string
	}{
		{"invalid data", bad, "orders", nil, ErrInvalidData,
			`babelqueue: invalid data: $.order_id: must be at least 1, got 0; $.total.currency: currency "eur" is not three upper-case letters (ISO 4217); $.lines: has 0 items, fewer than the minimum 1`},
		{"no queue", sampleData(), "", nil, ErrMalformedEnvelope,
			"babelqueue: malformed envelope: urn:babel:orders:created: no queue (use WithQueue)"},
		{"blank trace", sampleData(), "orders", []Option{WithTraceID("  ")}, ErrMalformedEnvelope,
			"babelqueue: malformed envelope: blank trace id"},
		{"id equals trace", sampleData(), "orders", []Option{WithTraceID(testTrace), WithIDSource(func() string { return testTrace })}, ErrMalformedEnvelope,
			`babelqueue: malformed envelope: meta.id "` + testTrace + `" must be non-empty and differ from the trace id`},
		{"empty id", sampleData(), "orders", []Option{WithIDSource(func() string { return "" })}, ErrMalformedEnvelope,
			`babelqueue: malformed envelope: meta.id "" must be non-empty and differ from the trace id`},
	}
	for _, tt := range tests {
		m, err := newMessage(sampleURN, tt.queue, tt.data, tt.opts)
		if m != nil || !errors.Is(err, tt.target) || err.Error() != tt.msg {
			t.Errorf("%s: newMessage = %v, %v; want %v", tt.name, m, err, tt.msg)
		}
	}
}

func TestEncodeErrors(t *testing.T) {
	t.Parallel()
	base := func() *Message[sampleOrder] {
		m, err := newMessage(sampleURN, "orders", sampleData(), fixedOpts())
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	tests := []struct {
		name   string
		mutate func(m *Message[sampleOrder])
		target error
		msg    string
	}{
		{"invalid data", func(m *Message[sampleOrder]) { m.Data.Lines[0].Quantity = 0; m.Data.Note = ptr("123456") }, ErrInvalidData,
			"babelqueue: invalid data: $.note: length 6 is greater than the maximum 5 (code points); $.lines[0].quantity: must be at least 1, got 0"},
		{"empty urn", func(m *Message[sampleOrder]) { m.URN = "" }, ErrMalformedEnvelope, "babelqueue: malformed envelope: empty URN"},
		{"blank trace", func(m *Message[sampleOrder]) { m.TraceID = " \t" }, ErrMalformedEnvelope, "babelqueue: malformed envelope: blank trace_id"},
		{"schema version", func(m *Message[sampleOrder]) { m.Meta.SchemaVersion = 2 }, ErrUnsupportedSchemaVersion, "babelqueue: unsupported schema_version: 2"},
		{"negative attempts", func(m *Message[sampleOrder]) { m.Attempts = -1 }, ErrMalformedEnvelope, "babelqueue: malformed envelope: negative attempts -1"},
		{"negative dl attempts", func(m *Message[sampleOrder]) { m.DeadLetter = &DeadLetter{Attempts: -2} }, ErrMalformedEnvelope,
			"babelqueue: malformed envelope: negative dead_letter.attempts -2"},
	}
	for _, tt := range tests {
		m := base()
		tt.mutate(m)
		b, err := m.Encode()
		if b != nil || !errors.Is(err, tt.target) || err.Error() != tt.msg {
			t.Errorf("%s: Encode = %s, %v; want %s", tt.name, b, err, tt.msg)
		}
	}
}

const deadLetterBlock = `,"dead_letter":{"reason":"failed","error":"boom \"x\"","exception":null,"failed_at":1700000009999,"original_queue":"orders","attempts":3,"lang":"go"}}`

func deadLettered(t *testing.T) *Message[sampleOrder] {
	t.Helper()
	m, err := newMessage(sampleURN, "orders", sampleData(), fixedOpts())
	if err != nil {
		t.Fatal(err)
	}
	m.Attempts = 3
	m.DeadLetter = &DeadLetter{Reason: ReasonFailed, Error: ptr(`boom "x"`), FailedAt: 1700000009999, OriginalQueue: "orders", Attempts: 3, Lang: "go"}
	return m
}

func TestEncodeDeadLetter(t *testing.T) {
	t.Parallel()
	m := deadLettered(t)
	b, err := m.Encode()
	if err != nil {
		t.Fatal(err)
	}
	want := strings.TrimSuffix(strings.Replace(sampleEnvelope, `"attempts":0}`, `"attempts":3}`, 1), "}") + deadLetterBlock
	if string(b) != want {
		t.Fatalf("Encode =\n%s\nwant\n%s", b, want)
	}
	m.DeadLetter = &DeadLetter{Reason: ReasonPoison, Exception: ptr("E"), OriginalQueue: "q"}
	b, err = m.Encode()
	if err != nil {
		t.Fatal(err)
	}
	wantTail := `"attempts":3,"dead_letter":{"reason":"poison","error":null,"exception":"E","failed_at":0,"original_queue":"q","attempts":0}}`
	if !strings.HasSuffix(string(b), wantTail) {
		t.Fatalf("Encode = %s, want suffix %s", b, wantTail)
	}
}

func TestDecodeMessageProducedEnvelope(t *testing.T) {
	t.Parallel()
	m, err := decodeMessage[sampleOrder]([]byte(sampleEnvelope), sampleURN)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := newMessage(sampleURN, "orders", sampleData(), fixedOpts())
	if !reflect.DeepEqual(m, want) {
		t.Fatalf("decodeMessage =\n%+v\nwant\n%+v", m, want)
	}
}

func TestDecodeMessageAccepts(t *testing.T) {
	t.Parallel()
	data := `{"order_id":1.0,"total":{"currency":"USD","amount":5},"discount":7,"lines":[{"quantity":1e0,"sku":"A"}],"placed_at":-1,"status":"paid"}`
	wantData := sampleOrder{OrderID: 1, Total: Money{5, "USD"}, Discount: NullableOf(int64(7)),
		Lines: []sampleLine{{"A", 1}}, PlacedAt: -1, Status: sampleStatusPaid}
	tests := []struct {
		name string
		body string
		want Message[sampleOrder]
	}{
		{"urn alias, minimal meta", `{"urn":"` + sampleURN + `","trace_id":"t","data":` + data + `,"meta":{"schema_version":1}}`,
			Message[sampleOrder]{URN: sampleURN, TraceID: "t", Data: wantData, Meta: Meta{SchemaVersion: 1}}},
		{"job wins over urn", `{"urn":"urn:babel:x:y","job":"` + sampleURN + `","trace_id":"t","data":` + data + `,"meta":{"schema_version":1}}`,
			Message[sampleOrder]{URN: sampleURN, TraceID: "t", Data: wantData, Meta: Meta{SchemaVersion: 1}}},
		// An empty or null job is absent, as the Go and Python SDKs read it (docs/decisions.md).
		{"job empty, urn set", `{"job":"","urn":"` + sampleURN + `","trace_id":"t","data":` + data + `,"meta":{"schema_version":1}}`,
			Message[sampleOrder]{URN: sampleURN, TraceID: "t", Data: wantData, Meta: Meta{SchemaVersion: 1}}},
		{"job null, urn set", `{"job":null,"urn":"` + sampleURN + `","trace_id":"t","data":` + data + `,"meta":{"schema_version":1}}`,
			Message[sampleOrder]{URN: sampleURN, TraceID: "t", Data: wantData, Meta: Meta{SchemaVersion: 1}}},
		{"urn before a null job", `{"urn":"` + sampleURN + `","job":null,"trace_id":"t","data":` + data + `,"meta":{"schema_version":1}}`,
			Message[sampleOrder]{URN: sampleURN, TraceID: "t", Data: wantData, Meta: Meta{SchemaVersion: 1}}},
		{"schema_version 1.0, attempts 2e0, whitespace, any key order", "\n { \"meta\" : {\"created_at\":5, \"lang\":\"php\",\"schema_version\":1.0,\"queue\":\"q\",\"id\":\"i\"},\n" +
			`"attempts":2e0, "data":` + data + `, "trace_id":"t", "job":"` + sampleURN + `" } `,
			Message[sampleOrder]{URN: sampleURN, TraceID: "t", Data: wantData, Attempts: 2, Meta: Meta{ID: "i", Queue: "q", Lang: "php", SchemaVersion: 1, CreatedAt: 5}}},
		{"unknown keys at every level", `{"job":"` + sampleURN + `","trace_id":"t","data":` + data +
			`,"meta":{"schema_version":1,"region":"eu","x":{"y":[1]}},"attempts":0,"priority":5,"headers":{"a":"b"},` +
			`"dead_letter":{"reason":"unknown_urn","failed_at":1,"original_queue":"q","attempts":0,"host":"h","error":null}}`,
			Message[sampleOrder]{URN: sampleURN, TraceID: "t", Data: wantData, Meta: Meta{SchemaVersion: 1},
				DeadLetter: &DeadLetter{Reason: ReasonUnknownURN, FailedAt: 1, OriginalQueue: "q"}}},
		{"dead letter from php", `{"job":"` + sampleURN + `","trace_id":"t","data":` + data + `,"meta":{"schema_version":1},"attempts":5,` +
			`"dead_letter":{"reason":"failed","error":"Timeout","exception":"RuntimeException","failed_at":1700000000000,"original_queue":"orders","attempts":5,"lang":"php"}}`,
			Message[sampleOrder]{URN: sampleURN, TraceID: "t", Data: wantData, Meta: Meta{SchemaVersion: 1}, Attempts: 5,
				DeadLetter: &DeadLetter{Reason: ReasonFailed, Error: ptr("Timeout"), Exception: ptr("RuntimeException"),
					FailedAt: 1700000000000, OriginalQueue: "orders", Attempts: 5, Lang: "php"}}},
	}
	for _, tt := range tests {
		m, err := decodeMessage[sampleOrder]([]byte(tt.body), sampleURN)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if !reflect.DeepEqual(*m, tt.want) {
			t.Errorf("%s:\ngot  %+v\nwant %+v", tt.name, *m, tt.want)
		}
	}
}

// envelopeWith returns the sample envelope with one top-level part replaced.
func envelopeWith(old, new string) string {
	if !strings.Contains(sampleEnvelope, old) {
		panic("no " + old)
	}
	return strings.Replace(sampleEnvelope, old, new, 1)
}

func TestDecodeMessageRejects(t *testing.T) {
	t.Parallel()
	metaOK := `"meta":{"id":"` + testID + `","queue":"orders","lang":"go","schema_version":1,"created_at":1700000000123}`
	dataOK := `"data":` + sampleDataJSON
	tests := []struct {
		name   string
		body   string
		target error
		msg    string
	}{
		{"not json", `{`, ErrMalformedEnvelope, "babelqueue: malformed envelope: at byte 1: unexpected end of input, expected a string key"},
		{"invalid utf8", envelopeWith(`"é<&>"`, "\"\xe9<&>\""), ErrMalformedEnvelope, "invalid UTF-8 in string"},
		{"lone surrogate", envelopeWith(`"é<&>"`, `"\udead"`), ErrMalformedEnvelope, `unpaired surrogate escape`},
		{"duplicate key", envelopeWith(`"attempts":0`, `"attempts":0,"attempts":1`), ErrMalformedEnvelope, `duplicate object key`},
		{"overflow in data", envelopeWith(`"ratio":0.25`, `"ratio":1e400`), ErrMalformedEnvelope, "number overflows a float64"},
		{"array body", `[]`, ErrMalformedEnvelope, "babelqueue: malformed envelope: body must be a JSON object, got array"},
		{"no meta", envelopeWith(metaOK+",", ""), ErrMalformedEnvelope, "babelqueue: malformed envelope: missing meta"},
		{"meta array", envelopeWith(metaOK, `"meta":[]`), ErrMalformedEnvelope, "babelqueue: malformed envelope: meta must be an object, got array"},
		{"no schema_version", envelopeWith(`,"schema_version":1`, ""), ErrMalformedEnvelope, "babelqueue: malformed envelope: missing meta.schema_version"},
		{"schema_version string", envelopeWith(`"schema_version":1`, `"schema_version":"1"`), ErrMalformedEnvelope,
			"babelqueue: malformed envelope: meta.schema_version must be an integer, got string"},
		{"schema_version 1.5", envelopeWith(`"schema_version":1`, `"schema_version":1.5`), ErrMalformedEnvelope,
			"babelqueue: malformed envelope: meta.schema_version must be an integer, got 1.5"},
		{"schema_version 2", envelopeWith(`"schema_version":1`, `"schema_version":2`), ErrUnsupportedSchemaVersion,
			"babelqueue: unsupported schema_version: 2 (supported: 1)"},
		{"schema_version 2 wins over other faults", `{"meta":{"schema_version":2},"data":[]}`, ErrUnsupportedSchemaVersion,
			"babelqueue: unsupported schema_version: 2 (supported: 1)"},
		{"schema_version 0", envelopeWith(`"schema_version":1`, `"schema_version":0`), ErrUnsupportedSchemaVersion,
			"babelqueue: unsupported schema_version: 0 (supported: 1)"},
		{"schema_version huge", envelopeWith(`"schema_version":1`, `"schema_version":1e30`), ErrUnsupportedSchemaVersion,
			"babelqueue: unsupported schema_version: 1e30 (supported: 1)"},
		{"neither job nor urn", envelopeWith(`"job":"`+sampleURN+`",`, ""), ErrMalformedEnvelope,
			"babelqueue: malformed envelope: no identity: neither job nor urn"},
		{"job number", envelopeWith(`"job":"`+sampleURN+`"`, `"job":1`), ErrMalformedEnvelope, "babelqueue: malformed envelope: job must be a string, got number"},
		{"job null", envelopeWith(`"job":"`+sampleURN+`"`, `"job":null`), ErrMalformedEnvelope, "babelqueue: malformed envelope: no identity: job and urn are absent, null or empty"},
		{"job empty", envelopeWith(`"job":"`+sampleURN+`"`, `"job":""`), ErrMalformedEnvelope, "babelqueue: malformed envelope: no identity: job and urn are absent, null or empty"},
		{"urn empty", envelopeWith(`"job":"`+sampleURN+`"`, `"urn":""`), ErrMalformedEnvelope, "babelqueue: malformed envelope: no identity: job and urn are absent, null or empty"},
		{"job empty, urn null", envelopeWith(`"job":"`+sampleURN+`"`, `"job":"","urn":null`), ErrMalformedEnvelope, "babelqueue: malformed envelope: no identity: job and urn are absent, null or empty"},
		{"job null, urn number", envelopeWith(`"job":"`+sampleURN+`"`, `"job":null,"urn":7`), ErrMalformedEnvelope, "babelqueue: malformed envelope: urn must be a string, got number"},
		{"no trace_id", envelopeWith(`"trace_id":"`+testTrace+`",`, ""), ErrMalformedEnvelope, "babelqueue: malformed envelope: missing trace_id"},
		{"blank trace_id", envelopeWith(`"trace_id":"`+testTrace+`"`, `"trace_id":" \n"`), ErrMalformedEnvelope, "babelqueue: malformed envelope: blank trace_id"},
		{"empty trace_id", envelopeWith(`"trace_id":"`+testTrace+`"`, `"trace_id":""`), ErrMalformedEnvelope, "babelqueue: malformed envelope: blank trace_id"},
		{"trace_id number", envelopeWith(`"trace_id":"`+testTrace+`"`, `"trace_id":7`), ErrMalformedEnvelope, "babelqueue: malformed envelope: trace_id must be a string, got number"},
		{"data missing", envelopeWith(dataOK+",", ""), ErrMalformedEnvelope, "babelqueue: malformed envelope: missing data"},
		{"data array", envelopeWith(dataOK, `"data":[]`), ErrMalformedEnvelope, "babelqueue: malformed envelope: data must be an object, got array"},
		{"data null", envelopeWith(dataOK, `"data":null`), ErrMalformedEnvelope, "babelqueue: malformed envelope: data must be an object, got null"},
		{"data string", envelopeWith(dataOK, `"data":"{}"`), ErrMalformedEnvelope, "babelqueue: malformed envelope: data must be an object, got string"},
		{"attempts -1", envelopeWith(`"attempts":0`, `"attempts":-1`), ErrMalformedEnvelope, "babelqueue: malformed envelope: attempts must be >= 0, got -1"},
		{"attempts 1.5", envelopeWith(`"attempts":0`, `"attempts":1.5`), ErrMalformedEnvelope, "babelqueue: malformed envelope: attempts must be an integer, got 1.5"},
		{"attempts string", envelopeWith(`"attempts":0`, `"attempts":"0"`), ErrMalformedEnvelope, "babelqueue: malformed envelope: attempts must be an integer, got string"},
		{"attempts huge", envelopeWith(`"attempts":0`, `"attempts":1e19`), ErrMalformedEnvelope, "babelqueue: malformed envelope: attempts 1e19 out of range"},
		{"meta.id number", envelopeWith(`"id":"`+testID+`"`, `"id":5`), ErrMalformedEnvelope, "babelqueue: malformed envelope: meta.id must be a string, got number"},
		{"meta.queue null", envelopeWith(`"queue":"orders"`, `"queue":null`), ErrMalformedEnvelope, "babelqueue: malformed envelope: meta.queue must be a string, got null"},
		{"meta.created_at string", envelopeWith(`"created_at":1700000000123`, `"created_at":"1700000000123"`), ErrMalformedEnvelope,
			"babelqueue: malformed envelope: meta.created_at must be an integer, got string"},
		{"meta.created_at seconds float", envelopeWith(`"created_at":1700000000123`, `"created_at":1700000000.5`), ErrMalformedEnvelope,
			"babelqueue: malformed envelope: meta.created_at must be an integer, got 1700000000.5"},
		{"dead_letter string", envelopeWith(`"attempts":0`, `"attempts":0,"dead_letter":"x"`), ErrMalformedEnvelope,
			"babelqueue: malformed envelope: dead_letter must be an object, got string"},
		{"dead_letter missing reason", envelopeWith(`"attempts":0`, `"attempts":0,"dead_letter":{"failed_at":1,"original_queue":"q","attempts":0}`), ErrMalformedEnvelope,
			"babelqueue: malformed envelope: missing dead_letter.reason"},
		{"dead_letter error number", envelopeWith(`"attempts":0`, `"attempts":0,"dead_letter":{"reason":"failed","error":1,"failed_at":1,"original_queue":"q","attempts":0}`), ErrMalformedEnvelope,
			"babelqueue: malformed envelope: dead_letter.error must be a string, got number"},
		{"dead_letter attempts -1", envelopeWith(`"attempts":0`, `"attempts":0,"dead_letter":{"reason":"failed","failed_at":1,"original_queue":"q","attempts":-1}`), ErrMalformedEnvelope,
			"babelqueue: malformed envelope: dead_letter.attempts must be >= 0, got -1"},
		{"other urn", envelopeWith(`"job":"`+sampleURN+`"`, `"job":"`+otherURN+`"`), ErrUnknownURN,
			`babelqueue: unknown URN: got "urn:babel:users:renamed", want "urn:babel:orders:created"`},
	}
	for _, tt := range tests {
		m, err := decodeMessage[sampleOrder]([]byte(tt.body), sampleURN)
		if m != nil || !errors.Is(err, tt.target) || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("%s: decodeMessage = %v, %v; want %v containing %q", tt.name, m, err, tt.target, tt.msg)
		}
		if tt.target != ErrInvalidData && errors.Is(err, ErrInvalidData) {
			t.Errorf("%s: %v also matches ErrInvalidData", tt.name, err)
		}
	}
}

func TestDecodeMessageInvalidData(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		data string
		want ValidationErrors
	}{
		{"decode errors in document order", `{"order_id":"1","note":null,"total":{"amount":1},"lines":[{"sku":"A","quantity":1.5,"x":1},3],` +
			`"placed_at":1,"ref":"01","ratio":"x","status":"new","customer":5,"weird key":1}`,
			ValidationErrors{
				{Path: "$.order_id", Message: "expected integer, got string"},
				{Path: "$.note", Message: "expected string, got null"},
				{Path: "$.total.currency", Message: "required property missing"},
				{Path: "$.lines[0].quantity", Message: "expected integer, got number 1.5"},
				{Path: "$.lines[0].x", Message: "additional property not allowed"},
				{Path: "$.lines[1]", Message: "expected object, got number"},
				{Path: "$.ref", Message: `expected an integer in canonical decimal form within int64, got "01"`},
				{Path: "$.ratio", Message: "expected number, got string"},
				{Path: "$.customer", Message: "expected string, got number"},
				{Path: `$["weird key"]`, Message: "additional property not allowed"},
				{Path: "$.discount", Message: "required property missing"},
			}},
		{"missing required even when zero value valid", `{"total":{"amount":1,"currency":"EUR"},"discount":null,"lines":[{"sku":"A","quantity":1}],"placed_at":1}`,
			ValidationErrors{{Path: "$.order_id", Message: "required property missing"}, {Path: "$.status", Message: "required property missing"}}},
		{"validation after a clean decode", `{"order_id":1,"total":{"amount":1,"currency":"EUR"},"discount":null,` +
			`"lines":[{"sku":"a","quantity":1},{"sku":"a","quantity":1}],"placed_at":8640000000000001,"status":"void","customer":"X","email":"nope"}`,
			ValidationErrors{
				{Path: "$.lines", Message: "items at index 0 and 1 are equal"},
				{Path: "$.lines[0].sku", Message: `does not match pattern "^[A-Z0-9-]+$"`},
				{Path: "$.lines[1].sku", Message: `does not match pattern "^[A-Z0-9-]+$"`},
				{Path: "$.placed_at", Message: "timestamp 8640000000000001 ms outside ±8640000000000000"},
				{Path: "$.email", Message: `is not a valid "email": missing @`},
				{Path: "$.status", Message: `value "void" is not one of the enum values "new", "paid"`},
				{Path: "$.customer", Message: `"X" is not a canonical lowercase UUID`},
			}},
	}
	for _, tt := range tests {
		body := envelopeWith(`"data":`+sampleDataJSON, `"data":`+tt.data)
		m, err := decodeMessage[sampleOrder]([]byte(body), sampleURN)
		var got ValidationErrors
		if m != nil || !errors.As(err, &got) || !errors.Is(err, ErrInvalidData) || errors.Is(err, ErrMalformedEnvelope) {
			t.Errorf("%s: decodeMessage = %v, %v", tt.name, m, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s:\ngot  %v\nwant %v", tt.name, got, tt.want)
		}
	}
}

func TestRoundTripByteIdentical(t *testing.T) {
	t.Parallel()
	dl := deadLettered(t)
	dlBody, err := dl.Encode()
	if err != nil {
		t.Fatal(err)
	}
	withNulls := sampleData()
	withNulls.Discount = NullableOf(int64(0))
	withNulls.Note = ptr("")
	withNulls.Ratio = ptr(math.Copysign(0, -1))
	withNulls.Tags = map[string]string{}
	withNulls.Customer = ptr(UUID("0f8fad5b-d9cb-469f-a165-70867728950e"))
	withNulls.Email = ptr("a@b.co")
	mn, err := newMessage(sampleURN, "orders", withNulls, fixedOpts())
	if err != nil {
		t.Fatal(err)
	}
	nBody, err := mn.Encode()
	if err != nil {
		t.Fatal(err)
	}
	for _, body := range []string{sampleEnvelope, string(dlBody), string(nBody)} {
		m, err := decodeMessage[sampleOrder]([]byte(body), sampleURN)
		if err != nil {
			t.Fatalf("decode %s: %v", body, err)
		}
		again, err := m.Encode()
		if err != nil {
			t.Fatal(err)
		}
		if string(again) != body {
			t.Errorf("round trip:\n%s\nbecame\n%s", body, again)
		}
	}
	if !strings.Contains(string(nBody), `"ratio":-0,`) {
		t.Errorf("-0 not kept: %s", nBody)
	}
	if !strings.Contains(string(nBody), `"note":"","total"`) || !strings.Contains(string(nBody), `"discount":0,`) || !strings.Contains(string(nBody), `"tags":{},`) {
		t.Errorf("zero values not kept: %s", nBody)
	}
}

func TestDecodeData(t *testing.T) {
	t.Parallel()
	var got sampleOrder
	if err := decodeData([]byte(" "+sampleDataJSON+"\n"), &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, sampleData()) {
		t.Fatalf("decodeData = %+v", got)
	}
	tests := []struct {
		in   string
		want ValidationErrors
	}{
		{`{"order_id":1,`, ValidationErrors{{Path: "$", Message: "malformed JSON at byte 14: unexpected end of input, expected a string key"}}},
		{`[]`, ValidationErrors{{Path: "$", Message: "expected object, got array"}}},
		{`{"a":1,"a":1}`, ValidationErrors{{Path: "$", Message: `malformed JSON at byte 7: duplicate object key`}}},
		{`{"order_id":0,"total":{"amount":1,"currency":"EUR"},"discount":null,"lines":[{"sku":"A","quantity":1}],"placed_at":1,"status":"new"}`,
			ValidationErrors{{Path: "$.order_id", Message: "must be at least 1, got 0"}}},
	}
	for _, tt := range tests {
		dst := sampleData()
		err := decodeData([]byte(tt.in), &dst)
		var ve ValidationErrors
		if !errors.As(err, &ve) || !errors.Is(err, ErrInvalidData) || !reflect.DeepEqual(ve, tt.want) {
			t.Errorf("decodeData(%s) = %v, want %v", tt.in, err, tt.want)
		}
		if !reflect.DeepEqual(dst, sampleData()) {
			t.Errorf("decodeData(%s) modified dst on error", tt.in)
		}
	}
}

type fakePublisher struct {
	mu     sync.Mutex
	queue  string
	body   string
	err    error
	called int
}

func (p *fakePublisher) Publish(_ context.Context, queue, body string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.called++
	p.queue, p.body = queue, body
	return p.err
}

func TestPublish(t *testing.T) {
	t.Parallel()
	m, _ := newMessage(sampleURN, "orders", sampleData(), append(fixedOpts(), WithQueue("orders.eu")))
	p := &fakePublisher{}
	id, err := publish(context.Background(), p, m)
	wantBody := strings.Replace(sampleEnvelope, `"queue":"orders"`, `"queue":"orders.eu"`, 1)
	if err != nil || id != testID || p.queue != "orders.eu" || p.body != wantBody || p.called != 1 {
		t.Fatalf("publish = %q, %v; queue %q body %s", id, err, p.queue, p.body)
	}
	boom := errors.New("broker down")
	p = &fakePublisher{err: boom}
	id, err = publish(context.Background(), p, m)
	if id != "" || !errors.Is(err, boom) || err.Error() != `publish urn:babel:orders:created to "orders.eu": broker down` {
		t.Fatalf("publish error = %q, %v", id, err)
	}
	m.Data.OrderID = -1
	p = &fakePublisher{}
	id, err = publish(context.Background(), p, m)
	if id != "" || !errors.Is(err, ErrInvalidData) || p.called != 0 {
		t.Fatalf("publish invalid = %q, %v, called %d", id, err, p.called)
	}
}

func TestRouterDispatch(t *testing.T) {
	t.Parallel()
	r := NewRouter()
	var got []Message[sampleOrder]
	handlerErr := errors.New("db down")
	fail := false
	handle(r, sampleURN, func(context.Context, Message[sampleOrder]) error {
		t.Error("replaced handler called")
		return nil
	})
	handle(r, sampleURN, func(_ context.Context, m Message[sampleOrder]) error {
		got = append(got, m)
		if fail {
			return handlerErr
		}
		return nil
	})
	var other []string
	handle(r, otherURN, func(_ context.Context, m Message[otherEvent]) error {
		other = append(other, m.Data.Name)
		return nil
	})

	if err := r.Dispatch(context.Background(), []byte(sampleEnvelope)); err != nil {
		t.Fatal(err)
	}
	want, _ := newMessage(sampleURN, "orders", sampleData(), fixedOpts())
	if len(got) != 1 || !reflect.DeepEqual(got[0], *want) {
		t.Fatalf("handler got %+v", got)
	}
	otherBody := `{"urn":"` + otherURN + `","trace_id":"t","data":{"name":"Ada"},"meta":{"schema_version":1}}`
	if err := r.Dispatch(context.Background(), []byte(otherBody)); err != nil || !reflect.DeepEqual(other, []string{"Ada"}) {
		t.Fatalf("other: %v %v", err, other)
	}

	tests := []struct {
		name   string
		body   string
		fail   bool
		target error
		msg    string
		reason DeadLetterReason
	}{
		{"unknown urn", envelopeWith(`"job":"`+sampleURN+`"`, `"job":"urn:babel:billing:invoice.paid"`), false, ErrUnknownURN,
			`babelqueue: unknown URN: no handler for "urn:babel:billing:invoice.paid"`, ReasonUnknownURN},
		{"malformed", `{"job":`, false, ErrMalformedEnvelope,
			"babelqueue: malformed envelope: at byte 7: unexpected end of input, expected a value", ReasonPoison},
		{"unsupported", envelopeWith(`"schema_version":1`, `"schema_version":2`), false, ErrUnsupportedSchemaVersion,
			"babelqueue: unsupported schema_version: 2 (supported: 1)", ReasonPoison},
		{"invalid data", envelopeWith(`"order_id":1042`, `"order_id":1042.5`), false, ErrInvalidData,
			"urn:babel:orders:created: babelqueue: invalid data: $.order_id: expected integer, got number 1042.5", ReasonPoison},
		{"unknown data key", otherBody[:len(otherBody)-len(`"Ada"},"meta":{"schema_version":1}}`)] + `"Ada","age":3},"meta":{"schema_version":1}}`, false, ErrInvalidData,
			"urn:babel:users:renamed: babelqueue: invalid data: $.age: additional property not allowed", ReasonPoison},
		{"handler error", sampleEnvelope, true, handlerErr, "urn:babel:orders:created: db down", ReasonFailed},
	}
	for _, tt := range tests {
		fail = tt.fail
		err := r.Dispatch(context.Background(), []byte(tt.body))
		if !errors.Is(err, tt.target) || err.Error() != tt.msg {
			t.Errorf("%s: Dispatch = %v, want %q", tt.name, err, tt.msg)
		}
		if got := DeadLetterReasonOf(err); got != tt.reason {
			t.Errorf("%s: DeadLetterReasonOf = %q, want %q", tt.name, got, tt.reason)
		}
	}
	if len(got) != 2 {
		t.Errorf("handler calls = %d, want 2", len(got))
	}
}

func TestRouterZeroValueAndConcurrency(t *testing.T) {
	t.Parallel()
	var r Router
	var mu sync.Mutex
	n := 0
	handle(&r, sampleURN, func(context.Context, Message[sampleOrder]) error {
		mu.Lock()
		n++
		mu.Unlock()
		return nil
	})
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := r.Dispatch(context.Background(), []byte(sampleEnvelope)); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if n != 8 {
		t.Errorf("calls = %d, want 8", n)
	}
	if err := NewRouter().Dispatch(context.Background(), []byte(sampleEnvelope)); !errors.Is(err, ErrUnknownURN) {
		t.Errorf("empty router: %v", err)
	}
}

// notPayload is a data type that is not a generated message.
type notPayload struct{ X int }

func TestNotAPayload(t *testing.T) {
	t.Parallel()
	m := &Message[notPayload]{URN: "u", TraceID: "t", Meta: Meta{SchemaVersion: 1}}
	const want = "babelqueue: *rt.notPayload is not a generated message type"
	if _, err := m.Encode(); err == nil || err.Error() != want {
		t.Errorf("Encode = %v", err)
	}
	if _, err := newMessage("u", "q", notPayload{}, nil); err == nil || err.Error() != want {
		t.Errorf("newMessage = %v", err)
	}
	var dst notPayload
	if err := decodeData([]byte(`{}`), &dst); err == nil || err.Error() != want {
		t.Errorf("decodeData = %v", err)
	}
	if _, err := publish[sampleOrder](context.Background(), nil, &Message[sampleOrder]{}); err == nil {
		t.Error("publish with invalid message: no error")
	}
	m2, _ := newMessage(sampleURN, "orders", sampleData(), fixedOpts())
	if _, err := publish(context.Background(), nil, m2); err == nil || err.Error() != "babelqueue: nil Publisher" {
		t.Errorf("publish(nil) = %v", err)
	}
}

func TestDeadLetterReasonOf(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err  error
		want DeadLetterReason
	}{
		{nil, ""},
		{ErrUnknownURN, ReasonUnknownURN},
		{fmt.Errorf("x: %w", ErrUnknownURN), ReasonUnknownURN},
		{ErrMalformedEnvelope, ReasonPoison},
		{ErrUnsupportedSchemaVersion, ReasonPoison},
		{ErrInvalidData, ReasonPoison},
		{ValidationErrors{{Path: "$", Message: "x"}}, ReasonPoison},
		{fmt.Errorf("u: %w", ValidationErrors{{Path: "$", Message: "x"}}), ReasonPoison},
		{errors.New("timeout"), ReasonFailed},
		{context.Canceled, ReasonFailed},
	}
	for _, tt := range tests {
		if got := DeadLetterReasonOf(tt.err); got != tt.want {
			t.Errorf("DeadLetterReasonOf(%v) = %q, want %q", tt.err, got, tt.want)
		}
	}
}

func TestTimestampNullableUUIDv4(t *testing.T) {
	t.Parallel()
	tm := time.Date(2024, 2, 29, 12, 34, 56, 789_999_999, time.FixedZone("X", 3600))
	ts := TimestampOf(tm)
	if ts != 1709206496789 {
		t.Errorf("TimestampOf = %d", ts)
	}
	if got := ts.Time(); !got.Equal(time.Date(2024, 2, 29, 11, 34, 56, 789_000_000, time.UTC)) || got.Location() != time.UTC {
		t.Errorf("Time() = %v", got)
	}
	if got := Timestamp(-1).Time(); !got.Equal(time.Date(1969, 12, 31, 23, 59, 59, 999_000_000, time.UTC)) {
		t.Errorf("Time(-1) = %v", got)
	}
	if n := NullableOf("x"); n != (Nullable[string]{Value: "x", Valid: true}) {
		t.Errorf("NullableOf = %+v", n)
	}
	seen := map[string]bool{}
	for i := 0; i < 100; i++ {
		u := bqrt.NewUUID()
		if !uuidV4.MatchString(u) || seen[u] {
			t.Fatalf("NewUUID = %q", u)
		}
		seen[u] = true
	}
}

func TestUserHelpers(t *testing.T) {
	t.Parallel()
	if got := Timestamp(1796040000123).String(); got != "2026-11-30T12:00:00.123Z" {
		t.Errorf("Timestamp.String = %q", got)
	}
	p := Ptr(NullableOf("x"))
	if !p.Valid || p.Value != "x" {
		t.Errorf("Ptr(NullableOf) = %+v", *p)
	}
	// Typed pointers for integer fields: an untyped constant makes no *int.
	var i64 *int64 = Int64Ptr(3100)
	var i32 *int32 = Int32Ptr(-7)
	if *i64 != 3100 || *i32 != -7 {
		t.Errorf("Int64Ptr, Int32Ptr = %d, %d", *i64, *i32)
	}
	a, b := NewUUID(), NewUUID()
	if !isCanonicalUUID(string(a)) || a == b || a[14] != '4' {
		t.Errorf("NewUUID = %q, %q", a, b)
	}
}

// TestDispatchRecoversHandlerPanic: a handler's panic comes back from Dispatch as a
// *PanicError wrapped with the URN (ErrHandlerPanic, dead-letter reason failed), with
// the value and a stack that names the handler; the Router keeps working.
func TestDispatchRecoversHandlerPanic(t *testing.T) {
	t.Parallel()
	r := NewRouter()
	calls := 0
	Handle(r, func(context.Context, Message[sampleOrder]) error {
		calls++
		if calls == 1 {
			var m map[string]int
			m["x"] = 1 // a nil map: a runtime panic
		}
		return nil
	})
	err := r.Dispatch(context.Background(), []byte(sampleEnvelope))
	var pe *PanicError
	if !errors.As(err, &pe) || !errors.Is(err, ErrHandlerPanic) || DeadLetterReasonOf(err) != ReasonFailed {
		t.Fatalf("Dispatch = %v (%T), want a *PanicError, reason failed", err, err)
	}
	if want := sampleURN + ": babelqueue: handler panicked: assignment to entry in nil map"; err.Error() != want {
		t.Errorf("error = %q, want %q", err, want)
	}
	if !strings.Contains(string(pe.Stack), "TestDispatchRecoversHandlerPanic") {
		t.Errorf("stack does not name the handler:\n%s", pe.Stack)
	}
	if err := r.Dispatch(context.Background(), []byte(sampleEnvelope)); err != nil || calls != 2 {
		t.Errorf("second Dispatch = %v, calls %d", err, calls)
	}
}
