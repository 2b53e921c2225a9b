package ecmare

import (
	"errors"
	"strconv"
	"testing"
)

func TestTranslate(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{`^.+$`, `^[^\n\r\x{2028}\x{2029}]+$`},
		{`^.{1,50}$`, `^[^\n\r\x{2028}\x{2029}]{1,50}$`},
		{`^\s*$`, `^[\t-\r\x{20}\x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}]*$`},
		{`^\S+$`, `^[^\t-\r\x{20}\x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}]+$`},
		{`[\s,]`, `[\t-\r\x{20}\x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF},]`},
		{`^\d\D\w\W\b\B$`, `^\d\D\w\W\b\B$`},
		{`^(a|b)(?:c)(?<n>d)$`, `^(a|b)(?:c)(d)$`},
		{`a*?b+?c??d{2}e{2,}f{2,3}g{02,003}?`, `a*?b+?c??d{2}e{2,}f{2,3}g{2,3}?`},
		{`\u00e9\u{1F600}\uD83D\uDE00\x41\0\cJ\t\n\v\f\r`, `é😀😀A\x{0}\n\t\n\v\f\r`},
		{`\^\$\\\.\*\+\?\(\)\[\]\{\}\|\/`, `\^\$\\\.\*\+\?\(\)\[\]\{\}\|/`},
		{`[\]\-\\^[a-]`, `[\]\-\\\^\[a-]`},
		{`[-a\\-]`, `[-a\\-]`},
		{`[^\b]`, `[^\x{8}]`},
		{`[]`, `[^\x{0}-\x{10FFFF}]`},
		{`[^]`, `[\x{0}-\x{10FFFF}]`},
		{`\uD800[\uD800-\uDFFFa]`, `[^\x{0}-\x{10FFFF}][a]`},
		{`^\p{Lu}\P{L}\p{gc=Nd}\p{Letter}\p{Script=Greek}\p{sc=Latn}$`, `^\p{Lu}\P{L}\p{Nd}\p{L}\p{Greek}\p{Latin}$`},
		{`\p{ASCII}\P{Any}`, `[\x{0}-\x{7F}][^\x{0}-\x{D7FF}\x{E000}-\x{10FFFF}]`},
		{`a|`, `a|`},
		{`()`, `()`},
		{`^a$|^b$`, `^a$|^b$`},
		{`Σ é`, `Σ\x{20}é`},
	} {
		got, err := Translate(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("Translate(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestTranslateErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in     string
		kind   error
		offset int
		msg    string
	}{
		{`^(?=[A-Z])x`, ErrUnsupported, 1, `a lookahead (?=…) at character 2, which RE2 (Go's regexp) cannot express`},
		{`(?!a)`, ErrUnsupported, 0, `a negative lookahead (?!…) at character 1, which RE2 (Go's regexp) cannot express`},
		{`é(?<=a)`, ErrUnsupported, 2, `a lookbehind (?<=…) at character 2, which RE2 (Go's regexp) cannot express`},
		{`(?<!a)b`, ErrUnsupported, 0, `a negative lookbehind (?<!…) at character 1, which RE2 (Go's regexp) cannot express`},
		{`(a)\1`, ErrUnsupported, 3, `the backreference \1 at character 4, which RE2 (Go's regexp) cannot express`},
		{`(?<y>a)\k<y>`, ErrUnsupported, 7, `the named backreference \k<y> at character 8, which RE2 (Go's regexp) cannot express`},
		{`a{1001}`, ErrUnsupported, 1, `the count {1001} at character 2, which is above 1000, the largest count RE2 (Go's regexp) accepts`},
		{`(?:a{100}){100}`, ErrUnsupported, 0, "the pattern at character 1 is beyond what RE2 (Go's regexp) accepts once translated: invalid repeat count: `{100}`"},
		{`\2(a)`, ErrSyntax, 0, `\2 at character 1 refers to a group the pattern does not have (with the u flag it is not an octal escape)`},
		{`(?i)a`, ErrSyntax, 0, `the group syntax (?i) at character 1 is not ECMA-262 (Node 20 has no inline flags or modifiers)`},
		{`(?P<x>a)`, ErrSyntax, 0, `the group syntax (?P< at character 1 is RE2's spelling of a named group, which ECMA-262 writes (?<name>…)`},
		{`\A\z`, ErrSyntax, 0, `the escape \A at character 1 is not an escape ECMA-262 knows with the u flag`},
		{`x\x{E9}`, ErrSyntax, 1, `\x{E at character 2 is not a valid escape (\x takes exactly two hex digits)`},
		{`a{,3}`, ErrSyntax, 1, `a lone { at character 2`},
		{`a}`, ErrSyntax, 1, `a lone } at character 2`},
		{`[]a]`, ErrSyntax, 3, `a lone ] at character 4`},
		{`\#`, ErrSyntax, 0, `the escape \# at character 1 is not an escape ECMA-262 knows with the u flag`},
		{`\101`, ErrSyntax, 0, `\101 at character 1 refers to a group the pattern does not have (with the u flag it is not an octal escape)`},
		{`[\w-.]`, ErrSyntax, 1, `the range \w-. at character 2 has a class escape at one end, which ECMA-262 rejects with the u flag`},
		{`^a$?`, ErrSyntax, 3, `a quantifier on an assertion $? at character 4`},
		{`[[:alpha:]]`, ErrSyntax, 1, `the POSIX class [:alpha:] at character 2 is not ECMA-262, which has no POSIX classes`},
		{`[z-a]`, ErrSyntax, 1, `the range z-a at character 2 is out of order`},
		{`a**`, ErrSyntax, 2, `the quantifier * at character 3 follows another quantifier`},
		{`*a`, ErrSyntax, 0, `the quantifier * at character 1 has nothing to repeat`},
		{`(a`, ErrSyntax, 0, `a group (a at character 1 is not closed`},
		{`a)`, ErrSyntax, 1, `an unmatched ) at character 2`},
		{`[a`, ErrSyntax, 0, `a class [a at character 1 is not closed`},
		{`a\`, ErrSyntax, 1, `a \ at the end of the pattern at character 2`},
		{`\-`, ErrSyntax, 0, `the escape \- at character 1 is not an escape ECMA-262 knows with the u flag`},
		{`(?<a>x)(?<a>y)`, ErrSyntax, 7, `a second group named a at character 8`},
		{`(?=a` + `\`, ErrSyntax, 4, `a \ at the end of the pattern at character 5`},
	} {
		_, err := Translate(tc.in)
		var e *Error
		if !errors.As(err, &e) || !errors.Is(err, tc.kind) || e.Offset != tc.offset || e.Message() != tc.msg || e.Hint == "" {
			t.Errorf("Translate(%q) = %v (%#v); want %v at %d: %s", tc.in, err, e, tc.kind, tc.offset, tc.msg)
		}
	}
}

// dialectRows are the strings where RE2's and ECMA-262's readings of the same pattern
// differ, with the verdict ECMA-262 gives (and the translation must give).
var dialectRows = []struct {
	pattern string
	str     string
	match   bool
}{
	{`^.+$`, "a\rb", false},
	{`^.+$`, "a\u2028b", false},
	{`^.+$`, "a\u2029b", false},
	{`^.+$`, "a\u00A0b", true},
	{`^.+$`, "😀", true},
	{`^.$`, "😀", true},
	{`^.{2}$`, "😀", false},
	{`^\S+$`, "a\u00A0b", false},
	{`^\S+$`, "a\uFEFFb", false},
	{`^\S+$`, "a\u3000b", false},
	{`^\S+$`, "a\vb", false},
	{`^\S+$`, "a\u200Bb", true},
	{`^\S+$`, "a\u0085b", true},
	{`^\s$`, "\u2028", true},
	{`^[^\s@]+@[^\s@]+$`, "a\u00A0b@c", false},
	{`^[^\s@]+@[^\s@]+$`, "a@b\u3000", false},
	{`^[^\s@]+@[^\s@]+$`, "ü@😀", true},
	{`^\p{Lu}`, "Émile", true},
	{`^\p{Lu}`, "émile", false},
	{`^\p{Lu}`, "𝐀", true},
	{`^a|b$`, "ab", true},
	{`^a|b$`, "xb\n", false},
	{`^(a|b)$`, "ab", false},
	{`^a$`, "a\n", false},
	{`\u{1F600}`, "x😀", true},
	{`^[\u{1F600}-\u{1F64F}]$`, "🙏", true},
	{`^\w+$`, "é", false},
	{`\bé`, "é", false},
}

func TestDialectRows(t *testing.T) {
	t.Parallel()
	for _, row := range dialectRows {
		re, err := Compile(row.pattern)
		if err != nil {
			t.Fatalf("Compile(%q): %v", row.pattern, err)
		}
		if got := re.MatchString(row.str); got != row.match {
			t.Errorf("%q on %+q = %v, want %v (RE2 %s)", row.pattern, row.str, got, row.match, re)
		}
	}
}

func TestDialectRowsAgainstNode(t *testing.T) {
	if testing.Short() {
		t.Skip("needs node")
	}
	t.Parallel()
	eng := ecmaEngine(t)
	for _, row := range dialectRows {
		got, err := eng.match(t, row.pattern, []string{row.str})
		if err != "" || got[0] != row.match {
			t.Errorf("node: %q on %+q = %v (%s), the table says %v", row.pattern, row.str, got, err, row.match)
		}
	}
}

func TestRegexpPrintsSource(t *testing.T) {
	t.Parallel()
	re, err := CompileRegexp(`^.+$`)
	if err != nil || re.String() != `^.+$` || re.MatchString("a\rb") || !re.MatchString("ab") {
		t.Fatalf("CompileRegexp: %v %v", re, err)
	}
	if _, err := CompileRegexp(`(?=a)`); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("CompileRegexp((?=a)) = %v", err)
	}
}

// TestPOSIXClassHint: a POSIX bracket class inside a class ([[:digit:]]) is named as
// such, at its own position, and the hint spells the pattern with ECMA-262 classes, a
// pattern Translate accepts (escaping the lone ] instead would compile and mean
// something else).
func TestPOSIXClassHint(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in      string
		offset  int
		name    string
		spelled string
		fixed   string
	}{
		{`[[:alpha:]]`, 1, `[:alpha:]`, `A-Za-z`, `[A-Za-z]`},
		{`^[[:digit:]]+$`, 2, `[:digit:]`, `0-9`, `^[0-9]+$`},
		{`[[:alnum:]_]`, 1, `[:alnum:]`, `A-Za-z0-9`, `[A-Za-z0-9_]`},
		{`^[^[:space:]]+$`, 3, `[:space:]`, ` \t\n\r\f\v`, `^[^ \t\n\r\f\v]+$`},
		{`[[:lower:]][[:upper:]]`, 1, `[:lower:]`, `a-z`, `[a-z][A-Z]`},
		{`[[:xdigit:]]{2}`, 1, `[:xdigit:]`, `0-9A-Fa-f`, `[0-9A-Fa-f]{2}`},
		{`[[:punct:]]`, 1, `[:punct:]`, "!-\\/:-@\\[-`{-~", "[!-\\/:-@\\[-`{-~]"},
		{`[[:alpha:][:digit:]]`, 10, `[:digit:]`, `0-9`, `[A-Za-z0-9]`},
	} {
		_, err := Translate(tc.in)
		var e *Error
		want := "write the characters out: " + tc.name + " is " + tc.spelled + " inside the brackets, so the pattern is " + tc.fixed
		if !errors.As(err, &e) || !errors.Is(err, ErrSyntax) || e.Offset != tc.offset ||
			e.Message() != "the POSIX class "+tc.name+" at character "+strconv.Itoa(tc.offset+1)+" is not ECMA-262, which has no POSIX classes" || e.Hint != want {
			t.Errorf("Translate(%q) = %v | %#v\nwant at %d: %s", tc.in, err, e, tc.offset, want)
		}
		if _, err := Translate(tc.fixed); err != nil {
			t.Errorf("the proposed %q does not translate: %v", tc.fixed, err)
		}
	}
}
