package registry

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/babelqueue/bqgen/internal/ecmare"
	"github.com/babelqueue/bqgen/internal/model"
)

var update = flag.Bool("update", false, "rewrite the .golden files of testdata/registry/bad")

const testdata = "../testdata/registry"

// render formats diagnostics for golden files, with paths relative to testdata.
func render(ds Diagnostics) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(d.String())
		b.WriteByte('\n')
		for _, r := range d.Related {
			b.WriteString("\trelated: " + r.String() + "\n")
		}
	}
	return strings.ReplaceAll(b.String(), testdata+"/", "")
}

func TestGoodRegistry(t *testing.T) {
	t.Parallel()
	path := filepath.Join(testdata, "good", "registry.yaml")
	reg, ds, err := Load(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 0 {
		t.Fatalf("unexpected diagnostics:\n%s", render(ds))
	}
	if reg.Version != 1 || reg.GoPackage != "events" || !reflect.DeepEqual(reg.Consumers, []string{"go", "php", "node"}) {
		t.Errorf("registry header = %d %q %v", reg.Version, reg.GoPackage, reg.Consumers)
	}
	if !reflect.DeepEqual(reg.Files, []string{path}) {
		t.Errorf("Files = %v", reg.Files)
	}
	var urns, types []string
	for _, m := range reg.Messages {
		urns = append(urns, m.URN)
	}
	for _, nt := range reg.Types {
		types = append(types, nt.Name)
	}
	if want := []string{"urn:babel:media:thumbnail.generate", "urn:babel:orders:created", "urn:babel:orders:created.v2"}; !reflect.DeepEqual(urns, want) {
		t.Errorf("URNs = %v, want %v", urns, want)
	}
	if want := []string{"Address", "Tree"}; !reflect.DeepEqual(types, want) {
		t.Errorf("types = %v, want %v", types, want)
	}
	pos := func(line, col int) model.Pos { return model.Pos{File: path, Line: line, Column: col} }

	addr := reg.Type("Address")
	if addr.Pos != pos(6, 3) || addr.Schema.Kind != model.Object || addr.Schema.Description != "A postal address." {
		t.Errorf("Address = %+v", addr)
	}
	var names []string
	for _, p := range addr.Schema.Properties {
		names = append(names, p.Name)
	}
	if !reflect.DeepEqual(names, []string{"line1", "country", "zip"}) {
		t.Errorf("Address properties in source order = %v", names)
	}
	line1 := addr.Schema.Property("line1")
	if !line1.Required || line1.Schema.GDPR != "true" || *line1.Schema.MaxLength != 200 || line1.Pos != pos(11, 7) {
		t.Errorf("line1 = %+v %+v", line1, line1.Schema)
	}
	if zip := addr.Schema.Property("zip"); zip.Required || zip.Schema.GDPR != "address" {
		t.Errorf("zip = %+v", zip.Schema)
	}
	if c := addr.Schema.Property("country").Schema; c.Pattern != "^[A-Z]{2}$" || !reflect.DeepEqual(c.Examples, []any{"DE", "FR"}) {
		t.Errorf("country = %+v", c)
	}

	m := reg.Message("urn:babel:orders:created")
	if m.Kind != model.Event || m.Summary != "A customer placed an order." || m.Owner != "orders" ||
		m.Queue != "orders" || m.Deprecation == nil || m.Deprecation.Reason != "Use urn:babel:orders:created.v2." ||
		m.Description != "Longer text, Markdown allowed." || m.Pos != pos(28, 3) || m.Lint != nil {
		t.Errorf("message = %+v", m)
	}
	d := m.Data
	if d.Kind != model.Object || !d.AdditionalProperties || len(d.Properties) != 10 {
		t.Fatalf("data = %+v", d)
	}
	id := d.Property("order_id")
	if !id.Required || id.Schema.Kind != model.Integer || *id.Schema.Minimum != (model.Bound{IsInt: true, I: 1}) ||
		*id.Schema.Maximum != (model.Bound{IsInt: true, I: 1000000}) || !reflect.DeepEqual(id.Schema.Examples, []any{int64(1042)}) {
		t.Errorf("order_id = %+v", id.Schema)
	}
	if p, _ := id.Schema.KeyPos("minimum"); p != pos(37, 36) {
		t.Errorf("order_id minimum key at %v", p)
	}
	if false {
	}
	if p := d.Property("total"); !p.Required || p.Schema.Kind != model.Money {
		t.Errorf("total = %+v", p.Schema)
	}
	if p := d.Property("placed_at"); !p.Required || p.Schema.Kind != model.Timestamp {
		t.Errorf("placed_at = %+v", p.Schema)
	}
	ship := d.Property("shipping")
	if ship.Required || ship.Schema.Kind != model.Ref || ship.Schema.Ref != "Address" || ship.Schema.Named != addr ||
		!ship.Schema.Nullable || ship.Schema.Description != "Where to ship." || ship.Schema.Resolve() != addr.Schema {
		t.Errorf("shipping = %+v", ship.Schema)
	}
	ch := d.Property("channel").Schema
	if !reflect.DeepEqual(ch.Enum, []any{"web", "mobile", "pos"}) || ch.GoName != "SalesChannel" ||
		!reflect.DeepEqual(ch.GoEnumNames, map[string]string{"pos": "PointOfSale"}) {
		t.Errorf("channel = %+v", ch)
	}
	lines := d.Property("lines").Schema
	if lines.Kind != model.Array || *lines.MinItems != 1 || lines.Items.Kind != model.Object || len(lines.Items.Properties) != 2 {
		t.Errorf("lines = %+v", lines)
	}
	q := lines.Items.Property("quantity")
	if !q.Required || q.Schema.IntFormat != "int32" || q.Schema.Maximum.I != 1000 {
		t.Errorf("quantity = %+v", q.Schema)
	}
	if tags := d.Property("tags").Schema; tags.Kind != model.Map || tags.Values.Kind != model.String {
		t.Errorf("tags = %+v", tags)
	}
	if note := d.Property("note").Schema; !note.Nullable || note.Deprecation == nil || note.Deprecation.Reason != "" {
		t.Errorf("note = %+v", note)
	}
	if w := d.Property("weight").Schema; w.Kind != model.Number || *w.ExclusiveMinimum != (model.Bound{F: 0}) || *w.Maximum != (model.Bound{F: 1500}) {
		t.Errorf("weight = %+v", w)
	}
	if b := d.Property("big_id").Schema; b.Encoding != "string" {
		t.Errorf("big_id = %+v", b)
	}

	cmd := reg.Message("urn:babel:media:thumbnail.generate")
	if cmd.Kind != model.Command || cmd.Queue != "media-high" || cmd.Data.AdditionalProperties ||
		cmd.Lint == nil || !reflect.DeepEqual(cmd.Lint.Ignore, []string{"BQ032"}) || cmd.Lint.Reason != "closed on purpose" {
		t.Errorf("command = %+v", cmd)
	}
	size := cmd.Data.Property("size").Schema
	if !reflect.DeepEqual(size.Enum, []any{int64(64), int64(128), int64(256)}) || size.GoEnumNames["128"] != "Medium" {
		t.Errorf("size = %+v", size)
	}
	if r := cmd.Data.Property("ratio").Schema; !reflect.DeepEqual(r.Enum, []any{0.5, 1.0}) {
		t.Errorf("ratio = %+v", r)
	}
	v2 := reg.Message("urn:babel:orders:created.v2")
	if v2.Supersedes != "urn:babel:orders:created" || v2.Kind != model.Event || v2.Queue != "orders" {
		t.Errorf("v2 = %+v", v2)
	}
	tree := reg.Type("Tree").Schema
	if c := tree.Property("children").Schema; c.Items.Named != reg.Type("Tree") {
		t.Errorf("Tree.children not linked")
	}
}

// TestBadRegistries loads every file and directory of testdata/registry/bad and
// compares the diagnostics with the .golden file next to it (go test -update rewrites).
func TestBadRegistries(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(testdata, "bad")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		name := e.Name()
		if strings.HasSuffix(name, ".golden") {
			continue
		}
		n++
		path := filepath.Join(dir, name)
		golden := strings.TrimSuffix(path, filepath.Ext(path)) + ".golden"
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			reg, ds, err := Load(context.Background(), path)
			if err != nil {
				t.Fatal(err)
			}
			if reg != nil || !ds.HasErrors() {
				t.Fatalf("bad registry loaded: reg=%v diags=%v", reg != nil, ds)
			}
			checkDiags(t, ds)
			got := render(ds)
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./registry -update)", err)
			}
			if got != string(want) {
				t.Errorf("diagnostics differ from %s:\n--- got\n%s--- want\n%s", golden, got, want)
			}
		})
	}
	if n < 11 {
		t.Errorf("only %d bad registries", n)
	}
}

// checkDiags asserts the invariants of every diagnostic.
func checkDiags(t *testing.T, ds Diagnostics) {
	t.Helper()
	for _, d := range ds {
		if !d.Pos.IsValid() || d.Pos.Column < 1 {
			t.Errorf("diagnostic without position: %v", d)
		}
		r, ok := ruleByID(d.Rule)
		if !ok {
			t.Errorf("rule %s not in the catalogue: %v", d.Rule, d)
		} else if r.Severity != d.Severity {
			t.Errorf("severity %s, catalogue says %s: %v", d.Severity, r.Severity, d)
		}
		if d.Message == "" || strings.Contains(d.Message, "\n") {
			t.Errorf("bad message %q", d.Message)
		}
	}
}

// TestInline covers the semantic checks with small registries: each case lists the
// exact diagnostics (file:line:col: severity RULE: message).
func TestInline(t *testing.T) {
	t.Parallel()
	const head = "version: 1\nmessages:\n  urn:babel:orders:created:\n    data:\n      properties:\n"
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{"alias cycle", "version: 1\ntypes:\n  K: {type: K, nullable: true}\n  A: {type: B}\n  B: {type: A, nullable: true}\nmessages:\n  urn:babel:orders:created:\n    data: {properties: {k: {type: K}}}\n",
			[]string{
				`r.yaml:3:3: error BQ033: type "K" only names itself: K → K`,
				`r.yaml:4:3: error BQ033: type "A" only names itself: A → B → A`,
			}},
		{"number bound a double cannot carry", head + "        x: {type: number, exclusiveMinimum: 1e-400, maximum: 0.1000000000000000000001}\n        y: {type: number, minimum: 0.10, maximum: 0.3}\n",
			[]string{
				`r.yaml:6:45: error BQ023: 1e-400 cannot be carried exactly: a double reads it as 0`,
				`r.yaml:6:62: error BQ023: 0.1000000000000000000001 cannot be carried exactly: a double reads it as 0.1`,
			}},
		{"byte order mark in text", head + "        x: {type: string, description: \"a\\ufeffb\"}\n",
			[]string{`r.yaml:6:40: error BQ036: text contains the invisible character U+FEFF (BYTE ORDER MARK)`}},
		{"keyword does not apply", head + "        id: {type: integer, maxLength: 3}\n",
			[]string{`r.yaml:6:29: error BQ002: "maxLength" does not apply to field "id" (integer)`}},
		{"required names a missing property", "version: 1\nmessages:\n  urn:babel:orders:created:\n    data:\n      required: [idd]\n      properties:\n        id: {type: integer}\n",
			[]string{`r.yaml:5:18: error BQ002: required names "idd", which is not a property of the data of message "urn:babel:orders:created"; did you mean "id"?`}},
		{"int64 bounds", head + "        id: {type: integer, minimum: -9223372036854775809, maximum: 1.5}\n",
			[]string{
				`r.yaml:6:38: error BQ021: minimum -9223372036854775809 of field "id" lies outside int64 [-9223372036854775808, 9223372036854775807]`,
				`r.yaml:6:69: error BQ021: maximum 1.5 of integer field "id" is not an integer`,
			}},
		{"int32 bounds", head + "        id: {type: integer, format: int32, maximum: 3000000000}\n",
			[]string{`r.yaml:6:53: error BQ021: maximum 3000000000 of field "id" lies outside int32 [-2147483648, 2147483647]`}},
		{"enum of the wrong type", head + "        c: {type: string, enum: [a, 3, true]}\n",
			[]string{
				`r.yaml:6:37: error BQ002: enum value 3 of field "c" is not a string`,
				`r.yaml:6:40: error BQ002: enum value true of field "c" is not a string`,
			}},
		{"encoding on a string", head + "        c: {type: string, encoding: string}\n",
			[]string{`r.yaml:6:27: error BQ002: "encoding" does not apply to field "c" (string)`}},
		{"map without values, array without items", head + "        m: {type: map}\n        a: {type: array}\n",
			[]string{
				`r.yaml:6:13: error BQ002: field "m" is a map without "values"`,
				`r.yaml:7:13: error BQ002: field "a" is an array without "items"`,
			}},
		{"min greater than max", head + "        s: {type: string, minLength: 5, maxLength: 2}\n        n: {type: number, exclusiveMinimum: 1, maximum: 1}\n",
			[]string{
				`r.yaml:6:27: error BQ002: minLength 5 of field "s" is greater than maxLength 2: no value can match`,
				`r.yaml:7:27: error BQ002: exclusiveMinimum 1 and maximum 1 of field "n" leave no valid value`,
			}},
		{"go.enum names a missing value", head + "        c: {type: string, enum: [a], go: {enum: {b: B}}}\n",
			[]string{`r.yaml:6:50: error BQ002: go.enum names "b", which is not an enum value of field "c"`}},
		{"go name collision", head + "        order_id: {type: integer}\n        orderId: {type: integer}\n",
			[]string{
				`r.yaml:7:9: error BQ030: Go name "OrderID" of field "orderId" of message urn:babel:orders:created collides with field "order_id" of message urn:babel:orders:created at r.yaml:6:9`,
				`r.yaml:7:9: warning BQ031: JSON key "orderId" is not snake_case`,
			}},
		{"urn rules", "version: 1\nmessages:\n  urn:babel:Orders:created: {data: {}}\n  urn:babel:orders:1042: {data: {}}\n  App\\Jobs\\ProcessOrder: {data: {}}\n  urn:babel:orders:made.v1: {data: {}}\n  urn:babel:orders:sent.v2: {supersedes: urn:babel:orders:sent, data: {}}\n",
			[]string{
				`r.yaml:3:3: error BQ010: URN "urn:babel:Orders:created" has upper-case letters`,
				`r.yaml:4:3: error BQ011: URN "urn:babel:orders:1042" carries a payload ("1042" is a number); ids belong in data`,
				`r.yaml:5:3: error BQ012: "App\\Jobs\\ProcessOrder" is a class name, not a URN`,
				`r.yaml:6:3: error BQ014: URN "urn:babel:orders:made.v1" has the suffix .v1; the first version has no suffix`,
				`r.yaml:7:42: error BQ014: message "urn:babel:orders:sent.v2" supersedes "urn:babel:orders:sent", which is not in the registry`,
			}},
		{"data rules", "version: 1\nconsumers: [node]\nmessages:\n  urn:babel:orders:created:\n    data:\n      additionalProperties: false\n      properties:\n        total: {type: number}\n        count: {type: integer}\n        is_active: {type: integer, enum: [0, 1]}\n        agreed: {type: string, enum: [yes, no]}\n        shipped_at: {type: integer, minimum: 0, maximum: 100}\n        code: {type: string, pattern: \"(?i)abc\"}\n        ref: {type: string, pattern: \"a(?=b)\"}\n        qty: {type: integer, minimum: 0, maximum: 9, examples: [3, 10]}\n",
			[]string{
				`r.yaml:6:7: warning BQ032: the data of message "urn:babel:orders:created" is closed (additionalProperties: false): adding a property later breaks its consumers`,
				`r.yaml:8:9: error BQ020: field "total" is a number (a float) but names money ("total")`,
				`r.yaml:9:9: error BQ022: field "count" has no minimum or maximum, and a node consumer is declared: JavaScript loses integers beyond ±9007199254740991`,
				`r.yaml:10:9: warning BQ026: field "is_active" is an integer limited to 0 and 1 and named like a flag: a boolean in disguise`,
				`r.yaml:11:32: error BQ024: field "agreed" is a string enum of boolean words`,
				`r.yaml:12:9: error BQ025: field "shipped_at" names a time but is a plain integer; time is Unix milliseconds typed timestamp`,
				`r.yaml:13:39: error BQ035: pattern of field "code" is not an ECMA-262 regular expression (JSON Schema's pattern, read with the u flag): the group syntax (?i) at character 1 is not ECMA-262 (Node 20 has no inline flags or modifiers)`,
				`r.yaml:14:38: error BQ035: pattern of field "ref" uses a lookahead (?=…) at character 2, which RE2 (Go's regexp) cannot express`,
				`r.yaml:15:68: error BQ034: example 2 of field "qty" is invalid: $: above the maximum 9`,
			}},
		{"lint silences", "version: 1\nlint: {ignore: [BQ032], reason: legacy}\nmessages:\n  urn:babel:orders:created:\n    lint: {ignore: [BQ031], reason: legacy}\n    data:\n      additionalProperties: false\n      properties:\n        orderId: {type: string}\n",
			nil},
		{"bidi character", head + "        c: {type: string, description: \"abc\u202edef\"}\n",
			[]string{`r.yaml:6:40: error BQ036: text contains the invisible character U+202E (RIGHT-TO-LEFT OVERRIDE)`}},
		{"duplicate key", head + "        a: {type: string}\n        a: {type: integer}\n",
			[]string{"r.yaml:7:9: error BQ001: duplicate key \"a\" (first defined at r.yaml:6:9)"}},
		{"merge key twice", head + "        a: &s {type: string, maxLength: 3}\n        t: &t {type: string, minLength: 1}\n        b: {<<: *s, <<: *t}\n",
			[]string{`r.yaml:8:21: error BQ001: key "<<" (a merge key) is written twice in one mapping (first at r.yaml:8:13)`}},
		{"merge key and a quoted <<", head + "        a: &s {type: string, maxLength: 3}\n        b:\n          <<: *s\n          \"<<\": {type: string}\n",
			[]string{`r.yaml:9:11: error BQ001: key "<<" (a merge key) is written twice in one mapping (first at r.yaml:8:11)`}},
		{"merge key and alias", "version: 1\nmessages:\n  urn:babel:orders:created:\n    data:\n      properties:\n        a: &s {type: string, maxLength: 3}\n        b: {<<: *s, minLength: 1}\n        c: *s\n", nil},
		{"two documents", "version: 1\nmessages: {}\n---\nversion: 1\n",
			[]string{`r.yaml:3:1: error BQ001: a registry file holds one YAML document; found a second one`}},
		{"not a mapping", "- 1\n", []string{`r.yaml:1:1: error BQ002: the registry must be a mapping, not a list`}},
		{"empty file", "", []string{
			`r.yaml:1:1: error BQ002: missing required key "messages" in the registry`,
			`r.yaml:1:1: error BQ002: missing required key "version" in the registry`,
		}},
		{"bad type name and lint", "version: 1\ntypes:\n  address: {type: object}\nmessages:\n  urn:babel:orders:created:\n    lint: {ignore: [X1], reason: \" \"}\n    data: {}\n",
			[]string{
				`r.yaml:3:3: error BQ002: type name "address" must be CamelCase: an upper-case letter, then letters and digits`,
				`r.yaml:6:21: error BQ002: "X1" is not a rule id (BQ followed by three digits)`,
				`r.yaml:6:34: error BQ002: "reason" in the "lint" block of message "urn:babel:orders:created" must not be blank`,
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			reg, ds, err := LoadFiles(context.Background(), map[string][]byte{"r.yaml": []byte(tc.src)})
			if err != nil {
				t.Fatal(err)
			}
			checkDiags(t, ds)
			var got []string
			for _, d := range ds {
				got = append(got, d.String())
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("diagnostics:\n got %q\nwant %q", got, tc.want)
			}
			if ds.HasErrors() != (reg == nil) {
				t.Errorf("reg nil = %v with errors = %v", reg == nil, ds.HasErrors())
			}
		})
	}
}

// TestMergeKeys: a key written in the mapping wins over a merged one, and in the list
// form `<<: [*a, *b]` the earlier mapping wins (YAML 1.1's merge key type).
func TestMergeKeys(t *testing.T) {
	t.Parallel()
	src := "version: 1\nmessages:\n  urn:babel:orders:created:\n    data:\n      properties:\n        a: &s {type: string, maxLength: 3}\n        b: {<<: *s, maxLength: 5}\n" +
		"        t: &t {type: string, minLength: 1, maxLength: 4, description: T}\n        c: {<<: [*s, *t], description: C}\n"
	reg, ds, err := LoadFiles(context.Background(), map[string][]byte{"r.yaml": []byte(src)})
	if err != nil || ds.HasErrors() {
		t.Fatal(err, ds)
	}
	b := reg.Messages[0].Data.Property("b").Schema
	if b.Kind != model.String || *b.MaxLength != 5 {
		t.Errorf("b = %+v", b)
	}
	c := reg.Messages[0].Data.Property("c").Schema
	if c.Kind != model.String || *c.MaxLength != 3 || c.MinLength == nil || *c.MinLength != 1 || c.Description != "C" {
		t.Errorf("c = %+v, want maxLength 3 (from *s), minLength 1 (from *t), description C", c)
	}
}

// TestMergeKeyTwice: a second merge key in one mapping is a BQ001 error at it, whose
// related position is the first one and whose hint gives the list form; the first
// merge is kept.
func TestMergeKeyTwice(t *testing.T) {
	t.Parallel()
	src := "version: 1\nmessages:\n  urn:babel:orders:created:\n    data:\n      properties:\n        a: &s {type: string, maxLength: 3}\n        t: &t {type: string, minLength: 1}\n        b:\n          <<: *s\n          <<: *t\n"
	_, ds, err := LoadFiles(context.Background(), map[string][]byte{"r.yaml": []byte(src)})
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 1 {
		t.Fatalf("diagnostics %v, want one", ds)
	}
	d := ds[0]
	if got, want := d.String(), `r.yaml:10:11: error BQ001: key "<<" (a merge key) is written twice in one mapping (first at r.yaml:9:11)`; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if len(d.Related) != 1 || d.Related[0].String() != "r.yaml:9:11" {
		t.Errorf("related %v, want r.yaml:9:11", d.Related)
	}
	if !strings.Contains(d.Hint, "`<<: [*first, *second]`") {
		t.Errorf("hint %q does not give the list form", d.Hint)
	}
}

func TestLimits(t *testing.T) {
	t.Parallel()
	deep := "version: 1\nmessages: {}\nx: " + strings.Repeat("[", 70) + strings.Repeat("]", 70) + "\n"
	big := append([]byte("version: 1\n#"), bytes.Repeat([]byte("x"), MaxFileSize)...)
	tests := []struct {
		name string
		src  []byte
		want string
	}{
		{"depth", []byte(deep), `r.yaml:3:67: error BQ004: values are nested deeper than 64 levels`},
		{"size", big, `r.yaml:1:1: error BQ004: file is 33554444 bytes; the limit is 33554432 bytes (32 MiB)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			reg, ds, err := LoadFiles(context.Background(), map[string][]byte{"r.yaml": tc.src})
			if err != nil {
				t.Fatal(err)
			}
			if reg != nil || len(ds) != 1 || ds[0].String() != tc.want {
				t.Errorf("got %v, want %s", ds, tc.want)
			}
		})
	}
}

func TestLoadErrors(t *testing.T) {
	t.Parallel()
	if _, _, err := Load(context.Background(), filepath.Join(testdata, "does-not-exist.yaml")); err == nil {
		t.Error("missing file: no error")
	}
	if _, _, err := Load(context.Background(), t.TempDir()); err == nil {
		t.Error("empty directory: no error")
	}
	if _, _, err := LoadFiles(context.Background(), nil); err == nil {
		t.Error("no files: no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := LoadFiles(ctx, map[string][]byte{"r.yaml": []byte("version: 1\nmessages: {}\n")}); err == nil {
		t.Error("cancelled context: no error")
	}
}

func TestRulesCatalogue(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	idRe := regexp.MustCompile(`^BQ[0-9]{3}$`)
	for _, r := range Rules() {
		if seen[r.ID] {
			t.Errorf("duplicate rule id %s", r.ID)
		}
		seen[r.ID] = true
		if !idRe.MatchString(r.ID) || r.Title == "" || r.Source == "" || r.Hint == "" ||
			(r.Severity != SeverityError && r.Severity != SeverityWarning) {
			t.Errorf("incomplete rule %+v", r)
		}
	}
	// Every rule id constant used in the package's source is in the catalogue.
	files, _ := filepath.Glob("*.go")
	constRe := regexp.MustCompile(`\bRule[A-Z][A-Za-z]*\b`)
	src, _ := os.ReadFile("rules.go")
	defRe := regexp.MustCompile(`(?m)^\t(Rule[A-Za-z]+)\s+= "(BQ[0-9]{3})"`)
	ids := map[string]string{}
	for _, m := range defRe.FindAllStringSubmatch(string(src), -1) {
		ids[m[1]] = m[2]
	}
	for _, f := range files {
		b, _ := os.ReadFile(f)
		for _, c := range constRe.FindAllString(string(b), -1) {
			if id, ok := ids[c]; ok && !seen[id] {
				t.Errorf("%s uses %s (%s), which is not in Rules()", f, c, id)
			}
		}
	}
}

func TestSchema(t *testing.T) {
	t.Parallel()
	var doc any
	if err := json.Unmarshal(Schema(), &doc); err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(Schema()))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.AddResource("registry.schema.json", v); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Compile("registry.schema.json"); err != nil {
		t.Fatal(err)
	}
	// Every property of the format has a description (editors show it).
	var walk func(path string, v any, propsMap bool)
	walk = func(path string, v any, propsMap bool) {
		switch x := v.(type) {
		case map[string]any:
			if props, ok := x["properties"].(map[string]any); ok && !propsMap {
				for k, p := range props {
					if pm, ok := p.(map[string]any); ok {
						if _, ok := pm["description"]; !ok {
							t.Errorf("%s.properties.%s has no description", path, k)
						}
					}
				}
			}
			for k, c := range x {
				walk(path+"."+k, c, k == "properties" && !propsMap)
			}
		case []any:
			for _, c := range x {
				walk(path, c, false)
			}
		}
	}
	walk("$", doc, false)
}

func FuzzLoad(f *testing.F) {
	for _, glob := range []string{"good/*.yaml", "bad/*.yaml", "bad/*/*.yaml", "../rules/*/*.yaml"} {
		files, _ := filepath.Glob(filepath.Join(testdata, glob))
		for _, file := range files {
			b, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
	for _, tc := range hostileCases() {
		if len(tc.src) <= 64<<10 {
			f.Add([]byte(tc.src))
		}
	}
	f.Add(hugeExponentRegistry(20, "!!float 1e999999"))
	f.Add(hugeExponentRegistry(20, "1e-999999"))
	f.Fuzz(func(t *testing.T, data []byte) {
		reg, ds, err := LoadFiles(context.Background(), map[string][]byte{"f.yaml": data})
		if err != nil {
			t.Fatal(err)
		}
		if ds.HasErrors() != (reg == nil) {
			t.Fatalf("reg nil = %v with errors = %v", reg == nil, ds.HasErrors())
		}
		for _, d := range ds {
			if !d.Pos.IsValid() || d.Pos.File != "f.yaml" {
				t.Fatalf("diagnostic without position: %v", d)
			}
			if _, ok := ruleByID(d.Rule); !ok {
				t.Fatalf("unknown rule: %v", d)
			}
		}
	})
}

// FuzzSlowPattern runs the slow-pattern analysis (BQ037) on every pattern that
// translates (ECMA-262 that RE2 can express): it must not panic, and it must not take
// long on long patterns.
func FuzzSlowPattern(f *testing.F) {
	for _, p := range []string{`^(a+)+$`, `(a|a)*`, `(.*a){10}`, `(\d|\w)+`, `^(\w+\s?)*$`, `(a|aa)*`, `^[A-Z]{3}$`,
		`^[^@\s]+@[^@\s]+\.[^@\s]+$`, `^([a-z0-9]+(-[a-z0-9]+)*\.)+[a-z]{2,}$`, `(?:[a-z]{2}-)*[a-z]+`, `[\]a-]+`, `\p{L}+(\u{41}|\p{N})*`,
		`(?<x>a)|(?<y>b)`, `a{2,}?b{0,3}`, `[^\]]*`, `()*`, `(|a)+`, `^(a|a?)+$`, `^a*a*a*a*b$`} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, p string) {
		if _, err := ecmare.Parse(p); err != nil {
			return
		}
		if f, ok := slowPattern(p); ok && (f.lo < 0 || f.hi > len(p) || f.lo > f.hi) {
			t.Fatalf("finding %d..%d out of %q", f.lo, f.hi, p)
		}
	})
}

// TestDirectoryLinkOutside: a registry directory's symbolic link to a file outside it is
// refused before anything is read (its values would be quoted in diagnostics), and one
// to a file inside the directory is read.
func TestDirectoryLinkOutside(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	reg, out := filepath.Join(dir, "reg"), filepath.Join(dir, "out")
	for _, d := range []string{reg, out} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(out, "secret.yaml"), "version: ghp_SECRET\nmessages: {}\n")
	write(filepath.Join(reg, "inner.txt"), "version: 1\nmessages: {}\n")
	if err := os.Symlink(filepath.Join("..", "out", "secret.yaml"), filepath.Join(reg, "y.yaml")); err != nil {
		t.Fatal(err)
	}
	_, ds, err := Load(context.Background(), reg)
	if !errors.Is(err, ErrLinkOutside) || len(ds) != 0 || strings.Contains(err.Error(), "ghp_SECRET") {
		t.Fatalf("link outside: err %v, diagnostics %v; want ErrLinkOutside and nothing read", err, ds)
	}
	if err := os.Remove(filepath.Join(reg, "y.yaml")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("inner.txt", filepath.Join(reg, "z.yaml")); err != nil {
		t.Fatal(err)
	}
	if r, ds, err := Load(context.Background(), reg); err != nil || len(ds) != 0 || r == nil {
		t.Fatalf("link inside: err %v, diagnostics %v", err, ds)
	}
}
