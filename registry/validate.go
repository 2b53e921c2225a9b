package registry

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/babelqueue/bqgen/internal/ecmare"
	"github.com/babelqueue/bqgen/internal/jsonnum"
	"github.com/babelqueue/bqgen/internal/model"
)

const schemaURL = "https://babelqueue.dev/bqgen/registry.schema.json"

var (
	compileOnce     sync.Once
	compiled        *jsonschema.Schema
	compiledMessage *jsonschema.Schema // #/$defs/message
	compiledField   *jsonschema.Schema // #/$defs/field
	compileErr      error
	printer         = message.NewPrinter(language.English)
)

// formatSchema returns the compiled registry format schema and its message subschema.
func formatSchema() (root, msg *jsonschema.Schema, err error) {
	compileOnce.Do(func() {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaJSON))
		if err != nil {
			compileErr = err
			return
		}
		c := jsonschema.NewCompiler()
		c.UseRegexpEngine(ecmare.JSONSchemaEngine) // as editors read the format's patterns
		if err := c.AddResource(schemaURL, doc); err != nil {
			compileErr = err
			return
		}
		if compiled, compileErr = c.Compile(schemaURL); compileErr != nil {
			return
		}
		if compiledMessage, compileErr = c.Compile(schemaURL + "#/$defs/message"); compileErr != nil {
			return
		}
		compiledField, compileErr = c.Compile(schemaURL + "#/$defs/field")
	})
	return compiled, compiledMessage, compileErr
}

// splitMin is the number of messages from which validateFormat checks messages in
// parallel, each against the message subschema.
const splitMin = 64

// locatedError is a validation error of the subtree at prefix.
type locatedError struct {
	prefix []string
	err    error
}

// validateTree validates root against the format schema. Large registries are split:
// the file with an empty `messages` against the whole schema, then every message
// against the message subschema (which is what the whole schema applies to each), on
// all CPUs. The errors are the same either way.
func validateTree(root *tnode, split bool, memo *fieldMemo) []locatedError {
	sch, msgSch, _ := formatSchema()
	msgs := root.get("messages")
	if root.kind != tMap || msgs == nil || msgs.val.kind != tMap {
		return []locatedError{{nil, sch.Validate(memo.json(root, atFile))}}
	}
	entries := msgs.val.entries
	if !split || len(entries) < splitMin {
		// The whole file at once, less the messages known to be valid (messageMemo).
		keys := make([]string, len(entries))
		ms := make(map[string]any, len(entries))
		for i, e := range entries {
			k, known := memo.message(e.val)
			if known {
				continue
			}
			keys[i] = k
			ms[e.key] = memo.json(e.val, atMessage)
		}
		err := sch.Validate(memo.top(root, ms))
		if err == nil {
			memo.validMessages(keys)
		}
		return []locatedError{{nil, err}}
	}
	out := []locatedError{{nil, sch.Validate(memo.top(root, map[string]any{}))}}
	results := make([]error, len(entries))
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(entries) {
					return
				}
				k, known := memo.message(entries[i].val)
				if known {
					continue
				}
				if results[i] = msgSch.Validate(memo.json(entries[i].val, atMessage)); results[i] == nil {
					memo.validMessages([]string{k})
				}
			}
		}()
	}
	wg.Wait()
	for i, err := range results {
		if err != nil {
			out = append(out, locatedError{[]string{"messages", entries[i].key}, err})
		}
	}
	return out
}

// top is json of the file at root (a mapping) with msgs, the JSON of the messages to
// validate, as the value of its `messages` key.
func (fm *fieldMemo) top(root *tnode, msgs map[string]any) map[string]any {
	top := make(map[string]any, len(root.entries))
	for _, e := range root.entries {
		if e.key == "messages" {
			top[e.key] = msgs
			continue
		}
		top[e.key] = fm.json(e.val, topLevel(e.key))
	}
	return top
}

// Messages repeat too, but for their texts: two messages whose summaries, owners and
// descriptions differ and whose data blocks are alike are both valid or both not, as
// the message subschema only asks of those texts that they be strings. So fieldMemo
// also remembers the valid messages of a load by appendMessageKey, which writes
// those texts as a placeholder and leaves out the fields known to be valid (as json
// does), and a message known to be valid is left out of the document validated: the
// format schema applies #/$defs/message to each message on its own (no keyword looks
// at how many there are or at their URNs), so the errors of the others are the same.
// At 10,000 URNs this took the format check from ~0.1 s to ~0.02 s of CPU per load.

// messageTexts are the keywords of a message the message subschema only types as
// strings.
var messageTexts = map[string]bool{"summary": true, "description": true, "owner": true, "supersedes": true}

// message returns the key of the message n (appendMessageKey) and whether a message
// with that key is known to be valid. A nil *fieldMemo knows none.
func (fm *fieldMemo) message(n *tnode) (string, bool) {
	if fm == nil {
		return "", false
	}
	buf := keyBufs.Get().(*[]byte)
	fm.mu.RLock()
	key := fm.appendMessageKey((*buf)[:0], n)
	_, ok := fm.msgs[string(key)]
	fm.mu.RUnlock()
	k := ""
	if !ok {
		k = string(key)
	}
	*buf = key[:0]
	keyBufs.Put(buf)
	return k, ok
}

// validMessages remembers the messages of keys as valid ("" stands for none).
func (fm *fieldMemo) validMessages(keys []string) {
	if fm == nil {
		return
	}
	fm.mu.Lock()
	defer fm.mu.Unlock()
	for _, k := range keys {
		if k == "" {
			continue
		}
		if fm.msgs == nil {
			fm.msgs = map[string]struct{}{}
		}
		fm.msgs[k] = struct{}{}
	}
}

// appendMessageKey appends to b a serialization of the message n from which the
// validity of n can be told: that of appendTreeKey, but with the value of each of
// messageTexts that is a string written as S, and with the fields of the data block
// known to be valid (fm.valid, read under fm.mu) left out. Two messages with the same
// key are valid against #/$defs/message or both not.
func (fm *fieldMemo) appendMessageKey(b []byte, n *tnode) []byte {
	if n.kind != tMap {
		return appendTreeKey(append(b, 'X'), n)
	}
	b = append(b, 'M')
	for _, e := range n.entries {
		b = strconv.AppendInt(b, int64(len(e.key)), 10)
		b = append(b, ':')
		b = append(b, e.key...)
		switch {
		case messageTexts[e.key] && e.val.kind == tStr:
			b = append(b, 'S')
		case e.key == "data" && e.val.kind == tMap:
			b = append(b, 'D')
			for _, d := range e.val.entries {
				b = strconv.AppendInt(b, int64(len(d.key)), 10)
				b = append(b, ':')
				b = append(b, d.key...)
				if d.key != "properties" || d.val.kind != tMap {
					b = appendTreeKey(b, d.val)
					continue
				}
				b = append(b, 'P')
				for _, p := range d.val.entries {
					// The field's key goes after b's end: left there (it is not valid,
					// or not known to be) or dropped.
					at := len(b)
					b = strconv.AppendInt(b, int64(len(p.key)), 10)
					b = append(b, ':')
					b = append(b, p.key...)
					fieldAt := len(b)
					b = appendTreeKey(b, p.val)
					if _, ok := fm.valid[string(b[fieldAt:])]; ok {
						b = b[:at]
					}
				}
				b = append(b, '}')
			}
			b = append(b, '}')
		default:
			b = appendTreeKey(b, e.val)
		}
	}
	return append(b, '}')
}

// Field schemas (#/$defs/field) repeat: the same `{type: string, maxLength: 200}` or
// `{type: money}` appears in many messages. Whether a field schema is valid does not
// depend on where it sits (every use is a plain $ref to #/$defs/field), so each
// distinct valid field subtree is validated once per process and then stands in
// the document as fieldStandIn, a field known to be valid. A field that is not valid
// is left in place and validated in context as before, so the errors are the same.
// At 10,000 URNs this took the format check from ~1.5 s to ~0.4 s of CPU.

// fieldMemo remembers the valid field subtrees of one load (so that its memory goes
// with the load), by appendTreeKey. Safe for concurrent use; a nil *fieldMemo
// remembers nothing.
type fieldMemo struct {
	mu    sync.RWMutex
	valid map[string]struct{} // nil until the first valid field
	msgs  map[string]struct{} // the valid messages, by appendMessageKey; nil until the first
}

// keyBufs are the buffers fieldMemo.field writes keys into: a field that is known to
// be valid (most of them) is looked up without allocating.
var keyBufs = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

// fieldStandIn is a valid field schema. It is never mutated.
var fieldStandIn = map[string]any{"type": "string"}

// where says what a subtree is in a registry file, for fieldMemo.json.
type where int

const (
	atOther    where = iota
	atFile           // the root of a file
	atMessages       // the `messages` mapping
	atMessage        // one message
	atTypes          // the `types` mapping
	atData           // a message's `data`
	atProps          // the `properties` of a message's `data`
	atField          // one field schema
)

// topLevel is where the value of the file's top-level key is.
func topLevel(key string) where {
	switch key {
	case "messages":
		return atMessages
	case "types":
		return atTypes
	}
	return atOther
}

// json converts n, which sits at w, to the value validated against the
// format schema: toJSON's values (without its memo, so it is safe on a tree shared
// between goroutines), with every field schema already known to be valid replaced
// by fieldStandIn.
func (fm *fieldMemo) json(n *tnode, w where) any {
	if n.kind != tMap || w == atOther {
		return plainJSON(n)
	}
	if w == atField {
		return fm.field(n)
	}
	m := make(map[string]any, len(n.entries))
	for _, e := range n.entries {
		next := atOther
		switch {
		case w == atFile:
			next = topLevel(e.key)
		case w == atMessages:
			next = atMessage
		case w == atMessage && e.key == "data":
			next = atData
		case w == atData && e.key == "properties":
			next = atProps
		case w == atProps, w == atTypes:
			next = atField
		}
		v := fm.json(e.val, next)
		if w == atProps && isStandIn(v) {
			// Nothing in the format schema looks at a property's name or at how
			// many there are: a valid field need not be there at all.
			continue
		}
		m[e.key] = v
	}
	return m
}

// isStandIn reports whether v is fieldStandIn.
func isStandIn(v any) bool {
	m, ok := v.(map[string]any)
	return ok && len(m) == len(fieldStandIn) && reflect.ValueOf(m).UnsafePointer() == reflect.ValueOf(fieldStandIn).UnsafePointer()
}

// field is json of a field schema: fieldStandIn when the subtree is a
// valid field schema (looked up, or validated now against #/$defs/field and
// remembered), else the subtree itself.
func (fm *fieldMemo) field(n *tnode) any {
	if fm == nil {
		return plainJSON(n)
	}
	buf := keyBufs.Get().(*[]byte)
	key := appendTreeKey((*buf)[:0], n)
	defer func() {
		*buf = key[:0]
		keyBufs.Put(buf)
	}()
	fm.mu.RLock()
	_, ok := fm.valid[string(key)]
	fm.mu.RUnlock()
	if ok {
		return fieldStandIn
	}
	v := plainJSON(n)
	if compiledField.Validate(v) != nil {
		return v
	}
	fm.mu.Lock()
	if fm.valid == nil {
		fm.valid = map[string]struct{}{}
	}
	fm.valid[string(key)] = struct{}{}
	fm.mu.Unlock()
	return fieldStandIn
}

// appendTreeKey appends an unambiguous serialization of the JSON value of n to b:
// two subtrees get the same key exactly when their JSON values are equal with keys in
// the same order.
func appendTreeKey(b []byte, n *tnode) []byte {
	switch n.kind {
	case tNull:
		return append(b, 'z')
	case tBool:
		if n.b {
			return append(b, 't')
		}
		return append(b, 'f')
	case tNum:
		b = append(b, 'n')
		b = strconv.AppendInt(b, int64(len(n.num)), 10)
		b = append(b, ':')
		return append(b, n.num...)
	case tStr:
		b = append(b, 's')
		b = strconv.AppendInt(b, int64(len(n.str)), 10)
		b = append(b, ':')
		return append(b, n.str...)
	case tSeq:
		b = append(b, '[')
		for _, it := range n.items {
			b = appendTreeKey(b, it)
		}
		return append(b, ']')
	case tMap:
		b = append(b, '{')
		for _, e := range n.entries {
			b = strconv.AppendInt(b, int64(len(e.key)), 10)
			b = append(b, ':')
			b = append(b, e.key...)
			b = appendTreeKey(b, e.val)
		}
		return append(b, '}')
	}
	return b
}

// prefixLocations makes the instance locations of e and its causes absolute.
func prefixLocations(e *jsonschema.ValidationError, prefix []string) {
	if len(prefix) == 0 {
		return
	}
	loc := make([]string, 0, len(prefix)+len(e.InstanceLocation))
	e.InstanceLocation = append(append(loc, prefix...), e.InstanceLocation...)
	for _, c := range e.Causes {
		prefixLocations(c, prefix)
	}
}

// Keys allowed in each context, for did-you-mean suggestions.
var (
	topKeys     = []string{"version", "consumers", "go", "types", "messages", "lint"}
	messageKeys = []string{"kind", "summary", "description", "owner", "queue", "deprecated", "supersedes", "data", "lint"}
	fieldKeys   = []string{"type", "description", "nullable", "deprecated", "examples", "x-gdpr-sensitive", "go",
		"minLength", "maxLength", "pattern", "enum", "format", "minimum", "maximum", "exclusiveMinimum",
		"exclusiveMaximum", "encoding", "properties", "required", "additionalProperties", "items",
		"minItems", "maxItems", "uniqueItems", "values"}
	goKeys      = []string{"package"}
	fieldGoKeys = []string{"name", "enum"}
	lintKeys    = []string{"ignore", "reason"}
	builtins    = []string{"string", "integer", "number", "boolean", "object", "array", "map", "money", "timestamp", "uuid"}
)

type ctxKind int

const (
	cOther ctxKind = iota
	cTop
	cGo
	cLint
	cMessage
	cField
	cFieldGo
)

// describe classifies the object at path and names it for messages.
func describe(path []string) (ctxKind, string) {
	if len(path) == 0 {
		return cTop, "the registry"
	}
	var k ctxKind
	var what string
	switch path[0] {
	case "go":
		k, what = cGo, `the "go" block`
	case "lint":
		k, what = cLint, `the file's "lint" block`
	case "types":
		if len(path) == 1 {
			return cOther, `"types"`
		}
		k, what = cField, fmt.Sprintf("type %q", path[1])
		path = path[1:]
	case "messages":
		if len(path) == 1 {
			return cOther, `"messages"`
		}
		k, what = cMessage, fmt.Sprintf("message %q", path[1])
		if len(path) > 2 {
			switch path[2] {
			case "lint":
				k, what = cLint, fmt.Sprintf(`the "lint" block of message %q`, path[1])
			case "data":
				k, what = cField, fmt.Sprintf("the data of message %q", path[1])
			default:
				return cOther, what
			}
			path = path[2:]
		} else {
			return k, what
		}
	default:
		return cOther, "the registry"
	}
	path = path[1:]
	for len(path) > 0 {
		if k != cField {
			if k == cFieldGo && path[0] == "enum" {
				return cOther, what
			}
			return cOther, what
		}
		switch path[0] {
		case "properties":
			if len(path) == 1 {
				return cOther, "the properties of " + what
			}
			what = fmt.Sprintf("field %q", path[1])
			path = path[2:]
		case "items":
			what = "the items of " + what
			path = path[1:]
		case "values":
			what = "the values of " + what
			path = path[1:]
		case "go":
			k, what = cFieldGo, `the "go" block of `+what
			path = path[1:]
		default:
			return cOther, what
		}
	}
	return k, what
}

func allowedKeys(k ctxKind) []string {
	switch k {
	case cTop:
		return topKeys
	case cGo:
		return goKeys
	case cLint:
		return lintKeys
	case cMessage:
		return messageKeys
	case cField:
		return fieldKeys
	case cFieldGo:
		return fieldGoKeys
	}
	return nil
}

// locate finds the node at path below root: the value's position, the position of the
// key holding it (the value's position when there is no key) and the node.
func locate(root *tnode, path []string) (val, key model.Pos, n *tnode) {
	n = root
	val, key = root.pos, root.pos
	for _, seg := range path {
		switch n.kind {
		case tMap:
			e := n.get(seg)
			if e == nil {
				return
			}
			n, val, key = e.val, e.val.pos, e.keyPos
		case tSeq:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(n.items) {
				return
			}
			n = n.items[i]
			val, key = n.pos, n.pos
		default:
			return
		}
	}
	return
}

// validateFormat checks one file's tree against the registry format schema, with the
// valid fields of memo (the load's) taken as checked.
func validateFormat(root *tnode, memo *fieldMemo) (Diagnostics, error) {
	return validateFormatSplit(root, true, memo)
}

func validateFormatSplit(root *tnode, split bool, memo *fieldMemo) (Diagnostics, error) {
	if _, _, err := formatSchema(); err != nil {
		return nil, fmt.Errorf("registry: embedded schema: %w", err)
	}
	var leaves []*jsonschema.ValidationError
	var collect func(e *jsonschema.ValidationError)
	collect = func(e *jsonschema.ValidationError) {
		switch e.ErrorKind.(type) {
		case *kind.AnyOf, *kind.OneOf, *kind.PropertyNames:
			leaves = append(leaves, e)
			return
		}
		if len(e.Causes) == 0 {
			leaves = append(leaves, e)
			return
		}
		for _, c := range e.Causes {
			collect(c)
		}
	}
	for _, le := range validateTree(root, split, memo) {
		if le.err == nil {
			continue
		}
		var ve *jsonschema.ValidationError
		if !errors.As(le.err, &ve) {
			return nil, fmt.Errorf("registry: validating: %w", le.err)
		}
		prefixLocations(ve, le.prefix)
		collect(ve)
	}
	if len(leaves) == 0 {
		return nil, nil
	}
	var ds Diagnostics
	seen := map[string]bool{}
	reported := leaves[:0:0] // the leaves that are errors of their own, not echoes
	for _, l := range leaves {
		dd := formatDiags(root, l)
		if len(dd) > 0 {
			reported = append(reported, l)
		}
		for _, d := range dd {
			k := d.String()
			if !seen[k] {
				seen[k] = true
				ds = append(ds, d)
			}
		}
	}
	isolate(root, reported)
	return ds, nil
}

// isolate fences off what the format errors leaves found, so that the rest of the file
// can still be built and checked in the same run (issue 13, item 6):
//
//   - a value of the wrong type, form or range (`nullable: yes`, `type: strin`, `kind:
//     evnt`, an unknown key's value) is removed from the tree, as if it were not
//     written: its error is reported, and nothing reads it;
//   - the field schema (or `data`) that holds the error records the keywords the
//     error leaves in doubt (tnode.unsure): the one whose value was removed, the
//     keyword an unknown key was probably meant to be (`minimun` → minimum), or all
//     of them when the schema has no usable `type` or is no mapping at all. A rule
//     that reads one of those keywords skips the schema (loader.certain); the other
//     rules, and the schemas of its properties, items and values, are checked as
//     usual. A field schema that is itself of the wrong type (`items: [a]`) is kept
//     and read as a schema that accepts anything.
func isolate(root *tnode, leaves []*jsonschema.ValidationError) {
	drop := map[*tnode]map[*tnode]bool{} // parent → children to remove
	dropChild := func(parent, child *tnode) {
		if drop[parent] == nil {
			drop[parent] = map[*tnode]bool{}
		}
		drop[parent][child] = true
	}
	for _, e := range leaves {
		loc := e.InstanceLocation
		if k, ok := e.ErrorKind.(*kind.PropertyNames); ok {
			// Its InstanceLocation cannot be trusted (formatDiags); `types` is the only
			// mapping with propertyNames: a type whose name is not CamelCase is left out.
			if ts := root.val("types"); ts != nil {
				if t := ts.val(k.Property); t != nil {
					dropChild(ts, t)
				}
			}
			continue
		}
		path := fieldPath(root, loc)
		if len(path) != len(loc)+1 {
			continue // the location does not resolve: nothing to fence off
		}
		unit := -1 // the innermost field schema on the path
		for i := len(path) - 1; i >= 0; i-- {
			if path[i].field {
				unit = i
				break
			}
		}
		last := len(path) - 1
		switch k := e.ErrorKind.(type) {
		case *kind.Required, *kind.AdditionalProperties:
			// About the keys of the mapping at the location, not its value.
			switch {
			case unit >= 0 && unit < last:
				path[unit].n.doubt(loc[unit]) // in a keyword's mapping (`go`)
			case unit == last:
				if r, ok := k.(*kind.Required); ok && contains(r.Missing, "type") {
					path[unit].n.doubt("*")
				}
				if a, ok := k.(*kind.AdditionalProperties); ok {
					for _, p := range a.Properties {
						path[unit].n.doubt(suggest(p, fieldKeys))
					}
				}
			}
			continue
		}
		switch {
		case unit == last:
			path[unit].n.doubt("*") // the schema itself is of the wrong type; it stays
			continue
		case unit >= 0 && unit == last-1:
			key := loc[unit] // path[i] is reached by loc[i-1]: the keyword under the unit
			switch e.ErrorKind.(type) {
			case *kind.FalseSchema, *kind.Not:
				if key != "default" {
					path[unit].n.doubt(suggest(key, fieldKeys)) // an unknown key
				}
			default:
				path[unit].n.doubt(key)
			}
		case unit >= 0:
			path[unit].n.doubt(loc[unit]) // inside a keyword's value: an enum item, go.name
		}
		if last > 0 { // the root stays: a file that is no mapping has nothing to build
			dropChild(path[last-1].n, path[last].n)
		}
	}
	for parent, kids := range drop {
		switch parent.kind {
		case tMap:
			kept := parent.entries[:0:0]
			for _, e := range parent.entries {
				if !kids[e.val] {
					kept = append(kept, e)
				}
			}
			parent.entries = kept
		case tSeq:
			kept := parent.items[:0:0]
			for _, it := range parent.items {
				if !kids[it] {
					kept = append(kept, it)
				}
			}
			parent.items = kept
		}
	}
}

// doubt records that a format error leaves keyword key of the field schema n in doubt
// ("*": every keyword); "" records nothing.
func (n *tnode) doubt(key string) {
	if key == "" {
		return
	}
	if n.unsure == nil {
		n.unsure = map[string]bool{}
	}
	n.unsure[key] = true
}

// pathStep is one node on the way to an instance location; field says it is a field
// schema (or a message's data): the unit whose rule checks a format error switches off.
type pathStep struct {
	n     *tnode
	field bool
}

// fieldPath returns the nodes from root along loc (as far as they exist), each with
// whether it is a field schema: an entry of `types`, a message's `data`, and the
// `properties` entries, `items` and `values` of a field.
func fieldPath(root *tnode, loc []string) []pathStep {
	steps := []pathStep{{n: root}}
	n, w := root, atFile
	for _, seg := range loc {
		var child *tnode
		switch n.kind {
		case tMap:
			child = n.val(seg)
		case tSeq:
			if i, err := strconv.Atoi(seg); err == nil && i >= 0 && i < len(n.items) {
				child = n.items[i]
			}
		}
		if child == nil {
			break
		}
		next := atOther
		switch w {
		case atFile:
			next = topLevel(seg)
		case atMessages:
			next = atMessage
		case atMessage:
			if seg == "data" {
				next = atData
			}
		case atTypes, atProps:
			next = atField
		case atData, atField:
			switch seg {
			case "properties":
				next = atProps
			case "items", "values":
				next = atField
			}
		}
		steps = append(steps, pathStep{n: child, field: next == atData || next == atField})
		n, w = child, next
	}
	return steps
}

func jsonKindName(t string) string {
	switch t {
	case "object":
		return "a mapping"
	case "array":
		return "a list"
	case "string":
		return "a string"
	case "integer":
		return "an integer"
	case "number":
		return "a number"
	case "boolean":
		return "true or false"
	case "null":
		return "empty (null)"
	}
	return t
}

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// formatDiags turns one leaf validation error into diagnostics.
func formatDiags(root *tnode, e *jsonschema.ValidationError) Diagnostics {
	loc := e.InstanceLocation
	valPos, keyPos, node := locate(root, loc)
	var last string
	var parent []string
	if len(loc) > 0 {
		last = loc[len(loc)-1]
		parent = loc[:len(loc)-1]
	}
	pk, pwhat := describe(parent)
	subject := fmt.Sprintf("%q in %s", last, pwhat)
	if len(loc) == 0 {
		subject = "the registry"
	} else if i, err := strconv.Atoi(last); err == nil && len(parent) > 0 {
		// Items count from 1, as lines and columns do.
		_, gw := describe(parent[:len(parent)-1])
		subject = fmt.Sprintf("item %d of %q in %s", i+1, parent[len(parent)-1], gw)
	}
	d := Diagnostic{Pos: valPos, Severity: SeverityError, Rule: RuleFormat}
	switch k := e.ErrorKind.(type) {
	case *kind.FalseSchema, *kind.Not:
		d.Pos = keyPos
		if contains(allowedKeys(pk), last) {
			// A known key whose value failed: unevaluatedProperties reports it too,
			// since failed subschemas evaluate nothing. The real error is reported.
			return nil
		}
		if last == "default" && pk == cField {
			d.Rule = RuleDefault
			d.Message = fmt.Sprintf("%q in %s is not supported: a default has no single cross-language meaning", last, pwhat)
			d.Hint = "make the field required, or document the default in `description`"
			return Diagnostics{d}
		}
		d.Message, d.Hint = unknownKey(root, last, pk, pwhat, parent, node)
		return Diagnostics{d}
	case *kind.AdditionalProperties:
		k0, what := describe(loc)
		var ds Diagnostics
		for _, p := range k.Properties {
			_, kp, pn := locate(root, append(append([]string(nil), loc...), p))
			dd := d
			dd.Pos = kp
			if p == "default" && k0 == cField {
				dd.Rule = RuleDefault
				dd.Message = fmt.Sprintf("%q in %s is not supported: a default has no single cross-language meaning", p, what)
				dd.Hint = "make the field required, or document the default in `description`"
			} else {
				dd.Message, dd.Hint = unknownKey(root, p, k0, what, loc, pn)
			}
			ds = append(ds, dd)
		}
		return ds
	case *kind.Required:
		_, what := describe(loc)
		d.Pos = keyPos
		var ds Diagnostics
		for _, m := range k.Missing {
			dd := d
			dd.Message = fmt.Sprintf("missing required key %q in %s", m, what)
			dd.Hint = requiredHint(m)
			ds = append(ds, dd)
		}
		return ds
	case *kind.Type:
		if node != nil && node.kind == tNull && len(k.Want) == 1 && k.Want[0] == "object" {
			d.Message = fmt.Sprintf("%s is empty; it must be %s", subject, jsonKindName(k.Want[0]))
		} else {
			var wants []string
			for _, w := range k.Want {
				if w != "boolean" {
					wants = append(wants, jsonKindName(w))
				}
			}
			if contains(k.Want, "boolean") {
				wants = append(wants, jsonKindName("boolean"))
			}
			d.Message = fmt.Sprintf("%s must be %s, not %s", subject, strings.Join(wants, " or "), jsonKindName(k.Got))
		}
		if len(loc) == 0 {
			d.Hint = "a registry file is a YAML mapping with `version: 1` and `messages:`"
		}
		if note, hint, at := strayKeyword(root, loc, node); note != "" {
			d.Pos, d.Message, d.Hint = at, d.Message+note, hint
			return Diagnostics{d}
		}
		if node != nil && node.kind == tNull && len(loc) >= 2 && loc[len(loc)-2] == "properties" {
			// The keywords after an empty property may be its own, under-indented.
			_, _, props := locate(root, parent)
			var entries []tentry
			if props != nil {
				entries = props.entries
			}
			if i := slices.IndexFunc(entries, func(e tentry) bool { return e.key == last }); i >= 0 && i+1 < len(entries) {
				next := entries[i+1]
				if _, hint, _ := strayKeyword(root, append(slices.Clip(parent), next.key), next.val); hint != "" {
					d.Hint = hint
					return Diagnostics{d}
				}
			}
		}
		if rh := readingHint(node, k.Want...); rh != "" {
			d.Hint = joinHint(d.Hint, rh) // how YAML read it says more than an example
		} else if d.Hint == "" {
			d.Hint = keywordHint(pk, last, parent)
		}
		return Diagnostics{d}
	case *kind.Const:
		d.Message = fmt.Sprintf("%s must be %s, not %s", subject, jsonText(k.Want), jsonText(k.Got))
		if last == "version" && len(parent) == 0 {
			d.Hint = "this bqgen reads registry format version 1"
		}
		return Diagnostics{d}
	case *kind.Enum:
		var wants []string
		for _, w := range k.Want {
			wants = append(wants, fmt.Sprint(w))
		}
		d.Message = fmt.Sprintf("%s must be one of %s; got %s", subject, strings.Join(wants, ", "), jsonText(k.Got))
		if s, ok := k.Got.(string); ok {
			sug := suggest(s, wants)
			if a := enumAliases[strings.ToLower(s)]; sug == "" && contains(wants, a) {
				sug = a
			}
			if sug != "" {
				d.Message += fmt.Sprintf("; did you mean %q?", sug)
				if _, err := strconv.Atoi(last); err == nil {
					d.Hint = "write " + sug // an item of a list
				} else {
					d.Hint = fmt.Sprintf("write %s: %s", yamlKey(last), sug)
				}
			}
		}
		return Diagnostics{d}
	case *kind.Pattern:
		d.Message, d.Hint = patternMessage(loc, subject, k.Got)
		return Diagnostics{d}
	case *kind.PropertyNames:
		// jsonschema/v6 aliases InstanceLocation of propertyNames errors with its
		// working slice, so it cannot be trusted; `types` is the only object of the
		// format constrained by propertyNames.
		_, kp, _ := locate(root, []string{"types", k.Property})
		d.Pos = kp
		d.Message = fmt.Sprintf("type name %q must be CamelCase: an upper-case letter, then letters and digits", k.Property)
		d.Hint = "rename the type, e.g. " + strconv.Quote(camelGuess(k.Property))
		if guess := camelGuess(k.Property); root.val("types").child(guess) != nil {
			d.Hint = fmt.Sprintf("rename the type to a CamelCase name other than %q, which is already a type", guess)
		}
		return Diagnostics{d}
	case *kind.AnyOf, *kind.OneOf:
		if last == "type" && node != nil && node.kind == tStr {
			d.Message = fmt.Sprintf("unknown type %q in %s", node.str, pwhat)
			if sug := builtinAlias(node.str); sug == "number" && moneyField(root, parent) != "" {
				// `number` would only trade this error for BQ020 (money in a float).
				d.Message += "; did you mean \"money\"?"
				d.Hint = fmt.Sprintf(`write %s: {type: money} (%s), carried as {"amount": 1299, "currency": "EUR"} with the amount in integer minor units (cents)`, yamlKey(parent[len(parent)-1]), moneyField(root, parent))
				return Diagnostics{d}
			} else if sug != "" {
				d.Message += fmt.Sprintf("; did you mean %q?", sug)
			} else if sug := suggest(node.str, builtins); sug != "" {
				d.Message += fmt.Sprintf("; did you mean %q?", sug)
			}
			d.Hint = "use one of " + strings.Join(builtins, ", ") + ", or a CamelCase name from `types:`"
			return Diagnostics{d}
		}
		d.Message = fmt.Sprintf("%s has an invalid value", subject)
		return Diagnostics{d}
	case *kind.UniqueItems:
		// The finding is about the repeated item: it points at the later one, and
		// names the earlier one as related.
		first, again := k.Duplicates[0], k.Duplicates[1]
		if node != nil && node.kind == tSeq && first >= 0 && again < len(node.items) && first < again {
			d.Pos, d.Related = node.items[again].pos, []model.Pos{node.items[first].pos}
		}
		d.Message = fmt.Sprintf("%s lists a value twice (items %d and %d)", subject, first+1, again+1)
		d.Hint = fmt.Sprintf("remove item %d or item %d", first+1, again+1)
		return Diagnostics{d}
	case *kind.MinLength:
		if last == "reason" {
			d.Message = fmt.Sprintf("%s must not be empty", subject)
			d.Hint = "say why the rules are silenced"
			return Diagnostics{d}
		}
	case *kind.Minimum:
		d.Message = fmt.Sprintf("%s must be at least %s, not %s", subject, jsonnum.RatText(k.Want), jsonnum.RatText(k.Got))
		return Diagnostics{d}
	case *kind.Maximum:
		d.Message = fmt.Sprintf("%s must be at most %s, not %s", subject, jsonnum.RatText(k.Want), jsonnum.RatText(k.Got))
		return Diagnostics{d}
	case *kind.ExclusiveMinimum:
		d.Message = fmt.Sprintf("%s must be above %s, not %s", subject, jsonnum.RatText(k.Want), jsonnum.RatText(k.Got))
		return Diagnostics{d}
	case *kind.ExclusiveMaximum:
		d.Message = fmt.Sprintf("%s must be below %s, not %s", subject, jsonnum.RatText(k.Want), jsonnum.RatText(k.Got))
		return Diagnostics{d}
	case *kind.MinItems:
		d.Message = fmt.Sprintf("%s must not be empty", subject)
		return Diagnostics{d}
	}
	d.Message = fmt.Sprintf("%s: %s", subject, e.ErrorKind.LocalizedString(printer))
	return Diagnostics{d}
}

// unknownKey is the message and hint for key, unknown in the mapping at path (of kind
// k, called what) below root, whose value is val. A did-you-mean must lead somewhere:
// when the suggested key would not take val either (`requird: true` → `required`, a
// list), the hint says what it takes, or where the intent belongs. A field schema
// written beside a `properties:` key (a property that lost its indentation) is named as
// such, with the place it belongs. The hint lists at most maxKeyHints keys, those that
// apply to the mapping's type, nearest to key first.
func unknownKey(root *tnode, key string, k ctxKind, what string, path []string, val *tnode) (msg, hint string) {
	msg = fmt.Sprintf("unknown key %q in %s", key, what)
	_, _, mapping := locate(root, path)
	allowed := keysFor(k, mapping, path)
	sug := suggest(key, allowedKeys(k)) // a misspelt key of another type is still named

	if key == "lint" && k == cField {
		in := "in a field"
		if len(path) > 0 && path[len(path)-1] == "data" {
			in = "in its data"
		}
		return msg + "; `lint` belongs on the message or the file, not " + in,
			"move `lint: {ignore: [...], reason: ...}` to the message, beside `data:`, or to the top level of the file for every message in it"
	}
	if sug != "" {
		msg += fmt.Sprintf("; did you mean %q?", sug)
	} else if where := misindented(key, k, mapping, val); where != "" {
		return msg + "; it looks like a property written at the wrong indentation", where
	}
	if len(allowed) > 0 {
		hint = "keys " + what + " takes, nearest first: " + strings.Join(nearestKeys(key, allowed, maxKeyHints), ", ")
	}
	if sug != "" && val != nil {
		if note := valueFit(k, sug, path, val); note != "" {
			hint = note + "; " + hint
		}
	}
	return msg, hint
}

// strayKeyword explains a property named like a field keyword (`type`, `minimum`, …)
// whose value is not a mapping, in a `properties:` mapping where the property before it
// (past other such keywords) is empty: the keywords were meant for that property and
// lack its indentation (`order_id:` then `type: integer` at the same column). It returns
// the note for the message, the hint and the keyword's key position; "" when loc is not
// such a keyword.
func strayKeyword(root *tnode, loc []string, node *tnode) (note, hint string, at model.Pos) {
	n := len(loc)
	if n < 2 || loc[n-2] != "properties" || node == nil || node.kind == tMap || !contains(allowedKeys(cField), loc[n-1]) {
		return "", "", at
	}
	_, _, props := locate(root, loc[:n-1])
	if props == nil || props.kind != tMap {
		return "", "", at
	}
	isKeyword := func(e tentry) bool { return e.val.kind != tMap && contains(allowedKeys(cField), e.key) }
	i := slices.IndexFunc(props.entries, func(e tentry) bool { return e.key == loc[n-1] })
	first := i
	for first > 0 && isKeyword(props.entries[first-1]) {
		first--
	}
	if i < 0 || first == 0 || props.entries[first-1].val.kind != tNull {
		return "", "", at
	}
	last := i
	for last+1 < len(props.entries) && isKeyword(props.entries[last+1]) {
		last++
	}
	owner, from, to := props.entries[first-1], props.entries[first].keyPos.Line, props.entries[last].keyPos.Line
	lines := fmt.Sprintf("line %d", from)
	if to > from {
		lines = fmt.Sprintf("lines %d-%d", from, to)
	}
	more := max(owner.keyPos.Column+2-props.entries[i].keyPos.Column, 2)
	note = fmt.Sprintf("; it looks like a keyword of %q (line %d), which is empty", owner.key, owner.keyPos.Line)
	hint = fmt.Sprintf("indent %s by %d more spaces, under `%s:`, so that %s belong%s to %q", lines, more, yamlKey(owner.key), keywordList(props.entries[first:last+1]), map[bool]string{true: "s"}[first == last], owner.key)
	return note, hint, props.entries[i].keyPos
}

// keywordList names the keys of entries: "type", or "type" and "minimum", or "type", "format" and "minimum".
func keywordList(entries []tentry) string {
	q := make([]string, len(entries))
	for i, e := range entries {
		q[i] = strconv.Quote(e.key)
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}

// moneyField says why the field schema at path below root is money, or "": its name has
// a money word (BQ020's, MoneyWords), or a sibling property is named `currency`.
func moneyField(root *tnode, path []string) string {
	n := len(path)
	if n < 2 || path[n-2] != "properties" {
		return ""
	}
	name := path[n-1]
	toks := nameTokens(name)
	if w := moneyWord(toks); w == name {
		return fmt.Sprintf("%q names money", name)
	} else if w != "" {
		return fmt.Sprintf("%q names money (%q)", name, w)
	}
	for _, t := range toks {
		if notMoneyWords[t] {
			return "" // a rate or a quantity beside the currency
		}
	}
	if _, _, props := locate(root, path[:n-1]); props != nil && props.kind == tMap && props.child("currency") != nil {
		return fmt.Sprintf("%q has a sibling \"currency\"", name)
	}
	return ""
}

// enumAliases maps short or other spellings of the registry's enum words (`kind`, and
// the languages of `consumers`) to the word, for a did-you-mean edit distance misses.
var enumAliases = map[string]string{"cmd": "command", "commands": "command", "evt": "event", "events": "event",
	"golang": "go", "js": "node", "javascript": "node", "typescript": "node", "ts": "node", "nodejs": "node",
	"py": "python", "python3": "python", "csharp": "dotnet", "c#": "dotnet", ".net": "dotnet", "kotlin": "java"}

// maxKeyHints is how many keys the hint of an unknown key lists.
const maxKeyHints = 5

// keysFor is the keys a mapping of kind k takes; for a field schema (or a message's
// data, always an object), those of its `type` and the common ones.
func keysFor(k ctxKind, mapping *tnode, path []string) []string {
	allowed := allowedKeys(k)
	if k != cField || mapping == nil || mapping.kind != tMap {
		return allowed
	}
	kd, ok := model.Object, len(path) > 0 && path[len(path)-1] == "data"
	if t := mapping.child("type"); t != nil && t.kind == tStr {
		kd, ok = builtinKinds[t.str]
		if !ok {
			kd, ok = model.Object, false // a named type: only the common keys
			return commonKeyList()
		}
	}
	if !ok {
		return allowed
	}
	out := commonKeyList()
	return append(out, kindKeys[kd]...)
}

// commonKeyList is the keys every field schema takes, in fieldKeys' order.
func commonKeyList() []string {
	var out []string
	for _, k := range fieldKeys {
		if commonKeys[k] {
			out = append(out, k)
		}
	}
	return out
}

// nearestKeys returns at most n of keys, the nearest to key (edit distance) first, ties
// in keys' order.
func nearestKeys(key string, keys []string, n int) []string {
	sorted := append([]string(nil), keys...)
	lk := strings.ToLower(key)
	sort.SliceStable(sorted, func(i, j int) bool {
		return editDistance(lk, strings.ToLower(sorted[i])) < editDistance(lk, strings.ToLower(sorted[j]))
	})
	return sorted[:min(n, len(sorted))]
}

// misindented returns the hint for key when its value is a field schema (a mapping
// with `type`) written in a field or data mapping beside that mapping's `properties:`:
// a property indented too little. "" otherwise.
func misindented(key string, k ctxKind, mapping, val *tnode) string {
	if k != cField || mapping == nil || val == nil || val.kind != tMap || val.child("type") == nil {
		return ""
	}
	props := mapping.get("properties")
	if props == nil || props.val.kind != tMap {
		return ""
	}
	e := mapping.get(key)
	hint := fmt.Sprintf("as a property, %q belongs under `properties:` (line %d)", key, props.keyPos.Line)
	if len(props.val.entries) > 0 && e != nil {
		first := props.val.entries[0]
		if d := first.keyPos.Column - e.keyPos.Column; d > 0 {
			hint += fmt.Sprintf(": indent it by %d more spaces, to the column of %q (line %d)", d, first.key, first.keyPos.Line)
		}
	}
	return hint
}

// valueFit says why val would be rejected under key sug too (in a mapping of kind k at
// path), and what to write instead, or returns "" when it would be accepted.
func valueFit(k ctxKind, sug string, path []string, val *tnode) string {
	sch := keywordSchema(k, sug)
	if sch == nil {
		return ""
	}
	err := sch.Validate(plainJSON(val))
	if err == nil {
		return ""
	}
	if sug == "required" && k == cField && val.kind != tSeq {
		return requiredHint2(path)
	}
	var ve *jsonschema.ValidationError
	if errors.As(err, &ve) {
		for len(ve.Causes) == 1 && len(ve.InstanceLocation) == 0 {
			ve = ve.Causes[0]
		}
		if t, ok := ve.ErrorKind.(*kind.Type); ok && len(ve.InstanceLocation) == 0 {
			var wants []string
			for _, w := range t.Want {
				wants = append(wants, jsonKindName(w))
			}
			return fmt.Sprintf("%q takes %s, not %s: %s", sug, strings.Join(wants, " or "), jsonKindName(t.Got), keywordHint(k, sug, path))
		}
	}
	return fmt.Sprintf("%q would not take this value either: %s", sug, keywordHint(k, sug, path))
}

// requiredHint2 is the hint for a field that says it is required itself (`required:
// true`, or a misspelt key with that value): JSON Schema lists the required property
// names on the object that holds them.
func requiredHint2(path []string) string {
	n := len(path)
	if n >= 2 && path[n-2] == "properties" {
		_, parent := describe(path[:n-2])
		return fmt.Sprintf("a field is not required by a flag of its own: list it on the object that holds it, `required: [%s]` in %s", yamlKey(path[n-1]), parent)
	}
	return "`required` lists the names of the required properties of this object: `required: [id, total]`; a field is made required in the list of the object that holds it"
}

// keywordExamples are example values of the keywords of a field, a message and the
// other mappings, for hints.
var keywordExamples = map[string]string{
	"type": "string", "description": "Free text.", "nullable": "true", "deprecated": "true",
	"examples": "[…]", "x-gdpr-sensitive": "true", "go": "{name: OrderID}", "minLength": "1", "maxLength": "200",
	"pattern": `"^[A-Z]{3}$"`, "enum": "[a, b]", "format": "date", "minimum": "0", "maximum": "100",
	"exclusiveMinimum": "0", "exclusiveMaximum": "100", "encoding": "string", "properties": "{id: {type: integer}}",
	"required": "[id]", "additionalProperties": "true", "items": "{type: string}", "minItems": "1", "maxItems": "100",
	"uniqueItems": "true", "values": "{type: string}", "kind": "event", "summary": "A customer placed an order.",
	"owner": "orders-team", "queue": "orders", "supersedes": "urn:babel:orders:created", "data": "{properties: {…}}",
	"lint": "{ignore: [BQ031], reason: …}", "ignore": "[BQ031]", "reason": "Legacy keys.", "version": "1",
	"consumers": "[go, node]", "types": "{Address: {type: object, …}}", "messages": "{urn:babel:orders:created: {…}}",
	"package": "events", "name": "OrderID",
}

// keywordHint is the hint for a key whose value has the wrong type: write it as the
// keyword takes it (for `required` in a field: where it belongs).
func keywordHint(k ctxKind, key string, path []string) string {
	if key == "required" && k == cField {
		return requiredHint2(path)
	}
	if k == cFieldGo && key == "enum" {
		return "write `go: {enum: {value: GoName}}`"
	}
	if ex, ok := keywordExamples[key]; ok {
		return fmt.Sprintf("write it as `%s: %s`", key, ex)
	}
	return ""
}

var (
	keywordMu      sync.Mutex
	keywordSchemas = map[string]*jsonschema.Schema{}
)

// keywordSchema is the registry format's subschema of key in a mapping of kind k, or
// nil.
func keywordSchema(k ctxKind, key string) *jsonschema.Schema {
	base := map[ctxKind]string{cTop: "#/properties/", cGo: "#/properties/go/properties/", cLint: "#/$defs/lint/properties/",
		cMessage: "#/$defs/message/properties/", cField: "#/$defs/keywords/properties/", cFieldGo: "#/$defs/keywords/properties/go/properties/"}[k]
	if base == "" {
		return nil
	}
	ptr := base + key
	keywordMu.Lock()
	defer keywordMu.Unlock()
	if sch, ok := keywordSchemas[ptr]; ok {
		return sch
	}
	var sch *jsonschema.Schema
	if doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaJSON)); err == nil {
		c := jsonschema.NewCompiler()
		if c.AddResource(schemaURL, doc) == nil {
			sch, _ = c.Compile(schemaURL + ptr)
		}
	}
	keywordSchemas[ptr] = sch
	return sch
}

func requiredHint(key string) string {
	switch key {
	case "version":
		return "add `version: 1` at the top of the file"
	case "messages":
		return "add `messages:` (it may be `messages: {}` in a file that only declares types)"
	case "data":
		return "add `data:` with the message's object schema (`data: {properties: {…}}`)"
	case "type":
		return "add `type:` (string, integer, number, boolean, object, array, map, money, timestamp, uuid, or a named type)"
	case "reason":
		return "say why the rules are silenced"
	case "ignore":
		return "list the rule ids to silence: `ignore: [BQ031]`"
	}
	return ""
}

func patternMessage(loc []string, subject string, got string) (string, string) {
	n := len(loc)
	switch {
	case n >= 2 && loc[n-2] == "ignore":
		return fmt.Sprintf("%q is not a rule id (BQ followed by three digits)", got), "the rule ids are listed in docs/rules.md"
	case n == 2 && loc[0] == "go" && loc[1] == "package":
		return fmt.Sprintf("Go package name %q must be lower-case letters, digits and _, starting with a letter", got), ""
	case n == 3 && loc[0] == "go" && loc[1] == "contexts":
		return fmt.Sprintf("Go package name %q of bounded context %q must be lower-case letters and digits, starting with a letter", got, loc[2]),
			"write it as " + strconv.Quote(packageGuess(got))
	case n >= 1 && loc[n-1] == "reason":
		return fmt.Sprintf("%s must not be blank", subject), "say why the rules are silenced"
	default:
		return fmt.Sprintf("%q is not an exported Go identifier (an upper-case letter, then letters, digits or _)", got), "write the Go name in CamelCase, e.g. " + strconv.Quote(camelGuess(got))
	}
}

// packageGuess turns s into a Go package name guess for hints: its ASCII letters and
// digits, lower-cased, without a leading digit ("pkg" when none is left).
func packageGuess(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' && b.Len() > 0 {
			b.WriteRune(r)
		}
	}
	if b.Len() == 0 {
		return "pkg"
	}
	return b.String()
}

// camelGuess turns s into a CamelCase guess for hints.
func camelGuess(s string) string {
	var b strings.Builder
	up := true
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z':
			if up {
				r -= 'a' - 'A'
			}
			b.WriteRune(r)
			up = false
		case r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
			if b.Len() == 0 && r <= '9' {
				b.WriteString("N")
			}
			b.WriteRune(r)
			up = false
		default:
			up = true
		}
	}
	if b.Len() == 0 {
		return "Name"
	}
	return b.String()
}

// suggest returns the candidate closest to s by edit distance (case-insensitive), or
// "" when none is close enough.
func suggest(s string, candidates []string) string {
	best, bestD := "", 1<<30
	ls := strings.ToLower(s)
	for _, c := range candidates {
		d := editDistance(ls, strings.ToLower(c))
		if d < bestD {
			best, bestD = c, d
		}
	}
	limit := 2
	if len(s) > 6 {
		limit = 3
	}
	if bestD > limit || bestD >= len(s) {
		return ""
	}
	return best
}

// editDistance is the optimal-string-alignment distance (Levenshtein plus
// transpositions) between a and b, in runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	if len(ra) > 64 || len(rb) > 64 {
		if a == b {
			return 0
		}
		return 1 << 20
	}
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}
