package importer

import (
	"sort"
	"strings"

	"github.com/babelqueue/bqgen/internal/yamlsafe"
	"go.yaml.in/yaml/v3"
)

// Building blocks for the output: yaml.Node trees whose key order and styles are
// chosen here, so the output is deterministic and reads like a hand-written registry.

func strNode(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	switch {
	case strings.Contains(s, "\n"):
		n.Style = yaml.LiteralStyle
	case yamlsafe.NeedsQuotes(s):
		// yaml.v3 reads yes, 1:30 or 0777 as strings, YAML 1.1 tools as a boolean
		// and numbers: quote them.
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}

func boolNode(b bool) *yaml.Node {
	v := "false"
	if b {
		v = "true"
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: v}
}

// numNode writes a JSON number's text as a YAML number.
func numNode(text string) *yaml.Node {
	tag := "!!int"
	if strings.ContainsAny(text, ".eE") {
		tag = "!!float"
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: text}
}

func nullNode() *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"} }

func seqNode(items ...*yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle, Content: items}
}

func mapNode() *yaml.Node { return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"} }

func addKey(m *yaml.Node, key string, val *yaml.Node) *yaml.Node {
	k := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}
	if yamlsafe.NeedsQuotes(key) {
		k.Style = yaml.DoubleQuotedStyle
	}
	m.Content = append(m.Content, k, val)
	return k
}

// jsonNode converts any JSON value (examples, enum values) to YAML, in flow style.
func jsonNode(v *jval) *yaml.Node {
	switch v.kind {
	case jNull:
		return nullNode()
	case jBool:
		return boolNode(v.b)
	case jNumber:
		return numNode(v.str)
	case jString:
		n := strNode(v.str)
		if strings.Contains(v.str, "\n") {
			n.Style = yaml.DoubleQuotedStyle // a literal block cannot sit in a flow collection
		}
		return n
	case jArray:
		s := seqNode()
		for _, e := range v.elems {
			s.Content = append(s.Content, jsonNode(e))
		}
		return s
	default:
		m := mapNode()
		m.Style = yaml.FlowStyle
		for i, k := range v.keys {
			addKey(m, k, jsonNode(v.vals[i]))
		}
		return m
	}
}

// fieldKeyRank orders the keys of a field: the type and its constraints first, then
// annotations, then nested schemas.
var fieldKeyRank = map[string]int{}

func init() {
	for i, k := range []string{
		"type", "format", "encoding", "enum",
		"minLength", "maxLength", "pattern",
		"minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum",
		"minItems", "maxItems", "uniqueItems",
		"nullable", "x-gdpr-sensitive", "deprecated", "description", "examples",
		"required", "additionalProperties", "items", "values", "properties",
	} {
		fieldKeyRank[k] = i
	}
}

// fieldBuilder collects the keys of one field, then orders them and picks a style.
type fieldBuilder struct {
	keys []string
	vals []*yaml.Node
}

func (b *fieldBuilder) set(k string, v *yaml.Node) {
	for i, old := range b.keys {
		if old == k {
			b.vals[i] = v
			return
		}
	}
	b.keys = append(b.keys, k)
	b.vals = append(b.vals, v)
}

func (b *fieldBuilder) has(k string) bool {
	for _, old := range b.keys {
		if old == k {
			return true
		}
	}
	return false
}

func (b *fieldBuilder) del(k string) {
	for i, old := range b.keys {
		if old == k {
			b.keys = append(b.keys[:i], b.keys[i+1:]...)
			b.vals = append(b.vals[:i], b.vals[i+1:]...)
			return
		}
	}
}

// node returns the field as a mapping: flow style (`{type: string, maxLength: 200}`)
// when it holds only short scalars and lists, block style otherwise.
func (b *fieldBuilder) node() *yaml.Node {
	idx := make([]int, len(b.keys))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(i, j int) bool { return fieldKeyRank[b.keys[idx[i]]] < fieldKeyRank[b.keys[idx[j]]] })
	m := mapNode()
	for _, i := range idx {
		addKey(m, b.keys[i], b.vals[i])
	}
	if flowable(m) {
		m.Style = yaml.FlowStyle
	}
	return m
}

// maxFlowWidth is the longest field written on one line (roughly, in bytes).
const maxFlowWidth = 100

func flowable(m *yaml.Node) bool {
	width := 0
	for i := 0; i < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		width += len(k.Value) + 4
		w, ok := flowWidth(v, k.Value == "properties" || k.Value == "items" || k.Value == "values")
		if !ok {
			return false
		}
		width += w
	}
	return width <= maxFlowWidth
}

func flowWidth(n *yaml.Node, nested bool) (int, bool) {
	switch n.Kind {
	case yaml.ScalarNode:
		if strings.ContainsAny(n.Value, "\n") {
			return 0, false
		}
		return len(n.Value) + 2, true
	case yaml.SequenceNode:
		w := 2
		for _, c := range n.Content {
			cw, ok := flowWidth(c, false)
			if !ok {
				return 0, false
			}
			w += cw + 2
		}
		return w, true
	case yaml.MappingNode:
		if nested || n.Style != yaml.FlowStyle {
			return 0, false
		}
		w := 2
		for _, c := range n.Content {
			cw, ok := flowWidth(c, false)
			if !ok {
				return 0, false
			}
			w += cw + 2
		}
		return w, true
	}
	return 0, false
}
