package golang

import (
	"github.com/babelqueue/bqgen/internal/model"
)

// PII-safe logging (docs/generated-code.md, "Logging personal data"): every
// descriptor of a schema marked x-gdpr-sensitive has the flag fGDPR, and the
// declared types whose values can hold a sensitive value get LogValue and String,
// one-liners over the runtime's bqrt.LogValue and bqrt.String (rt/bqrt/log.go). Types without
// any sensitive value get neither: there is nothing to hide, and every method costs
// build time in every package.

// holdsPII reports whether a value of s can contain a value marked x-gdpr-sensitive
// (s itself, a property, an item or map value, a named type, at any depth).
func (g *gen) holdsPII(s *model.Schema) bool {
	if g.pii == nil {
		// A least fixpoint over the named types, so that recursive types are handled.
		g.pii = map[*model.NamedType]bool{}
		for changed := true; changed; {
			changed = false
			for _, t := range g.reg.Types {
				if !g.pii[t] && g.piiIn(t.Schema) {
					g.pii[t] = true
					changed = true
				}
			}
		}
	}
	return g.piiIn(s)
}

func (g *gen) piiIn(s *model.Schema) bool {
	if s == nil {
		return false
	}
	if s.GDPR != "" {
		return true
	}
	switch s.Kind {
	case model.Ref:
		return g.pii[s.Named]
	case model.Object:
		for _, p := range s.Properties {
			if g.piiIn(p.Schema) {
				return true
			}
		}
	case model.Array:
		return g.piiIn(s.Items)
	case model.Map:
		return g.piiIn(s.Values)
	}
	return false
}

// logMethods writes LogValue and String of the declared type name described by desc
// when its schema s can hold a sensitive value. Value receivers, so that T and *T
// both log and print redacted (fmt's %v and %+v use String).
func (g *gen) logMethods(name string, s *model.Schema, desc string) {
	if !g.holdsPII(s) {
		return
	}
	f := g.out
	f.decl("// LogValue implements slog.LogValuer: x with every x-gdpr-sensitive value redacted.")
	f.write("func (x ", name, ") LogValue() ", f.qual("log/slog", "Value"), " {\n\treturn ", g.bq("LogValue"), "(&x, ", desc, ")\n}\n")
	f.decl("// String returns the JSON of x with every x-gdpr-sensitive value redacted, for fmt.")
	f.write("func (x ", name, ") String() string {\n\treturn ", g.bq("String"), "(&x, ", desc, ")\n}\n")
}
