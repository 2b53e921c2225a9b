package ecmare

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"
)

// Portable patterns (docs/patterns.md, "Patterns every engine reads alike").
//
// A JSON Schema `pattern` is read by whatever regular expression engine the validator
// uses: ECMA-262 (ajv, and jsonschema/v6 with bqgen's engine), Go's regexp (RE2,
// jsonschema/v6 by default), Python's re (python-jsonschema) and PCRE2 (PHP's preg
// with the u flag). They read the same text differently: Python's and PHP's \d, \w,
// \s and \b are Unicode-aware, Go's \s has no U+00A0, `.` stops at \n only (Go,
// Python, PCRE2) instead of at every line terminator, `\u{…}` and `\uXXXX` are not Go
// or PCRE2 syntax and `\x{…}` is not ECMA-262 or Python syntax, Python has no \p{…},
// and `$` matches before a final newline in Python and PCRE2.
//
// Pattern.Portable writes the parsed pattern in the subset all four read alike:
//
//   - every character set (a class, `.`, \d, \s, \p{…}) as an explicit class of code
//     points, each written as itself, as \t \n \f \r, with a backslash (syntax
//     characters outside a class), or as \xHH when it is at most U+00FF and not a
//     letter or digit (the one numeric escape all four read the same; portChar);
//   - named groups as plain groups (Python spells them (?P<name>…));
//   - `$` as it is, with PortableResult.GuardFinalNewline when Python and PCRE2 would
//     accept a string ending in a newline that ECMA-262 rejects and ECMA-262 rejects
//     every such string: the schema then adds a sibling that rules out the strings
//     ending in "\n" (FinalNewlinePattern under `not`), which all four read alike;
//   - what has no common spelling is reported in PortableResult.Issues, naming the
//     engines that read it otherwise: `$` where even the sibling cannot keep the
//     ECMA-262 meaning, \b and \B (Unicode word characters in Python and PCRE2), and a
//     General_Category escape kept as \p{X} to bound the pattern's size
//     (MaxPortableLength; Python's re rejects it).

// FinalNewlinePattern matches exactly the strings that end in "\n" in ECMA-262, RE2,
// Python's re and PCRE2 alike: Python's and PCRE2's `$` may match before a final
// newline, but `\n` must then be matched by that final newline too.
const FinalNewlinePattern = `\n$`

// MaxPortableLength bounds the portable form, in bytes. Property escapes are expanded
// into explicit ranges (\p{L} takes about 4.4 KB); when that makes the pattern longer
// than this, each lone General_Category escape (\p{Lu}, not inside a class) whose
// expansion is longer than MaxPropertyExpansion is written \p{Lu} instead, which
// ECMA-262, RE2 and PCRE2 read, each by its own Unicode tables, and Python's re does
// not (a PortIssue).
const MaxPortableLength = 16384

// MaxPropertyExpansion is the expansion, in bytes, above which a lone General_Category
// escape is kept as \p{…} in a pattern whose portable form exceeds MaxPortableLength.
const MaxPropertyExpansion = 1024

// Engine names of PortIssue.Engines: the consumers whose validators use the engine.
const (
	EnginePython = "python" // Python's re (python-jsonschema)
	EnginePHP    = "php"    // PCRE2 through PHP's preg with the u flag
)

// PortIssue is a construct of a pattern that some engine reads otherwise, even in the
// portable form.
type PortIssue struct {
	// Construct is the construct as written: `$`, `\b`, `\p{L}`.
	Construct string
	// Offset is its byte offset in the pattern.
	Offset int
	// Engines are the engines that read it otherwise (EnginePython, EnginePHP).
	Engines []string
	// Reason says how they read it, completing "Construct at character N …".
	Reason string
	// Hint is how to write the pattern so that every engine reads it alike.
	Hint string
	// Rule distinguishes the kinds: "dollar", "boundary", "property".
	Rule string
}

// PortableResult is the portable form of a pattern.
type PortableResult struct {
	// Pattern is the pattern to write into schemas. In ECMA-262 (u flag) it matches
	// exactly the strings the original matches; RE2, Python's re and PCRE2 read it the
	// same way except for the constructs of Issues and the final newline
	// GuardFinalNewline covers.
	Pattern string
	// GuardFinalNewline says that the schema must also reject the strings ending in a
	// newline (NotFinalNewline): the original rejects them all in ECMA-262, and Python
	// and PCRE2 would accept some of them.
	GuardFinalNewline bool
	// Issues are the constructs without a common reading, in source order.
	Issues []PortIssue
}

// Portable returns the portable form of the pattern (see the comment above).
func (p *Pattern) Portable() *PortableResult {
	w := &portWriter{src: p.Source, dollar: -1}
	w.node(p.Root)
	if w.b.Len() > MaxPortableLength {
		w = &portWriter{src: p.Source, dollar: -1, keep: true}
		w.node(p.Root)
	}
	res := &PortableResult{Pattern: w.b.String(), Issues: w.issues}
	if w.dollar >= 0 {
		differs, ecmaNL, ok := finalNewline(p.RE2)
		switch {
		case !ok:
			res.Issues = append(res.Issues, dollarIssue(w.dollar, "is too complex for bqgen to decide whether they read it alike"))
		case !differs:
		case !ecmaNL:
			res.GuardFinalNewline = true
		default:
			res.Issues = append(res.Issues, dollarIssue(w.dollar, "matches before a final newline there too, and the pattern accepts some strings ending in a newline, so no sibling schema can rule out just the others"))
		}
		sortIssues(res.Issues)
	}
	return res
}

// PortablePattern parses pattern (Parse) and returns its portable form.
func PortablePattern(pattern string) (*PortableResult, error) {
	p, err := Parse(pattern)
	if err != nil {
		return nil, err
	}
	return p.Portable(), nil
}

// portableCache holds the results of PortableCached, up to maxPortableCache patterns.
var (
	portableCache  sync.Map // pattern → portableEntry
	portableCached atomic.Int64
)

const maxPortableCache = 1 << 14

type portableEntry struct {
	res *PortableResult
	err error
}

// PortableCached is PortablePattern remembering its answers: registries repeat their
// patterns across fields and messages, and the final-newline analysis explores the
// pattern's automaton. The result must not be modified.
func PortableCached(pattern string) (*PortableResult, error) {
	if e, ok := portableCache.Load(pattern); ok {
		return e.(portableEntry).res, e.(portableEntry).err
	}
	res, err := PortablePattern(pattern)
	if portableCached.Load() < maxPortableCache {
		if _, loaded := portableCache.LoadOrStore(pattern, portableEntry{res, err}); !loaded {
			portableCached.Add(1)
		}
	}
	return res, err
}

func dollarIssue(at int, why string) PortIssue {
	return PortIssue{Construct: "$", Offset: at, Engines: []string{EnginePython, EnginePHP}, Rule: "dollar",
		Reason: "ends the string in ECMA-262 and Go; in Python's re and PHP's preg it " + why,
		Hint:   "leave the newline out of what may stand before $ ([^,\\n] for [^,], [ \\t] for \\s), or check a final newline in code"}
}

func sortIssues(is []PortIssue) {
	for i := 1; i < len(is); i++ {
		for j := i; j > 0 && is[j].Offset < is[j-1].Offset; j-- {
			is[j], is[j-1] = is[j-1], is[j]
		}
	}
}

type portWriter struct {
	src    string
	b      strings.Builder
	issues []PortIssue
	dollar int  // offset of the first $, or -1
	keep   bool // keep large lone category escapes (MaxPortableLength)
}

func (w *portWriter) node(n *Node) {
	switch n.Op {
	case OpChar:
		w.char(n)
	case OpAssert:
		text := w.src[n.Lo:n.Hi]
		switch text {
		case "$":
			if w.dollar < 0 {
				w.dollar = n.Lo
			}
		case `\b`, `\B`:
			w.issues = append(w.issues, PortIssue{Construct: text, Offset: n.Lo, Engines: []string{EnginePython, EnginePHP}, Rule: "boundary",
				Reason: "tests for ASCII word characters ([A-Za-z0-9_]) in ECMA-262 and Go; Python's re and PHP's preg (u flag) count every Unicode letter and digit as a word character",
				Hint:   "spell the boundary with classes: (?:^|[^A-Za-z0-9_]) before and (?:[^A-Za-z0-9_]|$) after the word, when the pattern may match the neighbouring character"})
		}
		w.b.WriteString(text)
	case OpEmpty:
	case OpConcat:
		for _, s := range n.Sub {
			w.node(s)
		}
	case OpAlt:
		for i, s := range n.Sub {
			if i > 0 {
				w.b.WriteByte('|')
			}
			w.node(s)
		}
	case OpGroup:
		if n.Capture {
			w.b.WriteByte('(')
		} else {
			w.b.WriteString("(?:")
		}
		w.node(n.Sub[0])
		w.b.WriteByte(')')
	case OpRepeat:
		w.node(n.Sub[0])
		n.writeQuantifier(&w.b)
	}
}

// writeQuantifier writes the quantifier of an OpRepeat node as RE2, ECMA-262, Python's
// re and PCRE2 all read it: *, +, ?, {n}, {n,}, {n,m} (counts without leading zeros),
// then ? when lazy.
func (n *Node) writeQuantifier(b *strings.Builder) {
	switch {
	case n.Min == 0 && n.Max == -1:
		b.WriteByte('*')
	case n.Min == 1 && n.Max == -1:
		b.WriteByte('+')
	case n.Min == 0 && n.Max == 1:
		b.WriteByte('?')
	case n.Max == -1:
		fmt.Fprintf(b, "{%d,}", n.Min)
	case n.Min == n.Max:
		fmt.Fprintf(b, "{%d}", n.Min)
	default:
		fmt.Fprintf(b, "{%d,%d}", n.Min, n.Max)
	}
	if n.Lazy {
		b.WriteByte('?')
	}
}

// char writes a character set: one character as itself, else a class.
func (w *portWriter) char(n *Node) {
	rs := portRanges(n.Runes())
	if len(rs) == 2 && rs[0] == rs[1] {
		w.b.WriteString(portChar(rs[0], false))
		return
	}
	text := portClass(rs)
	if w.keep && len(text) > MaxPropertyExpansion {
		if g, neg, ok := loneCategory(w.src[n.Lo:n.Hi]); ok {
			sign := `\p`
			if neg {
				sign = `\P`
			}
			kept := sign + "{" + g + "}"
			w.issues = append(w.issues, PortIssue{Construct: w.src[n.Lo:n.Hi], Offset: n.Lo, Engines: []string{EnginePython}, Rule: "property",
				Reason: fmt.Sprintf("is kept as %s in the emitted schema: expanding it (%d ranges, %d bytes) would make the pattern longer than %d bytes, and Python's re has no property escapes (it rejects the pattern)", kept, len(rs)/2, len(text), MaxPortableLength),
				Hint:   "name the characters you need as ranges ([A-Za-z\\u00C0-\\u024F] for Latin letters), or a smaller category (\\p{Lu})"})
			w.b.WriteString(kept)
			return
		}
	}
	w.b.WriteString(text)
}

// loneCategory reports whether src is exactly one General_Category escape that ECMA-262,
// RE2 and PCRE2 all read under one name: \p{Lu}, \p{Letter}, \p{gc=Lu}. LC, Cn and C
// are not (Go has no LC or Cn, and its C leaves out Cn).
func loneCategory(src string) (g string, neg, ok bool) {
	if len(src) < 5 || src[0] != '\\' || (src[1] != 'p' && src[1] != 'P') || src[2] != '{' || src[len(src)-1] != '}' {
		return "", false, false
	}
	body := src[3 : len(src)-1]
	if name, value, has := strings.Cut(body, "="); has {
		if name != "gc" && name != "General_Category" {
			return "", false, false
		}
		body = value
	}
	g, ok = gcAliases[body]
	if !ok || g == "LC" || g == "Cn" || g == "C" || unicode.Categories[g] == nil {
		return "", false, false
	}
	return g, src[1] == 'P', true
}

// portRanges returns the sorted pairs rs with the surrogate gap closed: no string
// holds a lone surrogate (bqgen's decoders reject them), so a range may run through
// U+D800–U+DFFF, which gives shorter classes.
func portRanges(rs []rune) []rune {
	var out []rune
	for i := 0; i+1 < len(rs); i += 2 {
		lo, hi := rs[i], rs[i+1]
		if lo >= 0xD800 && hi <= 0xDFFF {
			continue
		}
		if n := len(out); n > 0 && (out[n-1]+1 == lo || out[n-1] == 0xD7FF && lo == 0xE000) {
			out[n-1] = hi
			continue
		}
		out = append(out, lo, hi)
	}
	return out
}

// portClass writes the set rs as a class, negated when the complement has fewer
// ranges (and V8 reads the negation right).
func portClass(rs []rune) string {
	comp := portRanges(complement(rs))
	var b strings.Builder
	b.WriteByte('[')
	set := rs
	// V8 (Node 20) loses U+10FFFF from a negated class whose last range ends at
	// U+10FFFE (/[^a-\u{10FFFE}]/u rejects U+10FFFF): such a set is written positively.
	negOK := len(comp) > 0 && comp[len(comp)-1] != 0x10FFFE
	if len(rs) == 0 || negOK && len(comp) < len(rs) {
		b.WriteByte('^')
		set = comp
	}
	for i := 0; i+1 < len(set); i += 2 {
		b.WriteString(portChar(set[i], true))
		if set[i+1] > set[i] {
			if set[i+1] > set[i]+1 {
				b.WriteByte('-')
			}
			b.WriteString(portChar(set[i+1], true))
		}
	}
	b.WriteByte(']')
	return b.String()
}

// portLiteral are the ASCII characters written as themselves outside a class
// besides letters and digits; inside a class, portClassLiteral.
const (
	portLiteral      = ` !"%&',-:;<=>@_` + "`"
	portClassLiteral = ` !"$%'()*+,.:;<=>?@_{}` + "`"
	portEscaped      = `$()*+.?[\]^{|}` // outside a class: a backslash before it
)

// portChar spells one code point so that all four engines read it as that code point:
// letters and digits as themselves; \t \n \f \r as those escapes; ASCII punctuation as itself where no engine gives
// it a meaning, a syntax character with a backslash outside a class, and the rest —
// controls, a class's ] \ ^ - [, the delimiters PHP validators wrap patterns in (/ ~ #)
// and Python's set operators (& | ~) — as \xHH; U+0080–U+00FF that are not letters as
// \xHH; everything above U+00FF as itself.
func portChar(r rune, inClass bool) string {
	switch {
	case r < utf8.RuneSelf && isAlnum(byte(r)):
		return string(r)
	case r < utf8.RuneSelf && !inClass && strings.ContainsRune(portLiteral, r):
		return string(r)
	case r < utf8.RuneSelf && inClass && strings.ContainsRune(portClassLiteral, r):
		return string(r)
	case r < utf8.RuneSelf && !inClass && strings.ContainsRune(portEscaped, r):
		return `\` + string(r)
	case r == '\t' || r == '\n' || r == '\f' || r == '\r':
		return `\` + string("tnfr"[strings.IndexRune("\t\n\f\r", r)]) // \v is a class in PCRE2
	case r <= 0xFF && !(r >= 0xC0 && r != 0xD7 && r != 0xF7):
		return fmt.Sprintf(`\x%02X`, r)
	}
	return string(r)
}
