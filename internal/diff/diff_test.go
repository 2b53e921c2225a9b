package diff

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/babelqueue/bqgen/internal/model"
	"github.com/babelqueue/bqgen/registry"
)

var update = flag.Bool("update", false, "rewrite testdata/diff want files, golden outputs and docs/diff.md")

const testdataDir = "../../testdata/diff"

// loadCase loads old.yaml and new.yaml of a case directory (positions name them
// old.yaml and new.yaml).
func loadCase(t *testing.T, dir string) (old, new *model.Registry) {
	t.Helper()
	load := func(name string) *model.Registry {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		reg, diags, err := registry.LoadFiles(context.Background(), map[string][]byte{name: b})
		if err != nil || diags.HasErrors() {
			t.Fatalf("%s/%s: %v %v", dir, name, err, diags)
		}
		return reg
	}
	return load("old.yaml"), load("new.yaml")
}

// findingLines renders the findings of every mode as `RULE b/f/full URN PATH: old → new`,
// sorted; it fails when the modes disagree on anything but severity and remedy.
func findingLines(t *testing.T, old, new *model.Registry) []string {
	t.Helper()
	reps := map[Mode]*Report{}
	for _, m := range Modes {
		reps[m] = Compare(old, new, m)
	}
	b := reps[Backward].Findings
	for _, m := range []Mode{Forward, Full} {
		fs := reps[m].Findings
		if len(fs) != len(b) {
			t.Fatalf("%s: %d findings, backward %d", m, len(fs), len(b))
		}
	}
	index := func(fs []Finding) map[string]Finding {
		out := map[string]Finding{}
		for _, f := range fs {
			out[f.Rule.ID+"\x00"+f.subject()+"\x00"+f.Old+"\x00"+f.New] = f
		}
		return out
	}
	fwd, full := index(reps[Forward].Findings), index(reps[Full].Findings)
	var lines []string
	for k, f := range index(b) {
		ff, ok1 := fwd[k]
		fu, ok2 := full[k]
		if !ok1 || !ok2 {
			t.Fatalf("finding %q missing in forward or full", k)
		}
		if f.Severity != f.Rule.Backward || ff.Severity != f.Rule.Forward || fu.Severity != f.Rule.Severity(Full) {
			t.Errorf("%s: severities %s/%s/%s disagree with the catalogue", f.Rule.ID, f.Severity, ff.Severity, fu.Severity)
		}
		for _, x := range []Finding{f, ff, fu} {
			if x.Severity == Breaking && x.Remedy == "" {
				t.Errorf("%s %s %s: breaking without a remedy", x.Rule.ID, x.URN, x.Path)
			}
			if !x.Pos.IsValid() {
				t.Errorf("%s %s %s: no position", x.Rule.ID, x.URN, x.Path)
			}
		}
		line := fmt.Sprintf("%s %s/%s/%s %s: %s", f.Rule.ID, f.Severity, ff.Severity, fu.Severity, f.subject(), f.Change())
		if f.Type != "" {
			line += " [reaches " + f.ReachesText() + "]"
		}
		if f.Hint != "" {
			line += " [hint]"
		}
		lines = append(lines, line)
	}
	sort.Strings(lines)
	return lines
}

func caseDirs(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir(testdataDir)
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, e := range entries {
		if _, err := os.Stat(filepath.Join(testdataDir, e.Name(), "new.yaml")); e.IsDir() && err == nil {
			dirs = append(dirs, e.Name())
		}
	}
	return dirs
}

// TestCases runs every testdata/diff/<case>: old.yaml → new.yaml gives exactly the
// findings of want.txt, one line per finding with its severity under
// backward/forward/full.
func TestCases(t *testing.T) {
	seen := map[string]map[Mode]bool{}
	dirs := caseDirs(t)
	if len(dirs) < 30 {
		t.Errorf("%d cases, want at least 30", len(dirs))
	}
	for _, name := range dirs {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(testdataDir, name)
			old, new := loadCase(t, dir)
			got := findingLines(t, old, new)
			for _, l := range got {
				id := strings.Fields(l)[0]
				if seen[id] == nil {
					seen[id] = map[Mode]bool{}
				}
				for _, m := range Modes {
					seen[id][m] = true
				}
			}
			wantPath := filepath.Join(dir, "want.txt")
			if *update {
				os.WriteFile(wantPath, []byte(strings.Join(append(got, ""), "\n")), 0o644)
				return
			}
			b, err := os.ReadFile(wantPath)
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
				if l != "" {
					want = append(want, l)
				}
			}
			sort.Strings(want)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
	for _, r := range Rules {
		if !seen[r.ID][Backward] {
			t.Errorf("rule %s (%s) has no case in testdata/diff", r.ID, r.Title)
		}
	}
}

// TestModesDiffer: the same change is breaking in one mode and fine in another.
func TestModesDiffer(t *testing.T) {
	old, new := loadCase(t, filepath.Join(testdataDir, "maximum-lowered"))
	if !Compare(old, new, Backward).Breaking() || Compare(old, new, Forward).Breaking() || !Compare(old, new, Full).Breaking() {
		t.Error("lowering a maximum: want breaking under backward and full only")
	}
	old, new = loadCase(t, filepath.Join(testdataDir, "enum-widened"))
	if Compare(old, new, Backward).Breaking() || !Compare(old, new, Forward).Breaking() || !Compare(old, new, Full).Breaking() {
		t.Error("widening an enum: want breaking under forward and full only")
	}
}

// TestDoneWhen checks the acceptance examples of the issue.
func TestDoneWhen(t *testing.T) {
	for _, c := range []struct{ dir, rule string }{
		{"required-added", RuleRequiredAdded},
		{"maximum-lowered", RuleTightened},
		{"pattern-changed", RuleReplaced},
		{"retyped-integer-number", RuleRetyped},
	} {
		old, new := loadCase(t, filepath.Join(testdataDir, c.dir))
		rep := Compare(old, new, Backward)
		if len(rep.Findings) != 1 || rep.Findings[0].Rule.ID != c.rule || rep.Findings[0].Severity != Breaking {
			t.Errorf("%s: %+v", c.dir, rep.Findings)
			continue
		}
		want := "mint urn:babel:orders:created.v2 with this shape and `supersedes: urn:babel:orders:created`, deprecate urn:babel:orders:created"
		if !strings.HasPrefix(rep.Findings[0].Remedy, want) {
			t.Errorf("%s: remedy %q", c.dir, rep.Findings[0].Remedy)
		}
	}
	old, new := loadCase(t, filepath.Join(testdataDir, "required-added"))
	f := Compare(old, new, Backward).Findings[0]
	if f.Path != "$.customer_id" || f.Pos != (model.Pos{File: "new.yaml", Line: 8, Column: 9}) ||
		!strings.HasSuffix(f.Remedy, `; or add "customer_id" as optional instead`) {
		t.Errorf("customer_id: %+v", f)
	}
}

// TestNoop: reordered keys, an inline object moved into types:, comments and
// equivalent bounds give no finding.
func TestNoop(t *testing.T) {
	old, new := loadCase(t, filepath.Join(testdataDir, "noop"))
	for _, m := range Modes {
		if rep := Compare(old, new, m); len(rep.Findings) != 0 || len(rep.Changed) != 0 {
			t.Errorf("%s: %+v", m, rep.Findings)
		}
	}
	// The example registry against itself.
	reg, _, err := registry.Load(context.Background(), "../../examples/registry.yaml")
	if err != nil || reg == nil {
		t.Fatal(err)
	}
	if rep := Compare(reg, reg, Full); len(rep.Findings) != 0 {
		t.Errorf("example vs itself: %+v", rep.Findings)
	}
}

// TestGolden renders the mixed case, the shared named type along a supersedes chain
// (issue 21, item 1) and the renames (item 4) in every format.
func TestGolden(t *testing.T) {
	for _, name := range []string{"mixed", "shared-type-chain", "renames"} {
		t.Run(name, func(t *testing.T) { golden(t, name) })
	}
	old, _ := loadCase(t, filepath.Join(testdataDir, "mixed"))
	emptyReports(t, old)
}

func golden(t *testing.T, name string) {
	dir := filepath.Join(testdataDir, name)
	old, new := loadCase(t, dir)
	for _, g := range []struct {
		file, format string
		mode         Mode
	}{
		{"out.txt", "text", Backward},
		{"out.forward.txt", "text", Forward},
		{"out.json", "json", Backward},
		{"out.github", "github", Backward},
		{"out.md", "markdown", Backward},
	} {
		var buf bytes.Buffer
		if err := Compare(old, new, g.mode).Write(&buf, g.format, Labels{Old: "git:origin/main", New: "registry.yaml"}); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, g.file)
		if *update {
			os.WriteFile(path, buf.Bytes(), 0o644)
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if buf.String() != string(want) {
			t.Errorf("%s differs; run go test ./internal/diff -update and review. got:\n%s", g.file, buf.String())
		}
	}
}

// emptyReports: a registry against itself in every format.
func emptyReports(t *testing.T, old *model.Registry) {
	for _, format := range Formats {
		var buf bytes.Buffer
		if err := Compare(old, old, Backward).Write(&buf, format, Labels{}); err != nil {
			t.Fatal(err)
		}
		switch format {
		case "json":
			if buf.String() != "[]\n" {
				t.Errorf("json: %q", buf.String())
			}
		case "github":
			if buf.Len() != 0 {
				t.Errorf("github: %q", buf.String())
			}
		case "text":
			if buf.String() != "backward: no changes\n" {
				t.Errorf("text: %q", buf.String())
			}
		case "markdown":
			if !strings.Contains(buf.String(), "no breaking changes") || !strings.Contains(buf.String(), "No URN changed.") {
				t.Errorf("markdown: %s", buf.String())
			}
		}
	}
}

// TestDocs keeps docs/diff.md in sync with the catalogue.
func TestDocs(t *testing.T) {
	const path = "../../docs/diff.md"
	const begin, end = "<!-- rules:begin (generated from internal/diff/rules.go; go test ./internal/diff -update) -->\n", "<!-- rules:end -->"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i, j := strings.Index(s, begin), strings.Index(s, end)
	if i < 0 || j < i {
		t.Fatalf("%s lacks the rules markers", path)
	}
	want := s[:i+len(begin)] + RulesMarkdown() + s[j:]
	if *update {
		os.WriteFile(path, []byte(want), 0o644)
		return
	}
	if s != want {
		t.Errorf("%s is out of date with the rule catalogue; run go test ./internal/diff -update", path)
	}
}

func TestCatalogue(t *testing.T) {
	ids := map[string]bool{}
	for _, r := range Rules {
		if ids[r.ID] || r.Title == "" || r.Doc == "" || r.Backward == "" || r.Forward == "" {
			t.Errorf("rule %+v", r)
		}
		ids[r.ID] = true
	}
	for _, m := range []string{"backward", "forward", "full"} {
		if _, err := ParseMode(m); err != nil {
			t.Error(err)
		}
	}
	if _, err := ParseMode("both"); err == nil {
		t.Error("ParseMode(both) succeeded")
	}
}

func TestNextURN(t *testing.T) {
	reg := &model.Registry{Messages: []*model.Message{{URN: "urn:babel:a:b.v2"}}}
	for in, want := range map[string]string{
		"urn:babel:orders:created":    "urn:babel:orders:created.v2",
		"urn:babel:orders:created.v2": "urn:babel:orders:created.v3",
		"urn:babel:a:b":               "urn:babel:a:b.v3",
	} {
		if got := NextURN(in, reg); got != want {
			t.Errorf("NextURN(%s) = %s, want %s", in, got, want)
		}
	}
}

// TestFindingOrder: within a URN and a severity, findings follow the registries' own
// order — removed properties as the old registry had them, then the new registry's
// properties as written — not the byte order of their paths (issue 13, item 5;
// docs/ordering.md).
func TestFindingOrder(t *testing.T) {
	load := func(props string) *model.Registry {
		src := "version: 1\nconsumers: [go]\nmessages:\n  urn:babel:orders:created:\n    summary: S.\n    owner: o\n    data:\n      properties:\n" + props
		reg, diags, err := registry.LoadFiles(context.Background(), map[string][]byte{"r.yaml": []byte(src)})
		if err != nil || diags.HasErrors() {
			t.Fatalf("%v %v", err, diags)
		}
		return reg
	}
	old := load("        mid: {type: string}\n        gone: {type: string}\n        keep: {type: string, maxLength: 5}\n        zed: {type: string}\n")
	new := load("        zed: {type: string, description: Last.}\n        keep: {type: string, maxLength: 9}\n        new_b: {type: string}\n        mid: {type: string}\n        new_a: {type: string}\n")
	var got []string
	for _, f := range Compare(old, new, Backward).Findings {
		got = append(got, string(f.Severity)+" "+f.Path)
	}
	want := "breaking $.gone, notice $.keep, notice $.new_b, notice $.new_a, info $.zed"
	if strings.Join(got, ", ") != want {
		t.Errorf("findings\n%s\nwant\n%s", strings.Join(got, ", "), want)
	}
	// An array's own keywords come before the changes below it (its items), as an
	// object's property comes before its children (a new user read `$.lines[*].quantity`
	// before `$.lines`' maxItems).
	old = load("        lines: {type: array, maxItems: 500, items: {type: object, properties: {quantity: {type: integer, minimum: 1, maximum: 1000}}}}\n")
	new = load("        lines: {type: array, maxItems: 100, items: {type: object, properties: {quantity: {type: integer, minimum: 1, maximum: 10}}}}\n")
	got = nil
	for _, f := range Compare(old, new, Backward).Findings {
		got = append(got, string(f.Severity)+" "+f.Path+" "+f.Old)
	}
	if want := "breaking $.lines maxItems: 500, breaking $.lines[*].quantity maximum: 1000"; strings.Join(got, ", ") != want {
		t.Errorf("findings\n%s\nwant\n%s", strings.Join(got, ", "), want)
	}
}

// TestOneFindingPerCause: tightening a field of a named type that a deprecated URN, its
// successor and another URN use is one finding, at the type, reaching all three; the
// fixes name one new version per supersedes chain and never mint from a superseded URN
// (issue 21, item 1).
func TestOneFindingPerCause(t *testing.T) {
	old, new := loadCase(t, filepath.Join(testdataDir, "shared-type-chain"))
	for _, m := range Modes {
		rep := Compare(old, new, m)
		var inType []Finding
		for _, f := range rep.Findings {
			if f.Rule.ID == RuleTightened && strings.HasSuffix(f.Path, ".name") {
				inType = append(inType, f)
			}
		}
		if len(inType) != 1 || inType[0].Type != "Rider" || inType[0].URN != "" || inType[0].Pos != (model.Pos{File: "new.yaml", Line: 8, Column: 28}) {
			t.Fatalf("%s: findings of the Rider change: %+v", m, inType)
		}
		if got := inType[0].ReachesText(); got != "urn:babel:rentals:ride.ended $.riders[*], urn:babel:rentals:ride.started $.rider, urn:babel:rentals:ride.started.v2 $.rider" {
			t.Errorf("%s: reaches %s", m, got)
		}
		if want := []string{"urn:babel:rentals:ride.ended", "urn:babel:rentals:ride.started", "urn:babel:rentals:ride.started.v2"}; strings.Join(rep.Changed, " ") != strings.Join(want, " ") {
			t.Errorf("%s: changed %v", m, rep.Changed)
		}
	}
	rep := Compare(old, new, Backward)
	// Every version any fix of the report asks for: one per chain.
	minted := map[string]bool{}
	for _, f := range rep.Findings {
		for _, m := range regexp.MustCompile(`(urn:babel:[a-z.:]+\.v[0-9]+), minted with|mint (urn:babel:[a-z.:]+\.v[0-9]+) with`).FindAllStringSubmatch(f.Remedy, -1) {
			minted[m[1]+m[2]] = true
		}
	}
	if len(minted) != 2 || !minted["urn:babel:rentals:ride.started.v3"] || !minted["urn:babel:rentals:ride.ended.v2"] {
		t.Errorf("versions asked for: %v", minted)
	}
	if fix := rep.Mint["urn:babel:rentals:ride.started"]; !strings.HasPrefix(fix, "keep the old shape of urn:babel:rentals:ride.started: it is superseded by urn:babel:rentals:ride.started.v2") {
		t.Errorf("fix of the superseded URN: %s", fix)
	}
	if _, ok := rep.Mint["urn:babel:rentals:ride.started.v2"]; ok {
		t.Errorf("the successor has no breaking change of its own: %v", rep.Mint)
	}
}

// TestBreakingFirst: in every format the breaking findings come first, then warnings,
// notices and info (issue 21, item 3).
func TestBreakingFirst(t *testing.T) {
	old, new := loadCase(t, filepath.Join(testdataDir, "mixed"))
	rep := Compare(old, new, Backward)
	rank := func(s string) int {
		return map[string]int{"breaking": 0, "error": 0, "warning": 1, "notice": 2, "info": 3}[s]
	}
	check := func(format string, sevs []string) {
		if len(sevs) != len(rep.Findings) {
			t.Errorf("%s: %d findings, want %d", format, len(sevs), len(rep.Findings))
		}
		for i := 1; i < len(sevs); i++ {
			if rank(sevs[i]) < rank(sevs[i-1]) {
				t.Errorf("%s: %s after %s: %v", format, sevs[i], sevs[i-1], sevs)
			}
		}
	}
	var text, gh bytes.Buffer
	rep.WriteText(&text)
	rep.WriteGitHub(&gh)
	var sevs []string
	for _, m := range regexp.MustCompile(`(?m)^\S+: (breaking|warning|notice|info) BQ`).FindAllStringSubmatch(text.String(), -1) {
		sevs = append(sevs, m[1])
	}
	check("text", sevs)
	sevs = nil
	for _, m := range regexp.MustCompile(`(?m)^::\w+ .*title=BQ\d+ (\w+) `).FindAllStringSubmatch(gh.String(), -1) {
		sevs = append(sevs, m[1])
	}
	check("github", sevs)
	var js bytes.Buffer
	rep.WriteJSON(&js)
	sevs = nil
	for _, m := range regexp.MustCompile(`"severity": "(\w+)"`).FindAllStringSubmatch(js.String(), -1) {
		sevs = append(sevs, m[1])
	}
	check("json", sevs)
	// Markdown: the type and the URN with breaking changes come before the others.
	var md bytes.Buffer
	rep.WriteMarkdown(&md, Labels{})
	s := md.String()
	if i, j := strings.Index(s, "**breaking** BQ120"), strings.Index(s, "**warning** BQ104"); i < 0 || j < 0 || i > j {
		t.Errorf("markdown: breaking at %d, warning at %d", i, j)
	}
}

// TestMarkdownFolding: a first pull request adding many URNs folds them; contexts
// with breaking changes come first (issue 21, item 7).
func TestMarkdownFolding(t *testing.T) {
	var src strings.Builder
	src.WriteString("version: 1\nmessages:\n")
	for i := 0; i < 7; i++ {
		fmt.Fprintf(&src, "  urn:babel:alpha:thing%d.created:\n    data: {}\n", i)
	}
	src.WriteString("  urn:babel:beta:made:\n    data: {properties: {n: {type: integer, maximum: 5}}}\n")
	new, diags, err := registry.LoadFiles(context.Background(), map[string][]byte{"r.yaml": []byte(src.String())})
	if err != nil || diags.HasErrors() {
		t.Fatal(err, diags)
	}
	old, _, err := registry.LoadFiles(context.Background(), map[string][]byte{"o.yaml": []byte("version: 1\nmessages:\n  urn:babel:beta:made:\n    data: {properties: {n: {type: integer, maximum: 9}}}\n")})
	if err != nil {
		t.Fatal(err)
	}
	var md bytes.Buffer
	if err := Compare(old, new, Backward).WriteMarkdown(&md, Labels{Old: "git:main", New: "r.yaml"}); err != nil {
		t.Fatal(err)
	}
	s := md.String()
	beta, alpha := strings.Index(s, "#### Bounded context `beta`"), strings.Index(s, "#### Bounded context `alpha` — 7 URNs")
	fold := strings.Index(s, "<details><summary>7 URNs without breaking changes</summary>")
	if beta < 0 || alpha < beta || fold < alpha || !strings.Contains(s[fold:], "</details>") {
		t.Errorf("markdown:\n%s", s)
	}
}

// TestGitHubLinks: a position in the new registry links to its line in the head
// commit; positions outside the checkout and invalid positions do not.
func TestGitHubLinks(t *testing.T) {
	root := t.TempDir()
	link := GitHubLinks("https://github.com/", "acme/shop", "abc123", root)
	if got := link(model.Pos{File: filepath.Join(root, "reg", "a b.yaml"), Line: 7, Column: 3}); got != "https://github.com/acme/shop/blob/abc123/reg/a%20b.yaml#L7" {
		t.Errorf("link %s", got)
	}
	if got := link(model.Pos{File: filepath.Join(filepath.Dir(root), "x.yaml"), Line: 1}); got != "" {
		t.Errorf("outside: %s", got)
	}
	if got := link(model.Pos{}); got != "" {
		t.Errorf("no position: %s", got)
	}
	if GitHubLinks("", "acme/shop", "abc", root) != nil {
		t.Error("links without a server")
	}
	// GITHUB_REPOSITORY not of the shape owner/name: no links rather than its text in
	// a Markdown link.
	for _, repo := range []string{"acme/shop) [x](http://evil", "acme/shop/x", "acme", "ac me/shop", "../shop", "acme/.."} {
		if GitHubLinks("https://github.com", repo, "abc", root) != nil {
			t.Errorf("links with repository %q", repo)
		}
	}
}

// TestRenameHints: a removed and an added property with equal schemas, and a removed
// and an added URN with equal data schemas, carry the rename hint; different shapes do
// not (issue 21, item 4).
func TestRenameHints(t *testing.T) {
	old, new := loadCase(t, filepath.Join(testdataDir, "renames"))
	hints := map[string]string{}
	for _, f := range Compare(old, new, Backward).Findings {
		if f.Hint != "" {
			hints[f.subject()] = f.Hint
		}
	}
	if len(hints) != 2 || !strings.HasPrefix(hints["urn:babel:rentals:ride.ended $.bike_id"], "looks like a rename of `bike_id` to `bicycle_id` (equal schemas)") ||
		!strings.HasPrefix(hints["urn:babel:rentals:bike.docked"], "looks like a rename of urn:babel:rentals:bike.docked to urn:babel:rentals:bicycle.docked (equal data schemas)") {
		t.Errorf("hints %v", hints)
	}
}

// TestManyUses: a named type used by many URNs is one finding; the text lists ten uses
// and counts the rest, the JSON lists every one, the Markdown folds them.
func TestManyUses(t *testing.T) {
	load := func(maxLen int) *model.Registry {
		var b strings.Builder
		fmt.Fprintf(&b, "version: 1\ntypes:\n  Tag: {type: string, maxLength: %d}\nmessages:\n", maxLen)
		for i := 0; i < 12; i++ {
			fmt.Fprintf(&b, "  urn:babel:tags:t%02d.set:\n    data: {properties: {tag: {type: Tag}}}\n", i)
		}
		reg, diags, err := registry.LoadFiles(context.Background(), map[string][]byte{"r.yaml": []byte(b.String())})
		if err != nil || diags.HasErrors() {
			t.Fatal(err, diags)
		}
		return reg
	}
	rep := Compare(load(20), load(10), Backward)
	if len(rep.Findings) != 1 || len(rep.Findings[0].Reaches) != 12 || len(rep.Changed) != 12 {
		t.Fatalf("findings %+v, changed %v", rep.Findings, rep.Changed)
	}
	if got := rep.Findings[0].ReachesText(); !strings.HasSuffix(got, "urn:babel:tags:t09.set $.tag, and 2 more") {
		t.Errorf("reaches %s", got)
	}
	var md bytes.Buffer
	rep.WriteMarkdown(&md, Labels{})
	if !strings.Contains(md.String(), "<details><summary>Reaches 12 URNs</summary>") {
		t.Errorf("markdown:\n%s", md.String())
	}
}

// TestMarkdownCap: a first pull request of 150 URNs lists 100 in the folded block and
// counts the rest, so that the comment stays within a pull request's limits.
func TestMarkdownCap(t *testing.T) {
	var src strings.Builder
	src.WriteString("version: 1\nmessages:\n")
	for i := 0; i < 150; i++ {
		fmt.Fprintf(&src, "  urn:babel:alpha:thing%03d.created:\n    data: {}\n", i)
	}
	new, diags, err := registry.LoadFiles(context.Background(), map[string][]byte{"r.yaml": []byte(src.String())})
	if err != nil || diags.HasErrors() {
		t.Fatal(err, diags)
	}
	var md bytes.Buffer
	if err := Compare(&model.Registry{Version: 1}, new, Backward).WriteMarkdown(&md, Labels{}); err != nil {
		t.Fatal(err)
	}
	s := md.String()
	if !strings.Contains(s, "<details><summary>150 URNs without breaking changes</summary>") || strings.Count(s, "##### `urn:babel:alpha:") != 100 ||
		!strings.Contains(s, "- and 50 more: `bqgen diff --format text` (or `--format json`) lists them all\n\n</details>") {
		t.Errorf("markdown:\n%s", s)
	}
}

// loadYAML loads one registry file; it fails the test on a rejected registry.
func loadYAML(t testing.TB, name, src string) *model.Registry {
	t.Helper()
	reg, diags, err := registry.LoadFiles(context.Background(), map[string][]byte{name: []byte(src)})
	if err != nil || diags.HasErrors() {
		t.Fatal(err, diags)
	}
	return reg
}

// TestRemedyPredecessor: with urn:babel:a:two and urn:babel:a:two.v2 (which does not
// supersede two), a breaking change of two (in a named type, or of its own) mints
// two.v3 superseding two.v2, the predecessor BQ063 requires, not two.
func TestRemedyPredecessor(t *testing.T) {
	reg := func(maxLen, own int) string {
		return fmt.Sprintf("version: 1\ntypes:\n  T: {type: string, maxLength: %d}\nmessages:\n"+
			"  urn:babel:a:two:\n    data: {properties: {t: {type: T}, n: {type: integer, maximum: %d}}}\n"+
			"  urn:babel:a:two.v2:\n    data: {properties: {x: {type: string}}}\n", maxLen, own)
	}
	rep := Compare(loadYAML(t, "o.yaml", reg(100, 9)), loadYAML(t, "n.yaml", reg(50, 5)), Backward)
	if got, want := rep.TypeFix["T"], "leave T as it was for the URNs it reaches and give the new shape a new named type, TV2, used in a new version of each URN that needs it: "+
		"put it in urn:babel:a:two.v3, minted with `supersedes: urn:babel:a:two.v2`"; got != want {
		t.Errorf("type fix\n got %s\nwant %s", got, want)
	}
	if got, want := rep.Mint["urn:babel:a:two"], "mint urn:babel:a:two.v3 with this shape and `supersedes: urn:babel:a:two.v2`, "+
		"deprecate urn:babel:a:two and urn:babel:a:two.v2 and keep its old shape until its consumers have moved"; got != want {
		t.Errorf("mint\n got %s\nwant %s", got, want)
	}
	// The remedy followed: BQ063 has nothing to say about the minted URN (two.v2 has its
	// own, older BQ063).
	fixed := reg(100, 9) + "  urn:babel:a:two.v3:\n    supersedes: urn:babel:a:two.v2\n    data: {properties: {t: {type: string, maxLength: 50}}}\n"
	_, diags, err := registry.LoadFiles(context.Background(), map[string][]byte{"f.yaml": []byte(fixed)})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range diags {
		if d.Rule == registry.RuleSupersedesPredecessor && strings.Contains(d.Message, "two.v3") {
			t.Errorf("BQ063 after the remedy: %v", d)
		}
	}
	if got := NextURN("urn:babel:a:b", &model.Registry{Messages: []*model.Message{{URN: "urn:babel:a:b.v3"}}}); got != "urn:babel:a:b.v4" {
		t.Errorf("NextURN past the highest version: %s", got)
	}
}

// TestValuesAsWritten: enum values and examples holding &, < and > are shown as
// written in every format (not "R\u0026D"); the Markdown shows them in code spans.
func TestValuesAsWritten(t *testing.T) {
	reg := func(enum string) *model.Registry {
		return loadYAML(t, "r.yaml", "version: 1\nmessages:\n  urn:babel:a:b:\n    data: {properties: {d: {type: string, enum: "+enum+"}}}\n")
	}
	rep := Compare(reg(`["R&D", "<none>"]`), reg(`["R&D", "a>b"]`), Backward)
	for _, format := range Formats {
		var b bytes.Buffer
		if err := rep.Write(&b, format, Labels{}); err != nil {
			t.Fatal(err)
		}
		s := b.String()
		if format == "json" {
			s = strings.ReplaceAll(s, `\"`, `"`) // the values are JSON text in JSON strings
		}
		if strings.Contains(s, `\u00`) || !strings.Contains(s, `"<none>"`) || !strings.Contains(s, `"a>b"`) {
			t.Errorf("%s:\n%s", format, s)
		}
		if format == "markdown" && !strings.Contains(s, "`\"<none>\"`") {
			t.Errorf("markdown: the value is not in a code span:\n%s", s)
		}
	}
}

// TestMarkdownLimit: the Markdown report of a large change fits MarkdownLimit (a
// pull-request comment holds 65,536 characters), keeps breaking changes first, counts
// truly what it folds and says what it left out: a first pull request of 2,000 URNs in
// 20 contexts, a named type reaching 10,000 URNs in 300 contexts, 400 URNs with a
// breaking change each.
func TestMarkdownLimit(t *testing.T) {
	first := func() (old, new *model.Registry) {
		var b strings.Builder
		b.WriteString("version: 1\nmessages:\n")
		for i := 0; i < 2000; i++ {
			fmt.Fprintf(&b, "  urn:babel:ctx%d:event%d.happened:\n    data: {properties: {s: {type: string}}}\n", i%20, i)
		}
		return &model.Registry{Version: 1}, loadYAML(t, "r.yaml", b.String())
	}
	shared := func() (old, new *model.Registry) {
		reg := func(maxLen int) *model.Registry {
			var b strings.Builder
			fmt.Fprintf(&b, "version: 1\ntypes:\n  T: {type: object, properties: {s: {type: string, maxLength: %d}}}\nmessages:\n", maxLen)
			for i := 0; i < 10000; i++ {
				fmt.Fprintf(&b, "  urn:babel:ctx%d:event%d.happened:\n    data: {properties: {t: {type: T}}}\n", i%300, i)
			}
			return loadYAML(t, "r.yaml", b.String())
		}
		return reg(100), reg(50)
	}
	inline := func() (old, new *model.Registry) {
		reg := func(max int) *model.Registry {
			var b strings.Builder
			b.WriteString("version: 1\nmessages:\n")
			for i := 0; i < 400; i++ {
				fmt.Fprintf(&b, "  urn:babel:ctx%d:event%d.happened:\n    data: {properties: {n: {type: integer, maximum: %d}}}\n", i%7, i, max)
			}
			return loadYAML(t, "r.yaml", b.String())
		}
		return reg(9), reg(5)
	}
	for _, c := range []struct {
		name  string
		regs  func() (old, new *model.Registry)
		wants []string
	}{
		{"first pull request", first, []string{"### bqgen diff: no breaking changes (backward mode)", "| 2000 | 0 | 0 | 0 |",
			"<details><summary>100 URNs without breaking changes</summary>", "> **Shortened** to fit a pull-request comment"}},
		{"shared type", shared, []string{"### bqgen diff: 1 breaking change (backward mode)", "<details><summary>Reaches 10000 URNs</summary>",
			"#### Bounded context `ctx0` — 34 URNs\n\n<details><summary>34 URNs changed only through named types</summary>\n\n- and 34 more: `bqgen diff --format text` (or `--format json`) lists them all",
			"- `urn:babel:ctx0:event2100.happened` at `$.t`\n- and 9995 more: `bqgen diff --format text`",
			"put it in urn:babel:ctx0:event0.happened.v2, minted with `supersedes: urn:babel:ctx0:event0.happened`"}},
		{"inline", inline, []string{"### bqgen diff: 400 breaking changes (backward mode)", "more URNs with breaking changes: `bqgen diff --format text`"}},
	} {
		old, new := c.regs()
		var md bytes.Buffer
		if err := Compare(old, new, Backward).WriteMarkdown(&md, Labels{Old: "git:main", New: "r.yaml"}); err != nil {
			t.Fatal(err)
		}
		s := md.String()
		if len(s) > MarkdownLimit || strings.Count(s, "<details>") != strings.Count(s, "</details>") || !strings.HasSuffix(s, "Rules: docs/diff.md.</sub>\n") {
			t.Errorf("%s: %d bytes (limit %d), %d <details>, %d </details>", c.name, len(s), MarkdownLimit, strings.Count(s, "<details>"), strings.Count(s, "</details>"))
		}
		for _, w := range c.wants {
			if !strings.Contains(s, w) {
				t.Errorf("%s: no %q in\n%.3000s", c.name, w, s)
			}
		}
		if c.name == "shared type" && strings.Contains(s, "Reaches 100 URNs") {
			t.Errorf("shared type: the summary counts the listed uses, not all")
		}
	}
}

// TestMarkdownLimitLastResort: a report whose fixed parts alone exceed MarkdownLimit
// (here a note) is cut at a line and says so.
func TestMarkdownLimitLastResort(t *testing.T) {
	out, err := fitMarkdown(markdownData{Mode: Backward, Notes: []string{strings.Repeat("long note ", 5000), strings.Repeat("another ", 5000)}})
	tail := "\n\n**This report is cut here to fit a pull-request comment:** `bqgen diff --format text` (or `--format json`) lists every finding.\n"
	if err != nil || len(out) > MarkdownLimit || !strings.HasSuffix(out, tail) || !strings.HasPrefix(out, "### bqgen diff: no breaking changes (backward mode)\n") {
		t.Errorf("%v: %d bytes: %.300s … %s", err, len(out), out, out[max(len(out)-300, 0):])
	}
}
