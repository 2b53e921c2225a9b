package jsonschema

import (
	"github.com/babelqueue/bqgen/internal/ordjson"
	"math"
	"sync"

	"github.com/babelqueue/bqgen/internal/model"
)

// Langs are the producer languages of meta.lang (docs/contract.md#meta-block).
var Langs = []string{"php", "go", "python", "java", "dotnet", "node"}

// DeadLetterReasons are the values of dead_letter.reason (docs/contract.md#dead-letter-block).
var DeadLetterReasons = []string{"failed", "unknown_urn", "poison"}

// ForbiddenField is a key the contract forbids (docs/contract.md#forbidden-fields).
type ForbiddenField struct {
	// Parent is "" for a top-level key, else the enclosing envelope key ("meta").
	Parent string
	Key    string
	// Instead is what to use instead.
	Instead string
}

// Name is the field's dotted name: timestamp, meta.ts.
func (f ForbiddenField) Name() string {
	if f.Parent == "" {
		return f.Key
	}
	return f.Parent + "." + f.Key
}

// ForbiddenFields lists the forbidden fields of docs/contract.md#forbidden-fields.
var ForbiddenFields = []ForbiddenField{
	{"", "timestamp", "meta.created_at (Unix ms)"},
	{"meta", "max_retries", "a consumer-side retry policy"},
	{"meta", "source", "meta.lang"},
	{"meta", "ts", "meta.created_at (Unix ms)"},
}

// NonBlankPattern matches a string holding at least one character that is not white
// space in the sense of Go's unicode.IsSpace (the generated decoder rejects a trace_id
// for which strings.TrimSpace gives ""). The ASCII spaces are written as escapes and
// the others as literal characters, so RE2 and ECMA-262 read the class the same way.
const NonBlankPattern = "[^\\t\\n\\v\\f\\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]"

func forbidden(f ForbiddenField) *ordjson.Object {
	return ordjson.New().
		Set("description", "Forbidden by the BabelQueue wire contract: use "+f.Instead+" instead.").
		Set("not", ordjson.New())
}

func timestampSchema(desc string) *ordjson.Object {
	return ordjson.New().
		Set("description", desc).
		Set("x-babel-type", "timestamp").
		Set("type", "integer").
		Set("minimum", int64(-maxTimestamp)).
		Set("maximum", int64(maxTimestamp))
}

func countSchema(desc string) *ordjson.Object {
	return ordjson.New().
		Set("description", desc).
		Set("type", "integer").
		Set("minimum", 0).
		Set("maximum", int64(math.MaxInt64))
}

func stringList(vals []string) []any {
	out := make([]any, len(vals))
	for i, v := range vals {
		out[i] = v
	}
	return out
}

// idSchema is the schema of meta.id.
func idSchema() *ordjson.Object {
	o := ordjson.New().
		Set("description", "Unique id of this message (UUID), distinct from trace_id.").
		Set("type", "string").
		Set("format", "uuid")
	setPatterns(o, "", UUIDFormatPattern)
	return o
}

func metaSchema() *ordjson.Object {
	props := ordjson.New().
		Set("id", idSchema()).
		Set("queue", ordjson.New().
			Set("description", "The logical queue the message was produced to.").
			Set("type", "string").
			Set("minLength", 1)).
		Set("lang", ordjson.New().
			Set("description", "Producer language.").
			Set("type", "string").
			Set("enum", stringList(Langs))).
		Set("schema_version", ordjson.New().
			Set("description", "Envelope schema version; always 1.").
			Set("type", "integer").
			Set("const", 1)).
		Set("created_at", timestampSchema("Production time in Unix epoch milliseconds, UTC."))
	for _, f := range ForbiddenFields {
		if f.Parent == "meta" {
			props.Set(f.Key, forbidden(f))
		}
	}
	return ordjson.New().
		Set("description", "Immutable after production.").
		Set("type", "object").
		Set("properties", props).
		Set("required", []any{"id", "queue", "lang", "schema_version", "created_at"})
}

func deadLetterSchema() *ordjson.Object {
	nullableString := func(desc string) *ordjson.Object {
		return ordjson.New().Set("description", desc).Set("type", []any{"string", "null"})
	}
	return ordjson.New().
		Set("description", "Present only on messages sitting on a dead-letter queue.").
		Set("type", "object").
		Set("properties", ordjson.New().
			Set("reason", ordjson.New().Set("type", "string").Set("enum", stringList(DeadLetterReasons))).
			Set("error", nullableString("Human-readable error.")).
			Set("exception", nullableString("Producer-language exception name, informational only.")).
			Set("failed_at", timestampSchema("Unix ms, UTC.")).
			Set("original_queue", ordjson.New().Set("description", "Queue it was consumed from.").Set("type", "string")).
			Set("attempts", countSchema("Attempts made before dead-lettering.")).
			Set("lang", ordjson.New().Set("description", "Language of the SDK that dead-lettered it.").Set("type", "string"))).
		Set("required", []any{"reason", "failed_at", "original_queue", "attempts"})
}

// envelopeFixed are the blocks of the envelope schema that are the same for every
// message, written once (ordjson.Raw): trace_id, meta, attempts, dead_letter and the
// forbidden fields (by their index in ForbiddenFields).
type envelopeFixed struct {
	traceID, meta, attempts, deadLetter Raw
	forbidden                           []Raw
}

// envelopeBlocks returns the envelopeFixed, built on first use.
var envelopeBlocks = sync.OnceValue(func() envelopeFixed {
	raw := mustRaw
	f := envelopeFixed{
		traceID: raw(ordjson.New().
			Set("description", "Correlation id: minted once, then copied unchanged on every hop. Not blank.").
			Set("type", "string").
			Set("pattern", NonBlankPattern)),
		meta:       raw(metaSchema()),
		attempts:   raw(countSchema("Delivery attempts so far; starts at 0.")),
		deadLetter: raw(deadLetterSchema()),
	}
	for _, ff := range ForbiddenFields {
		f.forbidden = append(f.forbidden, raw(forbidden(ff)))
	}
	return f
})

// envelopeDoc builds the envelope schema document of m (docs/contract.md).
//
// Identity: producers write job, consumers accept the alias urn when job is absent.
// The generated decoder reads job when present (and then ignores urn), else urn; the
// schema says the same with two exclusive anyOf branches: job present and equal to
// the URN, or job absent and urn equal to the URN.
// defs holds the definitions of the named types (nil: built here), a the objects (nil:
// a new Arena).
func envelopeDoc(reg *model.Registry, m *model.Message, opts Options, draft7 bool, defs *defCache, a *ordjson.Arena) (*ordjson.Object, error) {
	g := newGen(reg, draft7)
	g.defs, g.arena = defs, a
	doc := header(g.obj(16), opts, draft7, EnvelopeFile(m.URN))
	doc.Set("title", PascalName(m.URN)+"Envelope")
	doc.Set("description", "BabelQueue envelope (schema_version 1, https://babelqueue.com/docs/spec/1.x/envelope/) of "+m.URN+". Unknown keys are allowed at every level.")
	if m.Deprecation != nil {
		doc.Set("deprecated", true)
		if m.Deprecation.Reason != "" {
			doc.Set("x-deprecated-reason", m.Deprecation.Reason)
		}
	}
	doc.Set("x-babel-urn", m.URN)
	doc.Set("type", "object")

	body, err := g.root(m.Data)
	if err != nil {
		return nil, err
	}
	data := body
	if d := messageDescription(m); d != "" {
		data = g.obj(len(body.Keys)+1).Set("description", d)
		for i, k := range body.Keys {
			if k != "description" {
				data.Set(k, body.Values[i])
			}
		}
	}
	urnConst := func() *ordjson.Object { return g.obj(1).Set("const", m.URN) }
	fixed := envelopeBlocks()
	props := g.obj(8).
		Set("job", g.obj(2).
			Set("description", "The message URN. Producers always write job; consumers also accept the inbound alias urn when job is absent.").
			Set("const", m.URN)).
		Set("trace_id", fixed.traceID).
		Set("data", data).
		Set("meta", fixed.meta).
		Set("attempts", fixed.attempts).
		Set("dead_letter", fixed.deadLetter)
	for i, f := range ForbiddenFields {
		if f.Parent == "" {
			props.Set(f.Key, fixed.forbidden[i])
		}
	}
	doc.Set("properties", props)
	doc.Set("required", []any{"trace_id", "data", "meta", "attempts"})
	doc.Set("anyOf", []any{
		g.obj(4).
			Set("description", "Identity in job.").
			Set("type", "object").
			Set("properties", g.obj(1).Set("job", urnConst())).
			Set("required", []any{"job"}),
		g.obj(4).
			Set("description", "Identity in the inbound alias urn, job absent.").
			Set("type", "object").
			Set("properties", g.obj(2).Set("job", false).Set("urn", urnConst())).
			Set("required", []any{"urn"}),
	})
	if err := g.finish(doc); err != nil {
		return nil, err
	}
	return doc, nil
}
