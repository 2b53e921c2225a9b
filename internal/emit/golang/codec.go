package golang

import (
	"math"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/babelqueue/bqgen/internal/model"
)

// This file generates the per-value code: Go types, encoding (appendJSON), decoding
// (decodeJSON) and validation (validate). Value and path expressions are Go source
// strings of local expressions (`x.Lines[i0]`, `pathKey(path, "sku")`); they never
// name an imported package, so rendering them with jen.Id is safe.
//
// raw means "the schema itself, not the Go type declared for it": it is set inside the
// methods of an enum or a named non-object type, where the value is the underlying
// Go type and nullability belongs to the use site.

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

// sel selects name from the value v; a pointer dereference is left to Go's automatic
// one (`*x.F` → `x.F.name`).
func sel(v, name string) string {
	return strings.TrimPrefix(v, "*") + "." + name
}

// index indexes the value v.
func index(v, i string) string {
	if strings.HasPrefix(v, "*") {
		v = "(" + v + ")"
	}
	return v + "[" + i + "]"
}

func isIdent(s string) bool {
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return s != ""
}

func num(depth int, name string) string { return name + strconv.Itoa(depth) }

// call renders fn(args...) where every arg is a source expression.
func call(fn string, args ...string) *jen.Statement {
	cs := make([]jen.Code, len(args))
	for i, a := range args {
		cs[i] = jen.Id(a)
	}
	return jen.Id(fn).Call(cs...)
}

// appendTo renders b = <e>.
func appendTo(e jen.Code) jen.Code { return jen.Id("b").Op("=").Add(e) }

// ---- encoding ----

// enc returns statements appending the JSON of the value v of s to b.
func (g *gen) enc(s *model.Schema, v string, raw bool) []jen.Code {
	if nullable(s) && !raw {
		return []jen.Code{jen.If(jen.Id(sel(v, "Valid"))).Block(g.encBase(s, sel(v, "Value"), false)...).
			Else().Block(appendTo(jen.Append(jen.Id("b"), jen.Lit("null").Op("..."))))}
	}
	return g.encBase(s, v, raw)
}

// directEncoder is the runtime function encoding a value of s as is, or "".
func directEncoder(s *model.Schema) string {
	switch s.Kind {
	case model.String:
		return "appendString"
	case model.Integer:
		if s.IntFormat == "int32" {
			return ""
		}
		if s.Encoding == "string" {
			return "appendIntString"
		}
		return "appendInt"
	case model.Number:
		return "appendFloat"
	case model.Boolean:
		return "appendBool"
	case model.Money:
		return "appendMoney"
	case model.Timestamp:
		return "appendTimestamp"
	case model.UUID:
		return "appendUUID"
	}
	return ""
}

func (g *gen) encBase(s *model.Schema, v string, raw bool) []jen.Code {
	if g.declName(s, raw) != "" {
		return []jen.Code{appendTo(call(sel(v, "appendJSON"), "b"))}
	}
	switch s.Kind {
	case model.Integer:
		fn := "appendInt"
		if s.Encoding == "string" {
			fn = "appendIntString"
		}
		if s.IntFormat == "int32" {
			v = "int64(" + v + ")"
		}
		return []jen.Code{appendTo(call(fn, "b", v))}
	case model.Array:
		return []jen.Code{appendTo(jen.Id("appendArray").Call(jen.Id("b"), jen.Id(v), g.encFunc(s.Items)))}
	case model.Map:
		return []jen.Code{appendTo(jen.Id("appendMap").Call(jen.Id("b"), jen.Id(v), g.encFunc(s.Values)))}
	}
	if fn := directEncoder(s); fn != "" {
		return []jen.Code{appendTo(call(fn, "b", v))}
	}
	g.failf("cannot encode schema kind %q", s.Kind)
	return nil
}

// encFunc is a func([]byte, T) []byte encoding values of s (array items, map values).
func (g *gen) encFunc(s *model.Schema) jen.Code {
	if !nullable(s) && g.declName(s, false) == "" {
		if fn := directEncoder(s); fn != "" {
			return jen.Id(fn)
		}
	}
	body := append(g.enc(s, "v", false), jen.Return(jen.Id("b")))
	return jen.Func().Params(jen.Id("b").Index().Byte(), jen.Id("v").Add(g.valueType(s))).Index().Byte().Block(body...)
}

// ---- decoding ----

// dec returns statements decoding the JSON value src (a *jsonValue expression) into
// dst (an addressable expression of the value type of s), reporting errors at path.
// The statements may declare locals: callers place them in a scope of their own.
func (g *gen) dec(s *model.Schema, dst, src, path string, depth int, raw bool) []jen.Code {
	if nullable(s) && !raw {
		return []jen.Code{jen.If(call("isNull", src)).Block(
			jen.Id(dst).Op("=").Add(g.valueType(s)).Values(),
		).Else().Block(append([]jen.Code{
			jen.Id(sel(dst, "Valid")).Op("=").True(),
		}, g.decBase(s, sel(dst, "Value"), src, path, depth, false)...)...)}
	}
	return g.decBase(s, dst, src, path, depth, raw)
}

// bind returns the statement binding path to a local (when it is not one already)
// and the name to use.
func bind(path string, depth int) ([]jen.Code, string) {
	if isIdent(path) {
		return nil, path
	}
	p := num(depth, "p")
	return []jen.Code{jen.Id(p).Op(":=").Id(path)}, p
}

func (g *gen) decBase(s *model.Schema, dst, src, path string, depth int, raw bool) []jen.Code {
	if g.declName(s, raw) != "" {
		return []jen.Code{call(sel(dst, "decodeJSON"), "d", src, path)}
	}
	scalar := func(fn string) []jen.Code {
		return []jen.Code{jen.List(jen.Id(dst), jen.Id("_")).Op("=").Add(call("d."+fn, src, path))}
	}
	switch s.Kind {
	case model.String:
		return scalar("str")
	case model.Integer:
		switch {
		case s.Encoding == "string" && s.IntFormat == "int32":
			stmts, p := bind(path, depth)
			n := num(depth, "n")
			return append(stmts, jen.If(jen.List(jen.Id(n), jen.Id("ok")).Op(":=").Add(call("d.int64String", src, p)), jen.Id("ok")).Block(
				jen.If(jen.Id(n).Op("<").Id("-2147483648").Op("||").Id(n).Op(">").Id("2147483647")).Block(
					call("d.fail", p, strconv.Quote("integer out of int32 range")),
				).Else().Block(jen.Id(dst).Op("=").Int32().Call(jen.Id(n))),
			))
		case s.Encoding == "string":
			return scalar("int64String")
		case s.IntFormat == "int32":
			return scalar("int32")
		}
		return scalar("int64")
	case model.Number:
		return scalar("float64")
	case model.Boolean:
		return scalar("bool")
	case model.Money:
		return scalar("money")
	case model.Timestamp:
		return scalar("timestamp")
	case model.UUID:
		return scalar("uuid")
	case model.Array:
		stmts, p := bind(path, depth)
		items, i, it := num(depth, "items"), num(depth, "i"), num(depth, "it")
		elem := g.dec(s.Items, index(dst, i), it, "pathIndex("+p+", "+i+")", depth+1, false)
		return append(stmts, jen.If(jen.List(jen.Id(items), jen.Id("ok")).Op(":=").Add(call("d.array", src, p)), jen.Id("ok")).Block(
			jen.Id(dst).Op("=").Make(g.baseType(s, true), jen.Len(jen.Id(items))),
			jen.For(jen.List(jen.Id(i), jen.Id(it)).Op(":=").Range().Id(items)).Block(elem...),
		))
	case model.Map:
		stmts, p := bind(path, depth)
		mem, m, val := num(depth, "mem"), num(depth, "m"), num(depth, "val")
		body := []jen.Code{jen.Var().Id(val).Add(g.valueType(s.Values))}
		body = append(body, g.dec(s.Values, val, m+".val", "pathKey("+p+", "+m+".key)", depth+1, false)...)
		body = append(body, jen.Id(index(dst, m+".key")).Op("=").Id(val))
		return append(stmts, jen.If(jen.List(jen.Id(mem), jen.Id("ok")).Op(":=").Add(call("d.object", src, p)), jen.Id("ok")).Block(
			jen.Id(dst).Op("=").Make(g.baseType(s, true), jen.Len(jen.Id(mem))),
			jen.For(jen.List(jen.Id("_"), jen.Id(m)).Op(":=").Range().Id(mem)).Block(body...),
		))
	}
	g.failf("cannot decode schema kind %q", s.Kind)
	return nil
}

// ---- validation ----

// val returns statements validating the value v of s, appending to e at path. bound
// reports that the statements declare a local (the caller must give them a scope).
func (g *gen) val(s *model.Schema, v, path string, depth int, raw bool) (stmts []jen.Code, bound bool) {
	if nullable(s) && !raw {
		inner, _ := g.valBase(s, sel(v, "Value"), path, depth, false)
		if len(inner) == 0 {
			return nil, false
		}
		return []jen.Code{jen.If(jen.Id(sel(v, "Valid"))).Block(inner...)}, false
	}
	return g.valBase(s, v, path, depth, raw)
}

// valBase binds path to a local when the checks would evaluate it more than once.
func (g *gen) valBase(s *model.Schema, v, path string, depth int, raw bool) ([]jen.Code, bool) {
	stmts, uses := g.checks(s, v, path, depth, raw)
	if uses <= 1 || isIdent(path) {
		return stmts, false
	}
	pre, p := bind(path, depth)
	stmts, _ = g.checks(s, v, p, depth, raw)
	return append(pre, stmts...), true
}

// checks returns the checks of the value v of s and how often they evaluate path.
func (g *gen) checks(s *model.Schema, v, path string, depth int, raw bool) ([]jen.Code, int) {
	if g.declName(s, raw) != "" {
		if !g.hasChecks(s, raw) {
			return nil, 0
		}
		return []jen.Code{call(sel(v, "validate"), "e", path)}, 1
	}
	var out []jen.Code
	add := func(fn string, args ...string) {
		out = append(out, call(fn, append([]string{"e", path}, args...)...))
	}
	switch s.Kind {
	case model.String:
		if s.MinLength != nil || s.MaxLength != nil {
			add("checkLength", v, optInt(s.MinLength), optInt(s.MaxLength))
		}
		if s.Pattern != "" {
			add("checkPattern", v, g.names.Patterns[s.Pattern])
		}
		if checkedFormat(s.Format) {
			add("checkFormat", v, strconv.Quote(s.Format))
		}
	case model.Integer:
		x := v
		if s.IntFormat == "int32" {
			x = "int64(" + v + ")"
		}
		for _, b := range intBounds(s) {
			fn := "checkIntMin"
			if !b.isMin {
				fn = "checkIntMax"
			}
			add(fn, x, strconv.FormatInt(b.v, 10), strconv.FormatBool(b.excl))
		}
	case model.Number:
		add("checkFinite", v)
		for _, b := range []struct {
			fn   string
			b    *model.Bound
			excl bool
		}{{"checkFloatMin", s.Minimum, false}, {"checkFloatMin", s.ExclusiveMinimum, true}, {"checkFloatMax", s.Maximum, false}, {"checkFloatMax", s.ExclusiveMaximum, true}} {
			if b.b != nil {
				add(b.fn, v, floatLit(b.b.Float()), strconv.FormatBool(b.excl))
			}
		}
	case model.Money:
		add("checkMoney", v)
	case model.Timestamp:
		add("checkTimestamp", v)
	case model.UUID:
		add("checkUUID", v)
	case model.Array:
		if s.MinItems != nil || s.MaxItems != nil {
			add("checkItems", "len("+v+")", optInt(s.MinItems), optInt(s.MaxItems))
		}
		if s.UniqueItems {
			out = append(out, jen.Id("checkUnique").Call(jen.Id("e"), jen.Id(path), jen.Id(v), g.encFunc(s.Items)))
		}
		uses := len(out)
		if g.hasChecks(s.Items, false) {
			i := num(depth, "i")
			body, _ := g.val(s.Items, index(v, i), "pathIndex("+path+", "+i+")", depth+1, false)
			out = append(out, jen.For(jen.Id(i).Op(":=").Range().Id(v)).Block(body...))
			uses += 2
		}
		return out, uses
	case model.Map:
		if g.hasChecks(s.Values, false) {
			k, vk := num(depth, "k"), num(depth, "v")
			body := []jen.Code{jen.Id(vk).Op(":=").Id(index(v, k))}
			inner, _ := g.val(s.Values, vk, "pathKey("+path+", "+k+")", depth+1, false)
			body = append(body, inner...)
			keys := jen.Qual("slices", "Sorted").Call(jen.Qual("maps", "Keys").Call(jen.Id(v)))
			return []jen.Code{jen.For(jen.List(jen.Id("_"), jen.Id(k)).Op(":=").Range().Add(keys)).Block(body...)}, 2
		}
	}
	return out, len(out)
}

func optInt(p *int64) string {
	if p == nil {
		return "-1"
	}
	return strconv.FormatInt(*p, 10)
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
