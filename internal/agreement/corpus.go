// Package agreement holds the three-way agreement suite of docs/agreement.md (issue 4,
// item 4): a corpus of data instances generated from a registry model, run through the
// generated Go decoder, santhosh-tekuri/jsonschema/v6 and ajv, whose verdicts must
// match. The corpus generator lives here; the runners are in the package's tests.
// docs/agreement.md describes the corpus and the exemption for numbers that are not
// exact doubles.
package agreement

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/babelqueue/bqgen/internal/ecmare"
	"github.com/babelqueue/bqgen/internal/emit/jsonschema"
	"github.com/babelqueue/bqgen/internal/model"
)

// Expect is the verdict the generator knows an instance must get, when it knows it.
type Expect int8

// Expected verdicts.
const (
	Unknown Expect = iota // only the three validators' agreement is checked
	Valid
	Invalid
)

func (e Expect) String() string {
	return [...]string{"unknown", "valid", "invalid"}[e]
}

func expectOf(ok bool) Expect {
	if ok {
		return Valid
	}
	return Invalid
}

// and combines two verdicts of independent constraints.
func and(a, b Expect) Expect {
	switch {
	case a == Invalid || b == Invalid:
		return Invalid
	case a == Unknown || b == Unknown:
		return Unknown
	}
	return Valid
}

// Instance is one data instance of a URN.
type Instance struct {
	// Set names the registry the URN comes from ("examples", "fixture", …).
	Set string
	URN string
	// Name says how the instance was made: "maximal", "$.lines[0].quantity = 1.5", ….
	// It is unique within (Set, URN) and stable across runs.
	Name string
	// JSON is the instance, compact, numbers written as their literal text.
	JSON   []byte
	Expect Expect
}

// Key identifies the instance across runs: set, URN and name.
func (in Instance) Key() string { return in.Set + " " + in.URN + " " + in.Name }

// Corpus returns the instances of every message of reg, in message order; set names
// the registry in the instances. It fails when it cannot build a valid instance of a
// message (a construct it does not know) or when two ways of building an instance
// expect opposite verdicts (a bug of the generator).
func Corpus(set string, reg *model.Registry) ([]Instance, error) {
	var out []Instance
	formats := map[string]bool{}
	for _, m := range reg.Messages {
		g := &gen{set: set, urn: m.URN, seen: map[string]int{}, names: map[string]int{}, formats: formats}
		g.message(m)
		if g.err != nil {
			return nil, fmt.Errorf("%s %s: %w", set, m.URN, g.err)
		}
		out = append(out, g.out...)
	}
	return out, nil
}

type gen struct {
	set, urn string
	out      []Instance
	seen     map[string]int // JSON → index in out
	names    map[string]int // name → times used
	// formats holds the formats (with their pattern) whose full sample list the set has
	// used: the first such field gets all of formatSamples, later ones one hit and one
	// miss, so that a checker's quirk shows once per registry, not once per field.
	formats map[string]bool
	err     error
}

func (g *gen) fail(format string, args ...any) {
	if g.err == nil {
		g.err = fmt.Errorf(format, args...)
	}
}

func (g *gen) add(name string, root value, exp Expect) {
	b := encode(root)
	if !json.Valid(b) {
		g.fail("generator bug: %s is not JSON: %s", name, b)
		return
	}
	if i, ok := g.seen[string(b)]; ok {
		prev := &g.out[i]
		switch {
		case prev.Expect == Unknown:
			prev.Expect = exp
		case exp != Unknown && exp != prev.Expect:
			g.fail("generator bug: %s expects %v, %s expects %v, for %s", prev.Name, prev.Expect, name, exp, b)
		}
		return
	}
	g.names[name]++
	if n := g.names[name]; n > 1 {
		name += " #" + strconv.Itoa(n)
	}
	g.seen[string(b)] = len(g.out)
	g.out = append(g.out, Instance{Set: g.set, URN: g.urn, Name: name, JSON: b, Expect: exp})
}

func (g *gen) message(m *model.Message) {
	full := g.sample(m.Data, true, nil)
	if g.err != nil {
		return
	}
	g.add("minimal", g.sample(m.Data, false, nil), Valid)
	g.add("maximal", full, Valid)
	for i, ex := range m.Data.Examples {
		g.add(fmt.Sprintf("examples[%d]", i), g.fromExample(ex, m.Data), Valid)
	}
	g.mutate(m.Data, nil, full, nil, false)
}

// label shortens a value for an instance name.
func label(v value) string {
	if a, ok := v.([]value); ok && len(a) > 3 {
		return fmt.Sprintf("[%d items]", len(a))
	}
	var str string
	if r, ok := v.(Raw); ok && strings.HasPrefix(string(r), `"`) {
		if err := json.Unmarshal([]byte(r), &str); err == nil && utf8.RuneCountInString(str) > 8 {
			return fmt.Sprintf("%.24s… escaped (%d code points)", r, utf8.RuneCountInString(str))
		}
	}
	if str, ok := v.(string); ok && utf8.RuneCountInString(str) > 48 {
		r := []rune(str)
		return fmt.Sprintf("%s… (%d code points)", quote(string(r[:8])), len(r))
	}
	s := string(encode(v))
	if utf8.RuneCountInString(s) > 48 {
		r := []rune(s)
		return fmt.Sprintf("%s… (%d bytes)", string(r[:40]), len(s))
	}
	return s
}

// resolve follows a named-type use; the nullability of the use is kept.
func resolve(s *model.Schema) (*model.Schema, bool) {
	nullable := s.Nullable
	for s.Kind == model.Ref && s.Named != nil {
		s = s.Named.Schema
		nullable = nullable || s.Nullable
	}
	return s, nullable
}

// Bounds of money amounts and timestamps (docs/contract.md#data-rules; docs/jsonschema.md).
const (
	maxSafe      = 1<<53 - 1
	maxTimestamp = 8_640_000_000_000_000
)

func ib(v int64) *model.Bound { return &model.Bound{IsInt: true, I: v} }

// moneySchema, timestampSchema and uuidSchema are the plain schemas the registry's
// money, timestamp and uuid types stand for (docs/jsonschema.md).
var (
	moneySchema = &model.Schema{Kind: model.Object, Properties: []*model.Property{
		{Name: "amount", Required: true, Schema: &model.Schema{Kind: model.Integer, Minimum: ib(-maxSafe), Maximum: ib(maxSafe)}},
		{Name: "currency", Required: true, Schema: &model.Schema{Kind: model.String, Pattern: "^[A-Z]{3}$"}},
	}}
	timestampSchema = &model.Schema{Kind: model.Integer, Minimum: ib(-maxTimestamp), Maximum: ib(maxTimestamp)}
	uuidSchema      = &model.Schema{Kind: model.String, Format: "uuid",
		Pattern: "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"}
)

// plain returns the schema s stands for, without money/timestamp/uuid and named types,
// and whether null is allowed.
func plain(s *model.Schema) (*model.Schema, bool) {
	s, nullable := resolve(s)
	switch s.Kind {
	case model.Money:
		return moneySchema, nullable
	case model.Timestamp:
		return timestampSchema, nullable
	case model.UUID:
		return uuidSchema, nullable
	}
	return s, nullable
}

// ---- valid samples -------------------------------------------------------------

const sampleUUID = "0b7f0f5e-8a3b-4c1e-9d2a-1f2e3d4c5b6a"

// sample returns a valid value of s: with full, every optional property and one item or
// entry in each array and map; otherwise only the required properties and minItems
// items. refs are the named types on the way (recursion is cut at the second visit).
func (g *gen) sample(s *model.Schema, full bool, refs []string) value {
	// Inside a type that contains itself, a nullable value is null: a required
	// nullable self-reference (Chain.next) is how such a document ends.
	if _, nullable := resolve(s); nullable && repeats(refs) {
		return nil
	}
	if s.Kind == model.Ref && s.Named != nil {
		if count(refs, s.Ref) >= 1 {
			full = false
		}
		refs = append(refs, s.Ref)
	}
	switch r, _ := resolve(s); r.Kind {
	case model.Money:
		return Obj{{"amount", Raw("1299")}, {"currency", "EUR"}}
	case model.Timestamp:
		return Raw("1700000000000")
	}
	s, _ = plain(s)
	switch s.Kind {
	case model.String:
		return g.sampleString(s)
	case model.Integer:
		if len(s.Enum) > 0 {
			return intValue(s, big.NewInt(s.Enum[0].(int64)))
		}
		lo, hi := intRange(s)
		v := big.NewInt(0)
		if v.Cmp(lo) < 0 {
			v = lo
		} else if v.Cmp(hi) > 0 {
			v = hi
		}
		return intValue(s, v)
	case model.Number:
		if len(s.Enum) > 0 {
			// The exact double when it is the enum's decimal (so that ajv is compared).
			e := s.Enum[0].(float64)
			if x, _ := ratOf(exactText(e)); numberOK(s, x) {
				return Raw(exactText(e))
			}
			return Raw(shortText(e))
		}
		for _, c := range []float64{0, 1, -1, 0.5, 100} {
			if numberOK(s, new(big.Rat).SetFloat64(c)) {
				return Raw(exactText(c))
			}
		}
		for _, b := range []*model.Bound{s.Minimum, s.Maximum} {
			if b == nil {
				continue
			}
			// Preferably the bound's exact double (ajv is compared on it).
			for _, txt := range []string{exactText(b.Float()), shortText(b.Float())} {
				if r, ok := ratOf(txt); ok && numberOK(s, r) {
					return Raw(txt)
				}
			}
		}
		lo, hi := s.ExclusiveMinimum, s.ExclusiveMaximum
		if lo != nil && hi != nil {
			return Raw(exactText((lo.Float() + hi.Float()) / 2))
		}
		// One exclusive bound far from the small candidates (exclusiveMinimum: 1e6):
		// one step inside it.
		for _, b := range []struct {
			b    *model.Bound
			step float64
		}{{lo, 1}, {hi, -1}} {
			if b.b != nil {
				if c := b.b.Float() + b.step; numberOK(s, new(big.Rat).SetFloat64(c)) {
					return Raw(exactText(c))
				}
			}
		}
		g.fail("cannot build a number for %+v", s)
		return Raw("0")
	case model.Boolean:
		if len(s.Enum) > 0 {
			return s.Enum[0].(bool)
		}
		return true
	case model.Object:
		o := Obj{}
		for _, p := range s.Properties {
			if p.Required || full {
				o = append(o, Member{p.Name, g.sample(p.Schema, full, refs)})
			}
		}
		return o
	case model.Array:
		n := int64(0)
		if s.MinItems != nil {
			n = *s.MinItems
		}
		if full && n == 0 {
			n = 1
		}
		if s.MaxItems != nil && n > *s.MaxItems {
			n = *s.MaxItems
		}
		items, ok := g.items(s, int(n), full, refs)
		if !ok {
			g.fail("cannot build %d distinct items", n)
		}
		return items
	case model.Map:
		if !full {
			return Obj{}
		}
		return Obj{{"k", g.sample(s.Values, full, refs)}}
	}
	g.fail("cannot build a value of kind %q", s.Kind)
	return nil
}

// repeats reports whether a named type occurs twice in refs: the value being built
// is inside a type that contains itself.
func repeats(refs []string) bool {
	for i, r := range refs {
		if count(refs[i+1:], r) > 0 {
			return true
		}
	}
	return false
}

func count(list []string, s string) int {
	n := 0
	for _, e := range list {
		if e == s {
			n++
		}
	}
	return n
}

// items returns n valid items of the array s, distinct when it wants unique items.
func (g *gen) items(s *model.Schema, n int, full bool, refs []string) ([]value, bool) {
	out := []value{}
	if n == 0 {
		return out, true
	}
	first := g.sample(s.Items, full, refs)
	if !s.UniqueItems {
		for i := 0; i < n; i++ {
			out = append(out, first)
		}
		return out, true
	}
	pool := []value{first}
	if it, _ := plain(s.Items); it.Kind != model.Object && it.Kind != model.Array && it.Kind != model.Map {
		for _, c := range g.cases(s.Items, first, refs) {
			if c.exp == Valid {
				pool = append(pool, c.val)
			}
		}
	}
	seen := map[string]bool{}
	for _, v := range pool {
		if len(out) == n {
			break
		}
		if k := canonical(v); !seen[k] {
			seen[k] = true
			out = append(out, v)
		}
	}
	return out, len(out) == n
}

// canonical is a key equal for JSON values JSON Schema calls equal (uniqueItems):
// numbers by value, objects regardless of key order.
func canonical(v value) string {
	switch v := v.(type) {
	case Raw:
		if r, ok := ratOf(string(v)); ok {
			return "n:" + r.RatString()
		}
		var s string
		if json.Unmarshal([]byte(v), &s) == nil {
			return "s:" + s
		}
		return "r:" + string(v)
	case string:
		return "s:" + v
	case []value:
		parts := make([]string, len(v))
		for i, e := range v {
			parts[i] = canonical(e)
		}
		return "[" + strings.Join(parts, ",") + "]"
	case Obj:
		parts := make([]string, len(v))
		for i, m := range v {
			parts[i] = strconv.Quote(m.Key) + ":" + canonical(m.Val)
		}
		sortStrings(parts)
		return "{" + strings.Join(parts, ",") + "}"
	}
	return string(encode(v))
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

func (g *gen) sampleString(s *model.Schema) value {
	var cands []string
	for _, ex := range s.Examples {
		if str, ok := ex.(string); ok {
			cands = append(cands, str)
		}
	}
	for _, e := range s.Enum {
		cands = append(cands, e.(string))
	}
	if f := formatSamples[s.Format]; f != nil {
		cands = append(cands, f.valid...)
	}
	if s.Pattern != "" {
		for extra := 0; extra < 8; extra++ {
			if p, ok := patternSample(s.Pattern, extra); ok {
				cands = append(cands, p)
			}
		}
	}
	n := 1
	if s.MinLength != nil && int(*s.MinLength) > n {
		n = int(*s.MinLength)
	}
	cands = append(cands, strings.Repeat("x", n), "")
	for _, c := range cands {
		if g.stringExpect(s, c) == Valid {
			return c
		}
	}
	g.fail("cannot build a valid string for %+v", s)
	return ""
}

// fromExample converts an `examples:` value of schema s into a value.
func (g *gen) fromExample(ex any, s *model.Schema) value {
	ps, _ := plain(s)
	switch ex := ex.(type) {
	case nil, bool, string:
		return ex
	case int64:
		if ps.Kind == model.Integer && ps.Encoding == "string" {
			return strconv.FormatInt(ex, 10)
		}
		return Raw(strconv.FormatInt(ex, 10))
	case float64:
		return Raw(exactText(ex))
	case []any:
		out := []value{}
		for _, e := range ex {
			out = append(out, g.fromExample(e, ps.Items))
		}
		return out
	case map[string]any:
		o := Obj{}
		done := map[string]bool{}
		for _, p := range ps.Properties {
			if v, ok := ex[p.Name]; ok {
				o = append(o, Member{p.Name, g.fromExample(v, p.Schema)})
				done[p.Name] = true
			}
		}
		var rest []string
		for k := range ex {
			if !done[k] {
				rest = append(rest, k)
			}
		}
		sortStrings(rest)
		for _, k := range rest {
			sub := ps.Values
			if sub == nil {
				sub = &model.Schema{Kind: model.String}
			}
			o = append(o, Member{k, g.fromExample(ex[k], sub)})
		}
		return o
	}
	g.fail("example of type %T", ex)
	return nil
}

// ---- mutations -------------------------------------------------------------------

// scase is a value to put where a schema's value is, with its expected verdict.
type scase struct {
	val  value
	exp  Expect
	name string // how to name the instance; label(val) when empty
}

// mutate adds the cases of the schema s at p inside root (a valid instance holding a
// valid value at p), then recurses into properties, items and values. uniqueCtx is set
// inside an array with uniqueItems and more than one item, where a new value may
// collide with a sibling (expectations then become unknown).
func (g *gen) mutate(s *model.Schema, p path, root value, refs []string, uniqueCtx bool) {
	if g.err != nil {
		return
	}
	if s.Kind == model.Ref && s.Named != nil {
		if count(refs, s.Ref) >= 2 {
			return // recursion: two levels of a named type are enough
		}
		refs = append(refs, s.Ref)
	}
	cur := lookup(root, p)
	for _, c := range g.cases(s, cur, refs) {
		exp := c.exp
		if uniqueCtx && exp == Valid {
			exp = Unknown
		}
		name := c.name
		if name == "" {
			name = "= " + label(c.val)
		}
		g.add(p.String()+" "+name, replace(root, p, c.val, false), exp)
	}
	for _, ex := range s.Examples {
		g.add(p.String()+" = example "+label(g.fromExample(ex, s)), replace(root, p, g.fromExample(ex, s), false), Valid)
	}
	ps, _ := plain(s)
	switch ps.Kind {
	case model.Object:
		obj, _ := cur.(Obj)
		for _, prop := range ps.Properties {
			pp := p.key(prop.Name)
			present := false
			for _, m := range obj {
				present = present || m.Key == prop.Name
			}
			if !present {
				continue
			}
			g.add("without "+pp.String(), replace(root, pp, nil, true), expectOf(!prop.Required))
			g.mutate(prop.Schema, pp, root, refs, uniqueCtx)
		}
	case model.Array:
		if arr, ok := cur.([]value); ok && len(arr) > 0 {
			g.mutate(ps.Items, p.index(0), root, refs, uniqueCtx || ps.UniqueItems && len(arr) > 1)
		}
	case model.Map:
		if obj, ok := cur.(Obj); ok && len(obj) > 0 {
			g.mutate(ps.Values, p.key(obj[0].Key), root, refs, uniqueCtx)
		}
	}
}

// jsonTypes are one value of each JSON type, to put where another type belongs.
var jsonTypes = []struct {
	name string
	val  value
}{{"boolean", true}, {"number", Raw("1")}, {"string", "1"}, {"array", []value{}}, {"object", Obj{}}}

// cases returns the values to try in place of cur, a valid value of s.
func (g *gen) cases(s *model.Schema, cur value, refs []string) []scase {
	ps, nullable := plain(s)
	out := []scase{{nil, expectOf(nullable), ""}}
	var want string
	switch ps.Kind {
	case model.String:
		want = "string"
	case model.Integer:
		want = "number"
		if ps.Encoding == "string" {
			want = "string"
		}
	case model.Number:
		want = "number"
	case model.Boolean:
		want = "boolean"
	case model.Object, model.Map:
		want = "object"
	case model.Array:
		want = "array"
	}
	for _, t := range jsonTypes {
		if t.name != want {
			out = append(out, scase{t.val, Invalid, ""})
		}
	}
	switch ps.Kind {
	case model.String:
		for _, str := range g.stringCandidates(ps) {
			out = append(out, scase{str, g.stringExpect(ps, str), ""})
		}
		for _, r := range escapedCandidates(ps) {
			var str string
			if err := json.Unmarshal([]byte(r), &str); err != nil {
				panic(err)
			}
			out = append(out, scase{r, g.stringExpect(ps, str), ""})
		}
	case model.Integer:
		if ps.Encoding == "string" {
			for _, str := range intStringCandidates(ps) {
				out = append(out, scase{str, intStringExpect(ps, str), ""})
			}
		} else {
			for _, lit := range intLiterals(ps, s.Kind == model.Timestamp) {
				out = append(out, scase{Raw(lit), numberExpect(ps, lit), ""})
			}
		}
	case model.Number:
		for _, lit := range numberLiterals(ps) {
			out = append(out, scase{Raw(lit), numberExpect(ps, lit), ""})
		}
	case model.Boolean:
		for _, b := range []bool{true, false} {
			ok := len(ps.Enum) == 0
			for _, e := range ps.Enum {
				ok = ok || e.(bool) == b
			}
			out = append(out, scase{b, expectOf(ok), ""})
		}
		out = append(out, scase{"true", Invalid, ""}, scase{Raw("0"), Invalid, ""})
	case model.Object:
		obj, ok := cur.(Obj)
		if !ok {
			break // null here (the end of a recursive value): no object to vary
		}
		anyRequired := false
		var minimal Obj
		for _, p := range ps.Properties {
			if p.Required {
				anyRequired = true
				for _, m := range obj {
					if m.Key == p.Name {
						minimal = append(minimal, m)
					}
				}
			}
		}
		if minimal == nil {
			minimal = Obj{}
		}
		out = append(out, scase{Obj{}, expectOf(!anyRequired), "= {}"}, scase{minimal, Valid, "= only the required keys"})
		for _, k := range []string{"zz_extra", "ключ😀", "Zz Extra"} {
			out = append(out, scase{append(append(Obj(nil), obj...), Member{k, Raw("1")}), expectOf(ps.AdditionalProperties),
				"+ unknown key " + strconv.Quote(k)})
		}
		if len(obj) >= 2 {
			rev := make(Obj, len(obj))
			for i, m := range obj {
				rev[len(obj)-1-i] = m
			}
			out = append(out, scase{rev, Valid, "= keys in reverse order"})
		}
	case model.Array:
		out = append(out, g.arrayCases(ps, cur, refs)...)
	case model.Map:
		out = append(out, scase{Obj{}, Valid, "= {}"})
		if obj, ok := cur.(Obj); ok && len(obj) > 0 {
			v := obj[0].Val
			out = append(out,
				scase{Obj{{"ключ😀", v}}, Valid, "= one entry, non-ASCII key"},
				scase{Obj{{"", v}}, Valid, "= one entry, empty key"},
				scase{Obj{{"a", v}, {"b", v}, {"A", v}}, Valid, "= three entries"},
			)
		}
	}
	return out
}

func (g *gen) arrayCases(s *model.Schema, cur value, refs []string) []scase {
	var out []scase
	minN, maxN := int64(0), int64(-1)
	if s.MinItems != nil {
		minN = *s.MinItems
	}
	if s.MaxItems != nil {
		maxN = *s.MaxItems
	}
	inRange := func(n int64) bool { return n >= minN && (maxN < 0 || n <= maxN) }
	sizes := []int64{0, 1, 2, minN - 1, minN, minN + 1}
	if maxN >= 0 {
		sizes = append(sizes, maxN-1, maxN, maxN+1)
	}
	done := map[int64]bool{}
	for _, n := range sizes {
		if n < 0 || done[n] {
			continue
		}
		done[n] = true
		if items, ok := g.items(s, int(n), true, refs); ok {
			out = append(out, scase{items, expectOf(inRange(n)), ""})
		}
	}
	arr, _ := cur.([]value)
	if len(arr) == 0 {
		return out
	}
	v := arr[0]
	// Duplicates: the same item twice, and JSON-equal spellings of one item.
	out = append(out, scase{[]value{v, v}, expectOf(inRange(2) && !s.UniqueItems), "= the same item twice"})
	if alt := respell(v); alt != nil {
		out = append(out, scase{[]value{v, alt}, expectOf(inRange(2) && !s.UniqueItems), "= one item twice, spelled differently"})
	}
	return out
}

// respell returns v written differently but equal as JSON (1 → 1.0, keys reversed),
// or nil when it knows no other spelling.
func respell(v value) value {
	switch v := v.(type) {
	case Raw:
		if r, ok := ratOf(string(v)); ok && r.IsInt() {
			return Raw(string(v) + ".0")
		}
	case Obj:
		if len(v) >= 2 {
			rev := make(Obj, len(v))
			for i, m := range v {
				rev[len(v)-1-i] = m
			}
			return rev
		}
		for i, m := range v {
			if alt := respell(m.Val); alt != nil {
				out := append(Obj(nil), v...)
				out[i] = Member{m.Key, alt}
				return out
			}
		}
	case []value:
		for i, e := range v {
			if alt := respell(e); alt != nil {
				out := append([]value(nil), v...)
				out[i] = alt
				return out
			}
		}
	}
	return nil
}

// ---- strings -----------------------------------------------------------------------

type formatSet struct {
	valid, invalid, unknown []string
}

// formatSamples are hits, misses and doubtful cases per format. The doubtful ones have
// no expected verdict: validators differ in the details of RFC 5321, 3986 and 3339,
// and the suite then only checks that all three agree.
var formatSamples = map[string]*formatSet{
	"email": {
		valid:   []string{"a@example.com", "first.last+tag@sub.example.org", "x_y-z@example.co.uk", "a@b.co"},
		invalid: []string{"not-an-email", "a@", "@example.com", "a@@example.com", "a b@example.com", ""},
		unknown: []string{`"a b"@example.com`, "x@[1.2.3.4]", "x@[IPv6:::1]", "a@localhost", "ü@example.com", "a@bücher.example",
			"a..b@example.com", ".a@example.com", "a.@example.com", "a@-example.com", "a@exa_mple.com", "a@example.com.", "A@EXAMPLE.COM"},
	},
	"uri": {
		valid:   []string{"https://example.com/a?b=c#d", "urn:isbn:0451450523", "mailto:a@example.com", "http://[::1]:80/", "ftp://ftp.example.com/x", "http://a"},
		invalid: []string{"relative/path", "//example.com/x", "", "/abs/path", "?q=1"},
		unknown: []string{"http://exa mple.com", "a:b", "http://example.com/%zz", "https://example.com/ä", "https://例え.jp/",
			"http://[::1", "http://example.com:99999/", "HTTP://EXAMPLE.COM", "http:", "1http://a", "http://a\\b", "http://a/b c"},
	},
	"date": {
		valid:   []string{"2024-02-29", "2023-12-31", "0001-01-01"},
		invalid: []string{"2023-02-29", "2024-1-01", "2024-13-01", "2024-01-32", "20240101", "2024-01-01T00:00:00Z", "", "2024-02-30"},
		unknown: []string{"0000-01-01", "１２３４-01-01", "2024-01-01 ", "+2024-01-01"},
	},
	"date-time": {
		valid:   []string{"2024-01-01T00:00:00Z", "2024-02-29T12:34:56.5+05:30", "2024-01-01T00:00:00.123456789Z", "2024-01-01T00:00:00-00:00"},
		invalid: []string{"2024-01-01", "2024-01-01T24:00:00Z", "2024-01-01T00:00:00", "2024-13-01T00:00:00Z", "2023-02-29T00:00:00Z", ""},
		unknown: []string{"2024-01-01t00:00:00z", "2024-01-01 00:00:00Z", "2016-12-31T23:59:60Z", "2016-12-31T22:59:60-01:00",
			"2024-01-01T00:00:60Z", "2024-01-01T00:00:00+24:00", "2024-01-01T00:00:00.Z", "2024-01-01T00:00:00,5Z", "2024-01-01T00:00Z"},
	},
	"uuid": {
		valid:   []string{sampleUUID, "00000000-0000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff"},
		invalid: []string{"0b7f0f5e8a3b4c1e9d2a1f2e3d4c5b6a", "{" + sampleUUID + "}", sampleUUID[:35], "g" + sampleUUID[1:], sampleUUID + "0", ""},
		unknown: []string{strings.ToUpper(sampleUUID), "urn:uuid:" + sampleUUID, "0B7f0f5e-8a3b-4c1e-9d2a-1f2e3d4c5b6A"},
	},
}

// plainEmail matches the addresses emailOfLength builds: valid under every reading.
var plainEmail = regexp.MustCompile(`^[a-z]{1,64}@(?:[a-z]{1,63}\.)+com$`)

// formatExpect is the verdict of str under format f alone.
func formatExpect(f, str string) Expect {
	if f == "email" && plainEmail.MatchString(str) {
		return Valid
	}
	set := formatSamples[f]
	if set == nil {
		return Unknown
	}
	for _, v := range set.valid {
		if v == str {
			return Valid
		}
	}
	for _, v := range set.invalid {
		if v == str {
			return Invalid
		}
	}
	return Unknown
}

// stringExpect is the verdict of str under the string schema s: code-point lengths,
// the pattern read as ECMA-262 (its RE2 translation, internal/ecmare), enum, format.
func (g *gen) stringExpect(s *model.Schema, str string) Expect {
	n := int64(utf8.RuneCountInString(str))
	ok := (s.MinLength == nil || n >= *s.MinLength) && (s.MaxLength == nil || n <= *s.MaxLength)
	if s.Pattern != "" {
		re, err := compilePattern(s.Pattern)
		if err != nil {
			g.fail("pattern %q: %v", s.Pattern, err)
			return Unknown
		}
		ok = ok && re.MatchString(str)
	}
	if len(s.Enum) > 0 {
		in := false
		for _, e := range s.Enum {
			in = in || e.(string) == str
		}
		ok = ok && in
	}
	exp := expectOf(ok)
	if s.Format != "" {
		exp = and(exp, formatExpect(s.Format, str))
	}
	return exp
}

// Non-ASCII building blocks: an emoji outside the BMP (one code point, two UTF-16
// units, four UTF-8 bytes) and a letter with a combining mark (two code points).
const (
	emoji    = "😀"
	combined = "e\u0301"
)

// ofLength returns a string of n code points made of emoji and combining marks.
func ofLength(n int, mix bool) string {
	if !mix {
		return strings.Repeat(emoji, n)
	}
	s := strings.Repeat(combined, n/2)
	if n%2 == 1 {
		s += "é"
	}
	return s
}

func (g *gen) stringCandidates(s *model.Schema) []string {
	var out []string
	if cur := g.sampleString(s); cur != nil {
		out = append(out, cur.(string))
	}
	for _, e := range s.Enum {
		str := e.(string)
		out = append(out, str, strings.ToUpper(str), str+" ", str+"\u0301")
	}
	if len(s.Enum) > 0 {
		out = append(out, "zz-not-in-enum")
	}
	if set := formatSamples[s.Format]; set != nil {
		if key := s.Format + " " + s.Pattern; g.formats[key] {
			out = append(out, set.valid[0], set.invalid[0])
		} else {
			g.formats[key] = true
			out = append(out, set.valid...)
			out = append(out, set.invalid...)
			out = append(out, set.unknown...)
		}
	}
	var lens []int
	if s.MinLength != nil {
		lens = append(lens, int(*s.MinLength)-1, int(*s.MinLength))
	}
	if s.MaxLength != nil {
		lens = append(lens, int(*s.MaxLength), int(*s.MaxLength)+1)
	} else {
		lens = append(lens, 300)
	}
	if s.Pattern == "" && s.Format == "" && len(s.Enum) == 0 {
		out = append(out, "", "x", "ü", emoji, "\u0301", "a\u0000b", "\u2028", "\ufeff")
		for _, n := range lens {
			if n >= 0 {
				out = append(out, ofLength(n, false), ofLength(n, true))
			}
		}
	}
	if s.Pattern != "" {
		// Lengths at the bounds, built from the pattern itself.
		atBound := map[int]bool{}
		for _, n := range lens {
			atBound[n] = true
		}
		for extra := 0; extra < 40; extra++ {
			p, ok := patternSample(s.Pattern, extra)
			if !ok {
				break
			}
			if extra <= 2 || atBound[utf8.RuneCountInString(p)] {
				out = append(out, p)
			}
		}
		for _, extra := range []int{1, 30} {
			if p, ok := patternOverflow(s.Pattern, extra); ok {
				out = append(out, p)
			}
		}
		base := g.sampleString(s).(string)
		out = append(out, "", "!", base+"!", "!"+base, "\n"+base, base+"\n", strings.ToLower(base), strings.ToUpper(base),
			"Ä"+base, base+emoji, strings.Repeat(base, 2))
		// Where RE2 and ECMA-262 read the same spelling differently: the translation
		// (internal/ecmare) must give ajv's verdict.
		mid := utf8.RuneCountInString(base) / 2
		for _, c := range dialectChars {
			r := []rune(base)
			out = append(out, c, base+c, c+base, string(r[:mid])+c+string(r[mid:]))
		}
	}
	if s.Format == "email" && s.MaxLength != nil {
		for _, n := range lens {
			if e := emailOfLength(n); e != "" {
				out = append(out, e)
			}
		}
	}
	return out
}

// dialectChars are the characters on which RE2's and ECMA-262's readings of `.`, `\s`,
// `\S`, `$` and `\w` differ: line terminators (\r, U+2028, U+2029), ECMA-262's extra
// spaces (\v, U+00A0, U+FEFF, U+3000), an astral character (one code point, two UTF-16
// units), and characters neither reads as a space (U+0085, U+200B).
var dialectChars = []string{"\r", "\n", "\u2028", "\u2029", "\u00a0", "\ufeff", "\u3000", "\v", emoji, "\u0085", "\u200b", "é"}

// emailOfLength returns a plain address of exactly n characters, or "".
func emailOfLength(n int) string {
	const suffix = "@example.com"
	local := n - len(suffix)
	if local < 1 {
		return ""
	}
	if local <= 64 {
		return strings.Repeat("a", local) + suffix
	}
	// Long domains: labels of at most 63 characters.
	dom := n - 2 - len(".com")
	if dom < 1 || n > 254 {
		return ""
	}
	var labels []string
	for dom > 0 {
		l := min(dom, 63)
		if dom-l == 1 {
			l-- // never leave a one-character remainder that the dot would eat
		}
		labels = append(labels, strings.Repeat("b", l))
		dom -= l + 1
	}
	e := "a@" + strings.Join(labels, ".") + ".com"
	if len(e) != n {
		return ""
	}
	return e
}

// escapedCandidates are JSON strings written with \u escapes: surrogate pairs at the
// length bounds (one code point each).
func escapedCandidates(s *model.Schema) []Raw {
	if s.Pattern != "" || s.Format != "" || len(s.Enum) > 0 {
		return nil
	}
	var out []Raw
	var lens []int
	if s.MinLength != nil && *s.MinLength > 0 {
		lens = append(lens, int(*s.MinLength)-1, int(*s.MinLength))
	}
	if s.MaxLength != nil {
		lens = append(lens, int(*s.MaxLength), int(*s.MaxLength)+1)
	}
	for _, n := range lens {
		out = append(out, Raw(`"`+strings.Repeat(`\ud83d\ude00`, n)+`"`))
	}
	return out
}

// ---- integers --------------------------------------------------------------------

var (
	two53  = new(big.Int).Lsh(big.NewInt(1), 53)
	two63  = new(big.Int).Lsh(big.NewInt(1), 63)
	two31  = new(big.Int).Lsh(big.NewInt(1), 31)
	bigOne = big.NewInt(1)
)

// intRange is the range an integer schema allows: its bounds within int64 (int32).
func intRange(s *model.Schema) (lo, hi *big.Int) {
	if s.IntFormat == "int32" {
		lo, hi = big.NewInt(math.MinInt32), big.NewInt(math.MaxInt32)
	} else {
		lo, hi = big.NewInt(math.MinInt64), big.NewInt(math.MaxInt64)
	}
	raise := func(v *big.Int) {
		if v.Cmp(lo) > 0 {
			lo = v
		}
	}
	lower := func(v *big.Int) {
		if v.Cmp(hi) < 0 {
			hi = v
		}
	}
	if s.Minimum != nil {
		raise(big.NewInt(s.Minimum.I))
	}
	if s.ExclusiveMinimum != nil {
		raise(new(big.Int).Add(big.NewInt(s.ExclusiveMinimum.I), bigOne))
	}
	if s.Maximum != nil {
		lower(big.NewInt(s.Maximum.I))
	}
	if s.ExclusiveMaximum != nil {
		lower(new(big.Int).Sub(big.NewInt(s.ExclusiveMaximum.I), bigOne))
	}
	return lo, hi
}

func intValue(s *model.Schema, v *big.Int) value {
	if s.Encoding == "string" {
		return v.String()
	}
	return Raw(v.String())
}

// interestingInts are the integers every integer schema is tried with: its bounds ±1,
// the int32, 2^53 and int64 limits ±1, and the enum values ±1.
func interestingInts(s *model.Schema) []*big.Int {
	lo, hi := intRange(s)
	var out []*big.Int
	around := func(c *big.Int) {
		for d := int64(-1); d <= 1; d++ {
			out = append(out, new(big.Int).Add(c, big.NewInt(d)))
		}
	}
	around(lo)
	around(hi)
	around(big.NewInt(0))
	for _, c := range []*big.Int{two31, two53, two63} {
		around(c)
		around(new(big.Int).Neg(c))
	}
	around(new(big.Int).Sub(two31, bigOne))
	for _, e := range s.Enum {
		around(big.NewInt(e.(int64)))
	}
	return out
}

func intLiterals(s *model.Schema, timestamp bool) []string {
	var out []string
	for _, v := range interestingInts(s) {
		out = append(out, v.String())
	}
	lo, _ := intRange(s)
	v := lo.String()
	if len(s.Enum) > 0 {
		v = strconv.FormatInt(s.Enum[0].(int64), 10)
	}
	// Spellings of an allowed value, and non-integers.
	if v != "0" && v != "-0" {
		out = append(out, v+"0e-1")
	}
	out = append(out, v+".0", v+".5", v+"e0", v+".0e0", v+".000000000000000000001",
		"-0", "0.0", "-0.0", "0e10", "1e2", "1E2", "1e+2", "100e-2", "1.5", "-1.5", "0.5",
		"1.0000000000000000001", "1e-400", "1e19", "-1e19", "1e308", "-1e308", "1e400", "-1e400",
		"9.2233720368547758e18", "9.2233720368547759e18", "-9.2233720368547758e18",
		"9007199254740993.0", "4503599627370496.5")
	if timestamp {
		out = append(out, "8.64e15", "-8.64e15", "8.640000000000001e15", "-8.640000000000001e15", "1.7e12", "1700000000000.5")
	}
	return out
}

// numberExpect is the exact JSON Schema verdict of the number literal lit under the
// integer or number schema s: the literal's exact value against the decimals the
// emitted schema writes (for a number schema, the shortest decimal of each bound's and
// enum value's double), as jsonschema/v6 and the Go decoder compare them.
func numberExpect(s *model.Schema, lit string) Expect {
	r, ok := ratOf(lit)
	if !ok {
		return Unknown
	}
	var exp Expect
	if s.Kind == model.Integer {
		lo, hi := intRange(s)
		ok := r.IsInt() && r.Num().Cmp(lo) >= 0 && r.Num().Cmp(hi) <= 0
		if ok && len(s.Enum) > 0 {
			in := false
			for _, e := range s.Enum {
				in = in || r.Num().Cmp(big.NewInt(e.(int64))) == 0
			}
			ok = in
		}
		exp = expectOf(ok)
	} else {
		exp = numberExpectRat(s, r)
	}
	return exp
}

// numberOK reports whether the exact value r satisfies the number schema s, whose
// bounds and enum values are read as the shortest decimals the emitted schema writes
// for the registry's doubles (0.3, not the double
// 0.299999999999999988897769753748434595763683319091796875): JSON Schema semantics,
// which jsonschema/v6 and the Go decoder implement exactly (docs/agreement.md).
func numberOK(s *model.Schema, r *big.Rat) bool {
	return numberOKWith(s, r, func(f float64) *big.Rat {
		d, _ := ratOf(strconv.FormatFloat(f, 'g', -1, 64))
		return d
	})
}

// numberExpectRat is the verdict of the exact value r under the number schema s.
func numberExpectRat(s *model.Schema, r *big.Rat) Expect {
	return expectOf(numberOK(s, r))
}

func numberOKWith(s *model.Schema, r *big.Rat, rat func(float64) *big.Rat) bool {
	cmp := func(b *model.Bound) int {
		return r.Cmp(rat(b.Float()))
	}
	if s.Minimum != nil && cmp(s.Minimum) < 0 || s.ExclusiveMinimum != nil && cmp(s.ExclusiveMinimum) <= 0 ||
		s.Maximum != nil && cmp(s.Maximum) > 0 || s.ExclusiveMaximum != nil && cmp(s.ExclusiveMaximum) >= 0 {
		return false
	}
	// The bound the emitter writes on an open side (jsonschema.FiniteBound).
	if len(s.Enum) == 0 {
		if s.Minimum == nil && s.ExclusiveMinimum == nil && r.Cmp(new(big.Rat).Neg(finiteBound)) < 0 ||
			s.Maximum == nil && s.ExclusiveMaximum == nil && r.Cmp(finiteBound) > 0 {
			return false
		}
	}
	if len(s.Enum) > 0 {
		for _, e := range s.Enum {
			if r.Cmp(rat(e.(float64))) == 0 {
				return true
			}
		}
		return false
	}
	return true
}

// finiteBound is jsonschema.FiniteBound exactly.
var finiteBound, _ = ratOf(jsonschema.FiniteBound)

// exactText writes the double f as the exact decimal it is (no rounding anywhere).
func exactText(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1e21 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	s := new(big.Float).SetFloat64(f).Text('f', 1100)
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// shortText is the shortest decimal that reads back as f (not exact in general).
func shortText(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

func numberLiterals(s *model.Schema) []string {
	out := []string{"0", "-0", "1", "-1", "0.5", "-2.75", "1.5", "100", "1e2", "1E-2", "0.1", "1e308", "-1e308",
		"9007199254740993", "4.9e-324", "2.5e-308", "123456789.123456789",
		// Beyond the doubles (issue 13, item 4): the decoder rejects them as malformed, the
		// schemas by the bound every open side gets (jsonschema.FiniteBound). The largest
		// double, shortest and exact, and the bound itself, are valid.
		"1e309", "-1e309", "1e400", "-1e400", "1e999999", shortText(math.MaxFloat64), exactText(-math.MaxFloat64),
		jsonschema.FiniteBound, "-" + jsonschema.FiniteBound}
	for _, e := range s.Enum {
		f := e.(float64)
		out = append(out, exactText(f), shortText(f), exactText(f+0.25))
		if t := exactText(f); !strings.ContainsAny(t, ".e") {
			out = append(out, t+".0")
		}
		if f == math.Trunc(f) {
			out = append(out, strconv.FormatFloat(f, 'f', 1, 64)+"e0")
		}
	}
	for _, b := range []struct {
		b    *model.Bound
		down bool // the allowed side is below the bound
	}{{s.Minimum, false}, {s.ExclusiveMinimum, false}, {s.Maximum, true}, {s.ExclusiveMaximum, true}} {
		if b.b == nil {
			continue
		}
		f := b.b.Float()
		in, outside := math.Inf(1), math.Inf(-1)
		if b.down {
			in, outside = outside, in
		}
		out = append(out,
			exactText(f), exactText(math.Nextafter(f, in)), exactText(math.Nextafter(f, outside)),
			shortText(math.Nextafter(f, in)), shortText(math.Nextafter(f, outside)),
			exactText(f+1), exactText(f-1))
		// Decimals that round onto the bound from either side: exact comparison and
		// comparison after rounding to a double differ on them.
		if d := exactText(f); !strings.Contains(d, "e") {
			if !strings.Contains(d, ".") {
				d += "."
			}
			neg := strings.HasPrefix(d, "-")
			up := d + "00000000000000000001" // further from zero
			var down string
			if r, ok := ratOf(d); ok {
				eps, _ := ratOf("0.00000000000000000001")
				if neg {
					eps.Neg(eps)
				}
				down = new(big.Rat).Sub(r, eps).FloatString(20)
			}
			out = append(out, up)
			if down != "" {
				out = append(out, down)
			}
		}
	}
	return out
}

// ---- integers carried as strings --------------------------------------------------

var patterns sync.Map // pattern → *regexp.Regexp

// compilePattern compiles the ECMA-262 pattern p as bqgen reads it (internal/ecmare).
func compilePattern(p string) (*regexp.Regexp, error) {
	if re, ok := patterns.Load(p); ok {
		return re.(*regexp.Regexp), nil
	}
	re, err := ecmare.Compile(p)
	if err != nil {
		return nil, err
	}
	patterns.Store(p, re)
	return re, nil
}

var canonicalRE = regexp.MustCompile(`^-?(0|[1-9][0-9]*)$`)

func intStringCandidates(s *model.Schema) []string {
	var out []string
	for _, v := range interestingInts(s) {
		out = append(out, v.String())
	}
	lo, _ := intRange(s)
	v := lo.String()
	if len(s.Enum) > 0 {
		v = strconv.FormatInt(s.Enum[0].(int64), 10)
	}
	return append(out, "0"+v, "+"+v, " "+v, v+" ", v+"\n", v+".0", v+"e0", "-0", "00", "01", "-01", "+1",
		"", "-", "1e2", "0x1", "１", "٣", "1_000", "99999999999999999999", "-99999999999999999999")
}

func intStringExpect(s *model.Schema, str string) Expect {
	if !canonicalRE.MatchString(str) || str == "-0" {
		return Invalid
	}
	n, ok := new(big.Int).SetString(str, 10)
	if !ok {
		return Invalid
	}
	lo, hi := intRange(s)
	valid := n.Cmp(lo) >= 0 && n.Cmp(hi) <= 0
	if valid && len(s.Enum) > 0 {
		in := false
		for _, e := range s.Enum {
			in = in || n.Cmp(big.NewInt(e.(int64))) == 0
		}
		valid = in
	}
	return expectOf(valid)
}
