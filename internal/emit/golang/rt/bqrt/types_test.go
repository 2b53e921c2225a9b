package bqrt

import (
	"context"
	"strings"
)

// The Go layouts of the runtime package's public types, as the generated code
// gives them to the codec (which reaches them by field index): the tests of this
// package use these copies.

type Money struct {
	Amount   int64
	Currency string
}

type Timestamp int64

type UUID string

type Nullable[T any] struct {
	Value T
	Valid bool
}

func NullableOf[T any](v T) Nullable[T] { return Nullable[T]{Value: v, Valid: true} }

// described is the runtime package's hook on generated data types, for the
// samples of these tests.
type described interface{ schema() *Desc }

// Message is an envelope with its data, as the runtime package's Message[T].
type Message[T any] struct {
	Header
	Data T
}

// handle registers fn for urn on r the way the runtime package's Handle does.
func handle[T any](r *Router, urn string, fn func(context.Context, Message[T]) error) {
	r.Register(urn, func(ctx context.Context, env *Envelope) error {
		var m Message[T]
		if err := env.Fill(&m.Data, any(&m.Data).(described).schema(), nil); err != nil {
			return err
		}
		m.Header = *env.Header()
		return fn(ctx, m)
	})
}

// decodeMessage is the runtime package's Decode for the tests.
func decodeMessage[T any](body []byte, urn string) (*Message[T], error) {
	m := new(Message[T])
	if err := Decode(body, urn, &m.Data, any(&m.Data).(described).schema(), nil, nil, &m.Header); err != nil {
		return nil, err
	}
	return m, nil
}

const (
	testTrace = "11111111-1111-4111-8111-111111111111"
	testID    = "22222222-2222-4222-8222-222222222222"
)

const sampleDataJSON = `{"order_id":1042,"note":"é<&>","total":{"amount":1299,"currency":"EUR"},"discount":null,` +
	`"lines":[{"sku":"SKU-1","quantity":2}],"tags":{"a":"1","b":"2"},"placed_at":1700000000000,` +
	`"ref":"-9007199254740993","ratio":0.25,"status":"new"}`

const sampleEnvelope = `{"job":"urn:babel:orders:created","trace_id":"` + testTrace + `","data":` + sampleDataJSON +
	`,"meta":{"id":"` + testID + `","queue":"orders","lang":"go","schema_version":1,"created_at":1700000000123},"attempts":0}`

// envelopeWith returns the sample envelope with one top-level part replaced.
func envelopeWith(old, new string) string {
	if !strings.Contains(sampleEnvelope, old) {
		panic("no " + old)
	}
	return strings.Replace(sampleEnvelope, old, new, 1)
}

// newRouter returns a Router without a body size limit.
func newRouter() *Router {
	r := &Router{}
	r.SetMaxBodySize(-1)
	return r
}
