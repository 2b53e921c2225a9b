// Package asyncapi emits an AsyncAPI 3.0.0 document (JSON, or YAML with Options.YAML)
// describing every message of a registry (`bqgen asyncapi`, README.md). Emit is a pure function of the model: the
// same model and options give the same bytes.
//
// Layout, for urn:babel:orders:created.v2 (stem orders.created.v2, see jsonschema.Stem):
//
//	channels/orders.created.v2                 one channel per URN; address = the URN's
//	                                           default logical queue (model.Message.Queue)
//	operations/orders.created.v2.send          produce it (action send)
//	operations/orders.created.v2.receive       consume it (action receive)
//	components/messages/orders.created.v2      the message: name, title (the URN), summary,
//	                                           description, tags, x-babel-* extensions;
//	                                           payload = the envelope schema
//	components/schemas/orders.created.v2.envelope
//	                                           the full-envelope schema (what is on the wire)
//	components/schemas/orders.created.v2.data  its `data` schema, referenced by the envelope
//	components/schemas/<TypeName>              each named type of `types:` a message reaches
//	components/schemas/babelqueue.meta         the envelope's meta and dead_letter blocks,
//	components/schemas/babelqueue.dead_letter  shared by every envelope
//
// Decisions:
//
//   - Ids. Channel, message and schema ids derive from the URN's stem, which
//     jsonschema.Emit already guarantees unique and made of [a-z0-9._-], so every id is
//     a valid AsyncAPI key and no two URNs share one. Named types keep their CamelCase
//     names, which cannot collide with a stem (a stem contains a dot).
//   - Address. A BabelQueue producer publishes to a logical queue and the envelope's
//     `job` names the URN, so the channel address is the queue: several channels may
//     share an address, each carrying one message. The URN is the channel title and
//     x-babel-urn.
//   - Payload. The full envelope, as the JSON Schema emitter writes it for draft-07
//     (jsonschema.Emit with Draft7, the file jsonschema.EnvelopeFile): AsyncAPI 3.0's
//     default schema format is a superset of draft-07, so no schemaFormat is given. The
//     schemas are embedded unchanged except that $comment, $schema and $id are dropped,
//     `definitions` move to components/schemas (and "#/definitions/X" references become
//     "#/components/schemas/X"), and the envelope's `data` becomes a reference to the
//     separate data schema (titled like the data schema file) so generators name both
//     types; its meta and dead_letter blocks, the same for every URN, are shared schemas.
//   - Operations. The document describes the registry, not one application: every message
//     has a send and a receive operation. x-babel-owner-action says which of the two the
//     owning team performs: send for an event, receive for a command.
//   - Owner, kind, queue, supersedes and deprecation are x-babel-* extensions of the
//     message (AsyncAPI 3.0 messages have no `deprecated` field) and tags (the kind,
//     `owner:<team>`, `deprecated`); the schemas carry `deprecated: true` as the JSON
//     Schema emitter writes it, and the message description starts with the deprecation.
//
// The document has the top-level key "x-generated-by": "bqgen" (IsGenerated).
package asyncapi

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/babelqueue/bqgen/internal/yamlsafe"
	"go.yaml.in/yaml/v3"

	"github.com/babelqueue/bqgen/internal/emit/jsonschema"
	"github.com/babelqueue/bqgen/internal/model"
	"github.com/babelqueue/bqgen/internal/ordjson"
)

// Version is the AsyncAPI version of the emitted document.
const Version = "3.0.0"

// Defaults of Options.
const (
	DefaultTitle   = "BabelQueue messages"
	DefaultVersion = "1.0.0"
)

// GeneratedBy is the value of the document's "x-generated-by" key.
const GeneratedBy = "bqgen"

// Options controls Emit.
type Options struct {
	// Title is info.title (DefaultTitle when empty).
	Title string
	// Version is info.version, the version of the described API (DefaultVersion when empty).
	Version string
	// Description is info.description (a generated text when empty).
	Description string
	// YAML makes Emit write YAML (block style, the same keys in the same order) instead
	// of JSON. AsyncAPI documents are usually YAML; the CLI writes YAML when the output
	// file's name ends in .yaml or .yml (IsYAMLName).
	YAML bool
}

// generatedStart matches the start of a document Emit wrote, in either form.
var generatedStart = regexp.MustCompile(`^(\{\n  "asyncapi": "[^"\n]*",\n  "x-generated-by": "bqgen",\n|asyncapi: [^\n]*\nx-generated-by: bqgen\n)`)

// IsYAMLName reports whether a file name asks for YAML: it ends in .yaml or .yml, in
// any case.
func IsYAMLName(name string) bool {
	ext := strings.ToLower(filepath.Ext(name))
	return ext == ".yaml" || ext == ".yml"
}

// IsGenerated reports whether content is an AsyncAPI document Emit wrote: a JSON or
// YAML mapping whose top-level "x-generated-by" is "bqgen". Only such a file may be
// overwritten.
func IsGenerated(content []byte) bool {
	// Emit's own output starts so (in JSON or YAML); the output directory gives
	// IsGenerated only a file's first 64 KiB.
	if generatedStart.Match(content) {
		return true
	}
	var top struct {
		GeneratedBy *string `json:"x-generated-by" yaml:"x-generated-by"`
	}
	if err := json.Unmarshal(content, &top); err != nil {
		top.GeneratedBy = nil
		if err := yaml.Unmarshal(content, &top); err != nil {
			return false
		}
	}
	return top.GeneratedBy != nil && *top.GeneratedBy == GeneratedBy
}

// keyRe is the pattern AsyncAPI 3.0 requires of component keys.
var keyRe = regexp.MustCompile(`^[A-Za-z0-9._-]+$`)

const defaultDescription = "The BabelQueue messages of this registry. Every message is a JSON envelope " +
	"(schema_version 1: job, trace_id, data, meta, attempts, optional dead_letter) published to a " +
	"logical queue; the channel address is that queue and the envelope's job names the URN. " +
	"Generated by bqgen; do not edit."

// Emit returns the AsyncAPI 3.0.0 document of reg as indented JSON with a trailing newline.
func Emit(reg *model.Registry, opts Options) ([]byte, error) {
	if reg == nil {
		return nil, fmt.Errorf("asyncapi: no registry")
	}
	files, err := jsonschema.Emit(reg, jsonschema.Options{Draft: jsonschema.Draft7})
	if err != nil {
		return nil, err
	}
	byName := map[string][]byte{}
	for _, f := range files {
		byName[f.Name] = f.Content
	}

	info := ordjson.New().
		Set("title", or(opts.Title, DefaultTitle)).
		Set("version", or(opts.Version, DefaultVersion)).
		Set("description", or(opts.Description, defaultDescription))
	channels := ordjson.New()
	operations := ordjson.New()
	messages := ordjson.New()
	schemas := ordjson.New()
	types := map[string]any{} // named type → its schema, shared by every message
	var typeOrder []string

	// The envelope blocks every message shares (docs/contract.md#meta-block, #dead-letter-block) are one schema each.
	// Their keys cannot collide with a message's (which end in .data or .envelope) nor
	// with a named type's (CamelCase, no dot).
	shared := []*struct {
		prop, key, title string
		schema           any
	}{
		{prop: "meta", key: "babelqueue.meta", title: "BabelQueueMeta"},
		{prop: "dead_letter", key: "babelqueue.dead_letter", title: "BabelQueueDeadLetter"},
	}
	for _, m := range reg.Messages {
		stem := jsonschema.Stem(m.URN)
		if !keyRe.MatchString(stem) {
			return nil, fmt.Errorf("%s: URN %q cannot name an AsyncAPI component", m.Pos, m.URN)
		}
		raw, ok := byName[jsonschema.EnvelopeFile(m.URN)]
		if !ok {
			return nil, fmt.Errorf("%s: no envelope schema for %q", m.Pos, m.URN)
		}
		v, err := ordjson.Decode(raw)
		if err != nil {
			return nil, fmt.Errorf("%s: envelope schema of %q: %w", m.Pos, m.URN, err)
		}
		env, ok := v.(*ordjson.Object)
		if !ok {
			return nil, fmt.Errorf("%s: envelope schema of %q is not an object", m.Pos, m.URN)
		}
		for _, k := range []string{"$comment", "$schema", "$id"} {
			env.Del(k)
		}
		if defs, ok := env.Get("definitions"); ok {
			env.Del("definitions")
			d, _ := defs.(*ordjson.Object)
			if d == nil {
				return nil, fmt.Errorf("%s: envelope schema of %q: definitions is not an object", m.Pos, m.URN)
			}
			for i, name := range d.Keys {
				if !keyRe.MatchString(name) || strings.Contains(name, ".") {
					return nil, fmt.Errorf("type name %q cannot name an AsyncAPI component", name)
				}
				def := rewriteRefs(d.Values[i])
				if prev, seen := types[name]; seen {
					if !ordjson.Equal(prev, def) {
						return nil, fmt.Errorf("named type %q has two different schemas", name)
					}
					continue
				}
				types[name] = def
				typeOrder = append(typeOrder, name)
			}
		}
		env = rewriteRefs(env).(*ordjson.Object)

		envKey, dataKey := stem+".envelope", stem+".data"
		props, _ := env.Get("properties")
		if p, ok := props.(*ordjson.Object); ok {
			if data, ok := p.Get("data"); ok {
				if d, ok := data.(*ordjson.Object); ok {
					titled := ordjson.New().Set("title", jsonschema.PascalName(m.URN))
					for i, k := range d.Keys {
						if k != "title" {
							titled.Set(k, d.Values[i])
						}
					}
					data = titled
				}
				schemas.Add(dataKey, data)
				p.Set("data", ref("#/components/schemas/"+dataKey))
			}
			for _, sh := range shared {
				v, ok := p.Get(sh.prop)
				if !ok {
					continue
				}
				switch {
				case sh.schema == nil:
					sh.schema = v
					titled := ordjson.New().Set("title", sh.title)
					if o, ok := v.(*ordjson.Object); ok {
						for i, k := range o.Keys {
							titled.Set(k, o.Values[i])
						}
					}
					schemas.Add(sh.key, titled)
				case !ordjson.Equal(sh.schema, v):
					continue // not the shared block: keep it inline
				}
				p.Set(sh.prop, ref("#/components/schemas/"+sh.key))
			}
		}
		schemas.Add(envKey, env)

		messages.Add(stem, message(m, envKey))
		chRef := "#/channels/" + stem
		channels.Add(stem, channel(m, stem))
		msgRef := ref(chRef + "/messages/" + stem)
		for _, action := range []string{"send", "receive"} {
			op := ordjson.New().
				Set("action", action).
				Set("channel", ref(chRef)).
				Set("title", opTitle(action, m)).
				Set("summary", opSummary(action, m)).
				Set("messages", []any{msgRef})
			if action == ownerAction(m) {
				op.Set("x-babel-owner-action", true)
			}
			operations.Add(stem+"."+action, op)
		}
	}
	sort.Strings(typeOrder)
	for _, name := range typeOrder {
		schemas.Add(name, types[name])
	}

	components := ordjson.New()
	if len(schemas.Keys) > 0 {
		components.Set("schemas", sortObject(schemas))
	}
	if len(messages.Keys) > 0 {
		components.Set("messages", messages)
	}
	doc := ordjson.New().
		Set("asyncapi", Version).
		Set("x-generated-by", GeneratedBy).
		Set("info", info).
		Set("defaultContentType", "application/json").
		Set("channels", channels).
		Set("operations", operations).
		Set("components", components)
	b, err := ordjson.Marshal(doc)
	if err != nil || !opts.YAML {
		return b, err
	}
	return toYAML(b)
}

// toYAML rewrites a JSON document as YAML in block style: the same keys in the same
// order, every scalar with its tag (a string that would read as another type is
// quoted, also where only a YAML 1.1 reader would read it otherwise; numbers keep
// their literal text), multi-line strings as literal blocks.
func toYAML(doc []byte) ([]byte, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(doc, &root); err != nil {
		return nil, fmt.Errorf("asyncapi: YAML: %w", err)
	}
	var restyle func(n *yaml.Node)
	restyle = func(n *yaml.Node) {
		n.Style = 0
		for _, c := range n.Content {
			restyle(c)
		}
	}
	restyle(&root)
	// Strings YAML 1.1 readers (PyYAML, SnakeYAML) would read as booleans, numbers,
	// timestamps or null are double-quoted (internal/yamlsafe).
	b, err := yamlsafe.Marshal(&root)
	if err != nil {
		return nil, fmt.Errorf("asyncapi: YAML: %w", err)
	}
	return b, nil
}

func or(s, def string) string {
	if strings.TrimSpace(s) == "" {
		return def
	}
	return s
}

func ref(target string) *ordjson.Object { return ordjson.New().Set("$ref", target) }

// rewriteRefs returns v with every "#/definitions/…" reference pointing at
// components/schemas instead; it changes v in place.
func rewriteRefs(v any) any {
	switch v := v.(type) {
	case *ordjson.Object:
		for i, k := range v.Keys {
			if s, ok := v.Values[i].(string); ok && k == "$ref" && strings.HasPrefix(s, "#/definitions/") {
				v.Values[i] = "#/components/schemas/" + strings.TrimPrefix(s, "#/definitions/")
				continue
			}
			v.Values[i] = rewriteRefs(v.Values[i])
		}
	case []any:
		for i := range v {
			v[i] = rewriteRefs(v[i])
		}
	}
	return v
}

// ownerAction is what the owning team does with m: it sends its events and receives
// its commands.
func ownerAction(m *model.Message) string {
	if m.Kind == model.Command {
		return "receive"
	}
	return "send"
}

func kind(m *model.Message) string {
	if m.Kind == "" {
		return string(model.Event)
	}
	return string(m.Kind)
}

func opTitle(action string, m *model.Message) string {
	if action == "send" {
		return "Produce " + m.URN
	}
	return "Consume " + m.URN
}

func opSummary(action string, m *model.Message) string {
	if action == "send" {
		return "Publish a " + m.URN + " envelope to queue " + queue(m) + "."
	}
	return "Handle a " + m.URN + " envelope from queue " + queue(m) + "."
}

func channel(m *model.Message, stem string) *ordjson.Object {
	ch := ordjson.New().
		Set("address", queue(m)).
		Set("title", m.URN)
	if s := strings.TrimSpace(m.Summary); s != "" {
		ch.Set("summary", s)
	}
	ch.Set("description", "Queue "+queue(m)+", message "+m.URN+". Other URNs may share the queue; the envelope's job tells them apart.")
	ch.Set("messages", ordjson.New().Set(stem, ref("#/components/messages/"+stem)))
	ch.Set("x-babel-urn", m.URN)
	ch.Set("x-babel-queue", queue(m))
	return ch
}

func message(m *model.Message, envKey string) *ordjson.Object {
	msg := ordjson.New().
		Set("name", jsonschema.PascalName(m.URN)).
		Set("title", m.URN)
	if s := strings.TrimSpace(m.Summary); s != "" {
		msg.Set("summary", s)
	}
	var desc []string
	if m.Deprecation != nil {
		d := "**Deprecated.**"
		if r := strings.TrimSpace(m.Deprecation.Reason); r != "" {
			d += " " + r
		}
		desc = append(desc, d)
	}
	if s := strings.TrimSpace(m.Description); s != "" {
		desc = append(desc, s)
	}
	if m.Supersedes != "" {
		desc = append(desc, "Supersedes "+m.Supersedes+".")
	}
	if len(desc) > 0 {
		msg.Set("description", strings.Join(desc, "\n\n"))
	}
	msg.Set("contentType", "application/json")
	msg.Set("payload", ref("#/components/schemas/"+envKey))
	tags := []any{ordjson.New().Set("name", kind(m))}
	if m.Owner != "" {
		tags = append(tags, ordjson.New().Set("name", "owner:"+m.Owner))
	}
	if m.Deprecation != nil {
		tags = append(tags, ordjson.New().Set("name", "deprecated"))
	}
	msg.Set("tags", tags)
	msg.Set("x-babel-urn", m.URN)
	msg.Set("x-babel-kind", kind(m))
	if m.Owner != "" {
		msg.Set("x-babel-owner", m.Owner)
	}
	msg.Set("x-babel-queue", queue(m))
	if m.Supersedes != "" {
		msg.Set("x-babel-supersedes", m.Supersedes)
	}
	if m.Deprecation != nil {
		msg.Set("x-babel-deprecated", true)
		if m.Deprecation.Reason != "" {
			msg.Set("x-babel-deprecated-reason", m.Deprecation.Reason)
		}
	}
	return msg
}

// sortObject sorts the keys of o in place (the schemas: message schemas by stem, then
// named types, in byte order) and returns o.
func sortObject(o *ordjson.Object) *ordjson.Object {
	idx := make([]int, len(o.Keys))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return o.Keys[idx[a]] < o.Keys[idx[b]] })
	keys, vals := make([]string, len(idx)), make([]any, len(idx))
	for i, j := range idx {
		keys[i], vals[i] = o.Keys[j], o.Values[j]
	}
	o.Keys, o.Values = keys, vals
	return o
}

// queue is the channel address of m: its default queue, else its bounded context.
func queue(m *model.Message) string {
	if m.Queue != "" {
		return m.Queue
	}
	return m.Context()
}
