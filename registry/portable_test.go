package registry

import (
	"regexp"
	"strings"
	"testing"
)

// Each case was checked against Go's regexp and Node 20 (new RegExp(p, "u"), as ajv
// compiles patterns): the flagged ones either do not compile in ECMA-262 or match some
// string differently.
func TestPortableProblem(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ p, want string }{
		// RE2-only syntax: ajv cannot compile these.
		{`^\x{E9}$`, `\x{E9}`},
		{`^\x{1F600}$`, `\x{1F600}`},
		{`^\p{Greek}$`, `\p{Greek}`},
		{`^[\p{Latin}0-9]$`, `\p{Latin}`},
		{`^\pL$`, `\pL`},
		{`^\p{^L}$`, `\p{^L}`},
		{`a\z`, `\z`},
		{`\Aa`, `\A`},
		{`(?i)a`, `inline flags (?i)`},
		{`(?i:a)b`, `inline flags (?i:…)`},
		{`(?s).`, `inline flags (?s)`},
		{`(?U)a+`, `inline flags (?U)`},
		{`(?P<n>a)`, `(?P<name>…)`},
		{`(?<1a>a)`, `group name starting with a digit`},
		{`[[:alpha:]]`, `POSIX class [:alpha:]`},
		{`[^[:^space:]x]`, `POSIX class [:^space:]`},
		{`\Qa.b\E`, `\Q…\E`},
		{`^\a$`, `\a`},
		{`^\101$`, `octal escape \101`},
		{`^\01$`, `octal escape \01`},
		{`^\08$`, `octal escape \0`},
		{`^\#$`, `escape \#`},
		{`^\ $`, `escape \ `},
		{`^\-$`, `escape \-`},
		{`^[\&]$`, `escape \&`},
		{`^[\d-z]$`, `class escape \d`},
		{`^[\w-.]$`, `class escape \w`},
		{`^[\s-a]$`, `class escape \s`},
		{`^[]a]$`, `] first in a class`},
		{`^[^]a]$`, `] first in a class`},
		{`^a]$`, `lone ]`},
		{`^a}$`, `lone }`},
		{`^{$`, `{`},
		{`^a{$`, `{`},
		{`^a{,3}$`, `{,3}`},
		{`^a{ 1}$`, `{`},
		{`^a{01}$`, `{01}`},
		{`^a{1,02}$`, `{1,02}`},
		{`^*a`, `assertion ^*`},
		{`a$?`, `assertion $?`},
		{`\b+a`, `assertion \b+`},
		{`a\B{2}`, `assertion \B{2}`},
		// Accepted by both, read differently.
		{`^\s$`, `\s`},
		{`^\S+$`, `\S`},
		{`^[\s]$`, `\s in the class [\s]`},
		{`^[^\s]$`, `\s in the class [^\s]`},
		{`^[\s\d]$`, `\s in the class`},
		{`^[a\S]$`, `\S in the class`},
		{`^.+@.+$`, `.`},
		{`(a|.)`, `.`},
		{`^\p{L}+$`, `\p{L}`},
		{`^\p{Lu}$`, `\p{Lu}`},
		{`^\P{N}$`, `\P{N}`},
		{`^\p{C}$`, `\p{C}`},
		// Portable: the same syntax and meaning in both.
		{`^[A-Z][A-Z0-9-]*$`, ``},
		{`^[^\n]+@[^\n]+$`, ``},
		{`^[^\n\r]$`, ``},
		{`^[\d\D]$`, ``},
		{`^[\s\S]$`, ``},
		{`^[\S\s\d]$`, ``},
		{`^[ \t\n\r\f]$`, ``},
		{`^[^ \t\n\r\f]+$`, ``},
		{`^\xE9$`, ``},
		{`^é😀$`, ``},
		{`^[α-ω]+$`, ``},
		{`^[A-Za-z\xC0-\xD6\xD8-\xF6\xF8-\xFF]+$`, ``},
		{`^\p{Any}$`, ``},
		{`^[\P{Any}a]$`, ``},
		{`^\w+\b\d*\B$`, ``},
		{`^a$`, ``},
		{`^\t\n\r\f\v\0$`, ``},
		{`^[\w-]$`, ``},
		{`^[-\w]$`, ``},
		{`^[a-z-0]$`, ``},
		{`^[\-\]\[\^\\/]$`, ``},
		{`^\.\*\+\?\(\)\[\]\{\}\|\/\^\$\\$`, ``},
		{`^(?:a|b)(?<cc>[A-Z]{2})$`, ``},
		{`^a{2}b{1,}c{0,3}?d*?e+?f??$`, ``},
		{`^[[]$`, ``},
		{`^[[:a]$`, ``},
		{`^[&&--]$`, ``},
		{`^#&:,'"<>=!@~%` + "`" + `$`, ``},
	} {
		if _, err := regexp.Compile(c.p); err != nil {
			t.Errorf("%q: not RE2: %v", c.p, err)
			continue
		}
		pr := portableProblem(c.p)
		switch {
		case c.want == "" && pr != nil:
			t.Errorf("%q: flagged %s, %s; want portable", c.p, pr.construct, pr.why)
		case c.want != "" && pr == nil:
			t.Errorf("%q: portable; want %q flagged", c.p, c.want)
		case c.want != "" && !strings.Contains(pr.construct, c.want):
			t.Errorf("%q: flagged %q; want %q", c.p, pr.construct, c.want)
		case pr != nil && (pr.why == "" || pr.hint == ""):
			t.Errorf("%q: no reason or hint: %+v", c.p, pr)
		}
	}
}

// The spellings the hints suggest are themselves portable.
func TestPortableHints(t *testing.T) {
	t.Parallel()
	for _, p := range []string{`^\a$`, `^\p{L}$`, `^\p{Greek}$`, `^\101$`, `(?i)a`, `^[[:punct:]]$`,
		`^[[:space:]]$`, `^[[:^alpha:]]$`, `^\x{7}$`, `^\x{E9}$`} {
		pr := portableProblem(p)
		if pr == nil {
			t.Fatalf("%q: not flagged", p)
		}
		for _, h := range []string{pr.hint} {
			for _, frag := range regexp.MustCompile(`\[[^\]]*(?:\\\][^\]]*)*\]|\\x[0-9A-F]{2}`).FindAllString(h, -1) {
				if _, err := regexp.Compile(frag); err != nil {
					continue // prose in brackets
				}
				if q := portableProblem(frag); q != nil {
					t.Errorf("%q: hint %q suggests %q, which is not portable: %s", p, h, frag, q.construct)
				}
			}
		}
	}
	for name, want := range map[string]string{
		"[:punct:]": "!-/:-@\\[-`{-~", "[:space:]": `\t\n\x0B\f\r `, "[:^alpha:]": "[^A-Za-z]",
	} {
		if h := posixHint(name); !strings.Contains(h, want) {
			t.Errorf("posixHint(%s) = %q, want %q in it", name, h, want)
		}
		// The spelling means what Go's POSIX class means.
		spelled := want
		if !strings.HasPrefix(spelled, "[") {
			spelled = "[" + spelled + "]"
		}
		goRe, ourRe := regexp.MustCompile(`^[`+name+`]$`), regexp.MustCompile(`^`+spelled+`$`)
		for r := rune(0); r < 0x3000; r++ {
			if s := string(r); goRe.MatchString(s) != ourRe.MatchString(s) {
				t.Errorf("%s and %s differ on %U", name, spelled, r)
				break
			}
		}
	}
}

// ecmaNotSpaceRE2 is the complement of ecmaSpaceRE2.
func TestECMASpaceSets(t *testing.T) {
	t.Parallel()
	sp := regexp.MustCompile(`^[` + ecmaSpaceRE2 + `]$`)
	nsp := regexp.MustCompile(`^[` + ecmaNotSpaceRE2 + `]$`)
	for _, r := range []rune{'\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0x1680, 0x2000, 0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF} {
		if !sp.MatchString(string(r)) || nsp.MatchString(string(r)) {
			t.Errorf("%U: want in ECMA-262's \\s only", r)
		}
	}
	for r := rune(0); r < 0x10000; r++ {
		if r >= 0xD800 && r <= 0xDFFF {
			continue
		}
		if s := string(r); sp.MatchString(s) == nsp.MatchString(s) {
			t.Errorf("%U: in both or neither of \\s and \\S", r)
			break
		}
	}
}
