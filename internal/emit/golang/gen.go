package golang

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dave/jennifer/jen"

	"github.com/babelqueue/bqgen/internal/gonames"
	"github.com/babelqueue/bqgen/internal/model"
)

// unmarshalValue is the helper (declared in types.go) behind UnmarshalJSON of the
// types that are not messages.
const unmarshalValue = "unmarshalValue"

type gen struct {
	reg   *model.Registry
	names *gonames.Names
	// named says, per named type, whether its values have any check (a least
	// fixpoint, so that recursive types are handled).
	named map[*model.NamedType]bool
	// declared holds the inline types already written (a schema shared by two uses,
	// e.g. through a YAML alias, is declared once).
	declared map[string]bool
	err      error
}

func newGen(reg *model.Registry, names *gonames.Names) *gen {
	return &gen{reg: reg, names: names, named: map[*model.NamedType]bool{}, declared: map[string]bool{}}
}

func (g *gen) failf(format string, args ...any) {
	if g.err == nil {
		g.err = fmt.Errorf("golang: "+format, args...)
	}
}

// computeChecks fills g.named.
func (g *gen) computeChecks() {
	for changed := true; changed; {
		changed = false
		for _, t := range g.reg.Types {
			if !g.named[t] && g.hasChecks(t.Schema, false) {
				g.named[t] = true
				changed = true
			}
		}
	}
}

// hasChecks reports whether validating a value of s can find anything.
func (g *gen) hasChecks(s *model.Schema, raw bool) bool {
	if s == nil {
		return false
	}
	if s.Kind == model.Ref {
		return g.named[s.Named]
	}
	if !raw && len(s.Enum) > 0 {
		return true
	}
	switch s.Kind {
	case model.String:
		return s.MinLength != nil || s.MaxLength != nil || s.Pattern != "" || checkedFormat(s.Format)
	case model.Integer:
		return len(intBounds(s)) > 0
	case model.Number, model.Money, model.Timestamp, model.UUID:
		return true
	case model.Object:
		for _, p := range s.Properties {
			if g.hasChecks(p.Schema, false) {
				return true
			}
		}
	case model.Array:
		return s.MinItems != nil || s.MaxItems != nil || s.UniqueItems || g.hasChecks(s.Items, false)
	case model.Map:
		return g.hasChecks(s.Values, false)
	}
	return false
}

// ---- files ----

// typesFile fills types.go: the compiled patterns, the unmarshalValue helper and the
// named types with the types declared inside them.
func (g *gen) typesFile(f *jen.File) {
	var pats []string
	for p := range g.names.Patterns {
		pats = append(pats, p)
	}
	sort.Slice(pats, func(i, j int) bool {
		return patIndex(g.names.Patterns[pats[i]]) < patIndex(g.names.Patterns[pats[j]])
	})
	if len(pats) > 0 {
		defs := make([]jen.Code, len(pats))
		for i, p := range pats {
			defs[i] = jen.Id(g.names.Patterns[p]).Op("=").Qual("regexp", "MustCompile").Call(jen.Lit(p))
		}
		f.Comment("The registry's patterns, compiled once.")
		f.Var().Defs(defs...)
	}

	f.Comment(unmarshalValue + " strictly parses b, decodes it into dst and validates it: the UnmarshalJSON")
	f.Comment("of the types that are not messages. Every error is a ValidationErrors (ErrInvalidData).")
	f.Func().Id(unmarshalValue).Params(jen.Id("b").Index().Byte(), jen.Id("dst").Interface(
		jen.Id("decodeJSON").Params(jen.Id("d").Op("*").Id("decoder"), jen.Id("v").Op("*").Id("jsonValue"), jen.Id("path").String()),
		jen.Id("validate").Params(jen.Id("e").Op("*").Id("ValidationErrors"), jen.Id("path").String()),
	)).Error().Block(
		jen.List(jen.Id("v"), jen.Err()).Op(":=").Id("parseJSON").Call(jen.Id("b")),
		jen.If(jen.Err().Op("!=").Nil()).Block(
			jen.Return(jen.Id("ValidationErrors").Values(jen.Values(jen.Dict{
				jen.Id("Path"): jen.Lit("$"), jen.Id("Message"): jen.Err().Dot("Error").Call(),
			}))),
		),
		jen.Var().Id("d").Id("decoder"),
		jen.Id("dst").Dot("decodeJSON").Call(jen.Op("&").Id("d"), jen.Id("v"), jen.Lit("$")),
		jen.If(jen.Len(jen.Id("d").Dot("errs")).Op("==").Lit(0)).Block(
			jen.Id("dst").Dot("validate").Call(jen.Op("&").Id("d").Dot("errs"), jen.Lit("$")),
		),
		jen.Return(jen.Id("d").Dot("errs").Dot("errOrNil").Call()),
	)

	for _, t := range g.reg.Types {
		name := g.names.Types[t]
		s := t.Schema
		doc := []string{name + " is the registry type " + t.Name + "."}
		doc = append(doc, para(s.Description)...)
		if s.GDPR != "" {
			doc = append(doc, "", gdprText(s.GDPR))
		}
		if c := constraints(s); c != "" {
			doc = append(doc, "", "Constraints: "+c+".")
		}
		doc = append(doc, deprecated(s.Deprecation)...)
		switch {
		case g.names.Inline[s] == name && s.Kind == model.Object:
			g.structType(f, name, s, nil, doc)
		case g.names.Inline[s] == name:
			g.enumType(f, name, s, doc)
		default:
			g.namedScalar(f, name, s, doc)
		}
		g.innerTypes(f, s, "type "+t.Name)
	}
}

func patIndex(v string) int {
	n, _ := strconv.Atoi(strings.TrimLeft(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_"))
	return n
}

// innerTypes declares the inline objects and enums below s (not s itself).
func (g *gen) innerTypes(f *jen.File, s *model.Schema, owner string) {
	model.Walk(s, "$", func(p string, sub *model.Schema) {
		if sub == s {
			return
		}
		name := g.names.Inline[sub]
		if name == "" || g.declared[name] {
			return
		}
		g.declared[name] = true
		doc := []string{fmt.Sprintf("%s is the value at %s of %s.", name, p, owner)}
		doc = append(doc, para(sub.Description)...)
		if sub.Kind == model.Object {
			g.structType(f, name, sub, nil, doc)
		} else {
			g.enumType(f, name, sub, doc)
		}
	})
}

// message writes one message: its URN constant, struct, methods, producer and
// consumer helpers, then the types declared inside it.
func (g *gen) message(f *jen.File, m *model.Message) {
	ids := gonames.MessageIdentsOf(g.names.Messages[m])
	name := ids.Type
	kind := m.Kind
	if kind == "" {
		kind = model.Event
	}
	dep := deprecated(m.Deprecation)

	doc := []string{fmt.Sprintf("%s is the data of the %s %s.", name, kind, m.URN)}
	doc = append(doc, para(m.Summary)...)
	doc = append(doc, para(m.Description)...)
	var facts []string
	if m.Owner != "" {
		facts = append(facts, "Owner: "+m.Owner+".")
	}
	facts = append(facts, "Default queue: "+strconv.Quote(m.Queue)+".")
	if m.Supersedes != "" {
		facts = append(facts, "Supersedes "+m.Supersedes+".")
	}
	doc = append(doc, "", strings.Join(facts, " "))
	doc = append(doc, dep...)
	g.structType(f, name, m.Data, m, doc)

	typ := jen.Id(name)
	msgT := func() *jen.Statement { return jen.Id("Message").Types(jen.Id(name)) }
	ctxP := jen.Id("ctx").Qual("context", "Context")

	f.Add(comment(append([]string{ids.URN + " is the URN of " + name + "."}, dep...)).Const().Id(ids.URN).Op("=").Lit(m.URN))

	f.Add(comment([]string{ids.New + " validates data and builds a " + m.URN + " message: a fresh",
		"trace id (or the one of WithTraceID), queue " + strconv.Quote(m.Queue) + " unless WithQueue says otherwise."}, dep...).Func().Id(ids.New).Params(jen.Id("data").Add(typ), jen.Id("opts").Op("...").Id("Option")).
		Params(jen.Op("*").Add(msgT()), jen.Error()).Block(
		jen.Return(jen.Id("newMessage").Call(jen.Id(ids.URN), jen.Lit(m.Queue), jen.Id("data"), jen.Id("opts"))),
	))

	f.Add(comment([]string{ids.Publish + " builds a " + m.URN + " message with " + ids.New,
		"and publishes its envelope with p. It returns the message id (meta.id)."}, dep...).Func().Id(ids.Publish).Params(ctxP, jen.Id("p").Id("Publisher"), jen.Id("data").Add(typ), jen.Id("opts").Op("...").Id("Option")).
		Params(jen.String(), jen.Error()).Block(
		jen.List(jen.Id("m"), jen.Err()).Op(":=").Id(ids.New).Call(jen.Id("data"), jen.Id("opts").Op("...")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Lit(""), jen.Err())),
		jen.Return(jen.Id("publish").Call(jen.Id("ctx"), jen.Id("p"), jen.Id("m"))),
	))

	f.Comment(ids.Decode + " decodes a " + m.URN + " envelope strictly and validates its data.")
	f.Comment("Errors: ErrMalformedEnvelope, ErrUnsupportedSchemaVersion, ErrUnknownURN (another URN),")
	f.Comment("or ValidationErrors (ErrInvalidData).")
	f.Func().Id(ids.Decode).Params(jen.Id("body").Index().Byte()).Params(jen.Op("*").Add(msgT()), jen.Error()).Block(
		jen.Return(jen.Id("decodeMessage").Types(typ).Call(jen.Id("body"), jen.Id(ids.URN))),
	)

	handleSig := func() *jen.Statement {
		return jen.Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("m").Add(msgT())).Error()
	}
	f.Comment(ids.Handler + " handles " + m.URN + " messages.")
	f.Type().Id(ids.Handler).Interface(
		jen.Comment(ids.Handle + " handles one message; an error makes Router.Dispatch fail with it.").Line().
			Id(ids.Handle).Add(handleSig()),
	)
	f.Comment(ids.HandlerFunc + " adapts a function to " + ids.Handler + ".")
	f.Type().Id(ids.HandlerFunc).Func().Add(handleSig())
	f.Comment(ids.Handle + " calls fn(ctx, m).")
	f.Func().Params(jen.Id("fn").Id(ids.HandlerFunc)).Id(ids.Handle).Add(handleSig()).Block(
		jen.Return(jen.Id("fn").Call(jen.Id("ctx"), jen.Id("m"))),
	)
	f.Comment(ids.Handle + " routes " + m.URN + " messages to h, replacing any earlier handler.")
	f.Func().Params(jen.Id("r").Op("*").Id("Router")).Id(ids.Handle).Params(jen.Id("h").Id(ids.Handler)).Block(
		jen.Id("handle").Call(jen.Id("r"), jen.Id(ids.URN), jen.Id("h").Dot(ids.Handle)),
	)

	g.innerTypes(f, m.Data, m.URN)
}

// ---- declarations ----

// commonMethods writes Validate, MarshalJSON and UnmarshalJSON of a declared type.
func (g *gen) commonMethods(f *jen.File, name string, isMessage bool) {
	f.Comment("Validate reports every violation of the schema with its JSON path ($ is the value")
	f.Comment("itself); the error is a ValidationErrors (errors.Is(err, ErrInvalidData)).")
	f.Func().Params(jen.Id("x").Id(name)).Id("Validate").Params().Error().Block(
		jen.Var().Id("e").Id("ValidationErrors"),
		jen.Id("x").Dot("validate").Call(jen.Op("&").Id("e"), jen.Lit("$")),
		jen.Return(jen.Id("e").Dot("errOrNil").Call()),
	)
	f.Comment("MarshalJSON returns the compact JSON of x, keys in schema order. It does not validate.")
	f.Func().Params(jen.Id("x").Id(name)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(
		jen.Return(jen.Id("x").Dot("appendJSON").Call(jen.Nil()), jen.Nil()),
	)
	f.Comment("UnmarshalJSON decodes b strictly (no unknown keys in closed objects, integers exact,")
	f.Comment("null only where nullable) and validates it; on error x is unchanged.")
	helper := unmarshalValue
	if isMessage {
		helper = "decodeData"
	}
	if isMessage {
		f.Func().Params(jen.Id("x").Op("*").Id(name)).Id("UnmarshalJSON").Params(jen.Id("b").Index().Byte()).Error().Block(
			jen.Return(jen.Id(helper).Call(jen.Id("b"), jen.Id("x"))),
		)
		return
	}
	f.Func().Params(jen.Id("x").Op("*").Id(name)).Id("UnmarshalJSON").Params(jen.Id("b").Index().Byte()).Error().Block(
		jen.Var().Id("tmp").Id(name),
		jen.If(jen.Err().Op(":=").Id(helper).Call(jen.Id("b"), jen.Op("&").Id("tmp")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.Op("*").Id("x").Op("=").Id("tmp"),
		jen.Return(jen.Nil()),
	)
}

// structType declares the struct of an object schema with its methods.
func (g *gen) structType(f *jen.File, name string, s *model.Schema, m *model.Message, doc []string) {
	if !s.AdditionalProperties {
		doc = append(doc, "", "The object is closed: decoding rejects keys it does not declare.")
	}
	var fields []jen.Code
	for _, p := range s.Properties {
		fname := g.names.Fields[p]
		fdoc := []string{fmt.Sprintf("%s is %s: %s.", fname, strconv.Quote(p.Name), fieldConstraints(p))}
		fdoc = append(fdoc, para(p.Schema.Description)...)
		if p.Schema.GDPR != "" {
			fdoc = append(fdoc, "", gdprText(p.Schema.GDPR))
		}
		fdoc = append(fdoc, deprecated(p.Schema.Deprecation)...)
		st := comment(fdoc).Id(fname).Add(g.fieldType(p))
		if tagSafe(p.Name) {
			tag := p.Name
			if !p.Required {
				tag += ",omitempty"
			}
			st.Tag(map[string]string{"json": tag})
		}
		fields = append(fields, st)
	}
	f.Add(comment(doc).Type().Id(name).Struct(fields...))

	recv := jen.Id("x").Op("*").Id(name)
	if m != nil {
		f.Comment("MessageURN returns " + strconv.Quote(m.URN) + ".")
		f.Func().Params(jen.Id(name)).Id("MessageURN").Params().String().Block(
			jen.Return(jen.Id(gonames.MessageIdentsOf(name).URN)),
		)
	}
	g.commonMethods(f, name, m != nil)

	// appendJSON
	var enc []jen.Code
	enc = append(enc, appendTo(jen.Append(jen.Id("b"), jen.LitRune('{'))))
	const (
		none = iota
		maybe
		sure
	)
	state := none
	needN := false
	for _, p := range s.Properties {
		fname := "x." + g.names.Fields[p]
		key := jsonKey(p.Name)
		var body []jen.Code
		switch state {
		case none:
			body = append(body, appendTo(jen.Append(jen.Id("b"), strLit(key+":").Op("..."))))
		case maybe:
			needN = true
			body = append(body,
				jen.If(jen.Len(jen.Id("b")).Op(">").Id("n")).Block(appendTo(jen.Append(jen.Id("b"), jen.LitRune(',')))),
				appendTo(jen.Append(jen.Id("b"), strLit(key+":").Op("..."))))
		case sure:
			body = append(body, appendTo(jen.Append(jen.Id("b"), strLit(","+key+":").Op("..."))))
		}
		switch {
		case p.Required:
			enc = append(enc, body...)
			enc = append(enc, g.enc(p.Schema, fname, false)...)
			state = sure
		case isCollection(p.Schema):
			body = append(body, g.enc(p.Schema, fname, false)...)
			enc = append(enc, jen.If(jen.Id(fname).Op("!=").Nil()).Block(body...))
			if state == none {
				state = maybe
			}
		default:
			body = append(body, g.enc(p.Schema, "*"+fname, false)...)
			enc = append(enc, jen.If(jen.Id(fname).Op("!=").Nil()).Block(body...))
			if state == none {
				state = maybe
			}
		}
	}
	if needN {
		enc = append([]jen.Code{enc[0], jen.Id("n").Op(":=").Len(jen.Id("b"))}, enc[1:]...)
	}
	enc = append(enc, jen.Return(jen.Append(jen.Id("b"), jen.LitRune('}'))))
	f.Comment("appendJSON appends the JSON of x to b.")
	f.Func().Params(recv.Clone()).Id("appendJSON").Params(jen.Id("b").Index().Byte()).Index().Byte().Block(enc...)

	// decodeJSON
	var dec []jen.Code
	dec = append(dec,
		jen.Op("*").Id("x").Op("=").Id(name).Values(),
		jen.List(jen.Id("members"), jen.Id("ok")).Op(":=").Id("d").Dot("object").Call(jen.Id("v"), jen.Id("path")),
		jen.If(jen.Op("!").Id("ok")).Block(jen.Return()),
	)
	var required []jen.Code
	var cases []jen.Code
	for _, p := range s.Properties {
		fname := "x." + g.names.Fields[p]
		path := "pathKey(path, " + strconv.Quote(p.Name) + ")"
		var body []jen.Code
		if p.Required {
			body = append(body, jen.Id("seen").Index(jen.Lit(len(required))).Op("=").True())
			required = append(required, jen.Lit(p.Name))
		}
		switch {
		case p.Required || isCollection(p.Schema):
			body = append(body, g.dec(p.Schema, fname, "m.val", path, 0, false)...)
		default:
			body = append(body, jen.Id(fname).Op("=").New(g.valueType(p.Schema)))
			body = append(body, g.dec(p.Schema, "*"+fname, "m.val", path, 0, false)...)
		}
		cases = append(cases, jen.Case(jen.Lit(p.Name)).Block(body...))
	}
	if !s.AdditionalProperties {
		cases = append(cases, jen.Default().Block(jen.Id("d").Dot("unknown").Call(jen.Id("path"), jen.Id("m").Dot("key"))))
	}
	if len(required) > 0 {
		dec = append(dec, jen.Var().Id("seen").Index(jen.Lit(len(required))).Bool())
	}
	if len(cases) > 0 {
		dec = append(dec, jen.For(jen.List(jen.Id("_"), jen.Id("m")).Op(":=").Range().Id("members")).Block(
			jen.Switch(jen.Id("m").Dot("key")).Block(cases...),
		))
	} else {
		dec = append(dec, jen.Id("_").Op("=").Id("members"))
	}
	if len(required) > 0 {
		dec = append(dec, jen.For(jen.List(jen.Id("i"), jen.Id("k")).Op(":=").Range().Index(jen.Op("...")).String().Values(required...)).Block(
			jen.If(jen.Op("!").Id("seen").Index(jen.Id("i"))).Block(jen.Id("d").Dot("missing").Call(jen.Id("path"), jen.Id("k"))),
		))
	}
	f.Comment("decodeJSON decodes v into x, reporting type errors at path.")
	f.Func().Params(recv.Clone()).Id("decodeJSON").Params(jen.Id("d").Op("*").Id("decoder"), jen.Id("v").Op("*").Id("jsonValue"), jen.Id("path").String()).Block(dec...)

	// validate
	var val []jen.Code
	for _, p := range s.Properties {
		fname := "x." + g.names.Fields[p]
		path := "pathKey(path, " + strconv.Quote(p.Name) + ")"
		switch {
		case p.Required:
			stmts, bound := g.val(p.Schema, fname, path, 0, false)
			if bound {
				val = append(val, jen.Block(stmts...))
			} else {
				val = append(val, stmts...)
			}
		case isCollection(p.Schema):
			if stmts, _ := g.val(p.Schema, fname, path, 0, false); len(stmts) > 0 {
				val = append(val, jen.If(jen.Id(fname).Op("!=").Nil()).Block(stmts...))
			}
		default:
			if stmts, _ := g.val(p.Schema, "*"+fname, path, 0, false); len(stmts) > 0 {
				val = append(val, jen.If(jen.Id(fname).Op("!=").Nil()).Block(stmts...))
			}
		}
	}
	f.Comment("validate appends the violations of x's constraints to e.")
	f.Func().Params(recv.Clone()).Id("validate").Params(jen.Id("e").Op("*").Id("ValidationErrors"), jen.Id("path").String()).Block(val...)
}

// enumType declares an enum type with its constants and methods.
func (g *gen) enumType(f *jen.File, name string, s *model.Schema, doc []string) {
	f.Add(comment(doc).Type().Id(name).Add(g.baseType(s, true)))
	consts := g.names.EnumConsts[s]
	var defs, cases []jen.Code
	for i, v := range s.Enum {
		lit := enumLit(v)
		defs = append(defs, comment([]string{consts[i] + " is " + lit + "."}).Id(consts[i]).Id(name).Op("=").Id(lit))
		cases = append(cases, jen.Id(consts[i]))
	}
	f.Comment("The values of " + name + ".")
	f.Const().Defs(defs...)
	g.commonMethods(f, name, false)
	g.rawMethods(f, name, s, []jen.Code{
		jen.Switch(jen.Op("*").Id("x")).Block(
			jen.Case(cases...),
			jen.Default().Block(jen.Id("checkEnum").Call(jen.Id("e"), jen.Id("path"), jen.False())),
		),
	})
}

// namedScalar declares a named type whose schema is not an object or an enum: a Go
// defined type over the schema's Go type.
func (g *gen) namedScalar(f *jen.File, name string, s *model.Schema, doc []string) {
	f.Add(comment(doc).Type().Id(name).Add(g.baseType(s, true)))
	g.commonMethods(f, name, false)
	g.rawMethods(f, name, s, nil)
}

// rawMethods writes appendJSON, decodeJSON and validate of a type declared over the
// Go type of s (an enum or a named non-object type); pre are validation statements
// to run first.
func (g *gen) rawMethods(f *jen.File, name string, s *model.Schema, pre []jen.Code) {
	under := g.baseType(s, true)
	conv := jen.Id("u").Op(":=").Parens(jen.Op("*").Add(under.Clone())).Call(jen.Id("x"))
	recv := jen.Id("x").Op("*").Id(name)
	enc := append([]jen.Code{conv.Clone()}, g.enc(s, "*u", true)...)
	enc = append(enc, jen.Return(jen.Id("b")))
	f.Comment("appendJSON appends the JSON of x to b.")
	f.Func().Params(recv.Clone()).Id("appendJSON").Params(jen.Id("b").Index().Byte()).Index().Byte().Block(enc...)

	dec := append([]jen.Code{conv.Clone()}, g.dec(s, "*u", "v", "path", 0, true)...)
	f.Comment("decodeJSON decodes v into x, reporting type errors at path.")
	f.Func().Params(recv.Clone()).Id("decodeJSON").Params(jen.Id("d").Op("*").Id("decoder"), jen.Id("v").Op("*").Id("jsonValue"), jen.Id("path").String()).Block(dec...)

	val := pre
	if checks, _ := g.val(s, "*u", "path", 0, true); len(checks) > 0 {
		val = append(val, conv.Clone())
		val = append(val, checks...)
	}
	f.Comment("validate appends the violations of x's constraints to e.")
	f.Func().Params(recv.Clone()).Id("validate").Params(jen.Id("e").Op("*").Id("ValidationErrors"), jen.Id("path").String()).Block(val...)
}

// ---- docs ----

// comment renders doc lines as // comments, each ending a line, ready to prefix a
// declaration. Extra paragraphs are appended after a blank comment line.
func comment(lines []string, extra ...string) *jen.Statement {
	st := jen.Null()
	all := append(append([]string(nil), lines...), extra...)
	for _, l := range all {
		l = strings.TrimRight(sanitize(l), " \t")
		if l == "" {
			st.Comment("//").Line()
		} else {
			st.Comment("// " + l).Line()
		}
	}
	return st
}

// sanitize replaces control characters (which BQ036 rejects anyway) by spaces.
func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == '\u2028' || r == '\u2029' {
			return ' '
		}
		return r
	}, s)
}

// para returns text as a paragraph (preceded by a blank line), or nothing.
func para(text string) []string {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil
	}
	return append([]string{""}, strings.Split(text, "\n")...)
}

func deprecated(d *model.Deprecation) []string {
	if d == nil {
		return nil
	}
	r := strings.Join(strings.Fields(d.Reason), " ")
	if r == "" {
		r = "do not use in new code."
	}
	return []string{"", "Deprecated: " + r}
}

func gdprText(v string) string {
	if v == "true" {
		return "GDPR-sensitive personal data."
	}
	return "GDPR-sensitive personal data (" + v + ")."
}

// fieldConstraints describes a property: presence, nullability and its schema's
// constraints.
func fieldConstraints(p *model.Property) string {
	var parts []string
	if p.Required {
		parts = append(parts, "required")
	} else {
		parts = append(parts, "optional")
	}
	if nullable(p.Schema) {
		parts = append(parts, "nullable")
	}
	if c := constraints(p.Schema); c != "" {
		parts = append(parts, c)
	}
	return strings.Join(parts, "; ")
}

// constraints describes the constraints of a schema, with units.
func constraints(s *model.Schema) string {
	var parts []string
	add := func(format string, args ...any) { parts = append(parts, fmt.Sprintf(format, args...)) }
	if len(s.Enum) > 0 {
		vals := make([]string, len(s.Enum))
		for i, v := range s.Enum {
			vals[i] = enumLit(v)
		}
		add("one of %s", strings.Join(vals, ", "))
	}
	switch s.Kind {
	case model.Ref:
		add("type %s", s.Ref)
	case model.String:
		switch {
		case s.MinLength != nil && s.MaxLength != nil:
			add("%d to %d code points", *s.MinLength, *s.MaxLength)
		case s.MinLength != nil:
			add("at least %d code points", *s.MinLength)
		case s.MaxLength != nil:
			add("at most %d code points", *s.MaxLength)
		}
		if s.Pattern != "" {
			add("pattern %s", "`"+strings.ReplaceAll(s.Pattern, "`", "\\x60")+"`")
		}
		if s.Format != "" {
			add("format %s", s.Format)
		}
	case model.Integer:
		if s.IntFormat == "int32" {
			add("int32")
		}
		for _, b := range intBounds(s) {
			word := map[[2]bool]string{{true, false}: "minimum", {true, true}: "exclusive minimum", {false, false}: "maximum", {false, true}: "exclusive maximum"}[[2]bool{b.isMin, b.excl}]
			add("%s %d", word, b.v)
		}
		if s.Encoding == "string" {
			add("carried as a JSON string in canonical decimal form")
		}
	case model.Number:
		for _, b := range []struct {
			w string
			b *model.Bound
		}{{"minimum", s.Minimum}, {"exclusive minimum", s.ExclusiveMinimum}, {"maximum", s.Maximum}, {"exclusive maximum", s.ExclusiveMaximum}} {
			if b.b != nil {
				add("%s %s", b.w, floatLit(b.b.Float()))
			}
		}
	case model.Money:
		add("money: amount in minor units, ISO 4217 currency")
	case model.Timestamp:
		add("Unix milliseconds, UTC")
	case model.UUID:
		add("canonical lowercase UUID")
	case model.Array:
		switch {
		case s.MinItems != nil && s.MaxItems != nil:
			add("%d to %d items", *s.MinItems, *s.MaxItems)
		case s.MinItems != nil:
			add("at least %d items", *s.MinItems)
		case s.MaxItems != nil:
			add("at most %d items", *s.MaxItems)
		}
		if s.UniqueItems {
			add("unique items")
		}
		if s.Items != nil {
			if c := constraints(s.Items); c != "" {
				add("items: %s", c)
			}
		}
	case model.Map:
		if s.Values != nil {
			if c := constraints(s.Values); c != "" {
				add("values: %s", c)
			}
		}
	}
	return strings.Join(parts, "; ")
}

// enumLit is the Go literal of an enum value.
func enumLit(v any) string {
	switch x := v.(type) {
	case string:
		return strconv.Quote(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case int:
		return strconv.Itoa(x)
	case float64:
		return floatLit(x)
	case bool:
		return strconv.FormatBool(x)
	}
	return fmt.Sprint(v)
}

// jsonKey is the JSON text of an object key, as the runtime's appendString writes it.
func jsonKey(k string) string {
	return string(appendJSONString(nil, k))
}

// tagSafe reports whether a JSON key can be written in a struct tag (encoding/json's
// rules for tag names); other keys get no tag.
func tagSafe(k string) bool {
	if k == "" {
		return false
	}
	for _, r := range k {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", r):
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		case r > 0x7f && r != '\u2028' && r != '\u2029':
		default:
			return false
		}
	}
	return true
}

// strLit renders a string literal, raw (backquoted) when that is possible.
func strLit(s string) *jen.Statement {
	raw := !strings.Contains(s, "`")
	for _, r := range s {
		if r < 0x20 || r == 0x7f || r == utf8.RuneError || r == '\ufeff' {
			raw = false
		}
	}
	if raw && utf8.ValidString(s) {
		return jen.Id("`" + s + "`")
	}
	return jen.Lit(s)
}

// appendJSONString appends s as a JSON string the way the runtime's appendString
// does (encoding/json with SetEscapeHTML(false)).
func appendJSONString(b []byte, s string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return append(b, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...)
}
