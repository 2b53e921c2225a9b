package registry

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/babelqueue/bqgen/internal/gonames"
	"github.com/babelqueue/bqgen/internal/model"
)

// pending is a diagnostic with the lint blocks that may silence it.
type pending struct {
	d    Diagnostic
	lint *model.Lint // the message's lint block, or nil
}

type loader struct {
	diags []pending
	reg   *model.Registry
	msgs  map[string]*model.Message
	types map[string]*model.NamedType
	refs  []refUse
	// refSegs holds the refs before those of refs, in order, as segments
	// (takePrebuilt); allRefs is both.
	refSegs  [][]refUse
	fileLint map[string]*model.Lint
	curLint  *model.Lint // lint block of the message being built
	pkgPos   model.Pos
	lints    []*lintBlock // in file order
	lintOf   map[*model.Lint]*lintBlock
	// suggestWork counts the names compared for did-you-mean suggestions: a registry
	// with thousands of unknown names among thousands of candidates would otherwise
	// spend minutes on edit distances. Past maxSuggestWork, diagnostics come without.
	suggestWork int
	// exampleNodes holds the `examples` list of each schema that has one, for hints
	// about how YAML read an invalid example (readingHint).
	exampleNodes map[*model.Schema]*tnode
	// enumNodes holds the YAML node of each enum value of a schema (BQ041 positions).
	enumNodes map[*model.Schema][]*tnode
	// partial is set when a file could not be read at all (a syntax error, a limit):
	// the rules that need every file (unknown types, `supersedes`) do not run.
	partial bool
	// skip holds the schemas built from a field with a format error (isolate): a check
	// of another schema that reaches one (an example, a cycle, uniqueItems) reads it as
	// accepting anything.
	skip skipSet
	// unsure holds, for each of those, the keywords in doubt ("*": all); a rule that
	// reads one of them skips the schema (certain).
	unsure map[*model.Schema]map[string]bool
	// brokenPos holds the positions of broken schemas (and of the keys and type names
	// they belong to), where BQ030 findings would rest on a value that was taken out.
	brokenPos map[model.Pos]bool
	// nBroken counts the broken schemas built so far: a lint block over one cannot
	// tell whether its rules would have found something there (no BQ005).
	nBroken int
	// patterns holds the analysis of each distinct pattern (portable.go): a pattern
	// used by many fields is analysed once.
	patterns map[string]*patternFacts
	re2Total int // bytes of RE2 of the distinct patterns analysed so far
	// fieldWhats holds fieldWhat's text of each JSON key seen: registries repeat their
	// keys across thousands of objects. Each goroutine has its own (inParallel).
	fieldWhats map[string]string
	// schemas and keys are what is left of the slabs newSchema and newKeys cut from.
	schemas []model.Schema
	keys    []model.KeyPos
	// spec is set on a worker's loader that builds a file's types and messages ahead
	// of the merge (prebuild): what depends on the files before it (the budgets of
	// suggestions and of RE2, duplicates) is not known there, so where it matters the
	// loader sets abort (the file is built by the merge instead) or records what it
	// assumed (specPats, checked by takePrebuilt).
	spec, abort bool
	specPats    []string      // the distinct patterns a prebuild used, in order of first use
	share       *patternShare // the analyses of patterns of this load, for prebuilds
	// slab is set while a file whose tree decodeTree built is merged: its nodes are
	// cut from a few slices, so a node kept past the merge (exampleNodes, enumNodes)
	// is copied out (keep), or it would keep the whole tree alive until the end of the
	// load (at 10,000 URNs every tree, 200 MB).
	slab bool
	// keptNodes and keptItems are what is left of keep's slabs.
	keptNodes []tnode
	keptItems []*tnode
}

// keep returns n, or when the tree being merged is a decoded one (loader.slab) a copy
// of the subtree at n in the loader's own memory (keptNodes, keptItems: slabs, as the
// copies live as long as the load).
func (l *loader) keep(n *tnode) *tnode {
	if !l.slab || n == nil {
		return n
	}
	c := l.keptNode()
	*c = *n
	if len(n.entries) > 0 {
		c.entries = make([]tentry, len(n.entries))
		for i, e := range n.entries {
			c.entries[i] = tentry{key: e.key, keyPos: e.keyPos, val: l.keep(e.val)}
		}
	}
	if len(n.items) > 0 {
		if len(n.items) > keySlab/8 {
			c.items = make([]*tnode, len(n.items))
		} else {
			if len(l.keptItems) < len(n.items) {
				l.keptItems = make([]*tnode, keySlab)
			}
			c.items = l.keptItems[:len(n.items):len(n.items)]
			l.keptItems = l.keptItems[len(n.items):]
		}
		for i, it := range n.items {
			c.items[i] = l.keep(it)
		}
	}
	return c
}

// keptNode returns a zero node cut from a slab of keep's.
func (l *loader) keptNode() *tnode {
	if len(l.keptNodes) == 0 {
		l.keptNodes = make([]tnode, schemaSlab)
	}
	c := &l.keptNodes[0]
	l.keptNodes = l.keptNodes[1:]
	return c
}

// keepAll is keep of each of ns, in a new slice when any is copied.
func (l *loader) keepAll(ns []*tnode) []*tnode {
	if !l.slab {
		return ns
	}
	out := make([]*tnode, len(ns))
	for i, n := range ns {
		out[i] = l.keep(n)
	}
	return out
}

// schemaSlab and keySlab are how many schemas and keys newSchema and newKeys allocate
// at a time.
const (
	schemaSlab = 64
	keySlab    = 512
)

// newSchema returns a zero schema, allocated with schemaSlab-1 others: a registry of
// 10,000 URNs builds 300,000 schemas, all kept by the model.
func (l *loader) newSchema() *model.Schema {
	if len(l.schemas) == 0 {
		l.schemas = make([]model.Schema, schemaSlab)
	}
	s := &l.schemas[0]
	l.schemas = l.schemas[1:]
	return s
}

// newKeys returns a slice of n zero keys (of capacity n), cut from a shared slab when
// n is small.
func (l *loader) newKeys(n int) []model.KeyPos {
	if n == 0 || n > keySlab/8 {
		return make([]model.KeyPos, n) // for n == 0 an empty slice, never nil
	}
	if len(l.keys) < n {
		l.keys = make([]model.KeyPos, keySlab)
	}
	k := l.keys[:n:n]
	l.keys = l.keys[n:]
	return k
}

// fieldWhat is `field "name"` (name quoted as Go does), as diagnostics name a property.
func (l *loader) fieldWhat(name string) string {
	if w, ok := l.fieldWhats[name]; ok {
		return w
	}
	if l.fieldWhats == nil {
		l.fieldWhats = map[string]string{}
	}
	w := "field " + strconv.Quote(name)
	l.fieldWhats[name] = w
	return w
}

// skipSet is a set of schemas whose rule checks are skipped; the nil set is empty.
type skipSet map[*model.Schema]bool

// maxSuggestWork bounds the did-you-mean comparisons of one load.
const maxSuggestWork = 50_000

// canSuggest reports whether n more comparisons fit in the budget, and takes them.
func (l *loader) canSuggest(n int) bool {
	if l.spec {
		l.abort = true // the budget left depends on the files before this one
		return false
	}
	if l.suggestWork+n > maxSuggestWork {
		return false
	}
	l.suggestWork += n
	return true
}

type refUse struct {
	s    *model.Schema
	what string
	lint *model.Lint
	pos  model.Pos // of the type name
}

func (l *loader) report(pos model.Pos, rule, msg, hint string, related ...model.Pos) {
	r, _ := ruleByID(rule)
	sev := r.Severity
	if sev == "" {
		sev = SeverityError
	}
	l.diags = append(l.diags, pending{d: Diagnostic{Pos: pos, Severity: sev, Rule: rule, Message: msg, Hint: hint, Related: related}, lint: l.curLint})
}

func (l *loader) hasErrors() bool {
	for _, p := range l.diags {
		if p.d.Severity == SeverityError {
			return true
		}
	}
	return false
}

// load parses, validates and resolves srcs into one registry.
//
// One run reports everything it can (issue 13, item 6). A file that cannot be read
// into a tree (a syntax error, a limit) is reported and left out; every other file is
// merged and checked, also one with format errors: the values those errors are about
// are left out, and the rules skip their checks of the schemas that hold them
// (isolate, validate.go; loader.skip). Problems that leave the tree sound — a
// duplicate key (the first one wins), a non-finite number (left out) — are reported
// and the rules run as usual. When any error stands, no registry is returned.
func load(ctx context.Context, srcs []source, o options) (*model.Registry, Diagnostics, error) {
	var key [32]byte
	if o.cache != nil {
		key = sourcesKey(srcs)
		if o.goNames == nil {
			if last := o.cache.same(key); last != nil {
				return last.reg, append(Diagnostics(nil), last.diags...), nil
			}
		}
	}
	reg, ds, err := loadFresh(ctx, srcs, o)
	if err == nil && o.cache != nil {
		o.cache.remember(key, reg, ds)
	}
	return reg, ds, err
}

// loadFresh is load without the Cache's shortcut for the files of its last load.
func loadFresh(ctx context.Context, srcs []source, o options) (*model.Registry, Diagnostics, error) {
	l := &loader{
		reg:      &model.Registry{Version: 1},
		msgs:     map[string]*model.Message{},
		types:    map[string]*model.NamedType{},
		fileLint: map[string]*model.Lint{},
		lintOf:   map[*model.Lint]*lintBlock{},

		exampleNodes: map[*model.Schema]*tnode{},
		enumNodes:    map[*model.Schema][]*tnode{},
		skip:         skipSet{},
		unsure:       map[*model.Schema]map[string]bool{},
		brokenPos:    map[model.Pos]bool{},
	}
	// A pipeline: GOMAXPROCS workers parse each file (or decode its tree), check it
	// against the format schema and build its types and messages (prebuild.go), while
	// this goroutine merges the files into the model in file order as soon as each is
	// ready (taking the worker's build, or building the file itself where that would
	// differ), then drops its tree. So the
	// serial merge overlaps the parsing, and at most a few files' trees are alive at
	// once (at 10,000 URNs, keeping every tree until the end doubled the live heap
	// and the collector's work).
	type result struct {
		root   *tnode
		pd, fd Diagnostics
		err    error
		taken  bool // root came from o.cache: it is not put back
		slab   bool // root came from the TreeStore (decodeTree), and no Cache keeps it
		pb     *prebuilt
		done   chan struct{}
	}
	memo := &fieldMemo{} // the valid field schemas of this load (validate.go)
	results := make([]result, len(srcs))
	for i := range results {
		results[i].done = make(chan struct{})
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	stop := make(chan struct{}) // closed when this goroutine returns: workers quit
	// ahead bounds how far the workers run ahead of the merge: a slot per file taken
	// by a worker and not yet received here (taking a tree from a Cache is much faster
	// than merging it, and every tree waiting to be merged is alive).
	ahead := make(chan struct{}, 4*runtime.GOMAXPROCS(0))
	defer func() {
		close(stop)
		wg.Wait()
	}()
	share := &patternShare{m: map[string]*patternFacts{}}
	l.share = share
	for w := 0; w < min(runtime.GOMAXPROCS(0), len(srcs)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			wl := &loader{share: share} // this worker's prebuild loader (its slabs last)
			for {
				select {
				case ahead <- struct{}{}:
				case <-stop:
					return
				}
				i := int(next.Add(1) - 1)
				if i >= len(srcs) {
					return
				}
				r := &results[i]
				if !srcs[i].skip && ctx.Err() == nil {
					r.root = o.cache.take(srcs[i].name, srcs[i].data)
					r.taken = r.root != nil
					if r.root == nil {
						r.root = o.lookupTree(srcs[i].name, srcs[i].data)
						// With a Cache the tree outlives the load anyway (put below):
						// copying the nodes the loader keeps would only add to it.
						r.slab = r.root != nil && o.cache == nil
					}
					if r.root == nil {
						r.root, r.pd = parseFile(srcs[i].name, srcs[i].data)
						if r.root != nil {
							r.fd, r.err = validateFormat(r.root, memo)
							if r.err == nil && len(r.pd) == 0 && len(r.fd) == 0 {
								o.storeTree(srcs[i].data, r.root)
							}
						}
					}
					// Not with a Cache (diff, watch): there the trees outlive the
					// load anyway, and on a loaded machine the prebuilds cost diff
					// a tenth more CPU and 30 MiB of RSS for no wall time measured.
					if r.root != nil && r.err == nil && !o.serialBuild && o.cache == nil {
						r.pb = wl.prebuild(r.root, r.slab)
					}
				}
				close(r.done)
			}
		}()
	}
	var ds Diagnostics
	for i, s := range srcs {
		select {
		case <-results[i].done:
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		}
		<-ahead // this goroutine holds at most one tree at a time
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		if s.skip {
			l.partial = true
			continue
		}
		r := &results[i]
		ds = append(ds, r.pd...)
		if r.root == nil {
			// Unreadable (a syntax error, a limit): the other files are still merged
			// and checked, without the rules that need every file (link, supersedes).
			l.partial = true
			continue
		}
		if r.err != nil {
			return nil, nil, r.err
		}
		ds = append(ds, r.fd...)
		// A file with format errors is merged too: isolate (validate.go) took out the
		// values the errors are about and marked the schemas that hold them.
		l.reg.Files = append(l.reg.Files, s.name)
		l.slab = r.slab
		if took := l.file(s.name, r.root, r.pb); r.pb != nil && o.prebuilds != nil {
			if took {
				o.prebuilds[0]++
			} else {
				o.prebuilds[1]++
			}
		}
		l.slab = false
		if r.pb != nil {
			l.diags = append(l.diags, r.pb.text...) // checkText's, run by the worker
		} else {
			checkText(l, r.root)
		}
		r.pb = nil
		if !r.taken && len(r.pd) == 0 && len(r.fd) == 0 {
			o.cache.put(s.data, r.root)
		}
		r.root = nil
	}
	// The merge reported into l.diags; the parse and format diagnostics go first, as
	// they did when every file was parsed before the merge.
	pre := make([]pending, len(ds), len(ds)+len(l.diags))
	for i, d := range ds {
		pre[i] = pending{d: d}
	}
	l.diags = append(pre, l.diags...)
	sort.Slice(l.reg.Types, func(i, j int) bool { return l.reg.Types[i].Name < l.reg.Types[j].Name })
	sort.Slice(l.reg.Messages, func(i, j int) bool { return l.reg.Messages[i].URN < l.reg.Messages[j].URN })
	// Go-name planning reads only what link, cycles and checkRules do not write
	// (names, kinds, properties, enums), so it runs beside them.
	type plan struct {
		names *gonames.Names
		colls []gonames.Collision
	}
	planned := make(chan plan, 1)
	if o.skipGoNames {
		planned <- plan{}
	} else {
		go func() {
			names, colls := l.planGoNames(o.goNames != nil)
			planned <- plan{names, colls}
		}()
	}
	l.link()
	l.cycles()
	checkRules(l)
	p := <-planned
	l.reportGoNames(p.colls)
	ds = l.finish()
	if ds.HasErrors() {
		return nil, tidy(ds), nil
	}
	if o.goNames != nil && len(p.colls) == 0 {
		*o.goNames = p.names
	}
	return l.reg, tidy(ds), nil
}

// planGoNames plans the Go names and finds their collisions (BQ030). Messages whose
// URN is not valid (BQ010–BQ012) are left out: their Go names mean nothing. The
// names are those of the whole registry when every URN is valid, else nil; with
// withNames false only the collisions are found (gonames.Collisions).
func (l *loader) planGoNames(withNames bool) (*gonames.Names, []gonames.Collision) {
	reg := *l.reg
	reg.Messages = nil
	for _, m := range l.reg.Messages {
		if !badURN(m.URN) {
			reg.Messages = append(reg.Messages, m)
		}
	}
	if !withNames {
		return nil, gonames.Collisions(&reg, l.reg.GoPackage)
	}
	names, colls := gonames.Plan(&reg, l.reg.GoPackage)
	if len(reg.Messages) != len(l.reg.Messages) {
		names = nil
	}
	return names, colls
}

// reportGoNames reports the collisions planGoNames found (BQ030), and the package
// directories the go tool refuses in an import path (BQ053).
func (l *loader) reportGoNames(colls []gonames.Collision) {
	l.curLint = nil
	if pkg := l.reg.GoPackage; pkg != "" {
		// The root package's name: generate would refuse it (gonames.CheckPackage).
		if err := gonames.CheckPackage(pkg); err != nil {
			l.report(l.pkgPos, RuleGoName, fmt.Sprintf("go.package %q cannot be the Go package name: it is %v", pkg, err),
				"choose another go.package, such as "+pkg+"events")
		}
	}
	for _, c := range colls {
		if l.brokenPos[c.Pos] || (c.Other.IsValid() && l.brokenPos[c.Other]) {
			continue // one side is a schema with a format error: its go names were taken out
		}
		msg := c.Message()
		var rel []model.Pos
		if c.Other.IsValid() {
			rel = []model.Pos{c.Other}
		}
		rule := RuleGoName
		if c.ImportPath {
			rule = RuleImportPath
		}
		l.report(c.Pos, rule, msg, c.Hint, rel...)
	}
}

// lintBlock is one `lint:` block with what finish needs to report unused ignores.
type lintBlock struct {
	lt    *model.Lint
	pos   []model.Pos // of each id in lt.Ignore
	scope string      // "message \"urn…\"" or "this file"
	used  map[string]bool
	// unsure: the scope holds a schema with a format error, whose rules did not run,
	// so an ignore that silences nothing may still have had something to silence.
	unsure bool
}

// silenceable reports whether a `lint: {ignore: …}` block may silence rule (see
// Rule.Silenceable).
func silenceable(rule string) bool {
	r, ok := ruleByID(rule)
	return ok && r.Silenceable
}

func lintHas(lt *model.Lint, rule string) bool {
	if lt == nil {
		return false
	}
	for _, id := range lt.Ignore {
		if id == rule {
			return true
		}
	}
	return false
}

// finish applies lint blocks, reports ignores that silence nothing (BQ005), removes
// duplicates (aliases share nodes) and sorts.
func (l *loader) finish() Diagnostics {
	var ds Diagnostics
	seen := map[string]bool{}
	for _, p := range l.diags {
		if silenceable(p.d.Rule) {
			hit := false
			for _, lt := range []*model.Lint{p.lint, l.fileLint[p.d.Pos.File]} {
				if lintHas(lt, p.d.Rule) {
					hit = true
					if b := l.lintOf[lt]; b != nil {
						b.used[p.d.Rule] = true
					}
				}
			}
			if hit {
				continue
			}
		}
		k := p.d.String()
		if seen[k] {
			continue
		}
		seen[k] = true
		ds = append(ds, p.d)
	}
	for _, b := range l.lints {
		for i, id := range b.lt.Ignore {
			r, ok := ruleByID(id)
			var msg, hint string
			switch {
			case !ok:
				msg = fmt.Sprintf("lint of %s ignores %s, which is not a rule", b.scope, id)
				hint = "remove " + id + " from `ignore`; the rule ids are listed in docs/rules.md"
			case !r.Silenceable:
				msg = fmt.Sprintf("lint of %s ignores %s, which cannot be silenced (%s)", b.scope, id, r.Title)
				hint = "remove " + id + " from `ignore` and fix the finding"
			case !b.used[id] && !b.unsure:
				msg = fmt.Sprintf("lint of %s ignores %s, but %s finds nothing there to silence", b.scope, id, id)
				hint = "remove " + id + " from `ignore` (and the lint block when nothing is left)"
			default:
				continue
			}
			ds = append(ds, Diagnostic{Pos: b.pos[i], Severity: SeverityWarning, Rule: RuleLintUnused, Message: msg, Hint: hint})
		}
	}
	ds.Sort()
	return ds
}

// file merges one validated file into the registry. pb, when not nil, is what a
// worker built of the file's types and messages ahead of the merge (prebuild): it is
// taken when it is what building them here would give (takePrebuilt), else they are
// built here.
// It reports whether it took pb.
func (l *loader) file(name string, root *tnode, pb *prebuilt) bool {
	before := l.nBroken
	defer func() {
		if lt := l.fileLint[name]; lt != nil && l.nBroken > before {
			l.lintOf[lt].unsure = true
		}
	}()
	if v := root.val("consumers"); v != nil {
		for _, it := range v.items {
			if !l.reg.HasConsumer(it.str) {
				l.reg.Consumers = append(l.reg.Consumers, it.str)
			}
		}
	}
	if g := root.val("go"); g != nil {
		if e := g.get("package"); e != nil {
			switch {
			case l.reg.GoPackage == "":
				l.reg.GoPackage, l.pkgPos = e.val.str, e.val.pos
			case l.reg.GoPackage != e.val.str:
				l.report(e.val.pos, RuleFormat, fmt.Sprintf("go.package %q disagrees with go.package %q at %s", e.val.str, l.reg.GoPackage, l.pkgPos),
					"use one Go package name in every file of the registry (or set it in one file only)", l.pkgPos)
			}
		}
		if cs := g.val("contexts"); cs != nil {
			for _, e := range cs.entries {
				if prev, ok := l.reg.GoContexts[e.key]; ok {
					if prev.Name != e.val.str {
						l.report(e.val.pos, RuleFormat, fmt.Sprintf("go.contexts names bounded context %q %q, but %s names it %q", e.key, e.val.str, prev.Pos, prev.Name),
							"give each bounded context one Go package name in the whole registry", prev.Pos)
					}
					continue
				}
				if l.reg.GoContexts == nil {
					l.reg.GoContexts = map[string]model.GoContext{}
				}
				l.reg.GoContexts[e.key] = model.GoContext{Name: e.val.str, Pos: e.val.pos}
			}
		}
	}
	if e := root.get("lint"); e != nil {
		lt := l.buildLint(e, "this file")
		l.fileLint[name] = lt
		l.reg.Lints = append(l.reg.Lints, lt)
	}
	if pb != nil && l.takePrebuilt(root, pb) {
		l.curLint = nil
		return true
	}
	if ts := root.val("types"); ts != nil {
		for _, e := range ts.entries {
			if prev := l.types[e.key]; prev != nil {
				l.report(e.keyPos, RuleDuplicate, fmt.Sprintf("type %q is defined twice (first at %s)", e.key, prev.Pos),
					"keep one definition of the type", prev.Pos)
				continue
			}
			nt := l.namedType(e)
			l.types[e.key] = nt
			l.reg.Types = append(l.reg.Types, nt)
		}
	}
	if ms := root.val("messages"); ms != nil {
		for _, e := range ms.entries {
			if prev := l.msgs[e.key]; prev != nil {
				l.curLint = nil
				l.report(e.keyPos, RuleDuplicate, fmt.Sprintf("URN %q is defined twice (first at %s)", e.key, prev.Pos),
					"a URN is defined once; an incompatible change mints "+e.key+".v2", prev.Pos)
				continue
			}
			m := l.message(e)
			l.msgs[e.key] = m
			l.reg.Messages = append(l.reg.Messages, m)
		}
	}
	l.curLint = nil
	return false
}

// namedType builds the named type of the entry e of `types`.
func (l *loader) namedType(e tentry) *model.NamedType {
	nt := &model.NamedType{Name: e.key, Pos: e.keyPos}
	l.curLint = nil
	nt.Schema = l.schema(e.val, fmt.Sprintf("type %q", e.key), false)
	if l.skip[nt.Schema] {
		l.brokenPos[nt.Pos] = true
	}
	return nt
}

func (l *loader) buildLint(e *tentry, scope string) *model.Lint {
	lt := &model.Lint{Pos: e.keyPos}
	b := &lintBlock{lt: lt, scope: scope, used: map[string]bool{}}
	if ig := e.val.val("ignore"); ig != nil {
		for _, it := range ig.items {
			lt.Ignore = append(lt.Ignore, it.str)
			b.pos = append(b.pos, it.pos)
		}
	}
	lt.Reason = strVal(e.val.val("reason"))
	l.lints = append(l.lints, b)
	l.lintOf[lt] = b
	return lt
}

func (l *loader) message(e tentry) *model.Message {
	n := e.val
	m := &model.Message{URN: e.key, Kind: model.Event, Pos: e.keyPos}
	if le := n.get("lint"); le != nil {
		m.Lint = l.buildLint(le, fmt.Sprintf("message %q", e.key))
	}
	l.curLint = m.Lint
	if v := n.val("kind"); v != nil {
		m.Kind = model.MessageKind(v.str)
	}
	m.Summary = strVal(n.val("summary"))
	m.Description = strVal(n.val("description"))
	m.Owner = strVal(n.val("owner"))
	m.Queue = strVal(n.val("queue"))
	if m.Queue == "" {
		m.Queue = model.URNContext(m.URN)
	}
	m.Deprecation = deprecation(n.val("deprecated"))
	l.boolWord(n.val("deprecated"), "deprecated")
	m.Supersedes = strVal(n.val("supersedes"))
	if sv := n.val("supersedes"); sv != nil {
		m.SupersedesPos = sv.pos
	}
	before := l.nBroken
	m.Data = l.schema(n.val("data"), fmt.Sprintf("the data of message %q", e.key), true)
	if g := n.val("go"); g != nil {
		m.GoName = strVal(g.val("name"))
	}
	if m.Data.Pos == (model.Pos{}) {
		m.Data.Pos = e.keyPos // no data (BQ002 reports it)
	}
	if l.nBroken > before && m.Lint != nil {
		l.lintOf[m.Lint].unsure = true
	}
	return m
}

func strVal(n *tnode) string {
	if n == nil || n.kind != tStr {
		return ""
	}
	return n.str
}

// boolWord reports a plain yes/no/on/off word where key takes true, false or a text
// (deprecated, x-gdpr-sensitive): YAML 1.2 reads the word as the text, YAML 1.1 tools
// as a boolean, which the author likely meant (BQ040).
func (l *loader) boolWord(n *tnode, key string) {
	if n == nil || !n.plain || n.kind != tStr {
		return
	}
	r, ok := yaml11Reading(n.str)
	if !ok || r.kind != "boolean" {
		return
	}
	l.report(n.pos, RuleYAML11, fmt.Sprintf("%s: %s is the text %q in YAML 1.2; YAML 1.1 tools read it as %s", key, n.str, n.str, r.value),
		fmt.Sprintf("write %s: %s for the flag, or quote %q if it is the text", key, r.value, n.str))
}

func deprecation(n *tnode) *model.Deprecation {
	if n == nil {
		return nil
	}
	switch n.kind {
	case tStr:
		return &model.Deprecation{Reason: n.str}
	case tBool:
		if n.b {
			return &model.Deprecation{}
		}
	}
	return nil
}

// Keywords that apply to each kind, beyond the common ones.
var (
	commonKeys = map[string]bool{"type": true, "description": true, "nullable": true, "deprecated": true,
		"examples": true, "x-gdpr-sensitive": true, "go": true}
	kindKeys = map[model.Kind][]string{
		model.String:  {"minLength", "maxLength", "pattern", "enum", "format"},
		model.Integer: {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "enum", "format", "encoding"},
		model.Number:  {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "enum"},
		model.Boolean: {"enum"},
		model.Object:  {"properties", "required", "additionalProperties"},
		model.Array:   {"items", "minItems", "maxItems", "uniqueItems"},
		model.Map:     {"values"},
	}
	builtinKinds = map[string]model.Kind{"string": model.String, "integer": model.Integer, "number": model.Number,
		"boolean": model.Boolean, "object": model.Object, "array": model.Array, "map": model.Map,
		"money": model.Money, "timestamp": model.Timestamp, "uuid": model.UUID}
)

// KindKeywords returns, for each built-in type name that has keywords of its own
// (string, integer, number, boolean, object, array, map), the schema keywords that
// apply to it beyond the common ones (type, description, nullable, deprecated,
// examples, x-gdpr-sensitive, go): the table the loader checks keys against. The
// maps and slices are new on each call. Generators of test registries
// (internal/synth) hold themselves to it, so that a keyword added here is covered.
func KindKeywords() map[string][]string {
	out := map[string][]string{}
	for _, b := range builtins {
		if ks := kindKeys[builtinKinds[b]]; len(ks) > 0 {
			out[b] = append([]string(nil), ks...)
		}
	}
	return out
}

// keyKinds lists the kinds a keyword applies to, for hints.
func keyKinds(key string) []string {
	var out []string
	for _, b := range builtins {
		for _, k := range kindKeys[builtinKinds[b]] {
			if k == key {
				out = append(out, b)
			}
		}
	}
	return out
}

// ratOf is the exact value of the number literal n (0 when it is not one).
func ratOf(n json.Number) *big.Rat {
	if i, err := strconv.ParseInt(string(n), 10, 64); err == nil {
		return new(big.Rat).SetInt64(i) // the common case, without big.Rat's parser
	}
	r, ok := new(big.Rat).SetString(string(n))
	if !ok {
		return new(big.Rat)
	}
	return r
}

var (
	minInt64 = new(big.Rat).SetInt64(math.MinInt64)
	maxInt64 = new(big.Rat).SetInt64(math.MaxInt64)
	minInt32 = new(big.Rat).SetInt64(math.MinInt32)
	maxInt32 = new(big.Rat).SetInt64(math.MaxInt32)
)

// schema builds the schema at n (validated by the format schema) and checks what the
// format schema cannot.
func (l *loader) schema(n *tnode, what string, isData bool) *model.Schema {
	if n == nil || n.kind != tMap || n.unsure["*"] || (n.unsure["type"] && !isData) {
		// No schema to build (a format error says why): one that accepts anything,
		// checked by no rule.
		s := &model.Schema{Kind: model.Ref, AdditionalProperties: true}
		if n != nil {
			s.Pos = n.pos
		}
		l.markBroken(s)
		return s
	}
	s := l.newSchema()
	s.Pos, s.AdditionalProperties, s.Keys = n.pos, true, l.newKeys(len(n.entries))
	if n.unsure != nil {
		l.markBroken(s)
		l.unsure[s] = n.unsure
	}
	for i, e := range n.entries {
		s.Keys[i] = model.KeyPos{Key: e.key, Pos: e.keyPos}
	}
	typ := strVal(n.val("type"))
	if isData {
		typ = "object"
	}
	if k, ok := builtinKinds[typ]; ok {
		s.Kind = k
	} else {
		s.Kind, s.Ref = model.Ref, typ
		pos := n.pos
		if v := n.val("type"); v != nil {
			pos = v.pos
		}
		l.refs = append(l.refs, refUse{s: s, what: what, lint: l.curLint, pos: pos})
	}
	// Keywords that do not apply to the type.
	for _, e := range n.entries {
		if commonKeys[e.key] {
			continue
		}
		ok := false
		for _, k := range kindKeys[s.Kind] {
			if k == e.key {
				ok = true
			}
		}
		if ok {
			continue
		}
		tname := typ
		if s.Kind == model.Ref {
			tname = "named type " + typ
		}
		hint := fmt.Sprintf("remove %q", e.key)
		if ks := keyKinds(e.key); len(ks) > 0 {
			hint = fmt.Sprintf("%q applies to %s only; remove it", e.key, strings.Join(ks, ", "))
			if s.Kind == model.Ref {
				hint += fmt.Sprintf(", or set it on type %q itself", typ)
			}
		}
		l.report(e.keyPos, RuleFormat, fmt.Sprintf("%q does not apply to %s (%s)", e.key, what, tname), hint)
	}
	s.Description = strVal(n.val("description"))
	if v := n.val("nullable"); v != nil {
		s.Nullable = v.b
	}
	s.Deprecation = deprecation(n.val("deprecated"))
	l.boolWord(n.val("deprecated"), "deprecated")
	l.boolWord(n.val("x-gdpr-sensitive"), "x-gdpr-sensitive")
	if v := n.val("x-gdpr-sensitive"); v != nil {
		switch {
		case v.kind == tStr:
			s.GDPR = v.str
		case v.kind == tBool && v.b:
			s.GDPR = "true"
		}
	}
	if v := n.val("examples"); v != nil {
		l.exampleNodes[s] = l.keep(v)
		s.Examples = []any{}
		for _, it := range v.items {
			s.Examples = append(s.Examples, plainValue(it))
		}
	}
	if g := n.get("go"); g != nil && isData {
		l.report(g.keyPos, RuleFormat, fmt.Sprintf("go on %s has no effect", what),
			"set the Go name of the message's data type on the message itself, beside `data:`: `go: {name: …}`")
	} else if g != nil {
		s.GoName = strVal(g.val.val("name"))
	}

	switch s.Kind {
	case model.String:
		s.MinLength = l.count(n, "minLength", what)
		s.MaxLength = l.count(n, "maxLength", what)
		l.minMaxCount(n, "minLength", "maxLength", s.MinLength, s.MaxLength, what)
		if e := n.get("pattern"); e != nil {
			s.Pattern = e.val.str
			checkPattern(l, e, what)
		}
		if e := n.get("format"); e != nil {
			s.Format = e.val.str
			if s.Format == "int32" {
				l.report(e.val.pos, RuleFormat, fmt.Sprintf("format int32 does not apply to %s (string)", what),
					"string formats are uuid, email, uri, date, date-time; int32 is for integers")
				s.Format = ""
			}
			l.formatLength(n, s, what)
		}
	case model.Integer:
		if e := n.get("format"); e != nil {
			if e.val.str != "int32" {
				l.report(e.val.pos, RuleFormat, fmt.Sprintf("format %s does not apply to %s (integer)", e.val.str, what),
					"the only integer format is int32")
			} else {
				s.IntFormat = "int32"
			}
		}
		if e := n.get("encoding"); e != nil {
			s.Encoding = e.val.str
		}
		s.Minimum = l.intBound(n, "minimum", s.IntFormat, what)
		s.Maximum = l.intBound(n, "maximum", s.IntFormat, what)
		s.ExclusiveMinimum = l.intBound(n, "exclusiveMinimum", s.IntFormat, what)
		s.ExclusiveMaximum = l.intBound(n, "exclusiveMaximum", s.IntFormat, what)
		l.emptyRange(n, what, true)
	case model.Number:
		s.Minimum = numBound(n, "minimum")
		s.Maximum = numBound(n, "maximum")
		s.ExclusiveMinimum = numBound(n, "exclusiveMinimum")
		s.ExclusiveMaximum = numBound(n, "exclusiveMaximum")
		l.emptyRange(n, what, false)
	case model.Object:
		var byName map[string]*model.Property // past smallKeySet properties; else a scan
		if pe := n.get("properties"); pe != nil {
			ps := pe.val
			if len(ps.entries) > MaxProperties {
				l.report(pe.keyPos, RuleLimit, fmt.Sprintf("%s declares %d properties; the limit is %d per object", what, len(ps.entries), MaxProperties),
					"group related fields into nested objects or named types (`types:`)")
				return s
			}
			props := make([]model.Property, len(ps.entries)) // one allocation for all
			if len(ps.entries) > 0 {
				s.Properties = make([]*model.Property, 0, len(ps.entries))
			}
			if len(ps.entries) > smallKeySet {
				byName = make(map[string]*model.Property, len(ps.entries))
			}
			for i, e := range ps.entries {
				p := &props[i]
				p.Name, p.Pos = e.key, e.keyPos
				p.Schema = l.schema(e.val, l.fieldWhat(e.key), false)
				if l.skip[p.Schema] {
					l.brokenPos[p.Pos] = true
				}
				s.Properties = append(s.Properties, p)
				if byName != nil {
					byName[e.key] = p
				}
			}
		}
		if req := n.val("required"); req != nil {
			var names []string
			for i, it := range req.items {
				var p *model.Property
				if byName != nil {
					p = byName[it.str]
				} else {
					for _, q := range s.Properties {
						if q.Name == it.str {
							p = q
							break
						}
					}
				}
				if p == nil && n.unsure["properties"] {
					continue // the properties were left out (their format error is reported)
				}
				if p == nil {
					if names == nil {
						names = make([]string, 0, len(s.Properties))
						for _, p := range s.Properties {
							names = append(names, p.Name)
						}
					}
					msg := fmt.Sprintf("required names %q, which is not a property of %s", it.str, what)
					if l.canSuggest(len(names)) {
						if sug := suggest(it.str, names); sug != "" {
							msg += fmt.Sprintf("; did you mean %q?", sug)
						}
					}
					l.report(it.pos, RuleFormat, msg, "add the property under `properties:`, or remove it from `required`")
					continue
				}
				if !p.Required {
					p.Required, p.RequiredIndex = true, int32(i+1) // the author's order of required:
				}
			}
		}
		if v := n.val("additionalProperties"); v != nil {
			s.AdditionalProperties = v.b
		}
	case model.Array:
		if e := n.get("items"); e != nil {
			s.Items = l.schema(e.val, "the items of "+what, false)
			l.elemGoName(e.val, s.Items, "the items of "+what)
		} else {
			l.report(keyOrPos(n, "type"), RuleFormat, fmt.Sprintf("%s is an array without \"items\"", what),
				"add `items:` with the schema of every item")
		}
		s.MinItems = l.count(n, "minItems", what)
		s.MaxItems = l.count(n, "maxItems", what)
		l.minMaxCount(n, "minItems", "maxItems", s.MinItems, s.MaxItems, what)
		if v := n.val("uniqueItems"); v != nil {
			s.UniqueItems = v.b
		}
	case model.Map:
		if e := n.get("values"); e != nil {
			s.Values = l.schema(e.val, "the values of "+what, false)
			l.elemGoName(e.val, s.Values, "the values of "+what)
		} else {
			l.report(keyOrPos(n, "type"), RuleFormat, fmt.Sprintf("%s is a map without \"values\"", what),
				"add `values:` with the schema of every value")
		}
	}
	if e := n.get("enum"); e != nil && len(kindKeys[s.Kind]) > 0 && contains(kindKeys[s.Kind], "enum") {
		s.Enum = l.enum(e, s, what)
	}
	if g := n.val("go"); g != nil {
		if ge := g.get("enum"); ge != nil {
			if s.Enum == nil && n.unsure["enum"] {
				// the enum was left out (its format error is reported)
			} else if s.Enum == nil {
				l.report(ge.keyPos, RuleFormat, fmt.Sprintf("go.enum on %s, which has no enum", what), "remove go.enum, or add `enum:`")
			} else {
				s.GoEnumNames = map[string]string{}
				for _, ne := range ge.val.entries {
					found := false
					for _, v := range s.Enum {
						if gonames.EnumText(v) == ne.key {
							found = true
						}
					}
					if !found {
						l.report(ne.keyPos, RuleFormat, fmt.Sprintf("go.enum names %q, which is not an enum value of %s", ne.key, what),
							"use the enum value's JSON text as the key")
						continue
					}
					s.GoEnumNames[ne.key] = ne.val.str
				}
			}
		}
	}
	return s
}

// elemGoName reports a `go.name` on array items or map values n (built as s)
// that declare no Go type: the name would have no effect.
func (l *loader) elemGoName(n *tnode, s *model.Schema, what string) {
	if s == nil || s.GoName == "" || s.Kind == model.Object || len(s.Enum) > 0 {
		return
	}
	pos := n.pos
	if g := n.val("go"); g != nil {
		pos = keyOrPos(g, "name")
	}
	l.report(pos, RuleFormat, fmt.Sprintf("go.name on %s has no effect: they declare no Go type", what),
		"remove go.name; it names the Go type of items or values that are an object or an enum")
}

// article is "a" or "an" for word.
func article(word string) string {
	if word != "" && strings.ContainsRune("aeiou", rune(word[0])) {
		return "an"
	}
	return "a"
}

// certain reports whether no format error leaves any of keys of schema s in doubt
// (with no keys: any keyword); "type" is always among them.
func (l *loader) certain(s *model.Schema, keys ...string) bool {
	u := l.unsure[s]
	if u == nil {
		return !l.skip[s]
	}
	if len(keys) == 0 || u["*"] || u["type"] {
		return false
	}
	for _, k := range keys {
		if u[k] {
			return false
		}
	}
	return true
}

// markBroken records that s was built from a field with a format error: checks of
// other schemas that reach it read it as accepting anything, and BQ030 findings at
// its position are not reported.
func (l *loader) markBroken(s *model.Schema) {
	l.skip[s] = true
	l.nBroken++
	l.brokenPos[s.Pos] = true
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if x == y {
			return true
		}
	}
	return false
}

func keyOrPos(n *tnode, key string) model.Pos {
	if e := n.get(key); e != nil {
		return e.keyPos
	}
	return n.pos
}

// plainValue converts an example to the model's JSON values.
func plainValue(n *tnode) any {
	switch n.kind {
	case tBool:
		return n.b
	case tNum:
		if i, err := strconv.ParseInt(string(n.num), 10, 64); err == nil {
			return i
		}
		f := floatOf(n.num)
		return f
	case tStr:
		return n.str
	case tSeq:
		a := make([]any, 0, len(n.items))
		for _, it := range n.items {
			a = append(a, plainValue(it))
		}
		return a
	case tMap:
		m := make(map[string]any, len(n.entries))
		for _, e := range n.entries {
			m[e.key] = plainValue(e.val)
		}
		return m
	}
	return nil
}

// count reads a non-negative integer keyword (lengths, item counts).
func (l *loader) count(n *tnode, key, what string) *int64 {
	v := n.val(key)
	if v == nil {
		return nil
	}
	i, err := strconv.ParseInt(string(v.num), 10, 64)
	if err != nil {
		l.report(v.pos, RuleIntRange, fmt.Sprintf("%s %s of %s is too large", key, shown(v), what), "use a value within int64")
		return nil
	}
	return &i
}

func (l *loader) minMaxCount(n *tnode, lo, hi string, a, b *int64, what string) {
	if a != nil && b != nil && *a > *b {
		l.report(n.get(lo).keyPos, RuleFormat, fmt.Sprintf("%s %d of %s is greater than %s %d: no value can match", lo, *a, what, hi, *b),
			"swap or fix the bounds", n.get(hi).keyPos)
	}
}

// formatLengths are the shortest and longest values of each asserted format, in
// characters (-1: no longest), as the emitted schemas narrow them.
var formatLengths = map[string][2]int64{"uuid": {36, 36}, "date": {10, 10}, "date-time": {20, -1},
	"email": {5, 254}, "uri": {3, -1}}

// formatLength reports a minLength or maxLength that leaves no value of the string
// field's format (`format: date, maxLength: 8`): an impossible constraint (BQ002).
func (l *loader) formatLength(n *tnode, s *model.Schema, what string) {
	r, ok := formatLengths[s.Format]
	if !ok {
		return
	}
	switch {
	case s.MaxLength != nil && *s.MaxLength < r[0]:
		l.report(n.get("maxLength").keyPos, RuleFormat, fmt.Sprintf("maxLength %d of %s leaves no valid value: format %s needs at least %d characters", *s.MaxLength, what, s.Format, r[0]),
			fmt.Sprintf("raise maxLength to %d or more, or drop it", r[0]), n.get("format").keyPos)
	case s.MinLength != nil && r[1] >= 0 && *s.MinLength > r[1]:
		l.report(n.get("minLength").keyPos, RuleFormat, fmt.Sprintf("minLength %d of %s leaves no valid value: format %s allows at most %d characters", *s.MinLength, what, s.Format, r[1]),
			fmt.Sprintf("lower minLength to %d or less, or drop it", r[1]), n.get("format").keyPos)
	}
}

// intBound reads an integer bound, which must be an integer within int64 (int32 for
// format int32): BQ021.
func (l *loader) intBound(n *tnode, key, format, what string) *model.Bound {
	v := n.val(key)
	if v == nil {
		return nil
	}
	if i, err := strconv.ParseInt(string(v.num), 10, 64); err == nil && (format != "int32" || i == int64(int32(i))) {
		return &model.Bound{IsInt: true, I: i} // the common case, without big.Rat
	}
	r := ratOf(v.num)
	if !r.IsInt() {
		l.report(v.pos, RuleIntRange, fmt.Sprintf("%s %s of integer %s is not an integer", key, shown(v), what),
			"use an integer bound, or make the field a number")
		return nil
	}
	lo, hi, rng := minInt64, maxInt64, "int64"
	if format == "int32" {
		lo, hi, rng = minInt32, maxInt32, "int32"
	}
	if r.Cmp(lo) < 0 || r.Cmp(hi) > 0 {
		l.report(v.pos, RuleIntRange, fmt.Sprintf("%s %s of %s lies outside %s [%s, %s]", key, shown(v), what, rng, lo.RatString(), hi.RatString()),
			"use a bound within the integer's range, or leave it out")
		return nil
	}
	return &model.Bound{IsInt: true, I: r.Num().Int64()}
}

func numBound(n *tnode, key string) *model.Bound {
	v := n.val(key)
	if v == nil {
		return nil
	}
	return &model.Bound{F: floatOf(v.num)}
}

// emptyRange reports bounds that no value satisfies.
func (l *loader) emptyRange(n *tnode, what string, integer bool) {
	type b struct {
		key  string
		v    *tnode // nil: not written
		i    int64
		r    *big.Rat // nil when the bound is the integer i (the common case)
		excl bool
	}
	get := func(key string, excl bool) b {
		v := n.val(key)
		if v == nil {
			return b{}
		}
		if i, err := strconv.ParseInt(string(v.num), 10, 64); err == nil {
			return b{key: key, v: v, i: i, excl: excl}
		}
		return b{key: key, v: v, r: ratOf(v.num), excl: excl}
	}
	rat := func(x b) *big.Rat {
		if x.r == nil {
			return new(big.Rat).SetInt64(x.i)
		}
		return x.r
	}
	los := [2]b{get("minimum", false), get("exclusiveMinimum", true)}
	if los[0].v == nil && los[1].v == nil {
		return
	}
	his := [2]b{get("maximum", false), get("exclusiveMaximum", true)}
	for _, lo := range los {
		for _, hi := range his {
			if lo.v == nil || hi.v == nil {
				continue
			}
			var empty bool
			if lo.r == nil && hi.r == nil {
				empty = lo.i > hi.i || (lo.i == hi.i && (lo.excl || hi.excl))
				if integer && !empty && lo.excl && hi.excl {
					empty = hi.i <= lo.i+1 // lo < hi: lo+1 does not overflow
				}
			} else {
				c := rat(lo).Cmp(rat(hi))
				empty = c > 0 || (c == 0 && (lo.excl || hi.excl))
				if integer && !empty && lo.excl && hi.excl {
					diff := new(big.Rat).Sub(rat(hi), rat(lo))
					empty = diff.Cmp(big.NewRat(1, 1)) <= 0
				}
			}
			if empty {
				l.report(n.get(lo.key).keyPos, RuleFormat, fmt.Sprintf("%s %s and %s %s of %s leave no valid value", lo.key, shown(lo.v), hi.key, shown(hi.v), what),
					"fix the bounds so that the lower one is below the upper one", n.get(hi.key).keyPos)
			}
		}
	}
}

// floatOf is the double nearest the number literal n (0 when it is not one), as
// ratOf(n).Float64() gives it.
func floatOf(n json.Number) float64 {
	if i, err := strconv.ParseInt(string(n), 10, 64); err == nil {
		return float64(i) // rounded to nearest, ties to even, as big.Rat's Float64
	}
	f, _ := ratOf(n).Float64()
	return f
}

// enum checks and converts enum values to the model's types.
func (l *loader) enum(e *tentry, s *model.Schema, what string) []any {
	var out []any
	var nodes []*tnode // the node of each value of out, for BQ041
	for _, it := range e.val.items {
		bad := ""
		switch s.Kind {
		case model.String:
			if it.kind == tStr {
				out = append(out, it.str)
				nodes = append(nodes, it)
				continue
			}
			bad = "a string"
		case model.Integer:
			if it.kind == tNum {
				if i, err := strconv.ParseInt(string(it.num), 10, 64); err == nil && (s.IntFormat != "int32" || i == int64(int32(i))) {
					out = append(out, i) // the common case, without big.Rat
					nodes = append(nodes, it)
					continue
				}
				r := ratOf(it.num)
				lo, hi := minInt64, maxInt64
				if s.IntFormat == "int32" {
					lo, hi = minInt32, maxInt32
				}
				if r.IsInt() && r.Cmp(lo) >= 0 && r.Cmp(hi) <= 0 {
					out = append(out, r.Num().Int64())
					nodes = append(nodes, it)
					continue
				}
				if r.IsInt() {
					l.report(it.pos, RuleIntRange, fmt.Sprintf("enum value %s of %s lies outside the integer's range", shown(it), what),
						"use values within the integer's range")
					continue
				}
			}
			bad = "an integer"
		case model.Number:
			if it.kind == tNum {
				f := floatOf(it.num)
				out = append(out, f)
				nodes = append(nodes, it)
				continue
			}
			bad = "a number"
		case model.Boolean:
			if it.kind == tBool {
				out = append(out, it.b)
				nodes = append(nodes, it)
				continue
			}
			l.report(it.pos, RuleBoolean, fmt.Sprintf("enum value %s of boolean %s is not true or false", shown(it), what),
				joinHint("a boolean is JSON true or false, never 0/1 or \"yes\"/\"no\"; write `enum: [true]` or drop the enum", readingHint(it, "boolean")))
			continue
		}
		want := map[string]string{"a string": "string", "an integer": "integer", "a number": "number"}[bad]
		l.report(it.pos, RuleFormat, fmt.Sprintf("enum value %s of %s is not %s", shown(it), what, bad),
			joinHint(fmt.Sprintf("every enum value of %s %s field must be %s", article(string(s.Kind)), s.Kind, bad), readingHint(it, want)))
	}
	l.enumNodes[s] = l.keepAll(nodes)
	if len(nodes) > 0 {
		s.EnumPos = make([]model.Pos, len(nodes))
		for i, it := range nodes {
			s.EnumPos[i] = it.pos
		}
	}
	return out
}

// allRefs yields refSegs then refs, in order.
func (l *loader) allRefs() func(yield func(int, refUse) bool) {
	return func(yield func(int, refUse) bool) {
		i := 0
		for _, seg := range l.refSegs {
			for _, u := range seg {
				if !yield(i, u) {
					return
				}
				i++
			}
		}
		for _, u := range l.refs {
			if !yield(i, u) {
				return
			}
			i++
		}
	}
}

// link resolves every `type: Name` use to its named type (BQ033).
func (l *loader) link() {
	names := make([]string, 0, len(l.types))
	for n := range l.types {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, u := range l.allRefs() {
		if nt := l.types[u.s.Ref]; nt != nil {
			u.s.Named = nt
			continue
		}
		if l.partial {
			continue // the type may be declared in the file that could not be read
		}
		l.curLint = u.lint
		msg := fmt.Sprintf("unknown type %q in %s", u.s.Ref, u.what)
		if b := builtinAlias(u.s.Ref); b != "" {
			l.report(u.pos, RuleNamedType, msg+fmt.Sprintf("; did you mean the built-in type %q?", b),
				fmt.Sprintf("write `type: %s` (built-in type names are lower case)", b))
			continue
		}
		var close []string
		if l.canSuggest(len(names)) {
			close = closest(u.s.Ref, names, 3)
		}
		if len(close) > 0 {
			msg += fmt.Sprintf("; did you mean %q?", close[0])
		}
		hint := "declare it under `types:`"
		if len(close) > 0 {
			hint += "; closest known types: " + strings.Join(close, ", ")
		} else if len(names) > 0 {
			hint += "; known types: " + strings.Join(names[:min(len(names), 5)], ", ")
		}
		l.report(u.pos, RuleNamedType, msg, hint)
	}
	l.curLint = nil
}

// closest returns up to k names ordered by edit distance to s (ties by name).
func closest(s string, names []string, k int) []string {
	type c struct {
		n string
		d int
	}
	var cs []c
	for _, n := range names {
		d := editDistance(strings.ToLower(s), strings.ToLower(n))
		if d <= max(2, len(s)/2) {
			cs = append(cs, c{n, d})
		}
	}
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].d != cs[j].d {
			return cs[i].d < cs[j].d
		}
		return cs[i].n < cs[j].n
	})
	var out []string
	for i := 0; i < len(cs) && i < k; i++ {
		out = append(out, cs[i].n)
	}
	return out
}

type edge struct {
	to   string
	path string // Type.prop.sub
}

// cycles reports named types that can only be infinite: a chain of required,
// non-nullable object properties (or direct aliases) leading back to the type (BQ033).
func (l *loader) cycles() {
	aliased := l.aliasCycles()
	edges := map[string][]edge{}
	for _, t := range l.reg.Types {
		var visit func(s *model.Schema, path string)
		visit = func(s *model.Schema, path string) {
			if l.skip[s] {
				return // a broken schema: its required, nullable and minItems may be wrong
			}
			switch s.Kind {
			case model.Ref:
				if !s.Nullable && s.Named != nil && !s.Named.Schema.Nullable {
					edges[t.Name] = append(edges[t.Name], edge{s.Ref, path})
				}
			case model.Object:
				for _, p := range s.Properties {
					if p.Required && !p.Schema.Nullable {
						visit(p.Schema, path+"."+p.Name)
					}
				}
			case model.Array:
				// An array that must hold an item needs one more value of its type.
				if s.MinItems != nil && *s.MinItems > 0 && s.Items != nil && !s.Items.Nullable {
					visit(s.Items, path+"[0]")
				}
			}
		}
		visit(t.Schema, t.Name)
	}
	// Only types in a strongly connected component with a cycle can be infinite by
	// themselves; searching from the others made a long chain of required named types
	// quadratic (20,000 types: minutes).
	comp := sccs(l.reg.Types, edges)
	cyclic := func(n string) bool {
		c, ok := comp[n]
		if !ok {
			return false
		}
		if c.size > 1 {
			return true
		}
		for _, e := range edges[n] {
			if e.to == n {
				return true
			}
		}
		return false
	}
	covered := map[string]bool{}
	for n := range aliased {
		covered[n] = true // already reported as an alias cycle
	}
	// work bounds the breadth-first searches of a hostile registry (one hub type in
	// thousands of small cycles): past it, the remaining types of cyclic components are
	// reported without their path.
	work := 0
	const maxWork = 2_000_000
	for _, t := range l.reg.Types {
		if covered[t.Name] || !cyclic(t.Name) {
			continue
		}
		if work > maxWork {
			covered[t.Name] = true
			l.report(t.Pos, RuleNamedType, fmt.Sprintf("type %q can only be infinite: it is on a cycle of required properties", t.Name),
				"break the cycle: make one property optional or nullable, or hold it in a map or an array that may be empty")
			continue
		}
		// Shortest path from t back to t (BFS), within t's component.
		type step struct {
			node string
			prev *step
			via  string
		}
		var found *step
		queue := []*step{{node: t.Name}}
		visited := map[string]bool{}
		my := comp[t.Name].id
		for len(queue) > 0 && found == nil {
			cur := queue[0]
			queue = queue[1:]
			for _, e := range edges[cur.node] {
				work++
				if comp[e.to].id != my {
					continue
				}
				next := &step{node: e.to, prev: cur, via: e.path}
				if e.to == t.Name {
					found = next
					break
				}
				if !visited[e.to] {
					visited[e.to] = true
					queue = append(queue, next)
				}
			}
		}
		if found == nil {
			continue
		}
		var parts []string
		var nodes []string
		for s := found; s.prev != nil; s = s.prev {
			parts = append(parts, s.via)
			nodes = append(nodes, s.node)
		}
		for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
			parts[i], parts[j] = parts[j], parts[i]
		}
		skip := false
		for _, n := range nodes {
			if covered[n] {
				skip = true
			}
		}
		if skip {
			continue
		}
		for _, n := range nodes {
			covered[n] = true
		}
		l.report(t.Pos, RuleNamedType, fmt.Sprintf("type %q can only be infinite: %s → %s", t.Name, strings.Join(parts, " → "), t.Name),
			"break the cycle: make one property optional or nullable, or hold it in a map or an array that may be empty")
	}
}

// aliasCycles reports named types that are only other names for each other
// (`K: {type: K}`, or K → L → K), nullable or not: such a type names no shape at all,
// and nothing can be generated for it (BQ033).
func (l *loader) aliasCycles() map[string]bool {
	reported := map[*model.NamedType]bool{}
	names := map[string]bool{}
	for _, t := range l.reg.Types {
		var chain []*model.NamedType
		seen := map[*model.NamedType]int{}
		for cur := t; cur != nil && cur.Schema != nil && cur.Schema.Kind == model.Ref; cur = cur.Schema.Named {
			if i, ok := seen[cur]; ok {
				cycle := chain[i:]
				if reported[cycle[0]] {
					break
				}
				path := make([]string, 0, len(cycle)+1)
				for _, c := range cycle {
					path = append(path, c.Name)
					reported[c] = true
					names[c.Name] = true
				}
				path = append(path, cycle[0].Name)
				l.report(cycle[0].Pos, RuleNamedType, fmt.Sprintf("type %q only names itself: %s", cycle[0].Name, strings.Join(path, " → ")),
					"give one of the types a shape (e.g. `type: object` with properties, or `type: string`) instead of naming another type")
				break
			}
			seen[cur] = len(chain)
			chain = append(chain, cur)
		}
	}
	return names
}

type sccInfo struct{ id, size int }

// sccs returns the strongly connected component of every type (Tarjan's algorithm,
// iterative: a chain of thousands of types must not grow the stack without bound).
func sccs(types []*model.NamedType, edges map[string][]edge) map[string]sccInfo {
	index := map[string]int{}
	low := map[string]int{}
	onStack := map[string]bool{}
	var stack []string
	out := map[string]sccInfo{}
	next, nextID := 0, 0
	type frame struct {
		node string
		ei   int
	}
	for _, t := range types {
		if _, seen := index[t.Name]; seen {
			continue
		}
		calls := []frame{{node: t.Name}}
		index[t.Name], low[t.Name] = next, next
		next++
		stack = append(stack, t.Name)
		onStack[t.Name] = true
		for len(calls) > 0 {
			f := &calls[len(calls)-1]
			if f.ei < len(edges[f.node]) {
				to := edges[f.node][f.ei].to
				f.ei++
				if _, seen := index[to]; !seen {
					index[to], low[to] = next, next
					next++
					stack = append(stack, to)
					onStack[to] = true
					calls = append(calls, frame{node: to})
				} else if onStack[to] {
					low[f.node] = min(low[f.node], index[to])
				}
				continue
			}
			n := f.node
			calls = calls[:len(calls)-1]
			if len(calls) > 0 {
				p := calls[len(calls)-1].node
				low[p] = min(low[p], low[n])
			}
			if low[n] == index[n] {
				var members []string
				for {
					m := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[m] = false
					members = append(members, m)
					if m == n {
						break
					}
				}
				for _, m := range members {
					out[m] = sccInfo{id: nextID, size: len(members)}
				}
				nextID++
			}
		}
	}
	return out
}
