// This file is hand-written (it has no generated-code header, so bqgen generate
// leaves it alone): the generated Worker over a real redis-server (issue 24), with a
// transport that does what the BabelQueue Go SDK's Redis transport does (RPUSH to
// publish, BLMOVE to <queue>:processing to reserve, LREM to acknowledge; a done
// context refused before a command is sent, as its client does), over a small RESP
// client of this file: the generated code depends on no Redis client, and neither do
// these tests.
//
// redis-server comes from Debian's packages (.ci/run installs it); the tests start
// one on a free loopback port. Without it they fail in CI (CI=true) and skip
// elsewhere.

package events_test

import (
	"bufio"
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/babelqueue/bqgen/examples/events"
	"github.com/babelqueue/bqgen/examples/events/orders"
)

// ---- a RESP client, just enough for a reliable queue ----

type respConn struct {
	c net.Conn
	r *bufio.Reader
	w *bufio.Writer
}

// do sends one command and reads its reply: a string (simple, bulk), an int64, nil
// (null bulk or array), []any, or an error reply as a Go error.
func (c *respConn) do(args ...string) (any, error) {
	fmt.Fprintf(c.w, "*%d\r\n", len(args))
	for _, a := range args {
		fmt.Fprintf(c.w, "$%d\r\n%s\r\n", len(a), a)
	}
	if err := c.w.Flush(); err != nil {
		return nil, err
	}
	return c.read()
}

func (c *respConn) read() (any, error) {
	line, err := c.r.ReadString('\n')
	if err != nil {
		return nil, err
	}
	line = strings.TrimSuffix(line, "\r\n")
	if line == "" {
		return nil, errors.New("resp: empty line")
	}
	switch line[0] {
	case '+':
		return line[1:], nil
	case '-':
		return nil, errors.New("redis: " + line[1:])
	case ':':
		return strconv.ParseInt(line[1:], 10, 64)
	case '$':
		n, err := strconv.Atoi(line[1:])
		if err != nil || n < 0 {
			return nil, err
		}
		b := make([]byte, n+2)
		if _, err := io.ReadFull(c.r, b); err != nil {
			return nil, err
		}
		return string(b[:n]), nil
	case '*':
		n, err := strconv.Atoi(line[1:])
		if err != nil || n < 0 {
			return nil, err
		}
		out := make([]any, n)
		for i := range out {
			if out[i], err = c.read(); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	return nil, fmt.Errorf("resp: unexpected %q", line)
}

// redisPool hands out connections to one server, one command at a time each.
type redisPool struct {
	addr  string
	conns chan *respConn
}

func newRedisPool(addr string, size int) *redisPool {
	return &redisPool{addr: addr, conns: make(chan *respConn, size)}
}

func (p *redisPool) do(args ...string) (any, error) {
	var c *respConn
	select {
	case c = <-p.conns:
	default:
		nc, err := net.Dial("tcp", p.addr)
		if err != nil {
			return nil, err
		}
		c = &respConn{c: nc, r: bufio.NewReaderSize(nc, 64<<10), w: bufio.NewWriter(nc)}
	}
	v, err := c.do(args...)
	if err != nil && !strings.HasPrefix(err.Error(), "redis: ") {
		c.c.Close() // a broken connection is not reused
		return nil, err
	}
	select {
	case p.conns <- c:
	default:
		c.c.Close()
	}
	return v, err
}

func (p *redisPool) close() {
	for {
		select {
		case c := <-p.conns:
			c.c.Close()
		default:
			return
		}
	}
}

// ---- the SDK Redis transport's semantics ----

// sdkReceived has the fields of the Go SDK's babelqueue.ReceivedMessage.
type sdkReceived struct {
	Body    string
	Queue   string
	Handle  any
	Headers map[string]string
}

// redisTransport does what the Go SDK's redis.Transport does: Publish is RPUSH,
// Pop is BLMOVE <queue> <queue>:processing LEFT RIGHT <timeout> (nil on timeout), Ack
// is LREM <queue>:processing 1 <value>. A done context is refused before the command
// is sent, as the SDK's client does.
type redisTransport struct{ p *redisPool }

func (t *redisTransport) Publish(ctx context.Context, queue, body string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	_, err := t.p.do("RPUSH", queue, body)
	return err
}

func (t *redisTransport) Pop(ctx context.Context, queue string, timeout time.Duration) (*sdkReceived, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	v, err := t.p.do("BLMOVE", queue, queue+":processing", "LEFT", "RIGHT", strconv.FormatFloat(timeout.Seconds(), 'f', 3, 64))
	if err != nil || v == nil {
		return nil, err
	}
	s := v.(string)
	return &sdkReceived{Body: s, Queue: queue, Handle: s}, nil
}

func (t *redisTransport) Ack(ctx context.Context, m *sdkReceived) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	_, err := t.p.do("LREM", m.Queue+":processing", "1", m.Handle.(string))
	return err
}

// startRedis starts a redis-server on a free loopback port for the test and returns
// a pool of connections to it.
func startRedis(tb testing.TB) *redisPool {
	tb.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		if os.Getenv("CI") == "true" {
			tb.Fatal("redis-server is not installed (.ci/run installs Debian's redis-server)")
		}
		tb.Skip("redis-server is not installed (Debian's redis-server)")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	l.Close()
	cmd := exec.Command(bin, "--port", port, "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", tb.TempDir())
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	p := newRedisPool("127.0.0.1:"+port, 16)
	tb.Cleanup(p.close)
	for i := 0; ; i++ {
		if v, err := p.do("PING"); err == nil && v == "PONG" {
			return p
		} else if i == 100 {
			tb.Fatalf("redis-server did not answer on port %s: %v", port, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (p *redisPool) list(tb testing.TB, key string) []string {
	tb.Helper()
	v, err := p.do("LRANGE", key, "0", "-1")
	if err != nil {
		tb.Fatal(err)
	}
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}

func (p *redisPool) llen(tb testing.TB, key string) int {
	tb.Helper()
	v, err := p.do("LLEN", key)
	if err != nil {
		tb.Fatal(err)
	}
	return int(v.(int64))
}

// push appends bodies to queue, 1,000 per RPUSH.
func (p *redisPool) push(tb testing.TB, queue string, bodies []string) {
	tb.Helper()
	for len(bodies) > 0 {
		n := min(len(bodies), 1000)
		if _, err := p.do(append([]string{"RPUSH", queue}, bodies[:n]...)...); err != nil {
			tb.Fatal(err)
		}
		bodies = bodies[n:]
	}
}

// ---- a cipher ----

// gcmCipher is AES-GCM with a random nonce, base64 of nonce ‖ ciphertext: an
// events.Cipher of the kind the SDK's gdpr.NewAESGCMCipher is.
type gcmCipher struct{ aead cipher.AEAD }

func newGCM(tb testing.TB, key string) gcmCipher {
	b, err := aes.NewCipher([]byte(key))
	if err != nil {
		tb.Fatal(err)
	}
	a, err := cipher.NewGCM(b)
	if err != nil {
		tb.Fatal(err)
	}
	return gcmCipher{a}
}

func (c gcmCipher) Encrypt(p []byte) (string, error) {
	nonce := make([]byte, c.aead.NonceSize())
	_, _ = rand.Read(nonce)
	return base64.StdEncoding.EncodeToString(c.aead.Seal(nonce, nonce, p, nil)), nil
}

func (c gcmCipher) Decrypt(s string) ([]byte, error) {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(b) < c.aead.NonceSize() {
		return nil, errors.New("not a ciphertext")
	}
	return c.aead.Open(nil, b[:c.aead.NonceSize()], b[c.aead.NonceSize():], nil)
}

// ---- the tests ----

// order returns the body of a valid urn:babel:orders:created.v2 with order id n,
// protected with c.
func order(tb testing.TB, n int64, c events.Cipher) string {
	tb.Helper()
	d := benchOrder()
	d.OrderID = n
	m, err := events.New(d, events.WithCipher(c))
	if err != nil {
		tb.Fatal(err)
	}
	b, err := m.Encode()
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}

// runWorker runs w until ctx is done (its report hook cancels it), or 60 s passed (a
// failure); it returns Run's error.
func runWorker(tb testing.TB, w *events.Worker[*sdkReceived], ctx context.Context, cancel context.CancelFunc) error {
	tb.Helper()
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()
	select {
	case err := <-done:
		return err
	case <-time.After(60 * time.Second):
		cancel()
		<-done
		tb.Fatal("the worker did not finish in 60 s")
		return nil
	}
}

// TestWorkerRedisOutcomes: a body of each kind pushed raw onto orders; the
// dead-letter queue then holds each failure with its reason and its original bytes
// (but for attempts, for a message retried), the quarantine queue the body that is
// not JSON, and orders:processing nothing.
func TestWorkerRedisOutcomes(t *testing.T) {
	p := startRedis(t)
	key := newGCM(t, "0123456789abcdef0123456789abcdef")
	wrong := newGCM(t, "fedcba9876543210fedcba9876543210")
	valid := order(t, 1042, key)
	invalid := strings.Replace(order(t, 1042, key), `"order_id":1042`, `"order_id":-5`, 1)
	unknown := strings.Replace(order(t, 1042, key), orders.CreatedV2URN, "urn:babel:orders:refunded", 1)
	failing := order(t, 13, key)
	wrongKey := order(t, 1042, wrong)
	malformed := "not json {"
	p.push(t, "orders", []string{valid, invalid, malformed, unknown, failing, wrongKey})

	router := events.NewRouter(events.WithRouterCipher(key))
	var handled atomic.Int32
	events.Handle(router, func(_ context.Context, m events.Message[orders.CreatedV2]) error {
		if m.Data.OrderID == 13 {
			return fmt.Errorf("cannot reach %s", m.Data.Customer.Email)
		}
		handled.Add(1)
		return nil
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var n atomic.Int32
	// 1 each for valid, invalid, malformed, wrong key; 3 each for unknown and failing.
	w, err := events.NewWorker(&redisTransport{p}, router, "orders", events.WithPollTimeout(100*time.Millisecond),
		events.WithReport(func(context.Context, events.Report) {
			if n.Add(1) == 10 {
				cancel()
			}
		}))
	if err != nil {
		t.Fatal(err)
	}
	if err := runWorker(t, w, ctx, cancel); err != nil {
		t.Fatalf("Run = %v", err)
	}
	if handled.Load() != 1 {
		t.Errorf("%d messages handled, want 1", handled.Load())
	}
	type block struct {
		Reason        string  `json:"reason"`
		Error         *string `json:"error"`
		OriginalQueue string  `json:"original_queue"`
		Attempts      int     `json:"attempts"`
		Lang          string  `json:"lang"`
	}
	at2 := func(s string) string { return strings.Replace(s, `"attempts":0}`, `"attempts":2}`, 1) }
	want := []struct {
		original, reason string
		attempts         int
	}{
		{invalid, "poison", 1}, {wrongKey, "poison", 1}, {at2(unknown), "unknown_urn", 3}, {at2(failing), "failed", 3},
	}
	dlq := p.list(t, "orders.dlq")
	if len(dlq) != len(want) {
		t.Fatalf("orders.dlq holds %d messages, want %d:\n%s", len(dlq), len(want), strings.Join(dlq, "\n"))
	}
	for _, body := range dlq {
		i := strings.LastIndex(body, `,"dead_letter":`)
		if i < 0 {
			t.Errorf("no dead_letter block: %s", body)
			continue
		}
		original := body[:i] + "}"
		var b block
		if err := json.Unmarshal([]byte(body[i+len(`,"dead_letter":`):len(body)-1]), &b); err != nil {
			t.Errorf("dead_letter block of %s: %v", body, err)
		}
		found := false
		for _, w := range want {
			if w.original == original {
				found = true
				if b.Reason != w.reason || b.OriginalQueue != "orders" || b.Attempts != w.attempts || b.Lang != "go" || b.Error == nil {
					t.Errorf("dead_letter %+v, want reason %s, attempts %d, from orders", b, w.reason, w.attempts)
				}
				if strings.Contains(*b.Error, "ada@example.com") {
					t.Errorf("dead_letter.error shows personal data: %s", *b.Error)
				}
			}
		}
		if !found {
			t.Errorf("orders.dlq holds a message that is no original with its block added:\n%s", body)
		}
	}
	if q := p.list(t, "orders.quarantine"); len(q) != 1 || q[0] != malformed {
		t.Errorf("orders.quarantine holds %q, want the malformed body as it is", q)
	}
	for _, k := range []string{"orders", "orders:processing"} {
		if n := p.llen(t, k); n != 0 {
			t.Errorf("%s holds %d messages", k, n)
		}
	}
}

// metaID returns the meta.id of an envelope the generated Encode wrote.
func metaID(body string) string {
	_, rest, _ := strings.Cut(body, `"meta":{"id":"`)
	id, _, _ := strings.Cut(rest, `"`)
	return id
}

// TestWorkerRedisStopAndExactlyOnce: 20,000 messages, handled by 8 loops at once, each
// exactly once (counted by meta.id); and a graceful stop in the middle of a stream
// leaves nothing in orders:processing, and every message either handled once or
// still on orders.
func TestWorkerRedisStopAndExactlyOnce(t *testing.T) {
	p := startRedis(t)
	key := newGCM(t, "0123456789abcdef0123456789abcdef")
	const total = 20000
	body := order(t, 1042, key)
	bodies := make([]string, total)
	ids := make(map[string]bool, total)
	for i := range bodies {
		id := events.NewUUID()
		bodies[i] = strings.Replace(body, metaID(body), string(id), 1)
		ids[string(id)] = true
	}
	p.push(t, "orders", bodies)

	var mu sync.Mutex
	seen := make(map[string]int, total)
	router := events.NewRouter(events.WithRouterCipher(key))
	events.Handle(router, func(_ context.Context, m events.Message[orders.CreatedV2]) error {
		mu.Lock()
		seen[m.Meta.ID]++
		mu.Unlock()
		return nil
	})
	run := func(stopAt int32) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var n atomic.Int32
		w, err := events.NewWorker(&redisTransport{p}, router, "orders", events.WithConcurrency(8),
			events.WithPollTimeout(100*time.Millisecond),
			events.WithReport(func(_ context.Context, r events.Report) {
				if r.Outcome != events.OutcomeHandled {
					t.Errorf("report %+v", r)
				}
				if n.Add(1) == stopAt {
					cancel()
				}
			}))
		if err != nil {
			t.Fatal(err)
		}
		if err := runWorker(t, w, ctx, cancel); err != nil {
			t.Fatalf("Run = %v", err)
		}
	}

	// A stop after 3,000 messages, mid-stream: nothing stays reserved.
	run(3000)
	if n := p.llen(t, "orders:processing"); n != 0 {
		t.Fatalf("after the stop orders:processing holds %d messages", n)
	}
	left := p.list(t, "orders")
	mu.Lock()
	if len(seen)+len(left) != total || len(seen) < 3000 {
		t.Errorf("after the stop: %d handled + %d left on orders, want %d (at least 3000 handled)", len(seen), len(left), total)
	}
	for _, b := range left {
		if seen[metaID(b)] != 0 {
			t.Errorf("message %s both handled and left on the queue", metaID(b))
		}
	}
	mu.Unlock()

	// The rest: every message handled exactly once.
	run(int32(len(left)))
	for id := range ids {
		if seen[id] != 1 {
			t.Errorf("message %s handled %d times", id, seen[id])
		}
	}
	if len(seen) != total {
		t.Errorf("%d distinct messages handled, want %d", len(seen), total)
	}
	for _, k := range []string{"orders", "orders:processing", "orders.dlq"} {
		if n := p.llen(t, k); n != 0 {
			t.Errorf("%s holds %d messages", k, n)
		}
	}
}

// TestWorkerRedisRecovery: messages a consumer that died left in orders:processing (it
// reserved them with BLMOVE, as the SDK's transport does, and never acknowledged them)
// are moved back by a WithRecovery hook, as docs/generated-code.md ("What the transport
// owns") describes for a queue with one consumer, and then handled once each.
func TestWorkerRedisRecovery(t *testing.T) {
	p := startRedis(t)
	key := newGCM(t, "0123456789abcdef0123456789abcdef")
	var bodies []string
	for i := range 5 {
		bodies = append(bodies, order(t, int64(100+i), key))
	}
	p.push(t, "orders", bodies)
	for range 2 { // the consumer that died had reserved two
		if _, err := p.do("BLMOVE", "orders", "orders:processing", "LEFT", "RIGHT", "1"); err != nil {
			t.Fatal(err)
		}
	}
	router := events.NewRouter(events.WithRouterCipher(key))
	var mu sync.Mutex
	seen := map[int64]int{}
	events.Handle(router, func(_ context.Context, m events.Message[orders.CreatedV2]) error {
		mu.Lock()
		defer mu.Unlock()
		seen[m.Data.OrderID]++
		return nil
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var n atomic.Int32
	w, err := events.NewWorker(&redisTransport{p}, router, "orders", events.WithPollTimeout(100*time.Millisecond),
		events.WithRecovery(func(_ context.Context, queue string) error {
			for { // LMOVE back until the processing list is empty
				v, err := p.do("LMOVE", queue+":processing", queue, "RIGHT", "LEFT")
				if err != nil || v == nil {
					return err
				}
			}
		}),
		events.WithReport(func(context.Context, events.Report) {
			if n.Add(1) == 5 {
				cancel()
			}
		}))
	if err != nil {
		t.Fatal(err)
	}
	if err := runWorker(t, w, ctx, cancel); err != nil {
		t.Fatalf("Run = %v", err)
	}
	for i := int64(100); i < 105; i++ {
		if seen[i] != 1 {
			t.Errorf("order %d handled %d times", i, seen[i])
		}
	}
	for _, k := range []string{"orders", "orders:processing", "orders.dlq"} {
		if n := p.llen(t, k); n != 0 {
			t.Errorf("%s holds %d messages", k, n)
		}
	}
}
