package registry

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/babelqueue/bqgen/internal/model"
)

// checkText reports bidirectional-override and control characters in every key and
// string of a file (BQ036): they can hide code in generated comments and literals.
func checkText(l *loader, root *tnode) {
	seen := map[*tnode]bool{}
	l.curLint = nil
	var walk func(n *tnode)
	walk = func(n *tnode) {
		if seen[n] {
			return
		}
		seen[n] = true
		switch n.kind {
		case tStr:
			if r, ok := badRune(n.str); ok {
				l.report(n.pos, RuleText, fmt.Sprintf("text contains the invisible character %U", r), "remove the character")
			}
		case tSeq:
			for _, it := range n.items {
				walk(it)
			}
		case tMap:
			for _, e := range n.entries {
				if r, ok := badRune(e.key); ok {
					l.report(e.keyPos, RuleText, fmt.Sprintf("key contains the invisible character %U", r), "remove the character")
				}
				walk(e.val)
			}
		}
	}
	walk(root)
}

func badRune(s string) (rune, bool) {
	for _, r := range s {
		switch {
		case r == '\t' || r == '\n' || r == '\r':
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f):
			return r, true
		case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
			return r, true
		case r == utf8.RuneError:
			return r, true
		}
	}
	return 0, false
}

var (
	urnRe        = regexp.MustCompile(`^urn:babel:[a-z0-9-]+:[a-z0-9_-]+(\.[a-z0-9_-]+)*$`)
	uuidPartRe   = regexp.MustCompile(`^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$`)
	digitsRe     = regexp.MustCompile(`^[0-9]+$`)
	versionRe    = regexp.MustCompile(`\.v([0-9]+)$`)
	badVersionRe = regexp.MustCompile(`[_-][vV][0-9]+$`)
	snakeRe      = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)
	moneyWordRe  = regexp.MustCompile(`(^|_)(amount|price|total|subtotal|cost|fee|fees|balance|money|salary|tax|vat|refund|payment|charge|discount|cents)(_|$)`)
	timeNameRe   = regexp.MustCompile(`(_at|_ts|_time|_timestamp|^timestamp|^time|^ts)$`)
	classNameRe  = regexp.MustCompile(`^[A-Z][A-Za-z0-9_]*([.\\][A-Z][A-Za-z0-9_]*)+$`)
)

// checkRules runs the registry rules of BRIEF §4 that need the resolved model.
func checkRules(l *loader) {
	for _, m := range l.reg.Messages {
		l.curLint = m.Lint
		l.checkURN(m)
		l.walkRules(m.Data, "", m.Pos)
	}
	l.curLint = nil
	for _, t := range l.reg.Types {
		l.walkRules(t.Schema, "", t.Pos)
	}
}

func (l *loader) checkURN(m *model.Message) {
	urn := m.URN
	if strings.Contains(urn, `\`) || classNameRe.MatchString(urn) {
		l.report(m.Pos, RuleURNClass, fmt.Sprintf("%q is a class name, not a URN", urn),
			"name the message urn:babel:<context>:<event>, e.g. urn:babel:orders:created")
		return
	}
	if strings.HasPrefix(urn, "urn:babel:") {
		parts := strings.Split(strings.TrimPrefix(urn, "urn:babel:"), ":")
		if len(parts) >= 2 {
			for _, p := range parts[1:] {
				for _, sp := range strings.Split(p, ".") {
					if digitsRe.MatchString(sp) || uuidPartRe.MatchString(sp) {
						l.report(m.Pos, RuleURNPayload, fmt.Sprintf("URN %q carries a payload (%q); ids belong in data", urn, sp),
							"drop the id from the URN and add it as a property of `data`")
						return
					}
				}
			}
		}
	}
	if !urnRe.MatchString(urn) {
		msg := fmt.Sprintf("URN %q is not of the form urn:babel:<context>:<name>", urn)
		switch {
		case !strings.HasPrefix(urn, "urn:babel:"):
			msg = fmt.Sprintf("URN %q must start with urn:babel:", urn)
		case strings.ToLower(urn) != urn:
			msg = fmt.Sprintf("URN %q has upper-case letters", urn)
		case strings.IndexFunc(urn, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || strings.ContainsRune(":._-", r))
		}) >= 0:
			msg = fmt.Sprintf("URN %q has characters outside [a-z0-9:._-]", urn)
		}
		l.report(m.Pos, RuleURNSyntax, msg,
			"write urn:babel:<bounded-context>:<event-or-command>: context [a-z0-9-], name lower case with dot-separated parts")
		return
	}
	if mm := versionRe.FindStringSubmatch(urn); mm != nil {
		n, err := strconv.Atoi(mm[1])
		switch {
		case err != nil || n < 2:
			l.report(m.Pos, RuleVersion, fmt.Sprintf("URN %q has the suffix .v%s; the first version has no suffix", urn, mm[1]),
				"drop the suffix; the second version is .v2")
		case mm[1][0] == '0':
			l.report(m.Pos, RuleVersion, fmt.Sprintf("URN %q has a version with a leading zero", urn), "write .v"+strconv.Itoa(n))
		}
	} else if badVersionRe.MatchString(urn) {
		l.report(m.Pos, RuleVersion, fmt.Sprintf("URN %q has a version suffix not written .vN", urn), "write the version as .v2, .v3…")
	}
	if m.Supersedes != "" {
		switch {
		case m.Supersedes == urn:
			l.report(m.Pos, RuleVersion, fmt.Sprintf("message %q supersedes itself", urn), "name the older URN it replaces")
		case l.reg.Message(m.Supersedes) == nil:
			l.report(m.Pos, RuleVersion, fmt.Sprintf("message %q supersedes %q, which is not in the registry", urn, m.Supersedes),
				"keep the older URN (deprecated) until it is retired, or remove `supersedes`")
		}
	}
}

func keyPos(s *model.Schema, key string, def model.Pos) model.Pos {
	if p, ok := s.Keys[key]; ok {
		return p
	}
	return def
}

// walkRules checks one schema tree; name is the property name ("" for items, values
// and roots) and pos the position diagnostics about the schema point at.
func (l *loader) walkRules(s *model.Schema, name string, pos model.Pos) {
	if s == nil {
		return
	}
	what := "the schema"
	if name != "" {
		what = fmt.Sprintf("field %q", name)
	}
	lname := strings.ToLower(name)
	switch s.Kind {
	case model.Number:
		if name != "" && moneyWordRe.MatchString(lname) {
			l.report(pos, RuleMoneyFloat, fmt.Sprintf("%s is a number (a float) but names money", what),
				"use `type: money` (integer minor units plus currency)")
		}
	case model.Integer:
		if l.reg.HasConsumer("node") && s.Encoding != "string" && !jsSafe(s) {
			l.report(pos, RuleJSSafe, fmt.Sprintf("%s may exceed ±9007199254740991 and a node consumer is declared", what),
				"bound it (minimum/maximum within ±9007199254740991) or carry it as a string with `encoding: string`")
		}
		if isZeroOne(s) {
			l.report(pos, RuleBoolean, fmt.Sprintf("%s is an integer limited to 0 and 1: a boolean in disguise", what),
				"use `type: boolean`")
		}
	case model.String:
		if isYesNo(s.Enum) {
			l.report(pos, RuleBoolean, fmt.Sprintf("%s is a string enum of boolean words", what), "use `type: boolean`")
		}
	case model.Object:
		if !s.AdditionalProperties {
			l.report(keyPos(s, "additionalProperties", pos), RuleClosedObject,
				fmt.Sprintf("%s is closed (additionalProperties: false): adding a property later breaks consumers", objWhat(what)),
				"leave additionalProperties unset")
		}
		for _, p := range s.Properties {
			if !snakeRe.MatchString(p.Name) {
				l.report(p.Pos, RuleSnakeCase, fmt.Sprintf("JSON key %q is not snake_case", p.Name), "rename it, e.g. "+strconv.Quote(snake(p.Name)))
			}
			l.walkRules(p.Schema, p.Name, p.Pos)
		}
	}
	if (s.Kind == model.Integer || s.Kind == model.Number) && name != "" && timeNameRe.MatchString(lname) {
		l.report(pos, RuleTime, fmt.Sprintf("%s names a time but is a plain %s", what, s.Kind),
			"use `type: timestamp` (integer Unix milliseconds, UTC)")
	}
	for i, ex := range s.Examples {
		if err := checkExample(s, ex, "$", 0); err != "" {
			l.report(keyPos(s, "examples", pos), RuleExample, fmt.Sprintf("example %d of %s is invalid: %s", i+1, what, err),
				"fix the example or the schema")
		}
	}
	if s.Items != nil {
		l.walkRules(s.Items, "", s.Items.Pos)
	}
	if s.Values != nil {
		l.walkRules(s.Values, "", s.Values.Pos)
	}
}

func objWhat(what string) string {
	if what == "the schema" {
		return "the object"
	}
	return what
}

func snake(s string) string {
	var b strings.Builder
	for i, r := range s {
		switch {
		case r >= 'A' && r <= 'Z':
			if i > 0 {
				b.WriteByte('_')
			}
			b.WriteRune(r + 'a' - 'A')
		case r == '-' || r == ' ' || r == '.':
			b.WriteByte('_')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

const maxSafe = 1<<53 - 1

func jsSafe(s *model.Schema) bool {
	if s.IntFormat == "int32" {
		return true
	}
	if s.Enum != nil {
		for _, v := range s.Enum {
			if i, ok := v.(int64); !ok || i > maxSafe || i < -maxSafe {
				return false
			}
		}
		return true
	}
	lo, hi := int64(math.MinInt64), int64(math.MaxInt64)
	if s.Minimum != nil {
		lo = s.Minimum.I
	}
	if s.ExclusiveMinimum != nil && s.ExclusiveMinimum.I != math.MaxInt64 {
		lo = max(lo, s.ExclusiveMinimum.I+1)
	}
	if s.Maximum != nil {
		hi = s.Maximum.I
	}
	if s.ExclusiveMaximum != nil && s.ExclusiveMaximum.I != math.MinInt64 {
		hi = min(hi, s.ExclusiveMaximum.I-1)
	}
	return lo >= -maxSafe && hi <= maxSafe
}

func isZeroOne(s *model.Schema) bool {
	if len(s.Enum) == 2 {
		a, _ := s.Enum[0].(int64)
		b, _ := s.Enum[1].(int64)
		return a+b == 1 && a*b == 0
	}
	return s.Minimum != nil && s.Maximum != nil && s.Minimum.I == 0 && s.Maximum.I == 1
}

func isYesNo(enum []any) bool {
	if len(enum) != 2 {
		return false
	}
	var vs []string
	for _, v := range enum {
		s, ok := v.(string)
		if !ok {
			return false
		}
		vs = append(vs, strings.ToLower(s))
	}
	sort.Strings(vs)
	pair := vs[0] + "/" + vs[1]
	switch pair {
	case "no/yes", "n/y", "false/true", "0/1", "off/on", "f/t":
		return true
	}
	return false
}

// checkPattern reports patterns that are not valid in both RE2 (Go) and ECMA-262
// (JavaScript, JSON Schema validators) (BQ035).
func checkPattern(l *loader, e *tentry, what string) {
	p := e.val.str
	if _, err := regexp.Compile(p); err != nil {
		msg := err.Error()
		msg = strings.TrimPrefix(msg, "error parsing regexp: ")
		l.report(e.val.pos, RulePattern, fmt.Sprintf("pattern of %s is not valid RE2: %s", what, msg),
			"use the subset of RE2 and ECMA-262: no lookaround or backreferences")
		return
	}
	if bad := ecmaIncompatible(p); bad != "" {
		l.report(e.val.pos, RulePattern, fmt.Sprintf("pattern of %s uses %s, which ECMA-262 does not support", what, bad),
			"use the subset of RE2 and ECMA-262")
	}
}

// ecmaIncompatible names an RE2 construct in p that ECMA-262 rejects or reads
// differently, or returns "".
func ecmaIncompatible(p string) string {
	inClass := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\' && i+1 < len(p):
			n := p[i+1]
			switch n {
			case 'A', 'z', 'Q', 'E', 'C':
				return `\` + string(n)
			case 'p', 'P':
				if i+2 >= len(p) || p[i+2] != '{' {
					return `\` + string(n) + " without braces"
				}
			}
			i++
		case inClass && c == '[' && i+1 < len(p) && p[i+1] == ':':
			return "a POSIX class [[:…:]]"
		case c == '[' && !inClass:
			inClass = true
			if i+1 < len(p) && p[i+1] == ']' {
				i++
			} else if i+2 < len(p) && p[i+1] == '^' && p[i+2] == ']' {
				i += 2
			}
		case c == ']' && inClass:
			inClass = false
		case c == '(' && !inClass && i+1 < len(p) && p[i+1] == '?':
			rest := p[i+2:]
			if strings.HasPrefix(rest, ":") || (strings.HasPrefix(rest, "<") && !strings.HasPrefix(rest, "<=") && !strings.HasPrefix(rest, "<!")) {
				continue
			}
			if strings.HasPrefix(rest, "P<") {
				return "a (?P<name>…) group"
			}
			return "inline flags (?…)"
		}
	}
	return ""
}

var (
	uuidRe     = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
	uuidAnyRe  = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
	currencyRe = regexp.MustCompile(`^[A-Z]{3}$`)
	canonIntRe = regexp.MustCompile(`^-?(0|[1-9][0-9]*)$`)
)

const maxTimestamp = 8_640_000_000_000_000

// checkExample validates an example value against s; it returns "" when v is valid,
// else the first problem with its JSON path.
func checkExample(s *model.Schema, v any, path string, depth int) string {
	if depth > 200 {
		return ""
	}
	if v == nil {
		if s.Nullable {
			return ""
		}
		return path + ": null is not allowed"
	}
	if s.Kind == model.Ref {
		if s.Named == nil {
			return ""
		}
		return checkExample(s.Named.Schema, v, path, depth+1)
	}
	isInt := func(v any) (int64, bool) {
		switch x := v.(type) {
		case int64:
			return x, true
		case float64:
			if x == math.Trunc(x) && math.Abs(x) < 1<<63 {
				return int64(x), true
			}
		}
		return 0, false
	}
	inEnum := func() bool {
		if s.Enum == nil {
			return true
		}
		for _, e := range s.Enum {
			if e == v {
				return true
			}
			if f, ok := e.(float64); ok {
				if g, ok := v.(int64); ok && float64(g) == f {
					return true
				}
			}
		}
		return false
	}
	switch s.Kind {
	case model.String:
		str, ok := v.(string)
		if !ok {
			return path + ": want a string"
		}
		n := int64(utf8.RuneCountInString(str))
		if s.MinLength != nil && n < *s.MinLength {
			return fmt.Sprintf("%s: shorter than %d characters", path, *s.MinLength)
		}
		if s.MaxLength != nil && n > *s.MaxLength {
			return fmt.Sprintf("%s: longer than %d characters", path, *s.MaxLength)
		}
		if s.Pattern != "" {
			if re, err := regexp.Compile(s.Pattern); err == nil && !re.MatchString(str) {
				return fmt.Sprintf("%s: %q does not match the pattern", path, str)
			}
		}
		if !inEnum() {
			return fmt.Sprintf("%s: %q is not one of the enum values", path, str)
		}
		switch s.Format {
		case "uuid":
			if !uuidAnyRe.MatchString(str) {
				return fmt.Sprintf("%s: %q is not a UUID", path, str)
			}
		case "date":
			if _, err := time.Parse("2006-01-02", str); err != nil {
				return fmt.Sprintf("%s: %q is not a date", path, str)
			}
		case "date-time":
			if _, err := time.Parse(time.RFC3339Nano, str); err != nil {
				return fmt.Sprintf("%s: %q is not a date-time", path, str)
			}
		case "email":
			if !strings.Contains(str, "@") {
				return fmt.Sprintf("%s: %q is not an email address", path, str)
			}
		}
	case model.Integer:
		var i int64
		if s.Encoding == "string" {
			str, ok := v.(string)
			if !ok || !canonIntRe.MatchString(str) {
				return path + ": want an integer in a string (canonical decimal)"
			}
			var err error
			if i, err = strconv.ParseInt(str, 10, 64); err != nil {
				return path + ": out of int64 range"
			}
		} else {
			var ok bool
			if i, ok = isInt(v); !ok {
				return path + ": want an integer"
			}
		}
		if s.IntFormat == "int32" && (i < math.MinInt32 || i > math.MaxInt32) {
			return path + ": out of int32 range"
		}
		if msg := checkBounds(s, float64(i), i, true); msg != "" {
			return path + ": " + msg
		}
		if s.Enum != nil {
			found := false
			for _, e := range s.Enum {
				if e == i {
					found = true
				}
			}
			if !found {
				return fmt.Sprintf("%s: %d is not one of the enum values", path, i)
			}
		}
	case model.Number:
		var f float64
		switch x := v.(type) {
		case int64:
			f = float64(x)
		case float64:
			f = x
		default:
			return path + ": want a number"
		}
		if msg := checkBounds(s, f, 0, false); msg != "" {
			return path + ": " + msg
		}
		if s.Enum != nil {
			found := false
			for _, e := range s.Enum {
				if e == f {
					found = true
				}
			}
			if !found {
				return fmt.Sprintf("%s: %v is not one of the enum values", path, f)
			}
		}
	case model.Boolean:
		if _, ok := v.(bool); !ok {
			return path + ": want true or false"
		}
		if !inEnum() {
			return path + ": not one of the enum values"
		}
	case model.Object:
		obj, ok := v.(map[string]any)
		if !ok {
			return path + ": want an object"
		}
		for _, p := range s.Properties {
			pv, present := obj[p.Name]
			if !present {
				if p.Required {
					return fmt.Sprintf("%s: missing required key %q", path, p.Name)
				}
				continue
			}
			if msg := checkExample(p.Schema, pv, path+"."+p.Name, depth+1); msg != "" {
				return msg
			}
		}
		if !s.AdditionalProperties {
			keys := make([]string, 0, len(obj))
			for k := range obj {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				if s.Property(k) == nil {
					return fmt.Sprintf("%s: unknown key %q", path, k)
				}
			}
		}
	case model.Array:
		arr, ok := v.([]any)
		if !ok {
			return path + ": want an array"
		}
		n := int64(len(arr))
		if s.MinItems != nil && n < *s.MinItems {
			return fmt.Sprintf("%s: fewer than %d items", path, *s.MinItems)
		}
		if s.MaxItems != nil && n > *s.MaxItems {
			return fmt.Sprintf("%s: more than %d items", path, *s.MaxItems)
		}
		for i, it := range arr {
			if s.Items != nil {
				if msg := checkExample(s.Items, it, fmt.Sprintf("%s[%d]", path, i), depth+1); msg != "" {
					return msg
				}
			}
		}
		if s.UniqueItems {
			seen := map[string]bool{}
			for _, it := range arr {
				k := jsonText(it)
				if seen[k] {
					return path + ": items are not unique"
				}
				seen[k] = true
			}
		}
	case model.Map:
		obj, ok := v.(map[string]any)
		if !ok {
			return path + ": want an object"
		}
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if s.Values != nil {
				if msg := checkExample(s.Values, obj[k], path+"."+k, depth+1); msg != "" {
					return msg
				}
			}
		}
	case model.Money:
		obj, ok := v.(map[string]any)
		if !ok {
			return path + `: want {"amount": <integer minor units>, "currency": "<ISO 4217>"}`
		}
		if _, ok := isInt(obj["amount"]); !ok {
			return path + ".amount: want an integer (minor units)"
		}
		if c, ok := obj["currency"].(string); !ok || !currencyRe.MatchString(c) {
			return path + ".currency: want a three-letter ISO 4217 code"
		}
	case model.Timestamp:
		i, ok := isInt(v)
		if !ok || i < -maxTimestamp || i > maxTimestamp {
			return path + ": want integer Unix milliseconds within ±8.64e15"
		}
	case model.UUID:
		str, ok := v.(string)
		if !ok || !uuidRe.MatchString(str) {
			return path + ": want a UUID in canonical lower-case form"
		}
	}
	return ""
}

func checkBounds(s *model.Schema, f float64, i int64, isInt bool) string {
	lt := func(b *model.Bound) bool {
		if isInt && b.IsInt {
			return i < b.I
		}
		return f < b.Float()
	}
	gt := func(b *model.Bound) bool {
		if isInt && b.IsInt {
			return i > b.I
		}
		return f > b.Float()
	}
	eq := func(b *model.Bound) bool { return !lt(b) && !gt(b) }
	switch {
	case s.Minimum != nil && lt(s.Minimum):
		return "below the minimum"
	case s.Maximum != nil && gt(s.Maximum):
		return "above the maximum"
	case s.ExclusiveMinimum != nil && (lt(s.ExclusiveMinimum) || eq(s.ExclusiveMinimum)):
		return "not above the exclusive minimum"
	case s.ExclusiveMaximum != nil && (gt(s.ExclusiveMaximum) || eq(s.ExclusiveMaximum)):
		return "not below the exclusive maximum"
	}
	return ""
}
