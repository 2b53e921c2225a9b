package gonames

import (
	"reflect"
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
		{"urn:babel:orders:created", "OrdersCreated"},
		{"urn:babel:orders:created.v2", "OrdersCreatedV2"},
		{"urn:babel:media:thumbnail.generate", "MediaThumbnailGenerate"},
		{"urn:babel:user-accounts:email.welcome.send", "UserAccountsEmailWelcomeSend"},
	}
	for _, c := range cases {
		if got := MessageName(c.in); got != c.want {
			t.Errorf("MessageName(%q) = %q, want %q", c.in, got, c.want)
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
	reg := &model.Registry{
		Types: []*model.NamedType{{Name: "Money", Schema: &model.Schema{Kind: model.Object}, Pos: pos(1)}},
		Messages: []*model.Message{
			{URN: "urn:babel:orders:created", Data: data, Pos: pos(3)},
			{URN: "urn:babel:orders:created-x", Data: &model.Schema{Kind: model.Object}, Pos: pos(11)},
			{URN: "urn:babel:orders:created.x", Data: &model.Schema{Kind: model.Object}, Pos: pos(12)},
			{URN: "urn:babel:power:measured", Data: &model.Schema{Kind: model.Object, Properties: []*model.Property{{Name: "unit", Schema: power, Pos: pos(21)}}}, Pos: pos(20)},
		},
	}
	n, colls := Plan(reg, "events")
	if got := n.Messages[reg.Messages[0]]; got != "OrdersCreated" {
		t.Errorf("message name = %q", got)
	}
	if got := n.Inline[channel]; got != "OrdersCreatedChannel" {
		t.Errorf("enum type = %q", got)
	}
	if got := n.EnumConsts[channel]; !reflect.DeepEqual(got, []string{"OrdersCreatedChannelWeb", "OrdersCreatedChannelMobile"}) {
		t.Errorf("enum consts = %q", got)
	}
	if got := n.Inline[item]; got != "OrdersCreatedLinesItem" {
		t.Errorf("item type = %q", got)
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
		{"Money", 1, 0},                   // runtime type
		{"OrderID", 5, 4},                 // order_id vs orderId
		{"Validate", 10, 0},               // generated method
		{"OrdersCreatedX", 12, 11},        // created-x vs created.x
		{"OrdersCreatedXURN", 12, 11},     // and its derived names
		{"NewOrdersCreatedX", 12, 11},     //
		{"PublishOrdersCreatedX", 12, 11}, //
		{"DecodeOrdersCreatedX", 12, 11},  //
		{"OrdersCreatedXHandler", 12, 11},
		{"OrdersCreatedXHandlerFunc", 12, 11},
		{"PowerMeasuredUnitMW", 21, 21}, // mW vs MW
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("collisions:\n got %v\nwant %v", got, want)
	}
	if only := Collisions(reg, "events"); !reflect.DeepEqual(only, colls) {
		t.Errorf("Collisions:\n got %+v\nwant Plan's %+v", only, colls)
	}
}

func TestPlanEnumOverrideResolvesCollision(t *testing.T) {
	t.Parallel()
	power := &model.Schema{Kind: model.String, Enum: []any{"mW", "MW"}, GoEnumNames: map[string]string{"mW": "Milliwatt", "MW": "Megawatt"}}
	reg := &model.Registry{Messages: []*model.Message{{URN: "urn:babel:power:measured", Data: &model.Schema{Kind: model.Object, Properties: []*model.Property{{Name: "unit", Schema: power}}}}}}
	n, colls := Plan(reg, "events")
	if len(colls) != 0 {
		t.Fatalf("unexpected collisions: %+v", colls)
	}
	if got := n.EnumConsts[power]; !reflect.DeepEqual(got, []string{"Milliwatt", "Megawatt"}) {
		t.Errorf("consts = %q", got)
	}
}

func TestValidPackage(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]bool{"events": true, "type": false, "_": false, "1x": false, "my-pkg": false, "main": false, "documentation": false} {
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
	want := map[string]string{"^[A-Z]+$": "pattern0", "^b$": "pattern1"}
	if !reflect.DeepEqual(n.Patterns, want) {
		t.Errorf("Patterns = %q, want %q", n.Patterns, want)
	}
}

func TestMessageIdentsOf(t *testing.T) {
	t.Parallel()
	got := MessageIdentsOf("OrdersCreated")
	want := MessageIdents{Type: "OrdersCreated", URN: "OrdersCreatedURN", New: "NewOrdersCreated",
		Publish: "PublishOrdersCreated", Decode: "DecodeOrdersCreated", Handler: "OrdersCreatedHandler",
		HandlerFunc: "OrdersCreatedHandlerFunc", Handle: "HandleOrdersCreated"}
	if got != want {
		t.Errorf("MessageIdentsOf = %+v", got)
	}
}
