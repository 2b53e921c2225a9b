package sdksubset

import (
	"math"
	"reflect"
	"strconv"

	"github.com/babelqueue/bqgen/internal/emit/jsonschema"
	"github.com/babelqueue/bqgen/internal/model"
	"github.com/babelqueue/bqgen/internal/pii"
)

// ---- the SDK reader ---------------------------------------------------------------
//
// It follows the facts of the BabelQueue SDKs' schema readers (babelqueue-go
// schema/schema.go Parse, Validate and SensitivePaths; babelqueue-python
// src/babelqueue/schema.py; babelqueue-registry internal/schema/schema.go): a
// document decoded by encoding/json (numbers are float64); `type` read only when it is
// one string; `required`, `properties`, `additionalProperties` (a boolean only),
// `items` (one schema), `enum`, `const`, `minLength`, `minimum` and x-gdpr-sensitive
// (true or a non-empty string); no $ref, anyOf, allOf or oneOf. An object's keys, a
// string's minLength (bytes, in Go) and a number's minimum are checked only under
// that single type; enum and const always, by reflect.DeepEqual.

type rnode struct {
	typ      string
	required []string
	props    map[string]*rnode
	addl     *bool
	items    *rnode
	enum     []any
	hasEnum  bool
	cnst     any
	hasConst bool
	minLen   *int
	min      *float64
	mark     bool
	category string
}

func readNode(m map[string]any) *rnode {
	n := &rnode{}
	if t, ok := m["type"].(string); ok {
		n.typ = t
	}
	if req, ok := m["required"].([]any); ok {
		for _, r := range req {
			if s, ok := r.(string); ok {
				n.required = append(n.required, s)
			}
		}
	}
	if props, ok := m["properties"].(map[string]any); ok {
		n.props = map[string]*rnode{}
		for k, v := range props {
			if pm, ok := v.(map[string]any); ok {
				n.props[k] = readNode(pm)
			}
		}
	}
	if a, ok := m["additionalProperties"].(bool); ok {
		n.addl = &a
	}
	if it, ok := m["items"].(map[string]any); ok {
		n.items = readNode(it)
	}
	if e, ok := m["enum"].([]any); ok {
		n.enum, n.hasEnum = e, true
	}
	if c, ok := m["const"]; ok {
		n.cnst, n.hasConst = c, true
	}
	if f, ok := m["minLength"].(float64); ok {
		v := int(f)
		n.minLen = &v
	}
	if f, ok := m["minimum"].(float64); ok {
		n.min = &f
	}
	switch g := m["x-gdpr-sensitive"].(type) {
	case bool:
		n.mark = g
	case string:
		n.mark, n.category = g != "", g
	}
	return n
}

func (n *rnode) valid(v any) bool {
	if n.hasConst && !reflect.DeepEqual(v, n.cnst) {
		return false
	}
	if n.hasEnum && !inEnum(v, n.enum) {
		return false
	}
	switch n.typ {
	case "object":
		obj, ok := v.(map[string]any)
		if !ok {
			return false
		}
		for _, r := range n.required {
			if _, ok := obj[r]; !ok {
				return false
			}
		}
		for k, x := range obj {
			if p, ok := n.props[k]; ok {
				if !p.valid(x) {
					return false
				}
			} else if n.addl != nil && !*n.addl {
				return false
			}
		}
	case "array":
		arr, ok := v.([]any)
		if !ok {
			return false
		}
		for _, x := range arr {
			if n.items != nil && !n.items.valid(x) {
				return false
			}
		}
	case "string":
		s, ok := v.(string)
		if !ok || n.minLen != nil && len(s) < *n.minLen {
			return false
		}
	case "integer":
		f, ok := v.(float64)
		if !ok || math.Trunc(f) != f || n.min != nil && f < *n.min {
			return false
		}
	case "number":
		f, ok := v.(float64)
		if !ok || n.min != nil && f < *n.min {
			return false
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			return false
		}
	case "null":
		return v == nil
	}
	return true
}

func inEnum(v any, enum []any) bool {
	for _, e := range enum {
		if reflect.DeepEqual(v, e) {
			return true
		}
	}
	return false
}

// Accepts reports whether the SDK reader accepts v (decoded by encoding/json: numbers
// are float64) under the manifest-profile schema doc (decoded the same way).
func Accepts(doc map[string]any, v any) bool { return readNode(doc).valid(v) }

// Keywords are the keywords the SDK readers check; every other keyword they ignore.
var Keywords = []string{"type", "required", "properties", "additionalProperties", "items", "enum", "const", "minLength", "minimum"}

// Expressible reports whether v satisfies every constraint of the URN's model (use is
// its data schema) that the SDK readers can see in the manifest profile (oracle below):
// false means the readers must reject v.
func Expressible(reg *model.Registry, use *model.Schema, v any) bool {
	o := &oracle{reg: reg, counts: map[*model.NamedType]int{}}
	return o.ok(use, v)
}

// oracle reports whether v (decoded by encoding/json) satisfies every constraint of the
// model that the subset expresses where the SDK reader looks, with the reader's
// semantics (numbers as doubles, minLength in bytes): the type of each value that is
// not nullable, enums (null added for nullable values), the required and, for closed
// objects, the allowed keys of objects that are not nullable, the lower bound of
// integers, numbers and timestamps (minimum, exclusiveMinimum, the int64 or int32
// range) and the minLength of strings that are not nullable; money as its closed
// object. Nothing is checked below pii.UnrollDepth inlinings of a named type.
type oracle struct {
	reg    *model.Registry
	counts map[*model.NamedType]int
}

func (o *oracle) ok(use *model.Schema, v any) bool {
	cur, nullable := use, use.Nullable
	var entered []*model.NamedType
	defer func() {
		for _, nt := range entered {
			o.counts[nt]--
		}
	}()
	for cur.Kind == model.Ref {
		nt := pii.Named(o.reg, cur)
		if o.counts[nt] >= pii.UnrollDepth {
			return true // {}
		}
		o.counts[nt]++
		entered = append(entered, nt)
		cur = nt.Schema
		nullable = nullable || cur.Nullable
	}
	if cur.Enum != nil {
		var enum []any
		for _, e := range cur.Enum {
			switch e := e.(type) {
			case int64:
				if cur.Encoding == "string" {
					enum = append(enum, strconv.FormatInt(e, 10))
				} else {
					enum = append(enum, float64(e))
				}
			default:
				enum = append(enum, e)
			}
		}
		if nullable {
			enum = append(enum, nil)
		}
		if !inEnum(v, enum) {
			return false
		}
	}
	if nullable {
		return true
	}
	isInt := func(v any) (float64, bool) {
		f, ok := v.(float64)
		return f, ok && math.Trunc(f) == f
	}
	switch cur.Kind {
	case model.String:
		s, ok := v.(string)
		return ok && (cur.MinLength == nil || int64(len(s)) >= *cur.MinLength)
	case model.UUID:
		_, ok := v.(string)
		return ok
	case model.Boolean:
		_, ok := v.(bool)
		return ok
	case model.Integer:
		if cur.Encoding == "string" {
			_, ok := v.(string)
			return ok
		}
		f, ok := isInt(v)
		lo, _, _ := jsonschema.IntegerRange(cur)
		return ok && f >= float64(lo)
	case model.Timestamp:
		f, ok := isInt(v)
		return ok && f >= -8.64e15
	case model.Number:
		f, ok := v.(float64)
		if !ok {
			return false
		}
		if b := cur.Minimum; b != nil && f < b.Float() {
			return false
		}
		if b := cur.ExclusiveMinimum; b != nil && f < b.Float() {
			return false
		}
		return true
	case model.Money:
		obj, ok := v.(map[string]any)
		if !ok || len(obj) != 2 { // closed, both keys required
			return false
		}
		amount, isAmount := isInt(obj["amount"])
		_, isCurrency := obj["currency"].(string)
		return isAmount && isCurrency && amount >= -(1<<53-1)
	case model.Object:
		obj, ok := v.(map[string]any)
		if !ok {
			return false
		}
		for _, p := range cur.Properties {
			x, present := obj[p.Name]
			if !present {
				if p.Required {
					return false
				}
				continue
			}
			if !o.ok(p.Schema, x) {
				return false
			}
		}
		if !cur.AdditionalProperties {
			for k := range obj {
				if cur.Property(k) == nil {
					return false
				}
			}
		}
		return true
	case model.Array:
		arr, ok := v.([]any)
		if !ok {
			return false
		}
		for _, x := range arr {
			if cur.Items != nil && !o.ok(cur.Items, x) {
				return false
			}
		}
		return true
	case model.Map:
		_, ok := v.(map[string]any)
		return ok
	}
	return true
}
