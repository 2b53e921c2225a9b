// Package ecmare translates the regular expressions of JSON Schema's `pattern` keyword
// into RE2 expressions with the same meaning, for Go's regexp.
//
// JSON Schema defines `pattern` as an ECMA-262 regular expression; bqgen reads it as
// ECMA-262 with the u flag and no other flag, as ajv does (docs/patterns.md). Go's
// regexp implements RE2, which spells many constructs differently and reads some of
// the same spellings differently: ECMA-262's `.` excludes \r, U+2028 and U+2029 as well
// as \n, its `\s` holds every Unicode space and U+FEFF, `\u{…}` and `\cX` are not RE2,
// RE2 reads a stray `}` as a literal where ECMA-262 rejects it. Parse reads a pattern by
// the ECMA-262 grammar (Annex B's lenient forms are not part of it with the u flag) and
// writes each construct in RE2 with the meaning ECMA-262 gives it, so that Go's regexp
// matches exactly the strings an ECMA-262 engine matches (docs/patterns.md has the
// table).
//
// What RE2 cannot express at all (lookahead, lookbehind, backreferences, named
// backreferences, counts above 1000) is an *Error wrapping ErrUnsupported; a pattern
// ECMA-262 rejects is an *Error wrapping ErrSyntax. Both carry the byte offset of the
// construct in the pattern.
//
// Strings are sequences of Unicode code points in both engines (the u flag). Code points
// U+D800–U+DFFF (lone surrogates) cannot occur in a valid UTF-8 string: bqgen's decoders
// reject JSON text with an unpaired surrogate escape as malformed, so a pattern's
// surrogate code points match nothing in the translation.
package ecmare

import (
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// ErrSyntax classifies patterns that are not ECMA-262 regular expressions with the u
// flag (an ECMA-262 engine throws a SyntaxError for them).
var ErrSyntax = errors.New("not a valid ECMA-262 pattern (JSON Schema reads it with the u flag)")

// ErrUnsupported classifies valid ECMA-262 patterns that RE2 cannot express.
var ErrUnsupported = errors.New("not expressible in RE2 (Go's regexp)")

// ErrTooLarge classifies valid ECMA-262 patterns whose RE2 translation would be longer
// than MaxRE2Size bytes. It wraps ErrUnsupported: errors.Is(err, ErrUnsupported) holds
// for it too.
var ErrTooLarge = fmt.Errorf("%w: the translation is too large", ErrUnsupported)

// MaxRE2Size is the longest RE2 translation Parse writes, in bytes: 32,768. A property
// escape that RE2 has no name for is written as its ranges (`\p{Cn}`: 10,093 bytes,
// `\p{Alphabetic}`: 6,376), so a short pattern can translate to megabytes; past the
// limit Parse stops writing and returns an ErrTooLarge error.
const MaxRE2Size = 32 << 10

// Error is a pattern that cannot be translated.
type Error struct {
	// Pattern is the pattern as given.
	Pattern string
	// Offset is the byte offset in Pattern where the construct starts.
	Offset int
	// Construct is the construct as written ("(?=", `\1`, "}"), or a description.
	Construct string
	// Reason says what is wrong with it, completing "Construct …".
	Reason string
	// Hint is how to fix it.
	Hint string
	// Kind is ErrSyntax or ErrUnsupported.
	Kind error
}

// Char returns the 1-based position of the construct in the pattern, counted in
// characters (code points).
func (e *Error) Char() int {
	return utf8.RuneCountInString(e.Pattern[:min(e.Offset, len(e.Pattern))]) + 1
}

// Message is the error without the pattern: the construct, its position and the reason.
func (e *Error) Message() string {
	msg := fmt.Sprintf("%s at character %d", e.Construct, e.Char())
	switch {
	case e.Reason == "":
	case strings.HasPrefix(e.Reason, "which"):
		msg += ", " + e.Reason
	default:
		msg += " " + e.Reason
	}
	return msg
}

func (e *Error) Error() string {
	return fmt.Sprintf("pattern %q: %s", e.Pattern, e.Message())
}

// Unwrap returns Kind, for errors.Is(err, ErrSyntax) and errors.Is(err, ErrUnsupported).
func (e *Error) Unwrap() error { return e.Kind }

// Op is the kind of a Node.
type Op uint8

// The node kinds.
const (
	// OpChar matches one character (code point) of a set: a literal, `.`, a class, an
	// escape such as \d or \p{L}.
	OpChar Op = iota
	// OpAssert matches the empty string at a position: ^, $, \b or \B.
	OpAssert
	// OpEmpty matches the empty string (an empty alternative or group).
	OpEmpty
	// OpConcat matches Sub in sequence.
	OpConcat
	// OpAlt matches one of Sub.
	OpAlt
	// OpGroup is a group, capturing or not: it matches Sub[0].
	OpGroup
	// OpRepeat matches Sub[0] from Min to Max times.
	OpRepeat
)

// Node is a node of a parsed pattern.
type Node struct {
	Op  Op
	Sub []*Node
	// Min and Max are the counts of OpRepeat; Max is -1 when unbounded.
	Min, Max int
	// Lazy is set for a lazy quantifier (`*?`); it changes no verdict.
	Lazy bool
	// Capture is set for a capturing group, named or not.
	Capture bool
	// Lo and Hi are the byte offsets of the node's source in the pattern, [Lo, Hi).
	Lo, Hi int

	re2   string  // OpChar, OpAssert: the RE2 spelling
	runes *[]rune // OpChar: the set, computed on first use (under runesMu)
}

// runesMu guards Node.runes: parsed patterns are shared (cache.go).
var runesMu sync.Mutex

// Runes returns the characters an OpChar node matches, as sorted, non-overlapping,
// inclusive pairs lo, hi of code points (nil for other nodes and for a set that is
// empty). The slice must not be modified.
func (n *Node) Runes() []rune {
	if n.Op != OpChar {
		return nil
	}
	runesMu.Lock() // patterns are shared (cache.go)
	defer runesMu.Unlock()
	rs := n.runes
	if rs == nil {
		var set []rune
		re, err := syntax.Parse(n.re2, syntax.Perl)
		switch {
		case err != nil:
		case re.Op == syntax.OpCharClass:
			set = re.Rune
		case re.Op == syntax.OpLiteral && len(re.Rune) == 1:
			set = []rune{re.Rune[0], re.Rune[0]}
		case re.Op == syntax.OpAnyChar:
			set = []rune{0, unicode.MaxRune}
		case re.Op == syntax.OpAnyCharNotNL:
			set = []rune{0, '\n' - 1, '\n' + 1, unicode.MaxRune}
		}
		rs = &set
		n.runes = rs
	}
	if len(*rs) == 0 {
		return nil
	}
	return *rs
}

// RE2 returns the node in RE2 syntax.
func (n *Node) RE2() string {
	var b strings.Builder
	n.write(&b)
	return b.String()
}

func (n *Node) write(b *strings.Builder) {
	switch n.Op {
	case OpChar, OpAssert:
		b.WriteString(n.re2)
	case OpConcat:
		for _, s := range n.Sub {
			s.write(b)
		}
	case OpAlt:
		for i, s := range n.Sub {
			if i > 0 {
				b.WriteByte('|')
			}
			s.write(b)
		}
	case OpGroup:
		if n.Capture {
			b.WriteByte('(') // the author's capturing group, unnamed (names change no verdict)
		} else {
			b.WriteString("(?:")
		}
		n.Sub[0].write(b)
		b.WriteByte(')')
	case OpRepeat:
		n.Sub[0].write(b)
		n.writeQuantifier(b)
	}
}

// Property is a Unicode property escape (\p{…} or \P{…}) of a pattern.
type Property struct {
	// Offset is its byte offset in the pattern.
	Offset int
	// Text is the escape as written, `\p{Lu}`.
	Text string
}

// Pattern is a parsed ECMA-262 pattern.
type Pattern struct {
	// Source is the pattern as written.
	Source string
	// Root is its syntax tree.
	Root *Node
	// RE2 is the translation: an RE2 expression that Go's regexp (syntax.Perl flags,
	// as regexp.Compile reads it) matches against exactly the strings the ECMA-262
	// pattern matches.
	RE2 string
	// Properties lists the Unicode property escapes, in source order: both engines
	// support them, but each matches by its own Unicode version (UnicodeVersionNote).
	Properties []Property
}

// MaxRepeat is the largest count RE2 accepts in a quantifier ({n,m}), also for the
// product of nested counts.
const MaxRepeat = 1000

// maxDepth bounds the nesting of groups (Go's regexp rejects deeper nesting too).
const maxDepth = 1000

// Parse reads pattern as an ECMA-262 regular expression with the u flag and translates
// it to RE2. The error is an *Error (ErrSyntax, ErrUnsupported, or ErrTooLarge, which
// wraps ErrUnsupported). Results are kept for the life of the process (cache.go): the
// same pattern is translated once, however many fields use it. The *Pattern is shared
// and must not be modified.
func Parse(pattern string) (*Pattern, error) {
	e := cached(pattern)
	return e.pat, e.err
}

// parse is Parse without the cache.
func parse(pattern string) (*Pattern, error) {
	p := &parser{src: pattern, names: map[string]bool{}}
	root, err := p.run()
	if err != nil {
		return nil, err
	}
	out := &Pattern{Source: pattern, Root: root, RE2: root.RE2(), Properties: p.props}
	if len(out.RE2) > MaxRE2Size {
		return nil, tooLarge(pattern)
	}
	// What RE2 still refuses after the translation is one of its limits (nested
	// counts whose product is above 1000, a program too large).
	if _, err := syntax.Parse(out.RE2, syntax.Perl); err != nil {
		msg := strings.TrimPrefix(err.Error(), "error parsing regexp: ")
		return nil, &Error{Pattern: pattern, Offset: 0, Construct: "the pattern", Kind: ErrUnsupported,
			Reason: "is beyond what RE2 (Go's regexp) accepts once translated: " + msg,
			Hint:   "keep repetition counts (multiplied through nested groups) at most 1000, or check the length with minLength/maxLength"}
	}
	return out, nil
}

// Translate returns the RE2 expression that means what the ECMA-262 pattern means (see
// Parse). The error is an *Error.
func Translate(pattern string) (string, error) {
	p, err := Parse(pattern)
	if err != nil {
		return "", err
	}
	return p.RE2, nil
}

// Compile translates pattern and compiles the translation with regexp.Compile. The
// *regexp.Regexp's String() is the translation. The error is an *Error. The compiled
// expression is kept with the translation (Parse) and shared: a *regexp.Regexp is safe
// for concurrent use.
func Compile(pattern string) (*regexp.Regexp, error) {
	e := cached(pattern)
	if e.err != nil {
		return nil, e.err
	}
	return e.compile()
}

// MustCompile is Compile that panics on error, for patterns known to translate.
func MustCompile(pattern string) *regexp.Regexp {
	re, err := Compile(pattern)
	if err != nil {
		panic(err)
	}
	return re
}

// JSONSchemaEngine is the regexp engine of santhosh-tekuri/jsonschema/v6
// (Compiler.UseRegexpEngine) that reads `pattern` as ECMA-262: CompileRegexp.
func JSONSchemaEngine(pattern string) (jsonschema.Regexp, error) {
	re, err := CompileRegexp(pattern)
	if err != nil {
		return nil, err
	}
	return re, nil
}

// Regexp is a compiled pattern that prints as its ECMA-262 source: the shape
// santhosh-tekuri/jsonschema/v6 wants from a regexp engine (UseRegexpEngine), so that
// its messages show the pattern as the schema writes it.
type Regexp struct {
	re  *regexp.Regexp
	src string
}

// CompileRegexp is Compile returning a Regexp.
func CompileRegexp(pattern string) (*Regexp, error) {
	re, err := Compile(pattern)
	if err != nil {
		return nil, err
	}
	return &Regexp{re: re, src: pattern}, nil
}

// MatchString reports whether s contains a match of the pattern (JSON Schema's pattern
// is not anchored).
func (r *Regexp) MatchString(s string) bool { return r.re.MatchString(s) }

// String returns the ECMA-262 source of the pattern.
func (r *Regexp) String() string { return r.src }

// ---- the parser ----------------------------------------------------------------------

type parser struct {
	src    string
	i      int
	depth  int
	groups int             // capturing groups
	names  map[string]bool // group names
	props  []Property
	unsup  *Error    // the first construct RE2 cannot express
	size   int       // bytes of RE2 the characters and assertions spelled so far take (at most the translation's)
	over   bool      // size passed MaxRE2Size: classes are no longer spelled
	refs   []backref // backreferences, checked once all groups are known
	slab   []Node    // see node
}

type backref struct {
	at, end int
	n       int    // \n: the group number
	name    string // \k<name>
}

// bail carries a syntax error out of the recursive descent.
type bail struct{ err *Error }

func (p *parser) fail(at int, construct, reason, hint string) {
	panic(bail{&Error{Pattern: p.src, Offset: at, Construct: construct, Reason: reason, Hint: hint, Kind: ErrSyntax}})
}

// tooLarge is the ErrTooLarge error of pattern.
func tooLarge(pattern string) *Error {
	return &Error{Pattern: pattern, Offset: 0, Construct: "the pattern", Kind: ErrTooLarge,
		Reason: fmt.Sprintf("whose RE2 translation would be longer than %d bytes", MaxRE2Size),
		Hint:   `list fewer characters: a property escape RE2 has no name for (\p{Cn}, \p{C}, \p{LC}, binary properties such as \p{Alphabetic}) is written as its ranges, up to 10 KB each`}
}

func (p *parser) unsupported(at int, construct, reason, hint string) {
	if p.unsup == nil {
		p.unsup = &Error{Pattern: p.src, Offset: at, Construct: construct, Reason: reason, Hint: hint, Kind: ErrUnsupported}
	}
}

func (p *parser) run() (root *Node, err error) {
	defer func() {
		if r := recover(); r != nil {
			b, ok := r.(bail)
			if !ok {
				panic(r)
			}
			root, err = nil, b.err
		}
	}()
	root = p.disjunction()
	if p.i < len(p.src) { // only a ')' stops the top-level disjunction early
		p.fail(p.i, "an unmatched )", "", `escape it (\)) for a literal parenthesis, or open the group`)
	}
	for _, r := range p.refs {
		if r.name != "" && !p.names[r.name] {
			p.fail(r.at, p.src[r.at:r.end], "names no group of the pattern", "name a group (?<"+r.name+">…), or drop the backreference")
		}
		if r.name == "" && r.n > p.groups {
			p.fail(r.at, p.src[r.at:r.end], "refers to a group the pattern does not have (with the u flag it is not an octal escape)",
				`write \x followed by two hex digits for a character code`)
		}
	}
	if p.unsup != nil {
		return nil, p.unsup
	}
	return root, nil
}

func (p *parser) more() bool { return p.i < len(p.src) }

func (p *parser) peek() byte {
	if p.i < len(p.src) {
		return p.src[p.i]
	}
	return 0
}

func (p *parser) disjunction() *Node {
	lo := p.i
	var alts []*Node
	for {
		alts = append(alts, p.alternative())
		if p.peek() != '|' {
			break
		}
		p.i++
	}
	if len(alts) == 1 {
		return alts[0]
	}
	return p.node(Node{Op: OpAlt, Sub: alts, Lo: lo, Hi: p.i})
}

func (p *parser) alternative() *Node {
	lo := p.i
	var terms []*Node
	for p.more() && p.peek() != '|' && p.peek() != ')' {
		terms = append(terms, p.term())
	}
	switch len(terms) {
	case 0:
		return p.node(Node{Op: OpEmpty, Lo: lo, Hi: lo})
	case 1:
		return terms[0]
	}
	return p.node(Node{Op: OpConcat, Sub: terms, Lo: lo, Hi: p.i})
}

const syntaxChars = `^$\.*+?()[]{}|`

func (p *parser) term() *Node {
	lo := p.i
	c := p.peek()
	var atom *Node
	switch c {
	case '^', '$':
		p.i++
		return p.noQuantifier(p.node(Node{Op: OpAssert, re2: string(c), Lo: lo, Hi: p.i}))
	case '\\':
		if p.i+1 < len(p.src) && (p.src[p.i+1] == 'b' || p.src[p.i+1] == 'B') {
			p.i += 2
			return p.noQuantifier(p.node(Node{Op: OpAssert, re2: p.src[lo:p.i], Lo: lo, Hi: p.i}))
		}
		atom = p.atomEscape()
	case '(':
		if look := p.lookaround(); look != "" {
			p.i += len(look)
			p.depth++
			if p.depth > maxDepth {
				p.fail(lo, "nesting deeper than 1000 groups", "", "flatten the pattern")
			}
			p.disjunction()
			p.depth--
			p.close(lo)
			what := map[string]string{"(?=": "a lookahead", "(?!": "a negative lookahead", "(?<=": "a lookbehind", "(?<!": "a negative lookbehind"}[look]
			p.unsupported(lo, what+" "+look+"…)", "which RE2 (Go's regexp) cannot express",
				"rewrite the pattern without lookaround (spell out what may follow or precede as alternatives), or check the condition in code")
			return p.noQuantifier(p.node(Node{Op: OpEmpty, Lo: lo, Hi: p.i}))
		}
		atom = p.group()
	case '[':
		atom = p.class()
	case '.':
		p.i++
		atom = p.node(Node{Op: OpChar, re2: `[^\n\r\x{2028}\x{2029}]`, Lo: lo, Hi: p.i})
	case '*', '+', '?':
		p.fail(lo, "the quantifier "+string(c), "has nothing to repeat", `escape it (\`+string(c)+`) for the literal character`)
	case '{':
		if n := quantifierLen(p.src[p.i:]); n > 0 {
			p.fail(lo, "the quantifier "+p.src[lo:lo+n], "has nothing to repeat", `escape the brace (\{) for literal text`)
		}
		p.fail(lo, "a lone {", "", `escape it (\{) for a literal brace, or write a count as {n}, {n,} or {n,m}`)
	case '}', ']':
		if c == ']' {
			p.posixClass(lo)
		}
		p.fail(lo, "a lone "+string(c), "", `escape it (\`+string(c)+`) for the literal character`)
	default:
		r := p.char()
		atom = p.charNode(r, lo, p.i)
	}
	return p.quantifier(atom)
}

// char reads one code point of the pattern.
func (p *parser) char() rune {
	r, size := utf8.DecodeRuneInString(p.src[p.i:])
	if r == utf8.RuneError && size == 1 {
		p.fail(p.i, "a byte that is not UTF-8", "", "write the pattern in UTF-8")
	}
	p.i += size
	return r
}

func (p *parser) lookaround() string {
	for _, l := range []string{"(?=", "(?!", "(?<=", "(?<!"} {
		if strings.HasPrefix(p.src[p.i:], l) {
			return l
		}
	}
	return ""
}

func (p *parser) close(lo int) {
	if p.peek() != ')' {
		p.fail(lo, "a group "+clip(p.src[lo:]), "is not closed", "add the closing )")
	}
	p.i++
}

// noQuantifier rejects a quantifier after an assertion (ECMA-262 with the u flag has
// no quantifiable assertions).
func (p *parser) noQuantifier(n *Node) *Node {
	if k := quantifierLen(p.src[p.i:]); k > 0 {
		q := p.src[p.i : p.i+k]
		p.fail(p.i, "a quantifier on an assertion "+p.src[n.Lo:n.Hi]+q, "",
			"drop the quantifier: an assertion matches no characters, so repeating it changes nothing")
	}
	return n
}

func (p *parser) group() *Node {
	lo := p.i
	p.i++
	capture := true
	if strings.HasPrefix(p.src[p.i:], "?:") {
		p.i += 2
		capture = false
	} else if p.peek() == '?' {
		if p.i+1 < len(p.src) && p.src[p.i+1] == '<' {
			p.i += 2
			name := p.groupName(lo)
			if p.names[name] {
				p.fail(lo, "a second group named "+name, "", "give each group its own name (Node 20 and ECMA-262 before ES2025 reject duplicates)")
			}
			p.names[name] = true
			p.groups++
		} else {
			end := strings.IndexAny(p.src[p.i:], ":)")
			construct := p.src[lo:]
			if end >= 0 {
				construct = p.src[lo : p.i+end+1]
			}
			if strings.HasPrefix(p.src[p.i:], "?P<") {
				p.fail(lo, "the group syntax (?P<", "is RE2's spelling of a named group, which ECMA-262 writes (?<name>…)",
					"write (?<name>…), or (?:…) as nothing reads the name")
			}
			p.fail(lo, "the group syntax "+clip(construct), "is not ECMA-262 (Node 20 has no inline flags or modifiers)",
				"write (?:…) for a group that does not capture; ECMA-262 patterns in JSON Schema take no inline flags: spell both cases in a class ([Aa]) for i, [^] for a . that matches newlines")
		}
	} else {
		p.groups++
	}
	p.depth++
	if p.depth > maxDepth {
		p.fail(lo, "nesting deeper than 1000 groups", "", "flatten the pattern")
	}
	body := p.disjunction()
	p.depth--
	p.close(lo)
	return p.node(Node{Op: OpGroup, Sub: []*Node{body}, Capture: capture, Lo: lo, Hi: p.i})
}

// groupName reads `name>` of a (?<name>…) group or a \k<name> reference (p.i is after
// the '<').
func (p *parser) groupName(lo int) string {
	var b strings.Builder
	first := true
	for {
		if !p.more() {
			p.fail(lo, "a group name "+clip(p.src[lo:]), "is not closed", "end the name with >")
		}
		at := p.i
		var r rune
		if p.peek() == '>' {
			if first {
				p.fail(lo, "an empty group name", "", "name the group with a letter first, or write (?:…)")
			}
			p.i++
			return b.String()
		}
		if p.peek() == '\\' && p.i+1 < len(p.src) && p.src[p.i+1] == 'u' {
			p.i += 2
			r = p.unicodeEscape(at)
		} else {
			r = p.char()
		}
		ok := r == '$' || r == '_' || idStart(r)
		if !first {
			ok = ok || idContinue(r) || r == 0x200C || r == 0x200D
		}
		if !ok {
			p.fail(at, fmt.Sprintf("the character %q in a group name", r), "", "group names are identifiers: a letter, $ or _ first, then letters, digits, $ or _")
		}
		b.WriteRune(r)
		first = false
	}
}

// idStart reports whether r has the Unicode property ID_Start, which ECMA-262's
// RegExpIdentifierName asks of a group name's first character (besides $ and _):
// letters, letter numbers and Other_ID_Start (℘, ℮, ゛, ゜, …), less Pattern_Syntax and
// Pattern_White_Space (Unicode Standard Annex #31), by Go's Unicode tables.
func idStart(r rune) bool {
	return unicode.In(r, unicode.L, unicode.Nl, unicode.Other_ID_Start) &&
		!unicode.In(r, unicode.Pattern_Syntax, unicode.Pattern_White_Space)
}

// idContinue reports whether r has the Unicode property ID_Continue, asked of a group
// name's later characters (besides $, ZWNJ and ZWJ): ID_Start, non-spacing and spacing
// marks, decimal digits, connector punctuation and Other_ID_Continue (U+00B7, U+0387, U+1369–U+1371, U+19DA),
// less Pattern_Syntax and Pattern_White_Space.
func idContinue(r rune) bool {
	return unicode.In(r, unicode.L, unicode.Nl, unicode.Other_ID_Start, unicode.Mn, unicode.Mc, unicode.Nd,
		unicode.Pc, unicode.Other_ID_Continue) &&
		!unicode.In(r, unicode.Pattern_Syntax, unicode.Pattern_White_Space)
}

// quantifierLen returns the length of the quantifier at the start of s (without a lazy
// ?), or 0.
func quantifierLen(s string) int {
	if s == "" {
		return 0
	}
	switch s[0] {
	case '*', '+', '?':
		return 1
	case '{':
		i := 1
		digits := func() bool {
			st := i
			for i < len(s) && s[i] >= '0' && s[i] <= '9' {
				i++
			}
			return i > st
		}
		if !digits() {
			return 0
		}
		if i < len(s) && s[i] == ',' {
			i++
			digits()
		}
		if i < len(s) && s[i] == '}' {
			return i + 1
		}
	}
	return 0
}

// count reads a decimal count of a quantifier; counts above MaxRepeat are capped at
// MaxRepeat+1 (p.i moves past every digit). digits is the count as written, without
// leading zeros ("" for 0), to compare counts of any length exactly.
func (p *parser) count() (v int, digits string) {
	st := p.i
	for p.more() && p.peek() >= '0' && p.peek() <= '9' {
		v = min(v*10+int(p.peek()-'0'), MaxRepeat+1)
		p.i++
	}
	return v, strings.TrimLeft(p.src[st:p.i], "0")
}

// countLess reports whether the count a is below the count b, both decimal digits
// without leading zeros.
func countLess(a, b string) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
}

func (p *parser) quantifier(atom *Node) *Node {
	k := quantifierLen(p.src[p.i:])
	if k == 0 {
		if p.peek() == '{' {
			p.fail(p.i, "a lone {", "", `escape it (\{) for a literal brace, or write a count as {n}, {n,} or {n,m}`)
		}
		return atom
	}
	qlo := p.i
	n := p.node(Node{Op: OpRepeat, Sub: []*Node{atom}, Lo: atom.Lo})
	switch p.peek() {
	case '*':
		n.Min, n.Max = 0, -1
		p.i++
	case '+':
		n.Min, n.Max = 1, -1
		p.i++
	case '?':
		n.Min, n.Max = 0, 1
		p.i++
	case '{':
		p.i++
		var minDigits, maxDigits string
		n.Min, minDigits = p.count()
		n.Max, maxDigits = n.Min, minDigits
		if p.peek() == ',' {
			p.i++
			n.Max, maxDigits = -1, ""
			if p.peek() != '}' {
				n.Max, maxDigits = p.count()
			}
		}
		p.i++ // '}'
		q := p.src[qlo:p.i]
		if n.Max >= 0 && countLess(maxDigits, minDigits) {
			// A syntax error whatever the size of the counts (ECMA-262 22.2.1.1:
			// "the MV of the first DecimalDigits is larger than the MV of the second").
			p.fail(qlo, "the count "+q, "has its minimum above its maximum", "write {min,max} with min ≤ max")
		}
		if n.Min > MaxRepeat || n.Max > MaxRepeat {
			p.unsupported(qlo, "the count "+q, "which is above 1000, the largest count RE2 (Go's regexp) accepts",
				"check long lengths with minLength/maxLength and keep counts at most 1000")
		}
	}
	if p.peek() == '?' {
		n.Lazy = true
		p.i++
	}
	if p.peek() == '*' || p.peek() == '+' || p.peek() == '?' || quantifierLen(p.src[p.i:]) > 0 {
		p.fail(p.i, "the quantifier "+string(p.peek()), "follows another quantifier", "group the repeated part: (?:a+)* for a repetition of repetitions")
	}
	n.Hi = p.i
	return n
}

// atomEscape reads an escape outside a class (not \b or \B).
func (p *parser) atomEscape() *Node {
	lo := p.i
	if lo+1 >= len(p.src) {
		p.fail(lo, `a \ at the end of the pattern`, "", `write \\ for a backslash`)
	}
	c := p.src[lo+1]
	switch {
	case c >= '1' && c <= '9':
		p.i++
		n := 0
		for p.more() && p.peek() >= '0' && p.peek() <= '9' {
			n = min(n*10+int(p.peek()-'0'), 1<<20)
			p.i++
		}
		p.refs = append(p.refs, backref{at: lo, end: p.i, n: n})
		p.unsupported(lo, "the backreference "+p.src[lo:p.i], "which RE2 (Go's regexp) cannot express",
			"rewrite the pattern without backreferences (list the alternatives explicitly), or check the condition in code")
		return p.node(Node{Op: OpEmpty, Lo: lo, Hi: p.i})
	case c == 'k':
		p.i += 2
		if p.peek() != '<' {
			p.fail(lo, `\k without a group name`, "", `write \k<name> for a named backreference, or k without the backslash`)
		}
		p.i++
		name := p.groupName(lo)
		p.refs = append(p.refs, backref{at: lo, end: p.i, name: name})
		p.unsupported(lo, "the named backreference "+p.src[lo:p.i], "which RE2 (Go's regexp) cannot express",
			"rewrite the pattern without backreferences (list the alternatives explicitly), or check the condition in code")
		return p.node(Node{Op: OpEmpty, Lo: lo, Hi: p.i})
	}
	cl := p.classEscape(false)
	if r, ok := cl.single(); ok {
		return p.charNode(r, lo, p.i)
	}
	if p.over {
		return p.node(Node{Op: OpChar, Lo: lo, Hi: p.i}) // the pattern is refused: spell nothing more
	}
	return p.node(Node{Op: OpChar, re2: cl.atom(), Lo: lo, Hi: p.i})
}

// ---- classes -------------------------------------------------------------------------

// piece is a part of a class: a range of code points or a class escape (\d, \s, \p{…}).
type piece struct {
	lo, hi rune
	esc    *classEsc
}

// classEsc is a class escape in RE2 terms: either an RE2 class escape (text: \d, \D, \w,
// \W, \p{L}, \P{L}) that RE2 reads as ECMA-262 does, or explicit ranges (neg: their
// complement).
type classEsc struct {
	text   string
	ranges []rune
	neg    bool
	// atomText and classText are atom() and inClass(), written in advance for the
	// shared escapes of memoEsc.
	atomText, classText string
}

// single returns the code point of a character escape.
func (c *classEsc) single() (rune, bool) {
	if c.text == "" && !c.neg && len(c.ranges) == 2 && c.ranges[0] == c.ranges[1] {
		return c.ranges[0], true
	}
	return 0, false
}

// atom is the escape as an RE2 atom outside a class.
func (c *classEsc) atom() string {
	if c.text != "" {
		return c.text
	}
	if c.atomText != "" {
		return c.atomText
	}
	if c.neg {
		return "[^" + rangesRE2(c.ranges) + "]"
	}
	return "[" + rangesRE2(c.ranges) + "]"
}

// inClass is the escape spelled inside an RE2 class.
func (c *classEsc) inClass() string {
	if c.text != "" {
		return c.text
	}
	if c.classText != "" {
		return c.classText
	}
	if c.neg {
		return rangesRE2(complement(c.ranges))
	}
	return rangesRE2(c.ranges)
}

// ecmaSpace is ECMA-262's \s: WhiteSpace (TAB, VT, FF, ZWNBSP and the Zs category) and
// LineTerminator (LF, CR, LS, PS).
var ecmaSpace = []rune{
	0x09, 0x0D, 0x20, 0x20, 0xA0, 0xA0, 0x1680, 0x1680, 0x2000, 0x200A,
	0x2028, 0x2029, 0x202F, 0x202F, 0x205F, 0x205F, 0x3000, 0x3000, 0xFEFF, 0xFEFF,
}

// EcmaSpace returns ECMA-262's \s as sorted inclusive pairs of code points.
func EcmaSpace() []rune { return append([]rune(nil), ecmaSpace...) }

// classEscape reads an escape at p.src[p.i] == '\\' that stands for characters:
// a class escape or a character escape. inClass allows \b (backspace) and \-.
func (p *parser) classEscape(inClass bool) *classEsc {
	lo := p.i
	if lo+1 >= len(p.src) {
		p.fail(lo, `a \ at the end of the pattern`, "", `write \\ for a backslash`)
	}
	c := p.src[lo+1]
	p.i += 2
	switch c {
	case 'd', 'D', 'w', 'W':
		return &classEsc{text: p.src[lo:p.i]}
	case 's':
		return &classEsc{ranges: ecmaSpace}
	case 'S':
		return &classEsc{ranges: ecmaSpace, neg: true}
	case 'p', 'P':
		return p.property(lo, c == 'P')
	}
	r := p.charEscape(lo, c, inClass)
	return &classEsc{ranges: []rune{r, r}}
}

// charEscape reads the rest of a character escape \c… (p.i is after c) and returns its
// code point.
func (p *parser) charEscape(lo int, c byte, inClass bool) rune {
	switch c {
	case 'f':
		return '\f'
	case 'n':
		return '\n'
	case 'r':
		return '\r'
	case 't':
		return '\t'
	case 'v':
		return '\v'
	case 'c':
		if l := p.peek(); l >= 'a' && l <= 'z' || l >= 'A' && l <= 'Z' {
			p.i++
			return rune(l) % 32
		}
		p.fail(lo, `\c without a letter`, "", `write \cA … \cZ for a control character, or \\c for a backslash and c`)
	case '0':
		if d := p.peek(); d >= '0' && d <= '9' {
			p.fail(lo, "the escape "+p.src[lo:p.i+1], "is an octal escape, which ECMA-262 does not have with the u flag",
				`write \x followed by two hex digits (\x00 for NUL)`)
		}
		return 0
	case 'x':
		if p.i+2 <= len(p.src) && isHex(p.src[p.i]) && isHex(p.src[p.i+1]) {
			v, _ := strconv.ParseUint(p.src[p.i:p.i+2], 16, 8)
			p.i += 2
			return rune(v)
		}
		hint := `write \x followed by exactly two hex digits, or \u{…} for any code point`
		p.fail(lo, clip(p.src[lo:min(p.i+2, len(p.src))]), "is not a valid escape (\\x takes exactly two hex digits)", hint)
	case 'u':
		return p.unicodeEscape(lo)
	case 'b':
		if inClass {
			return '\b'
		}
	case '-':
		if inClass {
			return '-'
		}
	case '/':
		return '/'
	}
	if strings.IndexByte(syntaxChars, c) >= 0 {
		return rune(c)
	}
	p.i = lo + 1
	r := p.char()
	esc := p.src[lo:p.i]
	hint := "write " + string(r) + " without the backslash"
	switch {
	case r == 'A':
		hint = `write ^ for the start of the text`
	case r == 'z' || r == 'Z':
		hint = `write $ for the end of the text (it does not match before a final newline)`
	case r == 'Q' || r == 'E':
		hint = `escape each special character with \ instead of \Q…\E`
	case r == 'a':
		hint = `write \x07 for the bell character`
	case r == 'e':
		hint = `write \x1B for the escape character`
	case r == '-':
		hint = "write - without the backslash (\\- is an escape inside a class only)"
	case r == 'B':
		hint = `\B is an assertion outside a class; inside one, drop it`
	case r == ' ':
		hint = "write a space without the backslash"
	case r < utf8.RuneSelf && isAlnum(byte(r)):
		hint = "write " + string(r) + " without the backslash (a letter escape means nothing else in ECMA-262)"
	}
	p.fail(lo, "the escape "+esc, "is not an escape ECMA-262 knows with the u flag", hint)
	return 0
}

// unicodeEscape reads \uXXXX, a surrogate pair \uXXXX\uXXXX or \u{…} (p.i is after the u).
func (p *parser) unicodeEscape(lo int) rune {
	if p.peek() == '{' {
		end := strings.IndexByte(p.src[p.i:], '}')
		digits := ""
		if end > 0 {
			digits = p.src[p.i+1 : p.i+end]
		}
		v, err := strconv.ParseUint(digits, 16, 32)
		if end < 0 || digits == "" || err != nil || strings.ContainsAny(digits, "+-") || v > unicode.MaxRune {
			p.fail(lo, clip(p.src[lo:]), "is not a valid escape", `write \u{…} with 1 to 6 hex digits up to 10FFFF`)
		}
		p.i += end + 1
		return rune(v)
	}
	v, ok := p.hex4()
	if !ok {
		p.fail(lo, clip(p.src[lo:min(p.i+4, len(p.src))]), "is not a valid escape", `write \u followed by exactly four hex digits, or \u{…}`)
	}
	if v >= 0xD800 && v <= 0xDBFF && strings.HasPrefix(p.src[p.i:], `\u`) {
		save := p.i
		p.i += 2
		if t, ok := p.hex4(); ok && t >= 0xDC00 && t <= 0xDFFF {
			return (v-0xD800)<<10 + (t - 0xDC00) + 0x10000
		}
		p.i = save
	}
	return v
}

func (p *parser) hex4() (rune, bool) {
	if p.i+4 > len(p.src) {
		return 0, false
	}
	for k := 0; k < 4; k++ {
		if !isHex(p.src[p.i+k]) {
			return 0, false
		}
	}
	v, _ := strconv.ParseUint(p.src[p.i:p.i+4], 16, 32)
	p.i += 4
	return rune(v), true
}

func (p *parser) class() *Node {
	lo := p.i
	p.i++
	neg := false
	if p.peek() == '^' {
		neg = true
		p.i++
	}
	var pieces []piece
	for {
		if !p.more() {
			p.fail(lo, "a class "+clip(p.src[lo:]), "is not closed", `add the closing ], or escape the [ (\[) for a literal bracket`)
		}
		if p.peek() == ']' {
			p.i++
			break
		}
		at := p.i
		a := p.classAtom()
		if p.peek() == '-' && p.i+1 < len(p.src) && p.src[p.i+1] != ']' {
			p.i++
			bAt := p.i
			b := p.classAtom()
			if a.esc != nil || b.esc != nil {
				p.fail(at, "the range "+p.src[at:p.i], "has a class escape at one end, which ECMA-262 rejects with the u flag",
					"escape the hyphen (\\-) or put it last in the class")
			}
			if a.lo > b.lo {
				p.fail(at, "the range "+p.src[at:p.i], "is out of order", "write the lower end first")
			}
			_ = bAt
			pieces = append(pieces, piece{lo: a.lo, hi: b.lo})
			continue
		}
		pieces = append(pieces, a)
	}
	if p.over {
		return p.node(Node{Op: OpChar, Lo: lo, Hi: p.i})
	}
	return p.node(Node{Op: OpChar, re2: classRE2(neg, pieces), Lo: lo, Hi: p.i})
}

// posixClasses are the POSIX bracket classes ([:alpha:] inside a class) and the
// ECMA-262 class contents, ASCII, that spell them.
var posixClasses = map[string]string{
	"alpha": "A-Za-z", "digit": "0-9", "alnum": "A-Za-z0-9", "space": ` \t\n\r\f\v`, "lower": "a-z",
	"upper": "A-Z", "xdigit": "0-9A-Fa-f", "punct": "!-\\/:-@\\[-`{-~", "blank": ` \t`, "cntrl": `\x00-\x1F\x7F`,
	"word": `\w`, "graph": "!-~", "print": " -~",
}

var posixClassRe = regexp.MustCompile(`\[:([a-z]+):\]`)

// posixClass fails on a lone ] at index at when a POSIX bracket class ([:alpha:])
// precedes it: `[[:alpha:]]` is the class `[[:alpha:]` (the characters [, :, a, …)
// and a lone ], and escaping the ] would give a pattern that compiles but means
// something else. The hint spells the pattern with each POSIX class written out.
func (p *parser) posixClass(at int) {
	var last []int
	for _, m := range posixClassRe.FindAllStringSubmatchIndex(p.src[:at], -1) {
		if _, ok := posixClasses[p.src[m[2]:m[3]]]; ok {
			last = m
		}
	}
	if last == nil {
		return
	}
	fixed := posixClassRe.ReplaceAllStringFunc(p.src, func(m string) string {
		if c, ok := posixClasses[m[2:len(m)-2]]; ok {
			return c
		}
		return m
	})
	name := p.src[last[0]:last[1]]
	p.fail(last[0], "the POSIX class "+name, "is not ECMA-262, which has no POSIX classes",
		fmt.Sprintf("write the characters out: %s is %s inside the brackets, so the pattern is %s", name, posixClasses[name[2:len(name)-2]], fixed))
}

// classAtom reads one atom of a class.
func (p *parser) classAtom() piece {
	if p.peek() == '\\' {
		e := p.classEscape(true)
		if r, ok := e.single(); ok {
			return piece{lo: r, hi: r}
		}
		return piece{esc: e}
	}
	r := p.char()
	return piece{lo: r, hi: r}
}

// classRE2 writes a class in RE2, surrogate code points left out.
func classRE2(neg bool, pieces []piece) string {
	var b strings.Builder
	for _, pc := range pieces {
		if pc.esc != nil {
			b.WriteString(pc.esc.inClass())
			continue
		}
		b.WriteString(rangesRE2([]rune{pc.lo, pc.hi}))
	}
	body := b.String()
	// A hyphen first or last is a literal in RE2 too: keep the author's [A-Z0-9-].
	if k := len(body) - 1 - len(strings.TrimRight(body[:max(len(body)-1, 0)], `\`)); strings.HasSuffix(body, `\-`) && k%2 == 1 {
		body = body[:len(body)-2] + "-"
	}
	if strings.HasPrefix(body, `\-`) {
		body = body[1:]
	}
	switch {
	case body == "" && neg: // [^] and a negated class of surrogates only: any character
		return `[\x{0}-\x{10FFFF}]`
	case body == "": // [] and a class of surrogates only: nothing
		return `[^\x{0}-\x{10FFFF}]`
	case neg:
		return "[^" + body + "]"
	}
	return "[" + body + "]"
}

// rangesRE2 spells sorted or unsorted pairs lo, hi inside an RE2 class, leaving out
// surrogate code points.
func rangesRE2(rs []rune) string {
	var b strings.Builder
	for i := 0; i+1 < len(rs); i += 2 {
		lo, hi := rs[i], rs[i+1]
		for _, part := range [][2]rune{{lo, min(hi, 0xD7FF)}, {max(lo, 0xE000), hi}} {
			if part[0] > part[1] {
				continue
			}
			b.WriteString(classChar(part[0]))
			if part[1] > part[0] {
				if part[1] > part[0]+1 {
					b.WriteByte('-')
				}
				b.WriteString(classChar(part[1]))
			}
		}
	}
	return b.String()
}

// complement returns the code points not in rs (sorted pairs).
func complement(rs []rune) []rune {
	var out []rune
	next := rune(0)
	for i := 0; i+1 < len(rs); i += 2 {
		if rs[i] > next {
			out = append(out, next, rs[i]-1)
		}
		next = rs[i+1] + 1
	}
	if next <= unicode.MaxRune {
		out = append(out, next, unicode.MaxRune)
	}
	return out
}

// charNode is a literal character outside a class.
func (p *parser) charNode(r rune, lo, hi int) *Node {
	var s string
	switch {
	case r >= 0xD800 && r <= 0xDFFF:
		s = `[^\x{0}-\x{10FFFF}]`
	case r < utf8.RuneSelf && strings.ContainsRune(syntaxChars, r):
		s = `\` + string(r)
	case r > ' ' && r < 0x7F:
		s = p.src[lo:hi] // the character as written (no allocation)
		if hi-lo != 1 {
			s = string(r)
		}
	case !printable(r):
		s = hexChar(r)
	default:
		s = string(r)
	}
	return p.node(Node{Op: OpChar, re2: s, Lo: lo, Hi: hi})
}

// node allocates a node from the parser's slab: a long pattern makes a node per
// character, and one allocation per 256 keeps parsing a 1 MB pattern cheap.
func (p *parser) node(n Node) *Node {
	if p.size += len(n.re2); p.size > MaxRE2Size && !p.over { // the spelled characters alone; Parse checks the whole translation
		p.over = true
		if p.unsup == nil {
			p.unsup = tooLarge(p.src)
		}
	}
	if len(p.slab) == cap(p.slab) {
		p.slab = make([]Node, 0, 256)
	}
	p.slab = append(p.slab, n)
	return &p.slab[len(p.slab)-1]
}

// classChar spells one code point inside an RE2 class.
func classChar(r rune) string {
	switch {
	case r < utf8.RuneSelf && strings.ContainsRune(`\]-^[`, r):
		return `\` + string(r)
	case !printable(r):
		return hexChar(r)
	}
	return string(r)
}

// hexChar spells a code point that is not written as itself.
func hexChar(r rune) string {
	if i := strings.IndexRune("\t\n\v\f\r", r); i >= 0 && r < ' ' {
		return `\` + string("tnvfr"[i])
	}
	return fmt.Sprintf(`\x{%X}`, r)
}

// printable reports whether r is written as itself: visible, not a space or a mark.
func printable(r rune) bool {
	return r > ' ' && r != 0x7F && unicode.IsGraphic(r) && !unicode.IsSpace(r) && !unicode.Is(unicode.M, r) && r != utf8.RuneError
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// clip shortens construct text for messages.
func clip(s string) string {
	if utf8.RuneCountInString(s) <= 24 {
		return s
	}
	r := []rune(s)
	return string(r[:24]) + "…"
}
