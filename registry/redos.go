package registry

import (
	"fmt"
	"sort"

	"github.com/babelqueue/bqgen/internal/ecmare"
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
// RE2's own parser simplifies alternations (`a|a` becomes `a`), so the analysis runs on
// the ECMA-262 syntax tree of internal/ecmare, with each atom's character set taken from
// its RE2 translation (ECMA-262's `.` and `\s`).
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

// treeOf converts the ECMA-262 syntax tree of a pattern (internal/ecmare, unsimplified:
// `a|a` stays two branches) into the analysis tree; each character node takes its set
// from the translation, so `.` and `\s` have ECMA-262's meaning.
func treeOf(n *ecmare.Node, depth int) *rnode {
	out := &rnode{lo: n.Lo, hi: n.Hi}
	if depth > 2000 { // ecmare bounds group nesting at 1000
		out.op = rempty
		return out
	}
	switch n.Op {
	case ecmare.OpChar:
		out.op, out.set = ratom, rset(n.Runes())
	case ecmare.OpAssert, ecmare.OpEmpty:
		out.op = rempty
	case ecmare.OpConcat, ecmare.OpAlt:
		out.op = rconcat
		if n.Op == ecmare.OpAlt {
			out.op = ralt
		}
		for _, s := range n.Sub {
			out.subs = append(out.subs, treeOf(s, depth+1))
		}
	case ecmare.OpGroup:
		// A one-element sequence spanning the group: findings inside keep their own
		// offsets (`a+` in `(a+)+`).
		out.op, out.subs = rconcat, []*rnode{treeOf(n.Sub[0], depth+1)}
	case ecmare.OpRepeat:
		out.op, out.min, out.max = rrepeat, n.Min, n.Max
		out.subs = []*rnode{treeOf(n.Sub[0], depth+1)}
	}
	return out
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

// slowPattern reports whether the ECMA-262 pattern p can backtrack catastrophically in
// a backtracking engine; a pattern that does not translate is not analysed.
func slowPattern(p string) (slowFinding, bool) {
	if len(p) > maxSlowPatternLen {
		return slowFinding{}, false
	}
	pat, err := ecmare.Parse(p)
	if err != nil {
		return slowFinding{}, false
	}
	return slowTree(pat.Root)
}

// slowTree is slowPattern on a parsed pattern; the finding's offsets are in its source.
func slowTree(n *ecmare.Node) (slowFinding, bool) {
	if n.Hi > maxSlowPatternLen {
		return slowFinding{}, false
	}
	root := treeOf(n, 0)
	sw := &seqWalker{budget: seqBudget}
	var found *slowFinding
	var walk func(n *rnode, follow rset, inLoop bool)
	walk = func(n *rnode, follow rset, inLoop bool) {
		if found != nil {
			return
		}
		switch n.op {
		case rconcat:
			if lo, hi, k := quantifierChain(n.subs); k > 0 {
				found = &slowFinding{lo, hi, fmt.Sprintf("are %d adjacent quantifiers that can match the same characters, so a failing match tries every way to split the text between them", k)}
				return
			}
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
				if lo, hi, ok := ambiguousBranches(sw, n.subs, follow); ok {
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
// the same text: among the texts of up to maxSeqLen characters each branch matches in
// full (seqWalker.of), two of the same length that overlap position by position (`a` and
// `a?`, `\d` and `\w`), or one that overlaps the start of a longer one whose next
// character can start the next iteration (follow: `a` and `aa` in `(a|aa)*`).
func ambiguousBranches(sw *seqWalker, bs []*rnode, follow rset) (lo, hi int, ok bool) {
	seqs := make([][]seq, len(bs))
	for i, b := range bs {
		seqs[i], _ = sw.of(b, maxSeqLen)
	}
	for i := range bs {
		for j := i + 1; j < len(bs); j++ {
			for _, a := range seqs[i] {
				for _, b := range seqs[j] {
					if seqsAmbiguous(a, b, follow) {
						return bs[i].lo, bs[j].hi, true
					}
				}
			}
		}
	}
	return 0, 0, false
}

// seqsAmbiguous reports whether two texts (as sets per character) can be the same
// iteration's text, or the shorter the start of the longer with the rest starting the
// next iteration.
func seqsAmbiguous(a, b seq, follow rset) bool {
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	if len(a) > len(b) {
		a, b = b, a
	}
	for k := range a {
		if !a[k].intersects(b[k]) {
			return false
		}
	}
	return len(a) == len(b) || b[len(a)].intersects(follow)
}

// seq is a text as the set of each of its characters.
type seq []rset

// maxSeqLen and maxSeqs bound seqsOf: branches are compared on their texts of up to 4
// characters, and a branch with more than 256 of them is not compared.
const (
	maxSeqLen = 4
	maxSeqs   = 256
)

// seqBudget bounds the work of all text enumerations of one pattern (calls of
// seqWalker.of): past it, alternations are not compared (no finding).
const seqBudget = 200_000

// seqWalker enumerates branch texts under a budget shared by the whole analysis.
type seqWalker struct{ budget int }

// of returns the texts of at most n characters that node matches in full (the empty
// text included when it is nullable); ok is false when there are more than maxSeqs or
// the budget is spent (the list is then incomplete).
func (sw *seqWalker) of(node *rnode, n int) ([]seq, bool) {
	if sw.budget--; sw.budget < 0 {
		return nil, false
	}
	switch node.op {
	case ratom:
		if len(node.set) == 0 || n < 1 {
			return nil, true
		}
		return []seq{{node.set}}, true
	case rempty:
		return []seq{{}}, true
	case ralt:
		var out []seq
		for _, s := range node.subs {
			ss, ok := sw.of(s, n)
			out = append(out, ss...)
			if !ok || len(out) > maxSeqs {
				return out, false
			}
		}
		return out, true
	case rconcat:
		out := []seq{{}}
		for _, s := range node.subs {
			var ok bool
			if out, ok = sw.then(out, s, n); !ok {
				return out, false
			}
		}
		return out, true
	case rrepeat:
		var out []seq
		cur := []seq{{}}
		for k := 0; k <= n+1 && len(cur) > 0; k++ {
			if k >= node.min && (node.max < 0 || k <= node.max) {
				out = append(out, cur...)
			}
			if node.max >= 0 && k >= node.max || len(out) > maxSeqs {
				break
			}
			var ok bool
			if cur, ok = sw.then(cur, node.subs[0], n); !ok {
				return out, false
			}
		}
		return out, len(out) <= maxSeqs
	}
	return nil, false
}

// then extends every text of pre by every text of node, keeping those of at most n
// characters.
func (sw *seqWalker) then(pre []seq, node *rnode, n int) ([]seq, bool) {
	var out []seq
	for _, p := range pre {
		tails, ok := sw.of(node, n-len(p))
		if !ok {
			return out, false
		}
		for _, t := range tails {
			out = append(out, append(append(seq(nil), p...), t...))
			if len(out) > maxSeqs {
				return out, false
			}
		}
	}
	return out, true
}

// minChain is the number of adjacent variable quantifiers over shared characters from
// which BQ037 flags a concatenation: a failing match tries every way to split the text
// between them, so the time grows as the text's length to that power.
const minChain = 3

// quantifierChain finds minChain or more adjacent items of a concatenation, each an
// unbounded (or widely bounded) repetition whose characters overlap the next one's
// (`a*a*a*`, `\d*\d+\d*`), and returns the span of the longest run.
func quantifierChain(subs []*rnode) (lo, hi, n int) {
	run, best := 0, 0
	var bestLo, bestHi, runLo int
	var prev rset
	for _, s := range subs {
		for s.op == rconcat && len(s.subs) == 1 { // a group around one item
			s = s.subs[0]
		}
		if s.op != rrepeat || !(s.max < 0 || s.max-s.min >= 16) {
			run = 0
			continue
		}
		f, _ := firstSet(s.subs[0])
		if run > 0 && f.intersects(prev) {
			run++
		} else {
			run, runLo = 1, s.lo
		}
		prev = f
		if run > best {
			best, bestLo, bestHi = run, runLo, s.hi
		}
	}
	if best < minChain {
		return 0, 0, 0
	}
	return bestLo, bestHi, best
}
