package golang

import (
	"testing"

	"github.com/babelqueue/bqgen/internal/gonames"
	"github.com/babelqueue/bqgen/internal/model"
)

func i64(v int64) *int64        { return &v }
func ib(v int64) *model.Bound   { return &model.Bound{IsInt: true, I: v} }
func fb(v float64) *model.Bound { return &model.Bound{F: v} }
func prop(name string, req bool, s *model.Schema) *model.Property {
	return &model.Property{Name: name, Required: req, Schema: s}
}
func obj(closed bool, props ...*model.Property) *model.Schema {
	return &model.Schema{Kind: model.Object, AdditionalProperties: !closed, Properties: props}
}

// testRegistry is a hand-built model exercising every type and presence rule.
func testRegistry() *model.Registry {
	sku := &model.NamedType{Name: "Sku", Schema: &model.Schema{Kind: model.String, Pattern: "^[A-Z0-9-]{3,20}$", Description: "A stock-keeping unit."}}
	address := &model.NamedType{Name: "Address", Schema: &model.Schema{
		Kind: model.Object, AdditionalProperties: true, Description: "A postal address.",
		Properties: []*model.Property{
			prop("line1", true, &model.Schema{Kind: model.String, MinLength: i64(1), MaxLength: i64(200), GDPR: "true"}),
			prop("country", true, &model.Schema{Kind: model.String, Pattern: "^[A-Z]{2}$"}),
			prop("postal_code", false, &model.Schema{Kind: model.String, MaxLength: i64(16), GDPR: "postal"}),
		},
	}}
	status := &model.NamedType{Name: "Status", Schema: &model.Schema{Kind: model.String, Enum: []any{"new", "paid", "shipped"}}}
	labels := &model.NamedType{Name: "Labels", Schema: &model.Schema{Kind: model.Array, MaxItems: i64(3), Items: &model.Schema{Kind: model.String, MinLength: i64(1)}}}
	ref := func(t *model.NamedType, nullable bool) *model.Schema {
		return &model.Schema{Kind: model.Ref, Ref: t.Name, Named: t, Nullable: nullable}
	}

	line := obj(true,
		prop("sku", true, ref(sku, false)),
		prop("quantity", true, &model.Schema{Kind: model.Integer, IntFormat: "int32", Minimum: ib(1), Maximum: ib(1000)}),
		prop("unit_price", false, &model.Schema{Kind: model.Money}),
	)
	created := &model.Message{
		URN: "urn:babel:orders:created", Kind: model.Event, Summary: "A customer placed an order.",
		Description: "Emitted once per order.\nAfter payment authorisation.", Owner: "orders", Queue: "orders",
		Data: obj(false,
			prop("order_id", true, &model.Schema{Kind: model.Integer, Minimum: ib(1), Description: "The order number."}),
			prop("total", true, &model.Schema{Kind: model.Money}),
			prop("placed_at", true, &model.Schema{Kind: model.Timestamp}),
			prop("customer_id", true, &model.Schema{Kind: model.UUID}),
			prop("shipping", false, ref(address, false)),
			prop("billing", true, ref(address, true)),
			prop("channel", false, &model.Schema{Kind: model.String, Enum: []any{"web", "mobile", "pos"}}),
			prop("status", true, ref(status, false)),
			prop("priority", false, &model.Schema{Kind: model.Integer, Enum: []any{int64(1), int64(2), int64(3)}}),
			prop("lines", true, &model.Schema{Kind: model.Array, MinItems: i64(1), MaxItems: i64(100), UniqueItems: true, Items: line}),
			prop("tags", false, &model.Schema{Kind: model.Map, Values: &model.Schema{Kind: model.String, MaxLength: i64(10)}}),
			prop("note", false, &model.Schema{Kind: model.String, Nullable: true, MaxLength: i64(5)}),
			prop("coupon", true, &model.Schema{Kind: model.String, Nullable: true}),
			prop("discount", false, &model.Schema{Kind: model.Number, Minimum: fb(0), ExclusiveMaximum: fb(1)}),
			prop("gift", false, &model.Schema{Kind: model.Boolean}),
			prop("external_ref", false, &model.Schema{Kind: model.Integer, Encoding: "string"}),
			prop("email", false, &model.Schema{Kind: model.String, Format: "email", GDPR: "contact"}),
			prop("legacy_code", false, &model.Schema{Kind: model.String, Deprecation: &model.Deprecation{Reason: "Use external_ref."}}),
			prop("meta", false, obj(false,
				prop("source", true, &model.Schema{Kind: model.String}),
				prop("ids", false, &model.Schema{Kind: model.Array, Items: &model.Schema{Kind: model.Integer, Minimum: ib(0)}}),
			)),
			prop("dimensions", false, obj(true,
				prop("weight_g", false, &model.Schema{Kind: model.Integer}),
				prop("skus", false, &model.Schema{Kind: model.Map, Values: ref(sku, false)}),
			)),
		),
	}
	cancel := &model.Message{
		URN: "urn:babel:orders:cancel", Kind: model.Command, Summary: "Cancel an order.", Owner: "orders", Queue: "orders",
		Deprecation: &model.Deprecation{Reason: "Use urn:babel:orders:cancel.v2."},
		Data: obj(false,
			prop("order_id", true, &model.Schema{Kind: model.Integer, Minimum: ib(1)}),
			prop("reason", false, &model.Schema{Kind: model.String}),
		),
	}
	welcome := &model.Message{
		URN: "urn:babel:user-accounts:email.welcome.send", Kind: model.Command, Summary: "Send the welcome e-mail.", Queue: "user-accounts",
		Data: obj(false,
			prop("user_id", true, &model.Schema{Kind: model.UUID}),
			prop("address", false, ref(address, false)),
			prop("ratio", false, &model.Schema{Kind: model.Number}),
			prop("labels", false, ref(labels, false)),
			prop("labels_or_null", true, ref(labels, true)),
		),
	}
	return &model.Registry{
		Version:  1,
		Types:    []*model.NamedType{address, labels, sku, status},
		Messages: []*model.Message{cancel, created, welcome},
	}
}

func plan(t testing.TB, reg *model.Registry) *gonames.Names {
	t.Helper()
	names, colls := gonames.Plan(reg, "events")
	if len(colls) > 0 {
		t.Fatalf("collisions: %+v", colls)
	}
	return names
}
