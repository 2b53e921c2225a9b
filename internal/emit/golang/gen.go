package golang

import (
	"fmt"
	doccomment "go/doc/comment"
	"sort"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/babelqueue/bqgen/internal/ecmare"
	"github.com/babelqueue/bqgen/internal/gonames"
	"github.com/babelqueue/bqgen/internal/model"
)

type gen struct {
	reg   *model.Registry
	names *gonames.Names
	// named says, per named type, whether its values have any check (a least
	// fixpoint, so that recursive types are handled).
	named map[*model.NamedType]bool
	// declared holds the inline types already written (a schema shared by two uses,
	// e.g. through a YAML alias, is declared once).
	declared map[string]bool
	// namedIndex is the index of each named type in namedTypeDescs.
	namedIndex map[*model.NamedType]int
	// pii says, per named type, whether its values can hold an x-gdpr-sensitive
	// value (see holdsPII in log.go).
	pii map[*model.NamedType]bool
	// tables collects the descriptor declarations of the file being built, as text
	// (descDecl); Emit appends them to the file's rendered code.
	tables []byte
	err    error
}

func newGen(reg *model.Registry, names *gonames.Names) *gen {
	g := &gen{reg: reg, names: names, named: map[*model.NamedType]bool{}, declared: map[string]bool{},
		namedIndex: map[*model.NamedType]int{}}
	for i, t := range reg.Types {
		g.namedIndex[t] = i
	}
	return g
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

// typesFile fills types.go: the compiled patterns, the named types' descriptors and the
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
			re2, _ := ecmare.Translate(p) // check has translated every pattern
			defs[i] = jen.Id(g.names.Patterns[p]).Op("=").Qual("regexp", "MustCompile").Call(jen.Lit(re2))
		}
		f.Comment("The registry's patterns, compiled once.")
		f.Var().Defs(defs...)
	}

	if len(g.reg.Types) > 0 {
		f.Comment("init hands the named types' descriptors to the runtime.")
		f.Func().Id("init").Params().Block(jen.Id("namedTypes").Op("=").Id("namedTypeDescs").Index(jen.Empty(), jen.Empty()))
		b := append(g.tables, "\n// namedTypeDescs describe the registry's named types (see namedTypes).\nvar namedTypeDescs = [...]typeDesc{"...)
		for i, t := range g.reg.Types {
			b = append(b, "\n\t// "...)
			b = strconv.AppendInt(b, int64(i), 10)
			b = append(b, ": "...)
			b = append(b, g.names.Types[t]...)
			b = append(b, "\n\t"...)
			b = g.descText(b, t.Schema, true, 1)
			b = append(b, ',')
		}
		g.tables = append(b, "\n}\n"...)
	}

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
		desc := jen.Op("&").Id("namedTypeDescs").Index(jen.Lit(g.namedIndex[t]))
		switch {
		case g.names.Inline[s] == name && s.Kind == model.Object:
			g.structType(f, name, s, nil, doc, desc, true)
		case g.names.Inline[s] == name:
			g.enumType(f, name, s, doc, desc, true)
		default:
			g.namedScalar(f, name, s, doc, desc)
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
		g.tables = g.descDecl(g.tables, descVar(name)+" describes "+name+" to the runtime's table-driven codec.", descVar(name), sub)
		desc := jen.Op("&").Id(descVar(name))
		if sub.Kind == model.Object {
			g.structType(f, name, sub, nil, doc, desc, false)
		} else {
			g.enumType(f, name, sub, doc, desc, false)
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
	g.tables = g.descDecl(g.tables, descVar(name)+" describes "+name+" to the runtime's table-driven codec.", descVar(name), m.Data)
	desc := jen.Op("&").Id(descVar(name))
	g.structType(f, name, m.Data, m, doc, desc, true)

	typ := jen.Id(name)
	msgT := func() *jen.Statement { return jen.Id("Message").Types(jen.Id(name)) }
	ctxP := jen.Id("ctx").Qual("context", "Context")

	f.Add(comment(append([]string{ids.URN + " is the URN of " + name + "."}, dep...)).Const().Id(ids.URN).Op("=").Lit(m.URN))

	f.Add(comment([]string{ids.New + " validates data and builds a " + m.URN + " message: a fresh",
		"trace id (or the one of WithTraceID), queue " + strconv.Quote(m.Queue) + " unless WithQueue says otherwise."}, dep...).Func().Id(ids.New).Params(jen.Id("data").Add(typ), jen.Id("opts").Op("...").Id("Option")).
		Params(jen.Op("*").Add(msgT()), jen.Error()).Block(
		jen.Id("m").Op(":=").Op("&").Add(msgT()).Values(jen.Dict{jen.Id("Data"): jen.Id("data")}),
		jen.If(jen.Err().Op(":=").Id("initMessage").Call(jen.Id("m"), desc.Clone(), jen.Id(ids.URN), jen.Lit(m.Queue), jen.Id("opts")), jen.Err().Op("!=").Nil()).Block(
			jen.Return(jen.Nil(), jen.Err()),
		),
		jen.Return(jen.Id("m"), jen.Nil()),
	))

	f.Add(comment([]string{ids.Publish + " builds a " + m.URN + " message with " + ids.New,
		"and publishes its envelope with p. It returns the message id (meta.id)."}, dep...).Func().Id(ids.Publish).Params(ctxP, jen.Id("p").Id("Publisher"), jen.Id("data").Add(typ), jen.Id("opts").Op("...").Id("Option")).
		Params(jen.String(), jen.Error()).Block(
		jen.List(jen.Id("m"), jen.Err()).Op(":=").Id(ids.New).Call(jen.Id("data"), jen.Id("opts").Op("...")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Lit(""), jen.Err())),
		jen.Return(jen.Id("publishMessage").Call(jen.Id("ctx"), jen.Id("p"), jen.Id("m"), desc.Clone())),
	))

	f.Comment(ids.Decode + " decodes a " + m.URN + " envelope strictly and validates its data.")
	f.Comment("Errors: ErrMalformedEnvelope, ErrUnsupportedSchemaVersion, ErrUnknownURN (another URN),")
	f.Comment("or ValidationErrors (ErrInvalidData).")
	f.Func().Id(ids.Decode).Params(jen.Id("body").Index().Byte()).Params(jen.Op("*").Add(msgT()), jen.Error()).Block(
		jen.Id("m").Op(":=").New(msgT()),
		jen.If(jen.Err().Op(":=").Id("decodeMessageInto").Call(jen.Id("body"), jen.Id(ids.URN), jen.Id("m"), desc.Clone()), jen.Err().Op("!=").Nil()).Block(
			jen.Return(jen.Nil(), jen.Err()),
		),
		jen.Return(jen.Id("m"), jen.Nil()),
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
		jen.Id("r").Dot("register").Call(jen.Id(ids.URN), jen.Func().Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("env").Op("*").Id("envelope")).Error().Block(
			jen.Var().Id("m").Add(msgT()),
			jen.If(jen.Err().Op(":=").Id("env").Dot("fill").Call(jen.Op("&").Id("m"), desc.Clone()), jen.Err().Op("!=").Nil()).Block(
				jen.Return(jen.Err()),
			),
			jen.Return(jen.Id("h").Dot(ids.Handle).Call(jen.Id("ctx"), jen.Id("m"))),
		)),
	)

	g.innerTypes(f, m.Data, m.URN)
}

// ---- declarations ----

// descVar is the package-level descriptor of the declared (non-named) type name.
func descVar(name string) string { return "td" + name }

// commonMethods writes Validate, MarshalJSON and UnmarshalJSON of a declared type:
// one-liners over the runtime's table-driven codec and the type's descriptor.
func (g *gen) commonMethods(f *jen.File, name string, desc *jen.Statement) {
	f.Comment("Validate reports every violation of the schema with its JSON path ($ is the value")
	f.Comment("itself); the error is a ValidationErrors (errors.Is(err, ErrInvalidData)).")
	f.Func().Params(jen.Id("x").Id(name)).Id("Validate").Params().Error().Block(
		jen.Return(jen.Id("validateAny").Call(jen.Op("&").Id("x"), desc.Clone())),
	)
	f.Comment("MarshalJSON returns the compact JSON of x, keys in schema order. It does not validate.")
	f.Func().Params(jen.Id("x").Id(name)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(
		jen.Return(jen.Id("marshalAny").Call(jen.Op("&").Id("x"), desc.Clone())),
	)
	f.Comment("UnmarshalJSON decodes b strictly (no unknown keys in closed objects, integers exact,")
	f.Comment("null only where nullable) and validates it; on error x is unchanged.")
	f.Func().Params(jen.Id("x").Op("*").Id(name)).Id("UnmarshalJSON").Params(jen.Id("b").Index().Byte()).Error().Block(
		jen.Return(jen.Id("unmarshalAny").Call(jen.Id("b"), jen.Id("x"), desc.Clone())),
	)
}

// structType declares the struct of an object schema with its methods.
//
// Messages and named types get Validate, MarshalJSON and UnmarshalJSON; the types
// declared inside them (withMethods false) are plain data, validated and encoded
// through the value that holds them: every method costs build time in every
// package, and there are several such types per message.
func (g *gen) structType(f *jen.File, name string, s *model.Schema, m *model.Message, doc []string, desc *jen.Statement, withMethods bool) {
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
	if m != nil {
		f.Comment("schema returns the descriptor of " + name + " (Message.Encode uses it).")
		f.Func().Params(jen.Op("*").Id(name)).Id("schema").Params().Op("*").Id("typeDesc").Block(jen.Return(desc.Clone()))
	}
	if withMethods {
		g.commonMethods(f, name, desc)
	}
	g.logMethods(f, name, s, desc)
}

// enumType declares an enum type with its constants and methods.
func (g *gen) enumType(f *jen.File, name string, s *model.Schema, doc []string, desc *jen.Statement, withMethods bool) {
	f.Add(comment(doc).Type().Id(name).Add(g.baseType(s, true)))
	consts := g.names.EnumConsts[s]
	var defs []jen.Code
	for i, v := range s.Enum {
		lit := enumLit(v)
		defs = append(defs, comment([]string{consts[i] + " is " + lit + "."}).Id(consts[i]).Id(name).Op("=").Id(lit))
	}
	f.Comment("The values of " + name + ".")
	f.Const().Defs(defs...)
	if withMethods {
		g.commonMethods(f, name, desc)
	}
	g.logMethods(f, name, s, desc)
}

// namedScalar declares a named type whose schema is not an object or an enum: a Go
// defined type over the schema's Go type.
func (g *gen) namedScalar(f *jen.File, name string, s *model.Schema, doc []string, desc *jen.Statement) {
	f.Add(comment(doc).Type().Id(name).Add(g.baseType(s, true)))
	g.commonMethods(f, name, desc)
	g.logMethods(f, name, s, desc)
}

// ---- docs ----

// comment renders doc lines as // comments, each ending a line, ready to prefix a
// declaration. Extra paragraphs are appended after a blank comment line.
func comment(lines []string, extra ...string) *jen.Statement {
	var text strings.Builder
	for _, l := range append(append([]string(nil), lines...), extra...) {
		text.WriteString(strings.TrimRight(sanitize(l), " \t"))
		text.WriteByte('\n')
	}
	st := jen.Null()
	for _, l := range docComment(text.String()) {
		st.Comment(l).Line() // l starts with "//": jen writes it as it is
	}
	return st
}

// docComment returns text as the lines of a Go doc comment, each starting with `//`,
// in the canonical form gofmt gives a doc comment (go/doc/comment, and go/printer's
// formatDocComment for the markers): gofmt rewrites a top-level doc comment's text (a
// lone capitalised line between paragraphs becomes a `# heading`, indented lines a
// code block), but only when the comment is written at column 1, which jen's raw
// output is not; without this, a registry description could make a generated file
// that gofmt changes. Every line carries its own `//` marker, so no registry text
// can end the comment or start a directive (`//go:generate`, `//line`): the text
// "//go:generate x" comes out as "// //go:generate x".
func docComment(text string) []string {
	var p doccomment.Parser
	var pr doccomment.Printer
	body := strings.TrimSuffix(string(pr.Comment(p.Parse(text))), "\n")
	lines := strings.Split(body, "\n")
	for i, l := range lines {
		switch {
		case l == "":
			lines[i] = "//"
		case strings.HasPrefix(l, "\t"):
			lines[i] = "//" + l
		default:
			lines[i] = "// " + l
		}
	}
	return lines
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
