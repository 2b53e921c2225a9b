package validate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/babelqueue/bqgen/internal/emit/golang/rt"
	"github.com/babelqueue/bqgen/internal/jsonnum"
)

// parseMessage parses body as the generated decoder does (rt.ParseStrict). A number
// literal beyond the doubles (1e400) is the one thing the decoder rejects that has a
// place in the message: when that is all that is wrong, parseMessage returns the tree
// anyway, with the literal at its place, so that it is reported at its JSON path
// (issue 13, item 4) and the rest of the message is still checked. err is the syntax
// error otherwise.
func parseMessage(body []byte) (any, error) {
	tree, err := rt.ParseStrict(body)
	if err == nil {
		return tree, nil
	}
	spans := overflowSpans(body)
	if len(spans) == 0 {
		return nil, err
	}
	// The same bytes with each such literal written "0" and padded with spaces: any other
	// syntax error keeps its offset.
	patched := bytes.Clone(body)
	for _, s := range spans {
		patched[s.start] = '0'
		for i := s.start + 1; i < s.end; i++ {
			patched[i] = ' '
		}
	}
	tree, err = rt.ParseStrict(patched)
	if err != nil {
		return nil, err
	}
	for _, s := range spans {
		tree = setAt(tree, s.path, json.Number(body[s.start:s.end]))
	}
	return tree, nil
}

// span is a number literal of a message: its bytes and its place.
type span struct {
	start, end int
	path       []string // JSON pointer tokens
}

// overflowSpans finds the number literals of body whose exact value is beyond the
// doubles, with their paths. When body is not JSON it returns those before the first
// syntax error (which parseMessage then reports).
func overflowSpans(body []byte) []span {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	type frame struct {
		object  bool
		key     string
		index   int
		wantKey bool
	}
	var stack []frame
	var out []span
	done := func() { // a value ended: move its container to the next member
		if n := len(stack); n > 0 {
			if stack[n-1].object {
				stack[n-1].wantKey = true
			} else {
				stack[n-1].index++
			}
		}
	}
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return out
		}
		if err != nil {
			return out
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{':
				stack = append(stack, frame{object: true, wantKey: true})
			case '[':
				stack = append(stack, frame{})
			default:
				stack = stack[:len(stack)-1]
				done()
			}
		case string:
			if n := len(stack); n > 0 && stack[n-1].object && stack[n-1].wantKey {
				stack[n-1].key, stack[n-1].wantKey = t, false
				continue
			}
			done()
		case json.Number:
			if d, ok := jsonnum.Parse(string(t)); ok && d.OverflowsFloat64() {
				end := int(dec.InputOffset())
				path := make([]string, len(stack))
				for i, f := range stack {
					if f.object {
						path[i] = f.key
					} else {
						path[i] = strconv.Itoa(f.index)
					}
				}
				out = append(out, span{start: end - len(t), end: end, path: path})
			}
			done()
		default:
			done()
		}
	}
}

// setAt replaces the value at path in tree (which holds it) and returns the tree.
func setAt(tree any, path []string, v any) any {
	if len(path) == 0 {
		return v
	}
	switch c := tree.(type) {
	case map[string]any:
		c[path[0]] = setAt(c[path[0]], path[1:], v)
	case []any:
		if i, err := strconv.Atoi(path[0]); err == nil && i >= 0 && i < len(c) {
			c[i] = setAt(c[i], path[1:], v)
		}
	}
	return tree
}

// numberProblems reports, at its JSON path below prefix, every number of tree beyond
// the doubles: the generated decoder rejects the whole message as malformed for it. It
// returns the problems (sorted by path) and the set of their paths.
func numberProblems(tree any, prefix string) ([]Problem, map[string]bool) {
	var out []Problem
	var walk func(v any, path string)
	walk = func(v any, path string) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				walk(x, pathKey(path, k))
			}
		case []any:
			for i, x := range v {
				walk(x, path+"["+strconv.Itoa(i)+"]")
			}
		case json.Number:
			if d, ok := jsonnum.Parse(string(v)); ok && d.OverflowsFloat64() {
				out = append(out, Problem{Path: path, Kind: Malformed, Message: fmt.Sprintf(
					"number %s is beyond the range of a double (±1.7976931348623157e308): the generated decoder rejects the message as malformed", abbreviate(string(v)))})
			}
		}
	}
	walk(tree, prefix)
	if len(out) == 0 {
		return nil, nil
	}
	sortProblems(out)
	paths := make(map[string]bool, len(out))
	for _, p := range out {
		paths[p.Path] = true
	}
	return out, paths
}
