package jsonschema

import (
	"fmt"
	"math"

	"github.com/babelqueue/bqgen/internal/model"
	"github.com/babelqueue/bqgen/internal/ordjson"
	"github.com/babelqueue/bqgen/internal/pii"
)

// The manifest profile: the data schemas registry.json points at, written for the
// BabelQueue SDKs' own readers (babelqueue-go schema.DirProvider and gdpr, the Python
// SDK's babelqueue.schema and babelqueue.gdpr, babelqueue-registry's bqschema). They
// read a subset of draft-07: `type` (one string; an array of types checks nothing),
// `required`, `properties`, `additionalProperties` (a boolean), `items` (one schema),
// `enum`, `const`, `minLength`, `minimum` and the `x-gdpr-sensitive` marks, walked
// through `properties` and `items` only; they follow no `$ref` and read no
// `anyOf`/`allOf`/`oneOf`. docs/jsonschema.md, "The manifest profile", and docs/pii.md.
//
// A profile schema is the draft-07 data schema with these changes:
//
//   - every use of a named type is the type's schema, inlined, with the use's
//     annotations (description, deprecation, examples, x-gdpr-sensitive) over the
//     type's; a nullable use adds "null" to `type` and null to `enum`, so `properties`
//     and the marks stay where the readers walk. A recursive type is inlined
//     pii.UnrollDepth times along a path; the use below is `{}` with the use's own
//     annotations. A URN that pii.Index.Inlined rejects (over pii.MaxBytes or
//     pii.MaxNesting: `bqgen check` reports BQ050) is an error: it is never written
//     with `$ref`, which would hide its marks from the SDKs;
//   - `minimum` is written wherever an exclusive lower bound says more: integers get
//     exclusiveMinimum + 1 (exact), numbers the exclusiveMinimum itself (the bound value
//     passes the readers, everything below fails);
//   - x-gdpr-sensitive is left out where the SDKs' path syntax would address another
//     value or none (pii.BadKey keys, arrays directly inside arrays, the data root):
//     there, gdpr.Protect would encrypt the wrong value or nothing.
//
// Every other keyword of the draft-07 data schema stays, so that full validators and
// tools that export the manifest (bqschema export-asyncapi, serve) read the same
// schema as from the data schema, up to the unroll depth.

// SDKDataFile names the manifest-profile data schema of a URN (what registry.json
// points at): urn:babel:orders:created.v2 → orders.created.v2.sdk.schema.json.
func SDKDataFile(urn string) string { return Stem(urn) + ".sdk.schema.json" }

// sdkPlan is what the registry's pii.Index decides about the manifest-profile schema
// of one message, taken from it once (the Index is not safe for concurrent use): whether
// its named types can be inlined, the bytes and levels they would add, and the most
// bytes the schema may take (sdkBound).
type sdkPlan struct {
	inlined     bool
	added, deep int
	bound       int
}

// planSDK takes the sdkPlan of m from ix.
func planSDK(ix *pii.Index, m *model.Message, opts Options) sdkPlan {
	_, added, deep := ix.Size(m)
	return sdkPlan{inlined: ix.Inlined(m), added: added, deep: deep, bound: sdkBound(ix, m, opts)}
}

// sdkDataDoc builds the manifest-profile data schema of m, as plan allows, its objects
// from a (nil: a new Arena).
func sdkDataDoc(reg *model.Registry, plan sdkPlan, m *model.Message, opts Options, name string, a *ordjson.Arena) (*ordjson.Object, error) {
	if !plan.inlined {
		return nil, fmt.Errorf("%s: %s: inlining the named types of %q would add more than %d bytes or nest deeper than %d levels (%d bytes, %d levels; BQ050)",
			m.Pos, name, m.URN, pii.MaxBytes, pii.MaxNesting, plan.added, plan.deep)
	}
	g := newGen(reg, true)
	g.arena = a
	in := &inliner{g: g, counts: map[*model.NamedType]int{}}
	g.inline = in.inline
	doc, err := genDataDoc(g, m, opts, name)
	if err != nil {
		return nil, err
	}
	sdkPass(doc, true, true, false)
	return doc, nil
}

// sdkBound is the most bytes the SDK schema of m may take: pii.Index.Size's estimate
// (at most the message's own schema text and pii.MaxBytes), and what a longer base URL
// than the estimate's 200 bytes adds to $id.
func sdkBound(ix *pii.Index, m *model.Message, opts Options) int {
	n, _, _ := ix.Size(m)
	base, _ := ordjson.Size(opts.BaseID)
	return n + max(0, base-200)
}

// inliner writes uses of named types for the manifest profile.
type inliner struct {
	g      *gen
	counts map[*model.NamedType]int // inlinings of each type on the current path
}

func (in *inliner) inline(use *model.Schema) *ordjson.Object {
	g := in.g
	nt := pii.Named(g.reg, use)
	if nt == nil || nt.Schema == nil {
		g.fail(use, "unknown named type %q", use.Ref)
		return ordjson.New()
	}
	var o *ordjson.Object
	if in.counts[nt] >= pii.UnrollDepth {
		o = ordjson.New().Set("$comment", fmt.Sprintf("%s, inlined %d times above: any value here", nt.Name, pii.UnrollDepth))
	} else {
		in.counts[nt]++
		o = g.node(nt.Schema)
		in.counts[nt]--
	}
	annotate(o, use)
	if use.Nullable {
		addNull(o)
	}
	r := nt.Schema.Resolve()
	g.examples(o, use, r != nil && r.Kind == model.Integer && r.Encoding == "string")
	return o
}

// addNull makes o accept null: "null" added to a single `type`, null to `enum`.
func addNull(o *ordjson.Object) {
	if t, _ := o.Get("type"); t != nil {
		if name, ok := t.(string); ok {
			o.Set("type", []any{name, "null"})
		}
	}
	if e, ok := o.Get("enum"); ok {
		vals, _ := e.([]any)
		for _, v := range vals {
			if v == nil {
				return
			}
		}
		o.Set("enum", append(append([]any(nil), vals...), nil))
	}
}

// sdkPass walks o as the SDK readers do (properties and items) and writes their
// `minimum` and leaves out the marks they would misplace. root: o is the document;
// addr: the SDK path of o addresses it; inItems: o is array items.
func sdkPass(o *ordjson.Object, root, addr, inItems bool) {
	if root || !addr {
		o.Del("x-gdpr-sensitive")
	}
	lowerBound(o)
	if props, ok := o.Get("properties"); ok {
		if p, ok := props.(*ordjson.Object); ok {
			for i, k := range p.Keys {
				if c, ok := p.Values[i].(*ordjson.Object); ok {
					sdkPass(c, false, addr && !pii.BadKey(k, root), false)
				}
			}
		}
	}
	if items, ok := o.Get("items"); ok {
		if c, ok := items.(*ordjson.Object); ok {
			sdkPass(c, false, addr && !inItems, true)
		}
	}
}

// lowerBound writes `minimum` for an exclusiveMinimum of a (non-nullable) integer or
// number schema when it says more than the schema's minimum.
func lowerBound(o *ordjson.Object) {
	t, _ := o.Get("type")
	ex, ok := o.Get("exclusiveMinimum")
	if !ok {
		return
	}
	cur, has := o.Get("minimum")
	switch t {
	case "integer":
		n, ok := ex.(int64)
		if !ok || n == math.MaxInt64 {
			return
		}
		if c, ok := cur.(int64); !has || ok && c < n+1 {
			o.Set("minimum", n+1)
		}
	case "number":
		x, ok := asFloat(ex)
		if !ok {
			return
		}
		if c, ok := asFloat(cur); !has || ok && c < x {
			o.Set("minimum", ex)
		}
	}
}

func asFloat(v any) (float64, bool) {
	switch v := v.(type) {
	case float64:
		return v, true
	case int64:
		return float64(v), true
	}
	return 0, false
}

// SDKDataSchemas returns a function that builds the manifest-profile data schema of a
// message of reg (the document Emit writes to SDKDataFile), without the other files:
// `bqgen fixtures` puts it into its manifest. The function fails as Emit would. The
// documents it returns share subtrees with each other (the final-newline guard of
// every pattern): read them, do not modify them.
func SDKDataSchemas(reg *model.Registry, opts Options) (func(m *model.Message) (*ordjson.Object, error), error) {
	opts, err := opts.normalize()
	if err != nil {
		return nil, err
	}
	ix := pii.NewIndex(reg)
	return func(m *model.Message) (*ordjson.Object, error) {
		return sdkDataDoc(reg, planSDK(ix, m, opts), m, opts, SDKDataFile(m.URN), nil)
	}, nil
}
