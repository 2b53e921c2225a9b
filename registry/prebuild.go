package registry

import (
	"errors"
	"maps"
	"sync"

	"github.com/babelqueue/bqgen/internal/ecmare"
	"github.com/babelqueue/bqgen/internal/model"
)

// Building a file's types and messages in the parse workers (issue 22), in loads
// without a Cache. The merge of loadFresh is serial, in file order, and with the trees
// taken from a TreeStore it was most of a load's wall time. So each worker, once it has a file's tree, builds that
// file's named types and messages and runs checkText on it with a loader of its own
// (spec), and the merge takes the result (takePrebuilt) when it is what the merge
// would have built: no type or URN of the file is defined in a file before it, the
// did-you-mean budget was not needed (a prebuild that needs it aborts), and every
// pattern it analysed fits in the RE2 budget at the point of the merge where the file
// is taken, as it would have been analysed there. Otherwise the merge builds the file
// itself, as before. Either way every diagnostic, its order, the model and the spent
// budgets are those of a serial build (TestPrebuildAlike).

// prebuilt is what a worker built of one file ahead of the merge.
type prebuilt struct {
	w     *loader            // the file's loader: diags, refs, maps, lints, nBroken
	types []*model.NamedType // one per entry of `types`, in order
	msgs  []*model.Message   // one per entry of `messages`, in order
	pats  []string           // the distinct patterns the build used, in order of first use
	text  []pending          // checkText's diagnostics of the file
}

// prebuild builds the types and messages of the file at root (its tree decoded when
// slab) on a loader of its own, and runs checkText on it. wl is the worker's loader:
// it only keeps, from one file to the next, what is left of the slabs (newSchema,
// newKeys, keep) and the fieldWhat memo. The result's w is nil when the build cannot be taken (abort: a
// budget was needed, or a key repeats); its text findings stand either way.
func (wl *loader) prebuild(root *tnode, slab bool) *prebuilt {
	l := &loader{
		spec: true, share: wl.share, slab: slab, schemas: wl.schemas, keys: wl.keys, fieldWhats: wl.fieldWhats,
		keptNodes: wl.keptNodes, keptItems: wl.keptItems,
		exampleNodes: map[*model.Schema]*tnode{}, enumNodes: map[*model.Schema][]*tnode{},
		skip: skipSet{}, unsure: map[*model.Schema]map[string]bool{}, brokenPos: map[model.Pos]bool{},
		lintOf: map[*model.Lint]*lintBlock{},
	}
	pb := &prebuilt{w: l}
	if ts := root.val("types"); ts != nil {
		seen := make(map[string]bool, len(ts.entries))
		for _, e := range ts.entries {
			if seen[e.key] || l.abort {
				l.abort = true
				break
			}
			seen[e.key] = true
			pb.types = append(pb.types, l.namedType(e))
		}
	}
	if ms := root.val("messages"); ms != nil {
		seen := make(map[string]bool, len(ms.entries))
		for _, e := range ms.entries {
			if seen[e.key] || l.abort {
				l.abort = true
				break
			}
			seen[e.key] = true
			pb.msgs = append(pb.msgs, l.message(e))
		}
	}
	l.curLint = nil
	pb.pats = l.specPats
	// checkText does not depend on the files before this one: its findings stand
	// whether or not the build is taken.
	built := l.diags
	l.diags = nil
	checkText(l, root)
	pb.text, l.diags = l.diags, built
	wl.schemas, wl.keys, wl.fieldWhats, wl.keptNodes, wl.keptItems = l.schemas, l.keys, l.fieldWhats, l.keptNodes, l.keptItems
	l.schemas, l.keys, l.fieldWhats, l.keptNodes, l.keptItems = nil, nil, nil, nil, nil
	if l.abort {
		return &prebuilt{text: pb.text}
	}
	return pb
}

// takePrebuilt merges pb, the prebuild of the types and messages of the file at root,
// into l and reports true, when it is what building them on l now would give; else
// it changes nothing but the patterns (what the file's build here would add first
// anyway) and reports false.
func (l *loader) takePrebuilt(root *tnode, pb *prebuilt) bool {
	w := pb.w
	if w == nil {
		return false
	}
	ts, ms := root.val("types"), root.val("messages")
	if ts != nil {
		for _, e := range ts.entries {
			if l.types[e.key] != nil {
				return false
			}
		}
	}
	if ms != nil {
		for _, e := range ms.entries {
			if l.msgs[e.key] != nil {
				return false
			}
		}
	}
	// The patterns in the order the build here would have analysed them: each must
	// be analysed and not past the total, as the prebuild assumed.
	for _, p := range pb.pats {
		f := w.patterns[p]
		if g := l.patterns[p]; g != nil {
			if g.err == nil && (!g.analysed || g.overTotal) {
				return false
			}
			continue
		}
		if f.err == nil {
			if l.re2Total > MaxRE2Total || l.re2Total+len(f.pat.RE2) > MaxRE2Total {
				return false
			}
			l.re2Total += len(f.pat.RE2)
		}
		if l.patterns == nil {
			l.patterns = map[string]*patternFacts{}
		}
		l.patterns[p] = f
	}
	l.diags = append(l.diags, w.diags...)
	// The refs of a taken file go in as a segment of their own (refSegs): appended one
	// list to the other, at 10,000 URNs they were 16 MB of copies.
	if len(l.refs) > 0 {
		l.refSegs = append(l.refSegs, l.refs)
		l.refs = nil
	}
	if len(w.refs) > 0 {
		l.refSegs = append(l.refSegs, w.refs)
	}
	maps.Copy(l.exampleNodes, w.exampleNodes)
	maps.Copy(l.enumNodes, w.enumNodes)
	maps.Copy(l.skip, w.skip)
	maps.Copy(l.unsure, w.unsure)
	maps.Copy(l.brokenPos, w.brokenPos)
	maps.Copy(l.lintOf, w.lintOf)
	l.lints = append(l.lints, w.lints...)
	l.nBroken += w.nBroken
	for i, nt := range pb.types {
		l.types[ts.entries[i].key] = nt
		l.reg.Types = append(l.reg.Types, nt)
	}
	for i, m := range pb.msgs {
		l.msgs[ms.entries[i].key] = m
		l.reg.Messages = append(l.reg.Messages, m)
	}
	return true
}

// patternShare holds the analyses of the patterns the prebuilds of one load used,
// computed once each (the merge takes them too), and bounds their RE2 at twice
// MaxRE2Total: past it a prebuild aborts. Workers run ahead of the merge, so they may
// analyse patterns that the merge, past MaxRE2Total, would not: twice the total keeps
// the analyses of a load within a small multiple of the serial bound (docs/hardening.md)
// and leaves room for the patterns of the files ahead. It is safe for concurrent use.
type patternShare struct {
	mu    sync.Mutex
	m     map[string]*patternFacts // nil: past the budget
	spent int                      // bytes of RE2 analysed
}

// analysed returns the analysis of p a prebuild made, or nil.
func (sh *patternShare) analysed(p string) *patternFacts {
	if sh == nil {
		return nil
	}
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if f := sh.m[p]; f != nil && f.analysed {
		return f
	}
	return nil
}

// errAborted stands for the analysis of a pattern past patternShare's budget; the
// prebuild that asked for it is not used.
var errAborted = errors.New("registry: pattern not analysed ahead of the merge")

// facts returns the analysis of p (analysed unless p does not translate), or false
// when the budget is spent.
func (sh *patternShare) facts(p string) (*patternFacts, bool) {
	sh.mu.Lock()
	f, seen := sh.m[p]
	sh.mu.Unlock()
	if seen {
		return f, f != nil // nil: past the budget
	}
	f = &patternFacts{}
	f.pat, f.err = ecmare.Parse(p)
	if f.err == nil {
		sh.mu.Lock()
		over := sh.spent > 2*MaxRE2Total
		if !over {
			sh.spent += len(f.pat.RE2)
		}
		sh.mu.Unlock()
		if over {
			sh.mu.Lock()
			sh.m[p] = nil
			sh.mu.Unlock()
			return nil, false
		}
		f.slow, f.isSlow = slowTree(f.pat.Root)
		f.insts = programSize(f.pat.RE2)
		f.analysed = true
	}
	sh.mu.Lock()
	if g, ok := sh.m[p]; ok && g != nil {
		f = g
	} else {
		sh.m[p] = f
	}
	sh.mu.Unlock()
	return f, true
}
