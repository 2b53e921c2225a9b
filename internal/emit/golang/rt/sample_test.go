package rt

import (
	"regexp"

	"github.com/babelqueue/bqgen/internal/emit/golang/rt/bqrt"
)

// This file hand-writes a message type the way the emitter generates it, to
// test the payload-dependent parts of the runtime.

const sampleURN = "urn:babel:orders:created"

// sampleStatus is an enum with underlying string.
type sampleStatus string

const (
	sampleStatusNew  sampleStatus = "new"
	sampleStatusPaid sampleStatus = "paid"
)

func (s sampleStatus) valid() bool {
	switch s {
	case sampleStatusNew, sampleStatusPaid:
		return true
	}
	return false
}

// sampleOrder: urn:babel:orders:created.
type sampleOrder struct {
	OrderID  int64             // order_id: integer, required, minimum 1
	Note     *string           // note: string, optional, maxLength 5
	Total    Money             // total: money, required
	Discount Nullable[int64]   // discount: integer, required, nullable
	Lines    []sampleLine      // lines: array, required, minItems 1, uniqueItems
	Tags     map[string]string // tags: map of string, optional
	PlacedAt Timestamp         // placed_at: timestamp, required
	Ref      *int64            // ref: integer encoding string, optional
	Ratio    *float64          // ratio: number, optional
	Email    *string           // email: string format email, optional
	Status   sampleStatus      // status: enum, required
	Customer *UUID             // customer: uuid, optional
}

// sampleLine: a nested object.
type sampleLine struct {
	SKU      string // sku: required, pattern ^[A-Z0-9-]+$
	Quantity int32  // quantity: int32, required, minimum 1
}

var sampleLineSKUPattern = regexp.MustCompile(`^[A-Z0-9-]+$`)

func (m sampleOrder) Validate() error { return bqrt.Validate(&m, &sampleOrderDesc) }

// BabelQueueMessage is the hook every generated message data type has.
func (*sampleOrder) BabelQueueMessage() (string, string, *bqrt.Desc, []string) {
	return sampleURN, "orders", &sampleOrderDesc, nil
}

var sampleLineDesc = bqrt.Desc{Kind: bqrt.KObject, Flags: bqrt.FClosed | bqrt.FChecked, Fields: []bqrt.Field{
	{Key: "sku", Required: true, Type: bqrt.Desc{Kind: bqrt.KString, Flags: bqrt.FChecked, Pattern: &sampleLineSKUPattern}},
	{Key: "quantity", Required: true, Type: bqrt.Desc{Kind: bqrt.KInt32, Flags: bqrt.FChecked | bqrt.FMin, Lo: 1}},
}}

var sampleOrderDesc = bqrt.Desc{Kind: bqrt.KObject, Flags: bqrt.FClosed | bqrt.FChecked, Fields: []bqrt.Field{
	{Key: "order_id", Required: true, Type: bqrt.Desc{Kind: bqrt.KInt64, Flags: bqrt.FChecked | bqrt.FMin, Lo: 1}},
	{Key: "note", Type: bqrt.Desc{Kind: bqrt.KString, Flags: bqrt.FChecked | bqrt.FMax, Hi: 5}},
	{Key: "total", Required: true, Type: bqrt.Desc{Kind: bqrt.KMoney, Flags: bqrt.FChecked}},
	{Key: "discount", Required: true, Type: bqrt.Desc{Kind: bqrt.KInt64, Flags: bqrt.FNullable}},
	{Key: "lines", Required: true, Type: bqrt.Desc{Kind: bqrt.KArray, Flags: bqrt.FChecked | bqrt.FMin | bqrt.FUnique, Lo: 1, Elem: &sampleLineDesc}},
	{Key: "tags", Type: bqrt.Desc{Kind: bqrt.KMap, Elem: &bqrt.Desc{Kind: bqrt.KString}}},
	{Key: "placed_at", Required: true, Type: bqrt.Desc{Kind: bqrt.KTimestamp, Flags: bqrt.FChecked}},
	{Key: "ref", Type: bqrt.Desc{Kind: bqrt.KInt64Str}},
	{Key: "ratio", Type: bqrt.Desc{Kind: bqrt.KFloat64, Flags: bqrt.FChecked}},
	{Key: "email", Type: bqrt.Desc{Kind: bqrt.KString, Flags: bqrt.FChecked, Format: "email"}},
	{Key: "status", Required: true, Type: bqrt.Desc{Kind: bqrt.KString, Flags: bqrt.FChecked, Enum: []string{"new", "paid"}}},
	{Key: "customer", Type: bqrt.Desc{Kind: bqrt.KUUID, Flags: bqrt.FChecked}},
}}

// otherEvent is a second message type, for router tests.
type otherEvent struct {
	Name string // name: required
}

const otherURN = "urn:babel:users:renamed"

func (*otherEvent) BabelQueueMessage() (string, string, *bqrt.Desc, []string) {
	return otherURN, "users", &otherEventDesc, nil
}

var otherEventDesc = bqrt.Desc{Kind: bqrt.KObject, Flags: bqrt.FClosed, Fields: []bqrt.Field{
	{Key: "name", Required: true, Type: bqrt.Desc{Kind: bqrt.KString}},
}}

// compile-time checks that the samples are described.
var (
	_ messageData = (*sampleOrder)(nil)
	_ messageData = (*otherEvent)(nil)
)
