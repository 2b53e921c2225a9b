package synth

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/babelqueue/bqgen/internal/gonames"
)

// RandomOptions configure Random.
type RandomOptions struct {
	// Seed selects the registry; the same options give the same bytes.
	Seed uint64
	// Messages is the number of message URNs before the .v2 successors; values
	// below 1 mean 6.
	Messages int
	// Types is the number of named types besides the recursive one; values below
	// 1 mean 3.
	Types int
	// MaxDepth bounds the nesting of inline objects, arrays and maps; values below
	// 1 mean 3.
	MaxDepth int
	// Package is the go.package of the registry; "" means "events".
	Package string
}

// Random returns the YAML text (in JSON syntax, which YAML reads) of a random
// valid registry: every registry type at every position (nested objects, arrays
// and maps of anything, named types, one of them recursive through an optional
// field), every constraint the generated decoder enforces, nullable, optional and
// deprecated fields, closed objects, JSON keys whose Go names are near collisions
// (code, code2, code_2, co_de, ...: distinct Go names, by construction), and
// descriptions and summaries with non-ASCII text, quotes, backslashes, backquotes,
// "*/" and newlines.
//
// Besides the random messages, every registry holds the keyword messages
// (keywordMessages): each keyword of each built-in type (registry.KindKeywords) at
// every position, so that a differential suite run on any seed meets every keyword
// on every type it applies to.
//
// Every registry it writes loads with registry.LoadFiles without errors (warnings,
// such as BQ031 on near-collision keys and BQ032 on closed objects, may be
// reported). Number bounds and enum values are dyadic fractions (exact doubles
// whose decimal text is exact too): see internal/property for why.
func Random(o RandomOptions) []byte {
	g := &rgen{rng: rand.New(rand.NewPCG(o.Seed, 0x62716770_726f7079)), depth: o.MaxDepth} // "bqgpropy"
	if g.depth < 1 {
		g.depth = 3
	}
	msgs := o.Messages
	if msgs < 1 {
		msgs = 6
	}
	ntypes := o.Types
	if ntypes < 1 {
		ntypes = 3
	}
	pkg := o.Package
	if pkg == "" {
		pkg = "events"
	}

	root := obj{{"version", 1}, {"consumers", []any{"go", "php"}}, {"go", obj{{"package", pkg}}}}

	// Named types: a recursive one, then ntypes others that may use the earlier ones.
	var types obj
	g.typeNames = []string{"TreeNode"}
	types = append(types, kv{"TreeNode", obj{
		{"type", "object"},
		{"description", g.text()},
		{"required", []any{"label"}},
		{"properties", obj{
			{"label", obj{{"type", "string"}, {"maxLength", 40}}},
			{"children", obj{{"type", "array"}, {"maxItems", 3}, {"items", obj{{"type", "TreeNode"}}}}},
			{"parent", obj{{"type", "TreeNode"}, {"nullable", true}}},
		}},
	}})
	// Types that contain themselves through a required nullable field (Chain, by a
	// direct self-reference; Ping and Pong, each through the other; Knot, through an
	// inline object that is itself nullable) or through map values (Index): the
	// generated code must hold the recursion indirectly to compile.
	g.typeNames = append(g.typeNames, "Chain", "Ping", "Pong", "Knot", "Index")
	types = append(types,
		kv{"Chain", obj{{"type", "object"}, {"required", []any{"value", "next"}}, {"properties", obj{
			{"value", obj{{"type", "integer"}, {"minimum", 0}, {"maximum", 100}}},
			{"next", obj{{"type", "Chain"}, {"nullable", true}}},
		}}}},
		kv{"Ping", obj{{"type", "object"}, {"required", []any{"pong"}}, {"properties", obj{
			{"pong", obj{{"type", "Pong"}, {"nullable", true}}},
			{"note", obj{{"type", "string"}, {"maxLength", 8}}},
		}}}},
		kv{"Pong", obj{{"type", "object"}, {"required", []any{"ping", "count"}}, {"properties", obj{
			{"ping", obj{{"type", "Ping"}, {"nullable", true}}},
			{"count", obj{{"type", "integer"}, {"format", "int32"}}},
		}}}},
		kv{"Knot", obj{{"type", "object"}, {"required", []any{"wrap"}}, {"properties", obj{
			{"wrap", obj{{"type", "object"}, {"nullable", true}, {"required", []any{"inner"}}, {"properties", obj{
				{"inner", obj{{"type", "Knot"}}},
			}}}},
		}}}},
		kv{"Index", obj{{"type", "object"}, {"properties", obj{
			{"entries", obj{{"type", "map"}, {"values", obj{{"type", "Index"}}}}},
			{"self", obj{{"type", "Index"}, {"nullable", true}}},
		}}}},
	)
	for i := 0; i < ntypes; i++ {
		name := typeWords[i%len(typeWords)]
		if i >= len(typeWords) {
			name += fmt.Sprint(i / len(typeWords))
		}
		var s obj
		if i%3 == 2 {
			s = g.schema(g.depth-1, name)
		} else {
			s = g.object(g.depth-1, name)
		}
		types = append(types, kv{name, s})
		g.typeNames = append(g.typeNames, name)
	}
	root = append(root, kv{"types", types})

	var messages obj
	used := map[string]bool{}
	for i := 0; i < msgs; i++ {
		ctx := ctxWords[g.rng.IntN(len(ctxWords))]
		noun := nounWords[g.rng.IntN(len(nounWords))]
		verb := verbWords[g.rng.IntN(len(verbWords))]
		urn := "urn:babel:" + ctx + ":" + noun + "." + verb
		for k := 2; used[urn]; k++ {
			urn = fmt.Sprintf("urn:babel:%s:%s%d.%s", ctx, noun, k, verb)
		}
		used[urn] = true
		base := g.message(urn, "", i)
		if g.rng.IntN(4) == 0 {
			// A superseded URN is deprecated (BQ065); the key goes after owner.
			if !base.has("deprecated") {
				for j, e := range base {
					if e.k == "owner" {
						base = append(base[:j+1], append(obj{{"deprecated", "Use " + urn + ".v2."}}, base[j+1:]...)...)
						break
					}
				}
			}
			messages = append(messages, kv{urn, base}, kv{urn + ".v2", g.message(urn+".v2", urn, i)})
		} else {
			messages = append(messages, kv{urn, base})
		}
	}
	messages = append(messages, g.keywordMessages()...)
	root = append(root, kv{"messages", messages})

	var b strings.Builder
	b.WriteString("# Random registry written by internal/synth (seed " + fmt.Sprint(o.Seed) + "). Do not edit.\n")
	writeJSON(&b, root, "")
	b.WriteString("\n")
	return []byte(b.String())
}

// Vocabularies. No context, noun or verb is a prefix of another of its list, and
// no named type starts with a context, so that the Go names of messages, named
// types and inline types (owner + field) never collide. No word names money, time
// (*_at) or a flag (is_, has_): rules BQ020, BQ025, BQ026 stay quiet.
var (
	ctxWords  = []string{"orders", "billing", "media", "growth", "stock"}
	nounWords = []string{"parcel", "widget", "ticket", "review", "slot", "campaign"}
	verbWords = []string{"created", "updated", "removed", "approved", "sent"}
	typeWords = []string{"Gadget", "Point", "Label", "Shape", "Vector", "Badge"}
	// keyWords are JSON keys; near collides adds variants whose Go names differ.
	keyWords = []string{"id", "code", "name", "url", "sku", "note", "kind", "level",
		"ratio", "count", "title", "ref", "uuid_ref", "api_key", "http_status", "x", "a_b",
		"ab", "data", "meta", "schema", "json_id", "unicode_ключ"}
	stringEnums = [][]string{{"new", "open", "closed"}, {"low", "high"}, {"on_hold", "onhold2", "done"},
		{"a", "b", "c", "d", "e"}, {"ja", "nein", "vielleicht"}}
	intEnums = [][]int64{{1, 2, 3}, {10, 20}, {-1, 5, 9007199254740991}, {7}}
	patterns = []string{"^[A-Z]{2}$", "^[a-z0-9-]{1,16}$", "^[0-9]{4}$", "^x", "z$",
		"^[A-Z0-9-]{3,32}$", "^(foo|bar)+$", "^[A-Za-z\\xC0-\\xD6\\xD8-\\xF6\\xF8-\\xFF]+$", "^[^ \\t\\n\\r\\f]*$"}
	formats = []string{"email", "uri", "date", "date-time", "uuid"}
	// lengthFormats are the formats whose values vary in length, formatShortest the
	// length in code points of their shortest value every validator agrees on (the
	// shortest sample of each format in internal/fixtures and internal/agreement: the
	// registry's formatLengths allow shorter ones, "a@b.c", "a:b", which validators
	// judge differently): a minLength of it and a maxLength above it leave valid values.
	lengthFormats  = []string{"email", "uri", "date", "date-time"}
	formatShortest = map[string]int{"email": 6, "uri": 8, "date": 10, "date-time": 20}
	texts          = []string{"Plain text.", "Überweisung für Straße — 𝄞 ✓ 📦", "Quotes \" and 'single' and `back`",
		"Backslash \\ and */ and // and /* in text", "Line one.\nLine two:\n- a list item", "日本語の説明。",
		"Ελληνικά και עברית", "Tab\tseparated", "<b>not HTML</b> & ampersand", "emoji 👩‍👩‍👧 family"}
)

type kv struct {
	k string
	v any
}

// obj is an ordered mapping.
type obj []kv

func (o obj) has(k string) bool {
	for _, e := range o {
		if e.k == k {
			return true
		}
	}
	return false
}

type rgen struct {
	rng       *rand.Rand
	depth     int
	typeNames []string
}

func (g *rgen) text() string { return texts[g.rng.IntN(len(texts))] }

func (g *rgen) chance(n int) bool { return g.rng.IntN(n) == 0 }

func (g *rgen) message(urn, supersedes string, i int) obj {
	m := obj{}
	if g.chance(3) {
		m = append(m, kv{"kind", "command"})
	} else {
		m = append(m, kv{"kind", "event"})
	}
	m = append(m, kv{"summary", g.text()})
	if g.chance(2) {
		m = append(m, kv{"description", g.text() + "\n\n" + g.text()})
	}
	m = append(m, kv{"owner", fmt.Sprintf("team-%d", i%4)})
	if supersedes != "" {
		m = append(m, kv{"supersedes", supersedes})
	} else if g.chance(6) {
		m = append(m, kv{"deprecated", g.text()})
	}
	data := g.object(g.depth, gonames.MessageName(urn))
	// The data block is always an object; "type: object" is implied.
	out := obj{}
	for _, e := range data {
		if e.k != "type" && e.k != "description" {
			out = append(out, e)
		}
	}
	return append(m, kv{"data", out})
}

// object returns an object schema with 1–6 properties.
func (g *rgen) object(depth int, owner string) obj {
	n := 1 + g.rng.IntN(6)
	props := obj{}
	var req []any
	goNames := map[string]bool{}
	for _, s := range gonames.StructMethods {
		goNames[s] = true
	}
	for len(props) < n {
		key := g.key()
		fn := gonames.FieldName(key)
		if goNames[fn] || !gonames.IsExported(fn) {
			continue
		}
		goNames[fn] = true
		props = append(props, kv{key, g.field(depth, owner+fn)})
		if g.chance(2) {
			req = append(req, key)
		}
	}
	s := obj{{"type", "object"}}
	if g.chance(3) {
		s = append(s, kv{"description", g.text()})
	}
	if req != nil {
		s = append(s, kv{"required", req})
	}
	if g.chance(5) {
		s = append(s, kv{"additionalProperties", false})
	}
	return append(s, kv{"properties", props})
}

// key returns a JSON key: a word, or a near-collision variant of one.
func (g *rgen) key() string {
	w := keyWords[g.rng.IntN(len(keyWords))]
	switch g.rng.IntN(6) {
	case 0:
		return w + "2"
	case 1:
		return w + "_2"
	case 2:
		if len(w) > 2 {
			return w[:2] + "_" + w[2:]
		}
	}
	return w
}

// field returns a property schema with the field-level keywords added.
func (g *rgen) field(depth int, goName string) obj {
	s := g.schema(depth, goName)
	if g.chance(4) {
		s = append(s, kv{"nullable", true})
	}
	if g.chance(3) && !s.has("description") {
		s = append(s, kv{"description", g.text()})
	}
	if g.chance(12) {
		s = append(s, kv{"deprecated", g.text()})
	}
	if g.chance(10) {
		s = append(s, kv{"x-gdpr-sensitive", true})
	}
	return s
}

// schema returns a schema of any kind (containers only while depth > 0).
func (g *rgen) schema(depth int, goName string) obj {
	kinds := []string{"string", "string", "integer", "integer", "number", "boolean", "money", "timestamp", "uuid", "named"}
	if depth > 0 {
		kinds = append(kinds, "object", "object", "array", "array", "map")
	}
	switch k := kinds[g.rng.IntN(len(kinds))]; k {
	case "string":
		return g.stringSchema()
	case "integer":
		return g.intSchema()
	case "number":
		return g.numberSchema()
	case "named":
		return obj{{"type", g.typeNames[g.rng.IntN(len(g.typeNames))]}}
	case "object":
		return g.object(depth-1, goName)
	case "array":
		items := g.schema(depth-1, goName+"Item")
		s := obj{{"type", "array"}}
		lo := 0
		if g.chance(3) {
			lo = g.rng.IntN(3)
			s = append(s, kv{"minItems", lo})
		}
		if g.chance(3) {
			s = append(s, kv{"maxItems", lo + 1 + g.rng.IntN(4)})
		}
		if lo <= 1 && exactItems(items) && g.chance(4) {
			s = append(s, kv{"uniqueItems", true})
		}
		if g.chance(6) {
			items = append(items, kv{"nullable", true})
		}
		return append(s, kv{"items", items})
	case "map":
		return obj{{"type", "map"}, {"values", g.schema(depth-1, goName+"Value")}}
	case "boolean":
		if g.chance(4) {
			return g.keywordSchema("boolean", "enum")
		}
		return obj{{"type", k}}
	default: // money, timestamp, uuid
		return obj{{"type", k}}
	}
}

// keywordKinds are the built-in types with keywords of their own, in the order the
// keyword messages list them; keywordNames their keywords, the set
// registry.KindKeywords returns (TestKeywordMessagesCoverRegistry holds the two
// equal).
var (
	keywordKinds = []string{"string", "integer", "number", "boolean", "object", "array", "map"}
	keywordNames = map[string][]string{
		"string":  {"minLength", "maxLength", "pattern", "enum", "format"},
		"integer": {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "enum", "format", "encoding"},
		"number":  {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "enum"},
		"boolean": {"enum"},
		"object":  {"properties", "required", "additionalProperties"},
		"array":   {"items", "minItems", "maxItems", "uniqueItems"},
		"map":     {"values"},
	}
	// numEnums are number enum values: dyadic fractions, as numBounds.
	numEnums = [][]float64{{0.5, 1.25, 90}, {-0.5, 0}, {1000.125}}
	// safeIntBounds leave valid values on both sides, also for int32.
	safeIntBounds = []int64{-1000, -1, 0, 1, 2, 100}
)

// keywordSchema returns a schema of the built-in type kind carrying keyword (one of
// keywordNames[kind]) and nothing else that constrains it, with a random value.
func (g *rgen) keywordSchema(kind, keyword string) obj {
	s := obj{{"type", kind}}
	pick := func(n int) int { return g.rng.IntN(n) }
	var v any
	switch kind + "." + keyword {
	case "string.minLength":
		v = 1 + pick(4)
	case "string.maxLength":
		v = pick(20)
	case "string.pattern":
		v = patterns[pick(len(patterns))]
	case "string.format":
		v = formats[pick(len(formats))]
	case "string.enum":
		v = anyList(stringEnums[pick(len(stringEnums))])
	case "integer.minimum", "integer.maximum", "integer.exclusiveMinimum", "integer.exclusiveMaximum":
		v = safeIntBounds[pick(len(safeIntBounds))]
	case "integer.enum":
		v = anyList(intEnums[pick(len(intEnums))])
	case "integer.format":
		v = "int32"
	case "integer.encoding":
		v = "string"
	case "number.minimum", "number.maximum", "number.exclusiveMinimum", "number.exclusiveMaximum":
		v = numBounds[pick(len(numBounds))]
	case "number.enum":
		v = anyList(numEnums[pick(len(numEnums))])
	case "boolean.enum":
		v = [][]any{{true}, {false}, {true, false}}[pick(3)]
	case "object.properties":
		v = obj{{"label", obj{{"type", "string"}, {"maxLength", 4}}}, {"count", obj{{"type", "integer"}, {"minimum", 0}}}}
	case "object.required":
		s = append(s, kv{"properties", obj{{"label", obj{{"type", "string"}}}}})
		v = []any{"label"}
	case "object.additionalProperties":
		s = append(s, kv{"properties", obj{{"label", obj{{"type", "string"}}}}})
		v = false
	case "array.items":
		v = obj{{"type", "integer"}, {"maximum", 9}}
	case "array.minItems", "array.maxItems":
		s = append(s, kv{"items", obj{{"type", "string"}}})
		v = 1 + pick(3)
	case "array.uniqueItems":
		s = append(s, kv{"items", obj{{"type", []string{"string", "integer", "boolean"}[pick(3)]}}})
		v = true
	case "map.values":
		v = obj{{"type", "string"}, {"minLength", 1}}
	default:
		panic("synth: no value for keyword " + keyword + " of " + kind)
	}
	return append(s, kv{keyword, v})
}

// keywordMessages returns one message per built-in type with keywords, urn:babel:
// stock:sampler.<type>, whose data has, for every keyword of the type, the field
// <keyword> with the keyword alone, <keyword>_marked (also nullable and, on scalars,
// x-gdpr-sensitive), <keyword>_items (an array of it, items nullable or marked at
// random) and <keyword>_values (a map of it, likewise).
func (g *rgen) keywordMessages() obj {
	var out obj
	for _, kind := range keywordKinds {
		scalar := kind != "object" && kind != "array" && kind != "map"
		props := obj{}
		var req []any
		for _, kw := range keywordNames[kind] {
			key := snake(kw)
			marked := append(g.keywordSchema(kind, kw), kv{"nullable", true})
			if scalar {
				marked = append(marked, kv{"x-gdpr-sensitive", true})
			}
			elem := func() obj {
				e := g.keywordSchema(kind, kw)
				if g.chance(2) {
					e = append(e, kv{"nullable", true})
				}
				if scalar && g.chance(2) {
					e = append(e, kv{"x-gdpr-sensitive", true})
				}
				return e
			}
			props = append(props,
				kv{key, g.keywordSchema(kind, kw)},
				kv{key + "_marked", marked},
				kv{key + "_items", obj{{"type", "array"}, {"items", elem()}}},
				kv{key + "_values", obj{{"type", "map"}, {"values", elem()}}})
			if g.chance(2) {
				req = append(req, key)
			}
		}
		data := obj{}
		if req != nil {
			data = append(data, kv{"required", req})
		}
		data = append(data, kv{"properties", props})
		out = append(out, kv{"urn:babel:stock:sampler." + kind, obj{
			{"kind", "event"}, {"summary", "Every keyword of " + kind + "."}, {"owner", "team-0"}, {"data", data}}})
	}
	return out
}

// anyList returns vs as a []any (a JSON list).
func anyList[T any](vs []T) []any {
	out := make([]any, len(vs))
	for i, v := range vs {
		out[i] = v
	}
	return out
}

// snake returns the snake_case of a camelCase keyword (minLength: min_length).
func snake(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= 'A' && r <= 'Z' {
			b.WriteByte('_')
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

func (g *rgen) stringSchema() obj {
	s := obj{{"type", "string"}}
	switch g.rng.IntN(6) {
	case 5:
		// a length beside a format or an enum: a value can break both, and every
		// reader must then report the length (the generated code checks it first)
		if g.chance(2) {
			f := lengthFormats[g.rng.IntN(len(lengthFormats))]
			lo := formatShortest[f]
			if g.chance(2) {
				s = append(s, kv{"minLength", lo})
			}
			s = append(s, kv{"maxLength", lo + 1 + g.rng.IntN(8)}, kv{"format", f})
			break
		}
		// an enum beside a length: a value breaking both gets the length's problem
		s = append(s, kv{"maxLength", 1 + g.rng.IntN(3)}, kv{"enum", anyList(stringEnums[3])})
	case 0:
		lo := g.rng.IntN(4)
		if g.chance(2) {
			s = append(s, kv{"minLength", lo})
		}
		s = append(s, kv{"maxLength", lo + g.rng.IntN(20)})
	case 1:
		s = append(s, kv{"pattern", patterns[g.rng.IntN(len(patterns))]})
	case 2:
		s = append(s, kv{"format", formats[g.rng.IntN(len(formats))]})
	case 3:
		var e []any
		for _, v := range stringEnums[g.rng.IntN(len(stringEnums))] {
			e = append(e, v)
		}
		s = append(s, kv{"enum", e})
	}
	return s
}

// intBounds are integer bounds; a minimum and a maximum are at least 2 apart
// (so the integer is never a 0/1 flag, BQ026).
var intBounds = []int64{-9007199254740991, -1000, -1, 0, 1, 2, 100, 2147483647, 9007199254740991}

func (g *rgen) intSchema() obj {
	s := obj{{"type", "integer"}}
	int32 := g.chance(3)
	if int32 {
		s = append(s, kv{"format", "int32"})
	}
	switch g.rng.IntN(4) {
	case 0:
		if !int32 {
			s = append(s, kv{"encoding", "string"})
		}
	case 1:
		var e []any
		for _, v := range intEnums[g.rng.IntN(len(intEnums))] {
			if !int32 || v == int64(int32v(v)) {
				e = append(e, v)
			}
		}
		if len(e) > 0 {
			s = append(s, kv{"enum", e})
		}
	case 2:
		lo := intBounds[g.rng.IntN(len(intBounds)-1)]
		hi := lo + 2 + g.rng.Int64N(1000)
		if int32 && (lo < -1<<31 || hi > 1<<31-1) {
			lo, hi = -5, 5000
		}
		if g.chance(2) {
			s = append(s, kv{"minimum", lo})
		} else {
			s = append(s, kv{"exclusiveMinimum", lo})
		}
		if g.chance(2) {
			if g.chance(2) {
				s = append(s, kv{"maximum", hi})
			} else {
				s = append(s, kv{"exclusiveMaximum", hi})
			}
		}
		if g.chance(3) {
			// an enum beside the bounds: a value outside both gets the bound's problem
			s = append(s, kv{"enum", []any{lo + 1}})
		}
	}
	return s
}

func int32v(v int64) int32 { return int32(v) }

// numBounds are dyadic fractions: exact doubles whose decimal text is exact too.
var numBounds = []float64{-1e6, -90, -0.5, 0, 0.25, 1, 1.5, 90, 1000.125, 1e6}

func (g *rgen) numberSchema() obj {
	s := obj{{"type", "number"}}
	if g.chance(3) {
		return s
	}
	i := g.rng.IntN(len(numBounds) - 1)
	j := i + 1 + g.rng.IntN(len(numBounds)-1-i)
	if g.chance(2) {
		s = append(s, kv{"minimum", numBounds[i]})
	} else {
		s = append(s, kv{"exclusiveMinimum", numBounds[i]})
	}
	if g.chance(2) {
		s = append(s, kv{"maximum", numBounds[j]})
	} else if g.chance(2) {
		s = append(s, kv{"exclusiveMaximum", numBounds[j]})
	}
	return s
}

// writeJSON writes v (obj, []any, string, number, bool) as indented JSON.
func writeJSON(b *strings.Builder, v any, indent string) {
	switch v := v.(type) {
	case obj:
		if len(v) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteString("{\n")
		for i, e := range v {
			b.WriteString(indent + "  ")
			writeJSON(b, e.k, "")
			b.WriteString(": ")
			writeJSON(b, e.v, indent+"  ")
			if i < len(v)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(indent + "}")
	case []any:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteString(", ")
			}
			writeJSON(b, e, indent)
		}
		b.WriteByte(']')
	default:
		j, err := json.Marshal(v)
		if err != nil {
			panic(err)
		}
		b.Write(j)
	}
}

// exactItems reports whether items is a schema whose values generated code compares
// exactly as JSON Schema's uniqueItems does (BQ038): no numbers, no open objects. Only
// scalar types qualify; objects, arrays and named types are left out.
func exactItems(items obj) bool {
	for _, e := range items {
		if e.k == "type" {
			switch e.v {
			case "string", "integer", "boolean", "money", "timestamp", "uuid":
				return true
			}
			return false
		}
	}
	return false
}
