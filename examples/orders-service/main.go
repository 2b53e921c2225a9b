// Command orders-service shows a service using the package bqgen generated from
// examples/registry.yaml (examples/events): it publishes an order through the typed
// producer helpers into an in-memory transport, dispatches it through the generated
// Router to a typed handler, and then routes envelopes written by other producers (a PHP
// producer, one using the `urn` alias, and a poison message).
//
// Run it with `make example`.
package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/babelqueue/bqgen/examples/events"         // the runtime: Message, Router, Money, Timestamp, named types
	"github.com/babelqueue/bqgen/examples/events/billing" // urn:babel:billing:*
	"github.com/babelqueue/bqgen/examples/events/orders"  // urn:babel:orders:*
)

// memoryTransport is a Publisher that keeps what it is given, as a broker would.
type memoryTransport struct {
	queues map[string][]string
}

// Publish appends body to queue. It has the BabelQueue Go SDK transports' signature.
func (t *memoryTransport) Publish(_ context.Context, queue, body string) error {
	if t.queues == nil {
		t.queues = map[string][]string{}
	}
	t.queues[queue] = append(t.queues[queue], body)
	return nil
}

func main() {
	if err := run(context.Background()); err != nil {
		log.Fatal(err)
	}
}

func run(ctx context.Context) error {
	out := os.Stdout
	transport := &memoryTransport{}

	// Produce: typed data, validated before it is built.
	id, err := events.Publish(ctx, transport, orders.CreatedV2{
		OrderID: 1042,
		Customer: events.Customer{
			CustomerID: "0b6f2a9e-3c1d-4e5f-8a7b-9c0d1e2f3a4b",
			Email:      "ada@example.com",
		},
		Total:    events.Money{Amount: 2598, Currency: "EUR"}, // minor units: 25.98 EUR
		PlacedAt: events.TimestampOf(time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)),
		Lines: []orders.CreatedV2LinesItem{
			{Sku: "BOOK-123", Quantity: 2, UnitPrice: events.Money{Amount: 1299, Currency: "EUR"}},
		},
		Note: events.Ptr(events.NullableOf("Leave at the door — Danke!")), // optional and nullable: absent, null or a value
	}, events.WithTraceID("7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b"))
	if err != nil {
		return fmt.Errorf("publish: %w", err)
	}
	fmt.Fprintf(out, "published %s to queue %q\n", id, "orders")

	// A producer's validation error never reaches the queue.
	_, err = events.New(orders.CreatedV2{OrderID: 0})
	fmt.Fprintf(out, "invalid data refused before publishing: %v\n\n", err)

	// Consume: one typed handler per URN.
	r := events.NewRouter()
	events.Handle(r, func(ctx context.Context, m events.Message[orders.CreatedV2]) error {
		fmt.Fprintf(out, "handled %s from %s: order %d, %d line(s), total %d %s minor units, placed %s, trace %s\n",
			m.URN, m.Meta.Lang, m.Data.OrderID, len(m.Data.Lines), m.Data.Total.Amount, m.Data.Total.Currency,
			m.Data.PlacedAt.Time().Format(time.RFC3339), m.TraceID)
		return nil
	})
	events.Handle(r, func(ctx context.Context, m events.Message[orders.Created]) error { //nolint:staticcheck // v1 is still consumed during the migration
		fmt.Fprintf(out, "handled %s from %s: order %d, total %d %s minor units, created_at %d ms\n",
			m.URN, m.Meta.Lang, m.Data.OrderID, m.Data.Total.Amount, m.Data.Total.Currency, m.Meta.CreatedAt)
		return nil
	})
	events.Handle(r, func(ctx context.Context, m events.Message[billing.PaymentCaptured]) error {
		fmt.Fprintf(out, "handled %s (identity from the %q alias): payment %s, %d %s minor units via %s\n",
			m.URN, "urn", m.Data.PaymentID, m.Data.Amount.Amount, m.Data.Amount.Currency, m.Data.Method)
		return nil
	})

	for _, body := range transport.queues["orders"] {
		fmt.Fprintf(out, "envelope on the wire:\n%s\n", body)
		if err := r.Dispatch(ctx, []byte(body)); err != nil {
			return fmt.Errorf("dispatch: %w", err)
		}
	}

	fmt.Fprintln(out, "\nenvelopes from other producers:")
	for _, in := range []struct{ what, body string }{
		{"PHP producer", `{"job":"urn:babel:orders:created","trace_id":"f47ac10b-58cc-4372-a567-0e02b2c3d479","data":{"order_id":1043,"total":{"amount":4999,"currency":"USD"},"placed_at":1764504000000,"channel":"web"},"meta":{"id":"9b2e4f6a-1c3d-4e5f-8a9b-0c1d2e3f4a5b","queue":"orders","lang":"php","schema_version":1,"created_at":1764504000123},"attempts":0}`},
		{"urn alias", `{"urn":"urn:babel:billing:payment.captured","trace_id":"5d2c1b0a-9f8e-4d7c-8b6a-5f4e3d2c1b0a","data":{"payment_id":"3c2b1a09-8f7e-4d6c-9b5a-4f3e2d1c0b9a","order_id":1043,"amount":{"amount":4999,"currency":"USD"},"captured_at":1764504001000,"method":"card","card_last4":null},"meta":{"id":"2a1b0c9d-8e7f-4a6b-9c5d-4e3f2a1b0c9d","queue":"billing","lang":"node","schema_version":1,"created_at":1764504001000},"attempts":1}`},
		{"poison (1.5 is not an integer)", `{"job":"urn:babel:orders:created","trace_id":"f47ac10b-58cc-4372-a567-0e02b2c3d479","data":{"order_id":1.5,"total":{"amount":1,"currency":"EUR"},"placed_at":1764504000000},"meta":{"id":"x","queue":"orders","lang":"python","schema_version":1,"created_at":1764504000000},"attempts":0}`},
		{"unknown URN", `{"job":"urn:babel:orders:teleported","trace_id":"f47ac10b-58cc-4372-a567-0e02b2c3d479","data":{},"meta":{"id":"x","queue":"orders","lang":"java","schema_version":1,"created_at":1764504000000},"attempts":0}`},
	} {
		err := r.Dispatch(ctx, []byte(in.body))
		if err != nil {
			fmt.Fprintf(out, "%s: dead-letter reason %q: %v\n", in.what, events.DeadLetterReasonOf(err), err)
		}
	}
	return nil
}
