package registry

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestMessageMemo: a message alike a valid one but for its texts is known to be valid
// (and left out of the validation), one that differs where the message subschema
// looks is not, and a file validated with a memo filled by the files before it gets
// exactly the diagnostics it gets with no memo, whole or message by message.
func TestMessageMemo(t *testing.T) {
	t.Parallel()
	const fields = "    data:\n      required: [a]\n      properties:\n        a: {type: string, maxLength: 3}\n        b: {type: integer}\n"
	// Every key of a message, with a valid value; bad values replace them below.
	keys := []string{"kind", "summary", "description", "owner", "queue", "deprecated", "supersedes", "go", "lint"}
	valid := map[string]string{"kind": "event", "queue": "q", "deprecated": "true", "supersedes": "urn:babel:ctx:old",
		"go": "{name: Upper}", "lint": "{ignore: [BQ032], reason: Closed.}"}
	msg := func(i int, key, value string) string {
		var b strings.Builder
		fmt.Fprintf(&b, "  urn:babel:ctx:m%d:\n", i)
		for _, k := range keys {
			v, ok := valid[k]
			switch {
			case k == key:
				v = value
			case !ok:
				v = fmt.Sprintf("Text %d of %s.", i, k) // the texts differ from one message to the next
			}
			fmt.Fprintf(&b, "    %s: %s\n", k, v)
		}
		return b.String() + fields
	}
	var good strings.Builder
	good.WriteString("version: 1\nmessages:\n")
	for i := range 3 {
		good.WriteString(msg(i, "", ""))
	}
	memo := &fieldMemo{}
	root, pd := parseFile("good.yaml", []byte(good.String()))
	if root == nil || len(pd) > 0 {
		t.Fatal(pd)
	}
	if fd, err := validateFormat(root, memo); err != nil || len(fd) > 0 {
		t.Fatal(err, fd)
	}
	// The first message's key holds its fields, not yet known to be valid when it
	// is written; the other two, alike but for their texts, have one key without them.
	if len(memo.msgs) != 2 {
		t.Fatalf("%d valid messages remembered, want 2", len(memo.msgs))
	}
	// Each bad one differs from the good ones where the message subschema looks.
	bad := [][2]string{
		{"queue", `""`},            // minLength 1
		{"kind", "evnt"},           // not in the enum
		{"supersedes", "[x]"},      // a text that is not a string
		{"description", "5"},       // likewise
		{"deprecated", "{a: 1}"},   // neither a string nor a boolean
		{"go", "{name: lower}"},    // the pattern of a Go name
		{"lint", "{ignore: [X1]}"}, // a lint block without a reason
	}
	for split, n := range map[bool]int{false: 2, true: splitMin} {
		var b strings.Builder
		b.WriteString("version: 1\nmessages:\n")
		for i := range n * len(bad) {
			if i%n == 0 {
				b.WriteString(msg(100+i, bad[i/n][0], bad[i/n][1]))
			} else {
				b.WriteString(msg(100+i, "", ""))
			}
		}
		src := []byte(b.String())
		for _, want := range []struct {
			i     int
			known bool
		}{{0, false}, {1, true}} {
			root, _ := parseFile("r.yaml", src)
			m := root.val("messages").entries[want.i].val
			if _, known := memo.message(m); known != want.known {
				t.Errorf("split %v: message %d known valid: %v, want %v", split, want.i, known, want.known)
			}
		}
		root, _ := parseFile("r.yaml", src)
		with, err := validateFormatSplit(root, split, memo)
		if err != nil {
			t.Fatal(err)
		}
		root, _ = parseFile("r.yaml", src)
		without, err := validateFormatSplit(root, split, nil)
		if err != nil {
			t.Fatal(err)
		}
		with.Sort()
		without.Sort()
		// One each, and two for the lint block (no reason, and X1 is not a rule).
		if len(with) != len(bad)+1 {
			t.Errorf("split %v: %d diagnostics, want %d: %v", split, len(with), len(bad)+1, with)
		}
		if !reflect.DeepEqual(with, without) {
			t.Errorf("split %v: with the memo\n%v\nwithout\n%v", split, with, without)
		}
	}
}

// TestMessageTextsOnlyTyped holds the premise of messageTexts against the format
// schema bqgen embeds: #/$defs/message asks nothing of a text but that it be a string
// (its subschema is {description, type: string}), and the message subschema has no
// keyword beyond those it has today that could relate one key to another (if, then,
// dependentRequired, patternProperties, ...). A change to the schema that breaks the
// premise fails here, before the memo could hide an error.
func TestMessageTextsOnlyTyped(t *testing.T) {
	t.Parallel()
	var doc struct {
		Defs map[string]map[string]json.RawMessage `json:"$defs"`
	}
	if err := json.Unmarshal(schemaJSON, &doc); err != nil {
		t.Fatal(err)
	}
	msg := doc.Defs["message"]
	keywords := slices.Sorted(maps.Keys(msg))
	if want := []string{"additionalProperties", "description", "properties", "required", "type"}; !slices.Equal(keywords, want) {
		t.Fatalf("#/$defs/message has the keywords %v, want %v: check messageTexts still holds", keywords, want)
	}
	var props map[string]map[string]any
	if err := json.Unmarshal(msg["properties"], &props); err != nil {
		t.Fatal(err)
	}
	for k := range messageTexts {
		sub, ok := props[k]
		if !ok {
			t.Errorf("messageTexts names %q, which #/$defs/message does not define", k)
			continue
		}
		delete(sub, "description")
		if !reflect.DeepEqual(sub, map[string]any{"type": "string"}) {
			t.Errorf("#/$defs/message/properties/%s is %v besides its description, want only type: string", k, sub)
		}
	}
}
