package golang

import (
	"math"
	"strconv"

	"github.com/babelqueue/bqgen/internal/gonames"
	"github.com/babelqueue/bqgen/internal/model"
)

// This file generates the per-value parts: Go types and the typeDesc descriptors that
// the runtime's table-driven codec (rt/schema.go) interprets to decode, validate and
// encode (docs/generated-code.md, "Design").
//
// raw means "the schema itself, not the Go type declared for it": it is set for the
// descriptor of a declared type (an enum, an object, a named type), whose nullability
// belongs to each use site.

// nullable reports whether a value of s may be JSON null (on the use, or on the named
// type it refers to).
func nullable(s *model.Schema) bool {
	if s.Nullable {
		return true
	}
	if s.Kind == model.Ref {
		if r := s.Resolve(); r != nil {
			return r.Nullable
		}
	}
	return false
}

// decl is the entry of s in g.names.Inline, looked up only for the schemas that
// can have one (gonames.Names.Inline: objects and schemas with an enum); the
// others, most of a registry's schemas, cost no lookup.
func (g *gen) decl(s *model.Schema) gonames.Decl {
	if s.Kind != model.Object && len(s.Enum) == 0 {
		return gonames.Decl{}
	}
	return g.names.Inline[s]
}

// declName is the Go type declared for s: the named type of a Ref, or the inline
// struct/enum type; "" for the others.
func (g *gen) declName(s *model.Schema, raw bool) string {
	if s.Kind == model.Ref {
		return g.names.Types[s.Named].Name
	}
	if raw {
		return ""
	}
	return g.decl(s).Name
}

// declIdent is declName with its package.
func (g *gen) declIdent(s *model.Schema) gonames.Ident {
	if s.Kind == model.Ref {
		return g.names.Types[s.Named]
	}
	return g.decl(s).Ident
}

// baseType is the Go type of a non-null value of s.
func (g *gen) baseType(s *model.Schema, raw bool) string {
	return string(g.appendBaseType(nil, s, raw))
}

// appendBaseType appends baseType(s, raw) to b.
func (g *gen) appendBaseType(b []byte, s *model.Schema, raw bool) []byte {
	var id gonames.Ident
	switch {
	case s.Kind == model.Ref:
		id = g.names.Types[s.Named]
	case !raw:
		id = g.decl(s).Ident
	}
	if id.Name != "" {
		return g.appendRef(b, id)
	}
	switch s.Kind {
	case model.String:
		return append(b, "string"...)
	case model.Integer:
		if s.IntFormat == "int32" {
			return append(b, "int32"...)
		}
		return append(b, "int64"...)
	case model.Number:
		return append(b, "float64"...)
	case model.Boolean:
		return append(b, "bool"...)
	case model.Array:
		return g.appendValueType(append(b, "[]"...), s.Items)
	case model.Map:
		return g.appendValueType(append(b, "map[string]"...), s.Values)
	case model.Money:
		return g.out.appendQual(b, g.root, "Money")
	case model.Timestamp:
		return g.out.appendQual(b, g.root, "Timestamp")
	case model.UUID:
		return g.out.appendQual(b, g.root, "UUID")
	}
	g.failf("schema kind %q has no Go type", s.Kind)
	return append(b, "any"...)
}

// valueType is the Go type of a value of s, Nullable[…] when it may be null.
func (g *gen) valueType(s *model.Schema) string {
	return string(g.appendValueType(nil, s))
}

// appendValueType appends valueType(s) to b.
func (g *gen) appendValueType(b []byte, s *model.Schema) []byte {
	if nullable(s) {
		b = append(g.out.appendQual(b, g.root, "Nullable"), '[')
		return append(g.appendBaseType(b, s, false), ']')
	}
	return g.appendBaseType(b, s, false)
}

// isCollection reports whether values of s are Go slices or maps (nil = absent when
// optional).
func isCollection(s *model.Schema) bool {
	if nullable(s) {
		return false
	}
	switch s.Resolve().Kind {
	case model.Array, model.Map:
		return true
	}
	return false
}

// appendFieldType appends the Go type of a struct field to b (docs/generated-code.md,
// presence table).
func (g *gen) appendFieldType(b []byte, p *model.Property) []byte {
	if g.indirect[p] {
		return g.appendBaseType(append(b, '*'), p.Schema, false) // nil is null (FPtr)
	}
	if !p.Required && !isCollection(p.Schema) {
		b = append(b, '*')
	}
	return g.appendValueType(b, p.Schema)
}

// ---- descriptors ----

// Descriptors are data, not code: they are written as text by descText below, in the
// exact form go/format gives them, and appended to each file after its other
// declarations (text.go). Formatting them through go/format took more than half of
// Emit's time (go/printer measures every element of a multi-line composite literal
// by printing it twice); TestOutputIsGofmtStable holds every emitted file to
// format.Source(out) == out.

// descKeys are the typeDesc fields a descriptor literal sets, in the order written.
var descKeys = [...]string{"Kind", "Flags", "Lo", "Hi", "FLo", "FHi", "Format", "Pattern", "Enum", "EnumInt", "EnumFloat", "EnumBool", "Ref", "Elem", "Fields"}

// Indexes into descKeys.
const (
	dKind = iota
	dFlags
	dLo
	dHi
	dFlo
	dFhi
	dFormat
	dPattern
	dEnum
	dEnumInt
	dEnumFloat
	dEnumBool
	dRef
	dElem
	dFields
)

// descDecl appends the declaration `var name = bqrt.Desc{…}` of s (raw) to b,
// preceded by a blank line. The first descriptor of a file is preceded by one
// comment that says what they all are.
func (g *gen) descDecl(b []byte, name string, s *model.Schema) []byte {
	if len(b) == 0 {
		b = append(b, "\n// The descriptors of this file's types (tdX describes X), read by the runtime's\n// table-driven codec."...)
	}
	b = append(b, "\nvar "...)
	b = append(b, name...)
	b = append(b, " = "...)
	b = g.descText(b, s, true, 0)
	return append(b, '\n')
}

// descText appends the typeDesc composite literal describing the Go value of s (see
// the runtime's schema.go) to b, as go/format prints it: on one line, except the
// fields of an object, one per line at indent+1 tabs. raw describes the declared
// type itself (an enum, an object or a named type) rather than a use of it: a use
// of a declared type refers to its descriptor, and its nullability belongs to the
// use.
func (g *gen) descText(b []byte, s *model.Schema, raw bool, indent int) []byte {
	return g.descTextNull(b, s, raw, indent, "bqrt.FNullable")
}

// descTextNull is descText with the flag that marks a nullable use: FNullable for
// a Nullable[T], FPtr for the *T of an indirect field (g.indirect).
func (g *gen) descTextNull(b []byte, s *model.Schema, raw bool, indent int, nullFlag string) []byte {
	// The values of the keys set, by index into descKeys: text (kind, format), or
	// what the value is written from at the end (numbers, enums, the element), so
	// that nothing is built as a string of its own.
	var (
		set               [len(descKeys)]bool
		kind, format, pat string
		lo, hi            int64
		flo, fhi          float64
		enumTyp           string
		ref               int
		elemVar           string        // KDesc: the descriptor variable of the declared type
		elem              *model.Schema // KArray, KMap: the items or values
		fields            []*model.Property
		flagBuf           [10]string
	)
	flags := flagBuf[:0]
	if !raw && nullable(s) {
		flags = append(flags, nullFlag)
	}
	if g.hasChecks(s, false) {
		flags = append(flags, "bqrt.FChecked")
	}
	if s.GDPR != "" {
		flags = append(flags, "bqrt.FGDPR")
	}
	setLo := func(v int64) { lo, set[dLo] = v, true }
	setHi := func(v int64) { hi, set[dHi] = v, true }
	switch {
	case s.Kind == model.Ref:
		kind = "bqrt.KNamed"
		ref, set[dRef] = g.namedIndex[s.Named], true
	case !raw && g.decl(s).Name != "" && g.ownDesc(s):
		kind = "bqrt.KDesc"
		elemVar, set[dElem] = descVar(g.decl(s).Name), true
	default:
		switch s.Kind {
		case model.String:
			kind = "bqrt.KString"
			if s.MinLength != nil {
				flags = append(flags, "bqrt.FMin")
				setLo(*s.MinLength)
			}
			if s.MaxLength != nil {
				flags = append(flags, "bqrt.FMax")
				setHi(*s.MaxLength)
			}
			if s.Pattern != "" {
				pat, set[dPattern] = g.names.Patterns[g.pkg][s.Pattern], true
			}
			if checkedFormat(s.Format) {
				format, set[dFormat] = s.Format, true
			}
			if len(s.Enum) > 0 {
				enumTyp, set[dEnum] = "[]string", true
			}
		case model.Integer:
			kind = "bqrt.KInt64"
			switch {
			case s.Encoding == "string" && s.IntFormat == "int32":
				kind = "bqrt.KInt32Str"
			case s.Encoding == "string":
				kind = "bqrt.KInt64Str"
			case s.IntFormat == "int32":
				kind = "bqrt.KInt32"
			}
			var lob, hib *intBound
			var buf [4]intBound
			bounds := intBounds(s, &buf)
			for i := range bounds {
				b := &bounds[i]
				if b.isMin {
					if lob == nil || b.v > lob.v || (b.v == lob.v && b.excl) {
						lob = b
					}
				} else if hib == nil || b.v < hib.v || (b.v == hib.v && b.excl) {
					hib = b
				}
			}
			if lob != nil {
				flags = append(flags, "bqrt.FMin")
				if lob.excl {
					flags = append(flags, "bqrt.FExclMin")
				}
				setLo(lob.v)
			}
			if hib != nil {
				flags = append(flags, "bqrt.FMax")
				if hib.excl {
					flags = append(flags, "bqrt.FExclMax")
				}
				setHi(hib.v)
			}
			if len(s.Enum) > 0 {
				enumTyp, set[dEnumInt] = "[]int64", true
			}
		case model.Number:
			kind = "bqrt.KFloat64"
			l, loExcl, h, hiExcl, hasLo, hasHi := floatBounds(s)
			if hasLo {
				flags = append(flags, "bqrt.FFMin")
				if loExcl {
					flags = append(flags, "bqrt.FFExclMin")
				}
				flo, set[dFlo] = l, true
			}
			if hasHi {
				flags = append(flags, "bqrt.FFMax")
				if hiExcl {
					flags = append(flags, "bqrt.FFExclMax")
				}
				fhi, set[dFhi] = h, true
			}
			if len(s.Enum) > 0 {
				enumTyp, set[dEnumFloat] = "[]float64", true
			}
		case model.Boolean:
			kind = "bqrt.KBool"
			if len(s.Enum) > 0 {
				enumTyp, set[dEnumBool] = "[]bool", true
			}
		case model.Money:
			kind = "bqrt.KMoney"
		case model.Timestamp:
			kind = "bqrt.KTimestamp"
		case model.UUID:
			kind = "bqrt.KUUID"
		case model.Object:
			kind = "bqrt.KObject"
			if !s.AdditionalProperties {
				flags = append(flags, "bqrt.FClosed")
			}
			fields = s.Properties
			set[dFields] = len(fields) > 0
		case model.Array:
			kind = "bqrt.KArray"
			if s.MinItems != nil {
				flags = append(flags, "bqrt.FMin")
				setLo(*s.MinItems)
			}
			if s.MaxItems != nil {
				flags = append(flags, "bqrt.FMax")
				setHi(*s.MaxItems)
			}
			if s.UniqueItems {
				flags = append(flags, "bqrt.FUnique")
			}
			elem, set[dElem] = s.Items, true
		case model.Map:
			kind = "bqrt.KMap"
			elem, set[dElem] = s.Values, true
		default:
			g.failf("schema kind %q has no descriptor", s.Kind)
		}
	}
	set[dKind] = kind != ""
	set[dFlags] = len(flags) > 0
	b = append(b, "bqrt.Desc{"...)
	first := true
	for i := range descKeys {
		if !set[i] {
			continue
		}
		if !first {
			b = append(b, ", "...)
		}
		first = false
		b = append(b, descKeys[i]...)
		b = append(b, ": "...)
		switch i {
		case dKind:
			b = append(b, kind...)
		case dFlags:
			for j, f := range flags {
				if j > 0 {
					b = append(b, " | "...)
				}
				b = append(b, f...)
			}
		case dLo:
			b = strconv.AppendInt(b, lo, 10)
		case dHi:
			b = strconv.AppendInt(b, hi, 10)
		case dFlo:
			b = strconv.AppendFloat(b, flo, 'g', -1, 64)
		case dFhi:
			b = strconv.AppendFloat(b, fhi, 'g', -1, 64)
		case dFormat:
			b = strconv.AppendQuote(b, format)
		case dPattern:
			b = append(append(b, '&'), pat...)
		case dEnum, dEnumInt, dEnumFloat, dEnumBool:
			b = appendEnumList(b, enumTyp, s.Enum)
		case dRef:
			b = strconv.AppendInt(b, int64(ref), 10)
		case dElem:
			if elem == nil {
				b = append(append(b, '&'), elemVar...)
			} else {
				b = g.elemDesc(b, elem, indent)
			}
		case dFields:
			b = append(b, "[]bqrt.Field{"...)
			for _, p := range fields {
				b = append(b, '\n')
				b = appendTabs(b, indent+1)
				b = append(b, "{Key: "...)
				b = strconv.AppendQuote(b, p.Name)
				if p.Required {
					b = append(b, ", Required: true"...)
				}
				b = append(b, ", Type: "...)
				nullFlag := "bqrt.FNullable"
				if g.indirect[p] {
					nullFlag = "bqrt.FPtr"
				}
				b = g.descTextNull(b, p.Schema, false, indent+1, nullFlag)
				b = append(b, "},"...)
			}
			b = append(b, '\n')
			b = appendTabs(b, indent)
			b = append(b, '}')
		}
	}
	return append(b, '}')
}

// appendTabs appends n tabs to b.
func appendTabs(b []byte, n int) []byte {
	for range n {
		b = append(b, '\t')
	}
	return b
}

// appendEnumList appends the composite literal `typ{v1, v2}` of enum values to b.
func appendEnumList(b []byte, typ string, vals []any) []byte {
	b = append(append(b, typ...), '{')
	for i, v := range vals {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = appendEnumLit(b, v)
	}
	return append(b, '}')
}

// ownDesc reports whether the inline object or enum s (declared in a message or a
// named type) has a descriptor variable of its own: only when its type has
// methods that need it, the PII-safe LogValue and String (logMethods). Otherwise
// its descriptor is written where it is used, which costs the compiler one
// declaration less.
func (g *gen) ownDesc(s *model.Schema) bool { return g.holdsPII(s) }

// elemDesc appends the *typeDesc of array items or map values to b.
func (g *gen) elemDesc(b []byte, s *model.Schema, indent int) []byte {
	if name := g.decl(s).Name; name != "" && s.Kind != model.Ref && !nullable(s) && g.ownDesc(s) {
		return append(append(b, '&'), descVar(name)...)
	}
	return g.descText(append(b, '&'), s, false, indent)
}

// floatBounds folds the number bounds of s into one lower and one upper bound (the
// tighter of minimum and exclusiveMinimum, …).
func floatBounds(s *model.Schema) (lo float64, loExcl bool, hi float64, hiExcl bool, hasLo, hasHi bool) {
	if s.Minimum != nil {
		lo, hasLo = s.Minimum.Float(), true
	}
	if s.ExclusiveMinimum != nil {
		if v := s.ExclusiveMinimum.Float(); !hasLo || v >= lo {
			lo, loExcl, hasLo = v, true, true
		}
	}
	if s.Maximum != nil {
		hi, hasHi = s.Maximum.Float(), true
	}
	if s.ExclusiveMaximum != nil {
		if v := s.ExclusiveMaximum.Float(); !hasHi || v <= hi {
			hi, hiExcl, hasHi = v, true, true
		}
	}
	return
}

// checkedFormat reports whether the runtime asserts format.
func checkedFormat(f string) bool {
	switch f {
	case "email", "uri", "date", "date-time", "uuid":
		return true
	}
	return false
}

type intBound struct {
	v           int64
	excl, isMin bool
}

// intBounds returns the integer bounds of s, one per keyword, in the order minimum,
// exclusiveMinimum, maximum, exclusiveMaximum. A bound given as a non-integral number
// becomes the equivalent inclusive integer bound. The result is a slice of buf.
func intBounds(s *model.Schema, buf *[4]intBound) []intBound {
	out := buf[:0]
	for _, k := range [...]struct {
		b           *model.Bound
		excl, isMin bool
	}{{s.Minimum, false, true}, {s.ExclusiveMinimum, true, true}, {s.Maximum, false, false}, {s.ExclusiveMaximum, true, false}} {
		if k.b == nil {
			continue
		}
		if k.b.IsInt {
			out = append(out, intBound{k.b.I, k.excl, k.isMin})
			continue
		}
		f, excl := k.b.F, k.excl
		if f != math.Trunc(f) {
			if k.isMin {
				f = math.Ceil(f)
			} else {
				f = math.Floor(f)
			}
			excl = false
		}
		switch {
		case f >= math.MaxInt64:
			out = append(out, intBound{math.MaxInt64, excl, k.isMin})
		case f <= math.MinInt64:
			out = append(out, intBound{math.MinInt64, excl, k.isMin})
		default:
			out = append(out, intBound{int64(f), excl, k.isMin})
		}
	}
	return out
}

func floatLit(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
