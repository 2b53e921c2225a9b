package rt

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/babelqueue/bqgen/internal/emit/golang/rt/bqrt"
)

// received stands for the BabelQueue Go SDK's babelqueue.ReceivedMessage, as its
// source declares it.
type received struct {
	Body    string
	Queue   string
	Handle  any
	Headers map[string]string
}

// memTransport is an in-memory transport with the Go SDK's method set and the
// reliable-queue semantics of its Redis transport: Pop moves the head of a queue to
// the queue's processing list (BLMOVE), Ack removes it from there (LREM). Like a
// network client it refuses to work under a done context. fault, when set, runs
// before each call with its name ("pop", "publish", "ack") and queue; its error is
// the call's.
type memTransport struct {
	// sdk: Pop removes the message and Ack does nothing, as the SDK's
	// InMemoryTransport does.
	sdk        bool
	mu         sync.Mutex
	queues     map[string][]string
	processing map[string][]string
	fault      func(op, queue string) error
	pops       int
}

func newMem(queue string, bodies ...string) *memTransport {
	return &memTransport{queues: map[string][]string{queue: slices.Clone(bodies)}, processing: map[string][]string{}}
}

func (t *memTransport) check(ctx context.Context, op, queue string) error {
	if t.fault != nil {
		if err := t.fault(op, queue); err != nil {
			return err
		}
	}
	return ctx.Err()
}

func (t *memTransport) Publish(ctx context.Context, queue, body string) error {
	if err := t.check(ctx, "publish", queue); err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.queues[queue] = append(t.queues[queue], body)
	return nil
}

func (t *memTransport) Pop(ctx context.Context, queue string, _ time.Duration) (*received, error) {
	if err := t.check(ctx, "pop", queue); err != nil {
		return nil, err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	q := t.queues[queue]
	if len(q) == 0 {
		return nil, nil
	}
	t.pops++
	t.queues[queue] = q[1:]
	if !t.sdk {
		t.processing[queue] = append(t.processing[queue], q[0])
	}
	return &received{Body: q[0], Queue: queue, Handle: q[0]}, nil
}

func (t *memTransport) Ack(ctx context.Context, m *received) error {
	if err := t.check(ctx, "ack", m.Queue); err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	p := t.processing[m.Queue]
	if i := slices.Index(p, m.Handle.(string)); i >= 0 {
		t.processing[m.Queue] = slices.Delete(p, i, i+1)
	}
	return nil
}

// list returns a copy of the queue q.
func (t *memTransport) list(q string) []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return slices.Clone(t.queues[q])
}

func (t *memTransport) inFlight(q string) []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return slices.Clone(t.processing[q])
}

var workerClock = func() time.Time { return time.UnixMilli(1800000000000) }

// runUntil runs w until n reports came (or 5 s passed: a failure), then stops it; it
// returns the reports and Run's error.
func runUntil(t *testing.T, n int, build func(report WorkerOption) *Worker[*received]) ([]Report, error) {
	t.Helper()
	var mu sync.Mutex
	var reps []Report
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := build(WithReport(func(_ context.Context, r Report) {
		mu.Lock()
		defer mu.Unlock()
		if reps = append(reps, r); len(reps) == n {
			cancel()
		}
	}))
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()
	select {
	case err := <-done:
		mu.Lock()
		defer mu.Unlock()
		return reps, err
	case <-time.After(5 * time.Second):
		cancel()
		<-done
		t.Fatalf("timed out after %d of %d reports: %+v", len(reps), n, reps)
		return nil, nil
	}
}

// withBlock returns body with the dead_letter block dl added as the last member.
func withBlock(body string, dl bqrt.DeadLetter) string {
	return strings.TrimSuffix(body, "}") + `,"dead_letter":` + string(bqrt.AppendDeadLetter(nil, &dl)) + "}"
}

func strp(s string) *string { return &s }

// piiRouter returns a Router with keyA whose piiEvent handler is h.
func piiRouter(h func(context.Context, Message[piiEvent]) error) *Router {
	r := NewRouter(WithRouterCipher(keyA))
	Handle(r, h)
	return r
}

// TestWorkerOutcomes: every outcome of Router.Dispatch leads to the settlement the
// wire contract asks for, the body kept byte for byte but for attempts or the added
// dead_letter block, and the message acknowledged; over a transport with the Redis
// transport's reservation and over one with the SDK InMemoryTransport's.
func TestWorkerOutcomes(t *testing.T) {
	valid := piiEnvelope(piiProtectedData)
	invalid := strings.Replace(valid, `{"id":7,`, `{"id":"seven",`, 1)
	wrongKey := piiEnvelope(strings.ReplaceAll(piiProtectedData, "A1:", "B2:"))
	noTrace := strings.Replace(valid, `"trace_id":"`+testTrace+`",`, ``, 1)
	unknown := strings.Replace(valid, piiURN, "urn:babel:users:deleted", 1)
	noAttempts := strings.TrimSuffix(valid, `,"attempts":0}`) + "}"
	handlerErr := errors.New("mailer down")
	fails := func(_ context.Context, m Message[piiEvent]) error {
		return fmt.Errorf("cannot mail %s: %w", m.Data.Email, handlerErr)
	}
	ok := func(context.Context, Message[piiEvent]) error { return nil }
	dl := func(reason DeadLetterReason, errText, exc string, attempts int) bqrt.DeadLetter {
		return bqrt.DeadLetter{Reason: string(reason), Error: strp(errText), Exception: strp(exc), FailedAt: 1800000000000,
			OriginalQueue: "users", Attempts: attempts, Lang: "go"}
	}
	dispatchErr := func(r *Router, body string) string {
		err := r.Dispatch(context.Background(), []byte(body))
		if err == nil {
			t.Fatalf("Dispatch(%s) = nil", body)
		}
		return err.Error()
	}
	retried := func(body string, n int) string {
		return strings.Replace(body, `"attempts":0}`, `"attempts":`+strconv.Itoa(n)+`}`, 1)
	}
	failText := piiURN + ": cannot mail a***: mailer down"

	for _, tc := range []struct {
		name     string
		body     string
		h        func(context.Context, Message[piiEvent]) error
		cipher   Cipher // the Router's, keyA when nil
		opts     []WorkerOption
		reports  int
		outcomes []Outcome
		queue    []string // left on users
		dlq      func(r *Router) []string
		quar     []string
	}{
		{name: "handled", body: valid, h: ok, reports: 1, outcomes: []Outcome{OutcomeHandled}},
		{name: "invalid data", body: invalid, h: ok, reports: 1, outcomes: []Outcome{OutcomeDeadLettered},
			dlq: func(r *Router) []string {
				return []string{withBlock(invalid, dl(ReasonPoison, dispatchErr(r, invalid), "rt.ErrInvalidData", 1))}
			}},
		{name: "wrong key", body: wrongKey, h: ok, reports: 1, outcomes: []Outcome{OutcomeDeadLettered},
			dlq: func(r *Router) []string {
				return []string{withBlock(wrongKey, dl(ReasonPoison, dispatchErr(r, wrongKey), "rt.ErrInvalidData", 1))}
			}},
		{name: "envelope rejected", body: noTrace, h: ok, reports: 1, outcomes: []Outcome{OutcomeDeadLettered},
			dlq: func(r *Router) []string {
				return []string{withBlock(noTrace, dl(ReasonPoison, "babelqueue: malformed envelope: missing trace_id", "rt.ErrMalformedEnvelope", 1))}
			}},
		{name: "not JSON", body: "not json {", h: ok, reports: 1, outcomes: []Outcome{OutcomeQuarantined}, quar: []string{"not json {"}},
		{name: "duplicate key", body: `{"job":"a","job":"b"}`, h: ok, reports: 1, outcomes: []Outcome{OutcomeQuarantined},
			quar: []string{`{"job":"a","job":"b"}`}},
		{name: "not an object", body: `[1,2]`, h: ok, reports: 1, outcomes: []Outcome{OutcomeQuarantined}, quar: []string{`[1,2]`}},
		{name: "handler error", body: valid, h: fails, reports: 3,
			outcomes: []Outcome{OutcomeRetried, OutcomeRetried, OutcomeDeadLettered},
			dlq: func(*Router) []string {
				return []string{withBlock(retried(valid, 2), dl(ReasonFailed, failText, "*errors.errorString", 3))}
			}},
		{name: "handler error, no attempts member", body: noAttempts, h: fails, opts: []WorkerOption{WithMaxAttempts(2)}, reports: 2,
			outcomes: []Outcome{OutcomeRetried, OutcomeDeadLettered},
			dlq: func(*Router) []string {
				return []string{withBlock(strings.TrimSuffix(noAttempts, "}")+`,"attempts":1}`, dl(ReasonFailed, failText, "*errors.errorString", 2))}
			}},
		{name: "handler error, attempts at the limit of int", body: retried(valid, math.MaxInt), h: fails, reports: 1,
			outcomes: []Outcome{OutcomeDeadLettered},
			dlq: func(*Router) []string {
				return []string{withBlock(retried(valid, math.MaxInt), dl(ReasonFailed, failText, "*errors.errorString", math.MaxInt))}
			}},
		{name: "panic", body: valid, h: func(context.Context, Message[piiEvent]) error { panic("boom") }, opts: []WorkerOption{WithMaxAttempts(1)},
			reports: 1, outcomes: []Outcome{OutcomeDeadLettered},
			dlq: func(*Router) []string {
				return []string{withBlock(valid, dl(ReasonFailed, piiURN+": babelqueue: handler panicked: boom", "rt.ErrHandlerPanic", 1))}
			}},
		{name: "cipher unavailable", body: valid, h: ok, cipher: failCipher{fmt.Errorf("kms: %w", ErrCipherUnavailable)},
			opts: []WorkerOption{WithMaxAttempts(2)}, reports: 2, outcomes: []Outcome{OutcomeRetried, OutcomeDeadLettered},
			dlq: func(r *Router) []string {
				return []string{withBlock(retried(valid, 1), dl(ReasonFailed, dispatchErr(r, valid), "rt.ErrCipherUnavailable", 2))}
			}},
		{name: "unknown, fail", body: unknown, h: ok, opts: []WorkerOption{WithMaxAttempts(2)}, reports: 2,
			outcomes: []Outcome{OutcomeRetried, OutcomeDeadLettered},
			dlq: func(r *Router) []string {
				return []string{withBlock(retried(unknown, 1), dl(ReasonUnknownURN, dispatchErr(r, unknown), "rt.ErrUnknownURN", 2))}
			}},
		{name: "unknown, dead_letter", body: unknown, h: ok, opts: []WorkerOption{WithUnknownURN(UnknownURNDeadLetter)}, reports: 1,
			outcomes: []Outcome{OutcomeDeadLettered},
			dlq: func(r *Router) []string {
				return []string{withBlock(unknown, dl(ReasonUnknownURN, dispatchErr(r, unknown), "rt.ErrUnknownURN", 1))}
			}},
		{name: "unknown, delete", body: unknown, h: ok, opts: []WorkerOption{WithUnknownURN(UnknownURNDelete)}, reports: 1,
			outcomes: []Outcome{OutcomeDeleted}},
		{name: "unknown, release", body: unknown, h: ok, opts: []WorkerOption{WithUnknownURN(UnknownURNRelease)}, reports: 2,
			outcomes: []Outcome{OutcomeReleased, OutcomeReleased}, queue: []string{unknown}},
	} {
		for _, sdk := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/sdk=%v", tc.name, sdk), func(t *testing.T) {
				tr := newMem("users", tc.body)
				tr.sdk = sdk
				r := piiRouter(tc.h)
				if tc.cipher != nil {
					r = NewRouter(WithRouterCipher(tc.cipher))
					Handle(r, tc.h)
				}
				reps, err := runUntil(t, tc.reports, func(report WorkerOption) *Worker[*received] {
					w, err := NewWorker(tr, r, "users", append([]WorkerOption{report, WithWorkerClock(workerClock), WithIdleWait(time.Millisecond)}, tc.opts...)...)
					if err != nil {
						t.Fatal(err)
					}
					return w
				})
				if err != nil {
					t.Fatalf("Run = %v", err)
				}
				var got []Outcome
				for _, rep := range reps {
					got = append(got, rep.Outcome)
				}
				if !slices.Equal(got, tc.outcomes) {
					t.Errorf("outcomes %v, want %v", got, tc.outcomes)
				}
				var wantDLQ []string
				if tc.dlq != nil {
					wantDLQ = tc.dlq(r)
				}
				for _, q := range []struct {
					name string
					want []string
				}{{"users", tc.queue}, {"users.dlq", wantDLQ}, {"users.quarantine", tc.quar}} {
					if got := tr.list(q.name); !slices.Equal(got, q.want) {
						t.Errorf("%s holds\n%q\nwant\n%q", q.name, got, q.want)
					}
				}
				if p := tr.inFlight("users"); len(p) != 0 {
					t.Errorf("users:processing holds %q", p)
				}
				for _, rep := range reps {
					if strings.Contains(fmt.Sprint(rep.Err), "ada@example.com") || strings.Contains(slog.AnyValue(rep).Resolve().String(), "ada@example.com") {
						t.Errorf("report shows personal data: %v", rep.Err)
					}
				}
				if tc.name == "handler error" && !errors.Is(reps[0].Err, handlerErr) {
					t.Errorf("Report.Err %v does not wrap the handler's error", reps[0].Err)
				}
			})
		}
	}
}

// TestWorkerReport: what the hook gets for a retried message.
func TestWorkerReport(t *testing.T) {
	body := piiEnvelope(piiProtectedData)
	tr := newMem("users", body)
	r := piiRouter(func(context.Context, Message[piiEvent]) error { return errors.New("later") })
	reps, err := runUntil(t, 1, func(report WorkerOption) *Worker[*received] {
		w, _ := NewWorker(tr, r, "users", report, WithWorkerClock(workerClock), WithIdleWait(time.Millisecond))
		return w
	})
	if err != nil || len(reps) != 1 {
		t.Fatalf("Run = %v, %d reports", err, len(reps))
	}
	rep := reps[0]
	rep.Err = nil
	want := Report{Queue: "users", URN: piiURN, MessageID: testID, TraceID: testTrace, Outcome: OutcomeRetried, Attempts: 1, Target: "users"}
	if rep != want {
		t.Errorf("report %+v, want %+v", rep, want)
	}
	if got, want := slog.AnyValue(reps[0]).Resolve().String(), "[queue=users urn="+piiURN+" message_id="+testID+" trace_id="+testTrace+
		" outcome=retried attempts=1 target=users duration_ms=0 error="+piiURN+": later]"; got != want {
		t.Errorf("LogValue %s, want %s", got, want)
	}
}

// TestWorkerCancellation: a stop at any step finishes the message in flight, settles
// it under a context that is not the cancelled one, and then ends Run with nil.
func TestWorkerCancellation(t *testing.T) {
	valid := piiEnvelope(piiProtectedData)
	for _, step := range []string{"before", "pop", "handler", "publish", "ack"} {
		t.Run(step, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			tr := newMem("users", valid, valid)
			var handled atomic.Int32
			var handlerCtxErr error
			tr.fault = func(op, _ string) error {
				if op == step {
					cancel()
				}
				return nil
			}
			r := piiRouter(func(hctx context.Context, m Message[piiEvent]) error {
				handled.Add(1)
				if step == "handler" {
					cancel()
					handlerCtxErr = hctx.Err()
				}
				if step == "publish" {
					return errors.New("retry me") // publish comes from the retry
				}
				return nil
			})
			if step == "before" {
				cancel()
			}
			w, err := NewWorker(tr, r, "users", WithIdleWait(time.Millisecond))
			if err != nil {
				t.Fatal(err)
			}
			if err := w.Run(ctx); err != nil {
				t.Fatalf("Run = %v", err)
			}
			wantHandled, wantQueue := int32(1), []string{valid}
			switch step {
			case "before":
				wantHandled, wantQueue = 0, []string{valid, valid}
			case "publish":
				wantQueue = []string{valid, strings.Replace(valid, `"attempts":0}`, `"attempts":1}`, 1)}
			}
			if handled.Load() != wantHandled {
				t.Errorf("handled %d messages, want %d", handled.Load(), wantHandled)
			}
			if handlerCtxErr != nil {
				t.Errorf("the handler's context was cancelled at once: %v", handlerCtxErr)
			}
			if got := tr.list("users"); !slices.Equal(got, wantQueue) {
				t.Errorf("users holds %q, want %q", got, wantQueue)
			}
			if p := tr.inFlight("users"); len(p) != 0 {
				t.Errorf("users:processing holds %q", p)
			}
		})
	}
}

// TestWorkerGrace: a handler that outlives the shutdown grace has its context
// cancelled; its message is released unchanged, not counted as an attempt.
func TestWorkerGrace(t *testing.T) {
	valid := piiEnvelope(piiProtectedData)
	tr := newMem("users", valid)
	ctx, cancel := context.WithCancel(context.Background())
	r := piiRouter(func(hctx context.Context, _ Message[piiEvent]) error {
		cancel()
		<-hctx.Done()
		return hctx.Err()
	})
	var rep Report
	w, _ := NewWorker(tr, r, "users", WithShutdownGrace(20*time.Millisecond), WithReport(func(_ context.Context, r Report) { rep = r }))
	start := time.Now()
	if err := w.Run(ctx); err != nil {
		t.Fatalf("Run = %v", err)
	}
	if d := time.Since(start); d < 20*time.Millisecond {
		t.Errorf("the handler was cancelled after %v, before the grace of 20ms", d)
	}
	if got := tr.list("users"); !slices.Equal(got, []string{valid}) || len(tr.inFlight("users")) != 0 {
		t.Errorf("users holds %q, processing %q; want the body released unchanged", got, tr.inFlight("users"))
	}
	if rep.Outcome != OutcomeReleased || !errors.Is(rep.Err, context.Canceled) {
		t.Errorf("report %+v, want released with context.Canceled", rep)
	}
}

// TestWorkerTransportErrors: a failing publish or ack is tried again; one that keeps
// failing stops Run with its error, and the message stays reserved (not lost).
func TestWorkerTransportErrors(t *testing.T) {
	valid := piiEnvelope(piiProtectedData)
	invalid := strings.Replace(valid, `{"id":7,`, `{"id":"seven",`, 1)
	broken := errors.New("connection reset")
	for _, tc := range []struct {
		name     string
		body     string
		op       string
		failures int
		wantErr  string
		wantDLQ  int
	}{
		{name: "ack fails twice", body: valid, op: "ack", failures: 2},
		{name: "pop fails twice", body: valid, op: "pop", failures: 2},
		{name: "ack keeps failing", body: valid, op: "ack", failures: 100,
			wantErr: `babelqueue: acknowledging a message of "users" (handled): connection reset`},
		{name: "dead-letter publish keeps failing", body: invalid, op: "publish", failures: 100,
			wantErr: `babelqueue: publishing a message of "users" to "users.dlq": connection reset`},
		{name: "ack after dead-lettering keeps failing", body: invalid, op: "ack", failures: 100, wantDLQ: 1,
			wantErr: `babelqueue: acknowledging a message of "users" (dead_lettered): connection reset`},
		{name: "pop keeps failing", body: valid, op: "pop", failures: 100,
			wantErr: `babelqueue: reserving from "users": connection reset`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := newMem("users", tc.body)
			var n atomic.Int32
			tr.fault = func(op, _ string) error {
				if op == tc.op && n.Add(1) <= int32(tc.failures) {
					return broken
				}
				return nil
			}
			r := piiRouter(func(context.Context, Message[piiEvent]) error { return nil })
			var reps []Report
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			w, _ := NewWorker(tr, r, "users", WithTransportRetries(3, time.Millisecond), WithIdleWait(time.Millisecond),
				WithReport(func(_ context.Context, r Report) { reps = append(reps, r); cancel() }))
			err := w.Run(ctx)
			if tc.wantErr == "" {
				if err != nil || len(reps) != 1 || reps[0].Outcome != OutcomeHandled || len(tr.inFlight("users")) != 0 {
					t.Fatalf("Run = %v, reports %+v, processing %q; want handled", err, reps, tr.inFlight("users"))
				}
				return
			}
			if err == nil || err.Error() != tc.wantErr || !errors.Is(err, broken) {
				t.Fatalf("Run = %v, want %s", err, tc.wantErr)
			}
			if tc.op == "pop" {
				if len(reps) != 0 || len(tr.list("users")) != 1 {
					t.Errorf("reports %+v, users %q", reps, tr.list("users"))
				}
				return
			}
			if got := tr.inFlight("users"); !slices.Equal(got, []string{tc.body}) {
				t.Errorf("users:processing holds %q, want the message still reserved", got)
			}
			if len(tr.list("users.dlq")) != tc.wantDLQ {
				t.Errorf("users.dlq holds %q", tr.list("users.dlq"))
			}
			if len(reps) != 1 || reps[0].Outcome != "" || !errors.Is(reps[0].Err, broken) {
				t.Errorf("reports %+v, want one with no outcome and the transport's error", reps)
			}
			if n := int(n.Load()); n != 4 {
				t.Errorf("%s tried %d times, want 4 (1 + 3 retries)", tc.op, n)
			}
		})
	}
}

// TestWorkerConcurrency: with WithConcurrency(4) four messages are in flight at once,
// and each of 200 is handled exactly once.
func TestWorkerConcurrency(t *testing.T) {
	var bodies []string
	for i := range 200 {
		bodies = append(bodies, strings.Replace(piiEnvelope(piiProtectedData), `{"id":7,`, `{"id":`+strconv.Itoa(i+1)+`,`, 1))
	}
	tr := newMem("users", bodies...)
	var (
		mu       sync.Mutex
		seen     = map[int64]int{}
		inFlight atomic.Int32
		all4     = make(chan struct{})
		once     sync.Once
	)
	r := NewRouter(WithRouterCipher(keyA))
	Handle(r, func(_ context.Context, m Message[piiEvent]) error {
		mu.Lock()
		seen[m.Data.ID]++
		mu.Unlock()
		if n := inFlight.Add(1); n == 4 {
			once.Do(func() { close(all4) })
		}
		select {
		case <-all4:
		case <-time.After(2 * time.Second):
		}
		inFlight.Add(-1)
		return nil
	})
	reps, err := runUntil(t, 200, func(report WorkerOption) *Worker[*received] {
		w, _ := NewWorker(tr, r, "users", report, WithConcurrency(4), WithIdleWait(time.Millisecond))
		return w
	})
	if err != nil || len(reps) != 200 {
		t.Fatalf("Run = %v, %d reports", err, len(reps))
	}
	select {
	case <-all4:
	default:
		t.Error("never four messages in flight at once")
	}
	for i := int64(1); i <= 200; i++ {
		if seen[i] != 1 {
			t.Errorf("message %d handled %d times", i, seen[i])
		}
	}
	if tr.pops != 200 || len(tr.inFlight("users")) != 0 {
		t.Errorf("%d pops, processing %q", tr.pops, tr.inFlight("users"))
	}
}

// noBody is a transport whose message type has no Body field.
type noBody struct{ memTransport }

func (t *noBody) Pop(context.Context, string, time.Duration) (*struct{ Text string }, error) {
	return nil, nil
}
func (t *noBody) Ack(context.Context, *struct{ Text string }) error { return nil }

// TestNewWorkerErrors: what NewWorker refuses.
func TestNewWorkerErrors(t *testing.T) {
	r := NewRouter()
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"no Body", func() error { _, err := NewWorker(&noBody{}, r, "q"); return err }(),
			"babelqueue: NewWorker: the transport's message type *struct { Text string } is not a pointer to a struct with a string field Body"},
		{"nil router", func() error { _, err := NewWorker(newMem("q"), nil, "q"); return err }(), "babelqueue: NewWorker: nil transport or router"},
		{"no queue", func() error { _, err := NewWorker(newMem("q"), r, ""); return err }(), "babelqueue: NewWorker: empty queue"},
		{"strategy", func() error { _, err := NewWorker(newMem("q"), r, "q", WithUnknownURN("requeue")); return err }(),
			`babelqueue: NewWorker: unknown-URN strategy "requeue" is not fail, delete, release or dead_letter`},
		{"dead letters to the queue", func() error {
			_, err := NewWorker(newMem("q"), r, "billing", WithDeadLetterQueue("billing"))
			return err
		}(),
			`babelqueue: NewWorker: WithDeadLetterQueue("billing") is the queue the worker consumes: each dead letter would be reserved and dead-lettered again, forever`},
		{"quarantine to the queue", func() error {
			_, err := NewWorker(newMem("q"), r, "billing", WithQuarantineQueue("billing"))
			return err
		}(),
			`babelqueue: NewWorker: WithQuarantineQueue("billing") is the queue the worker consumes: each dead letter would be reserved and dead-lettered again, forever`},
		{"empty dead-letter queue", func() error { _, err := NewWorker(newMem("q"), r, "q", WithDeadLetterQueue("")); return err }(),
			`babelqueue: NewWorker: WithDeadLetterQueue(""): the queue name is empty`},
		{"empty quarantine queue", func() error { _, err := NewWorker(newMem("q"), r, "q", WithQuarantineQueue("")); return err }(),
			`babelqueue: NewWorker: WithQuarantineQueue(""): the queue name is empty`},
	} {
		if tc.err == nil || tc.err.Error() != tc.want || !errors.Is(tc.err, ErrWorkerConfig) {
			t.Errorf("%s: %v, want %s (ErrWorkerConfig)", tc.name, tc.err, tc.want)
		}
	}
	// One queue for dead letters and quarantined bodies is fine: neither is consumed.
	if _, err := NewWorker(newMem("q"), r, "q", WithDeadLetterQueue("q.bad"), WithQuarantineQueue("q.bad")); err != nil {
		t.Errorf("one queue for dead letters and quarantine: %v", err)
	}
}

// TestWorkerBodyLimit: a body over the Router's size limit is not parsed and goes
// to the quarantine queue byte for byte, not to the dead-letter queue with a block
// that makes it larger still; so does one under the limit whose dead letter would be
// over it. A body whose dead letter fits is dead-lettered as usual.
func TestWorkerBodyLimit(t *testing.T) {
	valid := piiEnvelope(piiProtectedData)
	fails := func(context.Context, Message[piiEvent]) error { return errors.New("mailer down") }
	for _, tc := range []struct {
		name    string
		limit   int
		outcome Outcome
		quar    int // bodies on users.quarantine (the original)
		dlq     int
	}{
		{"over the limit", len(valid) - 1, OutcomeQuarantined, 1, 0},
		{"at the limit, dead letter over it", len(valid), OutcomeQuarantined, 1, 0},
		{"dead letter within the limit", len(valid) + 400, OutcomeDeadLettered, 0, 1},
		{"no limit", -1, OutcomeDeadLettered, 0, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := newMem("users", valid)
			r := NewRouter(WithRouterCipher(keyA), WithMaxBodySize(tc.limit))
			Handle(r, fails)
			reps, err := runUntil(t, 1, func(report WorkerOption) *Worker[*received] {
				w, err := NewWorker(tr, r, "users", report, WithMaxAttempts(1), WithWorkerClock(workerClock), WithIdleWait(time.Millisecond))
				if err != nil {
					t.Fatal(err)
				}
				return w
			})
			if err != nil || len(reps) != 1 || reps[0].Outcome != tc.outcome || reps[0].Err == nil {
				t.Fatalf("Run = %v, reports %+v, want one %s", err, reps, tc.outcome)
			}
			if q := tr.list("users.quarantine"); len(q) != tc.quar || tc.quar == 1 && q[0] != valid {
				t.Errorf("users.quarantine holds %q", q)
			}
			if q := tr.list("users.dlq"); len(q) != tc.dlq {
				t.Errorf("users.dlq holds %q", q)
			}
			if tc.outcome == OutcomeQuarantined && (reps[0].Reason != "" || reps[0].Target != "users.quarantine") {
				t.Errorf("report %+v", reps[0])
			}
			if tc.name == "over the limit" && (reps[0].URN != "" || !errors.Is(reps[0].Err, ErrMalformedEnvelope)) {
				t.Errorf("an unparsed body's report %+v", reps[0])
			}
			if len(tr.list("users")) != 0 || len(tr.inFlight("users")) != 0 {
				t.Errorf("users holds %q, processing %q", tr.list("users"), tr.inFlight("users"))
			}
		})
	}
}

// customErr is a handler's own error type.
type customErr struct{ code int }

func (e *customErr) Error() string { return "code " + strconv.Itoa(e.code) }

// TestExceptionOf: dead_letter.exception names the runtime's error class, else the
// handler's error type below fmt's and errors' wrappers.
func TestExceptionOf(t *testing.T) {
	inner := &customErr{7}
	for _, tc := range []struct {
		err  error
		want string
	}{
		{fmt.Errorf("%w: missing trace_id", ErrMalformedEnvelope), "rt.ErrMalformedEnvelope"},
		{fmt.Errorf("%w: no handler for %q", ErrUnknownURN, "urn:x"), "rt.ErrUnknownURN"},
		{fmt.Errorf("%w: 2", ErrUnsupportedSchemaVersion), "rt.ErrUnsupportedSchemaVersion"},
		{fmt.Errorf("urn:x: %w", ValidationErrors{{Path: "$", Message: "m"}}), "rt.ErrInvalidData"},
		{fmt.Errorf("urn:x: $.email: %w", fmt.Errorf("kms: %w", ErrCipherUnavailable)), "rt.ErrCipherUnavailable"},
		{fmt.Errorf("urn:x: %w", &PanicError{Value: "boom"}), "rt.ErrHandlerPanic"},
		{fmt.Errorf("urn:x: %w", &redactedError{text: "a***", err: fmt.Errorf("mail: %w", inner)}), "*rt.customErr"},
		{fmt.Errorf("urn:x: %w", errors.Join(fmt.Errorf("a: %w", inner), io.EOF)), "*rt.customErr"},
		{fmt.Errorf("urn:x: %w", fmt.Errorf("two: %w, %w", inner, io.EOF)), "*rt.customErr"},
		{fmt.Errorf("urn:x: %w", errors.New("mailer down")), "*errors.errorString"},
		{fmt.Errorf("urn:x: %w", nil), "*fmt.wrapError"},
	} {
		if got := exceptionOf(tc.err); got != tc.want {
			t.Errorf("exceptionOf(%v) = %q, want %q", tc.err, got, tc.want)
		}
	}
}

// TestWorkerRecovery: the recovery hook runs once, with the queue, before the first
// Pop; its error stops Run.
func TestWorkerRecovery(t *testing.T) {
	tr := newMem("users", piiEnvelope(piiProtectedData))
	var calls []string
	w, _ := NewWorker(tr, NewRouter(), "users", WithRecovery(func(_ context.Context, q string) error {
		calls = append(calls, fmt.Sprintf("%s after %d pops", q, tr.pops))
		return errors.New("no access")
	}))
	err := w.Run(context.Background())
	if err == nil || err.Error() != `babelqueue: recovering "users": no access` || !slices.Equal(calls, []string{"users after 0 pops"}) {
		t.Errorf("Run = %v, calls %q", err, calls)
	}
}
