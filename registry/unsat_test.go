package registry

import (
	"context"
	"strings"
	"testing"

	"github.com/babelqueue/bqgen/internal/model"
)

// TestUnsatisfiable: schemas that no value satisfies as written, and examples and
// enum values the field's own constraints reject, are findings (issue 13, item 8).
func TestUnsatisfiable(t *testing.T) {
	t.Parallel()
	cases := []struct{ field, want string }{
		{`{type: string, maxLength: 2, enum: [EU, USA]}`, `f.yaml:7:52: error BQ041: enum value "USA" of field "x" is rejected by the field itself: 3 characters, longer than the maxLength 2`},
		{`{type: string, pattern: "^[a-z]+$", enum: [ok, NO]}`, `f.yaml:7:59: error BQ041: enum value "NO" of field "x" is rejected by the field itself: "NO" does not match the pattern "^[a-z]+$"`},
		{`{type: string, format: uuid, enum: [6ba7b810-9dad-11d1-80b4-00c04fd430c8, x]}`, `f.yaml:7:86: error BQ041: enum value "x" of field "x" is rejected by the field itself: "x" is not a UUID`},
		{`{type: integer, format: int32, minimum: 1, maximum: 3, enum: [1, 4]}`, `f.yaml:7:77: error BQ041: enum value 4 of field "x" is rejected by the field itself: above the maximum 3`},
		{`{type: integer, encoding: string, exclusiveMinimum: 0, enum: [0, 1]}`, `f.yaml:7:74: error BQ041: enum value 0 of field "x" is rejected by the field itself: not above the exclusiveMinimum 0`},
		{`{type: number, minimum: 0.5, enum: [0.25, 1]}`, `f.yaml:7:48: error BQ041: enum value 0.25 of field "x" is rejected by the field itself: below the minimum 0.5`},
		{`{type: string, format: date, maxLength: 8}`, `f.yaml:7:41: error BQ002: maxLength 8 of field "x" leaves no valid value: format date needs at least 10 characters`},
		{`{type: string, format: uuid, minLength: 37}`, `f.yaml:7:41: error BQ002: minLength 37 of field "x" leaves no valid value: format uuid allows at most 36 characters`},
		{`{type: array, uniqueItems: true, minItems: 3, items: {type: boolean}}`, `f.yaml:7:45: error BQ002: minItems 3 of field "x" leaves no valid value: with uniqueItems its items can take only 2 distinct values`},
		{`{type: array, uniqueItems: true, minItems: 3, items: {type: boolean, nullable: true}}`, ``},
		{`{type: array, uniqueItems: true, minItems: 5, items: {type: integer, minimum: 0, exclusiveMaximum: 4}}`, `f.yaml:7:45: error BQ002: minItems 5 of field "x" leaves no valid value: with uniqueItems its items can take only 4 distinct values`},
		{`{type: string, format: email, examples: [a@example.com, a@localhost]}`, `f.yaml:7:68: error BQ034: example 2 of field "x" is invalid: $: "a@localhost" is not an email address`},
		{`{type: string, format: uri, examples: ["https://example.com", /path]}`, `f.yaml:7:74: error BQ034: example 2 of field "x" is invalid: $: "/path" is not an absolute URI`},
		{`{type: string, format: date-time, examples: ["2024-01-01t10:00:00z"]}`, ``},
		{`{type: integer, examples: [1e19]}`, `f.yaml:7:39: error BQ034: example 1 of field "x" is invalid: $: out of int64 range`},
		{`{type: string, minLength: 2, examples: [a]}`, `f.yaml:7:52: error BQ034: example 1 of field "x" is invalid: $: 1 character, shorter than the minLength 2`},
	}
	for _, c := range cases {
		src := msgHead + "        x: " + c.field + "\n"
		_, ds, err := LoadFiles(context.Background(), map[string][]byte{"f.yaml": []byte(src)})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, d := range ds {
			got = append(got, d.String())
		}
		if strings.Join(got, "\n") != c.want {
			t.Errorf("x: %s\n got %q\nwant %q", c.field, got, c.want)
		}
	}
}

// TestSnakeHint: BQ031's hint never proposes the key it flags, a key that is not
// snake_case either, or a key the object already has (issue 13, item 9).
func TestSnakeHint(t *testing.T) {
	t.Parallel()
	const tail = " (in a published URN a rename mints <urn>.v2)"
	const generic = "rename it to lower-case ASCII words joined by `_`, starting with a letter (`order_id`, `line_2`)" + tail
	cases := []struct{ name, want string }{
		{"orderId", `rename it to "order_id"` + tail},
		{"HTTPStatus", `rename it to "http_status"` + tail},
		{"_id", `rename it to "id"` + tail},
		{"a__b", `rename it to "a_b"` + tail},
		{"café", `rename it to "cafe"` + tail},
		{"Line2", `rename it to "line_2"` + tail},
		{"order-ref", `rename it to a snake_case key other than "order_ref", which this object already has` + tail},
		{"日本", generic},
		{"123", generic},
		{"_", generic},
		{"2nd", generic},
	}
	s := &model.Schema{Kind: model.Object, Properties: []*model.Property{{Name: "order_ref"}}}
	for _, c := range cases {
		if got := snakeHint(c.name, s); got != c.want {
			t.Errorf("snakeHint(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}
