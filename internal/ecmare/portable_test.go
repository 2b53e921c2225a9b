package ecmare

import (
	"math/rand/v2"
	"regexp"
	"regexp/syntax"
	"strings"
	"testing"
	"unicode"

	"github.com/babelqueue/bqgen/internal/engines"
)

// TestPortableSpelling pins the portable form of each construct the engines read
// differently (docs/patterns.md has the table).
func TestPortableSpelling(t *testing.T) {
	for _, c := range []struct {
		in, want string
		guard    bool
		issues   string // the rules of the issues, in order
	}{
		{`^[A-Z]{2}$`, `^[A-Z]{2}$`, true, ""},
		{`^\d+$`, `^[0-9]+$`, true, ""},
		{`^\w+$`, `^[0-9A-Z_a-z]+$`, true, ""},
		{`^\D\W$`, `^[^0-9][^0-9A-Z_a-z]$`, false, "dollar"},
		{`^\s$`, "^[\\t-\\r \\xA0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]$", false, "dollar"}, // "\n" passes, "\n\n" only in Python
		{`^\S+$`, "^[^\\t-\\r \\xA0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+$", true, ""},
		{`^.+$`, "^[^\\n\\r\u2028\u2029]+$", true, ""},
		{`^[^,]+$`, `^[^,]+$`, false, ""},
		{`a?$`, `a?$`, false, ""},
		{`^$`, `^$`, true, ""},
		{`^a$|b`, `^a$|b`, false, "dollar"},
		{`a$|\n`, `a$|\n`, false, ""},
		{`\bfoo\B`, `\bfoo\B`, false, "boundary boundary"},
		{`^(?<year>\d{4})-\u{1F600}\u00e9\x41\0\cI$`, "^([0-9]{4})-😀éA\\x00\\t$", true, ""},
		{`^a\cJ$`, `^a\n$`, false, "dollar"},
		{`[\0\u{10FFFF}]`, "[\\x00\U0010FFFF]", false, ""}, // not [^\x01-\U0010FFFE], which V8 misreads
		{`[/~#&|\]\\^\-\[]`, `[\x23\x26\x2D\x2F\x5B-\x5E\x7C\x7E]`, false, ""},
		{`^\/~#\$\(\)\*\+\.\?\[\]\{\}\|\^\\-`, `^\x2F\x7E\x23\$\(\)\*\+\.\?\[\]\{\}\|\^\\-`, false, ""},
		{`[^]`, "[\\x00-\U0010FFFF]", false, ""},
		{`[]`, "[^\\x00-\U0010FFFF]", false, ""},
		{`\u00a0\u0085\u00d7`, `\xA0\x85\xD7`, false, ""},
		{`^\p{Script=Greek}{2}$`, "^" + portClass(portRanges(tableRanges(unicode.Greek))) + "{2}$", true, ""},
		{`x{2,}?(?:ab|c){1,3}`, `x{2,}?(?:ab|c){1,3}`, false, ""},
	} {
		res, err := PortablePattern(c.in)
		if err != nil {
			t.Fatalf("%q: %v", c.in, err)
		}
		var rules []string
		for _, is := range res.Issues {
			rules = append(rules, is.Rule)
		}
		if res.Pattern != c.want || res.GuardFinalNewline != c.guard || strings.Join(rules, " ") != c.issues {
			t.Errorf("Portable(%q) = %q guard %v issues %q; want %q guard %v issues %q", c.in, res.Pattern, res.GuardFinalNewline, rules, c.want, c.guard, c.issues)
		}
		// The portable form is portable already: the rewrite is idempotent.
		if again, err := PortablePattern(res.Pattern); err != nil || again.Pattern != res.Pattern {
			t.Errorf("Portable(Portable(%q)) = %v, %v; want it unchanged", c.in, again, err)
		}
	}
}

// TestPortableProperties: property escapes are expanded into ranges while the pattern
// stays within MaxPortableLength; beyond, the large lone General_Category escapes are
// kept as \p{…} (an issue for Python), and the rest stays expanded.
func TestPortableProperties(t *testing.T) {
	for _, c := range []struct {
		in   string
		kept string // the escapes kept, in order
	}{
		{`^\p{L}+$`, ""}, {`\p{Letter}\P{Lu}`, ""}, {`\p{gc=Co}`, ""}, {`\P{Cn}`, ""}, {`\p{Script=Han}`, ""},
		{`^\p{L}\p{Ll}\p{Lu}\p{Lo}\p{Co}\p{Script=Latin}\P{L}[a-z]$`, `\p{L} \p{Ll} \p{Lu} \p{Lo} \P{L}`},
		{`^[\p{L}][\p{L}][\p{L}][\p{L}]\p{Cn}$`, ""}, // in classes, and Cn: no common name
	} {
		res, err := PortablePattern(c.in)
		if err != nil {
			t.Fatal(err)
		}
		var kept []string
		for _, is := range res.Issues {
			if is.Rule != "property" || len(is.Engines) != 1 || is.Engines[0] != EnginePython {
				t.Errorf("%s: issue %+v", c.in, is)
			}
			kept = append(kept, is.Construct)
		}
		if strings.Join(kept, " ") != c.kept || strings.Count(res.Pattern, `\p`)+strings.Count(res.Pattern, `\P`) != len(kept) {
			t.Errorf("%s: kept %q in %d bytes, want %q", c.in, kept, len(res.Pattern), c.kept)
		}
	}
}

// TestPortableInFourEngines is the random-pattern agreement harness over the four
// engines: 3,000 random patterns of the subset (genPattern, half of them anchored
// as ^(?:…)$) on 16 strings each, with
// and without a final newline. The portable form must give ECMA-262's verdict on the
// original pattern (Node, u flag) in Node, in Go's regexp reading it as RE2 (as
// jsonschema/v6 does by default), in Python's re and in PHP's preg_match (u flag) —
// with NotFinalNewline applied where GuardFinalNewline says — except, in Python and
// PHP, for the patterns whose Issues name them. One process per engine.
func TestPortableInFourEngines(t *testing.T) {
	if testing.Short() {
		t.Skip("needs node, python3 and php")
	}
	eng := ecmaEngine(t)
	r := rand.New(rand.NewPCG(19, 2026))
	type item struct {
		orig string
		res  *PortableResult
		strs []string
		want []bool
	}
	var items []item
	for len(items) < 3000 {
		p := genPattern(r, 2)
		if r.IntN(2) == 0 {
			p = "^(?:" + p + ")$" // as most registry patterns are
		}
		pat, err := Parse(p)
		if err != nil {
			continue
		}
		strs := make([]string, 0, 16)
		for j := 0; j < 8; j++ {
			s := genString(r)
			if v8BInsidePair(pat.Root, s) {
				continue
			}
			strs = append(strs, s, s+"\n")
		}
		want, nodeErr := eng.match(t, p, strs)
		if nodeErr != "" {
			t.Fatalf("node rejects %q: %s", p, nodeErr)
		}
		items = append(items, item{orig: p, res: pat.Portable(), strs: strs, want: want})
	}
	qs := make([]engines.Query, len(items))
	for i, it := range items {
		qs[i] = engines.Query{P: it.res.Pattern, S: it.strs}
	}
	py, php := engines.MatchPython(t, qs), engines.MatchPHP(t, qs)
	guarded, pyJudged := 0, 0
	for i, it := range items {
		p := it.res.Pattern
		node, nodeErr := eng.match(t, p, it.strs)
		if nodeErr != "" {
			t.Errorf("%q: node rejects the portable %q: %s", it.orig, p, nodeErr)
			continue
		}
		re, err := regexp.Compile(p)
		if err != nil {
			t.Errorf("%q: Go's regexp rejects the portable %q: %v", it.orig, p, err)
			continue
		}
		skip := map[string]bool{}
		for _, is := range it.res.Issues {
			for _, e := range is.Engines {
				skip[e] = true
			}
		}
		if it.res.GuardFinalNewline {
			guarded++
		}
		if !skip[EnginePython] {
			pyJudged++
		}
		for j, s := range it.strs {
			guard := !(it.res.GuardFinalNewline && strings.HasSuffix(s, "\n"))
			if node[j] != it.want[j] {
				t.Errorf("%q → %q on %+q: node %v, want %v", it.orig, p, s, node[j], it.want[j])
			}
			if re.MatchString(s) != it.want[j] {
				t.Errorf("%q → %q on %+q: Go %v, want %v", it.orig, p, s, !it.want[j], it.want[j])
			}
			for _, e := range []struct {
				name string
				v    engines.Verdicts
			}{{EnginePython, py[i]}, {EnginePHP, php[i]}} {
				if skip[e.name] {
					continue
				}
				if e.v.Err != "" {
					t.Errorf("%q → %q: %s rejects it: %s", it.orig, p, e.name, e.v.Err)
					break
				}
				if got := e.v.M[j] && guard; got != it.want[j] {
					t.Errorf("%q → %q (guard %v) on %+q: %s %v, want %v", it.orig, p, it.res.GuardFinalNewline, s, e.name, got, it.want[j])
				}
			}
		}
		if t.Failed() {
			return
		}
	}
	t.Logf("%d patterns, %d guarded against a final newline, %d judged in Python", len(items), guarded, pyJudged)
	if guarded < 100 || pyJudged < len(items)/2 {
		t.Errorf("the generator is off: %d guarded, %d judged in Python", guarded, pyJudged)
	}
}

// TestFinalNewlinePatternInFourEngines: the guard's own pattern matches exactly the
// strings ending in "\n" in all four engines.
func TestFinalNewlinePatternInFourEngines(t *testing.T) {
	strs := []string{"", "\n", "a\n", "a\n\n", "\na", "a", "a\r", "a\u2028", "\n\n\n", "a\nb\n"}
	q := []engines.Query{{P: FinalNewlinePattern, S: strs}}
	node, nodeErr := ecmaEngine(t).match(t, FinalNewlinePattern, strs)
	if nodeErr != "" {
		t.Fatal(nodeErr)
	}
	re := regexp.MustCompile(FinalNewlinePattern)
	py, php := engines.MatchPython(t, q)[0], engines.MatchPHP(t, q)[0]
	for i, s := range strs {
		want := strings.HasSuffix(s, "\n")
		if node[i] != want || re.MatchString(s) != want || py.M[i] != want || php.M[i] != want {
			t.Errorf("%+q: node %v, Go %v, Python %v, PHP %v; want %v", s, node[i], re.MatchString(s), py.M[i], php.M[i], want)
		}
	}
}

// TestPortablePropertiesInFourEngines: expanded property escapes give, in all four
// engines, the verdict of Go's tables (the translation), which for characters
// assigned long ago is also Node's reading of the original escape.
func TestPortablePropertiesInFourEngines(t *testing.T) {
	strs := []string{"abc", "Ωμέγα", "٣٤", "_", "A", "é", "中文", "😀", "ǅ", "Ⅻ", "\u0300", "a b", "\u00a0", "\n", "ß\n"}
	var qs []engines.Query
	var want [][]bool
	for _, p := range []string{`^\p{L}+$`, `^\p{Script=Greek}+$`, `^[\p{N}_]+$`, `^\P{Lu}\p{Ll}$`, `^\p{Lt}|\p{Nl}`, `^[^\p{L}\p{Zs}\n]+$`, `\p{White_Space}`, `\p{M}`} {
		res, err := PortablePattern(p)
		if err != nil || len(res.Issues) > 0 {
			t.Fatalf("%s: %v %v", p, err, res.Issues)
		}
		re := MustCompile(p)
		var w []bool
		for _, s := range strs {
			w = append(w, re.MatchString(s))
		}
		qs = append(qs, engines.Query{P: res.Pattern, S: strs})
		want = append(want, w)
		orig, nodeErr := ecmaEngine(t).match(t, p, strs)
		if nodeErr != "" {
			t.Fatal(nodeErr)
		}
		for j := range strs {
			if orig[j] != w[j] {
				t.Errorf("%s on %+q: node reads the original %v, Go's tables %v", p, strs[j], orig[j], w[j])
			}
		}
		if res.GuardFinalNewline != strings.HasSuffix(p, "$") {
			t.Errorf("%s: final-newline guard %v", p, res.GuardFinalNewline)
		}
	}
	e := engines.MatchAll(t, qs)
	for i, q := range qs {
		guard, _ := PortablePattern(q.P)
		for name, v := range map[string]engines.Verdicts{"node": e.Node[i], "Go": e.Go[i], "Python": e.Python[i], "PHP": e.PHP[i]} {
			if v.Err != "" {
				t.Fatalf("%.60s: %s: %s", q.P, name, v.Err)
			}
			for j, s := range q.S {
				got := v.M[j] && !(guard.GuardFinalNewline && strings.HasSuffix(s, "\n"))
				if got != want[i][j] {
					t.Errorf("%.60s on %+q: %s %v, want %v", q.P, s, name, got, want[i][j])
				}
			}
		}
	}
}

// TestFinalNewlineSearches: the two existential searches finalNewline decides most
// patterns with give the answers of the full product exploration (subsets), on 3,000
// random patterns of the subset, half of them anchored.
func TestFinalNewlineSearches(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 19))
	decided := 0
	for i := 0; i < 3000; i++ {
		p := genPattern(r, 2)
		if r.IntN(2) == 0 {
			p = "^(?:" + p + ")$"
		}
		pat, err := Parse(p)
		if err != nil {
			continue
		}
		re, _ := syntax.Parse(pat.RE2, syntax.Perl)
		prog, _ := syntax.Compile(re.Simplify())
		atoms := dollarAtoms(prog)
		differs, ecmaNL, ok := subsets(prog, atoms)
		if !ok {
			continue
		}
		decided++
		nl, ok1 := existsNL(prog, atoms, false)
		py, ok2 := existsNL(prog, atoms, true)
		if !ok1 || !ok2 || nl != ecmaNL || (!nl && py != differs) {
			t.Errorf("%q: searches say ECMA-262 %v, Python %v; the product says ECMA-262 %v, differs %v", p, nl, py, ecmaNL, differs)
		}
	}
	if decided < 2900 {
		t.Errorf("only %d patterns decided", decided)
	}
}
