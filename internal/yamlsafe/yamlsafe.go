// Package yamlsafe writes YAML that every YAML reader reads alike: YAML 1.2 readers
// (yaml.v3, the registry loader) and YAML 1.1 readers (PyYAML, SnakeYAML, which most
// AsyncAPI tooling outside Go runs on).
//
// yaml.v3 quotes a string only when its own resolver would read the plain scalar as
// another type, and that resolver is YAML 1.2's for booleans: it writes `on`, `no`, `y`,
// `1:30` and `2001-12-14` plain, which a YAML 1.1 reader reads as a boolean, the
// sexagesimal 90 and a date. Quote decides, for every string scalar and key, whether
// any reader of either version would resolve its plain spelling to something other
// than a string, and writes those double-quoted. The decision follows the implicit
// types of YAML 1.1 (yaml.org/type: bool, int, float, null, timestamp, merge, value),
// the YAML 1.2 core and JSON schemas (YAML 1.2.2 §10.2, §10.3), and the regular
// expressions PyYAML and SnakeYAML resolve with, which accept a few spellings the
// type pages do not (SnakeYAML's `1e5` float, any case of the boolean words).
// docs/decisions.md ("YAML output") records the choice.
package yamlsafe

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"
)

// The implicit types a plain scalar may resolve to in some reader. Each expression is
// anchored and matched against the whole scalar.
var nonString = []*regexp.Regexp{
	// YAML 1.1 int (yaml.org/type/int): binary, octal, decimal, hex, base 60; PyYAML
	// and SnakeYAML read the same forms.
	regexp.MustCompile(`^[-+]?(?:0b[0-1_]+|0[0-7_]+|(?:0|[1-9][0-9_]*)|0x[0-9a-fA-F_]+|[1-9][0-9_]*(?::[0-5]?[0-9])+)$`),
	// YAML 1.1 float (yaml.org/type/float, whose `[0-9.]*` after the point no reader
	// implements: PyYAML and SnakeYAML read `3.0.0` as a string), with PyYAML's variant (digits before the
	// point optional, underscores after it) and SnakeYAML's (an exponent without a
	// point, an unsigned exponent).
	regexp.MustCompile(`^[-+]?(?:[0-9][0-9_]*)?\.[0-9_]*(?:[eE][-+]?[0-9]+)?$`),
	regexp.MustCompile(`^[-+]?[0-9][0-9_]*(?:\.[0-9_]*)?[eE][-+]?[0-9]+$`),
	regexp.MustCompile(`^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*$`),
	regexp.MustCompile(`^[-+]?\.(?:inf|Inf|INF)$|^\.(?:nan|NaN|NAN)$`),
	// YAML 1.2 core and JSON schema: int (decimal, 0o octal, 0x hex) and float.
	regexp.MustCompile(`^[-+]?[0-9]+$|^0o[0-7]+$|^0x[0-9a-fA-F]+$`),
	regexp.MustCompile(`^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$`),
	regexp.MustCompile(`^-?(?:0|[1-9][0-9]*)(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?$`),
	// YAML 1.1 timestamp (yaml.org/type/timestamp): a date, or a date and time (the
	// zone after optional blanks, as PyYAML reads it).
	regexp.MustCompile(`^[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]$`),
	regexp.MustCompile(`^[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?$`),
}

// words are the scalars read as booleans, null, infinity or NaN, or as the merge
// (`<<`) and value (`=`) keys of YAML 1.1, compared in lower case: the type pages list
// three capitalisations of each word (yes, Yes, YES), and quoting every other one costs
// nothing and protects readers that fold case.
var words = map[string]bool{
	"y": true, "n": true, "yes": true, "no": true, "true": true, "false": true, "on": true, "off": true,
	"null": true, "~": true, "": true,
	".inf": true, "+.inf": true, "-.inf": true, ".nan": true,
	"<<": true, "=": true,
}

// NeedsQuotes reports whether some YAML 1.1 or 1.2 reader resolves the plain scalar s
// to anything but the string s: a boolean, null, a number, a timestamp, a merge or
// value key. Such a string must be written quoted.
func NeedsQuotes(s string) bool {
	if words[strings.ToLower(s)] {
		return true
	}
	if len(s) > 0 && !strings.ContainsAny(s[:1], "0123456789+-.") {
		return false // every numeric and timestamp form starts with a digit, a sign or a point
	}
	for _, re := range nonString {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}

// Quote sets DoubleQuotedStyle on every string scalar of the tree n (keys included)
// that NeedsQuotes, and respells every float (PortableFloat); other nodes keep their
// text and style. A scalar is a string when
// its tag is !!str, or when it has no tag and is written quoted or as a block.
func Quote(n *yaml.Node) {
	if n == nil {
		return
	}
	if n.Kind == yaml.ScalarNode && isString(n) && NeedsQuotes(n.Value) {
		n.Style = yaml.DoubleQuotedStyle
		n.Tag = "!!str"
	}
	if n.Kind == yaml.ScalarNode && (n.Tag == "!!float" || n.Tag == "tag:yaml.org,2002:float") && n.Style&yaml.TaggedStyle == 0 {
		n.Value = PortableFloat(n.Value)
	}
	if n.Kind == yaml.AliasNode {
		return // its anchor's node is quoted where it stands
	}
	for _, c := range n.Content {
		Quote(c)
	}
}

func isString(n *yaml.Node) bool {
	switch n.Tag {
	case "!!str", "tag:yaml.org,2002:str":
		return true
	case "":
		return n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0
	}
	return false
}

// PortableFloat respells a finite float literal (JSON's or YAML 1.2's) so that YAML
// 1.1 readers read it as a float too: PyYAML's float needs a digit and a point in the
// mantissa and a sign in the exponent, so `1e5` becomes `1.0e+5` and `.5` `0.5`.
// The value is unchanged; other text (.inf, .nan) is returned as it is.
func PortableFloat(v string) string {
	mant, exp, hasExp := strings.Cut(strings.ToLower(v), "e")
	if mant == "" || strings.Contains(mant, "inf") || strings.Contains(mant, "nan") {
		return v
	}
	sign := ""
	if mant[0] == '-' || mant[0] == '+' {
		sign, mant = mant[:1], mant[1:]
		if sign == "+" {
			sign = ""
		}
	}
	if strings.HasPrefix(mant, ".") {
		mant = "0" + mant
	}
	if !strings.Contains(mant, ".") {
		mant += ".0"
	}
	if !hasExp {
		return sign + mant
	}
	if exp != "" && exp[0] != '-' && exp[0] != '+' {
		exp = "+" + exp
	}
	return sign + mant + "e" + exp
}

// Marshal quotes the tree n (Quote) and encodes it with an indent of two spaces.
// The error is yaml.v3's, for a tree it cannot encode.
func Marshal(n *yaml.Node) ([]byte, error) {
	Quote(n)
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(n); err != nil {
		return nil, fmt.Errorf("encode YAML: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("encode YAML: %w", err)
	}
	return b.Bytes(), nil
}
