package pii

import (
	"strconv"

	"github.com/babelqueue/bqgen/internal/ecmare"
	"github.com/babelqueue/bqgen/internal/model"
	"github.com/babelqueue/bqgen/internal/ordjson"
)

// MaxBytes bounds what inlining named types adds to the manifest-profile schema of one
// URN (its `*.sdk.schema.json`), in bytes, as Index.Size estimates it (an upper bound of
// the bytes written): the file takes at most the message's own schema text (written
// once, whatever its size) and MaxBytes. A URN beyond it, or nested deeper than
// MaxNesting, is a `bqgen check` error (BQ050) at the URN: the SDKs follow no `$ref`,
// so its schema cannot be written for them without inlining, and a schema that keeps
// `$ref` hides its marks from their gdpr.Protect. The budget is the URN's own: what
// other URNs inline never counts. It bounds what inlining can add per URN (named
// types that use a type twice, level after level, double the inlined schema at each
// level, and each inlined use copies the type's descriptions) and the work of Of.
const MaxBytes = 1 << 20

// The fixed costs of the estimate (Index.Size), in bytes at indentation level 0: a line
// holding one keyword of a schema object (its newline, two spaces of indentation,
// the quoted keyword of at most 22 bytes, ": ", a comma) without its value; an element
// line of an array value or a key line of "properties" (newline, comma; written two
// levels deeper, which adds their indentation) without the element or ": "; the line
// that closes an array value; the document's header without the message's texts ($comment,
// $schema, title, x-babel-urn and an $id of up to 200 bytes besides the URN, which these
// three repeat).
const (
	keyLine    = 30
	elemLine   = 2
	endLine    = 5
	headerLine = 600
)

// Upper bounds of values the JSON Schema emitter derives from a schema rather than
// copies from the registry: a number bound (a float64 or int64 literal, the finite
// bound of numbers), the narrowing pattern of a format with its allOf wrapper (the
// longest, for uri, is 547 bytes before JSON escapes double its backslashes), the exact
// range pattern of an integer carried as a string, the expansion of money, the pattern
// of uuid.
const (
	boundValue  = 26
	formatValue = 1300
	rangeValue  = 2100
	moneyBytes  = 1000
	moneyLines  = 26
	uuidValue   = 100
)

// guardCost bounds the sibling that rules out a final newline where Python's and PCRE2's
// `$` would accept one: `"not": {"type": "string", "pattern": "\\n$"}`, four lines.
var guardCost = cost{bytes: 3*keyLine + 40, lines: 4}

// textCost is a keyword line whose value is the JSON string s.
func textCost(s string) cost {
	n, nl := ordjson.Size(s)
	return cost{bytes: keyLine + n, lines: 1 + nl}
}

// line is a keyword line whose value takes n bytes on that line.
func line(n int) cost { return cost{bytes: keyLine + n, lines: 1} }

// listCost is a keyword line whose value is an array of the given elements, each on
// its own line one level deeper (extra bytes added to each element).
func listCost(vals []any, extra int) cost {
	return listCostNull(vals, extra, false)
}

// listCostNull is listCost of vals followed by null when null is set.
func listCostNull(vals []any, extra int, null bool) cost {
	c := cost{bytes: keyLine + 1 + endLine, lines: 2}
	for _, v := range vals {
		n, nl := valueSize(v)
		c.add(cost{bytes: elemLine + extra + n, lines: 1 + nl}, 2)
	}
	if null {
		c.add(cost{bytes: elemLine + extra + len("null"), lines: 1}, 2)
	}
	return c
}

// valueSize is ordjson.Size(v), without marshalling the values whose text is plain:
// null, booleans and int64 (enum values of a message's own schemas, measured for every
// message).
func valueSize(v any) (bytes, newlines int) {
	switch x := v.(type) {
	case nil:
		return len("null"), 0
	case bool:
		if x {
			return len("true"), 0
		}
		return len("false"), 0
	case int64:
		var buf [24]byte
		return len(strconv.AppendInt(buf[:0], x, 10)), 0
	}
	return ordjson.Size(v)
}

// typeCost is the "type" keyword: a name, or [name, "null"].
func typeCost(nullable bool) cost {
	if nullable {
		return listCost([]any{"boolean", "null"}, 0)
	}
	return line(len(`"boolean"`))
}

// cutCost is the schema the manifest profile writes for a use of nt below the unroll
// depth: an object with one $comment that names the type. For an unknown type (nt nil,
// a BQ033 error: nothing is written) it is the cost of an empty object.
func cutCost(nt *model.NamedType, use *model.Schema) cost {
	c := cost{bytes: 3, lines: 1} // {, the closing line's newline and }
	if nt == nil {
		return c
	}
	c.add(textCost(nt.Name+", inlined 100 times above: any value here"), 0)
	if use.Nullable {
		c.add(cost{bytes: 40, lines: 4}, 0) // no type to add null to; a bound
	}
	return c
}

// annotations is the cost of what a schema adds wherever it is used: description,
// deprecation, x-gdpr-sensitive, examples, and for a nullable use of a named type the
// "null" added to the inlined type and enum.
func (ix *Index) annotations(s *model.Schema) cost {
	var c cost
	if s.Description != "" {
		c.add(textCost(s.Description), 0)
	}
	if s.Deprecation != nil {
		c.add(line(len("true")), 0)
		if s.Deprecation.Reason != "" {
			c.add(textCost(s.Deprecation.Reason), 0)
		}
	}
	if s.GDPR != "" {
		c.add(textCost(s.GDPR), 0)
	}
	if len(s.Examples) > 0 {
		c.add(listCost(s.Examples, 2), 0) // 2: an integer carried as a string is quoted
	}
	if s.Kind == model.Ref && s.Nullable {
		c.add(cost{bytes: 2*elemLine + 8 + 2*endLine + keyLine, lines: 4}, 0)
	}
	return c
}

// own returns the cost of the schema object s (not a use of a named type), written at
// level 0, without the schemas below it (properties, items, map values) but with the
// lines that hold them. memo keeps it for the next call on s (a schema of a named type,
// counted again for every use).
func (ix *Index) own(s *model.Schema, memo bool) cost {
	if !memo {
		return ix.ownCost(s)
	}
	if c, ok := ix.owns[s]; ok {
		return c
	}
	c := ix.ownCost(s)
	ix.owns[s] = c
	return c
}

// ownCost is own without the memo.
func (ix *Index) ownCost(s *model.Schema) cost {
	c := cost{bytes: 3, lines: 1} // {, the closing line's newline and }
	c.add(ix.annotations(s), 0)
	if s.Kind != model.Money {
		c.add(typeCost(s.Nullable), 0)
	}
	enum := func(extra int) {
		if s.Enum != nil {
			c.add(listCostNull(s.Enum, extra, s.Nullable), 0) // a nullable enum lists null
		}
	}
	switch s.Kind {
	case model.String:
		enum(0)
		if s.Format != "" {
			c.add(textCost(s.Format), 0)
			c.add(line(formatValue), 0) // the narrowing pattern, an allOf wrapper
			c.add(cost{bytes: 0, lines: 5}, 0)
		}
		if s.MinLength != nil {
			c.add(line(boundValue), 0)
		}
		if s.MaxLength != nil || s.Format != "" {
			c.add(line(boundValue), 0)
		}
		if s.Pattern != "" {
			// The emitted pattern is the portable rewrite (longer than the author's text
			// where it expands \d, \p{…} and the like).
			text := s.Pattern
			if res, err := ecmare.PortableCached(s.Pattern); err == nil {
				text = res.Pattern
			}
			c.add(textCost(text), 0)
		}
		if s.Pattern != "" || s.Format != "" {
			c.add(guardCost, 0)
		}
	case model.Integer:
		if s.Encoding == "string" {
			c.add(guardCost, 0)
			c.add(line(len(`"integer-string"`)), 0)
			enum(2)
			if s.Enum == nil {
				c.add(line(rangeValue), 0)
			}
			break
		}
		enum(0)
		c.add(cost{bytes: 4 * line(boundValue).bytes, lines: 4}, 0)
	case model.Number:
		enum(0)
		c.add(cost{bytes: 4 * line(boundValue).bytes, lines: 4}, 0)
	case model.Boolean:
		enum(0)
	case model.Object:
		if len(s.Properties) > 0 {
			c.add(cost{bytes: keyLine + 1 + endLine, lines: 2}, 0) // "properties": { … }
			var req []any
			for _, p := range s.Properties {
				n, nl := ordjson.Size(p.Name)
				// The key's line, one level deeper; its schema starts on it.
				c.add(cost{bytes: elemLine + len(": ") + n, lines: 1 + nl}, 2)
				if p.Required {
					req = append(req, p.Name)
				}
			}
			if len(req) > 0 {
				c.add(listCost(req, 0), 0)
			}
		}
		c.add(line(len("false")), 0) // additionalProperties
	case model.Array:
		c.add(line(0), 0) // "items": the items' schema starts on this line
		c.add(cost{bytes: 2*line(boundValue).bytes + line(4).bytes, lines: 3}, 0)
	case model.Map:
		c.add(line(0), 0) // "additionalProperties": the values' schema
	case model.Money:
		c.add(cost{bytes: moneyBytes, lines: moneyLines}, 0)
	case model.Timestamp:
		c.add(cost{bytes: 3*line(boundValue).bytes + keyLine, lines: 3}, 0)
	case model.UUID:
		c.add(cost{bytes: 3*keyLine + 20 + uuidValue, lines: 3}, 0)
	}
	return c
}

// header is the cost of the document's header of m (Index.Size counts it).
func header(m *model.Message) cost {
	c := cost{bytes: headerLine, lines: 6}
	n, _ := ordjson.Size(m.URN)
	c.bytes += 3 * n
	for _, t := range []string{m.Summary, m.Description} {
		if t != "" {
			c.add(textCost(t), 0) // at most one description line holds both
		}
	}
	if m.Deprecation != nil {
		c.add(line(len("true")), 0)
		c.add(textCost(m.Deprecation.Reason), 0)
	}
	return c
}
