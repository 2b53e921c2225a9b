// Package mdtext escapes text for Markdown (CommonMark and GitHub Flavored Markdown).
// It is the one place that does: `bqgen diff --format markdown` and `bqgen docs` both
// put registry text (summaries, descriptions, owners, enum values…) into Markdown, and
// that text must come out as the same characters, never as a heading, list, link,
// image, emphasis, table cell, code block or HTML.
//
//   - Escape: prose on one line (line breaks become spaces).
//   - Cell: prose in a table cell (line breaks become <br>).
//   - Block: prose of several paragraphs (blank lines separate paragraphs, other line
//     breaks are kept as soft breaks).
//   - Code, CellCode: an inline code span (outside / inside a table).
//
// Code spans the text itself contains (`…`, closed as CommonMark closes them) are kept
// verbatim, since their content is literal.
package mdtext

import "strings"

// special are the characters escaped anywhere outside code spans: HTML (<, >, &),
// links and images ([, ], !), emphasis and strikethrough (*, _, ~), table cells (|),
// headings (#) and the escape character itself. Line-start markers and GFM autolinks
// are handled separately (see escape).
const special = "\\<>&[]*_~|!#@"

// Escape escapes prose s for Markdown, so that no HTML, heading, list, link, image,
// autolink, emphasis, table cell, code block or line break can come out of it. Line
// breaks become spaces. Callers trim s if it may start with indentation.
func Escape(s string) string { return escape(oneLine(s), false) }

// Cell is Escape for a table cell: s is trimmed, line breaks become <br>, and `|` is
// also escaped inside code spans (GitHub splits cells before it reads code spans, and
// reads `\|` there as `|`).
func Cell(s string) string {
	lines := strings.Split(normalize(strings.TrimSpace(s)), "\n")
	for i, l := range lines {
		lines[i] = escape(l, true)
	}
	return strings.Join(lines, "<br>")
}

// Block escapes prose of several paragraphs. Each line is trimmed and escaped as by
// Escape; blank lines separate paragraphs (runs of them become one); the other line
// breaks are kept, so Markdown reads them as soft breaks. Nothing but paragraphs comes
// out: no heading, list, quote, fence, indented code, table, HTML or link.
func Block(s string) string {
	var b strings.Builder
	blank := false
	for _, l := range strings.Split(normalize(s), "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			blank = b.Len() > 0
			continue
		}
		if blank {
			b.WriteString("\n\n")
		} else if b.Len() > 0 {
			b.WriteString("\n")
		}
		blank = false
		b.WriteString(escape(l, false))
	}
	return b.String()
}

// Code wraps s in a code span long enough for the backticks it contains. A line break
// inside a code span would let a blank line end it, so breaks are shown as \n.
func Code(s string) string {
	s = strings.NewReplacer("\r", `\r`, "\n", `\n`).Replace(s)
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return fence + s + fence
}

// CellCode writes s as an inline code span that is also safe in a table cell: the
// fence is longer than any run of backticks in s, `|` is escaped (GitHub reads `\|`
// inside a code span in a table as `|`), and line breaks become spaces.
func CellCode(s string) string {
	s = oneLine(s)
	longest, run := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || strings.HasPrefix(s, " ") && strings.HasSuffix(s, " ") && strings.TrimSpace(s) != "" {
		s = " " + s + " "
	}
	return fence + escapePipes(s) + fence
}

// escapePipes escapes each `|` of a code span in a table cell so that GitHub does not
// end the cell there: GitHub pairs backslashes from the left before it splits cells, so
// a `|` after an even number of backslashes gets one more. (A `|` after an odd number is
// already escaped; GitHub then shows it without its backslash.)
func escapePipes(s string) string {
	var b strings.Builder
	bs := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			bs++
		case '|':
			if bs%2 == 0 {
				b.WriteByte('\\')
			}
			bs = 0
		default:
			bs = 0
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func normalize(s string) string {
	return strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(s)
}

func oneLine(s string) string {
	return strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)
}

// escape escapes one line of prose. Outside code spans it backslash-escapes the
// special characters; ":" of "://" and "." of a word-initial "www." (so GitHub does not
// autolink a bare URL); and, at the start of the line, "-", "+", "=" and the "." or ")"
// after up to nine digits (list items, thematic breaks, setext underlines). A backtick
// run without a closer is escaped. In a cell, `|` inside code spans is escaped too.
func escape(s string, cell bool) string {
	var b strings.Builder
	if s != "" && strings.IndexByte("-+=", s[0]) >= 0 {
		b.WriteByte('\\')
	}
	n := 0
	for n < len(s) && n < 10 && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	if n > 0 && n < 10 && n < len(s) && (s[n] == '.' || s[n] == ')') && (n+1 == len(s) || s[n+1] == ' ' || s[n+1] == '\t') {
		b.WriteString(s[:n])
		b.WriteByte('\\')
		s = s[n:]
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c == '`' {
			n := 0
			for i+n < len(s) && s[i+n] == '`' {
				n++
			}
			if end := closingRun(s, i+n, n); end >= 0 {
				span := s[i : end+n]
				if cell {
					span = escapePipes(span)
				}
				b.WriteString(span)
				i = end + n
				continue
			}
			b.WriteString(strings.Repeat("\\`", n))
			i += n
			continue
		}
		switch {
		case strings.IndexByte(special, c) >= 0,
			c == ':' && strings.HasPrefix(s[i+1:], "//"),
			c == '.' && i >= 3 && strings.EqualFold(s[i-3:i], "www") && (i == 3 || !isWordByte(s[i-4])):
			b.WriteByte('\\')
		}
		b.WriteByte(c)
		i++
	}
	return b.String()
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c >= 0x80
}

// closingRun returns the index of the next run of exactly n backticks at or after i,
// or -1.
func closingRun(s string, i, n int) int {
	for i < len(s) {
		if s[i] != '`' {
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] == '`' {
			j++
		}
		if j-i == n {
			return i
		}
		i = j
	}
	return -1
}
