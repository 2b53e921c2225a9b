package golang

import (
	"bytes"
	"fmt"
	doccomment "go/doc/comment"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/babelqueue/bqgen/internal/ecmare"
	"github.com/babelqueue/bqgen/internal/gonames"
	"github.com/babelqueue/bqgen/internal/model"
	"github.com/babelqueue/bqgen/internal/pii"
)

type gen struct {
	reg   *model.Registry
	names *gonames.Names
	// root and bqrt are the import paths of the root package and of the
	// runtime's machinery; pkg is the package of the file being built.
	root, bqrt string
	pkg        *gonames.Package
	// named says, per named type, whether its values have any check (a least
	// fixpoint, so that recursive types are handled).
	named map[*model.NamedType]bool
	// declared holds the inline types already written (a schema shared by two uses,
	// e.g. through a YAML alias, is declared once).
	declared map[declKey]bool
	// namedIndex is the index of each named type in namedTypeDescs.
	namedIndex map[*model.NamedType]int
	// indirect are the required nullable fields whose named type can contain, by
	// value, the type that declares them (a recursive type): their Go type is *T
	// rather than Nullable[T], which would hold T by value and make the type
	// infinite (findIndirect).
	indirect map[*model.Property]bool
	// pii says, per named type, whether its values can hold an x-gdpr-sensitive
	// value (see holdsPII in log.go).
	pii map[*model.NamedType]bool
	// piiIndex answers which values of each message a Cipher protects (made on
	// first use).
	piiIndex *pii.Index
	// out is the file being written (text.go).
	out *textFile
	// fieldDocs memoises the doc comment lines (docLines) of field descriptions and
	// deprecations, which repeat across the messages of a registry.
	fieldDocs map[string][]string
	// tables collects the descriptor declarations of the file being built, as text
	// (descDecl); they follow the file's other declarations.
	tables []byte
	err    error
}

// declKey is an inline type of gen.declared: its package directory and name.
type declKey struct{ dir, name string }

func newGen(reg *model.Registry, names *gonames.Names, root string) *gen {
	g := &gen{reg: reg, names: names, root: root, bqrt: importPath(root, gonames.BqrtDir), named: map[*model.NamedType]bool{},
		declared: map[declKey]bool{}, namedIndex: map[*model.NamedType]int{}}
	for i, t := range reg.Types {
		g.namedIndex[t] = i
	}
	return g
}

// fork returns a copy of g for a worker of Emit that builds context files: it shares
// what is complete before the workers start (the model, the names, the fixpoints of
// computeChecks, findIndirect and holdsPII), read-only, and has its own file state
// (pkg, tables, err), its own copy of the record of declared inline types (keyed by
// package: what the root files declared, then its own) and its own pii.Index (which memoises as it
// answers, so it is not safe for concurrent use).
func (g *gen) fork() *gen {
	w := *g
	w.pkg, w.out, w.tables, w.err, w.piiIndex, w.fieldDocs = nil, nil, nil, nil, nil, nil
	w.declared = make(map[declKey]bool, len(g.declared))
	for k := range g.declared {
		w.declared[k] = true
	}
	return &w
}

// rtName is the runtime identifier name as the doc comments of the file being built
// write it: bare in the root package, qualified elsewhere.
func (g *gen) rtName(name string) string {
	if g.pkg == g.names.Root {
		return name
	}
	return g.names.Root.Name + "." + name
}

// startFile starts the file of pkg as g.out, importing the root package and bqrt
// under their own names (never an alias), with no descriptor declarations yet
// (g.tables). The buffers of the file g wrote before are reused.
func (g *gen) startFile(pkg *gonames.Package) {
	g.pkg = pkg
	if g.out == nil {
		g.out = &textFile{hints: map[string]string{g.root: g.names.Root.Name, g.bqrt: "bqrt"}, imports: map[string]importDef{}}
	}
	f := g.out
	f.path, f.name, f.doc, f.body = importPath(g.root, pkg.Dir), pkg.Name, nil, f.body[:0]
	clear(f.imports)
	g.tables = g.tables[:0]
}

// finishFile returns the content of the file written since startFile (textFile.bytes),
// in a slice of its own.
func (g *gen) finishFile() []byte { return g.out.bytes(g.tables) }

// rt is the runtime identifier name of the root package (Money, Message, …), as the
// file being written refers to it.
func (g *gen) rt(name string) string { return g.out.qual(g.root, name) }

// bq is the identifier name of the runtime's machinery (bqrt.Validate, …).
func (g *gen) bq(name string) string { return g.out.qual(g.bqrt, name) }

// ref is a package-level identifier planned by gonames: qualified when it lives in
// another package than the file being written.
func (g *gen) ref(id gonames.Ident) string {
	if id.Pkg == g.pkg {
		return id.Name
	}
	return g.out.qual(importPath(g.root, id.Pkg.Dir), id.Name)
}

// appendRef appends ref(id) to b.
func (g *gen) appendRef(b []byte, id gonames.Ident) []byte {
	if id.Pkg == g.pkg {
		return append(b, id.Name...)
	}
	return g.out.appendQual(b, importPath(g.root, id.Pkg.Dir), id.Name)
}

func (g *gen) failf(format string, args ...any) {
	if g.err == nil {
		g.err = fmt.Errorf("golang: "+format, args...)
	}
}

// findIndirect fills g.indirect. A Go struct holds by value its required fields
// (a Nullable[T] holds T), the fields of its inline objects and, for a named type
// over another (type A B), that type; pointers (optional fields), slices and maps
// hold nothing by value. A cycle of by-value holdings with no nullable link is an
// infinite type, which rule BQ033 rejects; every other cycle goes through a
// required nullable field, and each such field whose type can reach its own
// declaring named type by value becomes indirect.
func (g *gen) findIndirect() {
	g.indirect = map[*model.Property]bool{}
	type edge struct {
		to   *model.NamedType
		prop *model.Property // the required nullable field, nil for another link
	}
	holds := map[*model.NamedType][]edge{}
	var walk func(t *model.NamedType, s *model.Schema, via *model.Property)
	walk = func(t *model.NamedType, s *model.Schema, via *model.Property) {
		if s == nil {
			return
		}
		switch s.Kind {
		case model.Ref:
			if s.Named != nil {
				holds[t] = append(holds[t], edge{s.Named, via})
			}
		case model.Object:
			for _, p := range s.Properties {
				if !p.Required {
					continue // a pointer
				}
				link := via // the nearest required nullable field on the way
				if nullable(p.Schema) {
					link = p
				}
				walk(t, p.Schema, link)
			}
		}
	}
	for _, t := range g.reg.Types {
		walk(t, t.Schema, nil)
	}
	// reaches reports whether from holds to by value, through any number of links.
	reaches := func(from, to *model.NamedType) bool {
		seen := map[*model.NamedType]bool{}
		stack := []*model.NamedType{from}
		for len(stack) > 0 {
			n := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if n == to {
				return true
			}
			if seen[n] {
				continue
			}
			seen[n] = true
			for _, e := range holds[n] {
				stack = append(stack, e.to)
			}
		}
		return false
	}
	for _, t := range g.reg.Types {
		for _, e := range holds[t] {
			if e.prop != nil && reaches(e.to, t) {
				g.indirect[e.prop] = true
			}
		}
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
		// intBounds gives one bound per keyword written.
		return s.Minimum != nil || s.ExclusiveMinimum != nil || s.Maximum != nil || s.ExclusiveMaximum != nil
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

// patternVars declares the compiled patterns of the file's package (patternN): each
// pattern its schemas use, compiled once, at package initialisation.
func (g *gen) patternVars() {
	m := g.names.Patterns[g.pkg]
	pats := make([]string, 0, len(m))
	for p := range m {
		pats = append(pats, p)
	}
	sort.Slice(pats, func(i, j int) bool { return patIndex(m[pats[i]]) < patIndex(m[pats[j]]) })
	if len(pats) == 0 {
		return
	}
	bl := &g.out.blk
	for _, p := range pats {
		re2, _ := ecmare.Translate(p) // check has translated every pattern
		bl.spec(m[p], "", g.bq("Pattern")+"("+strconv.Quote(p)+", "+strconv.Quote(re2)+")")
	}
	g.out.decl("// The patterns of this package's schemas (ECMA-262 as the registry writes them, and their RE2",
		"// translation), compiled once.")
	g.out.group("var", bl)
}

// typesFile writes types.go of the root package (g.out): its compiled patterns, the
// named types' descriptors and the named types with the types declared inside them.
func (g *gen) typesFile() {
	g.patternVars()
	if len(g.reg.Types) > 0 {
		g.out.decl("// init hands the named types' descriptors to the runtime, before any context",
			"// package (they all import this one) can use them.")
		g.out.write("func init() {\n\t", g.bq("NamedTypes"), " = namedTypeDescs[:]\n}\n")
		b := append(g.tables, "\n// namedTypeDescs describe the registry's named types (bqrt.NamedTypes).\nvar namedTypeDescs = [...]bqrt.Desc{"...)
		for i, t := range g.reg.Types {
			b = append(b, "\n\t// "...)
			b = strconv.AppendInt(b, int64(i), 10)
			b = append(b, ": "...)
			b = append(b, g.names.Types[t].Name...)
			b = append(b, "\n\t"...)
			b = g.descText(b, t.Schema, true, 1)
			b = append(b, ',')
		}
		g.tables = append(b, "\n}\n"...)
	}

	for _, t := range g.reg.Types {
		name := g.names.Types[t].Name
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
		desc := "&namedTypeDescs[" + strconv.Itoa(g.namedIndex[t]) + "]"
		switch {
		case g.decl(s).Name == name && s.Kind == model.Object:
			g.structType(name, s, nil, doc, desc, true)
		case g.decl(s).Name == name:
			g.enumType(name, s, doc, desc, true)
		default:
			g.namedScalar(name, s, doc, desc)
		}
		g.innerTypes(s, "type "+t.Name)
	}
}

// contextDoc writes the package documentation and the compiled patterns of the
// context package pkg (g.out), which holds msgs.
func (g *gen) contextDoc(pkg *gonames.Package, msgs []*model.Message) {
	r := g.names.Root.Name
	// gofmt rewrites a package's doc comment into its canonical form: docComment.
	g.out.doc = docComment("Package " + pkg.Name + " holds the BabelQueue messages of the bounded context " + pkg.Context + "\n" +
		"(urn:babel:" + pkg.Context + ":*), generated by bqgen: one data type per URN, with its URN\n" +
		"constant. Produce and consume them with the runtime package " + r + ": " + r + ".New,\n" +
		r + ".Publish, " + r + ".Decode and " + r + ".Handle.\n")
	bl := &g.out.blk
	for _, m := range msgs {
		ids := gonames.MessageIdentsOf(g.names.Messages[m].Name)
		bl.comment(g.fieldDoc(trimBlank(deprecated(m.Deprecation))))
		bl.spec(ids.URN, "", strconv.Quote(m.URN))
	}
	g.out.decl("// The URNs of this package's messages: XURN is the URN of X.")
	g.out.group("const", bl)
	g.patternVars()
}

func patIndex(v string) int {
	n, _ := strconv.Atoi(strings.TrimLeft(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_"))
	return n
}

// innerTypes declares the inline objects and enums below s (not s itself), in the
// order of model.Walk; the path of each (as Walk writes it) is built only for the
// schemas that are declared.
func (g *gen) innerTypes(s *model.Schema, owner string) {
	var walk func(sub *model.Schema, path []byte)
	walk = func(sub *model.Schema, path []byte) {
		if sub == nil {
			return
		}
		if sub != s {
			g.innerType(sub, path, owner)
		}
		for _, p := range sub.Properties {
			walk(p.Schema, append(append(path, '.'), p.Name...))
		}
		if sub.Items != nil {
			walk(sub.Items, append(path, "[*]"...))
		}
		if sub.Values != nil {
			walk(sub.Values, append(path, ".*"...))
		}
	}
	walk(s, append(make([]byte, 0, 128), '$'))
}

// innerType declares sub, at path p of owner, if it is an inline object or enum not
// declared yet.
func (g *gen) innerType(sub *model.Schema, p []byte, owner string) {
	id := g.decl(sub)
	name := id.Name
	if name == "" || g.declared[declKey{id.Pkg.Dir, name}] {
		return
	}
	g.declared[declKey{id.Pkg.Dir, name}] = true
	doc := []string{name + " is the value at " + string(p) + " of " + owner + "."}
	doc = append(doc, para(sub.Description)...)
	desc := "" // only the PII methods (logMethods) refer to it
	if g.ownDesc(sub) {
		g.tables = g.descDecl(g.tables, descVar(name), sub)
		desc = "&" + descVar(name)
	}
	if sub.Kind == model.Object {
		g.structType(name, sub, nil, doc, desc, false)
	} else {
		g.enumType(name, sub, doc, desc, false)
	}
}

// message writes one message: its data type with its methods, its URN constant,
// then the types declared inside it. Producing and consuming go through the
// runtime's generic New, Publish, Decode and Handle, instantiated only where a
// program uses them (docs/generated-code.md, "What each message costs").
func (g *gen) message(m *model.Message) {
	ids := gonames.MessageIdentsOf(g.names.Messages[m].Name)
	name := ids.Type
	kind := m.Kind
	if kind == "" {
		kind = model.Event
	}
	dep := deprecated(m.Deprecation)

	facts := []string{"default queue " + strconv.Quote(m.Queue)}
	if m.Owner != "" {
		facts = append([]string{"owner " + m.Owner}, facts...)
	}
	if m.Supersedes != "" {
		facts = append(facts, "supersedes "+m.Supersedes)
	}
	doc := []string{fmt.Sprintf("%s is the data of the %s %s (%s).", name, kind, m.URN, strings.Join(facts, "; "))}
	doc = append(doc, para(m.Summary)...)
	doc = append(doc, para(m.Description)...)
	doc = append(doc, dep...)
	g.tables = g.descDecl(g.tables, descVar(name), m.Data)
	g.structType(name, m.Data, m, doc, "&"+descVar(name), true)

	g.innerTypes(m.Data, m.URN)
}

// ---- declarations ----

// descVar is the package-level descriptor of the declared (non-named) type name.
func descVar(name string) string { return gonames.DescVar(name) }

// piiVar is the package-level list of the protected paths of the message type name.
func piiVar(name string) string { return gonames.PIIVar(name) }

// protected returns the paths of m's values that a Cipher protects
// (pii.Inventory.Protected), nil when it has none. A message whose SDK schema cannot
// be written within its budget (pii.Index.Inlined false; `bqgen check` reports BQ050)
// fails the emitter: its list would leave out the marks inside named types, and the
// generated code would send them in clear text.
func (g *gen) protected(m *model.Message) []string {
	if g.piiIndex == nil {
		g.piiIndex = pii.NewIndex(g.reg)
	}
	if !g.piiIndex.Marked(m) {
		return nil
	}
	if !g.piiIndex.Inlined(m) {
		g.failf("%s: %s: the SDK schema would exceed %d bytes or %d levels (BQ050): its protected paths cannot be listed", m.Pos, m.URN, pii.MaxBytes, pii.MaxNesting)
		return nil
	}
	return g.piiIndex.Of(m).Protected()
}

// commonMethods writes Validate, MarshalJSON and UnmarshalJSON of a declared type:
// one-liners over the runtime's table-driven codec and the type's descriptor desc
// (an expression of type *bqrt.Desc).
func (g *gen) commonMethods(name, desc string) {
	f := g.out
	f.decl("// Validate reports every violation of the schema with its JSON path: " + g.rtName("ValidationErrors") + ".")
	f.write("func (x ", name, ") Validate() error {\n\treturn ", g.bq("Validate"), "(&x, ", desc, ")\n}\n")
	f.decl("// MarshalJSON returns the compact JSON of x, keys in schema order. It does not validate the",
		"// schema's constraints, but refuses a string that is not valid UTF-8 rather than repair it:",
		"// the error is then a "+g.rtName("ValidationErrors")+" ("+g.rtName("ErrInvalidData")+") naming each such string.")
	f.write("func (x ", name, ") MarshalJSON() ([]byte, error) {\n\treturn ", g.bq("Marshal"), "(&x, ", desc, ")\n}\n")
	f.decl("// UnmarshalJSON decodes b strictly and validates it; on error x is unchanged.")
	f.write("func (x *", name, ") UnmarshalJSON(b []byte) error {\n\treturn ", g.bq("Unmarshal"), "(b, x, ", desc, ")\n}\n")
}

// structType declares the struct of an object schema with its methods.
//
// Messages and named types get Validate, MarshalJSON and UnmarshalJSON; the types
// declared inside them (withMethods false) are plain data, validated and encoded
// through the value that holds them: every method costs build time in every
// package, and there are several such types per message.
func (g *gen) structType(name string, s *model.Schema, m *model.Message, doc []string, desc string, withMethods bool) {
	if !s.AdditionalProperties {
		doc = append(doc, "", "The object is closed: decoding rejects keys it does not declare.")
	}
	single := len(s.Properties) == 1
	bl := &g.out.blk
	fields := g.decl(s).Fields
	for i, p := range s.Properties {
		fname := fields[i]
		// The presence and constraints go on the field's line; the description, the
		// PII mark and a deprecation (which linters read only as a paragraph) above it.
		var fdoc []string
		if d := strings.TrimSpace(p.Schema.Description); d != "" {
			fdoc = strings.Split(d, "\n")
		}
		if p.Schema.GDPR != "" {
			fdoc = append(fdoc, "", gdprText(p.Schema.GDPR))
		}
		fdoc = trimBlank(append(fdoc, deprecated(p.Schema.Deprecation)...))
		bl.comment(g.fieldDoc(fdoc))
		g.fieldLine(bl, single, fname, p)
	}
	g.out.decl(docLines(doc)...)
	if bl.lines == 0 {
		g.out.write("type ", name, " struct{}\n")
	} else {
		g.out.write("type ", name, " struct {\n")
		g.out.body = alignBlock(g.out.body, bl)
		g.out.write("}\n")
	}
	if m != nil {
		ids := gonames.MessageIdentsOf(name)
		paths := g.protected(m)
		piiList := "nil"
		if len(paths) > 0 {
			piiList = piiVar(name)
		}
		g.out.decl("// BabelQueueMessage describes " + name + " to the runtime (" + g.rtName("MessageData") + ").")
		g.out.write("func (*", name, ") BabelQueueMessage() (urn, queue string, desc *", g.bq("Desc"), ", pii []string) {\n\treturn ",
			ids.URN, ", ", strconv.Quote(m.Queue), ", ", desc, ", ", piiList, "\n}\n")
		if len(paths) > 0 {
			g.out.decl("// "+piiVar(name)+" lists the x-gdpr-sensitive values of "+name+" that "+g.rtName("WithCipher")+" protects, as paths",
				"// in the BabelQueue SDKs' syntax (`bqgen check --pii`).")
			g.out.write("var ", piiVar(name), " = []string{")
			for i, p := range paths {
				if i > 0 {
					g.out.write(", ")
				}
				g.out.body = strconv.AppendQuote(g.out.body, p)
			}
			g.out.write("}\n")
		}
	}
	if withMethods {
		g.commonMethods(name, desc)
	}
	g.logMethods(name, s, desc)
}

// fieldLine adds the line of the field p, of Go name fname, to bl as block.field
// writes it: the field's Go type (fieldType), its struct tag when its key can have
// one (structTag of the key, with ",omitempty" when the field is optional), and a
// line comment with the field's presence and constraints (appendFieldConstraints),
// the key first when it has no tag, through sanitize, without trailing blanks and
// through directiveSafe. All of it is written into the block in place: building each
// piece as a string was a fifth of the emitter's allocations.
func (g *gen) fieldLine(bl *block, single bool, fname string, p *model.Property) {
	tagged := tagSafe(p.Name)
	bl.newline(false)
	b := append(bl.buf, fname...)
	if single {
		b = append(b, ' ')
	} else {
		bl.buf = b
		bl.end(false)
		b = bl.buf
	}
	b = g.appendFieldType(b, p)
	bl.buf = b
	switch {
	case tagged && single:
		bl.buf = append(bl.buf, ' ')
	case tagged:
		bl.end(false)
		bl.end(false) // the empty soft column before the tag
	case !single:
		bl.end(false)
	}
	if tagged {
		bl.buf = appendStructTag(bl.buf, p.Name, !p.Required)
	}
	if tagged || single {
		bl.end(true)
	}
	b = bl.buf
	line := len(b)
	b = append(b, "// "...)
	text := len(b)
	if !tagged {
		b = strconv.AppendQuote(b, p.Name)
		b = append(b, ": "...)
	}
	b = appendFieldConstraints(b, p)
	b = appendSanitized(b, text)
	for len(b) > text && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	// The text starts with the quoted key, "required" or "optional": no directive
	// word, but directiveSafe decides.
	for _, w := range directiveWords {
		if bytes.HasPrefix(b[text:], []byte(w)) {
			l := directiveSafe(string(b[line:]))
			b = append(b[:line], l...)
			break
		}
	}
	bl.buf = b
}

// appendSanitized replaces b[from:] by sanitize(b[from:]): in place when it is
// printable ASCII, which sanitize leaves as it is.
func appendSanitized(b []byte, from int) []byte {
	for _, c := range b[from:] {
		if c < 0x20 || c >= 0x7f {
			s := sanitize(string(b[from:]))
			return append(b[:from], s...)
		}
	}
	return b
}

// appendStructTag appends structTag of key, with ",omitempty" after it when
// omitempty is set, to b.
func appendStructTag(b []byte, key string, omitempty bool) []byte {
	mark := len(b)
	b = append(b, "`json:"...)
	b = strconv.AppendQuote(b, key)
	if omitempty {
		// Quoting is rune by rune: the quoted key+",omitempty" is the quoted key
		// with ",omitempty" before its closing quote.
		b = append(b[:len(b)-1], ",omitempty\""...)
	}
	if canBackquote(b[mark+1:]) {
		return append(b, '`')
	}
	t := string(b[mark+1:])
	return strconv.AppendQuote(b[:mark], t)
}

// canBackquote is strconv.CanBackquote of b.
func canBackquote(b []byte) bool {
	for len(b) > 0 {
		r, wid := utf8.DecodeRune(b)
		b = b[wid:]
		if wid > 1 {
			if r == '\ufeff' {
				return false // BOMs are invisible and should not be quoted.
			}
			continue // All other multibyte runes are correctly encoded and assumed printable.
		}
		if r == utf8.RuneError {
			return false
		}
		if (r < ' ' && r != '\t') || r == '`' || r == '\u007F' {
			return false
		}
	}
	return true
}

// structTag is the struct tag `json:"<v>"` as jennifer wrote it: a raw string literal
// when it can be one, else an interpreted one.
func structTag(v string) string {
	t := "json:" + strconv.Quote(v)
	if strconv.CanBackquote(t) {
		return "`" + t + "`"
	}
	return strconv.Quote(t)
}

// enumType declares an enum type with its constants and methods.
func (g *gen) enumType(name string, s *model.Schema, doc []string, desc string, withMethods bool) {
	g.out.decl(docLines(doc)...)
	g.out.write("type ", name, " ", g.baseType(s, true), "\n")
	consts := g.decl(s).EnumConsts
	bl := &g.out.blk
	for i, v := range s.Enum {
		bl.spec(consts[i], name, enumLit(v))
	}
	g.out.decl("// The values of " + name + ", one constant each.")
	g.out.group("const", bl)
	if withMethods {
		g.commonMethods(name, desc)
	}
	g.logMethods(name, s, desc)
}

// namedScalar declares a named type whose schema is not an object or an enum: a Go
// defined type over the schema's Go type.
func (g *gen) namedScalar(name string, s *model.Schema, doc []string, desc string) {
	g.out.decl(docLines(doc)...)
	g.out.write("type ", name, " ", g.baseType(s, true), "\n")
	g.commonMethods(name, desc)
	g.logMethods(name, s, desc)
}

// ---- docs ----

// fieldDoc is innerDocComment of the doc lines, memoised (g.fieldDocs): for the doc
// comments of fields and constants, whose texts repeat.
func (g *gen) fieldDoc(lines []string) []string {
	if len(lines) == 0 {
		return nil
	}
	key := strings.Join(lines, "\n")
	if d, ok := g.fieldDocs[key]; ok {
		return d
	}
	if g.fieldDocs == nil {
		g.fieldDocs = map[string][]string{}
	}
	d := innerDocComment(docText(lines))
	g.fieldDocs[key] = d
	return d
}

// docLines returns doc lines as the lines of a top-level doc comment (docComment),
// each starting with "//"; extra paragraphs are appended after a blank comment line.
func docLines(lines []string, extra ...string) []string {
	if len(lines)+len(extra) == 0 {
		return nil
	}
	return docComment(docText(append(append([]string(nil), lines...), extra...)))
}

// docText joins doc lines into a doc comment's text, without control characters and
// trailing blanks.
func docText(lines []string) string {
	var text strings.Builder
	for _, l := range lines {
		text.WriteString(strings.TrimRight(sanitize(l), " \t"))
		text.WriteByte('\n')
	}
	return text.String()
}

// docComment returns text as the lines of a Go doc comment, each starting with `//`,
// in the canonical form gofmt gives a doc comment (go/doc/comment, and go/printer's
// formatDocComment for the markers): gofmt rewrites a doc comment's text (a lone
// capitalised line between paragraphs becomes a `# heading`, indented lines a code
// block); without this, a registry description could make a generated file that gofmt
// changes. Every line carries its own `//` marker, so no registry text
// can end the comment, and goes through directiveSafe, so that none is a directive:
// the text "//go:generate x" comes out as "// //go:generate x", "+build ignore" as
// "// `+build` ignore".
func docComment(text string) []string {
	if lines, ok := plainDoc(text); ok {
		return lines
	}
	return stableDoc(text)
}

// innerDocComment is docComment for a comment inside a declaration (a field's, a
// constant's in a block), which gofmt does not reformat: the text as go/doc/comment
// prints it once, as the jen emitter wrote it.
func innerDocComment(text string) []string {
	if lines, ok := plainDoc(text); ok {
		return lines
	}
	return parsedDoc(text)
}

// stableDoc is docComment's parsedDoc, repeated until the lines are what gofmt makes
// of them: go/printer's formatDocComment parses and prints the text of a top-level
// doc comment again, and neither the printer nor directiveSafe's quoting is a
// fixpoint everywhere (a list after a code block is printed indented like the code,
// and is read back as part of it; a first word "go:`" gets a backquote before and
// after it, and the parser turns the two backquotes in a row into “).
// TestDocCommentIsGofmtFixpoint holds the result to go/format.
func stableDoc(text string) []string {
	lines := parsedDoc(text)
	for range 8 {
		again := parsedDoc(commentText(lines))
		if slices.Equal(again, lines) {
			break
		}
		lines = again
	}
	return lines
}

// parsedDoc parses text as a doc comment (go/doc/comment) and prints it as comment
// lines, each through directiveSafe.
func parsedDoc(text string) []string {
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
		lines[i] = directiveSafe(lines[i])
	}
	return lines
}

// commentText is the text of the comment lines as go/printer's formatDocComment reads
// it: each line without its `//` and one blank after it.
func commentText(lines []string) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(strings.TrimPrefix(strings.TrimPrefix(l, "//"), " "))
		b.WriteByte('\n')
	}
	return b.String()
}

// plainDoc is docComment for a text that go/doc/comment reads as plain paragraphs
// and prints back unchanged, which most doc texts are, without parsing it: lines
// separated by single blank lines, none blank at the start or the end, each starting
// with a letter (so none is indented, a code block or list item, a `#` heading or a
// link definition), no `[` but in `[*]` (no doc link: the paths of inline types,
// `$.lines[*]`, have them, and `*` names nothing the parser links), no two
// backquotes or two single quotes in a row (which the parser turns into “ and ”), and no paragraph of one line that ends
// in a letter or digit (an implicit heading). ok is false for any other text.
// TestPlainDocMatchesParser compares it with the parser's output.
func plainDoc(text string) (lines []string, ok bool) {
	body, found := strings.CutSuffix(text, "\n")
	if !found || body == "" || !onlyItemBrackets(body) || strings.Contains(body, "``") || strings.Contains(body, "''") {
		return nil, false
	}
	src := strings.Split(body, "\n")
	for i, l := range src {
		if l == "" {
			if i == 0 || i == len(src)-1 || src[i-1] == "" {
				return nil, false
			}
			continue
		}
		if r, _ := utf8.DecodeRuneInString(l); !unicode.IsLetter(r) {
			return nil, false
		}
		if (i == 0 || src[i-1] == "") && (i == len(src)-1 || src[i+1] == "") {
			if r, _ := utf8.DecodeLastRuneInString(l); unicode.IsLetter(r) || unicode.IsDigit(r) {
				return nil, false
			}
		}
	}
	lines = src
	for i, l := range lines {
		if l == "" {
			lines[i] = "//"
		} else if lines[i] = directiveSafe("// " + l); strings.Contains(lines[i], "``") {
			return nil, false // directiveSafe's quotes made two in a row ("go:`")
		}
	}
	return lines, true
}

// onlyItemBrackets reports whether every `[` of s starts `[*]`.
func onlyItemBrackets(s string) bool {
	for {
		i := strings.IndexByte(s, '[')
		if i < 0 {
			return true
		}
		if !strings.HasPrefix(s[i:], "[*]") {
			return false
		}
		s = s[i+3:]
	}
}

// directiveWords are the starts of a comment's text, after the `//` and any blanks,
// that a Go tool reads as a directive even with blanks in between: `+build` (go/build's
// build constraints, which gofmt also hoists to the top of the file as `//go:build`,
// and go vet's buildtag check), `go:` (go vet's buildtag reads `// go:build`-like
// lines; other tools are as lax) and `#cgo` (cgo's preamble, whose lines are read
// without the comment marker). Directives that need the text right after `//`
// (`//go:generate`, `//go:linkname`, `//line`, `//export`, `//extern`) cannot arise:
// every line the emitter writes from registry text starts with "// ", "//\t" or is
// "//".
var directiveWords = []string{"+build", "go:", "#cgo"}

// directiveSafe returns the comment line l (starting with `//`, one line of text
// from the registry) unchanged, unless its text starts with a directiveWord: that first
// word is then put in backquotes ("// +build ignore" → "// `+build` ignore"), which
// keeps the text readable and makes the line no directive for any tool. It is the one
// place comment lines written from registry text pass through (docComment and the
// field comments of structType).
func directiveSafe(l string) string {
	text := strings.TrimLeft(strings.TrimPrefix(l, "//"), " \t")
	for _, w := range directiveWords {
		if strings.HasPrefix(text, w) {
			end := strings.IndexAny(text, " \t")
			if end < 0 {
				end = len(text)
			}
			return l[:len(l)-len(text)] + "`" + text[:end] + "`" + text[end:]
		}
	}
	return l
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

// trimBlank drops a leading blank line from doc lines.
func trimBlank(lines []string) []string {
	if len(lines) > 0 && lines[0] == "" {
		return lines[1:]
	}
	return lines
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

// appendFieldConstraints appends the description of a property to b: presence,
// nullability and its schema's constraints, separated by "; ".
func appendFieldConstraints(b []byte, p *model.Property) []byte {
	if p.Required {
		b = append(b, "required"...)
	} else {
		b = append(b, "optional"...)
	}
	if nullable(p.Schema) {
		b = append(b, "; nullable"...)
	}
	mark := len(b)
	b = append(b, "; "...)
	if c := appendConstraints(b, p.Schema); len(c) > len(b) {
		return c
	}
	return b[:mark]
}

// constraints describes the constraints of a schema, with units ("" for none).
func constraints(s *model.Schema) string { return string(appendConstraints(nil, s)) }

// appendConstraints appends constraints(s) to b, written in place: the parts
// separated by "; ".
func appendConstraints(b []byte, s *model.Schema) []byte {
	start := len(b)
	// part starts a part: the separator unless it is the first.
	part := func(b []byte) []byte {
		if len(b) > start {
			b = append(b, "; "...)
		}
		return b
	}
	if len(s.Enum) > 0 {
		b = append(part(b), "one of "...)
		for i, v := range s.Enum {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = appendEnumLit(b, v)
		}
	}
	// appendRange appends "lo to hi <unit>", "at least lo <unit>" or "at most hi <unit>".
	appendRange := func(b []byte, lo, hi *int64, unit string) []byte {
		switch {
		case lo != nil && hi != nil:
			b = strconv.AppendInt(part(b), *lo, 10)
			b = append(b, " to "...)
			b = strconv.AppendInt(b, *hi, 10)
		case lo != nil:
			b = strconv.AppendInt(append(part(b), "at least "...), *lo, 10)
		case hi != nil:
			b = strconv.AppendInt(append(part(b), "at most "...), *hi, 10)
		default:
			return b
		}
		return append(b, unit...)
	}
	// nested appends "<label><constraints of e>" when e has any.
	nested := func(b []byte, label string, e *model.Schema) []byte {
		if e == nil {
			return b
		}
		mark := len(b)
		b = append(part(b), label...)
		if c := appendConstraints(b, e); len(c) > len(b) {
			return c
		}
		return b[:mark]
	}
	switch s.Kind {
	case model.Ref:
		b = append(append(part(b), "type "...), s.Ref...)
	case model.String:
		b = appendRange(b, s.MinLength, s.MaxLength, " code points")
		if s.Pattern != "" {
			b = append(part(b), "pattern `"...)
			for i := 0; i < len(s.Pattern); i++ {
				if c := s.Pattern[i]; c == '`' {
					b = append(b, "\\x60"...)
				} else {
					b = append(b, c)
				}
			}
			b = append(b, '`')
		}
		if s.Format != "" {
			b = append(append(part(b), "format "...), s.Format...)
		}
	case model.Integer:
		if s.IntFormat == "int32" {
			b = append(part(b), "int32"...)
		}
		var buf [4]intBound
		for _, ib := range intBounds(s, &buf) {
			b = part(b)
			if ib.excl {
				b = append(b, "exclusive "...)
			}
			if ib.isMin {
				b = append(b, "minimum "...)
			} else {
				b = append(b, "maximum "...)
			}
			b = strconv.AppendInt(b, ib.v, 10)
		}
		if s.Encoding == "string" {
			b = append(part(b), "carried as a JSON string in canonical decimal form"...)
		}
	case model.Number:
		for _, nb := range [...]struct {
			w string
			b *model.Bound
		}{{"minimum ", s.Minimum}, {"exclusive minimum ", s.ExclusiveMinimum}, {"maximum ", s.Maximum}, {"exclusive maximum ", s.ExclusiveMaximum}} {
			if nb.b != nil {
				b = strconv.AppendFloat(append(part(b), nb.w...), nb.b.Float(), 'g', -1, 64)
			}
		}
	case model.Money:
		b = append(part(b), "money: amount in minor units, ISO 4217 currency"...)
	case model.Timestamp:
		b = append(part(b), "Unix milliseconds, UTC"...)
	case model.UUID:
		b = append(part(b), "canonical lowercase UUID"...)
	case model.Array:
		b = appendRange(b, s.MinItems, s.MaxItems, " items")
		if s.UniqueItems {
			b = append(part(b), "unique items"...)
		}
		b = nested(b, "items: ", s.Items)
	case model.Map:
		b = nested(b, "values: ", s.Values)
	}
	return b
}

// appendEnumLit appends enumLit(v) to b.
func appendEnumLit(b []byte, v any) []byte {
	switch x := v.(type) {
	case string:
		return strconv.AppendQuote(b, x)
	case int64:
		return strconv.AppendInt(b, x, 10)
	case int:
		return strconv.AppendInt(b, int64(x), 10)
	case float64:
		return strconv.AppendFloat(b, x, 'g', -1, 64)
	case bool:
		return strconv.AppendBool(b, x)
	}
	return fmt.Append(b, v)
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
