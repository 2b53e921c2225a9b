package validate

import (
	"context"
	"strings"
	"testing"

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
			"$.age: invalid_data: got string, want integer" + hint,
			"$.card: invalid_data: got string, want object" + hint,
			"$.email: invalid_data: 'QUJD' is not valid email: missing @" + hint,
			"$.name: invalid_data: maxLength: got 7, want 3",
			"$.tags[0]: invalid_data: maxLength: got 12, want 3" + hint}},
		{"protected", true, body, []string{"$.name: invalid_data: maxLength: got 7, want 3"}},
		// A marked value that is not a string is checked; a string at a protected path
		// ("abcd") may be a ciphertext and is not.
		{"clear values that are not strings", true, `{"email":"a@example.com","age":-1,"tags":["abcd"],"card":{"last4":"12"}}`, []string{
			"$.age: invalid_data: minimum: got -1, want 0",
			"$.card.last4: invalid_data: '12' does not match pattern '^[0-9]{4}$'"}},
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
