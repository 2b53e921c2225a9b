// This file is hand-written (it has no generated-code header, so bqgen generate
// leaves it alone): benchmarks of the generated package against the map-based path of
// the BabelQueue SDKs (map[string]any + encoding/json), on the same message.
// Run them with `make bench`; docs/performance.md quotes the results.

package events_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/babelqueue/bqgen/examples/events"
	"github.com/babelqueue/bqgen/examples/events/orders"
)

const (
	benchTrace = "7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b"
	benchID    = "f08fd9ac-9b9c-4ba9-9569-c482f9df2664"
)

// benchOrder is a typical urn:babel:orders:created.v2: nested objects, an array of
// objects, a map, money, a timestamp, optional and nullable fields.
func benchOrder() orders.CreatedV2 {
	ch := events.ChannelWeb
	note := events.NullableOf("Leave at the door — Danke!")
	line2 := "Hinterhaus"
	return orders.CreatedV2{
		OrderID:  1042,
		Customer: events.Customer{CustomerID: "0b6f2a9e-3c1d-4e5f-8a7b-9c0d1e2f3a4b", Email: "ada@example.com"},
		Total:    events.Money{Amount: 2598, Currency: "EUR"},
		PlacedAt: 1796040000000,
		Shipping: &events.Address{Line1: "Hauptstraße 1", Line2: &line2, City: "Berlin", Country: "DE"},
		Channel:  &ch,
		Lines: []orders.CreatedV2LinesItem{
			{Sku: "BOOK-123", Quantity: 2, UnitPrice: events.Money{Amount: 1299, Currency: "EUR"}},
			{Sku: "PEN-9", Quantity: 1, UnitPrice: events.Money{Amount: 0, Currency: "EUR"}},
		},
		Tags: map[string]string{"campaign": "winter", "source": "newsletter"},
		Note: &note,
	}
}

// benchOrderMap is the same data the way a map-based SDK producer builds it.
func benchOrderMap() map[string]any {
	return map[string]any{
		"order_id":  1042,
		"customer":  map[string]any{"customer_id": "0b6f2a9e-3c1d-4e5f-8a7b-9c0d1e2f3a4b", "email": "ada@example.com"},
		"total":     map[string]any{"amount": 2598, "currency": "EUR"},
		"placed_at": int64(1796040000000),
		"shipping":  map[string]any{"line1": "Hauptstraße 1", "line2": "Hinterhaus", "city": "Berlin", "country": "DE"},
		"channel":   "web",
		"lines": []any{
			map[string]any{"sku": "BOOK-123", "quantity": 2, "unit_price": map[string]any{"amount": 1299, "currency": "EUR"}},
			map[string]any{"sku": "PEN-9", "quantity": 1, "unit_price": map[string]any{"amount": 0, "currency": "EUR"}},
		},
		"tags": map[string]any{"campaign": "winter", "source": "newsletter"},
		"note": "Leave at the door — Danke!",
	}
}

func benchOpts() []events.Option {
	now := time.UnixMilli(1796048520743)
	return []events.Option{
		events.WithTraceID(benchTrace),
		events.WithIDSource(func() string { return benchID }),
		events.WithClock(func() time.Time { return now }),
	}
}

// BenchmarkProduce: NewOrdersCreatedV2 (validates) + Encode, against building a map
// payload and marshalling a map envelope with encoding/json.
func BenchmarkProduce(b *testing.B) {
	b.Run("impl=typed", func(b *testing.B) {
		data, opts := benchOrder(), benchOpts()
		b.ReportAllocs()
		for b.Loop() {
			m, err := events.New(data, opts...)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := m.Encode(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("impl=map", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			env := map[string]any{
				"job":      orders.CreatedV2URN,
				"trace_id": benchTrace,
				"data":     benchOrderMap(),
				"meta": map[string]any{
					"id": benchID, "queue": "orders", "lang": "go", "schema_version": 1,
					"created_at": time.UnixMilli(1796048520743).UnixMilli(),
				},
				"attempts": 0,
			}
			if _, err := json.Marshal(env); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkConsume: events.Router.Dispatch (strict decode + validate + typed handler),
// against json.Unmarshal into a map envelope and reading the same fields by key with
// type assertions.
func BenchmarkConsume(b *testing.B) {
	m, err := events.New(benchOrder(), benchOpts()...)
	if err != nil {
		b.Fatal(err)
	}
	body, err := m.Encode()
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	var sink int64
	b.Run("impl=typed", func(b *testing.B) {
		r := events.NewRouter()
		events.Handle(r, func(_ context.Context, m events.Message[orders.CreatedV2]) error {
			sink += m.Data.OrderID + m.Data.Total.Amount + int64(len(m.Data.Customer.Email))
			for _, l := range m.Data.Lines {
				sink += int64(l.Quantity) + int64(len(l.Sku))
			}
			return nil
		})
		b.ReportAllocs()
		b.SetBytes(int64(len(body)))
		for b.Loop() {
			if err := r.Dispatch(ctx, body); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("impl=map", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(body)))
		for b.Loop() {
			if err := consumeMap(body, &sink); err != nil {
				b.Fatal(err)
			}
		}
	})
}

var errBadMap = errors.New("bad envelope")

// consumeMap is the map-based consumer: decode, check the envelope, read the fields.
func consumeMap(body []byte, sink *int64) error {
	var env map[string]any
	if err := json.Unmarshal(body, &env); err != nil {
		return err
	}
	meta, ok := env["meta"].(map[string]any)
	if !ok || meta["schema_version"] != 1.0 {
		return errBadMap
	}
	if env["job"] != orders.CreatedV2URN {
		return errBadMap
	}
	data, ok := env["data"].(map[string]any)
	if !ok {
		return errBadMap
	}
	id, _ := data["order_id"].(float64)
	total, _ := data["total"].(map[string]any)
	amount, _ := total["amount"].(float64)
	customer, _ := data["customer"].(map[string]any)
	email, _ := customer["email"].(string)
	*sink += int64(id) + int64(amount) + int64(len(email))
	lines, _ := data["lines"].([]any)
	for _, l := range lines {
		line, _ := l.(map[string]any)
		q, _ := line["quantity"].(float64)
		sku, _ := line["sku"].(string)
		*sink += int64(q) + int64(len(sku))
	}
	return nil
}
