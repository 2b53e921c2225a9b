// Package gonames computes every Go identifier bqgen writes, in one place.
//
// Plan walks a resolved registry once and assigns names to messages, named types,
// inline objects, enums, fields and enum constants; it reports every collision (two
// things that would get the same Go name in one scope) with both positions, so that the
// registry package can turn them into BQ030 diagnostics and the Go emitter never sees
// a clash.
package gonames

import (
	"go/token"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

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

// MessageName is the Go type name of a message: the URN without its `urn:babel:` prefix,
// in CamelCase (`urn:babel:orders:created.v2` → `OrdersCreatedV2`).
func MessageName(urn string) string {
	return Camel(strings.TrimPrefix(urn, "urn:babel:"))
}

// FieldName is the Go field name of a JSON key (`order_id` → `OrderID`).
func FieldName(key string) string { return Camel(key) }

// IsExported reports whether name is a valid exported Go identifier.
func IsExported(name string) bool {
	return token.IsIdentifier(name) && token.IsExported(name)
}

// ValidPackage reports whether name can be the Go package name of a generated library
// package: an identifier that is not a keyword (go/token), not the blank identifier, and
// not one the go tool treats specially ("main" builds a command and needs func main;
// "documentation" is ignored by go build).
func ValidPackage(name string) bool {
	return token.IsIdentifier(name) && !token.IsKeyword(name) && name != "_" && name != "main" && name != "documentation"
}

// RuntimeIdentifiers are the exported package-level names the generated runtime
// (babelqueue.go) declares; a registry name that maps onto one of them collides.
var RuntimeIdentifiers = []string{
	"DeadLetter", "DeadLetterReason", "DeadLetterReasonOf", "DefaultMaxBodySize", "ErrInvalidData",
	"ErrMalformedEnvelope", "ErrUnknownURN", "ErrUnsupportedSchemaVersion", "Message",
	"Meta", "Money", "NewRouter", "NewUUID", "Nullable", "NullableOf", "Option", "Ptr", "Publisher",
	"ReasonFailed", "ReasonPoison", "ReasonUnknownURN", "Router", "RouterOption", "Timestamp",
	"TimestampOf", "UUID", "ValidationError", "ValidationErrors", "WithClock",
	"WithIDSource", "WithMaxBodySize", "WithQueue", "WithTraceID",
}

// StructMethods are the methods generated on every struct; a field may not share their
// names.
var StructMethods = []string{"LogValue", "MarshalJSON", "String", "UnmarshalJSON", "Validate"}

// Names holds the Go identifiers of one registry. Every map is keyed by the model node
// the name belongs to.
type Names struct {
	// Package is the Go package name.
	Package string
	// Messages maps each message to its struct name (`OrdersCreated`). The derived
	// identifiers are MessageURN + "URN", "New" + name, "Publish" + name, "Decode" +
	// name, name + "Handler", name + "HandlerFunc" and the Router method "Handle" + name.
	Messages map[*model.Message]string
	// Types maps each named type to its Go type name.
	Types map[*model.NamedType]string
	// Inline maps an inline object schema, or a schema with an enum, to the Go type
	// declared for it (`OrdersCreatedLinesItem`, `OrdersCreatedChannel`). Named types'
	// own schemas map to the named type's name.
	Inline map[*model.Schema]string
	// Fields maps each property to its Go field name.
	Fields map[*model.Property]string
	// EnumConsts maps a schema with an enum to its constant names, parallel to Enum.
	EnumConsts map[*model.Schema][]string
	// Patterns maps each distinct `pattern:` of the registry to the unexported
	// package-level variable holding it compiled (PatternVar of its index in the sorted
	// list of patterns), so that every pattern is compiled once.
	Patterns map[string]string
}

// PatternVar is the name of the package-level variable of the i-th distinct pattern
// (patterns sorted bytewise). The generated runtime declares no identifier of this form.
func PatternVar(i int) string { return "pattern" + strconv.Itoa(i) }

// MessageIdents are the identifiers generated for one message, all derived from its
// struct name (Names.Messages).
type MessageIdents struct {
	Type        string // OrdersCreated
	URN         string // OrdersCreatedURN (constant)
	New         string // NewOrdersCreated
	Publish     string // PublishOrdersCreated
	Decode      string // DecodeOrdersCreated
	Handler     string // OrdersCreatedHandler (interface)
	HandlerFunc string // OrdersCreatedHandlerFunc (adapter)
	Handle      string // HandleOrdersCreated (the Handler method and the Router method)
}

// MessageIdentsOf returns the identifiers derived from a message's struct name.
func MessageIdentsOf(name string) MessageIdents {
	return MessageIdents{
		Type: name, URN: name + "URN", New: "New" + name, Publish: "Publish" + name,
		Decode: "Decode" + name, Handler: name + "Handler", HandlerFunc: name + "HandlerFunc",
		Handle: "Handle" + name,
	}
}

// Collision is two things that would get the same Go identifier in one scope.
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
}

type owner struct {
	what string
	pos  model.Pos
}

type planner struct {
	// fieldNames memoizes FieldName: registries repeat their JSON keys (id,
	// created_at, …) across thousands of objects.
	fieldNames map[string]string
	n          *Names
	pkg        map[string]owner
	colls      []Collision
	record     bool // fill n's maps (Plan), or only find collisions (Collisions)
}

// Plan assigns Go names to everything in reg that needs one and returns the collisions.
// pkg is the Go package name. The emitter must only be run on a registry for which Plan
// returns no collision.
func Plan(reg *model.Registry, pkg string) (*Names, []Collision) {
	return plan(reg, pkg, true)
}

// Collisions returns the collisions Plan would return, without recording the names:
// what rule BQ030 needs, for a third of Plan's time on a large registry.
func Collisions(reg *model.Registry, pkg string) []Collision {
	_, colls := plan(reg, pkg, false)
	return colls
}

// plan is Plan; record false leaves the Names maps empty (Collisions).
func plan(reg *model.Registry, pkg string, record bool) (*Names, []Collision) {
	if !record {
		p := &planner{n: &Names{Package: pkg}, pkg: make(map[string]owner, len(RuntimeIdentifiers)+8*len(reg.Messages)), fieldNames: map[string]string{}}
		return p.run(reg, nil)
	}
	// One walk first: the registry's patterns, and the sizes of the maps (growing
	// maps of hundreds of thousands of entries was a fifth of the planning).
	var props, inline, enums int
	pats := map[string]bool{}
	count := func(_ string, s *model.Schema) {
		if s.Pattern != "" {
			pats[s.Pattern] = true
		}
		if len(s.Enum) > 0 {
			enums++
			inline++
		} else if s.Kind == model.Object {
			inline++
		}
		props += len(s.Properties)
	}
	for _, t := range reg.Types {
		model.Walk(t.Schema, "$", count)
	}
	for _, m := range reg.Messages {
		model.Walk(m.Data, "$", count)
	}
	p := &planner{
		n: &Names{
			Package:    pkg,
			Messages:   make(map[*model.Message]string, len(reg.Messages)),
			Types:      make(map[*model.NamedType]string, len(reg.Types)),
			Inline:     make(map[*model.Schema]string, inline),
			Fields:     make(map[*model.Property]string, props),
			EnumConsts: make(map[*model.Schema][]string, enums),
			Patterns:   make(map[string]string, len(pats)),
		},
		pkg:        make(map[string]owner, len(RuntimeIdentifiers)+8*len(reg.Messages)+inline),
		fieldNames: map[string]string{},
		record:     true,
	}
	return p.run(reg, pats)
}

// run plans reg; pats are its patterns (named only when p.record).
func (p *planner) run(reg *model.Registry, pats map[string]bool) (*Names, []Collision) {
	for _, id := range RuntimeIdentifiers {
		p.pkg[id] = owner{what: "the generated runtime's " + id}
	}
	for _, t := range reg.Types {
		name := t.Name
		if t.Schema != nil && t.Schema.GoName != "" {
			name = t.Schema.GoName
		}
		what := "type " + t.Name
		p.claim(name, what, t.Pos, "rename the type or set `go: {name: …}` on it")
		if p.record {
			p.n.Types[t] = name
		}
		p.schema(t.Schema, name, what, true)
	}
	for _, m := range reg.Messages {
		name := MessageName(m.URN)
		what := "message " + m.URN
		hint := "URNs that differ only in punctuation map to one Go name; rename one of them"
		p.claim(name, what, m.Pos, hint)
		ids := MessageIdentsOf(name)
		for _, derived := range []string{ids.URN, ids.New, ids.Publish, ids.Decode, ids.Handler, ids.HandlerFunc} {
			p.claim(derived, what+" (generated "+derived+")", m.Pos, hint)
		}
		if p.record {
			p.n.Messages[m] = name
		}
		p.schema(m.Data, name, what, true)
	}
	if p.record {
		p.patterns(pats)
	}
	files := map[string]owner{"babelqueue.go": {what: "the generated runtime"}, "types.go": {what: "the named types"}}
	for _, m := range reg.Messages {
		ctx := m.Context()
		file := ContextFile(ctx)
		what := "bounded context " + quote(ctx)
		if prev, ok := files[file]; ok && prev.what != what {
			p.colls = append(p.colls, Collision{Name: file, What: what + " (file " + file + ")", Pos: m.Pos, Other: prev.pos, OtherWhat: prev.what,
				Hint: "two bounded contexts map to one Go file; rename one of them"})
			continue
		}
		if _, ok := files[file]; !ok {
			files[file] = owner{what: what, pos: m.Pos}
		}
	}
	sort.SliceStable(p.colls, func(i, j int) bool { return less(p.colls[i].Pos, p.colls[j].Pos) })
	return p.n, p.colls
}

// patterns names the distinct patterns of the registry, in sorted order.
func (p *planner) patterns(pats map[string]bool) {
	all := make([]string, 0, len(pats))
	for pat := range pats {
		all = append(all, pat)
	}
	sort.Strings(all)
	for i, pat := range all {
		p.n.Patterns[pat] = PatternVar(i)
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

// claim reserves a package-level identifier.
func (p *planner) claim(name, what string, pos model.Pos, hint string) {
	if name == "" {
		p.colls = append(p.colls, Collision{What: what, Pos: pos, Hint: "no Go identifier can be derived; set `go: {name: …}`"})
		return
	}
	if !IsExported(name) {
		p.colls = append(p.colls, Collision{Name: name, What: what, Pos: pos, Hint: "`go.name` must be an exported Go identifier (an upper-case letter, then letters, digits or _)"})
		return
	}
	if prev, ok := p.pkg[name]; ok {
		p.colls = append(p.colls, Collision{Name: name, What: what, Pos: pos, Other: prev.pos, OtherWhat: prev.what, Hint: hint})
		return
	}
	p.pkg[name] = owner{what: what, pos: pos}
}

// schema names the types declared for s and below it. typeName is the Go name s gets
// if it needs a type of its own; isDecl says s is the top schema of a named type or a
// message (already claimed).
func (p *planner) schema(s *model.Schema, typeName, what string, isDecl bool) {
	if s == nil || s.Kind == model.Ref {
		return
	}
	if len(s.Enum) > 0 {
		if !isDecl {
			p.claim(typeName, "enum of "+what, s.Pos, "set `go: {name: …}` on the field")
		}
		if p.record {
			p.n.Inline[s] = typeName
		}
		p.enum(s, typeName, what)
	}
	switch s.Kind {
	case model.Object:
		if !isDecl {
			p.claim(typeName, "object "+what, s.Pos, "set `go: {name: …}` on the field, or move the object to `types:`")
		}
		if p.record {
			p.n.Inline[s] = typeName
		}
		// The struct's own names: the generated methods, then the fields in order
		// (index into s.Properties, or -1 for a method). Descriptions ("field … of
		// …") are built only for a collision or a type declared below the field.
		fields := make(map[string]int, len(StructMethods)+len(s.Properties))
		for _, m := range StructMethods {
			fields[m] = -1
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
			switch prev, ok := fields[fname]; {
			case fname == "":
				p.colls = append(p.colls, Collision{What: fieldWhat(prop), Pos: prop.Pos, Hint: "no Go identifier can be derived from this key; set `go: {name: …}` on it"})
			case !IsExported(fname):
				p.colls = append(p.colls, Collision{Name: fname, What: fieldWhat(prop), Pos: prop.Pos, Hint: "`go.name` must be an exported Go identifier"})
			case ok && prev < 0:
				p.colls = append(p.colls, Collision{Name: fname, What: fieldWhat(prop), Pos: prop.Pos, OtherWhat: "the generated method " + fname, Hint: "set `go: {name: …}` on one of the fields"})
			case ok:
				other := s.Properties[prev]
				p.colls = append(p.colls, Collision{Name: fname, What: fieldWhat(prop), Pos: prop.Pos, Other: other.Pos, OtherWhat: fieldWhat(other), Hint: "set `go: {name: …}` on one of the fields"})
			default:
				fields[fname] = i
			}
			if p.record {
				p.n.Fields[prop] = fname
			}
			if !declares(prop.Schema) {
				continue
			}
			child := typeName + fname
			if prop.Schema != nil && prop.Schema.GoName != "" {
				child = typeName + prop.Schema.GoName
			}
			p.schema(prop.Schema, child, fieldWhat(prop), false)
		}
	case model.Array:
		p.schema(s.Items, typeName+"Item", "items of "+what, false)
	case model.Map:
		p.schema(s.Values, typeName+"Value", "values of "+what, false)
	}
}

// declares reports whether planner.schema has anything to name at or below s: an
// enum, an object, or an array or map (whose items or values may be one).
func declares(s *model.Schema) bool {
	if s == nil || s.Kind == model.Ref {
		return false
	}
	return len(s.Enum) > 0 || s.Kind == model.Object || s.Kind == model.Array || s.Kind == model.Map
}

// enum names the constants of an enum type.
func (p *planner) enum(s *model.Schema, typeName, what string) {
	consts := make([]string, len(s.Enum))
	for i, v := range s.Enum {
		text := EnumText(v)
		suffix := Camel(text)
		if strings.HasPrefix(text, "-") {
			suffix = "Minus" + suffix
		}
		if suffix == "" {
			suffix = "Empty"
		}
		name := typeName + suffix
		if over, ok := s.GoEnumNames[text]; ok {
			name = over
		}
		hint := "map the values to distinct names with `go: {enum: {" + strconv.Quote(text) + ": SomeName}}`"
		p.claim(name, "enum value "+quote(text)+" of "+what, s.Pos, hint)
		consts[i] = name
	}
	if p.record {
		p.n.EnumConsts[s] = consts
	}
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

// goosArch are the GOOS and GOARCH values that make a file-name suffix a build
// constraint (go/build); a context file must not end in one of them.
var goosArch = map[string]bool{}

func init() {
	for _, s := range strings.Fields(`aix android darwin dragonfly freebsd hurd illumos ios js
		linux nacl netbsd openbsd plan9 solaris wasip1 windows zos
		386 amd64 amd64p32 arm armbe arm64 arm64be loong64 mips mipsle mips64 mips64le
		mips64p32 mips64p32le ppc ppc64 ppc64le riscv riscv64 s390 s390x sparc sparc64 wasm
		test`) {
		goosArch[s] = true
	}
}

// ContextFile returns the name of the file holding a bounded context's messages: the
// context with '-' replaced by '_' (`user-accounts` → `user_accounts.go`). A name the Go
// tool would treat specially (a _test, GOOS or GOARCH suffix, a leading '_' or '.')
// or that would clash with babelqueue.go or types.go gets the suffix "_messages".
func ContextFile(ctx string) string {
	base := strings.ReplaceAll(ctx, "-", "_")
	parts := strings.Split(base, "_")
	special := base == "" || base == "babelqueue" || base == "types" ||
		strings.HasPrefix(base, "_") || strings.HasPrefix(base, ".") ||
		(len(parts) > 1 && goosArch[parts[len(parts)-1]])
	if special {
		base = strings.TrimLeft(base, "_.")
		if base == "" {
			base = "context"
		}
		base += "_messages"
	}
	return base + ".go"
}
