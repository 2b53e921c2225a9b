package validate

import (
	"context"
	"strings"
	"testing"

	"github.com/babelqueue/bqgen/internal/emit/golang/rt/bqrt"
	"github.com/babelqueue/bqgen/registry"
)

const protectedRegistry = `version: 1
types:
  Card:
    type: object
    required: [last4]
    properties:
      last4: {type: string, pattern: "^[0-9]{4}$"}
messages:
  urn:babel:users:registered:
    data:
      required: [email, age, tags]
      properties:
        email: {type: string, format: email, x-gdpr-sensitive: contact}
        age: {type: integer, minimum: 0, x-gdpr-sensitive: true}
        tags: {type: array, items: {type: string, maxLength: 3, x-gdpr-sensitive: true}}
        card: {type: Card, x-gdpr-sensitive: payment}
        name: {type: string, maxLength: 3}
`

// TestProtectedValues: problems at strings found at protected paths say the value may
// be protected, and WithProtected leaves them out; other problems, and marked values
// that are not strings, are reported as ever.
func TestProtectedValues(t *testing.T) {
	t.Parallel()
	reg, ds, err := registry.LoadFiles(context.Background(), map[string][]byte{"r.yaml": []byte(protectedRegistry)})
	if err != nil || ds.HasErrors() {
		t.Fatal(err, ds)
	}
	const hint = " (an x-gdpr-sensitive value: if it is protected, validate with --protected)"
	body := `{"email":"QUJD","age":"QUJDREVG","tags":["QUJDREVGR0g=","ok"],"card":"Y2FyZA==","name":"toolong"}`
	for _, c := range []struct {
		name      string
		protected bool
		body      string
		want      []string
	}{
		{"hinted", false, body, []string{
			"$.age: invalid_data: expected integer, got string" + hint,
			"$.card: invalid_data: expected object, got string" + hint,
			"$.email: invalid_data: is not a valid \"email\" (x-gdpr-sensitive: the value is not shown; if it is protected, validate with --protected)",
			"$.name: invalid_data: length 7 is greater than the maximum 3 (code points)",
			"$.tags[0]: invalid_data: length 12 is greater than the maximum 3 (code points)" + hint}},
		{"protected", true, body, []string{"$.name: invalid_data: length 7 is greater than the maximum 3 (code points)"}},
		// A marked value that is not a string was never protected: it is reported by
		// its kind, never shown, and alone, one problem per path, as the generated
		// consumer with a cipher rejects the message before it decodes the rest (the
		// rest was reported too before issue 23, and twice at such a path).
		{"clear values that are not strings", true, `{"email":"a@example.com","age":-1,"tags":["abcd",5],"card":{"last4":"12"}}`, []string{
			"$.age: invalid_data: x-gdpr-sensitive value is not protected: got number, want a ciphertext string (x-gdpr-sensitive: the value is not shown)",
			"$.card: invalid_data: x-gdpr-sensitive value is not protected: got object, want a ciphertext string (x-gdpr-sensitive: the value is not shown)",
			"$.tags[1]: invalid_data: x-gdpr-sensitive value is not protected: got number, want a ciphertext string (x-gdpr-sensitive: the value is not shown)"}},
		// Without --protected, clear values are what is expected: checked, not shown.
		{"clear values, not protected", false, `{"email":"ada-at-example.com","age":-1,"tags":["abcd"],"card":{"last4":"12"}}`, []string{
			"$.age: invalid_data: must be at least 0 (x-gdpr-sensitive: the value is not shown)",
			"$.card.last4: invalid_data: does not match pattern \"^[0-9]{4}$\"",
			"$.email: invalid_data: is not a valid \"email\" (x-gdpr-sensitive: the value is not shown; if it is protected, validate with --protected)",
			"$.tags[0]: invalid_data: length 4 is greater than the maximum 3 (code points) (an x-gdpr-sensitive value: if it is protected, validate with --protected)"}},
	} {
		var opts []Option
		if c.protected {
			opts = append(opts, WithProtected())
		}
		v, err := New(reg, opts...)
		if err != nil {
			t.Fatal(err)
		}
		ps, err := v.Data("urn:babel:users:registered", []byte(c.body))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, p := range ps {
			got = append(got, p.String())
		}
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s:\ngot:\n%s\nwant:\n%s", c.name, strings.Join(got, "\n"), strings.Join(c.want, "\n"))
		}
	}
}

// TestProblemsBounded: every problem's path and message is clipped to the runtime's
// limit (bqrt.MaxMessage, 400 bytes), so that a 1 MiB value that breaks a pattern
// (issue 20, item 5: 1,048,738 bytes for one problem) or a 1 MiB key prints a bounded
// line, in Data as in Envelope.
func TestProblemsBounded(t *testing.T) {
	t.Parallel()
	props := []string{`code: {type: string, pattern: "^[a-z]+$"}`, `tags: {type: map, values: {type: string, maxLength: 1}}`}
	v := messageValidator(t, "        "+strings.Join(props, "\n        ")+"\n")
	big := strings.Repeat("A", 1<<20)
	data := `{"code":"` + big + `","tags":{"` + big + `":"xx"}}`
	env := `{"trace_id":"4bf92f35-77b3-4da6-a3ce-929d0e0e4736","job":"urn:babel:t:happened","data":` + data +
		`,"meta":{"id":"9f1c2b7e-0d4a-4c36-9b8e-2f5a6c7d8e9f","queue":"t","lang":"go","schema_version":1,"created_at":1700000000000},"attempts":0}`
	for name, run := range map[string]func() ([]Problem, error){
		"data":     func() ([]Problem, error) { return v.Data("urn:babel:t:happened", []byte(data)) },
		"envelope": func() ([]Problem, error) { return v.Envelope([]byte(env)) },
	} {
		ps, err := run()
		if err != nil || len(ps) != 2 {
			t.Fatalf("%s: %v %v", name, len(ps), err)
		}
		for _, p := range ps {
			if len(p.Path) > bqrt.MaxMessage || len(p.Message) > bqrt.MaxMessage || len(p.String()) > 2*bqrt.MaxMessage+20 {
				t.Errorf("%s: a problem of %d bytes (path %d, message %d)", name, len(p.String()), len(p.Path), len(p.Message))
			}
		}
		// the pattern problem quotes the registry's pattern, not the value
		if ps[0].Message != `does not match pattern "^[a-z]+$"` || !strings.Contains(ps[1].Path, "...") {
			t.Errorf("%s: %.120q", name, ps[0].Message)
		}
	}
}

// TestMarkedMapKeys: inside a marked value, a key the schema does not declare (a map
// key, which may be personal data) is written "*" in the problem's path, as the
// runtime writes it; declared keys stay.
func TestMarkedMapKeys(t *testing.T) {
	t.Parallel()
	props := []string{`phones: {type: map, x-gdpr-sensitive: true, values: {type: object, properties: {number: {type: string, pattern: "^[0-9]+$"}}}}`,
		`open: {type: map, values: {type: string, maxLength: 1}}`}
	v := messageValidator(t, "        "+strings.Join(props, "\n        ")+"\n")
	ps, err := v.Data("urn:babel:t:happened", []byte(`{"phones":{"ada@example.com":{"number":"+44 20"}},"open":{"key":"xy"}}`))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range ps {
		got = append(got, p.String())
	}
	want := []string{
		`$.open.key: invalid_data: length 2 is greater than the maximum 1 (code points)`,
		`$.phones.*.number: invalid_data: does not match pattern "^[0-9]+$"`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// messageValidator returns a Validator of a registry with one message,
// urn:babel:t:happened, whose data has the properties props (YAML lines, indented).
func messageValidator(t *testing.T, props string) *Validator {
	t.Helper()
	src := "version: 1\nmessages:\n  urn:babel:t:happened:\n    data:\n      properties:\n" + props
	reg, ds, err := registry.LoadFiles(context.Background(), map[string][]byte{"r.yaml": []byte(src)})
	if err != nil || ds.HasErrors() {
		t.Fatal(err, ds)
	}
	v, err := New(reg)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
