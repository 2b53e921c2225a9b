// This file is hand-written (it has no generated-code header, so bqgen generate
// leaves it alone): the generated Worker against the consume loop of the BabelQueue Go
// SDK's App with a map handler, over an in-memory transport and over a real
// redis-server (worker_redis_test.go). docs/performance.md quotes the results.

package events_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/babelqueue/bqgen/examples/events"
	"github.com/babelqueue/bqgen/examples/events/orders"
)

// sdkQueue behaves as the Go SDK's InMemoryTransport: Pop removes the head (nil when
// the queue is empty, without waiting), Ack does nothing.
type sdkQueue struct {
	mu sync.Mutex
	q  map[string][]string
}

func (t *sdkQueue) Publish(_ context.Context, queue, body string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.q[queue] = append(t.q[queue], body)
	return nil
}

func (t *sdkQueue) Pop(_ context.Context, queue string, _ time.Duration) (*sdkReceived, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	q := t.q[queue]
	if len(q) == 0 {
		return nil, nil
	}
	t.q[queue] = q[1:]
	return &sdkReceived{Body: q[0], Queue: queue}, nil
}

func (t *sdkQueue) Ack(context.Context, *sdkReceived) error { return nil }

// sdkTransport is the method set the benchmark's App loop uses.
type sdkTransport interface {
	Pop(ctx context.Context, queue string, timeout time.Duration) (*sdkReceived, error)
	Ack(ctx context.Context, msg *sdkReceived) error
}

// appEnvelope is the Go SDK's babelqueue.Envelope without dead_letter: what its App
// decodes every body into with encoding/json (data as map[string]any).
type appEnvelope struct {
	Job     string         `json:"job"`
	TraceID string         `json:"trace_id"`
	Data    map[string]any `json:"data"`
	Meta    struct {
		ID            string `json:"id"`
		Queue         string `json:"queue"`
		Lang          string `json:"lang"`
		SchemaVersion int    `json:"schema_version"`
		CreatedAt     int64  `json:"created_at"`
	} `json:"meta"`
	Attempts int `json:"attempts"`
}

// appConsume does per message what the Go SDK's App.Consume does for a message its
// handler accepts, one at a time: Pop, decode the body into the SDK's envelope,
// look the handler up by URN, call it, Ack; until n messages were handled.
func appConsume(tb testing.TB, t sdkTransport, queue string, n int, handlers map[string]func(context.Context, appEnvelope) error) {
	ctx := context.Background()
	for done := 0; done < n; {
		msg, err := t.Pop(ctx, queue, time.Second)
		if err != nil {
			tb.Fatal(err)
		}
		if msg == nil {
			continue
		}
		var env appEnvelope
		_ = json.Unmarshal([]byte(msg.Body), &env)
		if err := handlers[env.Job](ctx, env); err != nil {
			tb.Fatal(err)
		}
		_ = t.Ack(ctx, msg)
		done++
	}
}

// BenchmarkWorker: messages per second (msg/s) of the SDK App's loop with a map
// handler, and of the Worker with a typed handler with 1 and 8 messages in flight,
// over the SDK's in-memory transport and over redis-server; and the CPU time this
// process spent per message (cpu-µs/msg: the client side, not redis-server), which a
// busy machine distorts less than the wall time. One op is one message.
func BenchmarkWorker(b *testing.B) {
	body := func() string {
		m, err := events.New(benchOrder(), events.WithTraceID(benchTrace))
		if err != nil {
			b.Fatal(err)
		}
		s, _ := m.Encode()
		return string(s)
	}()
	var sink atomic.Int64
	mapHandler := map[string]func(context.Context, appEnvelope) error{
		orders.CreatedV2URN: func(_ context.Context, env appEnvelope) error {
			id, _ := env.Data["order_id"].(float64)
			total, _ := env.Data["total"].(map[string]any)
			amount, _ := total["amount"].(float64)
			sink.Add(int64(id) + int64(amount))
			return nil
		},
	}
	// The typed handler stops the run after its n-th message (no report hook: the
	// App has none either).
	var (
		handled atomic.Int64
		stopAt  int64
		stop    context.CancelFunc
	)
	router := events.NewRouter()
	events.Handle(router, func(_ context.Context, m events.Message[orders.CreatedV2]) error {
		sink.Add(m.Data.OrderID + m.Data.Total.Amount)
		if handled.Add(1) == stopAt {
			stop()
		}
		return nil
	})
	worker := func(b *testing.B, t events.Transport[*sdkReceived], n, inFlight int) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		handled.Store(0)
		stopAt, stop = int64(n), cancel
		w, err := events.NewWorker(t, router, "orders", events.WithConcurrency(inFlight), events.WithPollTimeout(100*time.Millisecond))
		if err != nil {
			b.Fatal(err)
		}
		if err := w.Run(ctx); err != nil {
			b.Fatal(err)
		}
	}
	for _, tr := range []struct {
		name  string
		setup func(b *testing.B) (events.Transport[*sdkReceived], func(n int))
	}{
		{"inmemory", func(b *testing.B) (events.Transport[*sdkReceived], func(int)) {
			t := &sdkQueue{q: map[string][]string{}}
			return t, func(n int) {
				q := make([]string, n)
				for i := range q {
					q[i] = body
				}
				t.q["orders"] = q
			}
		}},
		{"redis", func(b *testing.B) (events.Transport[*sdkReceived], func(int)) {
			p := startRedis(b)
			return &redisTransport{p}, func(n int) {
				bodies := make([]string, n)
				for i := range bodies {
					bodies[i] = strings.Replace(body, metaID(body), string(events.NewUUID()), 1)
				}
				p.push(b, "orders", bodies)
			}
		}},
	} {
		b.Run("transport="+tr.name, func(b *testing.B) {
			t, fill := tr.setup(b)
			for _, impl := range []struct {
				name string
				run  func(b *testing.B, n int)
			}{
				{"app-map", func(b *testing.B, n int) { appConsume(b, t, "orders", n, mapHandler) }},
				{"worker-1", func(b *testing.B, n int) { worker(b, t, n, 1) }},
				{"worker-8", func(b *testing.B, n int) { worker(b, t, n, 8) }},
			} {
				b.Run("impl="+impl.name, func(b *testing.B) {
					b.StopTimer()
					fill(b.N)
					b.StartTimer()
					start := time.Now()
					cpu0, ok := cpuTime()
					impl.run(b, b.N)
					b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "msg/s")
					if cpu1, ok1 := cpuTime(); ok && ok1 {
						b.ReportMetric(float64((cpu1-cpu0).Microseconds())/float64(b.N), "cpu-µs/msg")
					}
				})
			}
		})
	}
}
