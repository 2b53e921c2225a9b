package gonames

import (
	"reflect"
	"strings"
	"testing"

	"github.com/babelqueue/bqgen/internal/model"
)

func TestCamel(t *testing.T) {
	t.Parallel()
	cases := []struct{ in, want string }{
		{"order_id", "OrderID"},
		{"customer_url", "CustomerURL"},
		{"orderId", "OrderID"},
		{"HTTPServer", "HTTPServer"},
		{"placed_at", "PlacedAt"},
		{"sku", "Sku"},
		{"trace-id", "TraceID"},
		{"3d_secure", "N3dSecure"},
		{"api_key_v2", "APIKeyV2"},
		{"__", ""},
		{"", ""},
		{"ñame", "Ñame"},
		{"mW", "MW"},
		{"MW", "MW"},
		{"uuid", "UUID"},
	}
	for _, c := range cases {
		if got := Camel(c.in); got != c.want {
			t.Errorf("Camel(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestMessageName(t *testing.T) {
	t.Parallel()
	cases := []struct{ in, want string }{
		{"urn:babel:orders:created", "Created"},
		{"urn:babel:orders:created.v2", "CreatedV2"},
		{"urn:babel:media:thumbnail.generate", "ThumbnailGenerate"},
		{"urn:babel:user-accounts:email.welcome.send", "EmailWelcomeSend"},
		{"urn:babel:auth:2fa.enabled", "N2faEnabled"},
	}
	for _, c := range cases {
		if got := MessageName(c.in); got != c.want {
			t.Errorf("MessageName(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestContextPackage(t *testing.T) {
	t.Parallel()
	cases := []struct{ ctx, root, want string }{
		{"orders", "events", "orders"},
		{"user-accounts", "events", "useraccounts"},
		{"2fa", "events", "n2fa"},
		{"-", "events", ""},
		{"string", "events", "stringpkg"},
		{"type", "events", "typepkg"},
		{"init", "events", "initpkg"},
		{"main", "events", "mainpkg"},
		{"documentation", "events", "documentationpkg"},
		{"internal", "events", "internalpkg"},
		{"testdata", "events", "testdatapkg"},
		{"vendor", "events", "vendorpkg"},
		{"bqrt", "events", "bqrtpkg"},
		{"events", "events", "eventspkg"},
		{"ctx", "events", "ctx"},
		{"data", "events", "data"},
		{"m", "events", "m"},
		{"err", "events", "err"},
	}
	for _, c := range cases {
		if got := ContextPackage(c.ctx, c.root); got != c.want {
			t.Errorf("ContextPackage(%q, %q) = %q, want %q", c.ctx, c.root, got, c.want)
		}
	}
}

func TestWords(t *testing.T) {
	t.Parallel()
	got := Words("orderID_v2-HTTPServer x")
	want := []string{"order", "ID", "v2", "HTTP", "Server", "x"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Words = %q, want %q", got, want)
	}
}

func pos(line int) model.Pos { return model.Pos{File: "r.yaml", Line: line, Column: 3} }

func TestPlanNamesAndCollisions(t *testing.T) {
	t.Parallel()
	channel := &model.Schema{Kind: model.String, Enum: []any{"web", "mobile"}, Pos: pos(6)}
	item := &model.Schema{Kind: model.Object, Pos: pos(8), AdditionalProperties: true,
		Properties: []*model.Property{{Name: "sku", Required: true, Schema: &model.Schema{Kind: model.String}, Pos: pos(9)}}}
	data := &model.Schema{Kind: model.Object, AdditionalProperties: true, Properties: []*model.Property{
		{Name: "order_id", Required: true, Schema: &model.Schema{Kind: model.Integer}, Pos: pos(4)},
		{Name: "orderId", Schema: &model.Schema{Kind: model.Integer}, Pos: pos(5)},
		{Name: "channel", Schema: channel, Pos: pos(6)},
		{Name: "lines", Schema: &model.Schema{Kind: model.Array, Items: item}, Pos: pos(7)},
		{Name: "validate", Schema: &model.Schema{Kind: model.Boolean}, Pos: pos(10)},
	}}
	power := &model.Schema{Kind: model.String, Enum: []any{"mW", "MW"}, Pos: pos(21)}
	addr := &model.Schema{Kind: model.Object}
	reg := &model.Registry{
		Types: []*model.NamedType{
			{Name: "Money", Schema: &model.Schema{Kind: model.Object}, Pos: pos(1)},
			{Name: "Address", Schema: addr, Pos: pos(2)},
		},
		Messages: []*model.Message{
			{URN: "urn:babel:orders:created", Data: data, Pos: pos(3)},
			{URN: "urn:babel:orders:created-x", Data: &model.Schema{Kind: model.Object}, Pos: pos(11)},
			{URN: "urn:babel:orders:created.x", Data: &model.Schema{Kind: model.Object}, Pos: pos(12)},
			// Another context: the same name is fine there, and a message may be
			// called like a runtime type or a named type.
			{URN: "urn:babel:billing:created", Data: &model.Schema{Kind: model.Object}, Pos: pos(13)},
			{URN: "urn:babel:billing:message", Data: &model.Schema{Kind: model.Object}, Pos: pos(14)},
			{URN: "urn:babel:billing:address", Data: &model.Schema{Kind: model.Object}, Pos: pos(15)},
			{URN: "urn:babel:power:measured", Data: &model.Schema{Kind: model.Object, Properties: []*model.Property{{Name: "unit", Schema: power, Pos: pos(21)}}}, Pos: pos(20)},
		},
	}
	n, colls := Plan(reg, "events")
	orders, billing := n.Context("orders"), n.Context("billing")
	if orders == nil || orders.Name != "orders" || orders.Dir != "orders" || billing == nil || billing.Name != "billing" {
		t.Fatalf("context packages: %+v %+v", orders, billing)
	}
	if got := n.Messages[reg.Messages[0]]; got != (Ident{orders, "Created"}) {
		t.Errorf("message = %+v", got)
	}
	if got := n.Messages[reg.Messages[3]]; got != (Ident{billing, "Created"}) {
		t.Errorf("billing message = %+v", got)
	}
	if got := n.Messages[reg.Messages[4]]; got != (Ident{billing, "Message"}) {
		t.Errorf("billing:message = %+v", got)
	}
	if got := n.Types[reg.Types[1]]; got != (Ident{n.Root, "Address"}) {
		t.Errorf("named type = %+v", got)
	}
	if got := n.Inline[addr]; !reflect.DeepEqual(got, Decl{Ident: Ident{n.Root, "Address"}, Fields: []string{}}) {
		t.Errorf("named type's schema = %+v", got)
	}
	if got := n.Inline[channel]; !reflect.DeepEqual(got, Decl{Ident: Ident{orders, "CreatedChannel"}, EnumConsts: []string{"CreatedChannelWeb", "CreatedChannelMobile"}}) {
		t.Errorf("enum type = %+v", got)
	}
	if got := n.Inline[item]; !reflect.DeepEqual(got, Decl{Ident: Ident{orders, "CreatedLinesItem"}, Fields: []string{"Sku"}}) {
		t.Errorf("item type = %+v", got)
	}
	// The message's data: every field named, the colliding ones too.
	if got, want := n.Inline[data], (Decl{Ident: Ident{orders, "Created"}, Fields: []string{"OrderID", "OrderID", "Channel", "Lines", "Validate"}}); !reflect.DeepEqual(got, want) {
		t.Errorf("data = %+v, want %+v", got, want)
	}
	// Only objects and enums have an entry.
	for s := range n.Inline {
		if s.Kind != model.Object && len(s.Enum) == 0 {
			t.Errorf("entry for a %s schema without an enum", s.Kind)
		}
	}
	var dirs []string
	for _, p := range n.Contexts {
		dirs = append(dirs, p.Dir)
	}
	if want := []string{"billing", "orders", "power"}; !reflect.DeepEqual(dirs, want) {
		t.Errorf("context dirs = %q, want %q", dirs, want)
	}
	type c struct {
		name string
		line int
		oth  int
	}
	var got []c
	for _, x := range colls {
		got = append(got, c{x.Name, x.Pos.Line, x.Other.Line})
	}
	want := []c{
		{"Money", 1, 0},            // runtime type
		{"OrderID", 5, 4},          // order_id vs orderId
		{"Validate", 10, 0},        // generated method
		{"CreatedX", 12, 11},       // created-x vs created.x (its URN constant is not reported again)
		{"MeasuredUnitMW", 21, 21}, // mW vs MW
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("collisions:\n got %v\nwant %v", got, want)
	}
	for _, x := range colls {
		if x.Name == "CreatedX" && !strings.Contains(x.Hint, "`go: {name: …}` on one of the messages") {
			t.Errorf("message collision hint %q does not name the go.name fix", x.Hint)
		}
	}
	if only := Collisions(reg, "events"); !reflect.DeepEqual(only, colls) {
		t.Errorf("Collisions:\n got %+v\nwant Plan's %+v", only, colls)
	}
}

func TestPlanMessageGoName(t *testing.T) {
	t.Parallel()
	reg := &model.Registry{Messages: []*model.Message{
		{URN: "urn:babel:orders:created-x", Data: &model.Schema{Kind: model.Object}, Pos: pos(11)},
		{URN: "urn:babel:orders:created.x", GoName: "CreatedDotX", Data: &model.Schema{Kind: model.Object}, Pos: pos(12)},
	}}
	n, colls := Plan(reg, "events")
	if len(colls) != 0 {
		t.Fatalf("collisions: %+v", colls)
	}
	if got := n.Messages[reg.Messages[1]].Name; got != "CreatedDotX" {
		t.Errorf("name = %q", got)
	}
}

func TestPlanContexts(t *testing.T) {
	t.Parallel()
	msg := func(urn string, line int) *model.Message {
		return &model.Message{URN: urn, Data: &model.Schema{Kind: model.Object}, Pos: pos(line)}
	}
	reg := &model.Registry{
		GoContexts: map[string]model.GoContext{
			"user-accounts": {Name: "accounts", Pos: pos(2)},
			"init":          {Name: "init", Pos: pos(3)},
			"gone":          {Name: "gone", Pos: pos(4)},
		},
		Messages: []*model.Message{
			msg("urn:babel:events:happened", 10),
			msg("urn:babel:init:done", 11),
			msg("urn:babel:user-accounts:created", 12),
			msg("urn:babel:userac-counts:created", 13),
			msg("urn:babel:useraccounts:created", 14),
		},
	}
	n, colls := Plan(reg, "events")
	got := map[string]string{}
	for _, p := range n.Contexts {
		got[p.Context] = p.Name
	}
	want := map[string]string{"events": "eventspkg", "init": "", "user-accounts": "accounts", "userac-counts": "useraccounts", "useraccounts": ""}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("packages = %v, want %v", got, want)
	}
	type c struct {
		name string
		line int
		oth  int
		msg  string
	}
	var gotc []c
	for _, x := range colls {
		gotc = append(gotc, c{x.Name, x.Pos.Line, x.Other.Line, x.Msg})
	}
	wantc := []c{
		{"init", 3, 0, ""},
		{"gone", 4, 0, `go.contexts names bounded context "gone", which has no message`},
		{"useraccounts", 14, 13, `Go package name "useraccounts" of bounded context "useraccounts" collides with bounded context "userac-counts" at r.yaml:13:3`},
	}
	if !reflect.DeepEqual(gotc, wantc) {
		t.Errorf("collisions:\n got %+v\nwant %+v", gotc, wantc)
	}
}

func TestValidPackage(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]bool{"events": true, "type": false, "_": false, "1x": false, "my-pkg": false, "main": false,
		"documentation": false, "init": false, "string": false, "error": false, "any": false, "bqrt": false, "context": false,
		"data": false, "r": false, "my_events": true, "Events": true,
		// The forms of the context files' package-level variables.
		"pattern0": false, "pattern12": false, "piiCreated": false, "tdCreatedV2": false,
		"pattern": true, "patterns": true, "pattern_0": true, "pii": true, "piicreated": true, "td": true, "tdx": true} {
		if got := ValidPackage(name); got != want {
			t.Errorf("ValidPackage(%q) = %v", name, got)
		}
	}
}

func TestPlanPatterns(t *testing.T) {
	t.Parallel()
	str := func(p string) *model.Schema { return &model.Schema{Kind: model.String, Pattern: p} }
	reg := &model.Registry{
		Types: []*model.NamedType{{Name: "Sku", Schema: str("^[A-Z]+$")}},
		Messages: []*model.Message{{URN: "urn:babel:orders:created", Data: &model.Schema{Kind: model.Object, Properties: []*model.Property{
			{Name: "a", Schema: str("^b$")},
			{Name: "c", Schema: &model.Schema{Kind: model.Array, Items: str("^[A-Z]+$")}},
			{Name: "d", Schema: str("")},
		}}}},
	}
	n, _ := Plan(reg, "events")
	if want := map[string]string{"^[A-Z]+$": "pattern0"}; !reflect.DeepEqual(n.Patterns[n.Root], want) {
		t.Errorf("root Patterns = %q, want %q", n.Patterns[n.Root], want)
	}
	if want := map[string]string{"^[A-Z]+$": "pattern0", "^b$": "pattern1"}; !reflect.DeepEqual(n.Patterns[n.Context("orders")], want) {
		t.Errorf("orders Patterns = %q, want %q", n.Patterns[n.Context("orders")], want)
	}
}

func TestMessageIdentsOf(t *testing.T) {
	t.Parallel()
	got := MessageIdentsOf("Created")
	want := MessageIdents{Type: "Created", URN: "CreatedURN"}
	if got != want {
		t.Errorf("MessageIdentsOf = %+v", got)
	}
}
