// This file is hand-written (it has no generated-code header, so bqgen generate
// leaves it alone): the native fuzz target of the generated events.Router.Dispatch (issue 7,
// item 1(b)), seeded with the envelopes of testdata/envelopes. CI runs the seeds and
// the regression corpus of testdata/fuzz/FuzzDispatch only; fuzz it with
//
//	go test ./examples/events -run '^$' -fuzz FuzzDispatch -fuzztime 10m

package events_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"github.com/babelqueue/bqgen/examples/events"
	"github.com/babelqueue/bqgen/examples/events/billing"
	"github.com/babelqueue/bqgen/examples/events/notifications"
	"github.com/babelqueue/bqgen/examples/events/orders"
)

// captured is what the last successful dispatch handed to a handler: the typed
// message (as any) and a function that re-encodes it with events.Message[T].Encode.
type captured struct {
	msg    any
	encode func() ([]byte, error)
}

// capture returns a handler function that stores its message in *c.
func capture[T any](c *captured) func(context.Context, events.Message[T]) error {
	return func(_ context.Context, m events.Message[T]) error {
		*c = captured{msg: m, encode: m.Encode}
		return nil
	}
}

// captureRouter returns a events.Router with a capturing handler for every URN of the
// example registry.
func captureRouter(c *captured) *events.Router {
	r := events.NewRouter()
	events.Handle(r, capture[orders.Created](c))
	events.Handle(r, capture[orders.CreatedV2](c))
	events.Handle(r, capture[orders.Cancelled](c))
	events.Handle(r, capture[orders.Ship](c))
	events.Handle(r, capture[billing.InvoiceRequested](c))
	events.Handle(r, capture[billing.PaymentCaptured](c))
	events.Handle(r, capture[billing.RefundIssued](c))
	events.Handle(r, capture[notifications.EmailWelcomeSend](c))
	events.Handle(r, capture[notifications.PushSent](c))
	return r
}

// envelopeSeeds returns the fixture envelopes of testdata/envelopes, by file name.
func envelopeSeeds(tb testing.TB) map[string][]byte {
	tb.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", "envelopes", "*.json"))
	if err != nil || len(paths) == 0 {
		tb.Fatalf("no envelope fixtures in testdata/envelopes (%v)", err)
	}
	out := map[string][]byte{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		out[filepath.Base(p)] = b
	}
	return out
}

// classified are the sentinel errors a Dispatch error must wrap when no handler
// fails.
var classified = []error{events.ErrMalformedEnvelope, events.ErrUnsupportedSchemaVersion, events.ErrUnknownURN, events.ErrInvalidData}

// checkDispatch is the property of FuzzDispatch for one body: Dispatch does not
// panic; an error wraps exactly one of the four sentinels and events.DeadLetterReasonOf
// maps it to unknown_urn or poison; a body that dispatches re-encodes to an envelope
// that dispatches to an equal message, and re-encoding that one gives the same
// bytes. It returns the Dispatch error.
func checkDispatch(t *testing.T, body []byte) error {
	t.Helper()
	var c captured
	r := captureRouter(&c)
	err := r.Dispatch(context.Background(), body)
	if err != nil {
		var is []error
		for _, s := range classified {
			if errors.Is(err, s) {
				is = append(is, s)
			}
		}
		if len(is) != 1 {
			t.Fatalf("Dispatch error wraps %d of the sentinels %v: %v\nbody: %q", len(is), is, err, body)
		}
		want := events.ReasonPoison
		if is[0] == events.ErrUnknownURN {
			want = events.ReasonUnknownURN
		}
		if got := events.DeadLetterReasonOf(err); got != want {
			t.Fatalf("DeadLetterReasonOf(%v) = %q, want %q", err, got, want)
		}
		if c.msg != nil {
			t.Fatalf("Dispatch failed (%v) after calling the handler", err)
		}
		return err
	}
	if c.msg == nil {
		t.Fatalf("Dispatch returned nil without calling a handler\nbody: %q", body)
	}
	first := c
	enc, err := first.encode()
	if err != nil {
		t.Fatalf("a dispatched message does not re-encode: %v\nbody: %q\nmessage: %+v", err, body, first.msg)
	}
	c = captured{}
	if err := r.Dispatch(context.Background(), enc); err != nil {
		t.Fatalf("the re-encoded envelope does not dispatch: %v\nbody:       %q\nre-encoded: %s", err, body, enc)
	}
	if !reflect.DeepEqual(first.msg, c.msg) {
		t.Fatalf("round trip changed the message\nbody:       %q\nre-encoded: %s\nfirst:  %+v\nsecond: %+v", body, enc, first.msg, c.msg)
	}
	enc2, err := c.encode()
	if err != nil || string(enc2) != string(enc) {
		t.Fatalf("re-encoding is not stable (%v)\nfirst:  %s\nsecond: %s", err, enc, enc2)
	}
	return nil
}

// FuzzDispatch checks checkDispatch on arbitrary bodies.
func FuzzDispatch(f *testing.F) {
	seeds := envelopeSeeds(f)
	names := make([]string, 0, len(seeds))
	for name := range seeds {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		f.Add(seeds[name])
	}
	for _, tc := range hostileBodies() {
		if len(tc.body) <= 4096 { // the huge ones slow the mutator down; TestHostileBodies has them
			f.Add(tc.body)
		}
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		checkDispatch(t, body)
	})
}

// TestEnvelopeFixtures pins the verdict on every fixture of testdata/envelopes, so a
// seed that stops meaning what its name says is noticed.
func TestEnvelopeFixtures(t *testing.T) {
	want := map[string]error{
		"dead_lettered.json":              nil,
		"dead_lettered_unknown_urn.json":  events.ErrUnknownURN,
		"extra_keys_everywhere.json":      nil,
		"invalid_data_closed.json":        events.ErrInvalidData,
		"job_and_urn.json":                nil, // job wins over the alias
		"no_identity.json":                events.ErrMalformedEnvelope,
		"non_ascii.json":                  nil,
		"null_payload.json":               nil,
		"number_half_large_integer.json":  nil,
		"number_overflow.json":            events.ErrMalformedEnvelope, // 1e400
		"orders_created_v1.json":          nil,
		"produced_orders_created_v2.json": nil,
		"ship_closed.json":                nil,
		"unknown_schema_version.json":     events.ErrUnsupportedSchemaVersion,
		"unknown_urn.json":                events.ErrUnknownURN,
		"urn_alias.json":                  nil,
		"whitespace.json":                 nil,
	}
	seeds := envelopeSeeds(t)
	for name, body := range seeds {
		t.Run(name, func(t *testing.T) {
			exp, ok := want[name]
			if !ok {
				t.Fatalf("no expected verdict for the fixture %s: add it to TestEnvelopeFixtures", name)
			}
			err := checkDispatch(t, body)
			if exp == nil && err != nil || exp != nil && !errors.Is(err, exp) {
				t.Fatalf("Dispatch = %v, want %v", err, exp)
			}
		})
	}
	for name := range want {
		if _, ok := seeds[name]; !ok {
			t.Errorf("fixture %s is missing", name)
		}
	}
}

// TestProducedFixture checks that produced_orders_created_v2.json is exactly what
// the generated producer writes (docs/contract.md#envelope: key order, compact, no HTML escaping).
func TestProducedFixture(t *testing.T) {
	body := envelopeSeeds(t)["produced_orders_created_v2.json"]
	m, err := events.Decode[orders.CreatedV2](body)
	if err != nil {
		t.Fatal(err)
	}
	enc, err := m.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if string(enc) != string(body) {
		t.Errorf("Encode differs from the fixture\nencode:  %s\nfixture: %s", enc, body)
	}
}
