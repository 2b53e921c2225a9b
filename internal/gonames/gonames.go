// Package gonames computes every Go identifier bqgen writes, and which package
// declares it, in one place (docs/generated-code.md, "Names").
//
// Plan walks a resolved registry once and lays out the generated tree: the root
// package (the runtime and the named types) and one package per bounded context.
// It assigns names to messages, named types, inline objects, enums, fields and enum
// constants, each in its package's scope, and reports every collision (two things
// that would get the same Go name in one scope, two contexts with one package name,
// a name that cannot be used) with both positions, so that the registry package can
// turn them into BQ030 diagnostics and the Go emitter never sees a clash.
package gonames

import (
	"errors"
	"fmt"
	"go/token"
	"go/types"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/babelqueue/bqgen/internal/gomod"
	"github.com/babelqueue/bqgen/internal/model"
)

// initialisms are written in upper case when they form a whole word of a name, following
// the Go convention (go/lint's list; `order_id` → `OrderID`, `customer_url` → `CustomerURL`).
var initialisms = map[string]bool{
	"ACL": true, "API": true, "ASCII": true, "CPU": true, "CSS": true, "DNS": true,
	"EOF": true, "GUID": true, "HTML": true, "HTTP": true, "HTTPS": true, "ID": true,
	"IP": true, "JSON": true, "LHS": true, "QPS": true, "RAM": true, "RHS": true,
	"RPC": true, "SLA": true, "SMTP": true, "SQL": true, "SSH": true, "TCP": true,
	"TLS": true, "TTL": true, "UDP": true, "UI": true, "UID": true, "UUID": true,
	"URI": true, "URL": true, "URN": true, "UTF8": true, "VM": true, "XML": true,
	"XMPP": true, "XSRF": true, "XSS": true,
}

// Words splits s into words at every character that is not a letter or digit and at
// case changes (`orderId` → order, Id; `HTTPServer` → HTTP, Server). Digits stay with
// the word before them (`v2` is one word).
func Words(s string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, string(cur))
			cur = cur[:0]
		}
	}
	rs := []rune(s)
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush()
			continue
		}
		if len(cur) > 0 && unicode.IsUpper(r) {
			prev := cur[len(cur)-1]
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || (unicode.IsUpper(prev) && nextLower) {
				flush()
			}
		}
		cur = append(cur, r)
	}
	flush()
	return words
}

// Camel joins words into an exported Go identifier: each word capitalised, initialisms
// in upper case, words written in upper case kept so. A result that would start with a digit gets the prefix "N". It returns
// "" when s has no letters or digits.
func Camel(s string) string {
	var b strings.Builder
	for _, w := range Words(s) {
		up := strings.ToUpper(w)
		if initialisms[up] || (len(w) > 1 && w == up && strings.ToLower(w) != w) {
			b.WriteString(up) // an initialism, or a word already in upper case (SKU, EUR)
			continue
		}
		r, size := utf8.DecodeRuneInString(w)
		b.WriteRune(unicode.ToUpper(r))
		b.WriteString(strings.ToLower(w[size:]))
	}
	out := b.String()
	if out != "" {
		if r, _ := utf8.DecodeRuneInString(out); unicode.IsDigit(r) {
			out = "N" + out
		}
	}
	return out
}

// FieldName is the Go field name of a JSON key (`order_id` → `OrderID`).
func FieldName(key string) string { return Camel(key) }

// IsExported reports whether name is a valid exported Go identifier.
func IsExported(name string) bool {
	return token.IsIdentifier(name) && token.IsExported(name)
}

// MessageName is the Go type name of a message inside its context package: the
// event-or-command part of the URN in CamelCase (`urn:babel:orders:created.v2` →
// `CreatedV2`, `urn:babel:billing:invoice.requested` → `InvoiceRequested`). The
// bounded context is not repeated: it is the package (`orders.CreatedV2`).
func MessageName(urn string) string {
	return Camel(model.URNName(urn))
}

// ---- packages ----

// Package is one Go package of the generated tree.
type Package struct {
	// Context is the bounded context whose messages the package holds; "" for
	// the root (runtime) package.
	Context string
	// Dir is the package's directory relative to the output directory,
	// slash-separated: "" for the root package, the package name for a context
	// package ("orders", "useraccounts").
	Dir string
	// Name is the Go package name.
	Name string
	// Pos is where the package was first needed: the first message of the
	// context in URN order (the zero Pos for the root).
	Pos model.Pos
}

// Ident is a package-level Go identifier: its name and the package declaring it.
type Ident struct {
	Pkg  *Package
	Name string
}

// Decl is what Plan names for a schema that declares a Go type (Names.Inline): the
// type, and the names declared with it.
type Decl struct {
	// Ident is the Go type declared for the schema.
	Ident
	// Fields are the Go field names of an object schema, parallel to its
	// Properties (a name even for a field that collides); nil for a schema that
	// is no object.
	Fields []string
	// EnumConsts are the constant names of a schema with an enum, parallel to its
	// Enum, declared in the package of Ident; nil for a schema without an enum.
	EnumConsts []string
}

// BqrtDir is the directory, relative to the output directory, of the generated
// runtime's internal machinery (package bqrt); Go's internal rule keeps it
// importable only from the generated tree.
const BqrtDir = "internal/bqrt"

// reservedRoot are names the root package may not have: the names the
// generated files of the context packages import (context, log/slog, regexp,
// the machinery bqrt) or declare as parameters and locals, which the root's
// import name would shadow.
var reservedRoot = map[string]bool{
	"bqrt": true, "context": true, "slog": true, "regexp": true,
	"b": true, "ctx": true, "data": true, "h": true, "opts": true, "r": true, "x": true,
}

// reservedDir are directory names the go tool treats specially: `internal`
// restricts importers, `testdata` and `vendor` are skipped by `./...`.
var reservedDir = map[string]bool{"internal": true, "testdata": true, "vendor": true}

// CheckPackage reports why name cannot be the Go package name of the generated
// root package, or nil when it can: it must be an identifier that is not a
// keyword (go/token), not the blank identifier, not a predeclared identifier
// (go/types' universe: a package named `string` would hide the type from the
// context packages that import it), not one the go tool treats specially
// (`main` builds a command, `documentation` is ignored, `init` cannot be
// imported), and not one the generated context files need for themselves
// (reservedRoot, and the forms of their package-level variables: PatternVar,
// PIIVar, DescVar). The context files import the root package under its name, so
// any of these would be redeclared or shadowed there; the emitter's tests derive the
// list from the generated files.
func CheckPackage(name string) error {
	switch {
	case token.IsKeyword(name):
		return errors.New("a Go keyword")
	case !token.IsIdentifier(name) || name == "_":
		return errors.New("not a Go identifier")
	case types.Universe.Lookup(name) != nil:
		return errors.New("a predeclared Go identifier")
	case name == "main" || name == "documentation" || name == "init":
		return errors.New("a name the go tool treats specially")
	case reservedRoot[name]:
		return errors.New("a name the generated context packages use for an import or a parameter")
	case isGeneratedVar(name):
		return errors.New("a name of the form of the variables the generated context packages declare (pattern0, piiCreated, tdCreated)")
	}
	return nil
}

// ValidPackage reports whether CheckPackage accepts name.
func ValidPackage(name string) bool { return CheckPackage(name) == nil }

// contextReserved reports whether a context package may not be called name:
// the rules of CheckPackage that apply to an imported package (keywords,
// predeclared identifiers, main, documentation, init), the directories the go
// tool treats specially, bqrt, and the root package's own name.
func contextReserved(name, root string) bool {
	return token.IsKeyword(name) || types.Universe.Lookup(name) != nil ||
		name == "main" || name == "documentation" || name == "init" || name == "bqrt" ||
		reservedDir[name] || name == root
}

// ContextPackage returns the Go package name, which is also the directory, of
// the bounded context ctx (`[a-z0-9-]+`) when the root package is called root:
// the context without its hyphens (`user-accounts` → `useraccounts`), with the
// prefix "n" when it would start with a digit (`2fa` → `n2fa`), and the suffix
// "pkg" when the result is reserved (a keyword or predeclared identifier, main,
// documentation, init, internal, testdata, vendor, bqrt, or root itself:
// `string` → `stringpkg`). It returns "" when no name can be derived.
func ContextPackage(ctx, root string) string {
	var b strings.Builder
	for _, r := range ctx {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
		}
	}
	name := b.String()
	if name == "" {
		return ""
	}
	if name[0] >= '0' && name[0] <= '9' {
		name = "n" + name
	}
	if contextReserved(name, root) {
		name += "pkg"
	}
	return name
}

// ---- names ----

// StructMethods are the methods generated on every struct; a field may not share their
// names. BabelQueueMessage is the hook of message data types (the runtime's
// MessageData constraint).
var StructMethods = []string{"BabelQueueMessage", "LogValue", "MarshalJSON", "String", "UnmarshalJSON", "Validate"}

// Names holds the Go identifiers of one registry. Every map is keyed by the model node
// the name belongs to.
type Names struct {
	// Root is the root package: the runtime, the named types and what is
	// declared inside them.
	Root *Package
	// Contexts are the context packages, sorted by Dir: each holds the messages
	// of one bounded context and what is declared inside them.
	Contexts []*Package
	// Messages maps each message to its data type (`orders.Created`). The derived
	// identifiers, in the same package, are MessageIdentsOf(name).
	Messages map[*model.Message]Ident
	// Types maps each named type to its Go type (in the root package).
	Types map[*model.NamedType]Ident
	// Inline maps every object schema (an inline object, a message's data, a named
	// type's own schema) and every schema with an enum to the Go type declared for it
	// (`orders.CreatedLinesItem`, `orders.CreatedChannel`; a named type's schema maps
	// to the named type), with the Go names of its fields or enum constants (Decl).
	// No other schema has an entry. One map for the three (the type, the fields, the
	// constants) is one lookup per declared type where the emitter made one per
	// property: on a registry of 10,000 URNs, a map keyed by each of its ~220,000
	// properties was a third of the emitter's map lookups, missing the CPU cache.
	Inline map[*model.Schema]Decl
	// Patterns maps, per package, each distinct `pattern:` used by the schemas
	// declared there to the unexported package-level variable holding it
	// compiled (PatternVar of its index in the package's sorted patterns), so
	// that every pattern is compiled once per package.
	Patterns map[*Package]map[string]string

	byContext map[string]*Package
}

// Context returns the package of the bounded context ctx, or nil.
func (n *Names) Context(ctx string) *Package { return n.byContext[ctx] }

// PatternVar is the name of the package-level variable of the i-th distinct pattern
// of a package (patterns sorted bytewise). The generated runtime declares no
// identifier of this form.
func PatternVar(i int) string { return "pattern" + strconv.Itoa(i) }

// PIIVar is the name of the package-level variable listing the protected paths of
// the message type typeName (`piiCreated`), in the message's context package.
func PIIVar(typeName string) string { return "pii" + typeName }

// DescVar is the name of the package-level descriptor variable of the type typeName
// (`tdCreated`), in the package declaring the type.
func DescVar(typeName string) string { return "td" + typeName }

// isGeneratedVar reports whether name has the form of a package-level variable the
// generated files declare: PatternVar (pattern0), PIIVar or DescVar of an exported
// name (piiCreated, tdCreated).
func isGeneratedVar(name string) bool {
	if rest, ok := strings.CutPrefix(name, "pattern"); ok && rest != "" && strings.Trim(rest, "0123456789") == "" {
		return true
	}
	for _, p := range []string{"pii", "td"} {
		if rest, ok := strings.CutPrefix(name, p); ok && IsExported(rest) {
			return true
		}
	}
	return false
}

// MessageIdents are the identifiers generated for one message in its context
// package, all derived from its data type's name (Names.Messages).
type MessageIdents struct {
	Type string // Created
	URN  string // CreatedURN (constant)
}

// MessageIdentsOf returns the identifiers derived from a message's data type name.
func MessageIdentsOf(name string) MessageIdents {
	return MessageIdents{Type: name, URN: name + "URN"}
}

// Collision is two things that would get the same Go identifier in one scope, or a
// name that cannot be used.
type Collision struct {
	// Name is the Go identifier both would get ("" when none could be derived).
	Name string
	// What describes the thing at Pos (`field "orderId" of urn:babel:orders:created`).
	What string
	// Pos is the later of the two in source order; Other the earlier one, or the zero
	// Pos when the other side is generated code (a runtime type or a method).
	Pos, Other model.Pos
	// OtherWhat describes the thing at Other.
	OtherWhat string
	// Hint says how to resolve it.
	Hint string
	// Msg, when set, is the whole message (the problem is not a collision).
	Msg string
	// ImportPath marks a package directory the go tool refuses as an import path
	// element (gomod.CheckElem; rule BQ053), not a name collision (BQ030).
	ImportPath bool
}

// Message describes the collision in one sentence (rule BQ030's message).
func (c Collision) Message() string {
	switch {
	case c.Msg != "":
		return c.Msg
	case c.OtherWhat != "" && c.Other.IsValid():
		return fmt.Sprintf("Go name %q of %s collides with %s at %s", c.Name, c.What, c.OtherWhat, c.Other)
	case c.OtherWhat != "":
		return fmt.Sprintf("Go name %q of %s collides with %s", c.Name, c.What, c.OtherWhat)
	case c.Name == "":
		return fmt.Sprintf("no Go name can be derived for %s", c.What)
	}
	return fmt.Sprintf("Go name %q of %s is not usable", c.Name, c.What)
}

// owner is what claimed a name in a scope, described only when a collision needs it.
type owner struct {
	// what describes the owner; for an enum value (enumValue true) it describes
	// the enum, and value is the value's text.
	what      string
	value     string
	enumValue bool
	pos       model.Pos
}

// describe is the description of o (Collision.What).
func (o owner) describe() string {
	if o.enumValue {
		return "enum value " + quote(o.value) + " of " + o.what
	}
	return o.what
}

type planner struct {
	// fieldNames memoizes FieldName: registries repeat their JSON keys (id,
	// created_at, …) across thousands of objects.
	fieldNames map[string]string
	// enumSuffixes memoizes enumSuffix: enum values (pending, active, …) repeat too.
	enumSuffixes map[string]string
	n            *Names
	// scopes are the package-level identifiers claimed so far, per package;
	// lastPkg and lastScope the last one looked up (claims come in runs of one
	// package).
	scopes    map[*Package]map[string]owner
	lastPkg   *Package
	lastScope map[string]owner
	// claims are about how many names each scope will hold, by bounded context
	// ("" for the root package): the sizes its map is made with.
	claims map[string]int
	// pats are the patterns used in each package.
	pats   map[*Package]map[string]bool
	colls  []Collision
	record bool // fill n's maps (Plan), or only find collisions (Collisions)
}

// Plan assigns Go names to everything in reg that needs one and returns the collisions.
// root is the Go package name of the root package. The emitter must only be run on a
// registry for which Plan returns no collision.
func Plan(reg *model.Registry, root string) (*Names, []Collision) {
	return plan(reg, root, true)
}

// Collisions returns the collisions Plan would return, without recording the names:
// what rule BQ030 needs, for a third of Plan's time on a large registry.
func Collisions(reg *model.Registry, root string) []Collision {
	_, colls := plan(reg, root, false)
	return colls
}

// plan is Plan; record false leaves the Names maps empty (Collisions).
func plan(reg *model.Registry, root string, record bool) (*Names, []Collision) {
	p := &planner{
		n:          &Names{Root: &Package{Name: root}, byContext: map[string]*Package{}},
		scopes:     map[*Package]map[string]owner{},
		pats:       map[*Package]map[string]bool{},
		fieldNames: map[string]string{},
		record:     record,
	}
	// One walk first: the sizes of the maps (growing maps of hundreds of thousands
	// of entries was a fifth of the planning): the entries of Names.Inline, and the
	// names each package claims (two per message, one per declared type and enum
	// constant), by bounded context ("" for the root package).
	inline := 0
	p.claims = map[string]int{"": len(RuntimeIdentifiers())}
	for _, t := range reg.Types {
		decls, consts := countDecls(t.Schema)
		inline += decls
		p.claims[""] += decls + consts
	}
	for _, m := range reg.Messages {
		decls, consts := countDecls(m.Data)
		inline += decls
		p.claims[m.Context()] += 1 + decls + consts
	}
	if record {
		p.n.Messages = make(map[*model.Message]Ident, len(reg.Messages))
		p.n.Types = make(map[*model.NamedType]Ident, len(reg.Types))
		p.n.Inline = make(map[*model.Schema]Decl, inline)
		p.n.Patterns = map[*Package]map[string]string{}
	}
	return p.run(reg)
}

// countDecls counts the schemas at and below s (named types not followed) that get
// an entry in Names.Inline, objects and schemas with an enum, and their enum values.
func countDecls(s *model.Schema) (decls, enumValues int) {
	if s == nil {
		return 0, 0
	}
	if len(s.Enum) > 0 || s.Kind == model.Object {
		decls++
	}
	enumValues = len(s.Enum)
	for _, p := range s.Properties {
		d, e := countDecls(p.Schema)
		decls, enumValues = decls+d, enumValues+e
	}
	for _, sub := range [2]*model.Schema{s.Items, s.Values} {
		d, e := countDecls(sub)
		decls, enumValues = decls+d, enumValues+e
	}
	return decls, enumValues
}

// scope returns the claim table of pkg.
func (p *planner) scope(pkg *Package) map[string]owner {
	if pkg == p.lastPkg && p.lastScope != nil {
		return p.lastScope
	}
	s := p.scopes[pkg]
	if s == nil {
		s = make(map[string]owner, p.claims[pkg.Context])
		p.scopes[pkg] = s
	}
	p.lastPkg, p.lastScope = pkg, s
	return s
}

// run plans reg.
func (p *planner) run(reg *model.Registry) (*Names, []Collision) {
	root := p.n.Root
	rs := p.scope(root)
	for _, id := range RuntimeIdentifiers() {
		rs[id] = owner{what: "the generated runtime's " + id}
	}
	for _, t := range reg.Types {
		name := t.Name
		if t.Schema != nil && t.Schema.GoName != "" {
			name = t.Schema.GoName
		}
		what := "type " + t.Name
		p.claim(root, name, what, t.Pos, "rename the type or set `go: {name: …}` on it")
		if p.record {
			p.n.Types[t] = Ident{root, name}
		}
		p.schema(root, t.Schema, name, what, true)
	}
	p.contexts(reg)
	for _, m := range reg.Messages {
		pkg := p.n.Context(m.Context())
		if pkg == nil || pkg.Name == "" {
			continue // reported by contexts
		}
		name := MessageName(m.URN)
		if m.GoName != "" {
			name = m.GoName
		}
		what := "message " + m.URN
		hint := "set `go: {name: …}` on one of the messages (the URN stays as it is)"
		// The URN constant is claimed only when the type's name was: its collision
		// would repeat the type's.
		if p.claim(pkg, name, what, m.Pos, hint) {
			ids := MessageIdentsOf(name)
			p.claim(pkg, ids.URN, what+" (generated "+ids.URN+")", m.Pos, hint)
		}
		if p.record {
			p.n.Messages[m] = Ident{pkg, name}
		}
		p.schema(pkg, m.Data, name, what, true)
	}
	if p.record {
		p.patterns()
	}
	sort.SliceStable(p.colls, func(i, j int) bool { return less(p.colls[i].Pos, p.colls[j].Pos) })
	return p.n, p.colls
}

// contexts plans the context packages: one per bounded context, named by
// ContextPackage or `go.contexts`, each name used once.
func (p *planner) contexts(reg *model.Registry) {
	byName := map[string]owner{}
	var pkgs []*Package
	seen := map[string]bool{}
	for _, m := range reg.Messages { // sorted by URN: the first message of each context
		ctx := m.Context()
		if seen[ctx] {
			continue
		}
		seen[ctx] = true
		what := "bounded context " + quote(ctx)
		name, pos := ContextPackage(ctx, p.n.Root.Name), m.Pos
		hint := "two bounded contexts map to one Go package; name one with `go: {contexts: {" + ctx + ": othername}}`"
		if over, ok := reg.GoContexts[ctx]; ok {
			name = over.Name
			if over.Pos.IsValid() {
				pos = over.Pos
			}
			switch {
			case !isPackageName(over.Name):
				p.colls = append(p.colls, Collision{Name: over.Name, What: what + " (go.contexts)", Pos: pos,
					Hint: "a context package name is lower-case letters and digits, starting with a letter"})
				name = ""
			case contextReserved(over.Name, p.n.Root.Name):
				p.colls = append(p.colls, Collision{Name: over.Name, What: what + " (go.contexts)", Pos: pos,
					Hint: "choose another name: keywords, predeclared identifiers, main, documentation, init, internal, testdata, vendor, bqrt and the root package's name are reserved"})
				name = ""
			}
		} else if name == "" {
			p.colls = append(p.colls, Collision{What: what, Pos: pos,
				Hint: "no Go package name can be derived; set one with `go: {contexts: {" + ctx + ": name}}`"})
		}
		if name != "" {
			if err := gomod.CheckElem(name); err != nil {
				c := Collision{Name: name, What: what, Pos: pos, ImportPath: true,
					Msg:  fmt.Sprintf("the Go package directory %q of %s cannot be in an import path: %v", name, what, err),
					Hint: "name the package with `go: {contexts: {" + ctx + ": " + name + "pkg}}`"}
				if over, ok := reg.GoContexts[ctx]; ok && over.Name == name {
					c.What += " (go.contexts)"
					c.Msg = fmt.Sprintf("the Go package directory %q that go.contexts gives %s cannot be in an import path: %v", name, what, err)
					c.Hint = "choose another name in `go: {contexts: {" + ctx + ": …}}`, such as " + name + "pkg"
				}
				p.colls = append(p.colls, c)
				name = ""
			}
		}
		pkg := &Package{Context: ctx, Dir: name, Name: name, Pos: m.Pos}
		pkgs = append(pkgs, pkg)
		p.n.byContext[ctx] = pkg
		if name == "" {
			continue
		}
		if prev, ok := byName[name]; ok {
			p.colls = append(p.colls, Collision{Name: name, What: what, Pos: pos, Other: prev.pos, OtherWhat: prev.what, Hint: hint,
				Msg: fmt.Sprintf("Go package name %q of %s collides with %s at %s", name, what, prev.what, prev.pos)})
			pkg.Name, pkg.Dir = "", ""
			continue
		}
		byName[name] = owner{what: what, pos: pos}
	}
	var unused []string
	for ctx := range reg.GoContexts {
		if !seen[ctx] {
			unused = append(unused, ctx)
		}
	}
	sort.Strings(unused)
	for _, ctx := range unused {
		c := reg.GoContexts[ctx]
		p.colls = append(p.colls, Collision{Name: c.Name, What: "bounded context " + quote(ctx) + " (go.contexts)", Pos: c.Pos,
			Msg:  "go.contexts names bounded context " + quote(ctx) + ", which has no message",
			Hint: "remove the entry, or correct the context's name"})
	}
	sort.SliceStable(pkgs, func(i, j int) bool { return pkgs[i].Dir < pkgs[j].Dir })
	p.n.Contexts = pkgs
}

// isPackageName reports whether s is lower-case letters and digits, starting
// with a letter: the form of a context package name.
func isPackageName(s string) bool {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for _, r := range s {
		if (r < 'a' || r > 'z') && (r < '0' || r > '9') {
			return false
		}
	}
	return true
}

// patterns names the distinct patterns of each package, in sorted order.
func (p *planner) patterns() {
	for pkg, pats := range p.pats {
		all := make([]string, 0, len(pats))
		for pat := range pats {
			all = append(all, pat)
		}
		sort.Strings(all)
		m := make(map[string]string, len(all))
		for i, pat := range all {
			m[pat] = PatternVar(i)
		}
		p.n.Patterns[pkg] = m
	}
}

func less(a, b model.Pos) bool {
	if a.File != b.File {
		return a.File < b.File
	}
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	return a.Column < b.Column
}

// claim reserves a package-level identifier of pkg; it reports whether it could.
func (p *planner) claim(pkg *Package, name, what string, pos model.Pos, hint string) bool {
	return p.claimFor(pkg, name, owner{what: what, pos: pos}, hint)
}

// claimFor is claim for the owner o; the hint of a collision with an earlier claim
// is hint, or for an enum value enumValueHint, built only then.
func (p *planner) claimFor(pkg *Package, name string, o owner, hint string) bool {
	if name == "" {
		p.colls = append(p.colls, Collision{What: o.describe(), Pos: o.pos, Hint: "no Go identifier can be derived; set `go: {name: …}`"})
		return false
	}
	if !IsExported(name) {
		p.colls = append(p.colls, Collision{Name: name, What: o.describe(), Pos: o.pos, Hint: "`go.name` must be an exported Go identifier (an upper-case letter, then letters, digits or _)"})
		return false
	}
	s := p.scope(pkg)
	if prev, ok := s[name]; ok {
		if o.enumValue {
			hint = enumValueHint(o.value)
		}
		p.colls = append(p.colls, Collision{Name: name, What: o.describe(), Pos: o.pos, Other: prev.pos, OtherWhat: prev.describe(), Hint: hint})
		return false
	}
	s[name] = o
	return true
}

// enumValueHint is the hint of a collision of the constant of the enum value of
// text text.
func enumValueHint(text string) string {
	return "map the values to distinct names with `go: {enum: {" + strconv.Quote(text) + ": SomeName}}`"
}

// schema names the types declared for s and below it, in package pkg. typeName is
// the Go name s gets if it needs a type of its own; isDecl says s is the top schema
// of a named type or a message (already claimed).
func (p *planner) schema(pkg *Package, s *model.Schema, typeName, what string, isDecl bool) {
	if s == nil || s.Kind == model.Ref {
		return
	}
	if s.Pattern != "" && p.record {
		if p.pats[pkg] == nil {
			p.pats[pkg] = map[string]bool{}
		}
		p.pats[pkg][s.Pattern] = true
	}
	var d Decl
	if len(s.Enum) > 0 {
		if !isDecl {
			p.claim(pkg, typeName, "enum of "+what, s.Pos, "set `go: {name: …}` on the field")
		}
		d.EnumConsts = p.enum(pkg, s, typeName, what)
	}
	switch s.Kind {
	case model.Object:
		if !isDecl {
			p.claim(pkg, typeName, "object "+what, s.Pos, "set `go: {name: …}` on the field, or move the object to `types:`")
		}
		if p.record {
			d.Fields = make([]string, len(s.Properties))
		}
		// The struct's own names: the generated methods, then the fields in order
		// (index into s.Properties, or -1 for a method). Descriptions ("field … of
		// …") are built only for a collision or a type declared below the field.
		var fields structScope
		for _, m := range StructMethods {
			fields.put(m, -1)
		}
		fieldWhat := func(prop *model.Property) string { return "field " + quote(prop.Name) + " of " + what }
		for i, prop := range s.Properties {
			fname, ok := p.fieldNames[prop.Name]
			if !ok {
				fname = FieldName(prop.Name)
				p.fieldNames[prop.Name] = fname
			}
			if prop.Schema != nil && prop.Schema.GoName != "" {
				fname = prop.Schema.GoName
			}
			switch prev, ok := fields.get(fname); {
			case fname == "":
				p.colls = append(p.colls, Collision{What: fieldWhat(prop), Pos: prop.Pos, Hint: "no Go identifier can be derived from this key; set `go: {name: …}` on it"})
			case !IsExported(fname):
				p.colls = append(p.colls, Collision{Name: fname, What: fieldWhat(prop), Pos: prop.Pos, Hint: "`go.name` must be an exported Go identifier"})
			case ok && prev < 0:
				p.colls = append(p.colls, Collision{Name: fname, What: fieldWhat(prop), Pos: prop.Pos, OtherWhat: "the generated method " + fname, Hint: "set `go: {name: …}` on the field"})
			case ok:
				other := s.Properties[prev]
				p.colls = append(p.colls, Collision{Name: fname, What: fieldWhat(prop), Pos: prop.Pos, Other: other.Pos, OtherWhat: fieldWhat(other), Hint: "set `go: {name: …}` on one of the fields"})
			default:
				fields.put(fname, i)
			}
			if p.record {
				d.Fields[i] = fname
			}
			if !declares(prop.Schema) {
				continue
			}
			p.schema(pkg, prop.Schema, typeName+fname, fieldWhat(prop), false)
		}
	case model.Array:
		p.schema(pkg, s.Items, typeName+elemName(s.Items, "Item"), "items of "+what, false)
	case model.Map:
		p.schema(pkg, s.Values, typeName+elemName(s.Values, "Value"), "values of "+what, false)
	}
	// Recorded once the fields are named (nothing below s reaches s: the walk
	// stops at references).
	if p.record && (len(s.Enum) > 0 || s.Kind == model.Object) {
		d.Ident = Ident{pkg, typeName}
		p.n.Inline[s] = d
	}
}

// structScope is the names of one struct's methods and fields claimed so far: the
// index of the field in the properties, or -1 for a method. Structs are small: up to
// smallStruct names are looked up in a slice (a map per struct was a sixth of the
// planning's allocations); a struct with more gets a map, so that a hostile object of
// thousands of properties is not quadratic.
type structScope struct {
	small [smallStruct]structName
	n     int // names in small
	m     map[string]int
}

type structName struct {
	name  string
	index int
}

// smallStruct is the most names a structScope holds without a map.
const smallStruct = 40

func (s *structScope) get(name string) (int, bool) {
	if s.m != nil {
		i, ok := s.m[name]
		return i, ok
	}
	for _, n := range s.small[:s.n] {
		if n.name == name {
			return n.index, true
		}
	}
	return 0, false
}

// put records name, which get does not find.
func (s *structScope) put(name string, index int) {
	if s.m == nil && s.n < smallStruct {
		s.small[s.n] = structName{name, index}
		s.n++
		return
	}
	if s.m == nil {
		s.m = make(map[string]int, 2*smallStruct)
		for _, n := range s.small[:s.n] {
			s.m[n.name] = n.index
		}
	}
	s.m[name] = index
}

// elemName is the part of the Go name of the type declared for array items or
// map values that follows the enclosing type's name: its `go.name`, else def.
func elemName(s *model.Schema, def string) string {
	if s != nil && s.GoName != "" {
		return s.GoName
	}
	return def
}

// declares reports whether planner.schema has anything to name at or below s: an
// enum, an object, or an array or map (whose items or values may be one), or a
// pattern to compile.
func declares(s *model.Schema) bool {
	if s == nil || s.Kind == model.Ref {
		return false
	}
	return len(s.Enum) > 0 || s.Kind == model.Object || s.Kind == model.Array || s.Kind == model.Map || s.Pattern != ""
}

// enum names the constants of an enum type declared in pkg, and returns them when
// the names are recorded.
func (p *planner) enum(pkg *Package, s *model.Schema, typeName, what string) []string {
	var consts []string
	if p.record {
		consts = make([]string, len(s.Enum))
	}
	for i, v := range s.Enum {
		text := EnumText(v)
		suffix, ok := p.enumSuffixes[text]
		if !ok {
			suffix = enumSuffix(text)
			if p.enumSuffixes == nil {
				p.enumSuffixes = map[string]string{}
			}
			p.enumSuffixes[text] = suffix
		}
		name := typeName + suffix
		if over, ok := s.GoEnumNames[text]; ok {
			name = over
		}
		p.claimFor(pkg, name, owner{what: what, value: text, enumValue: true, pos: s.EnumValuePos(i)}, "")
		if consts != nil {
			consts[i] = name
		}
	}
	return consts
}

// enumSuffix is the part of an enum constant's name that follows its type's name, for
// the enum value of text text.
func enumSuffix(text string) string {
	suffix := Camel(text)
	if strings.HasPrefix(text, "-") {
		suffix = "Minus" + suffix
	}
	if suffix == "" {
		suffix = "Empty"
	}
	return suffix
}

// EnumText is the text of an enum value as used in `go: {enum: …}` keys and constant
// names: the string itself, or the number's decimal form.
func EnumText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case bool:
		if x {
			return "true"
		}
		return "false"
	}
	return ""
}

// quote is s in Go double quotes, non-printable characters escaped (U+2028 and the
// like must not reach a terminal raw).
func quote(s string) string { return strconv.Quote(s) }
