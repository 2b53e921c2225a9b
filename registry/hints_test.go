package registry

import (
	"context"
	"strings"
	"testing"
)

// TestHintsLeadSomewhere: every hint leads to a fix that works (issue 13, item 9): a
// did-you-mean whose key would not take the value either says so; a tab in the
// indentation is named; items count from 1; numbers are printed as written.
func TestHintsLeadSomewhere(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, src, want string }{
		{"requird: true → the parent's list", msgHead + "        order_id: {type: integer, requird: true}\n",
			`f.yaml:7:35: error BQ002: unknown key "requird" in field "order_id"; did you mean "required"? | a field is not required by a flag of its own: list it on the object that holds it, ` +
				"`required: [order_id]`" + ` in the data of message "urn:babel:orders:created"; allowed keys: additionalProperties, deprecated, description, encoding, enum, examples, exclusiveMaximum, exclusiveMinimum, format, go, items, maxItems, maxLength, maximum, minItems, minLength, minimum, nullable, pattern, properties, required, type, uniqueItems, values, x-gdpr-sensitive`},
		{"required: true in a field", msgHead + "        note: {type: string, required: true}\n",
			`f.yaml:7:40: error BQ002: "required" in field "note" must be a list, not true or false | a field is not required by a flag of its own: list it on the object that holds it, ` +
				"`required: [note]`" + ` in the data of message "urn:babel:orders:created"`},
		{"nulable: 1 → what nullable takes", msgHead + "        note: {type: string, nulable: 1}\n",
			`f.yaml:7:30: error BQ002: unknown key "nulable" in field "note"; did you mean "nullable"? | "nullable" takes true or false, not a number: write it as ` +
				"`nullable: true`" + `; allowed keys: additionalProperties, deprecated, description, encoding, enum, examples, exclusiveMaximum, exclusiveMinimum, format, go, items, maxItems, maxLength, maximum, minItems, minLength, minimum, nullable, pattern, properties, required, type, uniqueItems, values, x-gdpr-sensitive`},
		{"a quoted number", msgHead + "        tags: {type: array, items: {type: string}, minItems: \"2\"}\n",
			`f.yaml:7:62: error BQ002: "minItems" in field "tags" must be an integer, not a string | the quotes make "2" a string: write 2 without them`},
		{"a wrong type gets an example", msgHead + "        note: {type: string, maxLength: [5]}\n",
			`f.yaml:7:41: error BQ002: "maxLength" in field "note" must be an integer, not a list | write it as ` + "`maxLength: 200`"},
		{"items count from 1", msgHead + "        s: {type: string, enum: [a, b, a]}\n",
			`f.yaml:7:40: error BQ002: "enum" in field "s" lists a value twice (items 1 and 3) | remove item 1 or item 3`},
		{"item of a list", "version: 1\nconsumers: [go, rust]\nmessages: {}\n",
			`f.yaml:2:17: error BQ002: item 2 of "consumers" in the registry must be one of go, php, python, node, java, dotnet; got "rust" | `},
		{"a tab in the indentation", "version: 1\nmessages:\n\turn:babel:a:b: {data: {}}\n",
			`f.yaml:3:1: error BQ001: YAML syntax error: found character that cannot start any token (a tab in the indentation) | YAML indents with spaces only: replace the tab at line 3, column 1 with spaces (set your editor to insert spaces in .yaml files)`},
		{"a tab after spaces", "version: 1\nmessages:\n  urn:babel:a:b: {data: {}}\n  \turn:babel:a:c: {data: {}}\n",
			`f.yaml:4:3: error BQ001: YAML syntax error: found character that cannot start any token (a tab in the indentation) | YAML indents with spaces only: replace the tab at line 4, column 3 with spaces (set your editor to insert spaces in .yaml files)`},
		{"bounds as written", msgHead + "        r: {type: number, minimum: 0.75, maximum: 1e-1}\n",
			`f.yaml:7:27: error BQ002: minimum 0.75 and maximum 1e-1 of field "r" leave no valid value | fix the bounds so that the lower one is below the upper one`},
		{"a taken CamelCase guess", "version: 1\ntypes:\n  Address: {type: string}\n  address: {type: string}\nmessages: {}\n",
			`f.yaml:4:3: error BQ002: type name "address" must be CamelCase: an upper-case letter, then letters and digits | rename the type to a CamelCase name other than "Address", which is already a type`},
	}
	for _, c := range cases {
		_, ds, err := LoadFiles(context.Background(), map[string][]byte{"f.yaml": []byte(c.src)})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, d := range ds {
			got = append(got, d.String()+" | "+d.Hint)
		}
		if strings.Join(got, "\n") != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, strings.Join(got, "\n"), c.want)
		}
	}
}
