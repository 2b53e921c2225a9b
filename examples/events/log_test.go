// This file is hand-written (it has no generated-code header, so bqgen generate
// leaves it alone): logging messages with x-gdpr-sensitive fields through log/slog
// and fmt never prints a sensitive value (docs/generated-code.md, "Logging personal
// data").

package events_test

import (
	"bytes"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/babelqueue/bqgen/examples/events"
	"github.com/babelqueue/bqgen/examples/events/billing"
	"github.com/babelqueue/bqgen/examples/events/orders"
)

// piiOrder is an orders:created.v2 whose sensitive values (Customer.email,
// Address.line1/line2/postal_code); line1 starts with a multi-byte character.
func piiOrder() orders.CreatedV2 {
	ch := events.ChannelWeb
	line2 := "Hinterhaus"
	postal := "10115"
	note := events.NullableOf("Leave at the door")
	return orders.CreatedV2{
		OrderID:  1042,
		Customer: events.Customer{CustomerID: "0b6f2a9e-3c1d-4e5f-8a7b-9c0d1e2f3a4b", Email: "ada.lovelace@example.com", DisplayName: &events.Nullable[string]{}},
		Total:    events.Money{Amount: 2598, Currency: "EUR"},
		PlacedAt: 1796040000000,
		Shipping: &events.Address{Line1: "Ölmühle 3", Line2: &line2, City: "Berlin", PostalCode: &postal, Country: "DE"},
		Billing:  &events.Nullable[events.Address]{},
		Channel:  &ch,
		Lines:    []orders.CreatedV2LinesItem{{Sku: "BOOK-123", Quantity: 2, UnitPrice: events.Money{Amount: 1299, Currency: "EUR"}}},
		Tags:     map[string]string{"source": "newsletter"},
		Note:     &note,
	}
}

// piiSecrets are the sensitive values of piiOrder and piiPayment past their first
// character.
var piiSecrets = []string{"lovelace", "example.com", "Ölmühle", "lmühle", "Hinterhaus", "interhaus", "10115", "0115", "4242", "242"}

func assertNoPII(t *testing.T, what, s string) {
	t.Helper()
	for _, sec := range piiSecrets {
		if strings.Contains(s, sec) {
			t.Errorf("%s prints the sensitive %q:\n%s", what, sec, s)
		}
	}
}

// piiData is the redacted rendering of piiOrder: String() and the "data" of the
// JSON handler's output are this exact text.
const piiData = `{"order_id":1042,"customer":{"customer_id":"0b6f2a9e-3c1d-4e5f-8a7b-9c0d1e2f3a4b",` +
	`"email":"a***","display_name":null},"total":{"amount":2598,"currency":"EUR"},"placed_at":1796040000000,` +
	`"shipping":{"line1":"Ö***","line2":"H***","city":"Berlin","postal_code":"1***","country":"DE"},` +
	`"billing":null,"channel":"web","lines":[{"sku":"BOOK-123","quantity":2,"unit_price":{"amount":1299,"currency":"EUR"}}],` +
	`"tags":{"source":"newsletter"},"note":"Leave at the door"}`

func jsonLogger(buf *bytes.Buffer) *slog.Logger {
	return slog.New(slog.NewJSONHandler(buf, &slog.HandlerOptions{ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
		if len(groups) == 0 && a.Key == slog.TimeKey {
			return slog.Attr{}
		}
		return a
	}}))
}

func TestLogDataJSONHandler(t *testing.T) {
	var buf bytes.Buffer
	jsonLogger(&buf).Info("order placed", "order", piiOrder())
	want := `{"level":"INFO","msg":"order placed","order":` + piiData + "}\n"
	if got := buf.String(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	assertNoPII(t, "JSON handler", buf.String())
}

func TestLogMessageJSONHandler(t *testing.T) {
	m, err := events.New(piiOrder(),
		events.WithTraceID("7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b"),
		events.WithIDSource(func() string { return "f08fd9ac-9b9c-4ba9-9569-c482f9df2664" }),
		events.WithClock(func() time.Time { return time.UnixMilli(1796040000123) }))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"level":"INFO","msg":"received","msg":{"job":"urn:babel:orders:created.v2",` +
		`"trace_id":"7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b","data":` + piiData + `,` +
		`"meta":{"id":"f08fd9ac-9b9c-4ba9-9569-c482f9df2664","queue":"orders","lang":"go","schema_version":1,` +
		`"created_at":1796040000123},"attempts":0}}` + "\n"
	for _, v := range []any{m, *m} { // *events.Message[T] and events.Message[T] (what a handler gets)
		var buf bytes.Buffer
		jsonLogger(&buf).Info("received", "msg", v)
		if got := buf.String(); got != want {
			t.Errorf("%T:\n got  %s\nwant %s", v, got, want)
		}
	}
	// The envelope itself is not redacted.
	b, err := m.Encode()
	if err != nil || !bytes.Contains(b, []byte(`"email":"ada.lovelace@example.com"`)) {
		t.Errorf("Encode: %v %s", err, b)
	}
}

func TestLogNullableSensitive(t *testing.T) {
	p := billing.PaymentCaptured{
		PaymentID: "3d1f0e2a-8b7c-4d6e-9f01-23456789abcd", OrderID: 1042,
		Amount: events.Money{Amount: 2598, Currency: "EUR"}, CapturedAt: 1796040000000,
		Method: billing.PaymentCapturedMethodCard, CardLast4: &events.Nullable[string]{Value: "4242", Valid: true},
	}
	const head = `{"level":"INFO","msg":"captured","payment":{"payment_id":"3d1f0e2a-8b7c-4d6e-9f01-23456789abcd",` +
		`"order_id":1042,"amount":{"amount":2598,"currency":"EUR"},"captured_at":1796040000000,"method":"card"`
	for _, c := range []struct {
		card *events.Nullable[string]
		want string
	}{
		{&events.Nullable[string]{Value: "4242", Valid: true}, head + `,"card_last4":"4***"}}` + "\n"},
		{&events.Nullable[string]{}, head + `,"card_last4":null}}` + "\n"}, // null stays null
		{nil, head + `}}` + "\n"}, // absent stays absent
	} {
		p.CardLast4 = c.card
		var buf bytes.Buffer
		jsonLogger(&buf).Info("captured", "payment", p)
		if got := buf.String(); got != c.want {
			t.Errorf("got  %s\nwant %s", got, c.want)
		}
	}
}

func TestStringRedacts(t *testing.T) {
	d := piiOrder()
	if got := d.String(); got != piiData {
		t.Errorf("String():\n got  %s\nwant %s", got, piiData)
	}
	m := &events.Message[orders.CreatedV2]{URN: orders.CreatedV2URN, TraceID: "t", Data: d}
	for _, c := range []struct {
		name string
		got  string
	}{
		{"Sprint(T)", fmt.Sprint(d)},
		{"Sprint(*T)", fmt.Sprint(&d)},
		{"%v T", fmt.Sprintf("%v", d)},
		{"%+v T", fmt.Sprintf("%+v", d)},
		{"%v *T", fmt.Sprintf("%v", &d)},
		{"%+v *T", fmt.Sprintf("%+v", &d)},
		{"%s T", fmt.Sprintf("%s", d)},
	} {
		if c.got != piiData {
			t.Errorf("%s = %s", c.name, c.got)
		}
	}
	// Named types with sensitive fields print redacted on their own too.
	if got, want := fmt.Sprint(*d.Shipping), `{"line1":"Ö***","line2":"H***","city":"Berlin","postal_code":"1***","country":"DE"}`; got != want {
		t.Errorf("Address: %s, want %s", got, want)
	}
	if got, want := fmt.Sprintf("%+v", d.Customer), `{"customer_id":"0b6f2a9e-3c1d-4e5f-8a7b-9c0d1e2f3a4b","email":"a***","display_name":null}`; got != want {
		t.Errorf("Customer: %s, want %s", got, want)
	}
	// A message prints its data with String.
	assertNoPII(t, "%+v of *events.Message", fmt.Sprintf("%+v", m))
	assertNoPII(t, "%v of events.Message", fmt.Sprintf("%v", *m))
}

func TestLogTextHandler(t *testing.T) {
	var buf bytes.Buffer
	slog.New(slog.NewTextHandler(&buf, nil)).Info("order placed", "order", piiOrder())
	out := buf.String()
	assertNoPII(t, "text handler", out)
	for _, want := range []string{" order.customer.email=a*** ", " order.shipping.line1=Ö*** ", " order.shipping.city=Berlin ",
		` order.lines="[{\"sku\":\"BOOK-123\",`} {
		if !strings.Contains(out, want) {
			t.Errorf("text handler output lacks %q:\n%s", want, out)
		}
	}
}
