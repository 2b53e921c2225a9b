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
// It explores the product of two subset constructions over the program: the ECMA-262
// threads, and the Python threads for which `$` also holds when the next character is
// a "\n" that ends the string. Characters are grouped into atoms: ranges on which every
// instruction of the program and the word-character test agree. Searching is
// unanchored (a new thread starts at every position), as JSON Schema's pattern is.

// maxDollarStates bounds the exploration; beyond it the question stays open.
const maxDollarStates = 20000

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
	start := &dollarState{prev: prevStart}
	seen := map[string]bool{start.key(): true}
	queue := []*dollarState{start}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		// The string may end here.
		eAcc, pyAcc := s.eAcc, s.pyAcc || s.pyAccIfEnd
		eNow, pyNow, _, _ := s.closure(prog, -1)
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
			n := s.step(prog, r)
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
func (s *dollarState) closure(prog *syntax.Prog, next rune) (eMatch, pyMatch bool, pyIfEnd bool, waiting [2][]pyThread) {
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
		visited := map[pyThread]bool{}
		for len(stack) > 0 {
			t := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if visited[t] {
				continue
			}
			visited[t] = true
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
func (s *dollarState) step(prog *syntax.Prog, r rune) *dollarState {
	eMatch, pyMatch, pyIfEnd, waiting := s.closure(prog, r)
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
		set := map[uint32]bool{}
		for _, t := range waiting[0] {
			if prog.Inst[t.pc].MatchRune(r) {
				set[prog.Inst[t.pc].Out] = true
			}
		}
		for pc := range set {
			n.ecma = append(n.ecma, pc)
		}
		sort.Slice(n.ecma, func(i, j int) bool { return n.ecma[i] < n.ecma[j] })
	}
	if !n.pyAcc {
		set := map[pyThread]bool{}
		for _, t := range waiting[1] {
			if prog.Inst[t.pc].MatchRune(r) {
				mode := uint8(0)
				if t.mode == 1 {
					mode = 2
				}
				set[pyThread{prog.Inst[t.pc].Out, mode}] = true
			}
		}
		for t := range set {
			n.py = append(n.py, t)
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
