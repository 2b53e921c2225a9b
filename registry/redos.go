package registry

import (
	"regexp/syntax"
	"sort"
	"unicode/utf8"
)

// Slow-pattern detection (BQ037).
//
// Go's RE2 runs every pattern in linear time, but JSON Schema validators in other
// languages (ajv and every ECMA-262 engine, PCRE in PHP, java.util.regex) backtrack: a
// pattern that can match one text in exponentially (or highly polynomially) many ways
// makes them spin on a short hostile message ("ReDoS"). The classic shapes are a
// quantified expression repeated inside another quantifier whose iterations can match
// the same characters — `^(a+)+$`, `^(\w+\s?)*$`, `(.*a){10}` — and an alternation under
// a quantifier whose branches can match the same text — `(a|a)*`, `(\d|\w)+`, `(a|aa)*`.
//
// RE2's own parser simplifies alternations (`a|a` becomes `a`), so the pattern is parsed
// here from its source: a small parser for the syntax BQ035 lets through (the common
// subset of RE2 and ECMA-262), with each atom's character set taken from regexp/syntax.
// The analysis is a heuristic on first and follow sets: it flags a repeated expression
// R inside a loop when a character that starts R can also come right after R within the
// loop, and an alternation in a loop whose fixed-text branches overlap. It has no false
// negatives on the shapes above and few false positives on the patterns registries use
// (identifiers, codes, e-mail and domain shapes).

// maxSlowPatternLen bounds the analysis; longer patterns are not analysed (the format
// caps nothing, but a pattern this long is reported by nothing else either).
const maxSlowPatternLen = 64 << 10

// rset is a set of runes as sorted, non-overlapping, inclusive [lo, hi] pairs.
type rset []rune

var anyRunes = rset{0, utf8.MaxRune}

func (a rset) intersects(b rset) bool {
	i, j := 0, 0
	for i+1 < len(a) && j+1 < len(b) {
		if a[i+1] < b[j] {
			i += 2
		} else if b[j+1] < a[i] {
			j += 2
		} else {
			return true
		}
	}
	return false
}

func (a rset) union(b rset) rset {
	if len(a) == 0 {
		return b
	}
	if len(b) == 0 {
		return a
	}
	type pr struct{ lo, hi rune }
	ps := make([]pr, 0, (len(a)+len(b))/2)
	for i := 0; i+1 < len(a); i += 2 {
		ps = append(ps, pr{a[i], a[i+1]})
	}
	for i := 0; i+1 < len(b); i += 2 {
		ps = append(ps, pr{b[i], b[i+1]})
	}
	sort.Slice(ps, func(i, j int) bool { return ps[i].lo < ps[j].lo })
	out := make(rset, 0, len(ps)*2)
	for _, p := range ps {
		if n := len(out); n > 0 && p.lo <= out[n-1]+1 {
			if p.hi > out[n-1] {
				out[n-1] = p.hi
			}
			continue
		}
		out = append(out, p.lo, p.hi)
	}
	return out
}

// rnode is a node of a parsed pattern.
type rnode struct {
	op       rop
	subs     []*rnode
	set      rset // ratom: the characters it matches
	min, max int  // rrepeat; max -1 = unbounded
	lo, hi   int  // byte offsets of the node's source in the pattern

	firstDone bool
	first     rset
	nullable  bool
}

type rop int

const (
	ratom   rop = iota // one character from set
	rempty             // matches the empty string (an assertion, an empty group)
	rconcat            // subs in sequence
	ralt               // one of subs
	rrepeat            // subs[0] repeated min..max times
)

// rparser parses the source of a pattern RE2 and ECMA-262 both accept.
type rparser struct {
	p     string
	i     int
	depth int
}

func (rp *rparser) alt() *rnode {
	start := rp.i
	var branches []*rnode
	for {
		branches = append(branches, rp.concat())
		if rp.i < len(rp.p) && rp.p[rp.i] == '|' {
			rp.i++
			continue
		}
		break
	}
	if len(branches) == 1 {
		return branches[0]
	}
	return &rnode{op: ralt, subs: branches, lo: start, hi: rp.i}
}

func (rp *rparser) concat() *rnode {
	start := rp.i
	n := &rnode{op: rconcat, lo: start}
	for rp.i < len(rp.p) && rp.p[rp.i] != '|' && rp.p[rp.i] != ')' {
		a := rp.atom()
		a = rp.quantifier(a)
		n.subs = append(n.subs, a)
	}
	n.hi = rp.i
	return n
}

func (rp *rparser) atom() *rnode {
	start := rp.i
	c := rp.p[rp.i]
	switch c {
	case '(':
		rp.i++
		// (?:…), (?<name>…), (?P<name>…): skip to the group's body.
		if rp.i < len(rp.p) && rp.p[rp.i] == '?' {
			rp.i++
			if rp.i < len(rp.p) && rp.p[rp.i] == ':' {
				rp.i++
			} else {
				for rp.i < len(rp.p) && rp.p[rp.i] != '>' {
					rp.i++
				}
				rp.i++
			}
		}
		rp.depth++
		var body *rnode
		if rp.depth > 1000 {
			body = &rnode{op: rempty}
			rp.i = len(rp.p)
		} else {
			body = rp.alt()
		}
		rp.depth--
		if rp.i < len(rp.p) && rp.p[rp.i] == ')' {
			rp.i++
		}
		body.lo, body.hi = start, rp.i
		return body
	case '^', '$':
		rp.i++
		return &rnode{op: rempty, lo: start, hi: rp.i}
	case '[':
		rp.i++
		if rp.i < len(rp.p) && rp.p[rp.i] == '^' {
			rp.i++
		}
		if rp.i < len(rp.p) && rp.p[rp.i] == ']' {
			rp.i++
		}
		for rp.i < len(rp.p) && rp.p[rp.i] != ']' {
			if rp.p[rp.i] == '\\' {
				rp.i++
			}
			rp.i++
		}
		rp.i = min(rp.i+1, len(rp.p))
	case '\\':
		rp.i += 2
		if rp.i-1 < len(rp.p) {
			switch rp.p[rp.i-1] {
			case 'p', 'P', 'x':
				if rp.i < len(rp.p) && rp.p[rp.i] == '{' {
					for rp.i < len(rp.p) && rp.p[rp.i] != '}' {
						rp.i++
					}
					rp.i++
				} else if rp.p[rp.i-1] == 'x' {
					rp.i += 2
				} else {
					rp.i++
				}
			}
		}
		rp.i = min(rp.i, len(rp.p))
	default:
		_, size := utf8.DecodeRuneInString(rp.p[rp.i:])
		rp.i += size
	}
	return atomNode(rp.p[start:rp.i], start, rp.i)
}

// atomNode makes a node for one atom's source text, with its character set from
// regexp/syntax.
func atomNode(src string, lo, hi int) *rnode {
	n := &rnode{op: ratom, set: anyRunes, lo: lo, hi: hi}
	re, err := syntax.Parse(src, syntax.Perl)
	if err != nil {
		return n
	}
	switch re.Op {
	case syntax.OpLiteral:
		if len(re.Rune) == 1 {
			r := re.Rune[0]
			n.set = rset{r, r}
		}
	case syntax.OpCharClass:
		n.set = rset(re.Rune)
		if len(n.set) == 0 {
			n.set = nil
		}
	case syntax.OpAnyCharNotNL:
		n.set = rset{0, '\n' - 1, '\n' + 1, utf8.MaxRune}
	case syntax.OpEmptyMatch, syntax.OpWordBoundary, syntax.OpNoWordBoundary, syntax.OpBeginLine, syntax.OpEndLine,
		syntax.OpBeginText, syntax.OpEndText:
		n.op, n.set = rempty, nil
	}
	return n
}

func (rp *rparser) quantifier(a *rnode) *rnode {
	for rp.i < len(rp.p) {
		lo, hi := 0, 0
		switch rp.p[rp.i] {
		case '*':
			lo, hi = 0, -1
			rp.i++
		case '+':
			lo, hi = 1, -1
			rp.i++
		case '?':
			lo, hi = 0, 1
			rp.i++
		case '{':
			j := rp.i + 1
			num := func() (int, bool) {
				k := j
				v := 0
				for j < len(rp.p) && rp.p[j] >= '0' && rp.p[j] <= '9' {
					v = min(v*10+int(rp.p[j]-'0'), 100000)
					j++
				}
				return v, j > k
			}
			n1, ok := num()
			if !ok {
				return a // a literal '{'
			}
			lo, hi = n1, n1
			if j < len(rp.p) && rp.p[j] == ',' {
				j++
				n2, ok := num()
				hi = -1
				if ok {
					hi = n2
				}
			}
			if j >= len(rp.p) || rp.p[j] != '}' {
				return a
			}
			rp.i = j + 1
		default:
			return a
		}
		if rp.i < len(rp.p) && rp.p[rp.i] == '?' { // lazy
			rp.i++
		}
		a = &rnode{op: rrepeat, subs: []*rnode{a}, min: lo, max: hi, lo: a.lo, hi: rp.i}
	}
	return a
}

// firstSet computes the characters that can start a match of n and whether n matches
// the empty string.
func firstSet(n *rnode) (rset, bool) {
	if n.firstDone {
		return n.first, n.nullable
	}
	switch n.op {
	case ratom:
		n.first, n.nullable = n.set, false
	case rempty:
		n.first, n.nullable = nil, true
	case rconcat:
		n.nullable = true
		for _, s := range n.subs {
			f, null := firstSet(s)
			n.first = n.first.union(f)
			if !null {
				n.nullable = false
				break
			}
		}
	case ralt:
		for _, s := range n.subs {
			f, null := firstSet(s)
			n.first = n.first.union(f)
			n.nullable = n.nullable || null
		}
	case rrepeat:
		f, null := firstSet(n.subs[0])
		n.first, n.nullable = f, null || n.min == 0
	}
	n.firstDone = true
	return n.first, n.nullable
}

func repeats(n *rnode) bool { return n.op == rrepeat && (n.max == -1 || n.max > 1) }

// slowFinding is the part of a pattern that makes it slow and why.
type slowFinding struct {
	lo, hi int
	why    string
}

// slowPattern reports whether p can backtrack catastrophically in a backtracking engine.
func slowPattern(p string) (slowFinding, bool) {
	if len(p) > maxSlowPatternLen {
		return slowFinding{}, false
	}
	rp := &rparser{p: p}
	var root *rnode
	for rp.i < len(p) {
		// A stray ')' cannot happen in a pattern RE2 compiled; skip it defensively.
		n := rp.alt()
		if root == nil {
			root = n
		} else {
			root = &rnode{op: rconcat, subs: []*rnode{root, n}, lo: 0, hi: rp.i}
		}
		if rp.i < len(p) {
			rp.i++
		}
	}
	if root == nil {
		return slowFinding{}, false
	}
	var found *slowFinding
	var walk func(n *rnode, follow rset, inLoop bool)
	walk = func(n *rnode, follow rset, inLoop bool) {
		if found != nil {
			return
		}
		switch n.op {
		case rconcat:
			// follow of subs[i] = first(subs[i+1:]) ∪ (follow when subs[i+1:] is nullable)
			fs := make([]rset, len(n.subs))
			acc := follow
			for i := len(n.subs) - 1; i >= 0; i-- {
				fs[i] = acc
				f, null := firstSet(n.subs[i])
				if null {
					acc = acc.union(f)
				} else {
					acc = f
				}
			}
			for i, s := range n.subs {
				walk(s, fs[i], inLoop)
			}
		case ralt:
			if inLoop {
				if lo, hi, ok := ambiguousBranches(n.subs, follow); ok {
					found = &slowFinding{lo, hi, "are alternatives that can match the same text, under a quantifier"}
					return
				}
			}
			for _, s := range n.subs {
				walk(s, follow, inLoop)
			}
		case rrepeat:
			body := n.subs[0]
			bf, _ := firstSet(body)
			if repeats(n) {
				// A fixed count ({3}) splits its text one way only; a variable one
				// (*, +, {1,3}) whose body can also follow it splits it in many.
				if inLoop && n.max != n.min && bf.intersects(follow) {
					found = &slowFinding{n.lo, n.hi, "is repeated inside another quantifier, and its repetitions can match the same characters"}
					return
				}
				// Within the loop, what follows the body includes the body itself. What
				// follows the outermost loop is left out: backtracking over it is
				// polynomial of low degree, not the blow-up this rule is about.
				if inLoop {
					walk(body, follow.union(bf), true)
				} else {
					walk(body, bf, true)
				}
				return
			}
			walk(body, follow, inLoop)
		}
	}
	walk(root, nil, false)
	if found == nil {
		return slowFinding{}, false
	}
	return *found, true
}

// ambiguousBranches reports two branches of an alternation in a loop that can match
// the same text: both fixed sequences of single characters, overlapping position by
// position, the longer one's rest able to start the next iteration (follow).
func ambiguousBranches(bs []*rnode, follow rset) (lo, hi int, ok bool) {
	seqs := make([][]rset, len(bs))
	for i, b := range bs {
		seqs[i] = fixedSeq(b)
	}
	for i := range bs {
		for j := i + 1; j < len(bs); j++ {
			a, b := seqs[i], seqs[j]
			if len(a) == 0 || len(b) == 0 {
				continue
			}
			if len(a) > len(b) {
				a, b = b, a
			}
			overlap := true
			for k := range a {
				if !a[k].intersects(b[k]) {
					overlap = false
					break
				}
			}
			if !overlap {
				continue
			}
			if len(a) == len(b) || b[len(a)].intersects(follow) {
				return bs[i].lo, bs[j].hi, true
			}
		}
	}
	return 0, 0, false
}

// fixedSeq returns the character sets of a branch made of single characters only
// (`a`, `ab`, `\d`, `[a-z]x`), or nil.
func fixedSeq(n *rnode) []rset {
	switch n.op {
	case ratom:
		return []rset{n.set}
	case rconcat:
		var out []rset
		for _, s := range n.subs {
			switch s.op {
			case ratom:
				out = append(out, s.set)
			case rempty:
			default:
				return nil
			}
		}
		return out
	}
	return nil
}
