package validate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/babelqueue/bqgen/internal/emit/golang/rt/bqrt"
	"github.com/babelqueue/bqgen/internal/jsonnum"
)

// parseMessage parses body as the generated decoder does (bqrt.ParseStrict). A number
// literal beyond the doubles (1e400) is the one thing the decoder rejects that has a
// place in the message: when that is all that is wrong, parseMessage returns the tree
// anyway, with the literal at its place, so that it is reported at its JSON path
// (issue 13, item 4) and the rest of the message is still checked. err is the syntax
// error otherwise.
func parseMessage(body []byte) (any, error) {
	tree, err := bqrt.ParseStrict(body)
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
	tree, err = bqrt.ParseStrict(patched)
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

// numberWindow bounds the decimals jsonschema/v6 gets to see exactly: every digit of
// such a number lies between 10^numberWindow and 10^-numberWindow. The constants of the
// emitted schemas do (int64s, doubles written shortest: 17 digits at most, exponents
// from -323 to 309), so the exact value of an instance outside the window is not needed
// for any verdict, only its sign, which side of every constant it is on, whether it is
// an integer and which other numbers of the message it equals.
const numberWindow = 400

// numbers prepares the numbers of one message for the schema check (issue 16, item 2):
// jsonschema/v6 reads each number into a big.Rat, which for 1e-999999 means computing
// 10^999999 (15 ms), and for a literal of n digits costs n² — per keyword. A literal
// whose every digit is inside the window and that is short is left as it is; a longer
// one inside the window is replaced by its exact shortest form (1.0000…0 is 1); one
// with digits outside it by a stand-in of bounded length that gives the same verdict
// under every keyword of the emitted schemas: the same sign, the same integer-ness, the
// same side of every constant (its digits inside the window, then a non-zero tail), and
// for equality (enum, uniqueItems) an index that is the same exactly for equal values.
type numbers struct {
	// problems are the numbers beyond the doubles (malformed, at their paths), locs
	// their instance locations (the JSON Pointer tokens from the root); reported holds
	// their paths (as written, and as sealed: sealNumbers).
	problems []Problem
	locs     [][]string
	reported map[string]bool
	// orig maps a replacement to the literal it replaced (abbreviated, for messages),
	// and exact to the literal's exact value in jsonnum's shortest notation (5e10 for 5
	// and 1,000 zeros e-990).
	orig, exact map[string]string
	// float maps a replacement to the double of the literal it replaced (absent beyond
	// the doubles).
	float map[string]float64
	// seq numbers the exact values given a stand-in, from 1.
	seq map[string]int
}

// prepareNumbers walks tree (the message, or bare data, at prefix), reports the numbers
// beyond the doubles, and replaces the costly literals in place. It returns the tree
// (a new root when the root itself was replaced).
func prepareNumbers(tree any, prefix string) (any, *numbers) {
	n := &numbers{}
	if r := n.walk(tree, prefix, nil); r != nil {
		tree = r
	}
	// sorted by path, with their locations (sealNumbers seals the paths later)
	idx := make([]int, len(n.problems))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return n.problems[idx[a]].Path < n.problems[idx[b]].Path })
	ps, locs := make([]Problem, len(idx)), make([][]string, len(idx))
	for i, j := range idx {
		ps[i], locs[i] = n.problems[j], n.locs[j]
	}
	n.problems, n.locs = ps, locs
	return tree, n
}

// walk prepares the numbers below v and returns v's replacement, or nil to keep v.
func (n *numbers) walk(v any, path string, loc []string) any {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if r := n.walk(x, pathKey(path, k), append(loc[:len(loc):len(loc)], k)); r != nil {
				v[k] = r
			}
		}
	case []any:
		for i, x := range v {
			if r := n.walk(x, path+"["+strconv.Itoa(i)+"]", append(loc[:len(loc):len(loc)], strconv.Itoa(i))); r != nil {
				v[i] = r
			}
		}
	case json.Number:
		if r, ok := n.number(string(v), path, loc); ok {
			return r
		}
	}
	return nil
}

// number checks one literal at path and returns its replacement, if any.
func (n *numbers) number(lit, path string, loc []string) (json.Number, bool) {
	if len(lit) <= 20 && !strings.ContainsAny(lit, "eE") {
		return "", false // at most 20 digits, no exponent: inside the window, cheap
	}
	d, ok := jsonnum.Parse(lit)
	if !ok {
		return "", false
	}
	if d.OverflowsFloat64() {
		if n.reported == nil {
			n.reported = map[string]bool{}
		}
		n.reported[path] = true
		n.problems = append(n.problems, Problem{Path: path, Kind: Malformed, Message: fmt.Sprintf(
			"number %s is beyond the range of a double (±1.7976931348623157e308): the generated decoder rejects the message as malformed", abbreviate(lit))})
		n.locs = append(n.locs, loc)
	}
	var r string
	switch {
	case d.IsZero():
		r = "0" // 0e-999999 is 0, whatever the exponent
	case d.BigExp == "" && d.Exp <= numberWindow && d.Exp-int64(len(d.Digits)) >= -numberWindow:
		if len(lit) <= 64 {
			return "", false
		}
		r = d.String()
	default:
		r = n.standIn(d)
	}
	if n.orig == nil {
		n.orig, n.exact = map[string]string{}, map[string]string{}
	}
	if _, ok := n.orig[r]; !ok {
		n.orig[r] = abbreviate(lit)
		n.exact[r] = abbreviate(d.String())
		if f, ok := bqrt.ParseNumber(lit); ok { // strconv misreads some long literals
			if n.float == nil {
				n.float = map[string]float64{}
			}
			n.float[r] = f
		}
	}
	return json.Number(r), true
}

// standIn returns the stand-in of d, which has digits outside the window.
func (n *numbers) standIn(d jsonnum.Decimal) string {
	if n.seq == nil {
		n.seq = map[string]int{}
	}
	key := d.String()
	id, ok := n.seq[key]
	if !ok {
		id = len(n.seq) + 1
		n.seq[key] = id
	}
	seq := strconv.Itoa(id)
	sign := ""
	if d.Neg {
		sign = "-"
	}
	switch {
	case d.Exp > numberWindow && d.IsInt():
		// Above every constant, an integer: (1<id>) × 10^(window+1).
		return sign + "1" + seq + "e" + strconv.Itoa(numberWindow+1)
	case d.Exp > numberWindow:
		// Above every constant, with a fraction: 10^(window+1) + 0.<id>1.
		return sign + "1" + strings.Repeat("0", numberWindow+1) + "." + seq + "1"
	case d.Exp < -numberWindow:
		// Not zero, below every non-zero constant in magnitude, no integer.
		return sign + "1" + seq + "e-" + strconv.Itoa(2*numberWindow)
	}
	// Digits inside the window, and more below it: the digits inside, then <id>1.
	kept := d.Digits[:d.Exp+numberWindow]
	return sign + "0." + kept + seq + "1e" + strconv.FormatInt(d.Exp, 10)
}

// value returns the exact value a number of the prepared tree stands for, in jsonnum's
// shortest notation, abbreviated for a message.
func (n *numbers) value(v json.Number) string {
	if e, ok := n.exact[string(v)]; ok {
		return e
	}
	return abbreviate(string(v))
}

// double returns the double the generated decoder reads for a number of the prepared
// tree (the literal's, rounded to nearest), false beyond the doubles.
func (n *numbers) double(v json.Number) (float64, bool) {
	if f, ok := n.float[string(v)]; ok {
		return f, true
	}
	if _, replaced := n.orig[string(v)]; replaced {
		return 0, false
	}
	return bqrt.ParseNumber(string(v))
}

// literal returns the literal a number of the prepared tree stands for, abbreviated
// for a message.
func (n *numbers) literal(v json.Number) string {
	if o, ok := n.orig[string(v)]; ok {
		return o
	}
	return abbreviate(string(v))
}
