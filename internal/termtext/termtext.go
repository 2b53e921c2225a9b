// Package termtext makes text that came from input safe to print on a terminal line:
// a file name or an error message holding a newline, ESC (terminal escape and OSC
// sequences), other C0 and C1 controls, bidirectional overrides or invalid UTF-8 can
// neither start a forged line nor drive the terminal (issue 16, item 9;
// docs/security.md). The JSON output format takes names unchanged (JSON escapes
// controls); the GitHub format percent-encodes them (internal/cli ghData, ghProp).
package termtext

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Plain reports whether s prints as itself: valid UTF-8 made only of characters
// unicode.IsGraphic accepts (letters, marks, digits, punctuation, symbols and spaces; no
// controls, no format characters such as U+202E, no line or paragraph separators).
func Plain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return plainSlow(s)
		}
	}
	return true
}

func plainSlow(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if !unicode.IsGraphic(r) {
			return false
		}
	}
	return true
}

// Name returns a file name as text output prints it: unchanged when it is Plain,
// otherwise as a Go string literal ("a\nb.yaml", "\x1b]0;x\a.yaml", "\u202e.yaml"), so
// that the quotes show where the name starts and ends.
func Name(name string) string {
	if Plain(name) {
		return name
	}
	return strconv.Quote(name)
}

// Line returns s with every character that is not Plain (except the tab) replaced by
// its Go escape (\n, \x1b, \u202e; an invalid byte as \xff), so that s stays on one
// line and sends no control sequence. Plain text is returned unchanged.
func Line(s string) string {
	if Plain(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			b.WriteString(`\x`)
			b.WriteString(strconv.FormatUint(uint64(s[i]), 16))
		case r == '\t' || unicode.IsGraphic(r):
			b.WriteString(s[i : i+n])
		default:
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		}
		i += n
	}
	return b.String()
}
