package golang

import (
	"fmt"
	"testing"

	"github.com/babelqueue/bqgen/internal/model"
)

// synthRegistry builds a registry of n messages over 20 bounded contexts, each with
// eight fields of mixed types (an enum, a nested array of objects, a map, a nullable).
func synthRegistry(n int) *model.Registry {
	addr := &model.NamedType{Name: "Address", Schema: obj(false,
		prop("line1", true, &model.Schema{Kind: model.String, MaxLength: i64(200)}),
		prop("country", true, &model.Schema{Kind: model.String, Pattern: "^[A-Z]{2}$"}))}
	reg := &model.Registry{Version: 1, Types: []*model.NamedType{addr}}
	for i := 0; i < n; i++ {
		reg.Messages = append(reg.Messages, &model.Message{
			URN: fmt.Sprintf("urn:babel:ctx%02d:thing%05d.happened", i%20, i), Queue: "q",
			Data: obj(false,
				prop("order_id", true, &model.Schema{Kind: model.Integer, Minimum: ib(1)}),
				prop("total", true, &model.Schema{Kind: model.Money}),
				prop("placed_at", true, &model.Schema{Kind: model.Timestamp}),
				prop("shipping", false, &model.Schema{Kind: model.Ref, Ref: "Address", Named: addr}),
				prop("channel", false, &model.Schema{Kind: model.String, Enum: []any{"web", "mobile", "pos"}}),
				prop("lines", true, &model.Schema{Kind: model.Array, MinItems: i64(1), Items: obj(false,
					prop("sku", true, &model.Schema{Kind: model.String}),
					prop("quantity", true, &model.Schema{Kind: model.Integer, Minimum: ib(1), Maximum: ib(1000)}))}),
				prop("tags", false, &model.Schema{Kind: model.Map, Values: &model.Schema{Kind: model.String}}),
				prop("note", false, &model.Schema{Kind: model.String, Nullable: true}),
			)})
	}
	return reg
}

func BenchmarkEmit(b *testing.B) {
	for _, n := range []int{100, 1000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			reg := synthRegistry(n)
			names := plan(b, reg)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := Emit(reg, names, Options{ImportPath: "example.com/bench/events"}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
