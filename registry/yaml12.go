package registry

import (
	"encoding/json"
	"fmt"
	"math/big"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// A registry is read as YAML 1.2 with the core schema (YAML 1.2.2 §10.3): a plain
// scalar is null, a boolean, an integer or a float only when it is spelled as that
// schema says, and a string otherwise. yaml.v3 resolves plain scalars partly as YAML
// 1.1 did (0777 is octal 511, 0b101 is 5, 1_000 is 1000), so the registry resolves
// them itself. YAML 1.1 readers (PyYAML, older tools, many editors) still read some
// spellings differently; yaml11Reading says how, for the findings and hints that
// point it out (BQ040, docs/rules.md).

// The YAML 1.2 core schema's resolution of plain scalars.
var (
	coreSpecial = map[string]string{
		"": "!!null", "~": "!!null", "null": "!!null", "Null": "!!null", "NULL": "!!null",
		"true": "!!bool", "True": "!!bool", "TRUE": "!!bool", "false": "!!bool", "False": "!!bool", "FALSE": "!!bool",
		".nan": "!!float", ".NaN": "!!float", ".NAN": "!!float", ".inf": "!!float", ".Inf": "!!float", ".INF": "!!float",
		"+.inf": "!!float", "+.Inf": "!!float", "+.INF": "!!float", "-.inf": "!!float", "-.Inf": "!!float", "-.INF": "!!float",
	}
)

// coreTag returns the tag of the scalar n under the YAML 1.2 core schema: its explicit
// tag when it has one (`!!int 12`), !!str when it is quoted or a block scalar, else the
// tag its plain text resolves to. explicit reports an explicit tag.
func coreTag(n *yaml.Node) (tag string, explicit bool) {
	if n.Style&yaml.TaggedStyle != 0 {
		return n.ShortTag(), true
	}
	if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		return "!!str", false
	}
	return corePlainTag(n.Value), false
}

// corePlainTag resolves a plain scalar's text by the YAML 1.2 core schema.
func corePlainTag(v string) string {
	if v == "" || strings.IndexByte("~nNtTfF.+-", v[0]) >= 0 { // every key of coreSpecial starts so
		if t, ok := coreSpecial[v]; ok {
			return t
		}
	}
	if v == "" || (!isDigit(v[0]) && v[0] != '-' && v[0] != '+' && v[0] != '.') {
		return "!!str"
	}
	if _, ok := coreInt(v); ok {
		return "!!int"
	}
	if _, ok := parseDecimal(v); ok {
		return "!!float"
	}
	return "!!str"
}

// coreInt reads a core-schema integer — decimal ([-+]?[0-9]+), 0o octal or 0x
// hexadecimal — as the decimal digits of its value.
func coreInt(v string) (json.Number, bool) {
	switch {
	case strings.HasPrefix(v, "0o") && len(v) > 2 && strings.Trim(v[2:], "01234567") == "":
		x, _ := new(big.Int).SetString(v[2:], 8)
		return json.Number(x.String()), true
	case strings.HasPrefix(v, "0x") && len(v) > 2 && strings.Trim(v[2:], "0123456789abcdefABCDEF") == "":
		x, _ := new(big.Int).SetString(v[2:], 16)
		return json.Number(x.String()), true
	}
	sign, d := "", v
	if d != "" && (d[0] == '+' || d[0] == '-') {
		if d[0] == '-' {
			sign = "-"
		}
		d = d[1:]
	}
	if d == "" {
		return "", false
	}
	for i := 0; i < len(d); i++ {
		if !isDigit(d[i]) {
			return "", false
		}
	}
	d = strings.TrimLeft(d, "0")
	if d == "" {
		return "0", true
	}
	return json.Number(sign + d), true
}

// The YAML 1.1 types of plain scalars, as PyYAML (the most used YAML 1.1 reader)
// resolves them, and the spec's y/n booleans.
var (
	yaml11Bool = map[string]bool{"y": true, "Y": true, "yes": true, "Yes": true, "YES": true, "on": true, "On": true, "ON": true,
		"true": true, "True": true, "TRUE": true,
		"n": false, "N": false, "no": false, "No": false, "NO": false, "off": false, "Off": false, "OFF": false,
		"false": false, "False": false, "FALSE": false}
	yaml11IntRe   = regexp.MustCompile(`^[-+]?(?:0b[0-1_]+|0[0-7_]+|(?:0|[1-9][0-9_]*)|0x[0-9a-fA-F_]+|[1-9][0-9_]*(?::[0-5]?[0-9])+)$`)
	yaml11FloatRe = regexp.MustCompile(`^(?:[-+]?[0-9][0-9_]*\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9_]+(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*)$`)
)

// yaml11 is how a YAML 1.1 reader reads a plain scalar: its kind ("boolean",
// "integer", "number", "string", "null") and its value spelled as YAML 1.2 (and JSON)
// would write it ("true", "511", "1000.5"), and why the spellings differ.
type yaml11 struct {
	kind, value, why string
}

// yaml11Reading reads the plain scalar text v as YAML 1.1 did. ok is false when v
// is too long to be a number (MaxNumberLength) and not a boolean word.
func yaml11Reading(v string) (r yaml11, ok bool) {
	if b, isBool := yaml11Bool[v]; isBool {
		why := ""
		if corePlainTag(v) != "!!bool" {
			why = "YAML 1.2 booleans are true and false only"
		}
		if b {
			return yaml11{"boolean", "true", why}, true
		}
		return yaml11{"boolean", "false", why}, true
	}
	if len(v) > MaxNumberLength {
		return yaml11{}, false
	}
	plain := strings.ReplaceAll(v, "_", "")
	neg := strings.HasPrefix(plain, "-")
	digits := strings.TrimLeft(plain, "+-")
	why := ""
	if plain != v {
		why = "YAML 1.2 has no digit separators"
	}
	switch {
	case yaml11IntRe.MatchString(v):
		var x *big.Int
		switch {
		case strings.HasPrefix(digits, "0b"):
			x, _ = new(big.Int).SetString(digits[2:], 2)
			why = "YAML 1.2 has no binary integers"
		case strings.HasPrefix(digits, "0x"):
			x, _ = new(big.Int).SetString(digits[2:], 16)
		case strings.Contains(digits, ":"):
			x = base60(digits)
			why = "YAML 1.2 has no base-60 numbers"
		case len(digits) > 1 && digits[0] == '0':
			x, _ = new(big.Int).SetString(digits[1:], 8)
			why = "YAML 1.1 read a leading 0 as octal; YAML 1.2 reads decimal (0o for octal)"
		default:
			x, _ = new(big.Int).SetString(digits, 10)
		}
		if x == nil {
			return yaml11{}, false
		}
		if neg {
			x.Neg(x)
		}
		return yaml11{"integer", x.String(), why}, true
	case yaml11FloatRe.MatchString(v):
		if strings.Contains(digits, ":") {
			// 1:30.5 is 90.5; the fraction is read as written.
			whole, frac, _ := strings.Cut(digits, ".")
			s := base60(whole).String()
			if frac != "" {
				s += "." + frac
			}
			if neg {
				s = "-" + s
			}
			return yaml11{"number", s, "YAML 1.2 has no base-60 numbers"}, true
		}
		num, _, class := readNumber(plain)
		if class != numExact {
			return yaml11{}, false
		}
		return yaml11{"number", string(num), why}, true
	}
	return yaml11{"string", v, ""}, true
}

// base60 reads YAML 1.1's sexagesimal digits (1:30 is 90).
func base60(s string) *big.Int {
	x := new(big.Int)
	sixty := big.NewInt(60)
	for _, part := range strings.Split(s, ":") {
		p, _ := new(big.Int).SetString(part, 10)
		if p == nil {
			p = new(big.Int)
		}
		x.Mul(x, sixty).Add(x, p)
	}
	return x
}

// shown is the value of n as the author wrote it, for messages: the literal of a plain
// scalar (0777, not 777), else its JSON text.
func shown(n *tnode) string {
	if n.lit != "" {
		return n.lit
	}
	return jsonText(n.toJSON())
}

// readingHint explains why the value n is not of the JSON kind want ("string",
// "boolean", "integer", "number"; the JSON Schema type names) when the way YAML reads
// it is the likely cause, or returns "": a plain word or number that YAML 1.2 reads as
// a string but YAML 1.1 read as want (`yes`, `0b101`, `1_000`), or a plain number or
// boolean where a string is wanted (quote it).
func readingHint(n *tnode, want ...string) string {
	if n == nil {
		return ""
	}
	wants := func(k string) bool {
		for _, w := range want {
			if w == k || (w == "number" && k == "integer") {
				return true
			}
		}
		return false
	}
	if !n.plain {
		quoted := map[string]string{"!!int": "integer", "!!float": "number", "!!bool": "boolean"}[corePlainTag(n.str)]
		if n.kind == tStr && quoted != "" && wants(quoted) && len(n.str) <= MaxNumberLength {
			return fmt.Sprintf("the quotes make %s a string: write %s without them", strconv.Quote(n.str), n.str)
		}
		return ""
	}
	if n.kind == tStr {
		r, ok := yaml11Reading(n.str)
		if !ok || r.kind == "string" || !wants(r.kind) {
			return ""
		}
		why := r.why
		if why == "" {
			why = "YAML 1.2 reads it as a string"
		}
		return fmt.Sprintf("YAML 1.1 read %s as %s, but YAML 1.2 reads it as a string (%s): write %s", n.str, r.value, why, r.value)
	}
	if n.lit != "" && wants("string") {
		return fmt.Sprintf("YAML reads %s as %s: quote it (%s) to keep the text", n.lit, jsonKindName(kindName(n)), strconv.Quote(n.lit))
	}
	return ""
}

// kindName is the JSON Schema type name of n.
func kindName(n *tnode) string {
	switch n.kind {
	case tNull:
		return "null"
	case tBool:
		return "boolean"
	case tNum:
		if !strings.ContainsAny(string(n.num), ".eE") {
			return "integer"
		}
		return "number"
	case tSeq:
		return "array"
	case tMap:
		return "object"
	}
	return "string"
}

// joinHint appends note to hint as a second sentence.
func joinHint(hint, note string) string {
	switch {
	case note == "":
		return hint
	case hint == "":
		return note
	}
	return hint + "; " + note
}
