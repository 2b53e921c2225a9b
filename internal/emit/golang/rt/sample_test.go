package rt

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

func (m sampleOrder) Validate() error { return validateAny(&m, &sampleOrderDesc) }
func (sampleOrder) schema() *typeDesc { return &sampleOrderDesc }

func (m *sampleLine) validate(e *ValidationErrors, path string) {
	_ = path
	d := decoder{errs: *e}
	validateValue(&d, &sampleLineDesc, reflect.ValueOf(m).Elem())
	*e = d.errs
}

var sampleLineDesc = typeDesc{kind: kObject, flags: fClosed | fChecked, fields: []fieldDesc{
	{key: "sku", required: true, typ: typeDesc{kind: kString, flags: fChecked, pattern: &sampleLineSKUPattern}},
	{key: "quantity", required: true, typ: typeDesc{kind: kInt32, flags: fChecked | fMin, lo: 1}},
}}

var sampleOrderDesc = typeDesc{kind: kObject, flags: fClosed | fChecked, fields: []fieldDesc{
	{key: "order_id", required: true, typ: typeDesc{kind: kInt64, flags: fChecked | fMin, lo: 1}},
	{key: "note", typ: typeDesc{kind: kString, flags: fChecked | fMax, hi: 5}},
	{key: "total", required: true, typ: typeDesc{kind: kMoney, flags: fChecked}},
	{key: "discount", required: true, typ: typeDesc{kind: kInt64, flags: fNullable}},
	{key: "lines", required: true, typ: typeDesc{kind: kArray, flags: fChecked | fMin | fUnique, lo: 1, elem: &sampleLineDesc}},
	{key: "tags", typ: typeDesc{kind: kMap, elem: &typeDesc{kind: kString}}},
	{key: "placed_at", required: true, typ: typeDesc{kind: kTimestamp, flags: fChecked}},
	{key: "ref", typ: typeDesc{kind: kInt64Str}},
	{key: "ratio", typ: typeDesc{kind: kFloat64, flags: fChecked}},
	{key: "email", typ: typeDesc{kind: kString, flags: fChecked, format: "email"}},
	{key: "status", required: true, typ: typeDesc{kind: kString, flags: fChecked, enum: []string{"new", "paid"}}},
	{key: "customer", typ: typeDesc{kind: kUUID, flags: fChecked}},
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
func (otherEvent) schema() *typeDesc  { return &otherEventDesc }

var otherEventDesc = typeDesc{kind: kObject, flags: fClosed, fields: []fieldDesc{
	{key: "name", required: true, typ: typeDesc{kind: kString}},
}}

// compile-time checks that the samples are described.
var (
	_ described = (*sampleOrder)(nil)
	_ described = (*otherEvent)(nil)
)
