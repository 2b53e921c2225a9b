package validate

import "io"

// splitter cuts an input into messages (JSON values one after another: JSON lines, or
// pretty-printed values) while reading it, in one pass and without parsing: it follows
// strings and the nesting of {} and [] to find where a value ends. Memory is one read
// buffer and one message of at most max bytes, reused, however long the input.
//
// Where a value ends when the input is not JSON (issue 13, item 10, and
// docs/jsonschema.md, "Streams"):
//   - a line starting with { or [ in its first column starts a new message, also when
//     the one before it is not closed (a truncated JSON line), since a pretty printer
//     indents every line inside a value;
//   - a raw line break inside a string ends the message (JSON strings cannot hold one);
//   - a scalar (number, literal, stray character) ends at white space or a structural
//     character; a stray }, ], , or : is a message of its own.
//
// The message is then malformed for the strict parser, which says why.
type splitter struct {
	r    io.Reader
	buf  []byte
	pos  int
	end  int
	err  error // the read error that ended the input (io.EOF at its end)
	line int   // the line of buf[pos], 1-based
	bol  bool  // buf[pos] is the first byte of a line
	max  int
	msg  []byte
}

func newSplitter(r io.Reader, max int) *splitter {
	return &splitter{r: r, buf: make([]byte, 64<<10), line: 1, bol: true, max: max}
}

// fill makes buf[pos] readable; false at the end of the input (s.err says why).
func (s *splitter) fill() bool {
	for s.pos >= s.end {
		if s.err != nil {
			return false
		}
		n, err := s.r.Read(s.buf)
		s.pos, s.end = 0, n
		if err != nil {
			s.err = err
		}
	}
	return true
}

// skipSpace skips JSON white space; false at the end of the input.
func (s *splitter) skipSpace() bool {
	for s.fill() {
		switch s.buf[s.pos] {
		case '\n':
			s.line++
			s.bol = true
		case ' ', '\t', '\r':
			s.bol = false
		default:
			return true
		}
		s.pos++
	}
	return false
}

// next reads the message that starts at buf[pos] (after skipSpace returned true). It
// returns its bytes (valid until the next call; nil when it is longer than max), the
// line it starts on and its size in bytes.
func (s *splitter) next() (msg []byte, line int, size int64) {
	s.msg = s.msg[:0]
	line = s.line
	over := false
	keep := func(b []byte) {
		size += int64(len(b))
		if over {
			return
		}
		if len(s.msg)+len(b) > s.max {
			over = true
			return
		}
		s.msg = append(s.msg, b...)
	}
	depth := 0
	inStr, esc, scalar := false, false, false
	first := true
	for s.fill() {
		chunk := s.buf[s.pos:s.end]
		i := 0
		done := false
		for ; i < len(chunk) && !done; i++ {
			c := chunk[i]
			if !first && s.bol && (c == '{' || c == '[') {
				break // a new message starts on this line
			}
			if scalar && (c <= ' ' || c == '{' || c == '}' || c == '[' || c == ']' || c == ',' || c == ':' || c == '"') {
				break // the scalar ends before c
			}
			s.bol = c == '\n'
			if c == '\n' {
				s.line++
			}
			switch {
			case first:
				first = false
				switch c {
				case '{', '[':
					depth = 1
				case '"':
					inStr = true
				case '}', ']', ',', ':':
					done = true
				default:
					scalar = true
				}
			case inStr:
				switch {
				case esc:
					esc = false
				case c == '\\':
					esc = true
				case c == '"':
					inStr = false
					done = depth == 0
				case c == '\n':
					done = true // a raw line break ends the string, and the message
				}
			default:
				switch c {
				case '"':
					inStr = true
				case '{', '[':
					depth++
				case '}', ']':
					depth--
					done = depth <= 0
				}
			}
		}
		keep(chunk[:i])
		s.pos += i
		if done || s.pos < s.end {
			break // ended at a closing byte, or before the byte at s.pos
		}
	}
	if over {
		return nil, line, size
	}
	return s.msg, line, size
}
