package registry

import (
	"fmt"
	"regexp/syntax"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Pattern portability between RE2 and ECMA-262 (BQ035).
//
// A pattern is matched by Go's regexp (the generated decoder, jsonschema/v6) and by
// ECMA-262 engines with the u flag (ajv and other JavaScript validators). Every
// validator must accept the same messages (docs/decisions.md#agreement-domain), so a pattern may only use syntax
// both engines accept and read the same way. Go is lenient where ECMA-262 with the u
// flag is strict (Go reads a stray `{`, `}` or `]` as a literal, accepts `\#`, octal
// escapes and quantified assertions), and a few constructs both accept mean different
// things:
//
//   - `\s` and `\S`: Go's `\s` is [\t\n\f\r ]; ECMA-262's also holds \v, U+00A0, U+1680,
//     U+2000–U+200A, U+2028, U+2029, U+202F, U+205F, U+3000 and U+FEFF;
//   - `.`: Go's matches everything but \n; ECMA-262's also excludes \r, U+2028, U+2029;
//   - `\p{…}`: each engine matches by its own Unicode version (Go 1.26 uses 15.0, Node
//     20 17.0), so characters assigned in between match in one validator only; script
//     names (`\p{Greek}`) are RE2-only and ECMA-262's `\p{Script=Greek}` is not RE2.
//
// `\d`, `\w`, `\b` and `\B` are ASCII-only in both (no i flag is ever set), and `^`
// and `$` are the start and end of the text in both (Go's `$` does not match before a
// final newline). portableProblem scans a pattern Go has already compiled, following
// the ECMA-262 grammar, and names the first construct that differs.

// patProblem is a construct of a pattern that is not portable.
type patProblem struct {
	construct string // as written in the pattern, or a description of it
	why       string // the rest of the message: which engine rejects or how they differ
	hint      string // the portable spelling
}

const ecmaRejects = "which ECMA-262 does not support"

// differs introduces a construct both engines accept with different meanings.
const differs = "which RE2 (Go) and ECMA-262 read differently: "

// ecmaSpaceRE2 is ECMA-262's \s (WhiteSpace and LineTerminator) in RE2 syntax.
const ecmaSpaceRE2 = `\t\n\x0B\f\r \xA0\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}`

// ecmaNotSpaceRE2 is ECMA-262's \S in RE2 syntax, for use inside a class.
var ecmaNotSpaceRE2 = func() string {
	re, err := syntax.Parse(`[^`+ecmaSpaceRE2+`]`, syntax.Perl)
	if err != nil || re.Op != syntax.OpCharClass {
		panic("registry: bad ecmaSpaceRE2")
	}
	var b strings.Builder
	for i := 0; i+1 < len(re.Rune); i += 2 {
		fmt.Fprintf(&b, `\x{%X}-\x{%X}`, re.Rune[i], re.Rune[i+1])
	}
	return b.String()
}()

var (
	spaceProblem = patProblem{construct: `\s`,
		why:  differs + `Go matches [\t\n\f\r ] only, ECMA-262 also \v, U+00A0, U+2028, U+3000, U+FEFF and other Unicode spaces`,
		hint: `write [ \t\n\r\f] (what Go matches now, the same in both) or the exact class of spaces you accept`}
	notSpaceProblem = patProblem{construct: `\S`,
		why:  differs + `Go matches everything but [\t\n\f\r ], ECMA-262 also excludes \v, U+00A0, U+2028, U+3000, U+FEFF and other Unicode spaces`,
		hint: `write [^ \t\n\r\f] (what Go matches now, the same in both) or the exact class you accept`}
	dotProblem = patProblem{construct: `.`,
		why:  differs + `Go's . matches any character but \n, ECMA-262's also excludes \r, U+2028 and U+2029`,
		hint: `write [^\n] (what Go matches now, the same in both), [^\n\r] to exclude carriage returns too, or [\d\D] for any character`}
)

// portableProblem returns the first construct of p (which Go's regexp accepts) that
// ECMA-262 with the u flag rejects or reads differently, or nil.
func portableProblem(p string) *patProblem {
	atom := false // the previous item can take a quantifier in ECMA-262
	assert := ""  // the previous item, when an assertion (^, $, \b, \B)
	for i := 0; i < len(p); {
		c := p[i]
		switch c {
		case '\\':
			if i+1 >= len(p) {
				return nil // Go rejects a trailing backslash
			}
			n := p[i+1]
			if n == 'b' || n == 'B' {
				atom, assert = false, p[i:i+2]
				i += 2
				continue
			}
			next, _, pr := escape(p, i, false)
			if pr != nil {
				return pr
			}
			i = next
		case '[':
			next, pr := class(p, i)
			if pr != nil {
				return pr
			}
			i = next
		case '(':
			next, pr := group(p, i)
			if pr != nil {
				return pr
			}
			i = next
			atom, assert = false, ""
			continue
		case '|':
			i++
			atom, assert = false, ""
			continue
		case '^', '$':
			atom, assert = false, p[i:i+1]
			i++
			continue
		case '.':
			pr := dotProblem
			return &pr
		case '*', '+', '?', '{':
			n := 1
			if c == '{' {
				if n = goRepeat(p[i:]); n == 0 {
					return braceProblem(p[i:])
				}
			}
			if !atom && assert != "" {
				q := p[i : i+n]
				return &patProblem{construct: "a quantifier on an assertion " + assert + q, why: ecmaRejects,
					hint: fmt.Sprintf("drop the quantifier: %s matches no characters, so %s%s is %s", assert, assert, q, quantifiedAssertion(assert, q))}
			}
			i += n
			if i < len(p) && p[i] == '?' {
				i++
			}
			atom, assert = false, ""
			continue
		case '}', ']':
			return &patProblem{construct: "a lone " + string(c),
				why:  "which RE2 (Go) reads as a literal character but ECMA-262 rejects",
				hint: `escape it: \` + string(c)}
		default:
			_, size := utf8.DecodeRuneInString(p[i:])
			i += size
		}
		atom, assert = true, ""
	}
	return nil
}

// quantifiedAssertion says what an assertion under a quantifier matches.
func quantifiedAssertion(assert, q string) string {
	if q == "+" || (len(q) > 1 && q[1] != '0') {
		return "the same as " + assert
	}
	return "the same as nothing"
}

// goRepeat returns the length of the repetition {n}, {n,} or {n,m} that Go's parser
// reads at the start of s (decimal counts without leading zeros), or 0 when Go reads
// the brace as a literal.
func goRepeat(s string) int {
	i := 1
	num := func() bool {
		st := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i > st && (i-st == 1 || s[st] != '0')
	}
	if !num() {
		return 0
	}
	if i < len(s) && s[i] == ',' {
		i++
		if i < len(s) && s[i] != '}' && !num() {
			return 0
		}
	}
	if i >= len(s) || s[i] != '}' {
		return 0
	}
	return i + 1
}

// braceProblem reports a { that Go reads as a literal character.
func braceProblem(s string) *patProblem {
	t := s[:1]
	if k := strings.IndexByte(s, '}'); k > 0 && strings.Trim(s[1:k], "0123456789,") == "" {
		t = s[:k+1]
	}
	return &patProblem{construct: t,
		why:  "which RE2 (Go) reads as literal text but ECMA-262 rejects or reads as a repetition",
		hint: `escape the brace (\{) for literal text, or write the repetition as {n}, {n,} or {n,m} without leading zeros`}
}

// group checks a group opening at p[i] == '(' and returns the index after its
// opening.
func group(p string, i int) (int, *patProblem) {
	if i+1 >= len(p) || p[i+1] != '?' {
		return i + 1, nil
	}
	rest := p[i+2:]
	switch {
	case strings.HasPrefix(rest, ":"):
		return i + 3, nil
	case strings.HasPrefix(rest, "P<"):
		return 0, &patProblem{construct: "a (?P<name>…) group", why: ecmaRejects,
			hint: "write (?<name>…), or (?:…) as nothing reads the name"}
	case strings.HasPrefix(rest, "<"):
		end := strings.IndexByte(rest, '>')
		if end < 0 {
			return len(p), nil // Go rejects it
		}
		name := rest[1:end]
		if name != "" && name[0] >= '0' && name[0] <= '9' {
			return 0, &patProblem{construct: "a group name starting with a digit (?<" + name + ">…)", why: ecmaRejects,
				hint: "start the name with a letter or _, or write (?:…) as nothing reads the name"}
		}
		return i + 2 + end + 1, nil
	}
	flags := "(?" + rest + ")"
	if k := strings.IndexAny(rest, ":)"); k >= 0 && rest[k] == ')' {
		flags = "(?" + rest[:k] + ")"
	} else if k >= 0 {
		flags = "(?" + rest[:k] + ":…)"
	}
	return 0, &patProblem{construct: "inline flags " + flags, why: ecmaRejects,
		hint: "drop the flags: spell both cases in a class ([Aa]) for i and write [\\d\\D] for a . that matches newlines (s); m and U have no spelling that works in both"}
}

// class checks the class opening at p[i] == '[' and returns the index after it.
func class(p string, i int) (int, *patProblem) {
	j := i + 1
	if j < len(p) && p[j] == '^' {
		j++
	}
	if j < len(p) && p[j] == ']' {
		return 0, &patProblem{construct: "a ] first in a class (" + p[i:j+1] + "…)",
			why:  "which RE2 (Go) reads as a literal ] but ECMA-262 as the end of an empty class",
			hint: `escape it: \]`}
	}
	var spaces [][2]int // the \s and \S escapes of the class
	for j < len(p) && p[j] != ']' {
		if p[j] == '[' && j+1 < len(p) && p[j+1] == ':' {
			if k := strings.Index(p[j+2:], ":]"); k >= 0 {
				name := p[j : j+2+k+2]
				return 0, &patProblem{construct: "a POSIX class " + name, why: ecmaRejects, hint: posixHint(name)}
			}
		}
		start := j
		next, isClass, pr := escapeOrChar(p, j)
		if pr != nil {
			return 0, pr
		}
		if isClass && (p[j+1] == 's' || p[j+1] == 'S') {
			spaces = append(spaces, [2]int{j, next})
		}
		j = next
		if j+1 < len(p) && p[j] == '-' && p[j+1] != ']' {
			if isClass {
				return 0, &patProblem{construct: "a range starting at the class escape " + p[start:j] + " (" + p[start:j+2] + "…)",
					why:  "which RE2 (Go) reads as the class and a literal - but ECMA-262 rejects",
					hint: `escape the hyphen (` + p[start:j] + `\-) or put it last in the class`}
			}
			if j, _, pr = escapeOrChar(p, j+1); pr != nil {
				return 0, pr
			}
		}
	}
	if j >= len(p) {
		return len(p), nil // Go rejects an unclosed class
	}
	end := j + 1
	if len(spaces) > 0 {
		var b strings.Builder
		last := i
		for _, s := range spaces {
			b.WriteString(p[last:s[0]])
			if p[s[0]+1] == 's' {
				b.WriteString(ecmaSpaceRE2)
			} else {
				b.WriteString(ecmaNotSpaceRE2)
			}
			last = s[1]
		}
		b.WriteString(p[last:end])
		goRe, err1 := syntax.Parse(p[i:end], syntax.Perl)
		ecRe, err2 := syntax.Parse(b.String(), syntax.Perl)
		if err1 != nil || err2 != nil || !goRe.Equal(ecRe) {
			pr := spaceProblem
			if p[spaces[0][0]+1] == 'S' {
				pr = notSpaceProblem
			}
			pr.construct += " in the class " + p[i:end]
			pr.hint = `spell the spaces in the class: \t\n\r\f and a space are what Go's \s matches now, the same in both`
			return 0, &pr
		}
	}
	return end, nil
}

// escapeOrChar reads one class atom at p[j] and reports whether it is a class escape
// (\d, \s, \p{…}…).
func escapeOrChar(p string, j int) (next int, isClass bool, pr *patProblem) {
	if p[j] == '\\' {
		return escape(p, j, true)
	}
	_, size := utf8.DecodeRuneInString(p[j:])
	return j + size, false, nil
}

// escape checks the escape at p[i] == '\\' (not \b or \B outside a class) and returns
// the index after it and whether it is a class escape.
func escape(p string, i int, inClass bool) (int, bool, *patProblem) {
	if i+1 >= len(p) {
		return len(p), false, nil
	}
	n := p[i+1]
	switch {
	case n == 's' && !inClass:
		pr := spaceProblem
		return 0, false, &pr
	case n == 'S' && !inClass:
		pr := notSpaceProblem
		return 0, false, &pr
	case strings.IndexByte("dDwWsS", n) >= 0:
		return i + 2, true, nil
	case strings.IndexByte("fnrtv", n) >= 0:
		return i + 2, false, nil
	case n >= '0' && n <= '7':
		// Go reads \0 and \1–\7 followed by octal digits as octal (up to three digits);
		// ECMA-262 only has \0 not followed by a digit.
		j := i + 2
		for j < len(p) && j < i+4 && p[j] >= '0' && p[j] <= '7' {
			j++
		}
		if n == '0' && j == i+2 && (j >= len(p) || p[j] < '0' || p[j] > '9') {
			return j, false, nil
		}
		v, _ := strconv.ParseUint(p[i+1:j], 8, 32)
		return 0, false, &patProblem{construct: "the octal escape " + p[i:j], why: ecmaRejects,
			hint: fmt.Sprintf(`write \x%02X (both read \xHH)`, v)}
	case n == 'x':
		if i+2 < len(p) && p[i+2] == '{' {
			end := strings.IndexByte(p[i:], '}')
			if end < 0 {
				return len(p), false, nil
			}
			lit := p[i : i+end+1]
			v, _ := strconv.ParseUint(p[i+3:i+end], 16, 32)
			return 0, false, &patProblem{construct: lit, why: ecmaRejects, hint: hexHint(rune(v))}
		}
		return i + 4, false, nil
	case n == 'p' || n == 'P':
		return propertyEscape(p, i)
	case n == 'A':
		return 0, false, &patProblem{construct: `\A`, why: ecmaRejects, hint: `write ^ (the start of the text in both)`}
	case n == 'z':
		return 0, false, &patProblem{construct: `\z`, why: ecmaRejects, hint: `write $ (the end of the text in both: neither matches before a final newline)`}
	case n == 'Q' || n == 'E':
		return 0, false, &patProblem{construct: `\Q…\E`, why: ecmaRejects, hint: `escape each special character with \ instead`}
	case n == 'a':
		return 0, false, &patProblem{construct: `\a`, why: ecmaRejects, hint: `write \x07`}
	case n < utf8.RuneSelf && !isAlnum(n):
		ok := `^$\.*+?()[]{}|/`
		if inClass {
			ok += "-"
		}
		if strings.IndexByte(ok, n) >= 0 {
			return i + 2, false, nil
		}
		lit := string(n)
		if n == ' ' {
			lit = "a space"
		}
		return 0, false, &patProblem{construct: "the escape " + p[i:i+2], why: ecmaRejects + " with the u flag",
			hint: "write " + lit + " without the backslash: it is not special in either"}
	}
	return 0, false, &patProblem{construct: "the escape " + p[i:i+2], why: ecmaRejects}
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// hexHint spells the code point r in a way both engines read.
func hexHint(r rune) string {
	switch {
	case r <= 0xFF:
		return fmt.Sprintf(`write \x%02X (both read \xHH)`, r)
	case unicode.IsGraphic(r) && !unicode.IsSpace(r):
		return fmt.Sprintf("write the character itself (%c): \\u and \\x{…} each work in one engine only", r)
	}
	return fmt.Sprintf("write the character %U itself: \\u and \\x{…} each work in one engine only", r)
}

// propertyEscape checks \p or \P at p[i]. Only \p{Any} and \P{Any} mean the same in
// both: general categories follow each engine's Unicode version, RE2 spells scripts
// \p{Greek} and ECMA-262 \p{Script=Greek}, and \pL and \p{^L} are RE2-only.
func propertyEscape(p string, i int) (int, bool, *patProblem) {
	lit, name := p[i:min(i+3, len(p))], ""
	if i+2 < len(p) && p[i+2] == '{' {
		end := strings.IndexByte(p[i:], '}')
		if end < 0 {
			return len(p), true, nil
		}
		lit, name = p[i:i+end+1], p[i+3:i+end]
	} else if i+2 < len(p) {
		name = p[i+2 : i+3]
	}
	if name == "Any" && strings.HasSuffix(lit, "}") {
		return i + len(lit), true, nil
	}
	if _, script := unicode.Scripts[strings.TrimPrefix(name, "^")]; script {
		return 0, false, &patProblem{construct: lit,
			why:  "a script name that ECMA-262 rejects (it spells it \\p{Script=" + strings.TrimPrefix(name, "^") + "}, which RE2 (Go) rejects in turn)",
			hint: "list the characters you accept as ranges of literal characters (for example [α-ωΑ-Ω] for basic Greek letters)"}
	}
	return 0, false, &patProblem{construct: lit,
		why:  differs + "each engine matches by its own Unicode version (Go's regexp and V8 ship different ones), so characters assigned in between pass one validator and fail another",
		hint: "list the ranges you accept as \\xHH or literal characters (Latin letters: [A-Za-z\\xC0-\\xD6\\xD8-\\xF6\\xF8-\\xFF]); only \\p{Any} is portable"}
}

// posixHint gives the portable spelling of a POSIX class.
func posixHint(name string) string {
	neg := strings.HasPrefix(name, "[:^")
	n := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(name, "[:"), "^"), ":]")
	ascii := map[string]string{
		"alnum": "0-9A-Za-z", "alpha": "A-Za-z", "ascii": `\x00-\x7F`, "blank": `\t `,
		"cntrl": `\x00-\x1F\x7F`, "digit": "0-9", "graph": `!-~`, "lower": "a-z",
		"print": ` -~`, "punct": `!-/:-@\[-` + "`{-~", "space": `\t\n\x0B\f\r `, "upper": "A-Z",
		"word": "0-9A-Za-z_", "xdigit": "0-9A-Fa-f",
	}[n]
	if ascii == "" {
		return "spell the class as ranges"
	}
	if neg {
		return "spell it as ranges: [^" + ascii + "] (alone in its class)"
	}
	return "spell it as ranges inside the class: " + ascii
}
