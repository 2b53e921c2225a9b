package golang

import (
	"math"
	"strconv"

	"github.com/dave/jennifer/jen"

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

// declName is the Go type declared for s: the named type of a Ref, or the inline
// struct/enum type; "" for the others.
func (g *gen) declName(s *model.Schema, raw bool) string {
	if s.Kind == model.Ref {
		return g.names.Types[s.Named]
	}
	if raw {
		return ""
	}
	return g.names.Inline[s]
}

// baseType is the Go type of a non-null value of s.
func (g *gen) baseType(s *model.Schema, raw bool) *jen.Statement {
	if n := g.declName(s, raw); n != "" {
		return jen.Id(n)
	}
	switch s.Kind {
	case model.String:
		return jen.String()
	case model.Integer:
		if s.IntFormat == "int32" {
			return jen.Int32()
		}
		return jen.Int64()
	case model.Number:
		return jen.Float64()
	case model.Boolean:
		return jen.Bool()
	case model.Array:
		return jen.Index().Add(g.valueType(s.Items))
	case model.Map:
		return jen.Map(jen.String()).Add(g.valueType(s.Values))
	case model.Money:
		return jen.Id("Money")
	case model.Timestamp:
		return jen.Id("Timestamp")
	case model.UUID:
		return jen.Id("UUID")
	}
	g.failf("schema kind %q has no Go type", s.Kind)
	return jen.Any()
}

// valueType is the Go type of a value of s, Nullable[…] when it may be null.
func (g *gen) valueType(s *model.Schema) *jen.Statement {
	if nullable(s) {
		return jen.Id("Nullable").Types(g.baseType(s, false))
	}
	return g.baseType(s, false)
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

// fieldType is the Go type of a struct field (docs/generated-code.md, presence table).
func (g *gen) fieldType(p *model.Property) *jen.Statement {
	t := g.valueType(p.Schema)
	if p.Required || isCollection(p.Schema) {
		return t
	}
	return jen.Op("*").Add(t)
}

// ---- descriptors ----

// desc returns the typeDesc composite literal describing the Go value of s (see the
// runtime's schema.go). raw describes the declared type itself (an enum, an object or a
// named type) rather than a use of it: a use of a declared type refers to its
// descriptor, and its nullability belongs to the use.
func (g *gen) desc(s *model.Schema, raw bool) *jen.Statement {
	d := map[string]jen.Code{}
	var flags []string
	if !raw && nullable(s) {
		flags = append(flags, "fNullable")
	}
	if g.hasChecks(s, false) {
		flags = append(flags, "fChecked")
	}
	if s.GDPR != "" {
		flags = append(flags, "fGDPR")
	}
	kind := ""
	switch {
	case s.Kind == model.Ref:
		kind = "kNamed"
		d["ref"] = jen.Lit(g.namedIndex[s.Named])
	case !raw && g.names.Inline[s] != "":
		kind = "kDesc"
		d["elem"] = jen.Op("&").Id(descVar(g.names.Inline[s]))
	default:
		switch s.Kind {
		case model.String:
			kind = "kString"
			if s.MinLength != nil {
				flags = append(flags, "fMin")
				d["lo"] = jen.Lit(int(*s.MinLength))
			}
			if s.MaxLength != nil {
				flags = append(flags, "fMax")
				d["hi"] = jen.Lit(int(*s.MaxLength))
			}
			if s.Pattern != "" {
				d["pattern"] = jen.Op("&").Id(g.names.Patterns[s.Pattern])
			}
			if checkedFormat(s.Format) {
				d["format"] = jen.Lit(s.Format)
			}
			if len(s.Enum) > 0 {
				vals := make([]jen.Code, len(s.Enum))
				for i, v := range s.Enum {
					vals[i] = jen.Id(enumLit(v))
				}
				d["enum"] = jen.Index().String().Values(vals...)
			}
		case model.Integer:
			kind = "kInt64"
			switch {
			case s.Encoding == "string" && s.IntFormat == "int32":
				kind = "kInt32Str"
			case s.Encoding == "string":
				kind = "kInt64Str"
			case s.IntFormat == "int32":
				kind = "kInt32"
			}
			var lo, hi *intBound
			for _, b := range intBounds(s) {
				b := b
				if b.isMin {
					if lo == nil || b.v > lo.v || (b.v == lo.v && b.excl) {
						lo = &b
					}
				} else if hi == nil || b.v < hi.v || (b.v == hi.v && b.excl) {
					hi = &b
				}
			}
			if lo != nil {
				flags = append(flags, "fMin")
				if lo.excl {
					flags = append(flags, "fExclMin")
				}
				d["lo"] = jen.Lit(int(lo.v))
			}
			if hi != nil {
				flags = append(flags, "fMax")
				if hi.excl {
					flags = append(flags, "fExclMax")
				}
				d["hi"] = jen.Lit(int(hi.v))
			}
			if len(s.Enum) > 0 {
				vals := make([]jen.Code, len(s.Enum))
				for i, v := range s.Enum {
					vals[i] = jen.Id(enumLit(v))
				}
				d["enumInt"] = jen.Index().Int64().Values(vals...)
			}
		case model.Number:
			kind = "kFloat64"
			lo, loExcl, hi, hiExcl, hasLo, hasHi := floatBounds(s)
			if hasLo {
				flags = append(flags, "fFMin")
				if loExcl {
					flags = append(flags, "fFExclMin")
				}
				d["flo"] = jen.Id(floatLit(lo))
			}
			if hasHi {
				flags = append(flags, "fFMax")
				if hiExcl {
					flags = append(flags, "fFExclMax")
				}
				d["fhi"] = jen.Id(floatLit(hi))
			}
			if len(s.Enum) > 0 {
				vals := make([]jen.Code, len(s.Enum))
				for i, v := range s.Enum {
					vals[i] = jen.Id(enumLit(v))
				}
				d["enumFloat"] = jen.Index().Float64().Values(vals...)
			}
		case model.Boolean:
			kind = "kBool"
		case model.Money:
			kind = "kMoney"
		case model.Timestamp:
			kind = "kTimestamp"
		case model.UUID:
			kind = "kUUID"
		case model.Object:
			kind = "kObject"
			if !s.AdditionalProperties {
				flags = append(flags, "fClosed")
			}
			if len(s.Properties) > 0 {
				fields := make([]jen.Code, len(s.Properties))
				for i, p := range s.Properties {
					fd := []jen.Code{jen.Id("key").Op(":").Lit(p.Name)}
					if p.Required {
						fd = append(fd, jen.Id("required").Op(":").True())
					}
					fields[i] = jen.Values(append(fd, jen.Id("typ").Op(":").Add(g.desc(p.Schema, false)))...)
				}
				d["fields"] = jen.Index().Id("fieldDesc").ValuesFunc(func(gr *jen.Group) {
					for _, f := range fields {
						gr.Line().Add(f)
					}
					gr.Line()
				})
			}
		case model.Array:
			kind = "kArray"
			if s.MinItems != nil {
				flags = append(flags, "fMin")
				d["lo"] = jen.Lit(int(*s.MinItems))
			}
			if s.MaxItems != nil {
				flags = append(flags, "fMax")
				d["hi"] = jen.Lit(int(*s.MaxItems))
			}
			if s.UniqueItems {
				flags = append(flags, "fUnique")
			}
			d["elem"] = g.elemDesc(s.Items)
		case model.Map:
			kind = "kMap"
			d["elem"] = g.elemDesc(s.Values)
		default:
			g.failf("schema kind %q has no descriptor", s.Kind)
		}
	}
	d["kind"] = jen.Id(kind)
	if len(flags) > 0 {
		fl := jen.Id(flags[0])
		for _, f := range flags[1:] {
			fl = fl.Op("|").Id(f)
		}
		d["flags"] = fl
	}
	var items []jen.Code
	for _, k := range []string{"kind", "flags", "lo", "hi", "flo", "fhi", "format", "pattern", "enum", "enumInt", "enumFloat", "ref", "elem", "fields"} {
		if v, ok := d[k]; ok {
			items = append(items, jen.Id(k).Op(":").Add(v))
		}
	}
	return jen.Id("typeDesc").Values(items...)
}

// elemDesc is the *typeDesc of array items or map values.
func (g *gen) elemDesc(s *model.Schema) *jen.Statement {
	if name := g.names.Inline[s]; name != "" && s.Kind != model.Ref && !nullable(s) {
		return jen.Op("&").Id(descVar(name))
	}
	return jen.Op("&").Add(g.desc(s, false))
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
// becomes the equivalent inclusive integer bound.
func intBounds(s *model.Schema) []intBound {
	var out []intBound
	for _, k := range []struct {
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
