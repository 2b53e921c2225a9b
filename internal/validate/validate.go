// Package validate checks BabelQueue messages: full envelopes against the wire
// contract (docs/contract.md) and their `data` against the URN's JSON Schema, or bare
// data against a given URN's schema. It is the logic of `bqgen validate`.
//
// The data schemas are the ones internal/emit/jsonschema emits (draft 2020-12),
// compiled in memory with santhosh-tekuri/jsonschema/v6 and format assertion on, so
// bqgen validate gives the verdict other languages get from the published schemas.
// Its problems about data are the generated decoder's, path for path and word for
// word: each jsonschema/v6 error is worded by the runtime's catalogue of problem texts
// (bqrt's problems.go, leafProblems) with the registry's schema at its path, and only
// the first problem per path in the catalogue's order is kept.
//
// The envelope checks are those of the envelope schema, written out so that each
// problem is named: they check what a producer must write (docs/contract.md: envelope,
// meta block, dead-letter block, forbidden fields).
// The generated Go Router is a tolerant reader: it rejects only what docs/contract.md#consumer-rules
// tells consumers to reject (no identity, blank trace_id, no data object, an
// unsupported schema_version, a malformed body), and accepts for instance a meta.lang
// outside the list or a missing meta.id, which bqgen validate reports.
package validate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	js "github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/babelqueue/bqgen/internal/ecmare"
	"github.com/babelqueue/bqgen/internal/emit/golang/rt/bqrt"
	"github.com/babelqueue/bqgen/internal/emit/jsonschema"
	"github.com/babelqueue/bqgen/internal/model"
	"github.com/babelqueue/bqgen/internal/pii"
)

// Kind classifies a problem.
type Kind string

// The kinds of problems. UnknownURN and UnsupportedSchemaVersion are distinct because
// consumers dead-letter them differently (docs/contract.md#dead-letter-block, #consumer-rules).
const (
	// Malformed: not one strict UTF-8 JSON value (docs/decisions.md#unicode, #non-finite-numbers).
	Malformed Kind = "malformed"
	// Envelope: the envelope breaks docs/contract.md#envelope, #meta-block or #dead-letter-block.
	Envelope Kind = "envelope"
	// ForbiddenField: a key docs/contract.md#forbidden-fields forbids (top-level timestamp, meta.ts, …).
	ForbiddenField Kind = "forbidden_field"
	// UnknownURN: job (or urn) names no message of the registry.
	UnknownURN Kind = "unknown_urn"
	// UnsupportedSchemaVersion: meta.schema_version is an integer other than 1.
	UnsupportedSchemaVersion Kind = "unsupported_schema_version"
	// InvalidData: data does not validate against the URN's schema.
	InvalidData Kind = "invalid_data"
)

// Problem is one reason a message is invalid.
type Problem struct {
	// Path is a JSON path into the message: $, $.meta.ts, $.data.lines[0].sku.
	Path    string
	Kind    Kind
	Message string
}

func (p Problem) String() string { return p.Path + ": " + string(p.Kind) + ": " + p.Message }

// Validator validates messages against one registry. It is safe for concurrent use.
type Validator struct {
	reg   *model.Registry
	opts  jsonschema.Options
	files map[string][]byte
	// pii holds, per URN with protected values, their paths in the SDKs' syntax
	// (pii.Inventory.Protected); protected says whether such a value may be a
	// ciphertext (WithProtected).
	pii       map[string][]string
	protected bool

	mu       sync.Mutex
	compiled map[string]*js.Schema
}

// Option configures a Validator.
type Option func(*Validator)

// WithProtected validates messages whose x-gdpr-sensitive values may be protected, as
// the BabelQueue SDKs' gdpr.Protect and the generated code's Cipher write them: a string
// at one of a URN's protected paths (`bqgen check --pii`) is taken as a ciphertext, and
// the problems at and inside it are left out (the clear value cannot be checked without
// the key). Without it, such problems say that the value may be protected.
func WithProtected() Option { return func(v *Validator) { v.protected = true } }

// New emits the registry's schemas in memory. Schemas are compiled on first use.
func New(reg *model.Registry, opts ...Option) (*Validator, error) {
	jopts := jsonschema.Options{Draft: jsonschema.Draft2020}
	files, err := jsonschema.Emit(reg, jopts)
	if err != nil {
		return nil, err
	}
	v := &Validator{reg: reg, opts: jopts, files: map[string][]byte{}, compiled: map[string]*js.Schema{}, pii: map[string][]string{}}
	for _, f := range files {
		v.files[f.Name] = f.Content
	}
	ix := pii.NewIndex(reg)
	for _, m := range reg.Messages {
		if ix.Marked(m) {
			if paths := ix.Of(m).Protected(); len(paths) > 0 {
				v.pii[m.URN] = paths
			}
		}
	}
	for _, o := range opts {
		o(v)
	}
	return v, nil
}

// dataSchema returns the compiled data schema of urn (which must be in the registry).
func (v *Validator) dataSchema(urn string) (*js.Schema, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if s, ok := v.compiled[urn]; ok {
		return s, nil
	}
	name := jsonschema.DataFile(urn)
	doc, err := js.UnmarshalJSON(bytes.NewReader(v.files[name]))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	c := js.NewCompiler()
	c.AssertFormat()
	c.UseRegexpEngine(ecmare.JSONSchemaEngine) // pattern is ECMA-262 (docs/patterns.md)
	id := v.opts.ID(name)
	if err := c.AddResource(id, doc); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	s, err := c.Compile(id)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	v.compiled[urn] = s
	return s, nil
}

// Data validates body as the bare data of urn. The error is for a URN the registry
// does not define or a schema that does not compile (never for an invalid body).
// Problems are bounded (bounded) and show no x-gdpr-sensitive value.
func (v *Validator) Data(urn string, body []byte) ([]Problem, error) {
	ps, err := v.bareData(urn, body)
	return bounded(ps), err
}

// bounded clips the path and the message of every problem to bqrt.MaxMessage bytes,
// as the generated runtime clips its errors (bqrt.Clip: the middle is cut), so that
// one problem prints at most a few hundred bytes whatever the message holds, and lists
// at most bqrt.MaxProblems problems, then one at "$" saying bqrt.MoreProblems, as the
// generated decoder lists them (which problems are the first 100 may differ: validate
// sorts by path, the decoder lists them as it reads the body).
func bounded(ps []Problem) []Problem {
	if len(ps) > bqrt.MaxProblems {
		ps = append(ps[:bqrt.MaxProblems:bqrt.MaxProblems], Problem{Path: "$", Kind: InvalidData, Message: bqrt.MoreProblems})
	}
	for i := range ps {
		ps[i].Path, ps[i].Message = bqrt.Clip(ps[i].Path), bqrt.Clip(ps[i].Message)
	}
	return ps
}

func (v *Validator) bareData(urn string, body []byte) ([]Problem, error) {
	if v.reg.Message(urn) == nil {
		return nil, fmt.Errorf("unknown URN %q: the registry does not define it", urn)
	}
	tree, err := parseMessage(body)
	if err != nil {
		return []Problem{{Path: "$", Kind: Malformed, Message: err.Error()}}, nil
	}
	tree, nums := prepareNumbers(tree, "$")
	ps, err := v.data(urn, tree, "$", nums)
	sortProblems(nums.problems)
	return append(nums.problems, ps...), err
}

// sealNumbers seals the paths of the numbers beyond the doubles found inside the data
// of urn (tree, at prefix; dataLoc the data's tokens from the message's root): inside
// an x-gdpr-sensitive value, a key the schema does not declare is written `*` and the
// literal is not shown, as everywhere else (the runtime's sealing). The sealed paths
// join nums.reported, so that no other problem is reported there.
func (v *Validator) sealNumbers(data *model.Schema, tree any, prefix string, dataLoc []string, nums *numbers) {
	for i, loc := range nums.locs {
		if len(loc) < len(dataLoc) || !slices.Equal(loc[:len(dataLoc)], dataLoc) {
			continue
		}
		path, marked, _ := sealPath(v.reg, data, prefix, tree, loc[len(dataLoc):])
		nums.problems[i].Path = path
		if marked {
			nums.problems[i].Message = "a number is beyond the range of a double (±1.7976931348623157e308): the generated decoder rejects the message as malformed" + bqrt.RedactedNote
		}
		nums.reported[path] = true
	}
}

// data validates tree, the data of urn found at prefix, against the URN's schema. A
// bound problem at a path in nums.reported (a number beyond the doubles, already
// reported as malformed) is left out: it says the same. A bound problem names the
// number by its exact value (nums.value: not its stand-in).
func (v *Validator) data(urn string, tree any, prefix string, nums *numbers) ([]Problem, error) {
	s, err := v.dataSchema(urn)
	if err != nil {
		return nil, err
	}
	var data *model.Schema
	if m := v.reg.Message(urn); m != nil {
		data = m.Data
	}
	var dataLoc []string
	if prefix != "$" {
		dataLoc = []string{"data"}
	}
	v.sealNumbers(data, tree, prefix, dataLoc, nums)
	err = s.Validate(tree)
	if err == nil {
		out := v.protectedValues(urn, tree, prefix, nil)
		sortProblems(out)
		return out, nil
	}
	verr, ok := err.(*js.ValidationError)
	if !ok {
		return []Problem{{Path: prefix, Kind: InvalidData, Message: err.Error()}}, nil
	}
	// One problem per path, the first in the catalogue's order (bqrt's problems.go),
	// worded by the catalogue, as the generated code reports them.
	first := map[string]ranked{}
	var order []string
	add := func(r ranked, marked bool) {
		if marked {
			// At or inside an x-gdpr-sensitive value: neither the value nor a key the
			// schema does not declare is shown, as the generated runtime seals its errors.
			r.Message = bqrt.Redact(r.Message)
		}
		if cur, ok := first[r.Path]; !ok {
			order = append(order, r.Path)
			first[r.Path] = r
		} else if r.rank < cur.rank {
			first[r.Path] = r
		}
	}
	var walk func(e *js.ValidationError)
	walk = func(e *js.ValidationError) {
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				walk(c)
			}
			return
		}
		path, marked, n := sealPath(v.reg, data, prefix, tree, e.InstanceLocation)
		if num, ok := n.value.(json.Number); ok {
			n.lit, n.exact, n.raw = nums.literal(num), nums.value(num), string(num)
			n.f, n.fok = nums.double(num)
		}
		child := func(key string) string {
			p, _, _ := sealPath(v.reg, data, prefix, tree, append(e.InstanceLocation[:len(e.InstanceLocation):len(e.InstanceLocation)], key))
			return p
		}
		for _, r := range leafProblems(e, n, path, child) {
			if nums.reported[r.Path] {
				continue // beyond the doubles: reported as malformed, one problem per path
			}
			add(r, marked)
		}
	}
	walk(verr)
	out := make([]Problem, 0, len(order))
	for _, p := range order {
		if r := first[p]; !r.unique || !typeBelow(first, p) {
			out = append(out, r.Problem)
		}
	}
	out = v.protectedValues(urn, tree, prefix, out)
	kept := out[:0]
	for _, p := range out {
		if !nums.reported[p.Path] { // one problem per path: the number's, malformed
			kept = append(kept, p)
		}
	}
	sortProblems(kept)
	return kept, nil
}

// protectedValues applies WithProtected to the problems ps of the data tree of urn at
// prefix: a problem at or inside a string found at one of the URN's protected paths is
// left out (WithProtected) or says the value may be protected. With WithProtected, a
// value at a protected path that is not a string was never protected: it is a
// problem (bqrt.ClearValueMessage, which names its kind only), as the generated
// consumer with a cipher rejects it; such problems are then the only ones returned,
// as that consumer rejects the message before it decodes the rest.
func (v *Validator) protectedValues(urn string, tree any, prefix string, ps []Problem) []Problem {
	paths := v.pii[urn]
	if len(paths) == 0 {
		return ps
	}
	var at []string     // the JSON paths of the strings at protected paths
	var clear []Problem // the values there that are not strings
	for _, p := range paths {
		valuesAt(tree, pii.Segments(p), prefix, func(c any, path string) {
			if _, isStr := c.(string); isStr {
				at = append(at, path)
			} else if v.protected {
				clear = append(clear, Problem{Path: path, Kind: InvalidData, Message: bqrt.ClearValueMessage(jsonKind(c))})
			}
		})
	}
	if len(clear) > 0 {
		// The consumer with a cipher rejects such a message before it decodes anything
		// (fail closed): it reports the clear values alone, and so does validate.
		return clear
	}
	if len(at) == 0 {
		return ps
	}
	out := ps[:0]
	for _, p := range ps {
		inside := false
		for _, a := range at {
			if rest, ok := strings.CutPrefix(p.Path, a); ok && (rest == "" || rest[0] == '.' || rest[0] == '[') {
				inside = true
				break
			}
		}
		switch {
		case inside && v.protected:
			continue
		case inside:
			if base, ok := strings.CutSuffix(p.Message, bqrt.RedactedNote); ok {
				p.Message = base + " (x-gdpr-sensitive: the value is not shown; if it is protected, validate with --protected)"
			} else {
				p.Message += " (an x-gdpr-sensitive value: if it is protected, validate with --protected)"
			}
		}
		out = append(out, p)
	}
	return out
}

// jsonKind names the JSON kind of a parsed value as the generated runtime does (null,
// boolean, number, string, array, object).
func jsonKind(v any) string {
	if _, ok := v.(json.Number); ok {
		return "number"
	}
	return typeName(v)
}

// valuesAt calls fn with every value (and its JSON path below path) that the protected
// path segs (pii.Segments: keys, every element of an array) reaches in v, as the SDKs'
// Protect and Unprotect find values: an absent key or a value of another shape on the
// way is skipped.
func valuesAt(v any, segs []pii.Segment, path string, fn func(any, string)) {
	obj, ok := v.(map[string]any)
	if !ok || len(segs) == 0 {
		return
	}
	child, ok := obj[segs[0].Key]
	if !ok {
		return
	}
	here := pathKey(path, segs[0].Key)
	visit := func(c any, at string) {
		if len(segs) > 1 {
			valuesAt(c, segs[1:], at, fn)
		} else {
			fn(c, at)
		}
	}
	if !segs[0].Array {
		visit(child, here)
		return
	}
	if arr, ok := child.([]any); ok {
		for i, e := range arr {
			visit(e, here+"["+strconv.Itoa(i)+"]")
		}
	}
}

// sealPath follows the instance location tokens from the data schema s (its value,
// tree, at prefix) and reports whether the value there is, or lies inside, an
// x-gdpr-sensitive value; path is its JSON path with every key inside a marked value
// that the schema does not declare (a map key, an unknown key: data) written ".*", as
// the generated runtime writes it.
func sealPath(reg *model.Registry, s *model.Schema, prefix string, tree any, tokens []string) (path string, marked bool, at node) {
	path, cur, sch := prefix, tree, s
	part := ""
	resolve := func() *model.Schema {
		seen := 0
		for sch != nil {
			if sch.GDPR != "" {
				marked = true
			}
			if sch.Kind != model.Ref || seen > 64 {
				break
			}
			seen++
			nt := pii.Named(reg, sch)
			if nt == nil {
				return nil
			}
			sch = nt.Schema
		}
		return sch
	}
	for _, tok := range tokens {
		r := resolve()
		part = ""
		switch c := cur.(type) {
		case []any:
			path += "[" + tok + "]"
			cur, sch = nil, nil
			if i, err := strconv.Atoi(tok); err == nil && i >= 0 && i < len(c) {
				cur = c[i]
			}
			if r != nil && r.Kind == model.Array {
				sch = r.Items
			}
		default:
			m, _ := cur.(map[string]any)
			cur, sch = m[tok], nil
			declared := r != nil && r.Kind == model.Money && (tok == "amount" || tok == "currency")
			if declared {
				part = tok
			}
			if r != nil && r.Kind == model.Object {
				for _, p := range r.Properties {
					if p.Name == tok {
						sch, declared = p.Schema, true
						break
					}
				}
			}
			if r != nil && r.Kind == model.Map {
				sch = r.Values
			}
			if marked && !declared {
				path += ".*"
			} else {
				path = pathKey(path, tok)
			}
		}
	}
	return path, marked, node{schema: resolve(), part: part, value: cur}
}

// typeBelow reports whether a problem of rankType (a value that does not decode in the
// generated code) lies strictly below path.
func typeBelow(first map[string]ranked, path string) bool {
	for p, r := range first {
		if rest, ok := strings.CutPrefix(p, path); ok && rest != "" && (rest[0] == '.' || rest[0] == '[') && r.rank == rankType {
			return true
		}
	}
	return false
}

// sortProblems orders problems by path, keeping the order of those at one path.
func sortProblems(ps []Problem) {
	sort.SliceStable(ps, func(i, j int) bool { return pathLess(ps[i].Path, ps[j].Path) })
}

// pathLess orders problem paths as text, but array indices by their number:
// $.lines[2] before $.lines[10].
func pathLess(a, b string) bool {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if i > 0 && j > 0 && a[i-1] == '[' && b[j-1] == '[' && isDigit(a[i]) && isDigit(b[j]) {
			ei, ej := i, j
			for ei < len(a) && isDigit(a[ei]) {
				ei++
			}
			for ej < len(b) && isDigit(b[ej]) {
				ej++
			}
			if x, y := a[i:ei], b[j:ej]; x != y {
				if len(x) != len(y) {
					return len(x) < len(y)
				}
				return x < y
			}
			i, j = ei, ej
			continue
		}
		if a[i] != b[j] {
			return a[i] < b[j]
		}
		i++
		j++
	}
	return i == len(a) && j < len(b)
}

// pathKey appends an object key to a path: $.a for identifier-like keys, $["a b"]
// otherwise.
func pathKey(path, key string) string {
	ident := key != ""
	for i := 0; i < len(key) && ident; i++ {
		c := key[i]
		ident = c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (i > 0 && isDigit(c))
	}
	if ident {
		return path + "." + key
	}
	q, _ := json.Marshal(key)
	return path + "[" + string(q) + "]"
}

// Envelope validates body as a full envelope (docs/contract.md) and its data against
// the URN's schema. It returns every problem found; nil means valid. The error is for
// a schema that does not compile (never for an invalid body).
func (v *Validator) Envelope(body []byte) ([]Problem, error) {
	ps, err := v.envelope(body)
	return bounded(ps), err
}

func (v *Validator) envelope(body []byte) ([]Problem, error) {
	tree, err := parseMessage(body)
	if err != nil {
		return []Problem{{Path: "$", Kind: Malformed, Message: err.Error()}}, nil
	}
	tree, nums := prepareNumbers(tree, "$")
	root, ok := tree.(map[string]any)
	if !ok {
		return append(nums.problems, Problem{Path: "$", Kind: Envelope, Message: "the envelope must be a JSON object, got " + typeName(tree)}), nil
	}
	c := &checker{problems: nums.problems, nums: nums}

	// Forbidden fields (docs/contract.md#forbidden-fields), named as such.
	meta, metaOK := root["meta"].(map[string]any)
	for _, f := range jsonschema.ForbiddenFields {
		parent := root
		if f.Parent == "meta" {
			if !metaOK {
				continue
			}
			parent = meta
		}
		if _, has := parent[f.Key]; has {
			c.add("$."+f.Name(), ForbiddenField, fmt.Sprintf("forbidden field %s (BabelQueue wire contract): use %s", f.Name(), f.Instead))
		}
	}

	// meta and schema_version first: an unsupported version is not read any further.
	supported := c.meta(root)
	if !supported {
		return c.problems, nil
	}

	// Identity: job, else the inbound alias urn. A job that is empty or null beside a
	// urn counts as absent, as the Router and the SDKs read it (docs/decisions.md); the
	// producer still broke the contract, which says producers always write job, so it
	// is reported, and the data is checked against the URN the consumer routes by.
	urn := ""
	idKey := "job"
	idVal, has := root["job"]
	if jv, _ := idVal.(string); has && (idVal == nil || jv == "") {
		if uv, ok := root["urn"].(string); ok && uv != "" {
			what := "empty"
			if idVal == nil {
				what = "null"
			}
			c.add("$.job", Envelope, "job is "+what+": a consumer routes by the urn alias beside it, but a producer always writes job")
			has = false
		}
	}
	if !has {
		idKey = "urn"
		idVal, has = root["urn"]
	}
	switch s, isStr := idVal.(string); {
	case !has:
		c.add("$", Envelope, "no identity: neither job nor urn is present")
	case !isStr:
		c.add("$."+idKey, Envelope, idKey+" must be a string (the message URN), got "+typeName(idVal))
	case s == "":
		c.add("$."+idKey, Envelope, idKey+" is empty")
	case v.reg.Message(s) == nil:
		c.add("$."+idKey, UnknownURN, fmt.Sprintf("unknown URN %q: the registry does not define it", s))
	default:
		urn = s
	}

	// trace_id: a non-blank string.
	switch tv, has := root["trace_id"]; {
	case !has:
		c.add("$", Envelope, "missing trace_id")
	default:
		if s, ok := tv.(string); !ok {
			c.add("$.trace_id", Envelope, "trace_id must be a string, got "+typeName(tv))
		} else if strings.TrimSpace(s) == "" {
			c.add("$.trace_id", Envelope, "trace_id is blank")
		}
	}

	// attempts: an integer >= 0, which every envelope carries (the wire contract's
	// envelope); the generated Router reads a missing one as 0.
	if av, has := root["attempts"]; has {
		c.count("$.attempts", av)
	} else {
		c.add("$", Envelope, "missing attempts (0 for a message never delivered)")
	}
	if dv, has := root["dead_letter"]; has {
		c.deadLetter(dv)
	}

	// data: an object, valid under the URN's schema.
	dv, has := root["data"]
	data, isObj := dv.(map[string]any)
	switch {
	case !has:
		c.add("$", Envelope, "missing data")
	case !isObj:
		c.add("$.data", Envelope, "data must be an object, got "+typeName(dv))
	case urn != "":
		ps, err := v.data(urn, data, "$.data", nums)
		if err != nil {
			return nil, err
		}
		// data sealed the paths of the numbers beyond the doubles inside the data: the
		// checker's first problems are those numbers' (prepareNumbers).
		sortProblems(nums.problems)
		copy(c.problems, nums.problems)
		c.problems = append(c.problems, ps...)
	}
	return c.problems, nil
}

type checker struct {
	problems []Problem
	// nums are the message's numbers (prepareNumbers): the literals behind replaced
	// ones, and the paths of those beyond the doubles.
	nums *numbers
}

func (c *checker) add(path string, k Kind, msg string) {
	c.problems = append(c.problems, Problem{Path: path, Kind: k, Message: msg})
}

// meta checks the meta block (docs/contract.md#meta-block). It returns false when schema_version is
// an integer other than 1: the rest of the envelope is then not read (docs/contract.md#consumer-rules).
func (c *checker) meta(root map[string]any) bool {
	mv, has := root["meta"]
	if !has {
		c.add("$", Envelope, "missing meta")
		return true
	}
	meta, ok := mv.(map[string]any)
	if !ok {
		c.add("$.meta", Envelope, "meta must be an object, got "+typeName(mv))
		return true
	}
	sv, has := meta["schema_version"]
	if !has {
		c.add("$.meta", Envelope, "missing meta.schema_version")
	} else if n, isNum := sv.(json.Number); !isNum {
		c.add("$.meta.schema_version", Envelope, "meta.schema_version must be the integer 1, got "+typeName(sv))
	} else {
		switch i, verdict := bqrt.ExactInt64(string(n)); {
		case verdict == bqrt.IntNotInteger:
			c.add("$.meta.schema_version", Envelope, "meta.schema_version must be the integer 1, got "+c.nums.literal(n))
		case verdict == bqrt.IntOutOfRange || i != 1:
			c.add("$.meta.schema_version", UnsupportedSchemaVersion, fmt.Sprintf("unsupported schema_version %s (supported: 1); the envelope is not read further", c.nums.literal(n)))
			return false
		}
	}
	if v, has := meta["id"]; !has {
		c.add("$.meta", Envelope, "missing meta.id")
	} else if s, ok := v.(string); !ok {
		c.add("$.meta.id", Envelope, "meta.id must be a string (UUID), got "+typeName(v))
	} else if !isUUID(s) {
		c.add("$.meta.id", Envelope, fmt.Sprintf("meta.id %q is not a UUID", s))
	}
	if v, has := meta["queue"]; !has {
		c.add("$.meta", Envelope, "missing meta.queue")
	} else if s, ok := v.(string); !ok {
		c.add("$.meta.queue", Envelope, "meta.queue must be a string, got "+typeName(v))
	} else if s == "" {
		c.add("$.meta.queue", Envelope, "meta.queue is empty")
	}
	if v, has := meta["lang"]; !has {
		c.add("$.meta", Envelope, "missing meta.lang")
	} else if s, ok := v.(string); !ok {
		c.add("$.meta.lang", Envelope, "meta.lang must be a string, got "+typeName(v))
	} else if !contains(jsonschema.Langs, s) {
		c.add("$.meta.lang", Envelope, fmt.Sprintf("meta.lang %q is not one of %s", s, strings.Join(jsonschema.Langs, ", ")))
	}
	if v, has := meta["created_at"]; !has {
		c.add("$.meta", Envelope, "missing meta.created_at")
	} else {
		c.timestamp("$.meta.created_at", v)
	}
	return true
}

func (c *checker) deadLetter(v any) {
	dl, ok := v.(map[string]any)
	if !ok {
		c.add("$.dead_letter", Envelope, "dead_letter must be an object, got "+typeName(v))
		return
	}
	for _, key := range []string{"reason", "failed_at", "original_queue", "attempts"} {
		if _, has := dl[key]; !has {
			c.add("$.dead_letter", Envelope, "missing dead_letter."+key)
		}
	}
	if v, has := dl["reason"]; has {
		if s, ok := v.(string); !ok || !contains(jsonschema.DeadLetterReasons, s) {
			c.add("$.dead_letter.reason", Envelope, "dead_letter.reason must be one of "+strings.Join(jsonschema.DeadLetterReasons, ", "))
		}
	}
	for _, key := range []string{"error", "exception"} {
		if v, has := dl[key]; has && v != nil {
			if _, ok := v.(string); !ok {
				c.add("$.dead_letter."+key, Envelope, "dead_letter."+key+" must be a string or null, got "+typeName(v))
			}
		}
	}
	if v, has := dl["failed_at"]; has {
		c.timestamp("$.dead_letter.failed_at", v)
	}
	for _, key := range []string{"original_queue", "lang"} {
		if v, has := dl[key]; has {
			if _, ok := v.(string); !ok {
				c.add("$.dead_letter."+key, Envelope, "dead_letter."+key+" must be a string, got "+typeName(v))
			}
		}
	}
	if v, has := dl["attempts"]; has {
		c.count("$.dead_letter.attempts", v)
	}
}

// integer checks that v is an integer within int64 and returns it.
func (c *checker) integer(path string, v any) (int64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		c.add(path, Envelope, "must be an integer, got "+typeName(v))
		return 0, false
	}
	if c.nums.reported[path] {
		return 0, false // beyond the doubles: already reported as malformed
	}
	i, verdict := bqrt.ExactInt64(string(n))
	switch verdict {
	case bqrt.IntNotInteger:
		c.add(path, Envelope, "must be an integer, got "+c.nums.literal(n))
		return 0, false
	case bqrt.IntOutOfRange:
		c.add(path, Envelope, "integer "+c.nums.literal(n)+" out of int64 range")
		return 0, false
	}
	return i, true
}

func (c *checker) count(path string, v any) {
	if i, ok := c.integer(path, v); ok && i < 0 {
		c.add(path, Envelope, fmt.Sprintf("must be >= 0, got %d", i))
	}
}

const maxTimestamp = 8_640_000_000_000_000

// timestamp checks Unix milliseconds within the JavaScript Date range.
func (c *checker) timestamp(path string, v any) {
	if i, ok := c.integer(path, v); ok && (i > maxTimestamp || i < -maxTimestamp) {
		c.add(path, Envelope, fmt.Sprintf("timestamp %d ms outside ±8640000000000000", i))
	}
}

// isUUID is the JSON Schema "uuid" format (hex in either case), as jsonschema/v6
// checks it for the envelope schema's meta.id.
func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < 36; i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !(isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
				return false
			}
		}
	}
	return true
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func typeName(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number:
		if _, verdict := bqrt.ExactInt64(string(v)); verdict != bqrt.IntNotInteger {
			return "integer"
		}
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// abbreviate is the generated decoder's: at most 40 bytes, start and end kept.
func abbreviate(s string) string { return bqrt.Abbreviate(s) }
