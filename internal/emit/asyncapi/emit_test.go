package asyncapi

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	js "github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"

	"github.com/babelqueue/bqgen/internal/emit/jsonschema"
	"github.com/babelqueue/bqgen/internal/emit/jsonschema/fixture"
	"github.com/babelqueue/bqgen/internal/model"
	"github.com/babelqueue/bqgen/internal/nodetools"
	"github.com/babelqueue/bqgen/registry"
)

var update = flag.Bool("update", false, "rewrite the golden files")

const (
	goldenFile      = "../../../testdata/golden/asyncapi/example.asyncapi.json"
	exampleRegistry = "../../../examples/registry.yaml"
)

func exampleReg(t *testing.T) *model.Registry {
	t.Helper()
	reg, diags, err := registry.Load(context.Background(), exampleRegistry)
	if err != nil {
		t.Fatal(err)
	}
	if diags.HasErrors() {
		t.Fatalf("example registry has errors: %v", diags)
	}
	return reg
}

func emit(t *testing.T, reg *model.Registry, opts Options) []byte {
	t.Helper()
	b, err := Emit(reg, opts)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// handBuilt is a registry built without the loader: an event, a deprecated event
// superseded by a v2, and a command, two of them on one queue, sharing a named type.
func handBuilt() *model.Registry {
	addr := &model.NamedType{Name: "Address", Schema: &model.Schema{
		Kind: model.Object, AdditionalProperties: true,
		Properties: []*model.Property{
			{Name: "line1", Required: true, Schema: &model.Schema{Kind: model.String, GDPR: "true"}},
			{Name: "country", Required: true, Schema: &model.Schema{Kind: model.String, Pattern: "^[A-Z]{2}$"}},
		},
	}}
	addrRef := func(nullable bool) *model.Schema {
		return &model.Schema{Kind: model.Ref, Ref: "Address", Named: addr, Nullable: nullable}
	}
	data := func(props ...*model.Property) *model.Schema {
		return &model.Schema{Kind: model.Object, AdditionalProperties: true, Properties: props}
	}
	id := &model.Property{Name: "order_id", Required: true, Schema: &model.Schema{Kind: model.Integer, Minimum: &model.Bound{IsInt: true, I: 1}}}
	return &model.Registry{
		Version: 1,
		Types:   []*model.NamedType{addr},
		Messages: []*model.Message{
			{URN: "urn:babel:orders:created", Kind: model.Event, Summary: "An order was placed.", Owner: "orders", Queue: "orders",
				Deprecation: &model.Deprecation{Reason: "Use urn:babel:orders:created.v2."},
				Data:        data(id, &model.Property{Name: "total", Required: true, Schema: &model.Schema{Kind: model.Money}})},
			{URN: "urn:babel:orders:created.v2", Kind: model.Event, Summary: "An order was placed (v2).", Owner: "orders", Queue: "orders",
				Supersedes: "urn:babel:orders:created",
				Data: data(id, &model.Property{Name: "shipping", Schema: addrRef(false)},
					&model.Property{Name: "billing", Schema: addrRef(true)},
					&model.Property{Name: "placed_at", Required: true, Schema: &model.Schema{Kind: model.Timestamp}})},
			{URN: "urn:babel:shipping:parcel.send", Kind: model.Command, Summary: "Send a parcel.", Description: "Imperative: the shipping team handles it.",
				Owner: "shipping", Queue: "shipping-commands",
				Data: data(id, &model.Property{Name: "to", Required: true, Schema: addrRef(false)})},
		},
	}
}

func TestGolden(t *testing.T) {
	for _, c := range []struct {
		file string
		opts Options
	}{{goldenFile, Options{}}, {strings.TrimSuffix(goldenFile, ".json") + ".yaml", Options{YAML: true}}} {
		got := emit(t, exampleReg(t), c.opts)
		if *update {
			if err := os.MkdirAll(filepath.Dir(c.file), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(c.file, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatalf("%v (run go test -update)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from the golden file (run go test -update to accept)", c.file)
		}
		if again := emit(t, exampleReg(t), c.opts); !bytes.Equal(got, again) {
			t.Error("two runs give different bytes")
		}
		if !IsGenerated(got) {
			t.Errorf("IsGenerated rejects the emitted document %s", c.file)
		}
	}
}

// TestYAMLIsTheJSONDocument: the YAML document holds exactly the JSON document's
// values, keys in the same order (issue 13, item 12).
func TestYAMLIsTheJSONDocument(t *testing.T) {
	for name, reg := range map[string]*model.Registry{"example": exampleReg(t), "hand-built": handBuilt(), "fixture": fixture.Registry()} {
		j, y := emit(t, reg, Options{}), emit(t, reg, Options{YAML: true})
		if bytes.HasPrefix(y, []byte("{")) || !bytes.HasPrefix(y, []byte("asyncapi: 3.0.0\nx-generated-by: bqgen\n")) {
			t.Errorf("%s: not block YAML:\n%.200s", name, y)
		}
		var fromJSON, fromYAML any
		var nj, ny yaml.Node
		if err := yaml.Unmarshal(j, &fromJSON); err != nil {
			t.Fatal(err)
		}
		if err := yaml.Unmarshal(y, &fromYAML); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(fromJSON, fromYAML) {
			t.Errorf("%s: the YAML document has other values than the JSON one", name)
		}
		yaml.Unmarshal(j, &nj)
		yaml.Unmarshal(y, &ny)
		if kj, ky := keyOrder(&nj), keyOrder(&ny); kj != ky {
			t.Errorf("%s: keys in another order", name)
		}
	}
}

// keyOrder lists every mapping key of n in document order.
func keyOrder(n *yaml.Node) string {
	var b strings.Builder
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		for i, c := range n.Content {
			if n.Kind == yaml.MappingNode && i%2 == 0 {
				b.WriteString(c.Value + "\n")
			}
			walk(c)
		}
	}
	walk(n)
	return b.String()
}

func TestIsGenerated(t *testing.T) {
	for in, want := range map[string]bool{
		`{"asyncapi": "3.0.0", "x-generated-by": "bqgen"}`:           true,
		`{"asyncapi": "3.0.0", "x-generated-by": "someone"}`:         false,
		`{"asyncapi": "3.0.0", "info": {"x-generated-by": "bqgen"}}`: false,
		"asyncapi: 3.0.0\nx-generated-by: bqgen\n":                   true,
		"asyncapi: 3.0.0\nx-generated-by: someone\n":                 false,
		"asyncapi: 3.0.0\ninfo:\n  x-generated-by: bqgen\n":          false,
		"- x-generated-by: bqgen\n":                                  false,
		"x-generated-by: [bqgen]\n":                                  false,
		// The start of Emit's output, cut (the output directory reads 64 KiB of a file).
		"{\n  \"asyncapi\": \"3.0.0\",\n  \"x-generated-by\": \"bqgen\",\n  \"info\": {\n    \"ti": true,
		"asyncapi: 3.0.0\nx-generated-by: bqgen\ninfo:\n  ti":                                      true,
		"{\n  \"asyncapi\": \"3.0.0\",\n  \"x-generated-by\": \"someone\",\n  \"info\": {":         false,
		``: false,
	} {
		if got := IsGenerated([]byte(in)); got != want {
			t.Errorf("IsGenerated(%q) = %v, want %v", in, got, want)
		}
	}
}

// doc decodes an emitted document for structural checks.
func doc(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var d map[string]any
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	return d
}

func at(t *testing.T, v any, path ...string) any {
	t.Helper()
	for _, p := range path {
		m, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("%v: not an object at %q", path, p)
		}
		if v, ok = m[p]; !ok {
			t.Fatalf("%v: no key %q", path, p)
		}
	}
	return v
}

// pointer resolves a local JSON reference ("#/a/b") in d.
func pointer(d map[string]any, ref string) (any, bool) {
	if !strings.HasPrefix(ref, "#/") {
		return nil, false
	}
	var v any = d
	for _, tok := range strings.Split(ref[2:], "/") {
		tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = m[tok]; !ok {
			return nil, false
		}
	}
	return v, true
}

// checkRefs fails for every $ref of d that does not resolve inside d.
func checkRefs(t *testing.T, d map[string]any) int {
	t.Helper()
	n := 0
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if r, ok := v["$ref"].(string); ok {
				n++
				if _, ok := pointer(d, r); !ok {
					t.Errorf("$ref %q does not resolve", r)
				}
			}
			for _, e := range v {
				walk(e)
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	walk(d)
	return n
}

func TestHandBuilt(t *testing.T) {
	b := emit(t, handBuilt(), Options{Title: "Orders", Version: "2.1.0", Description: "Orders and shipping."})
	d := doc(t, b)
	if n := checkRefs(t, d); n == 0 {
		t.Error("no $ref in the document")
	}
	if at(t, d, "asyncapi") != "3.0.0" || at(t, d, "x-generated-by") != "bqgen" ||
		at(t, d, "info", "title") != "Orders" || at(t, d, "info", "version") != "2.1.0" || at(t, d, "info", "description") != "Orders and shipping." {
		t.Errorf("header: %v %v", d["asyncapi"], d["info"])
	}
	if got := len(at(t, d, "channels").(map[string]any)); got != 3 {
		t.Errorf("%d channels, want 3", got)
	}
	if got := len(at(t, d, "operations").(map[string]any)); got != 6 {
		t.Errorf("%d operations, want 6", got)
	}

	// The deprecated event.
	old := at(t, d, "components", "messages", "orders.created").(map[string]any)
	if old["x-babel-deprecated"] != true || old["x-babel-deprecated-reason"] != "Use urn:babel:orders:created.v2." ||
		!strings.HasPrefix(old["description"].(string), "**Deprecated.** Use urn:babel:orders:created.v2.") ||
		old["x-babel-kind"] != "event" || old["x-babel-owner"] != "orders" || old["x-babel-queue"] != "orders" || old["title"] != "urn:babel:orders:created" {
		t.Errorf("deprecated message: %v", old)
	}
	if tags, _ := json.Marshal(old["tags"]); string(tags) != `[{"name":"event"},{"name":"owner:orders"},{"name":"deprecated"}]` {
		t.Errorf("deprecated message tags: %s", tags)
	}
	if at(t, d, "components", "schemas", "orders.created.envelope", "deprecated") != true {
		t.Error("the deprecated message's envelope schema is not deprecated")
	}
	v2 := at(t, d, "components", "messages", "orders.created.v2").(map[string]any)
	if _, dep := v2["x-babel-deprecated"]; dep || v2["x-babel-supersedes"] != "urn:babel:orders:created" {
		t.Errorf("v2 message: %v", v2)
	}

	// Event: the owner sends; command: the owner receives.
	for op, owner := range map[string]bool{
		"orders.created.v2.send": true, "orders.created.v2.receive": false,
		"shipping.parcel.send.send": false, "shipping.parcel.send.receive": true,
	} {
		o := at(t, d, "operations", op).(map[string]any)
		if (o["x-babel-owner-action"] == true) != owner {
			t.Errorf("%s: x-babel-owner-action = %v, want %v", op, o["x-babel-owner-action"], owner)
		}
		if o["action"] != op[strings.LastIndex(op, ".")+1:] {
			t.Errorf("%s: action %v", op, o["action"])
		}
	}
	cmd := at(t, d, "components", "messages", "shipping.parcel.send").(map[string]any)
	if cmd["x-babel-kind"] != "command" || cmd["name"] != "ShippingParcelSend" {
		t.Errorf("command message: %v", cmd)
	}

	// Channels: address = queue; two URNs share the orders queue.
	for ch, addr := range map[string]string{"orders.created": "orders", "orders.created.v2": "orders", "shipping.parcel.send": "shipping-commands"} {
		if got := at(t, d, "channels", ch, "address"); got != addr {
			t.Errorf("channel %s: address %v, want %s", ch, got, addr)
		}
	}

	// Payloads: the envelope schema, its data split out, named types shared.
	if r := at(t, d, "components", "messages", "orders.created.v2", "payload", "$ref"); r != "#/components/schemas/orders.created.v2.envelope" {
		t.Errorf("payload $ref %v", r)
	}
	if r := at(t, d, "components", "schemas", "orders.created.v2.envelope", "properties", "data", "$ref"); r != "#/components/schemas/orders.created.v2.data" {
		t.Errorf("envelope data $ref %v", r)
	}
	if got := at(t, d, "components", "schemas", "orders.created.v2.data", "title"); got != "OrdersCreatedV2" {
		t.Errorf("data title %v", got)
	}
	for _, m := range []string{"orders.created", "orders.created.v2", "shipping.parcel.send"} {
		for prop, key := range map[string]string{"meta": "babelqueue.meta", "dead_letter": "babelqueue.dead_letter"} {
			if r := at(t, d, "components", "schemas", m+".envelope", "properties", prop, "$ref"); r != "#/components/schemas/"+key {
				t.Errorf("%s envelope %s: $ref %v", m, prop, r)
			}
		}
	}
	if got := at(t, d, "components", "schemas", "babelqueue.meta", "properties", "schema_version", "const"); got != 1.0 {
		t.Errorf("shared meta: schema_version const %v", got)
	}
	if got := at(t, d, "components", "schemas", "Address", "properties", "line1", "x-gdpr-sensitive"); got != true {
		t.Errorf("Address.line1 x-gdpr-sensitive = %v", got)
	}
	for _, k := range []string{"$schema", "$id", "$comment", "definitions"} {
		if bytes.Contains(b, []byte(strconv.Quote(k))) {
			t.Errorf("the document contains %q", k)
		}
	}
}

func TestDefaults(t *testing.T) {
	d := doc(t, emit(t, &model.Registry{Version: 1}, Options{}))
	if at(t, d, "info", "title") != DefaultTitle || at(t, d, "info", "version") != DefaultVersion {
		t.Errorf("info: %v", d["info"])
	}
	if _, err := Emit(nil, Options{}); err == nil {
		t.Error("Emit(nil) gave no error")
	}
	// A message without a queue falls back to its bounded context.
	reg := handBuilt()
	reg.Messages[2].Queue = ""
	if got := at(t, doc(t, emit(t, reg, Options{})), "channels", "shipping.parcel.send", "address"); got != "shipping" {
		t.Errorf("address without queue: %v", got)
	}
}

// documents are the documents checked by the validators.
func documents(t *testing.T) map[string][]byte {
	return map[string][]byte{
		"example":    emit(t, exampleReg(t), Options{}),
		"hand-built": emit(t, handBuilt(), Options{}),
		"fixture":    emit(t, fixture.Registry(), Options{}),
		"empty":      emit(t, &model.Registry{Version: 1}, Options{}),
	}
}

// yamlDocuments are the same documents as YAML.
func yamlDocuments(t *testing.T) map[string][]byte {
	return map[string][]byte{
		"example.yaml":    emit(t, exampleReg(t), Options{YAML: true}),
		"hand-built.yaml": emit(t, handBuilt(), Options{YAML: true}),
		"fixture.yaml":    emit(t, fixture.Registry(), Options{YAML: true}),
		"empty.yaml":      emit(t, &model.Registry{Version: 1}, Options{YAML: true}),
	}
}

// TestOfficialSchema validates the documents against the official AsyncAPI 3.0.0 JSON
// Schema, as shipped in the @asyncapi/specs npm package, with jsonschema/v6.
func TestOfficialSchema(t *testing.T) {
	path := filepath.Join(nodetools.ModulesDir(t), "@asyncapi", "specs", "schemas", Version+".json")
	c := js.NewCompiler()
	s, err := c.Compile(path)
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range documents(t) {
		v, err := js.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Validate(v); err != nil {
			t.Errorf("%s: invalid under the official AsyncAPI %s schema: %v", name, Version, err)
		}
	}
	// The schema does catch a broken document.
	bad := bytes.Replace(documents(t)["hand-built"], []byte(`"action": "send"`), []byte(`"action": "publish"`), 1)
	v, _ := js.UnmarshalJSON(bytes.NewReader(bad))
	if s.Validate(v) == nil {
		t.Error(`"action": "publish" passed the official schema`)
	}
}

const parserScript = `
const { Parser } = require('@asyncapi/parser');
let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', c => input += c);
process.stdin.on('end', async () => {
  const docs = JSON.parse(input);
  const out = {};
  const parser = new Parser(); // one parser: its rulesets load once, not per document
  for (const [name, text] of Object.entries(docs)) {
    const { document, diagnostics } = await parser.parse(text);
    out[name] = {
      parsed: document !== undefined,
      errors: diagnostics.filter(d => d.severity === 0).map(d => d.code + ' at ' + d.path.join('/') + ': ' + d.message),
      channels: document ? document.allChannels().length : 0,
      operations: document ? document.allOperations().all().map(o => o.id() + ':' + o.action()).sort() : [],
      payloads: document ? document.allMessages().all().map(m => m.id() + ':' + m.payload().title()).sort() : [],
    };
  }
  process.stdout.write(JSON.stringify(out));
});`

// TestAsyncAPIParser parses the documents with @asyncapi/parser (the reference
// implementation behind the AsyncAPI CLI and generator): no error-severity diagnostics.
func TestAsyncAPIParser(t *testing.T) {
	t.Parallel()
	docs := documents(t)
	for name, b := range yamlDocuments(t) {
		docs[name] = b
	}
	in := map[string]string{}
	for name, b := range docs {
		in[name] = string(b)
	}
	// The parser does reject a broken document (a dangling $ref); it is parsed in the
	// same node process, which loads the parser once.
	in["bad"] = strings.Replace(in["hand-built"], "#/components/schemas/Address", "#/components/schemas/Nope", 1)
	stdin, _ := json.Marshal(in)
	var out map[string]struct {
		Parsed     bool
		Errors     []string
		Channels   int
		Operations []string
		Payloads   []string
	}
	raw := nodetools.RunNode(t, parserScript, stdin)
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
	for name := range docs {
		r, ok := out[name]
		if !ok {
			t.Errorf("%s: no result", name)
			continue
		}
		if !r.Parsed || len(r.Errors) > 0 {
			t.Errorf("%s: parsed=%v, errors:\n%s", name, r.Parsed, strings.Join(r.Errors, "\n"))
		}
	}
	hb := out["hand-built"]
	if hb.Channels != 3 || strings.Join(hb.Operations, " ") != "orders.created.receive:receive orders.created.send:send orders.created.v2.receive:receive orders.created.v2.send:send shipping.parcel.send.receive:receive shipping.parcel.send.send:send" ||
		strings.Join(hb.Payloads, " ") != "orders.created.v2:OrdersCreatedV2Envelope orders.created:OrdersCreatedEnvelope shipping.parcel.send:ShippingParcelSendEnvelope" {
		t.Errorf("hand-built as parsed: %+v", hb)
	}
	if n := len(exampleReg(t).Messages); out["example"].Channels != n || len(out["example"].Payloads) != n {
		t.Errorf("example: %d channels, %d messages; want %d", out["example"].Channels, len(out["example"].Payloads), n)
	}
	// The YAML documents parse to the same channels, operations and payloads.
	for name := range documents(t) {
		if j, y := out[name], out[name+".yaml"]; !reflect.DeepEqual(j, y) {
			t.Errorf("%s: parsed from JSON %+v, from YAML %+v", name, j, y)
		}
	}
	if bad := out["bad"]; len(bad.Errors) == 0 {
		t.Errorf("dangling $ref not reported: %+v", bad)
	}
}

// TestPayloadSemantics compiles the envelope payload embedded in the document with
// jsonschema/v6 and checks every envelope case of the JSON Schema fixture: the
// AsyncAPI payload gives the same verdicts as the envelope schema it was built from.
func TestPayloadSemantics(t *testing.T) {
	b := emit(t, fixture.Registry(), Options{})
	d, err := js.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	const loc = "urn:bqgen:test:asyncapi.json"
	c := js.NewCompiler()
	c.DefaultDraft(js.Draft7)
	c.AssertFormat()
	if err := c.AddResource(loc, d); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(loc + "#/components/schemas/" + jsonschema.Stem(fixture.URNClosed) + ".envelope")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, tc := range fixture.EnvelopeCases() {
		if tc.Kind == fixture.KindMalformed {
			continue
		}
		v, err := js.UnmarshalJSON(bytes.NewReader(tc.JSON))
		if err != nil {
			continue // not JSON the schema can see
		}
		n++
		if err := s.Validate(v); (err == nil) != tc.Valid {
			t.Errorf("%s %s: valid=%v, want %v\n%v", tc.Name, tc.JSON, err == nil, tc.Valid, err)
		}
	}
	if n < 10 {
		t.Errorf("only %d envelope cases checked", n)
	}
	t.Logf("%d envelope verdicts checked", n)
}
