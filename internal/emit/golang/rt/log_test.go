package rt

import (
	"bytes"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/babelqueue/bqgen/internal/emit/golang/rt/bqrt"
)

// logEvent is a message data type with an x-gdpr-sensitive field (email).
type logEvent struct {
	ID    int64
	Email string
}

var logEventDesc = bqrt.Desc{Kind: bqrt.KObject, Fields: []bqrt.Field{
	{Key: "id", Required: true, Type: bqrt.Desc{Kind: bqrt.KInt64}},
	{Key: "email", Required: true, Type: bqrt.Desc{Kind: bqrt.KString, Flags: bqrt.FGDPR}},
}}

func (*logEvent) BabelQueueMessage() (string, string, *bqrt.Desc, []string) {
	return "urn:babel:users:registered", "users", &logEventDesc, []string{"email"}
}

func dropTime(groups []string, a slog.Attr) slog.Attr {
	if len(groups) == 0 && a.Key == slog.TimeKey {
		return slog.Attr{}
	}
	return a
}

func TestLogMessage(t *testing.T) {
	t.Parallel()
	errText := "handler failed"
	m := &Message[logEvent]{
		URN: "urn:babel:users:registered", TraceID: "4f1c", Data: logEvent{ID: 7, Email: "ada@example.com"}, Attempts: 2,
		Meta:       Meta{ID: "m-1", Queue: "users", Lang: "go", SchemaVersion: 1, CreatedAt: 1700000000001},
		DeadLetter: &DeadLetter{Reason: ReasonFailed, Error: &errText, FailedAt: 1700000000002, OriginalQueue: "users", Attempts: 3},
	}
	var buf bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{ReplaceAttr: dropTime}))
	log.Info("got", "msg", *m)
	want := `{"level":"INFO","msg":"got","msg":{"job":"urn:babel:users:registered","trace_id":"4f1c","data":` +
		`{"id":7,"email":"a***"},"meta":{"id":"m-1","queue":"users","lang":"go","schema_version":1,` +
		`"created_at":1700000000001},"attempts":2,"dead_letter":{"reason":"failed","error":"handler failed",` +
		`"exception":null,"failed_at":1700000000002,"original_queue":"users","attempts":3}}}` + "\n"
	if got := buf.String(); got != want {
		t.Errorf("message:\n got %s\nwant %s", got, want)
	}
	buf.Reset()
	log.Info("got", "msg", m)
	if got := buf.String(); got != want {
		t.Errorf("*message:\n got %s\nwant %s", got, want)
	}
	// The group's own text form (slog.Value.String) is redacted too.
	if s := fmt.Sprintf("%v", m.LogValue()); strings.Contains(s, "ada@") {
		t.Errorf("LogValue printed with fmt shows the email: %s", s)
	}
}

func TestLogNoDescriptor(t *testing.T) {
	t.Parallel()
	// A Message of a type that is not generated logs its data as slog would.
	m := Message[int]{URN: "u", TraceID: "t", Data: 5, Meta: Meta{SchemaVersion: 1}}
	var buf bytes.Buffer
	slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{ReplaceAttr: dropTime})).Info("x", "m", m)
	want := `{"level":"INFO","msg":"x","m":{"job":"u","trace_id":"t","data":5,"meta":{"id":"","queue":"","lang":"",` +
		`"schema_version":1,"created_at":0},"attempts":0}}` + "\n"
	if got := buf.String(); got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
}
