// Package model is the resolved, language-neutral form of a bqgen registry.
//
// The registry package builds it from YAML (after validation); every emitter reads it
// and nothing else. A model is immutable once built: emitters must not change it.
package model

import (
	"sort"
	"strconv"
	"strings"

	"github.com/babelqueue/bqgen/internal/termtext"
)

// Pos is a position in a registry source file: 1-based line and column (columns count
// bytes, as yaml.v3 reports them). The zero Pos means "no position".
type Pos struct {
	File   string
	Line   int
	Column int
}

// IsValid reports whether p names a real position.
func (p Pos) IsValid() bool { return p.File != "" && p.Line > 0 }

// String formats p as file:line:col (or file alone when there is no line). A file name
// that is not plain printable text (a newline, ESC, a bidi control) is Go-quoted
// (termtext.Name), so that a position printed in text output cannot forge a line or
// drive the terminal; JSON and GitHub output take Pos.File itself.
func (p Pos) String() string {
	file := termtext.Name(p.File)
	if p.Line <= 0 {
		return file
	}
	return file + ":" + strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Column)
}

// Registry is a whole registry: every message and named type from one file or a
// directory of files (docs/registry-format.md).
type Registry struct {
	// Version is the registry format version; always 1.
	Version int
	// Consumers lists the languages that read these messages ("go", "php", "node", …).
	Consumers []string
	// GoPackage is the default Go package name from `go.package` ("" when unset).
	GoPackage string
	// GoContexts maps a bounded context to the Go package name chosen for it with
	// `go: {contexts: {user-accounts: accounts}}` (docs/generated-code.md, "Names").
	GoContexts map[string]GoContext
	// Types are the named types of `types:`, sorted by name.
	Types []*NamedType
	// Messages are sorted by URN.
	Messages []*Message
	// Files are the source files read, in the order read.
	Files []string
	// Lints are the file-level `lint:` blocks (top level of a file), in file order; each
	// silences its rules for every message and type of the file named by its Pos.File.
	Lints []*Lint
}

// HasConsumer reports whether lang is among the declared consumers.
func (r *Registry) HasConsumer(lang string) bool {
	for _, c := range r.Consumers {
		if c == lang {
			return true
		}
	}
	return false
}

// Type returns the named type called name, or nil.
func (r *Registry) Type(name string) *NamedType {
	i := sort.Search(len(r.Types), func(i int) bool { return r.Types[i].Name >= name })
	if i < len(r.Types) && r.Types[i].Name == name {
		return r.Types[i]
	}
	return nil
}

// Message returns the message with the given URN, or nil.
func (r *Registry) Message(urn string) *Message {
	i := sort.Search(len(r.Messages), func(i int) bool { return r.Messages[i].URN >= urn })
	if i < len(r.Messages) && r.Messages[i].URN == urn {
		return r.Messages[i]
	}
	return nil
}

// GoContext is one entry of `go.contexts`: the Go package name of a bounded
// context and where it was set.
type GoContext struct {
	Name string
	Pos  Pos
}

// NamedType is an entry of `types:`: a reusable schema referred to as `type: Name`.
type NamedType struct {
	Name   string
	Schema *Schema
	Pos    Pos // the position of the name key
}

// MessageKind says whether a message announces a fact or asks for an action (docs/contract.md#urn-naming).
type MessageKind string

const (
	// Event is a past-tense fact (`orders:created`); the default kind.
	Event MessageKind = "event"
	// Command is an imperative request (`media:thumbnail.generate`).
	Command MessageKind = "command"
)

// Message is one URN and the schema of its `data` (docs/contract.md#envelope, #urn-naming).
type Message struct {
	URN         string
	Kind        MessageKind
	Summary     string
	Description string
	Owner       string
	// Queue is the default logical queue: `queue:` or, when unset, the bounded context.
	Queue string
	// Deprecation is nil unless the message is deprecated.
	Deprecation *Deprecation
	// Supersedes is the URN this message replaces ("" when none).
	Supersedes string
	// SupersedesPos is the position of the `supersedes` value (the zero Pos when none).
	SupersedesPos Pos
	// Data is the schema of the envelope's `data`; always of kind Object.
	Data *Schema
	// Lint holds the rule ids this message silences, with the reason given.
	Lint *Lint
	// GoName overrides the Go name of the message's data type (`go: {name: …}` on
	// the message); "" derives it from the URN.
	GoName string
	Pos    Pos // the position of the URN key
}

// Context returns the bounded context of the URN: `orders` for urn:babel:orders:created.
func (m *Message) Context() string { return URNContext(m.URN) }

// Name returns the event-or-command part of the URN: `created.v2` for
// urn:babel:orders:created.v2.
func (m *Message) Name() string { return URNName(m.URN) }

// URNName returns the event-or-command part of a URN of the form
// urn:babel:<context>:<name>, or "" when the URN has another form.
func URNName(urn string) string {
	parts := strings.SplitN(urn, ":", 4)
	if len(parts) < 4 {
		return ""
	}
	return parts[3]
}

// URNContext returns the bounded-context part of a URN of the form
// urn:babel:<context>:<name>, or "" when the URN has another form.
func URNContext(urn string) string {
	parts := strings.SplitN(urn, ":", 4)
	if len(parts) < 4 {
		return ""
	}
	return parts[2]
}

// Deprecation marks a deprecated message or field.
type Deprecation struct {
	// Reason is the text given (`deprecated: "Use …"`); "" when `deprecated: true`.
	Reason string
}

// Lint is a `lint:` block: rules silenced for one message (or a whole file).
type Lint struct {
	Ignore []string
	Reason string
	Pos    Pos
}

// Kind is the registry type of a schema (docs/registry-format.md#types).
type Kind string

// The registry types of docs/registry-format.md#types. Ref is a use of a named type from `types:`.
const (
	String    Kind = "string"
	Integer   Kind = "integer"
	Number    Kind = "number"
	Boolean   Kind = "boolean"
	Object    Kind = "object"
	Array     Kind = "array"
	Map       Kind = "map"
	Money     Kind = "money"
	Timestamp Kind = "timestamp"
	UUID      Kind = "uuid"
	Ref       Kind = "ref"
)

// Schema is one resolved schema node. Which fields mean something depends on Kind; the
// others are zero.
type Schema struct {
	Kind Kind

	// Ref is the named type's name when Kind is Ref; Named points at it.
	Ref   string
	Named *NamedType

	Description string
	Nullable    bool
	Deprecation *Deprecation
	// Examples are JSON values (nil, bool, int64, float64, string, []any,
	// map[string]any) given under `examples:`.
	Examples []any
	// GDPR is the `x-gdpr-sensitive` mark: "" when absent, "true" for `true`, else the
	// category string.
	GDPR string

	// GoName overrides the Go identifier of the field or type (`go: {name: …}`).
	GoName string
	// GoEnumNames maps enum values (as their JSON text: `web`, `3`) to Go constant
	// names (`go: {enum: {mW: Milliwatt}}`).
	GoEnumNames map[string]string

	// String: lengths count Unicode code points (JSON Schema minLength/maxLength).
	MinLength *int64
	MaxLength *int64
	Pattern   string
	// Format is a JSON Schema format: uuid, email, uri, date, date-time ("" for none).
	Format string

	// Enum holds the allowed values: strings for String, int64 for Integer, float64
	// for Number, bool for Boolean. Nil when there is no enum.
	Enum []any
	// EnumPos[i] is where Enum[i] is written in the registry (the list element's line
	// and column), so that a finding about one value points at it; nil, or shorter
	// than Enum, for a schema built without source. EnumValuePos reads it.
	EnumPos []Pos

	// Integer: IntFormat is "int32" or "" (int64). Bounds are exact integers.
	// Number: bounds are finite float64s.
	IntFormat        string
	Minimum          *Bound
	Maximum          *Bound
	ExclusiveMinimum *Bound
	ExclusiveMaximum *Bound
	// Encoding is "string" when an integer is carried as a JSON string, else "".
	Encoding string

	// Object: properties in source order; AdditionalProperties defaults to true.
	Properties           []*Property
	AdditionalProperties bool

	// Array.
	Items       *Schema
	MinItems    *int64
	MaxItems    *int64
	UniqueItems bool

	// Map: the schema of every value.
	Values *Schema

	Pos Pos // the position of the schema's mapping (or its `type` value)
	// Keys lists each keyword written in the registry for this schema (`maxLength`,
	// `enum`, …) with the position of its key, in source order; nil when the schema
	// has no source. KeyPos looks one up. (A slice, not a map: a registry of 10,000
	// URNs holds ~500,000 schemas, and a small map costs ~10× the memory.)
	Keys []KeyPos
}

// KeyPos is the position of one keyword of a schema in the registry source.
type KeyPos struct {
	Key string
	Pos Pos
}

// KeyPos returns the position of keyword key of s and true, or the zero Pos and false
// when the registry does not write that keyword for s.
func (s *Schema) KeyPos(key string) (Pos, bool) {
	for _, k := range s.Keys {
		if k.Key == key {
			return k.Pos, true
		}
	}
	return Pos{}, false
}

// EnumValuePos returns the position of enum value i of s: EnumPos[i] when the registry
// source gave one, else s.Pos (the schema's).
func (s *Schema) EnumValuePos(i int) Pos {
	if i >= 0 && i < len(s.EnumPos) && s.EnumPos[i].IsValid() {
		return s.EnumPos[i]
	}
	return s.Pos
}

// Bound is a finite numeric constant from the registry: an exact int64 when IsInt is
// true (integer schemas), otherwise the float64 F (number schemas).
type Bound struct {
	IsInt bool
	I     int64
	F     float64
}

// Float returns n as a float64.
func (n Bound) Float() float64 {
	if n.IsInt {
		return float64(n.I)
	}
	return n.F
}

// Property is one key of an object schema.
type Property struct {
	// Name is the exact JSON key.
	Name     string
	Required bool
	// RequiredIndex is the 1-based position of Name in the object's `required:` list, so
	// that emitters can write that list in the author's order (docs/ordering.md); 0 when
	// the property is not required, or the schema was built without a source.
	RequiredIndex int32
	Schema        *Schema
	Pos           Pos // the position of the key
}

// Resolve follows Ref schemas to the schema they name. It returns s itself for every
// other kind. Nullable, description and the other per-use annotations stay on the Ref
// node; callers that need them read them from s.
//
// A registry that passed the registry package's checks has no alias cycle (BQ033); on
// one that did not, Resolve stops after maxAliasChain steps and returns the Ref node
// rather than looping.
func (s *Schema) Resolve() *Schema {
	for i := 0; s != nil && s.Kind == Ref && s.Named != nil; i++ {
		if i == maxAliasChain {
			return s
		}
		s = s.Named.Schema
	}
	return s
}

// maxAliasChain bounds Resolve: longer than any chain of aliases a valid registry holds
// (registry.MaxProperties named types at most would be needed to exceed it usefully).
const maxAliasChain = 100_000

// Property returns the property called name, or nil.
func (s *Schema) Property(name string) *Property {
	for _, p := range s.Properties {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// Walk calls fn for s and every schema below it (properties, items, map values), in
// source order, with the JSON path of each (`$.lines[*].sku`). It does not follow Ref.
func Walk(s *Schema, path string, fn func(path string, s *Schema)) {
	if s == nil {
		return
	}
	fn(path, s)
	for _, p := range s.Properties {
		Walk(p.Schema, path+"."+p.Name, fn)
	}
	if s.Items != nil {
		Walk(s.Items, path+"[*]", fn)
	}
	if s.Values != nil {
		Walk(s.Values, path+".*", fn)
	}
}
