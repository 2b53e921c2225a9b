package registry

import (
	"context"
	"strings"
	"testing"
)

// TestOneRun: a format error in one place does not hide the findings elsewhere, in
// the same file or another; and no rule reports what only the broken value would
// make true (issue 13, item 6). Each case lists every diagnostic of the run.
func TestOneRun(t *testing.T) {
	t.Parallel()
	const head = "version: 1\nmessages:\n  urn:babel:orders:created:\n    data:\n      properties:\n"
	cases := []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"a typo in one file, money in another", map[string]string{
			"a.yaml": "version: 1\nmessages:\n  urn:babel:orders:created:\n    sumary: s\n    data: {properties: {id: {type: string}}}\n",
			"b.yaml": "version: 1\nmessages:\n  urn:babel:billing:paid:\n    data: {properties: {total: {type: number}}}\n",
		}, []string{
			`a.yaml:4:5: error BQ002: unknown key "sumary" in message "urn:babel:orders:created"; did you mean "summary"?`,
			`b.yaml:4:25: error BQ020: field "total" is a number (a float) but names money ("total")`,
		}},
		{"a field's error, its neighbour's finding", map[string]string{"f.yaml": head +
			"        note: {type: string, maxLenght: 5}\n        price: {type: number}\n"}, []string{
			`f.yaml:6:30: error BQ002: unknown key "maxLenght" in field "note"; did you mean "maxLength"?`,
			`f.yaml:7:9: error BQ020: field "price" is a number (a float) but names money ("price")`,
		}},
		{"a rule that does not read the keyword in doubt", map[string]string{"f.yaml": head +
			"        total: {type: number, nullable: yes}\n"}, []string{
			`f.yaml:6:9: error BQ020: field "total" is a number (a float) but names money ("total")`,
			`f.yaml:6:41: error BQ002: "nullable" in field "total" must be true or false, not a string`,
		}},
		{"a rule that reads the keyword in doubt", map[string]string{"f.yaml": "version: 1\nconsumers: [node]\nmessages:\n  urn:babel:orders:created:\n    data:\n      properties:\n" +
			"        id: {type: integer, minimun: 1, maximum: 100}\n"}, []string{
			`f.yaml:7:29: error BQ002: unknown key "minimun" in field "id"; did you mean "minimum"?`,
		}},
		{"no type: only the format error", map[string]string{"f.yaml": head +
			"        price: {minimum: 0}\n        mode: {type: strin, properties: {total: {type: number}}}\n"}, []string{
			`f.yaml:6:9: error BQ002: missing required key "type" in field "price"`,
			`f.yaml:7:22: error BQ002: unknown type "strin" in field "mode"; did you mean "string"?`,
		}},
		{"items of the wrong type", map[string]string{"f.yaml": head +
			"        xs: {type: array, items: [a]}\n"}, []string{
			`f.yaml:6:34: error BQ002: "items" in field "xs" must be a mapping, not a list`,
		}},
		{"no data, and a message that is no mapping", map[string]string{"f.yaml": "version: 1\nmessages:\n  urn:babel:orders:created: {summary: s}\n  urn:babel:orders:shipped: yes\n  urn:babel:orders:billed: {data: {properties: {fee: {type: number}}}}\n"}, []string{
			`f.yaml:3:3: error BQ002: missing required key "data" in message "urn:babel:orders:created"`,
			`f.yaml:4:29: error BQ002: "urn:babel:orders:shipped" in "messages" must be a mapping, not a string`,
			`f.yaml:5:49: error BQ020: field "fee" is a number (a float) but names money ("fee")`,
		}},
		{"examples of an object whose field is broken", map[string]string{"f.yaml": head +
			"        a: {type: object, properties: {n: {type: integer, maximum: nine}}, examples: [{n: 100}]}\n        b: {type: object, properties: {n: {type: integer, maximum: 9}}, examples: [{n: 100}]}\n"}, []string{
			`f.yaml:6:68: error BQ002: "maximum" in field "n" must be a number, not a string`,
			`f.yaml:7:84: error BQ034: example 1 of field "b" is invalid: $.n: above the maximum 9`,
		}},
		{"no infinite type from a nullable in doubt", map[string]string{"f.yaml": "version: 1\ntypes:\n  Node: {type: object, required: [next], properties: {next: {type: Node, nullable: yes}}}\n" +
			"messages:\n  urn:babel:orders:created: {data: {properties: {n: {type: Node}}}}\n"}, []string{
			`f.yaml:3:84: error BQ002: "nullable" in field "next" must be true or false, not a string`,
		}},
		{"no Go name collision from a go.name in doubt", map[string]string{"f.yaml": head +
			"        order_id: {type: integer, minimum: 1, maximum: 9}\n        order-id: {type: integer, minimum: 1, maximum: 9, go: {name: legacy}}\n"}, []string{
			`f.yaml:7:9: warning BQ031: JSON key "order-id" is not snake_case`,
			`f.yaml:7:70: error BQ002: "legacy" is not an exported Go identifier (an upper-case letter, then letters, digits or _)`,
		}},
		{"a lint over a field in doubt is not reported unused", map[string]string{"f.yaml": "version: 1\nconsumers: [node]\nmessages:\n  urn:babel:orders:created:\n" +
			"    lint: {ignore: [BQ022], reason: Ids come from a 64-bit sequence.}\n    data:\n      properties:\n        id: {type: integer, maximun: 5}\n"}, []string{
			`f.yaml:8:29: error BQ002: unknown key "maximun" in field "id"; did you mean "maximum"?`,
		}},
		{"a file that does not parse: no unknown-type or supersedes finding", map[string]string{
			"a.yaml": "version: 1\nmessages:\n  urn:babel:orders:created.v2:\n    supersedes: urn:babel:orders:created\n    data: {properties: {addr: {type: Address}, tax: {type: number}}}\n",
			"b.yaml": "version: 1\ntypes: {Address: {type: object\n",
		}, []string{
			`a.yaml:5:48: error BQ020: field "tax" is a number (a float) but names money ("tax")`,
			`b.yaml:2:1: error BQ001: YAML syntax error: did not find expected ',' or '}'`,
		}},
		{"required and go.enum over values left out", map[string]string{"f.yaml": "version: 1\nmessages:\n  urn:babel:orders:created:\n    data:\n      required: [a]\n      properties: [a]\n" +
			"  urn:babel:orders:shipped:\n    data: {properties: {s: {type: string, enum: [a, a], go: {enum: {a: A}}}}}\n"}, []string{
			`f.yaml:6:19: error BQ002: "properties" in the data of message "urn:babel:orders:created" must be a mapping, not a list`,
			`f.yaml:8:53: error BQ002: "enum" in field "s" lists a value twice (items 1 and 2)`,
		}},
		{"a type whose name is not CamelCase", map[string]string{"f.yaml": "version: 1\ntypes:\n  address: {type: object, properties: {fee: {type: number}}}\nmessages: {}\n"}, []string{
			`f.yaml:3:3: error BQ002: type name "address" must be CamelCase: an upper-case letter, then letters and digits`,
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			files := map[string][]byte{}
			for n, src := range c.files {
				files[n] = []byte(src)
			}
			reg, ds, err := LoadFiles(context.Background(), files)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, d := range ds {
				got = append(got, d.String())
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
			if reg != nil {
				t.Error("a registry with errors was returned")
			}
		})
	}
}
