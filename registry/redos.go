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
			if lo, hi, k, w := splitChain(n.subs); k > 0 {
				found = &slowFinding{lo, hi, fmt.Sprintf("are %d adjacent quantifiers that can match the same characters, so a failing match tries up to %s ways to split the text between them", k, splitsText(w))}
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
			if w := splits(n); w >= maxSplits && bodyWays(body) > 1 {
				found = &slowFinding{n.lo, n.hi, fmt.Sprintf("repeats %d times an expression that can match more or fewer of the same characters, so a failing match tries up to %s ways to share the text between the repetitions", n.min, splitsText(w))}
				return
			}
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

// maxSplits is the number of ways to split one text between quantifiers (splits)
// from which BQ037 flags them: 4,096 (2^12). Three unbounded quantifiers over the
// same characters (17^3 = 4,913, quantifierChain's case) are above it, a run of 12
// optional atoms (`\d?` × 12) reaches it, `^\d{1,3}\d{1,3}\d{1,3}$` (27) stays
// below. Node took 100 s on 26 characters for `(?:a?){26}b`, whose 26 mandatory
// repetitions of `a?` share a text of k `a`s in C(26, k) ways, 2^26 in all.
const maxSplits = 1 << 12

// wideSplits is the weight of an unbounded quantifier, or of one whose range is 16 or
// more: as many ways as quantifierChain counts it for.
const wideSplits = 17

// maxChainLook bounds how far splitChain looks ahead from one item.
const maxChainLook = 256

// splits estimates in how many ways the item n (a group around one item is looked
// through) can take a share of a text its neighbours can match too: 1 for an item of
// fixed width; for a quantifier whose count varies, its range + 1 (at most
// wideSplits); for one whose body can itself take a varying share of the text across
// its repetitions (bodyWays), that raised to the mandatory count (`(?:a?){26}`: 2^26,
// `(?:a{1,2}){13}`: 2^13). Capped at 2^30.
func splits(n *rnode) int {
	for n.op == rconcat && len(n.subs) == 1 {
		n = n.subs[0]
	}
	if n.op != rrepeat {
		return 1
	}
	w := 1
	if n.max != n.min {
		w = wideSplits
		if n.max >= 0 && n.max-n.min+1 < wideSplits {
			w = n.max - n.min + 1
		}
	}
	if bw := bodyWays(n.subs[0]); bw > 1 {
		for range min(n.min, 31) {
			w = mulCap(w, bw)
		}
	}
	return w
}

// bodyWays is the number of lengths (at most wideSplits) the body of a repetition can
// match when the boundary between two repetitions can move: the body matches the
// empty text as well as others (`a?`, `\d{0,3}`, `a?b?`), or it is one quantifier
// whose characters can also start it (`a{1,2}`). 1 otherwise (`\.\d{1,3}`, `a?b`,
// `[^a]*a`: a fixed part ends each repetition; fixed widths) and for alternations,
// which ambiguousBranches judges.
func bodyWays(b *rnode) int {
	for b.op == rconcat && len(b.subs) == 1 {
		b = b.subs[0]
	}
	if containsAlt(b, 0) {
		return 1
	}
	lo, hi := widths(b, 0)
	if hi == lo {
		return 1
	}
	ways := wideSplits
	if hi >= 0 && hi-lo+1 < wideSplits {
		ways = hi - lo + 1
	}
	first, nullable := firstSet(b)
	switch {
	case nullable:
		// Every repetition may be empty or not: as many ways as the lengths, or as
		// the quantifiers inside multiply to (`(?:a?a?)`: 4, `(?:(?:a?){4})`: 16).
		inner := 1
		if b.op == rconcat {
			for _, s := range b.subs {
				inner = mulCap(inner, splits(s))
			}
		} else {
			inner = splits(b)
		}
		return max(ways, inner)
	case b.op == rrepeat && lastSet(b, 0).intersects(first):
		return ways // a{1,2}, \d{1,3}: the boundary moves within a run of one class
	}
	return 1
}

// containsAlt reports whether n holds an alternation.
func containsAlt(n *rnode, depth int) bool {
	if n.op == ralt {
		return true
	}
	if depth > 2000 {
		return true
	}
	for _, s := range n.subs {
		if containsAlt(s, depth+1) {
			return true
		}
	}
	return false
}

// widths returns the shortest and longest text n matches, in characters (hi -1:
// unbounded; both capped at 2^20).
func widths(n *rnode, depth int) (lo, hi int) {
	const cap = 1 << 20
	if depth > 2000 {
		return 0, -1
	}
	switch n.op {
	case ratom:
		return 1, 1
	case rempty:
		return 0, 0
	case rconcat:
		for _, s := range n.subs {
			l, h := widths(s, depth+1)
			lo = min(lo+l, cap)
			if hi >= 0 {
				if h < 0 {
					hi = -1
				} else {
					hi = min(hi+h, cap)
				}
			}
		}
		return lo, hi
	case ralt:
		lo, hi = cap, 0
		for _, s := range n.subs {
			l, h := widths(s, depth+1)
			lo = min(lo, l)
			if hi >= 0 && (h < 0 || h > hi) {
				hi = h
			}
		}
		return lo, hi
	case rrepeat:
		l, h := widths(n.subs[0], depth+1)
		lo = min(l*min(n.min, cap), cap)
		switch {
		case n.max < 0 && h != 0:
			hi = -1
		case h < 0:
			hi = -1
			if n.max == 0 {
				hi = 0
			}
		default:
			hi = min(h*max(n.max, 0), cap)
		}
		return lo, hi
	}
	return 0, 0
}

// lastSet returns the characters that can end a match of n.
func lastSet(n *rnode, depth int) rset {
	if depth > 2000 {
		return nil
	}
	switch n.op {
	case ratom:
		return n.set
	case rconcat:
		var out rset
		for i := len(n.subs) - 1; i >= 0; i-- {
			out = out.union(lastSet(n.subs[i], depth+1))
			if _, null := firstSet(n.subs[i]); !null {
				break
			}
		}
		return out
	case ralt:
		var out rset
		for _, s := range n.subs {
			out = out.union(lastSet(s, depth+1))
		}
		return out
	case rrepeat:
		return lastSet(n.subs[0], depth+1)
	}
	return nil
}

// mulCap is a × b, capped at 2^30.
func mulCap(a, b int) int {
	if a > (1<<30)/b {
		return 1 << 30
	}
	return a * b
}

// splitsText writes a number of ways: exact below 2^20, else as a power of two.
func splitsText(w int) string {
	if w < 1<<20 {
		return fmt.Sprint(w)
	}
	if w >= 1<<30 {
		return "2^30 (or more)"
	}
	k := 0
	for 1<<(k+1) <= w {
		k++
	}
	return fmt.Sprintf("2^%d", k)
}

// splitChain finds, in a concatenation, the quantifiers that can share one text: from
// each varying item (splits > 1), the later ones whose characters overlap its own,
// up to the first item that cannot match the empty text and does not overlap
// (`\d?` × 24 before an `x`; `a?b?` × 12, where the `b?` between the `a?` can be
// empty). It returns the span, count and product of the splits of the group with the
// most ways, when that is maxSplits or more; n is 0 otherwise.
func splitChain(subs []*rnode) (lo, hi, n, ways int) {
	for i, si := range subs {
		wi := splits(si)
		if wi == 1 {
			continue
		}
		fi, _ := firstSet(si)
		w, k, last := wi, 1, si.hi
		for j := i + 1; j < len(subs) && j-i <= maxChainLook; j++ {
			sj := subs[j]
			fj, null := firstSet(sj)
			if wj := splits(sj); wj > 1 && fj.intersects(fi) {
				w, k, last = mulCap(w, wj), k+1, sj.hi
				continue
			}
			if !null {
				break
			}
		}
		if k >= 2 && w >= maxSplits && w > ways {
			lo, hi, n, ways = si.lo, last, k, w
		}
	}
	return lo, hi, n, ways
}
