package jsonschema

import (
	"math"

	"github.com/babelqueue/bqgen/internal/model"
)

// Langs are the producer languages of meta.lang (CONTRACT §2).
var Langs = []string{"php", "go", "python", "java", "dotnet", "node"}

// DeadLetterReasons are the values of dead_letter.reason (CONTRACT §5).
var DeadLetterReasons = []string{"failed", "unknown_urn", "poison"}

// ForbiddenField is a key the contract forbids (CONTRACT §7).
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

// ForbiddenFields lists CONTRACT §7.
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

func forbidden(f ForbiddenField) *obj {
	return newObj().
		set("description", "Forbidden by the BabelQueue contract (CONTRACT §7): use "+f.Instead+" instead.").
		set("not", newObj())
}

func timestampSchema(desc string) *obj {
	return newObj().
		set("description", desc).
		set("x-babel-type", "timestamp").
		set("type", "integer").
		set("minimum", int64(-maxTimestamp)).
		set("maximum", int64(maxTimestamp))
}

func countSchema(desc string) *obj {
	return newObj().
		set("description", desc).
		set("type", "integer").
		set("minimum", 0).
		set("maximum", int64(math.MaxInt64))
}

func stringList(vals []string) []any {
	out := make([]any, len(vals))
	for i, v := range vals {
		out[i] = v
	}
	return out
}

func metaSchema() *obj {
	props := newObj().
		set("id", newObj().
			set("description", "Unique id of this message (UUID), distinct from trace_id.").
			set("type", "string").
			set("format", "uuid")).
		set("queue", newObj().
			set("description", "The logical queue the message was produced to.").
			set("type", "string").
			set("minLength", 1)).
		set("lang", newObj().
			set("description", "Producer language.").
			set("type", "string").
			set("enum", stringList(Langs))).
		set("schema_version", newObj().
			set("description", "Envelope schema version; always 1.").
			set("type", "integer").
			set("const", 1)).
		set("created_at", timestampSchema("Production time in Unix epoch milliseconds, UTC."))
	for _, f := range ForbiddenFields {
		if f.Parent == "meta" {
			props.set(f.Key, forbidden(f))
		}
	}
	return newObj().
		set("description", "Immutable after production (CONTRACT §2).").
		set("type", "object").
		set("properties", props).
		set("required", []any{"id", "queue", "lang", "schema_version", "created_at"})
}

func deadLetterSchema() *obj {
	nullableString := func(desc string) *obj {
		return newObj().set("description", desc).set("type", []any{"string", "null"})
	}
	return newObj().
		set("description", "Present only on messages sitting on a dead-letter queue (CONTRACT §5).").
		set("type", "object").
		set("properties", newObj().
			set("reason", newObj().set("type", "string").set("enum", stringList(DeadLetterReasons))).
			set("error", nullableString("Human-readable error.")).
			set("exception", nullableString("Producer-language exception name, informational only.")).
			set("failed_at", timestampSchema("Unix ms, UTC.")).
			set("original_queue", newObj().set("description", "Queue it was consumed from.").set("type", "string")).
			set("attempts", countSchema("Attempts made before dead-lettering.")).
			set("lang", newObj().set("description", "Language of the SDK that dead-lettered it.").set("type", "string"))).
		set("required", []any{"reason", "failed_at", "original_queue", "attempts"})
}

// envelopeDoc builds the envelope schema document of m (CONTRACT §1, §2, §5–§7).
//
// Identity: producers write job, consumers accept the alias urn when job is absent.
// The generated decoder reads job when present (and then ignores urn), else urn; the
// schema says the same with two exclusive anyOf branches: job present and equal to
// the URN, or job absent and urn equal to the URN.
func envelopeDoc(reg *model.Registry, m *model.Message, opts Options, draft7 bool) (*obj, error) {
	g := newGen(reg, draft7)
	doc := header(opts, draft7, EnvelopeFile(m.URN))
	doc.set("title", PascalName(m.URN)+"Envelope")
	doc.set("description", "BabelQueue envelope (schema_version 1) of "+m.URN+". Unknown keys are allowed at every level (CONTRACT §6).")
	if m.Deprecation != nil {
		doc.set("deprecated", true)
		if m.Deprecation.Reason != "" {
			doc.set("x-deprecated-reason", m.Deprecation.Reason)
		}
	}
	doc.set("x-babel-urn", m.URN)
	doc.set("type", "object")

	body, err := g.root(m.Data)
	if err != nil {
		return nil, err
	}
	data := body
	if d := messageDescription(m); d != "" {
		data = newObj().set("description", d)
		for i, k := range body.keys {
			if k != "description" {
				data.set(k, body.vals[i])
			}
		}
	}
	urnConst := func() *obj { return newObj().set("const", m.URN) }
	props := newObj().
		set("job", newObj().
			set("description", "The message URN. Producers always write job; consumers also accept the inbound alias urn when job is absent.").
			set("const", m.URN)).
		set("trace_id", newObj().
			set("description", "Correlation id: minted once, then copied unchanged on every hop. Not blank.").
			set("type", "string").
			set("pattern", NonBlankPattern)).
		set("data", data).
		set("meta", metaSchema()).
		set("attempts", countSchema("Delivery attempts so far; starts at 0.")).
		set("dead_letter", deadLetterSchema())
	for _, f := range ForbiddenFields {
		if f.Parent == "" {
			props.set(f.Key, forbidden(f))
		}
	}
	doc.set("properties", props)
	doc.set("required", []any{"trace_id", "data", "meta"})
	doc.set("anyOf", []any{
		newObj().
			set("description", "Identity in job.").
			set("type", "object").
			set("properties", newObj().set("job", urnConst())).
			set("required", []any{"job"}),
		newObj().
			set("description", "Identity in the inbound alias urn, job absent.").
			set("type", "object").
			set("properties", newObj().set("job", false).set("urn", urnConst())).
			set("required", []any{"urn"}),
	})
	if err := g.finish(doc); err != nil {
		return nil, err
	}
	return doc, nil
}
