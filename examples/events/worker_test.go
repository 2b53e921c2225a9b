// This file is hand-written (it has no generated-code header, so bqgen generate
// leaves it alone): what the generated Worker writes into dead_letter.exception, and
// the queues NewWorker refuses, in a generated package (the runtime's own tests run
// it as package rt).

package events_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/babelqueue/bqgen/examples/events"
)

// TestWorkerDeadLetterException: a malformed envelope and an unknown URN are
// dead-lettered with the runtime's error class, qualified by the generated package.
func TestWorkerDeadLetterException(t *testing.T) {
	const unknown = `{"job":"urn:babel:orders:unknown","trace_id":"7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b","data":{},` +
		`"meta":{"id":"f08fd9ac-9b9c-4ba9-9569-c482f9df2664","queue":"orders","lang":"node","schema_version":1,"created_at":1796040000000},"attempts":0}`
	noTrace := strings.Replace(unknown, `"trace_id":"7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b",`, "", 1)
	tr := &sdkQueue{q: map[string][]string{"orders": {noTrace, unknown}}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n := 0
	w, err := events.NewWorker(tr, events.NewRouter(), "orders", events.WithUnknownURN(events.UnknownURNDeadLetter),
		events.WithIdleWait(time.Millisecond), events.WithReport(func(context.Context, events.Report) {
			if n++; n == 2 {
				cancel()
			}
		}))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Run(ctx); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, body := range tr.q["orders.dlq"] {
		var b struct {
			DeadLetter struct{ Exception string } `json:"dead_letter"`
		}
		if err := json.Unmarshal([]byte(body), &b); err != nil {
			t.Fatal(err)
		}
		got = append(got, b.DeadLetter.Exception)
	}
	if want := []string{"events.ErrMalformedEnvelope", "events.ErrUnknownURN"}; strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("dead_letter.exception %q, want %q", got, want)
	}
}

// TestNewWorkerRefusesItsOwnQueue: a dead-letter queue equal to the queue consumed
// would make a poison message circle for ever.
func TestNewWorkerRefusesItsOwnQueue(t *testing.T) {
	_, err := events.NewWorker(&sdkQueue{}, events.NewRouter(), "billing", events.WithDeadLetterQueue("billing"))
	if !errors.Is(err, events.ErrWorkerConfig) {
		t.Errorf("NewWorker = %v, want ErrWorkerConfig", err)
	}
}
