package rt

import "regexp"

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

func (m sampleOrder) Validate() error {
	var e ValidationErrors
	m.validate(&e, "$")
	return e.errOrNil()
}

func (m *sampleOrder) validate(e *ValidationErrors, path string) {
	checkIntMin(e, pathKey(path, "order_id"), m.OrderID, 1, false)
	if m.Note != nil {
		checkLength(e, pathKey(path, "note"), *m.Note, -1, 5)
	}
	checkMoney(e, pathKey(path, "total"), m.Total)
	checkItems(e, pathKey(path, "lines"), len(m.Lines), 1, -1)
	for i := range m.Lines {
		m.Lines[i].validate(e, pathIndex(pathKey(path, "lines"), i))
	}
	checkUnique(e, pathKey(path, "lines"), m.Lines, appendSampleLine)
	checkTimestamp(e, pathKey(path, "placed_at"), m.PlacedAt)
	if m.Ratio != nil {
		checkFinite(e, pathKey(path, "ratio"), *m.Ratio)
	}
	if m.Email != nil {
		checkFormat(e, pathKey(path, "email"), *m.Email, "email")
	}
	checkEnum(e, pathKey(path, "status"), m.Status.valid())
	if m.Customer != nil {
		checkUUID(e, pathKey(path, "customer"), *m.Customer)
	}
}

func (m *sampleOrder) appendJSON(b []byte) []byte {
	b = append(b, '{')
	b = appendKey(b, "order_id")
	b = appendInt(b, m.OrderID)
	if m.Note != nil {
		b = append(b, ',')
		b = appendKey(b, "note")
		b = appendString(b, *m.Note)
	}
	b = append(b, ',')
	b = appendKey(b, "total")
	b = appendMoney(b, m.Total)
	b = append(b, ',')
	b = appendKey(b, "discount")
	if m.Discount.Valid {
		b = appendInt(b, m.Discount.Value)
	} else {
		b = append(b, "null"...)
	}
	b = append(b, ',')
	b = appendKey(b, "lines")
	b = appendArray(b, m.Lines, appendSampleLine)
	if m.Tags != nil {
		b = append(b, ',')
		b = appendKey(b, "tags")
		b = appendMap(b, m.Tags, appendString)
	}
	b = append(b, ',')
	b = appendKey(b, "placed_at")
	b = appendTimestamp(b, m.PlacedAt)
	if m.Ref != nil {
		b = append(b, ',')
		b = appendKey(b, "ref")
		b = appendIntString(b, *m.Ref)
	}
	if m.Ratio != nil {
		b = append(b, ',')
		b = appendKey(b, "ratio")
		b = appendFloat(b, *m.Ratio)
	}
	if m.Email != nil {
		b = append(b, ',')
		b = appendKey(b, "email")
		b = appendString(b, *m.Email)
	}
	b = append(b, ',')
	b = appendKey(b, "status")
	b = appendString(b, string(m.Status))
	if m.Customer != nil {
		b = append(b, ',')
		b = appendKey(b, "customer")
		b = appendUUID(b, *m.Customer)
	}
	return append(b, '}')
}

func (m *sampleOrder) decodeJSON(d *decoder, v *jsonValue, path string) {
	obj, ok := d.object(v, path)
	if !ok {
		return
	}
	var hasOrderID, hasTotal, hasDiscount, hasLines, hasPlacedAt, hasStatus bool
	for _, mem := range obj {
		p := pathKey(path, mem.key)
		switch mem.key {
		case "order_id":
			hasOrderID = true
			if n, ok := d.int64(mem.val, p); ok {
				m.OrderID = n
			}
		case "note":
			if s, ok := d.str(mem.val, p); ok {
				m.Note = &s
			}
		case "total":
			hasTotal = true
			if x, ok := d.money(mem.val, p); ok {
				m.Total = x
			}
		case "discount":
			hasDiscount = true
			if isNull(mem.val) {
				m.Discount = Nullable[int64]{}
			} else if n, ok := d.int64(mem.val, p); ok {
				m.Discount = Nullable[int64]{Value: n, Valid: true}
			}
		case "lines":
			hasLines = true
			if arr, ok := d.array(mem.val, p); ok {
				m.Lines = make([]sampleLine, len(arr))
				for i, it := range arr {
					m.Lines[i].decodeJSON(d, it, pathIndex(p, i))
				}
			}
		case "tags":
			if o, ok := d.object(mem.val, p); ok {
				m.Tags = make(map[string]string, len(o))
				for _, kv := range o {
					if s, ok := d.str(kv.val, pathKey(p, kv.key)); ok {
						m.Tags[kv.key] = s
					}
				}
			}
		case "placed_at":
			hasPlacedAt = true
			if t, ok := d.timestamp(mem.val, p); ok {
				m.PlacedAt = t
			}
		case "ref":
			if n, ok := d.int64String(mem.val, p); ok {
				m.Ref = &n
			}
		case "ratio":
			if f, ok := d.float64(mem.val, p); ok {
				m.Ratio = &f
			}
		case "email":
			if s, ok := d.str(mem.val, p); ok {
				m.Email = &s
			}
		case "status":
			hasStatus = true
			if s, ok := d.str(mem.val, p); ok {
				m.Status = sampleStatus(s)
			}
		case "customer":
			if u, ok := d.uuid(mem.val, p); ok {
				m.Customer = &u
			}
		default:
			d.unknown(path, mem.key)
		}
	}
	if !hasOrderID {
		d.missing(path, "order_id")
	}
	if !hasTotal {
		d.missing(path, "total")
	}
	if !hasDiscount {
		d.missing(path, "discount")
	}
	if !hasLines {
		d.missing(path, "lines")
	}
	if !hasPlacedAt {
		d.missing(path, "placed_at")
	}
	if !hasStatus {
		d.missing(path, "status")
	}
}

func (m *sampleLine) validate(e *ValidationErrors, path string) {
	checkPattern(e, pathKey(path, "sku"), m.SKU, sampleLineSKUPattern)
	checkIntMin(e, pathKey(path, "quantity"), int64(m.Quantity), 1, false)
}

func appendSampleLine(b []byte, m sampleLine) []byte {
	b = append(b, '{')
	b = appendKey(b, "sku")
	b = appendString(b, m.SKU)
	b = append(b, ',')
	b = appendKey(b, "quantity")
	b = appendInt(b, int64(m.Quantity))
	return append(b, '}')
}

func (m *sampleLine) decodeJSON(d *decoder, v *jsonValue, path string) {
	obj, ok := d.object(v, path)
	if !ok {
		return
	}
	var hasSKU, hasQuantity bool
	for _, mem := range obj {
		p := pathKey(path, mem.key)
		switch mem.key {
		case "sku":
			hasSKU = true
			if s, ok := d.str(mem.val, p); ok {
				m.SKU = s
			}
		case "quantity":
			hasQuantity = true
			if n, ok := d.int32(mem.val, p); ok {
				m.Quantity = n
			}
		default:
			d.unknown(path, mem.key)
		}
	}
	if !hasSKU {
		d.missing(path, "sku")
	}
	if !hasQuantity {
		d.missing(path, "quantity")
	}
}

// otherEvent is a second message type, for router tests.
type otherEvent struct {
	Name string // name: required
}

const otherURN = "urn:babel:users:renamed"

func (otherEvent) MessageURN() string { return otherURN }
func (otherEvent) Validate() error    { return nil }
func (m *otherEvent) appendJSON(b []byte) []byte {
	b = append(b, '{')
	b = appendKey(b, "name")
	b = appendString(b, m.Name)
	return append(b, '}')
}
func (m *otherEvent) decodeJSON(d *decoder, v *jsonValue, path string) {
	obj, ok := d.object(v, path)
	if !ok {
		return
	}
	has := false
	for _, mem := range obj {
		switch mem.key {
		case "name":
			has = true
			if s, ok := d.str(mem.val, pathKey(path, mem.key)); ok {
				m.Name = s
			}
		default:
			d.unknown(path, mem.key)
		}
	}
	if !has {
		d.missing(path, "name")
	}
}

// compile-time checks that the samples implement payload.
var (
	_ payload = (*sampleOrder)(nil)
	_ payload = (*otherEvent)(nil)
)
