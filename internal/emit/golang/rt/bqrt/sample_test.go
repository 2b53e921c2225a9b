package bqrt

import (
	"reflect"
	"regexp"
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

func (sampleOrder) MessageURN() string { return sampleURN }

func (m sampleOrder) Validate() error { return Validate(&m, &sampleOrderDesc) }
func (sampleOrder) schema() *Desc     { return &sampleOrderDesc }

func (m *sampleLine) validate(e *ValidationErrors, path string) {
	_ = path
	d := decoder{errs: *e}
	validateValue(&d, &sampleLineDesc, reflect.ValueOf(m).Elem())
	*e = d.errs
}

var sampleLineDesc = Desc{Kind: KObject, Flags: FClosed | FChecked, Fields: []Field{
	{Key: "sku", Required: true, Type: Desc{Kind: KString, Flags: FChecked, Pattern: &sampleLineSKUPattern}},
	{Key: "quantity", Required: true, Type: Desc{Kind: KInt32, Flags: FChecked | FMin, Lo: 1}},
}}

var sampleOrderDesc = Desc{Kind: KObject, Flags: FClosed | FChecked, Fields: []Field{
	{Key: "order_id", Required: true, Type: Desc{Kind: KInt64, Flags: FChecked | FMin, Lo: 1}},
	{Key: "note", Type: Desc{Kind: KString, Flags: FChecked | FMax, Hi: 5}},
	{Key: "total", Required: true, Type: Desc{Kind: KMoney, Flags: FChecked}},
	{Key: "discount", Required: true, Type: Desc{Kind: KInt64, Flags: FNullable}},
	{Key: "lines", Required: true, Type: Desc{Kind: KArray, Flags: FChecked | FMin | FUnique, Lo: 1, Elem: &sampleLineDesc}},
	{Key: "tags", Type: Desc{Kind: KMap, Elem: &Desc{Kind: KString}}},
	{Key: "placed_at", Required: true, Type: Desc{Kind: KTimestamp, Flags: FChecked}},
	{Key: "ref", Type: Desc{Kind: KInt64Str}},
	{Key: "ratio", Type: Desc{Kind: KFloat64, Flags: FChecked}},
	{Key: "email", Type: Desc{Kind: KString, Flags: FChecked, Format: "email"}},
	{Key: "status", Required: true, Type: Desc{Kind: KString, Flags: FChecked, Enum: []string{"new", "paid"}}},
	{Key: "customer", Type: Desc{Kind: KUUID, Flags: FChecked}},
}}

func appendSampleLine(b []byte, m sampleLine) []byte {
	b = append(b, '{')
	b = appendKey(b, "sku")
	b = appendString(b, m.SKU)
	b = append(b, ',')
	b = appendKey(b, "quantity")
	b = appendInt(b, int64(m.Quantity))
	return append(b, '}')
}

// otherEvent is a second message type, for router tests.
type otherEvent struct {
	Name string // name: required
}

const otherURN = "urn:babel:users:renamed"

func (otherEvent) MessageURN() string { return otherURN }
func (otherEvent) Validate() error    { return nil }
func (otherEvent) schema() *Desc      { return &otherEventDesc }

var otherEventDesc = Desc{Kind: KObject, Flags: FClosed, Fields: []Field{
	{Key: "name", Required: true, Type: Desc{Kind: KString}},
}}

// compile-time checks that the samples are described.
var (
	_ described = (*sampleOrder)(nil)
	_ described = (*otherEvent)(nil)
)
