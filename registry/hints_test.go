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
				"`required: [order_id]`" + ` in the data of message "urn:babel:orders:created"; keys field "order_id" takes, nearest first: enum, type, deprecated, go, minimum`},
		{"required: true in a field", msgHead + "        note: {type: string, required: true}\n",
			`f.yaml:7:40: error BQ002: "required" in field "note" must be a list, not true or false | a field is not required by a flag of its own: list it on the object that holds it, ` +
				"`required: [note]`" + ` in the data of message "urn:babel:orders:created"`},
		{"nulable: 1 → what nullable takes", msgHead + "        note: {type: string, nulable: 1}\n",
			`f.yaml:7:30: error BQ002: unknown key "nulable" in field "note"; did you mean "nullable"? | "nullable" takes true or false, not a number: write it as ` +
				"`nullable: true`" + `; keys field "note" takes, nearest first: nullable, type, examples, enum, go`},
		{"float for money → money at once", msgHead + "        total: {type: float}\n",
			`f.yaml:7:23: error BQ002: unknown type "float" in field "total"; did you mean "money"? | write total: {type: money} ("total" names money), carried as {"amount": 1299, "currency": "EUR"} with the amount in integer minor units (cents)`},
		{"double beside a currency → money", msgHead + "        charged: {type: double}\n        currency: {type: string}\n",
			`f.yaml:7:25: error BQ002: unknown type "double" in field "charged"; did you mean "money"? | write charged: {type: money} ("charged" has a sibling "currency"), carried as {"amount": 1299, "currency": "EUR"} with the amount in integer minor units (cents)`},
		{"a rate beside a currency stays a number", msgHead + "        tax_rate: {type: float}\n        currency: {type: string}\n",
			`f.yaml:7:26: error BQ002: unknown type "float" in field "tax_rate"; did you mean "number"? | use one of string, integer, number, boolean, object, array, map, money, timestamp, uuid, or a CamelCase name from ` + "`types:`"},
		{"a property dedented out of properties", msgHead + "        ride_id: {type: integer}\n      distance_m: {type: integer, minimum: 0}\n",
			`f.yaml:8:7: error BQ002: unknown key "distance_m" in the data of message "urn:babel:orders:created"; it looks like a property written at the wrong indentation | as a property, "distance_m" belongs under ` + "`properties:`" + ` (line 6): indent it by 2 more spaces, to the column of "ride_id" (line 7)`},
		{"an unknown key lists a handful, for the type", msgHead + "        note: {type: string, colour: red}\n",
			`f.yaml:7:30: error BQ002: unknown key "colour" in field "note" | keys field "note" takes, nearest first: go, enum, format, type, pattern`},
		{"a key indented one space too far", msgHead + "        ride_id: {type: integer}\n         note: {type: string}\n        other: {type: string}\n",
			`f.yaml:8:10: error BQ001: YAML syntax error: did not find expected key (line 8 is indented deeper than line 7) | indent line 8 like line 7 (column 9), 1 space less: a key indented deeper than the key above it continues that key's value, which is already written`},
		{"a dedented property between two others, comments around", "version: 1\nmessages:\n  urn:babel:orders:created:\n    summary: s\n    data:   # the data\n      required: [a]\n      properties:\n        # the fields\n        a: {type: integer}   # a\n      b: {type: string}\n        c: {type: string}\n",
			`f.yaml:10:7: error BQ001: YAML syntax error: did not find expected key (line 10 is indented less than lines 9 and 11 around it) | indent line 10 like lines 9 and 11 (column 9), 2 more spaces`},
		{"a dedented message key", "version: 1\nmessages:\n  urn:babel:orders:created:\n    summary: s\n  owner: team\n    data: {}\n",
			`f.yaml:5:3: error BQ001: YAML syntax error: mapping values are not allowed in this context (line 5 is indented less than lines 4 and 6 around it) | indent line 5 like lines 4 and 6 (column 5), 2 more spaces`},
		{"a key under a plain value, indented too far", msgHead + "        note:\n          type: string\n           maxLength: 5\n",
			`f.yaml:9:12: error BQ001: YAML syntax error: mapping values are not allowed in this context (line 9 is indented deeper than line 8) | indent line 9 like line 8 (column 11), 1 space less: a key indented deeper than the key above it continues that key's value, which is already written`},
		{"a regular expression in double quotes", msgHead + "        code: {type: string, pattern: \"^\\d+$\"}\n",
			`f.yaml:7:41: error BQ001: YAML syntax error: found unknown escape character \d | inside double quotes YAML reads backslash escapes, and \d is not one: write the value in single quotes ('^\d+$') or double the backslash ("^\\d+$")`},
		{"a double-quoted pattern in block style", msgHead + "        code:\n          type: string\n          pattern: \"^[a-z]\\t\\.x$\"\n",
			`f.yaml:9:29: error BQ001: YAML syntax error: found unknown escape character \. | inside double quotes YAML reads backslash escapes, and \. is not one: write the value in single quotes ('^[a-z]\t\.x$') or double the backslash ("^[a-z]\\t\\.x$")`},
		{"an unknown escape on the second line of a double-quoted string", msgHead + "        code:\n          type: string\n          description: \"a code,\n            as in \\d\"\n",
			`f.yaml:10:19: error BQ001: YAML syntax error: found unknown escape character \d | inside double quotes YAML reads backslash escapes, and \d is not one: write the value in single quotes, or double each backslash`},
		{"an escaped line break, then \\/", msgHead + "        code:\n          type: string\n          description: \"a \\\n            code \\/ x\"\n",
			`f.yaml:10:18: error BQ001: YAML syntax error: found unknown escape character \/ | inside double quotes YAML reads backslash escapes, and \/ is not one: write the value in single quotes, or double each backslash`},
		{"a keyword dedented by one space, last of its mapping", msgHead + "        a:\n          type: integer\n         minimum: 3\n",
			`f.yaml:9:10: error BQ001: YAML syntax error: did not find expected key (line 9 is indented to column 10, which no key above it is at) | indent line 9 like line 8 (column 11), 1 more space`},
		{"a property dedented by one space, last of properties", msgHead + "        a: {type: integer}\n        b:\n          type: string\n       c: {type: string}\n",
			`f.yaml:10:8: error BQ001: YAML syntax error: did not find expected key (line 10 is indented to column 8, which no key above it is at) | indent line 10 like line 8 (column 9), 1 more space`},
		{"an empty property, its keywords beside it", msgHead + "        order_id:\n        type: integer\n        minimum: 1\n        note: {type: string}\n",
			`f.yaml:7:18: error BQ002: "order_id" in the properties of the data of message "urn:babel:orders:created" is empty; it must be a mapping | indent lines 8-9 by 2 more spaces, under ` + "`order_id:`" + `, so that "type" and "minimum" belong to "order_id"` + "\n" +
				`f.yaml:8:9: error BQ002: "type" in the properties of the data of message "urn:babel:orders:created" must be a mapping, not a string; it looks like a keyword of "order_id" (line 7), which is empty | indent lines 8-9 by 2 more spaces, under ` + "`order_id:`" + `, so that "type" and "minimum" belong to "order_id"` + "\n" +
				`f.yaml:9:9: error BQ002: "minimum" in the properties of the data of message "urn:babel:orders:created" must be a mapping, not a number; it looks like a keyword of "order_id" (line 7), which is empty | indent lines 8-9 by 2 more spaces, under ` + "`order_id:`" + `, so that "type" and "minimum" belong to "order_id"`},
		{"lint in the data", "version: 1\nmessages:\n  urn:babel:orders:created:\n    summary: s\n    data:\n      lint: {ignore: [BQ032], reason: r}\n      properties: {}\n",
			`f.yaml:6:7: error BQ002: unknown key "lint" in the data of message "urn:babel:orders:created"; ` + "`lint`" + ` belongs on the message or the file, not in its data | move ` + "`lint: {ignore: [...], reason: ...}`" + ` to the message, beside ` + "`data:`" + `, or to the top level of the file for every message in it`},
		{"lint in a field", msgHead + "        a: {type: integer, lint: {ignore: [BQ032], reason: r}}\n",
			`f.yaml:7:28: error BQ002: unknown key "lint" in field "a"; ` + "`lint`" + ` belongs on the message or the file, not in a field | move ` + "`lint: {ignore: [...], reason: ...}`" + ` to the message, beside ` + "`data:`" + `, or to the top level of the file for every message in it`},
		{"a POSIX class in a pattern", msgHead + "        code: {type: string, pattern: '^[[:digit:]]+$'}\n",
			`f.yaml:7:39: error BQ035: pattern of field "code" is not an ECMA-262 regular expression (JSON Schema's pattern, read with the u flag): the POSIX class [:digit:] at character 3 is not ECMA-262, which has no POSIX classes | write the characters out: [:digit:] is 0-9 inside the brackets, so the pattern is ^[0-9]+$`},
		{"kind: cmd → command", "version: 1\nmessages:\n  urn:babel:a:b.do:\n    kind: cmd\n    summary: s\n    data: {}\n",
			`f.yaml:4:11: error BQ002: "kind" in message "urn:babel:a:b.do" must be one of event, command; got "cmd"; did you mean "command"? | write kind: command`},
		{"a language by another name", "version: 1\nconsumers: [php, golang]\nmessages: {}\n",
			`f.yaml:2:18: error BQ002: item 2 of "consumers" in the registry must be one of go, php, python, node, java, dotnet; got "golang"; did you mean "go"? | write go`},
		{"BQ042 proposes a type name not taken", "version: 1\ntypes:\n  Plan: {type: string}\nmessages:\n  urn:babel:rentals:ride.started:\n    deprecated: Use the v2.\n    data: {properties: {plan: {type: string, enum: [basic, plus]}, p: {type: Plan}}}\n  urn:babel:rentals:ride.started.v2:\n    supersedes: urn:babel:rentals:ride.started\n    data: {properties: {plan: {type: string, enum: [basic, plus]}}}\n",
			`f.yaml:10:46: warning BQ042: the enum of $.plan in message "urn:babel:rentals:ride.started.v2" repeats the enum of $.plan in "urn:babel:rentals:ride.started", which it supersedes: the generated code declares two Go types for the same values | move it to ` + "`types:` (`RideStartedPlan: {type: string, enum: […]}`) and write `type: RideStartedPlan` at $.plan in both messages, so both versions share one type"},
		{"a context's package name in CamelCase", "version: 1\ngo:\n  contexts: {orders: Orders, user-accounts: x-y}\nmessages: {}\n",
			`f.yaml:3:22: error BQ002: Go package name "Orders" of bounded context "orders" must be lower-case letters and digits, starting with a letter | write it as "orders"` + "\n" +
				`f.yaml:3:45: error BQ002: Go package name "x-y" of bounded context "user-accounts" must be lower-case letters and digits, starting with a letter | write it as "xy"`},
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
