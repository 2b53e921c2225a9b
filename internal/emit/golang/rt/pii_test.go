package rt

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/babelqueue/bqgen/internal/emit/golang/rt/bqrt"
)

// piiEvent is a message data type with x-gdpr-sensitive values of every shape: a
// string with a format, an integer, an optional string, the elements of an array, a
// string in an object, and an object marked whole.
type piiEvent struct {
	ID      int64
	Email   string
	Age     int32
	Note    *string
	Tags    []string
	Profile piiProfile
	Card    piiCard
}

type piiProfile struct {
	Name string
	City string
}

type piiCard struct {
	Last4  string
	Expiry int64
}

const piiURN = "urn:babel:users:registered.v2"

var piiEventDesc = bqrt.Desc{Kind: bqrt.KObject, Flags: bqrt.FClosed | bqrt.FChecked, Fields: []bqrt.Field{
	{Key: "id", Required: true, Type: bqrt.Desc{Kind: bqrt.KInt64}},
	{Key: "email", Required: true, Type: bqrt.Desc{Kind: bqrt.KString, Flags: bqrt.FChecked | bqrt.FGDPR, Format: "email"}},
	{Key: "age", Required: true, Type: bqrt.Desc{Kind: bqrt.KInt32, Flags: bqrt.FGDPR}},
	{Key: "note", Type: bqrt.Desc{Kind: bqrt.KString, Flags: bqrt.FGDPR}},
	{Key: "tags", Required: true, Type: bqrt.Desc{Kind: bqrt.KArray, Elem: &bqrt.Desc{Kind: bqrt.KString, Flags: bqrt.FGDPR}}},
	{Key: "profile", Required: true, Type: bqrt.Desc{Kind: bqrt.KObject, Flags: bqrt.FClosed, Fields: []bqrt.Field{
		{Key: "name", Required: true, Type: bqrt.Desc{Kind: bqrt.KString, Flags: bqrt.FGDPR}},
		{Key: "city", Required: true, Type: bqrt.Desc{Kind: bqrt.KString}},
	}}},
	{Key: "card", Required: true, Type: bqrt.Desc{Kind: bqrt.KObject, Flags: bqrt.FClosed | bqrt.FGDPR, Fields: []bqrt.Field{
		{Key: "last4", Required: true, Type: bqrt.Desc{Kind: bqrt.KString}},
		{Key: "expiry", Required: true, Type: bqrt.Desc{Kind: bqrt.KInt64}},
	}}},
}}

// piiPaths is what bqgen writes for piiEvent: the SDKs' paths, sorted.
var piiPaths = []string{"age", "card", "email", "note", "profile.name", "tags[]"}

func (*piiEvent) BabelQueueMessage() (string, string, *bqrt.Desc, []string) {
	return piiURN, "users", &piiEventDesc, piiPaths
}

func piiData() piiEvent {
	return piiEvent{ID: 7, Email: "ada@example.com", Age: 36, Tags: []string{"vip", "<b>"},
		Profile: piiProfile{Name: "Ada Lovelace", City: "London"}, Card: piiCard{Last4: "4242", Expiry: 1700000000000}}
}

// The clear data block of piiData, and the protected one: every marked value is the
// string of testCipher's encryption of its compact JSON.
const piiClearData = `{"id":7,"email":"ada@example.com","age":36,"tags":["vip","<b>"],"profile":{"name":"Ada Lovelace","city":"London"},` +
	`"card":{"last4":"4242","expiry":1700000000000}}`

var piiProtectedData = `{"id":7,"email":"` + enc(`"ada@example.com"`) + `","age":"` + enc(`36`) + `","tags":["` + enc(`"vip"`) + `","` + enc(`"<b>"`) +
	`"],"profile":{"name":"` + enc(`"Ada Lovelace"`) + `","city":"London"},"card":"` + enc(`{"last4":"4242","expiry":1700000000000}`) + `"}`

// testCipher is a deterministic stand-in for an AES-GCM cipher: its prefix, then the
// plaintext in base64. Decrypt refuses a string without its prefix.
type testCipher struct {
	prefix string
	fail   error // Encrypt's error, when set
}

func (c testCipher) Encrypt(p []byte) (string, error) {
	if c.fail != nil {
		return "", c.fail
	}
	return c.prefix + base64.StdEncoding.EncodeToString(p), nil
}

func (c testCipher) Decrypt(s string) ([]byte, error) {
	rest, ok := strings.CutPrefix(s, c.prefix)
	if !ok {
		return nil, errors.New("message authentication failed")
	}
	return base64.StdEncoding.DecodeString(rest)
}

var keyA, keyB = testCipher{prefix: "A1:"}, testCipher{prefix: "B2:"}

func enc(plaintext string) string { s, _ := keyA.Encrypt([]byte(plaintext)); return s }

func piiEnvelope(data string) string {
	return `{"job":"` + piiURN + `","trace_id":"` + testTrace + `","data":` + data +
		`,"meta":{"id":"` + testID + `","queue":"users","lang":"go","schema_version":1,"created_at":1700000000123},"attempts":0}`
}

func TestCipherProducer(t *testing.T) {
	t.Parallel()
	clear, err := New(piiData(), fixedOpts()...)
	if err != nil {
		t.Fatal(err)
	}
	b, err := clear.Encode()
	if err != nil || string(b) != piiEnvelope(piiClearData) {
		t.Fatalf("without a cipher: %s (%v)\nwant %s", b, err, piiEnvelope(piiClearData))
	}
	m, err := New(piiData(), append(fixedOpts(), WithCipher(keyA))...)
	if err != nil {
		t.Fatal(err)
	}
	b, err = m.Encode()
	if err != nil || string(b) != piiEnvelope(piiProtectedData) {
		t.Fatalf("with a cipher:\n got %s (%v)\nwant %s", b, err, piiEnvelope(piiProtectedData))
	}
	if !reflect.DeepEqual(m.Data, piiData()) {
		t.Errorf("Encode changed Data: %+v", m.Data)
	}

	// An absent optional value is not written; a present one is protected.
	d := piiData()
	d.Note = ptr("")
	m, _ = New(d, append(fixedOpts(), WithCipher(keyA))...)
	b, _ = m.Encode()
	if want := `"note":"` + enc(`""`) + `"`; !strings.Contains(string(b), want) {
		t.Errorf("note not protected: %s", b)
	}

	// Publish protects too, and a Cipher error stops the message, naming the value.
	var p fakePublisher
	if _, err := Publish(context.Background(), &p, piiData(), append(fixedOpts(), WithCipher(keyA))...); err != nil || p.called != 1 || p.body != piiEnvelope(piiProtectedData) {
		t.Errorf("Publish: %v %q", err, p.body)
	}
	kms := errors.New("kms unavailable")
	m, _ = New(piiData(), WithCipher(testCipher{fail: kms}))
	if b, err := m.Encode(); !errors.Is(err, kms) || err.Error() != "protect $.age: kms unavailable" || b != nil {
		t.Errorf("Encode with a failing cipher = %q, %v", b, err)
	}
	if DeadLetterReasonOf(kms) != ReasonFailed {
		t.Error("a cipher error is not poison")
	}
	// A message without marked values is the same with a cipher.
	o, _ := New(sampleData(), append(fixedOpts(), WithCipher(keyA))...)
	ob, _ := o.Encode()
	if string(ob) != sampleEnvelope {
		t.Errorf("a message without marks changed: %s", ob)
	}
}

func TestCipherConsumer(t *testing.T) {
	t.Parallel()
	body := []byte(piiEnvelope(piiProtectedData))
	m, err := Decode[piiEvent](body, WithCipher(keyA))
	if err != nil || !reflect.DeepEqual(m.Data, piiData()) {
		t.Fatalf("Decode = %+v, %v", m, err)
	}
	if b, err := m.Encode(); err != nil || string(b) != string(body) {
		t.Errorf("the decoded message re-encodes to %s (%v)", b, err)
	}

	var got []Message[piiEvent]
	r := NewRouter(WithRouterCipher(keyA))
	Handle(r, func(_ context.Context, m Message[piiEvent]) error { got = append(got, m); return nil })
	for _, b := range [][]byte{body, []byte(`{"trace_id":"` + testTrace + `","job":"` + piiURN + `","data":` + piiProtectedData + `,"meta":{"schema_version":1}}`)} {
		if err := r.Dispatch(context.Background(), b); err != nil {
			t.Fatalf("Dispatch: %v", err)
		}
	}
	if len(got) != 2 || !reflect.DeepEqual(got[0].Data, piiData()) || !reflect.DeepEqual(got[1].Data, piiData()) {
		t.Fatalf("handler got %+v", got)
	}
	// The message a handler gets is protected again when passed on (a dead letter).
	fwd := got[0]
	fwd.DeadLetter = &DeadLetter{Reason: ReasonFailed, FailedAt: 1, OriginalQueue: "users"}
	if b, _ := fwd.Encode(); !strings.Contains(string(b), `"email":"`+enc(`"ada@example.com"`)+`"`) {
		t.Errorf("forwarded message in clear: %s", b)
	}
	// A marked value that is not a string was never protected: with a cipher it is
	// poison (fail closed), unless clear values are accepted for a migration, when it
	// is read as it is (as the SDKs' Unprotect does).
	clearAge := strings.Replace(piiProtectedData, `"age":"`+enc(`36`)+`"`, `"age":36`, 1)
	const notProtected = "babelqueue: invalid data: $.age: x-gdpr-sensitive value is not protected: got number, want a ciphertext string (x-gdpr-sensitive: the value is not shown)"
	if m, err := Decode[piiEvent]([]byte(piiEnvelope(clearAge)), WithCipher(keyA)); m != nil || err == nil || err.Error() != notProtected || !errors.Is(err, ErrInvalidData) {
		t.Errorf("clear integer with a cipher: %+v %v", m, err)
	}
	if m, err := Decode[piiEvent]([]byte(piiEnvelope(clearAge)), WithCipher(keyA), WithClearValuesAccepted()); err != nil || !reflect.DeepEqual(m.Data, piiData()) {
		t.Errorf("clear integer with a cipher, clear values accepted: %+v %v", m, err)
	}
	// Accepted, a wholly clear message (strings that do not decrypt included) reaches
	// the handler as it arrived; without the cipher the option changes nothing.
	got = nil
	lenient := NewRouter(WithRouterCipher(keyA), WithRouterClearValuesAccepted())
	Handle(lenient, func(_ context.Context, m Message[piiEvent]) error { got = append(got, m); return nil })
	for _, data := range []string{piiClearData, clearAge, piiProtectedData} {
		if err := lenient.Dispatch(context.Background(), []byte(piiEnvelope(data))); err != nil {
			t.Fatalf("Dispatch, clear values accepted: %v", err)
		}
	}
	if len(got) != 3 || !reflect.DeepEqual(got[0].Data, piiData()) || !reflect.DeepEqual(got[1].Data, piiData()) || !reflect.DeepEqual(got[2].Data, piiData()) {
		t.Fatalf("handler got %+v", got)
	}
	if m, err := Decode[piiEvent]([]byte(piiEnvelope(piiClearData)), WithClearValuesAccepted()); err != nil || !reflect.DeepEqual(m.Data, piiData()) {
		t.Errorf("clear message, no cipher: %+v %v", m, err)
	}
	// A cipher that could not try is still an error, not a clear value.
	down := failCipher{fmt.Errorf("kms: %w", ErrCipherUnavailable)}
	if _, err := Decode[piiEvent]([]byte(piiEnvelope(piiClearData)), WithCipher(down), WithClearValuesAccepted()); !errors.Is(err, ErrCipherUnavailable) {
		t.Errorf("unavailable cipher, clear values accepted: %v", err)
	}
}

func TestCipherConsumerRejects(t *testing.T) {
	t.Parallel()
	called := 0
	wrongKey := strings.ReplaceAll(piiProtectedData, "A1:", "B2:")
	tests := []struct {
		name string
		c    Cipher
		data string
		msg  string
	}{
		{"another key", keyA, wrongKey, "$.age: x-gdpr-sensitive value does not decrypt: message authentication failed; " +
			"$.card: x-gdpr-sensitive value does not decrypt: message authentication failed; " +
			"$.email: x-gdpr-sensitive value does not decrypt: message authentication failed; " +
			"$.profile.name: x-gdpr-sensitive value does not decrypt: message authentication failed; " +
			"$.tags[0]: x-gdpr-sensitive value does not decrypt: message authentication failed; " +
			"$.tags[1]: x-gdpr-sensitive value does not decrypt: message authentication failed"},
		{"sent clear", keyA, piiClearData, "$.age: x-gdpr-sensitive value is not protected: got number, want a ciphertext string (x-gdpr-sensitive: the value is not shown); " +
			"$.card: x-gdpr-sensitive value is not protected: got object, want a ciphertext string (x-gdpr-sensitive: the value is not shown); " +
			"$.email: x-gdpr-sensitive value does not decrypt: message authentication failed; " +
			"$.profile.name: x-gdpr-sensitive value does not decrypt: message authentication failed; " +
			"$.tags[0]: x-gdpr-sensitive value does not decrypt: message authentication failed; " +
			"$.tags[1]: x-gdpr-sensitive value does not decrypt: message authentication failed"},
		// Fail closed on every kind of clear value: boolean, array, null, number in an
		// array's elements (null included: a protecting producer encrypts it too).
		{"clear values of every kind", keyA, `{"id":7,"email":"` + enc(`"ada@example.com"`) + `","age":true,"note":null,"tags":[5,"` + enc(`"vip"`) + `"],` +
			`"profile":{"name":{"first":"Ada"},"city":"London"},"card":[1]}`,
			"$.age: x-gdpr-sensitive value is not protected: got boolean, want a ciphertext string (x-gdpr-sensitive: the value is not shown); " +
				"$.card: x-gdpr-sensitive value is not protected: got array, want a ciphertext string (x-gdpr-sensitive: the value is not shown); " +
				"$.note: x-gdpr-sensitive value is not protected: got null, want a ciphertext string (x-gdpr-sensitive: the value is not shown); " +
				"$.profile.name: x-gdpr-sensitive value is not protected: got object, want a ciphertext string (x-gdpr-sensitive: the value is not shown); " +
				"$.tags[0]: x-gdpr-sensitive value is not protected: got number, want a ciphertext string (x-gdpr-sensitive: the value is not shown)"},
		{"plaintext not JSON", keyA, strings.Replace(piiProtectedData, enc(`36`), enc(`36,`), 1),
			"$.age: decrypted x-gdpr-sensitive value is not JSON (at byte 2)"},
		{"plaintext of the wrong type", keyA, strings.Replace(piiProtectedData, enc(`36`), enc(`"36"`), 1),
			"$.age: expected integer, got string"},
		{"plaintext with a duplicate key", keyA, strings.Replace(piiProtectedData, enc(`{"last4":"4242","expiry":1700000000000}`), enc(`{"last4":"4242","last4":"1","expiry":1}`), 1),
			`$.card: decrypted x-gdpr-sensitive value is not JSON (at byte 16)`},
		// A type error does not stop the other checks: the email's format is checked too
		// (one problem per path, issue 23), its value not shown.
		{"no cipher", nil, piiProtectedData, "$.age: expected integer, got string (an x-gdpr-sensitive value: if the producer protected it, decode with a cipher); " +
			"$.card: expected object, got string (an x-gdpr-sensitive value: if the producer protected it, decode with a cipher); " +
			`$.email: is not a valid "email" (x-gdpr-sensitive: the value is not shown; if the producer protected it, decode with a cipher)`},
		// A protected value is a ciphertext string: a number, a boolean or an object
		// where a string (or an integer) belongs was never protected, so no cipher hint.
		{"no cipher, clear values of the wrong type", nil, strings.NewReplacer(`"email":"ada@example.com"`, `"email":12345`, `"age":36`, `"age":true`,
			`"name":"Ada Lovelace"`, `"name":{"first":"Ada"}`).Replace(piiClearData),
			"$.email: expected string, got number; $.age: expected integer, got boolean; $.profile.name: expected string, got object"},
	}
	for _, tt := range tests {
		r := NewRouter(WithRouterCipher(tt.c))
		Handle(r, func(context.Context, Message[piiEvent]) error { called++; return nil })
		err := r.Dispatch(context.Background(), []byte(piiEnvelope(tt.data)))
		want := piiURN + ": babelqueue: invalid data: " + tt.msg
		if !errors.Is(err, ErrInvalidData) || err == nil || err.Error() != want || DeadLetterReasonOf(err) != ReasonPoison {
			t.Errorf("%s: Dispatch = %v\n want %s", tt.name, err, want)
		}
		if _, derr := Decode[piiEvent]([]byte(piiEnvelope(tt.data)), WithCipher(tt.c)); derr == nil || !strings.HasSuffix(want, derr.Error()) {
			t.Errorf("%s: Decode = %v", tt.name, derr)
		}
	}
	if called != 0 {
		t.Errorf("handler called %d times", called)
	}

	// Without a cipher, a protected string that its schema accepts cannot be told
	// from a clear one: the handler gets the ciphertext (docs/pii.md).
	onlyStrings := strings.NewReplacer(`"email":"ada@example.com"`, `"email":"`+enc(`"ada@example.com"`)+`"`,
		`"name":"Ada Lovelace"`, `"name":"`+enc(`"Ada Lovelace"`)+`"`).Replace(piiClearData)
	m, err := Decode[piiEvent]([]byte(piiEnvelope(onlyStrings)))
	if want := "$.email: is not a valid \"email\" (x-gdpr-sensitive: the value is not shown; if the producer protected it, decode with a cipher)"; err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Errorf("protected email without a cipher: %v %+v", err, m)
	}
	onlyName := strings.Replace(piiClearData, `"name":"Ada Lovelace"`, `"name":"`+enc(`"Ada Lovelace"`)+`"`, 1)
	if m, err := Decode[piiEvent]([]byte(piiEnvelope(onlyName))); err != nil || m.Data.Profile.Name != enc(`"Ada Lovelace"`) {
		t.Errorf("protected name without a cipher: %v %+v", err, m)
	}
}

type panicCipher struct{}

func (panicCipher) Encrypt([]byte) (string, error) { return "x", nil }
func (panicCipher) Decrypt(s string) ([]byte, error) {
	b := []byte(s)
	return b[:12], nil // a naive cipher: panics on a short ciphertext
}

type failCipher struct{ err error }

func (c failCipher) Encrypt([]byte) (string, error) { return "", c.err }
func (c failCipher) Decrypt(string) ([]byte, error) { return nil, c.err }

type badUTF8Cipher struct{}

func (badUTF8Cipher) Encrypt([]byte) (string, error) { return "\xff\xfe", nil }
func (badUTF8Cipher) Decrypt(string) ([]byte, error) { return nil, errors.New("no") }

// countCipher is keyA, counting its Decrypt calls.
type countCipher struct{ n *int }

func (c countCipher) Encrypt(p []byte) (string, error) { return keyA.Encrypt(p) }
func (c countCipher) Decrypt(s string) ([]byte, error) { *c.n++; return keyA.Decrypt(s) }

// TestCipherFaults: what a faulty cipher, or a hostile body, makes of a message. Not
// parallel: it changes piiEventDesc for a while (a maximum on tags).
func TestCipherFaults(t *testing.T) {
	ctx := context.Background()
	body := []byte(piiEnvelope(piiProtectedData))

	// A panic in Decrypt is a *PanicError, as a handler's: the consumer lives on.
	r := NewRouter(WithRouterCipher(panicCipher{}))
	Handle(r, func(context.Context, Message[piiEvent]) error { t.Error("handler called"); return nil })
	err := r.Dispatch(ctx, []byte(piiEnvelope(strings.Replace(piiClearData, `"email":"ada@example.com"`, `"email":"AA=="`, 1))))
	var pe *PanicError
	if !errors.As(err, &pe) || !errors.Is(err, ErrHandlerPanic) || DeadLetterReasonOf(err) != ReasonFailed {
		t.Errorf("panicking cipher: %v", err)
	}

	// A cipher that cannot try (a key service down) is "failed", with its cause.
	for _, cause := range []error{fmt.Errorf("kms: %w", ErrCipherUnavailable), fmt.Errorf("kms: %w", context.DeadlineExceeded)} {
		r := NewRouter(WithRouterCipher(failCipher{cause}))
		Handle(r, func(context.Context, Message[piiEvent]) error { t.Error("handler called"); return nil })
		err := r.Dispatch(ctx, body)
		if !errors.Is(err, cause) || errors.Is(err, ErrInvalidData) || DeadLetterReasonOf(err) != ReasonFailed ||
			err.Error() != piiURN+": unprotect $.age: "+cause.Error() {
			t.Errorf("unavailable cipher (%v): %v, %s", cause, err, DeadLetterReasonOf(err))
		}
		if _, err := Decode[piiEvent](body, WithCipher(failCipher{cause})); !errors.Is(err, cause) || errors.Is(err, ErrInvalidData) {
			t.Errorf("Decode with an unavailable cipher: %v", err)
		}
	}

	// A ciphertext that is not valid UTF-8 is refused by the producer.
	m, _ := New(piiData(), WithCipher(badUTF8Cipher{}))
	if b, err := m.Encode(); err == nil || b != nil || err.Error() != "protect $.age: the cipher returned a ciphertext that is not valid UTF-8" {
		t.Errorf("invalid UTF-8 ciphertext: %q, %v", b, err)
	}

	// An array past its maximum is rejected before anything in it is decrypted, and
	// decryption stops after 100 failures.
	n := 0
	tagged := &piiEventDesc.Fields[4].Type // tags: at most 3 items here
	saved := *tagged
	t.Cleanup(func() { *tagged = saved })
	*tagged = bqrt.Desc{Kind: bqrt.KArray, Flags: bqrt.FMax | bqrt.FChecked, Hi: 3, Elem: saved.Elem}
	many := strings.Replace(piiProtectedData, `"tags":["`+enc(`"vip"`)+`","`+enc(`"<b>"`)+`"]`, `"tags":[`+strings.Repeat(`"`+enc(`"x"`)+`",`, 999)+`"`+enc(`"x"`)+`"]`, 1)
	_, err = Decode[piiEvent]([]byte(piiEnvelope(many)), WithCipher(countCipher{&n}))
	// age, card, email and profile.name are decrypted (paths in order), no tag.
	if !errors.Is(err, ErrInvalidData) || err.Error() != "babelqueue: invalid data: $.tags: has 1000 items, more than the maximum 3" || n != 4 {
		t.Errorf("1,000 tags: %d decrypts, %v", n, err)
	}
	*tagged = saved
	n = 0
	bad := strings.Replace(many, "A1:", "B2:", -1)
	_, err = Decode[piiEvent]([]byte(piiEnvelope(bad)), WithCipher(countCipher{&n}))
	var ve ValidationErrors
	if !errors.As(err, &ve) || len(ve) != 101 || n != 101 || ve[100].Message != "more problems, not listed (at most 100 are)" {
		t.Errorf("1,000 tags under another key: %d decrypts, %d errors", n, len(ve))
	}
}

// TestMessageString: fmt shows a message redacted, and never its cipher.
func TestMessageString(t *testing.T) {
	t.Parallel()
	m, err := New(piiData(), append(fixedOpts(), WithCipher(testCipher{prefix: "TOP-SECRET-KEY"}))...)
	if err != nil {
		t.Fatal(err)
	}
	for _, verb := range []string{"%v", "%+v", "%s", "%#v", "%d", "%t", "%x", "%q", "%g", "%U"} {
		for _, x := range []any{m, *m} {
			got := fmt.Sprintf(verb, x)
			if strings.Contains(got, "TOP-SECRET") || strings.Contains(got, "ada@example.com") || strings.Contains(got, "Lovelace") || !strings.Contains(got, "job=urn:babel:users:registered.v2") {
				t.Errorf("%s of %T: %s", verb, x, got)
			}
		}
	}
}
