package ecmare

import (
	"regexp/syntax"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// The final newline (`$` in Python's re and PCRE2).
//
// Without the m flag, `$` in ECMA-262 and RE2 matches at the end of the string only;
// in Python's re and PCRE2 (PHP without the D modifier) it also matches before a final
// "\n". No spelling of "the very end" is common to the four (ECMA-262 has no \z, RE2 no
// lookahead), so finalNewline decides, on the pattern's RE2 program, whether the
// difference can change a verdict and whether the schema-level guard (the sibling
// NotFinalNewline) keeps the ECMA-262 meaning.
//
// The work is bounded (maxDollarStates, maxDollarWork: about 0.2 s); a pattern beyond
// the bound stays undecided, which Portable reports as a BQ060 issue.
//
// It explores the product of two subset constructions over the program: the ECMA-262
// threads, and the Python threads for which `$` also holds when the next character is
// a "\n" that ends the string. Characters are grouped into atoms: ranges on which every
// instruction of the program and the word-character test agree. Searching is
// unanchored (a new thread starts at every position), as JSON Schema's pattern is.

// maxDollarStates and maxDollarWork bound the exploration (states, and instructions
// visited in all); beyond them the question stays open (ok is false).
const (
	maxDollarStates = 20000
	maxDollarWork   = 1_000_000
	maxDollarNodes  = 16 << 20
)

// prevKind is what precedes a position: the start, a word character, "\n", another.
type prevKind uint8

const (
	prevStart prevKind = iota
	prevWord
	prevNL
	prevOther
)

var prevRune = [...]rune{prevStart: -1, prevWord: 'a', prevNL: '\n', prevOther: '!'}

type pyThread struct {
	pc   uint32
	mode uint8 // 0: free; 1: `$` held before the next char, a "\n" that must end the string; 2: the string must end here
}

type dollarState struct {
	ecma       []uint32
	py         []pyThread
	prev       prevKind
	eAcc       bool // ECMA-262 matched already
	pyAcc      bool // Python matched already
	pyAccIfEnd bool // Python matched if the string ends here
}

func (s *dollarState) key() string {
	var b strings.Builder
	for _, pc := range s.ecma {
		b.WriteString(strconv.FormatUint(uint64(pc), 36))
		b.WriteByte(',')
	}
	b.WriteByte('|')
	for _, t := range s.py {
		b.WriteString(strconv.FormatUint(uint64(t.pc), 36))
		b.WriteByte(byte('a' + t.mode))
	}
	b.WriteByte('|')
	for _, f := range []bool{s.eAcc, s.pyAcc, s.pyAccIfEnd} {
		if f {
			b.WriteByte('1')
		} else {
			b.WriteByte('0')
		}
	}
	b.WriteByte(byte('0' + s.prev))
	return b.String()
}

// finalNewline reports whether Python's reading of `$` accepts a string the ECMA-262
// reading rejects (differs), and whether ECMA-262 accepts some string ending in "\n"
// (ecmaNL). ok is false when the exploration exceeds maxDollarStates. re2 is the
// pattern's translation; its \b and \B are read as ASCII in both readings.
func finalNewline(re2 string) (differs, ecmaNL, ok bool) {
	re, err := syntax.Parse(re2, syntax.Perl)
	if err != nil {
		return false, false, false
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		return false, false, false
	}
	atoms := dollarAtoms(prog)
	if len(prog.Inst)*len(atoms) > maxDollarWork {
		return false, false, false
	}
	// When ECMA-262 accepts no string ending in "\n", Python differs exactly when it
	// accepts one (it reads `$` more loosely and differs only on such strings): two
	// existential searches decide it, without the subset construction.
	nl, ok := existsNL(prog, atoms, false)
	if !ok {
		return false, false, false
	}
	if !nl {
		py, ok := existsNL(prog, atoms, true)
		return py, false, ok
	}
	return subsets(prog, atoms)
}

// subsets explores the product of the two readings' subset constructions and reports
// whether Python accepts a string ECMA-262 rejects, and whether ECMA-262 accepts a
// string ending in "\n" (it stops once both hold); ok is false beyond the bounds.
func subsets(prog *syntax.Prog, atoms []rune) (differs, ecmaNL, ok bool) {
	work := 0 // threads visited by closure
	mk := &marks{seen: make([]uint32, 3*len(prog.Inst))}
	start := &dollarState{prev: prevStart}
	seen := map[string]bool{start.key(): true}
	queue := []*dollarState{start}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		// The string may end here.
		eAcc, pyAcc := s.eAcc, s.pyAcc || s.pyAccIfEnd
		eNow, pyNow, _, _ := s.closure(prog, -1, &work, mk)
		eAcc = eAcc || eNow
		pyAcc = pyAcc || pyNow
		if pyAcc && !eAcc {
			differs = true
		}
		if eAcc && s.prev == prevNL {
			ecmaNL = true
		}
		if differs && ecmaNL {
			return true, true, true
		}
		// Or go on with one more character.
		for _, r := range atoms {
			if work > maxDollarWork {
				return differs, ecmaNL, false
			}
			n := s.step(prog, r, &work, mk)
			if k := n.key(); !seen[k] {
				if len(seen) >= maxDollarStates {
					return differs, ecmaNL, false
				}
				seen[k] = true
				queue = append(queue, n)
			}
		}
	}
	return differs, ecmaNL, true
}

// closure follows the empty transitions of the state's threads (plus a new thread at
// the start) at a position followed by next (-1: the end). It reports whether a thread
// of each reading matched, whether a Python thread matched on condition that next is a
// final "\n", and the threads waiting for a character.
// marks is a reusable set of threads (pc, mode): a thread is in the set when its mark
// equals the current generation.
type marks struct {
	seen []uint32
	gen  uint32
}

func (m *marks) reset() { m.gen++ }

// add reports whether t was not in the set, and puts it in.
func (m *marks) add(t pyThread) bool {
	i := int(t.pc)*3 + int(t.mode)
	if m.seen[i] == m.gen {
		return false
	}
	m.seen[i] = m.gen
	return true
}

func (s *dollarState) closure(prog *syntax.Prog, next rune, work *int, mk *marks) (eMatch, pyMatch bool, pyIfEnd bool, waiting [2][]pyThread) {
	flags := syntax.EmptyOpContext(prevRune[s.prev], next)
	for reading := 0; reading < 2; reading++ {
		var stack []pyThread
		if reading == 0 {
			if s.eAcc {
				continue
			}
			for _, pc := range s.ecma {
				stack = append(stack, pyThread{pc: pc})
			}
		} else {
			if s.pyAcc {
				continue
			}
			for _, t := range s.py {
				if t.mode == 2 {
					if next != -1 {
						continue // the string had to end here
					}
					t.mode = 0
				}
				stack = append(stack, t)
			}
		}
		stack = append(stack, pyThread{pc: uint32(prog.Start)})
		mk.reset()
		for len(stack) > 0 {
			t := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if !mk.add(t) {
				continue
			}
			*work++
			in := &prog.Inst[t.pc]
			switch in.Op {
			case syntax.InstMatch:
				switch {
				case reading == 0:
					eMatch = true
				case t.mode == 0:
					pyMatch = true
				default:
					pyIfEnd = true
				}
			case syntax.InstAlt, syntax.InstAltMatch:
				stack = append(stack, pyThread{in.Out, t.mode}, pyThread{in.Arg, t.mode})
			case syntax.InstCapture, syntax.InstNop:
				stack = append(stack, pyThread{in.Out, t.mode})
			case syntax.InstEmptyWidth:
				need := syntax.EmptyOp(in.Arg)
				mode := t.mode
				if need&syntax.EmptyEndText != 0 && flags&syntax.EmptyEndText == 0 {
					if reading == 0 || next != '\n' {
						continue
					}
					mode = 1 // Python: `$` before a "\n" that must end the string
					need &^= syntax.EmptyEndText
				}
				if need&^flags == 0 {
					stack = append(stack, pyThread{in.Out, mode})
				}
			case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
				waiting[reading] = append(waiting[reading], t)
			}
		}
	}
	return eMatch, pyMatch, pyIfEnd, waiting
}

// step consumes the character r.
func (s *dollarState) step(prog *syntax.Prog, r rune, work *int, mk *marks) *dollarState {
	eMatch, pyMatch, pyIfEnd, waiting := s.closure(prog, r, work, mk)
	n := &dollarState{eAcc: s.eAcc || eMatch, pyAcc: s.pyAcc || pyMatch}
	// A Python match that held only if r was a final "\n" now holds if the string ends.
	n.pyAccIfEnd = pyIfEnd && r == '\n'
	switch {
	case r == '\n':
		n.prev = prevNL
	case r < unicode.MaxASCII && syntax.IsWordChar(r):
		n.prev = prevWord
	default:
		n.prev = prevOther
	}
	if !n.eAcc {
		mk.reset()
		for _, t := range waiting[0] {
			if out := (pyThread{pc: prog.Inst[t.pc].Out}); prog.Inst[t.pc].MatchRune(r) && mk.add(out) {
				n.ecma = append(n.ecma, out.pc)
			}
		}
		sort.Slice(n.ecma, func(i, j int) bool { return n.ecma[i] < n.ecma[j] })
	}
	if !n.pyAcc {
		mk.reset()
		for _, t := range waiting[1] {
			mode := uint8(0)
			if t.mode == 1 {
				mode = 2
			}
			if out := (pyThread{prog.Inst[t.pc].Out, mode}); prog.Inst[t.pc].MatchRune(r) && mk.add(out) {
				n.py = append(n.py, out)
			}
		}
		sort.Slice(n.py, func(i, j int) bool {
			if n.py[i].pc != n.py[j].pc {
				return n.py[i].pc < n.py[j].pc
			}
			return n.py[i].mode < n.py[j].mode
		})
	}
	return n
}

// dollarAtoms returns one character of each atom: the ranges between the bounds of
// every instruction's characters, "\n" and the word characters, surrogates left out.
func dollarAtoms(prog *syntax.Prog) []rune {
	bounds := map[rune]bool{0: true, '\n': true, '\n' + 1: true, 0xD800: true, 0xE000: true}
	for _, r := range []rune{'0', '9' + 1, 'A', 'Z' + 1, '_', '_' + 1, 'a', 'z' + 1} {
		bounds[r] = true
	}
	for i := range prog.Inst {
		in := &prog.Inst[i]
		switch in.Op {
		case syntax.InstRune:
			for k := 0; k+1 < len(in.Rune); k += 2 {
				bounds[in.Rune[k]], bounds[in.Rune[k+1]+1] = true, true
			}
			if len(in.Rune) == 1 {
				bounds[in.Rune[0]], bounds[in.Rune[0]+1] = true, true
			}
		case syntax.InstRune1:
			bounds[in.Rune[0]], bounds[in.Rune[0]+1] = true, true
		}
	}
	var out []rune
	for r := range bounds {
		if r <= unicode.MaxRune && (r < 0xD800 || r > 0xDFFF) {
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// existsNL reports whether the reading of the program (ECMA-262's, or Python's when
// python is set) accepts some string ending in "\n". The question is existential, so a
// graph search over single threads answers it: a node is (instruction, what precedes,
// Python's mode, the next character chosen), each visited once. ok is false when the
// graph would exceed maxDollarNodes.
func existsNL(prog *syntax.Prog, atoms []rune, python bool) (found, ok bool) {
	nexts := append([]rune{-1}, atoms...) // -1: the end of the string
	nn := len(nexts)
	if len(prog.Inst)*12*nn > maxDollarNodes {
		return false, false
	}
	seen := make([]bool, len(prog.Inst)*12*nn)
	type node struct {
		pc   uint32
		prev prevKind
		mode uint8
		next int // index into nexts
	}
	var stack []node
	push := func(n node) {
		i := ((int(n.pc)*4+int(n.prev))*3+int(n.mode))*nn + n.next
		if !seen[i] {
			seen[i] = true
			stack = append(stack, n)
		}
	}
	// at puts a thread at a position, once for each character that may follow.
	at := func(pc uint32, prev prevKind, mode uint8) {
		for k := range nexts {
			if mode == 2 && k != 0 {
				continue // the string had to end here
			}
			m := mode
			if m == 2 {
				m = 0
			}
			push(node{pc, prev, m, k})
		}
	}
	// Unanchored: a match may start after any prefix.
	for _, p := range []prevKind{prevStart, prevWord, prevNL, prevOther} {
		at(uint32(prog.Start), p, 0)
	}
	kind := func(r rune) prevKind {
		switch {
		case r == '\n':
			return prevNL
		case r < unicode.MaxASCII && syntax.IsWordChar(r):
			return prevWord
		}
		return prevOther
	}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		next := nexts[n.next]
		in := &prog.Inst[n.pc]
		switch in.Op {
		case syntax.InstMatch:
			// At the end, the string ends in "\n" when the last character was one;
			// before a character, any rest can follow, ending in "\n".
			if next != -1 || n.prev == prevNL {
				return true, true
			}
		case syntax.InstAlt, syntax.InstAltMatch:
			push(node{in.Out, n.prev, n.mode, n.next})
			push(node{in.Arg, n.prev, n.mode, n.next})
		case syntax.InstCapture, syntax.InstNop:
			push(node{in.Out, n.prev, n.mode, n.next})
		case syntax.InstEmptyWidth:
			flags := syntax.EmptyOpContext(prevRune[n.prev], next)
			need := syntax.EmptyOp(in.Arg)
			mode := n.mode
			if need&syntax.EmptyEndText != 0 && flags&syntax.EmptyEndText == 0 {
				if !python || next != '\n' {
					continue
				}
				mode = 1 // Python: `$` before a "\n" that must end the string
				need &^= syntax.EmptyEndText
			}
			if need&^flags == 0 {
				push(node{in.Out, n.prev, mode, n.next})
			}
		case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
			if next != -1 && in.MatchRune(next) {
				mode := uint8(0)
				if n.mode == 1 {
					mode = 2
				}
				at(in.Out, kind(next), mode)
			}
		}
	}
	return false, true
}
