package diff

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/url"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"text/template"

	"github.com/babelqueue/bqgen/internal/mdtext"
	"github.com/babelqueue/bqgen/internal/model"
	"github.com/babelqueue/bqgen/templates"
)

// Formats lists the output formats of Write.
var Formats = []string{"text", "markdown", "json", "github"}

// Labels name the two registries in outputs (the --against value and the -r path).
// Link, when set, gives the URL of a position in the new registry (GitHubLinks); the
// Markdown report links each finding to it.
type Labels struct {
	Old, New string
	Link     func(model.Pos) string
}

// Write renders r in format (text, markdown, json or github).
func (r *Report) Write(w io.Writer, format string, l Labels) error {
	switch format {
	case "text":
		return r.WriteText(w)
	case "json":
		return r.WriteJSON(w)
	case "github":
		return r.WriteGitHub(w)
	case "markdown":
		return r.WriteMarkdown(w, l)
	}
	return fmt.Errorf("unknown format %q", format)
}

// Where is the position of f as file:line:col.
func (f Finding) Where() string { return f.Pos.String() }

// Change is "old → new" with "—" for an absent side, or "" when both are absent.
func (f Finding) Change() string {
	if f.Old == "" && f.New == "" {
		return ""
	}
	return dash(f.Old) + " → " + dash(f.New)
}

func dash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// subject is "URN $.path", the URN alone, or "type Name $.path" for a finding in a
// named type.
func (f Finding) subject() string {
	who := f.URN
	if f.Type != "" {
		who = "type " + f.Type
	}
	if f.Path == "" {
		return who
	}
	return who + " " + f.Path
}

// maxReachesText is how many uses ReachesText lists before it counts the rest.
const maxReachesText = 10

// ReachesText lists the uses of a named type's finding: "urn $.path, urn $.path", the
// first maxReachesText of them and then "and N more" (the JSON output lists all).
func (f Finding) ReachesText() string {
	var parts []string
	for i, u := range f.Reaches {
		if i == maxReachesText {
			parts = append(parts, fmt.Sprintf("and %d more", len(f.Reaches)-i))
			break
		}
		parts = append(parts, u.URN+" "+u.Path)
	}
	return strings.Join(parts, ", ")
}

// WriteText writes the notes (`note: …`), then one finding per line
// (`file:line:col: severity RULE: URN PATH: message (old → new)`, `type NAME PATH` for
// a finding in a named type) with indented `reaches:`, `hint:` and `remedy:` lines,
// and a summary.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	for _, f := range r.Findings {
		fmt.Fprintf(&b, "%s: %s %s: %s: %s", f.Where(), f.Severity, f.Rule.ID, f.subject(), f.Message)
		if ch := f.Change(); ch != "" {
			fmt.Fprintf(&b, " (%s)", ch)
		}
		b.WriteString("\n")
		if f.Type != "" {
			fmt.Fprintf(&b, "    reaches: %s\n", dash(f.ReachesText()))
		}
		if f.Hint != "" {
			fmt.Fprintf(&b, "    hint: %s\n", f.Hint)
		}
		if f.Remedy != "" {
			fmt.Fprintf(&b, "    remedy: %s\n", f.Remedy)
		}
	}
	b.WriteString(r.Summary() + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// Summary is the one-line summary of the text format.
func (r *Report) Summary() string {
	if len(r.Findings) == 0 {
		return fmt.Sprintf("%s: no changes", r.Mode)
	}
	var sev []string
	for _, s := range []Severity{Breaking, Warning, Notice, Info} {
		if n := r.Count(s); n > 0 {
			word := string(s)
			if n != 1 && s != Info && s != Breaking {
				word += "s"
			}
			sev = append(sev, fmt.Sprintf("%d %s", n, word))
		}
	}
	return fmt.Sprintf("%s: %d %s added, %d removed, %d changed; %s", r.Mode,
		len(r.Added), pluralWord(len(r.Added), "URN", "URNs"), len(r.Removed), len(r.Changed), strings.Join(sev, ", "))
}

func pluralWord(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// jsonFinding is one element of `--format json`; its fields are stable. A finding in
// a named type has urn "" and type set, with the uses it reaches; others have type ""
// and reaches [].
type jsonFinding struct {
	Rule     string    `json:"rule"`
	Severity string    `json:"severity"`
	URN      string    `json:"urn"`
	Type     string    `json:"type"`
	Reaches  []jsonUse `json:"reaches"`
	Path     string    `json:"path"`
	Old      string    `json:"old"`
	New      string    `json:"new"`
	File     string    `json:"file"`
	Line     int       `json:"line"`
	Column   int       `json:"column"`
	Message  string    `json:"message"`
	Hint     string    `json:"hint"`
	Remedy   string    `json:"remedy"`
}

type jsonUse struct {
	URN  string `json:"urn"`
	Path string `json:"path"`
}

// WriteJSON writes a stable array of findings (the notes go to the caller: they are
// not findings).
func (r *Report) WriteJSON(w io.Writer) error {
	out := make([]jsonFinding, 0, len(r.Findings))
	for _, f := range r.Findings {
		uses := make([]jsonUse, 0, len(f.Reaches))
		for _, u := range f.Reaches {
			uses = append(uses, jsonUse(u))
		}
		out = append(out, jsonFinding{f.Rule.ID, string(f.Severity), f.URN, f.Type, uses, f.Path, f.Old, f.New,
			f.Pos.File, f.Pos.Line, f.Pos.Column, f.Message, f.Hint, f.Remedy})
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// WriteGitHub writes GitHub Actions workflow annotations on the new registry's lines:
// breaking → error, warning → warning, notice and info → notice. A finding with no
// position in the new registry (a removed URN) is annotated without a file.
func (r *Report) WriteGitHub(w io.Writer) error {
	var b strings.Builder
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "::notice title=%s::%s\n", ghProp("bqgen diff"), ghData(n))
	}
	for _, f := range r.Findings {
		level := "notice"
		switch f.Severity {
		case Breaking:
			level = "error"
		case Warning:
			level = "warning"
		}
		msg := f.subject() + ": " + f.Message
		if ch := f.Change(); ch != "" {
			msg += " (" + ch + ")"
		}
		if f.Type != "" {
			msg += "\nreaches: " + dash(f.ReachesText())
		}
		if f.Hint != "" {
			msg += "\nhint: " + f.Hint
		}
		if f.Remedy != "" {
			msg += "\nremedy: " + f.Remedy
		}
		title := fmt.Sprintf("%s %s (%s)", f.Rule.ID, f.Severity, r.Mode)
		var props []string
		if f.Anchor.IsValid() {
			props = append(props, "file="+ghProp(f.Anchor.File), fmt.Sprintf("line=%d", f.Anchor.Line), fmt.Sprintf("col=%d", f.Anchor.Column))
		}
		props = append(props, "title="+ghProp(title))
		fmt.Fprintf(&b, "::%s %s::%s\n", level, strings.Join(props, ","), ghData(msg))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// ghData escapes a workflow command's message (GitHub Actions: %, CR, LF).
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// ghProp escapes a workflow command's property value (also : and ,).
func ghProp(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// foldAfter is how many entries a Markdown list shows before it folds the rest of the
// same kind into a <details> block: non-breaking findings of one section, URNs without a
// breaking change in one bounded context, uses of a named type.
const foldAfter = 5

// markdownData is what templates/diff.md.tmpl renders.
type markdownData struct {
	Mode                              Mode
	Old, New                          string
	Added, Removed, Changed, Breaking int
	Notes                             []string
	// Types are the named types with findings, breaking ones first, then by name;
	// TypesMore counts those left out to fit MarkdownLimit.
	Types     []markdownSection
	TypesMore int
	// Contexts are the bounded contexts with findings, those with breaking changes
	// first, then by name; ContextsMore counts those left out, with their URNs
	// (ContextsMoreURNs).
	Contexts                       []markdownContext
	ContextsMore, ContextsMoreURNs int
	// Short is set when anything was left out to fit MarkdownLimit, which Limit
	// writes with thousands separators.
	Short bool
	Limit string
}

// MarkdownLimit is the most bytes WriteMarkdown writes (so at most as many
// characters): below GitHub's 65,536 characters of a pull-request comment, with room
// for a marker line, and far below the 1 MiB of a job summary. A report that would be
// longer lists fewer entries per list, then fewer bounded contexts and named types,
// breaking ones first, and says how many it left out (docs/diff.md, "markdown").
const MarkdownLimit = 60000

// mdLimits bound the lists of a Markdown report.
type mdLimits struct {
	listed   int // entries of a folded list (URNs without breaking changes or changed only through named types, in one context; a type's uses; a fix's places)
	findings int // findings of one kind (breaking, other) in one section
	loud     int // URNs with breaking changes of their own in one context
}

// mdLevels are tried in order until the report fits MarkdownLimit; then the contexts
// and named types of the last are cut.
var mdLevels = []mdLimits{
	{listed: 100, findings: math.MaxInt, loud: math.MaxInt},
	{listed: 20, findings: 20, loud: 50},
	{listed: 5, findings: 5, loud: 10},
	{listed: 0, findings: 1, loud: 2},
}

// markdownContext is one bounded context: its URNs with breaking findings of their own
// (Loud), the URNs changed only through named types (ViaOnly), then the others
// (Quiet); each list by URN, the last two folded when longer than foldAfter; the More
// fields count the entries left out, the Total fields all of them.
type markdownContext struct {
	Name                 string
	Breaking             int
	Count                int // URNs
	Loud, ViaOnly, Quiet []markdownSection
	FoldViaOnly          bool
	FoldQuiet            bool
	LoudMore             int
	ViaOnlyMore          int
	QuietMore            int
	ViaOnlyTotal         int
	QuietTotal           int
}

// markdownSection is one URN or one named type: its fix, its breaking findings, and
// the other findings (folded when more than foldAfter).
type markdownSection struct {
	Name     string // the URN or the type's name
	Status   string // added, removed, changed; "" for a type
	Breaking int
	// Fix is the advice for all the breaking findings of the section.
	Fix     string
	typeFix *typeFixText // a type's Fix in parts
	// Via lists the named types with findings that this URN uses.
	Via              []markdownVia
	Findings, Others []markdownFinding
	FindingsMore     int // breaking findings left out
	OthersMore       int // other findings left out
	OthersTotal      int
	FoldOthers       bool
	// Reaches are a type's uses; FoldReaches folds them.
	Reaches      []Use
	FoldReaches  bool
	ReachesMore  int // uses left out
	ReachesTotal int
}

// limit returns the first n of l and how many it left out.
func limit[T any](l []T, n int) ([]T, int) {
	if len(l) <= n {
		return l, 0
	}
	return l[:n], len(l) - n
}

// cut returns s with its lists bounded by lim.
func (s markdownSection) cut(lim mdLimits) markdownSection {
	s.OthersTotal, s.ReachesTotal = len(s.Others), len(s.Reaches)
	s.Findings, s.FindingsMore = limit(s.Findings, lim.findings)
	s.Others, s.OthersMore = limit(s.Others, lim.findings)
	if s.FoldReaches { // an unfolded list has foldAfter entries at most: kept whole
		s.Reaches, s.ReachesMore = limit(s.Reaches, max(lim.listed, foldAfter))
	}
	if s.typeFix != nil {
		s.Fix = s.typeFix.String(max(lim.listed, foldAfter))
	}
	return s
}

// cut returns c with its lists bounded by lim.
func (c markdownContext) cut(lim mdLimits) markdownContext {
	c.ViaOnlyTotal, c.QuietTotal = len(c.ViaOnly), len(c.Quiet)
	c.Loud, c.LoudMore = cutAll(c.Loud, lim.loud, lim)
	// An unfolded list has foldAfter entries at most: kept whole.
	c.ViaOnly, c.ViaOnlyMore = cutAll(c.ViaOnly, unlessUnfolded(c.FoldViaOnly, lim.listed), lim)
	c.Quiet, c.QuietMore = cutAll(c.Quiet, unlessUnfolded(c.FoldQuiet, lim.listed), lim)
	return c
}

// unlessUnfolded is n for a folded list, else no limit.
func unlessUnfolded(folded bool, n int) int {
	if folded {
		return n
	}
	return math.MaxInt
}

// cutAll returns the first n sections of l, each cut by lim (a new slice: l is left
// as it is for the next try), and how many it left out.
func cutAll(l []markdownSection, n int, lim mdLimits) ([]markdownSection, int) {
	l, more := limit(l, n)
	out := make([]markdownSection, len(l))
	for i, sec := range l {
		out[i] = sec.cut(lim)
	}
	return out, more
}

type markdownVia struct {
	Type, Path string
	Breaking   int
}

// markdownFinding is a finding with the link to its line and whether its section
// states the fix.
type markdownFinding struct {
	Finding
	Link   string
	HasFix bool
}

var mdTemplate = template.Must(template.New("diff.md.tmpl").Funcs(template.FuncMap{
	"code":   mdtext.Code,
	"text":   mdtext.Escape,
	"codeOr": func(s string) string { return mdCodeOr(s) },
	"plural": func(n int, one, many string) string { return pluralWord(n, one, many) },
	"add":    func(a, b int) int { return a + b },
}).ParseFS(templates.FS, "diff.md.tmpl"))

func mdCodeOr(s string) string {
	if s == "" {
		return "—"
	}
	return mdtext.Code(s)
}

// Where is the finding's position as Markdown: a link to the line in the head commit
// when there is one, else the position in code.
func (f markdownFinding) Where() string {
	if f.Link == "" {
		return mdtext.Code(f.Finding.Where())
	}
	return "[" + mdtext.Code(f.Finding.Where()) + "](" + f.Link + ")"
}

// GitHubLinks returns a Labels.Link that links a position in the new registry to its
// line in commit sha of repository repo on server (GITHUB_SERVER_URL,
// GITHUB_REPOSITORY, GITHUB_SHA): `<server>/<repo>/blob/<sha>/<path>#L<line>`, with
// the file's path taken relative to root (the checkout, GITHUB_WORKSPACE). A position
// outside root gives "". It returns nil when server, repo or sha is empty, or repo is
// not of the shape `owner/name` (see repoShape), so that nothing of
// the environment can close the link or add Markdown of its own.
func GitHubLinks(server, repo, sha, root string) func(model.Pos) string {
	if server == "" || sha == "" || !repoShape.MatchString(repo) || strings.HasSuffix(repo, "/.") || strings.HasSuffix(repo, "/..") {
		return nil
	}
	if abs, err := filepath.Abs(root); err == nil {
		root = abs
	}
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	base := strings.TrimRight(server, "/") + "/" + repo + "/blob/" + url.PathEscape(sha) + "/"
	return func(p model.Pos) string {
		if !p.IsValid() {
			return ""
		}
		abs, err := filepath.Abs(p.File)
		if err != nil {
			return ""
		}
		if r, err := filepath.EvalSymlinks(abs); err == nil {
			abs = r
		}
		rel, err := filepath.Rel(root, abs)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return ""
		}
		var segs []string
		for _, s := range strings.Split(filepath.ToSlash(rel), "/") {
			segs = append(segs, url.PathEscape(s))
		}
		return base + strings.Join(segs, "/") + "#L" + strconv.Itoa(p.Line)
	}
}

// repoShape is GITHUB_REPOSITORY's shape, `owner/name`: GitHub's owner names are
// letters, digits and `-`; repository names also `_` and `.`, but not `.` or `..`.
var repoShape = regexp.MustCompile(`^[A-Za-z0-9-]+/[A-Za-z0-9_.-]+$`)

// WriteMarkdown renders the pull-request comment: a summary table and the notes; the
// named types with findings (each once, with the URNs it reaches); then per bounded
// context its URNs, those with breaking changes first, each with its fix, its breaking
// findings and the others; long lists folded (<details>); positions linked to the head
// commit when l.Link is set.
func (r *Report) WriteMarkdown(w io.Writer, l Labels) error {
	d := markdownData{Mode: r.Mode, Old: l.Old, New: l.New, Added: len(r.Added), Removed: len(r.Removed),
		Changed: len(r.Changed), Breaking: r.Count(Breaking), Notes: r.Notes}
	status := map[string]string{}
	for _, u := range r.Added {
		status[u] = "added"
	}
	for _, u := range r.Removed {
		status[u] = "removed"
	}
	link := func(f Finding) string {
		if l.Link == nil {
			return ""
		}
		return l.Link(f.Anchor)
	}
	types := map[string]*markdownSection{}
	urns := map[string]*markdownSection{}
	var typeOrder, urnOrder []string
	via := map[string][]markdownVia{}
	for _, f := range r.Findings {
		var sec *markdownSection
		if f.Type != "" {
			if sec = types[f.Type]; sec == nil {
				sec = &markdownSection{Name: f.Type, Fix: r.TypeFix[f.Type], Reaches: f.Reaches, FoldReaches: len(f.Reaches) > foldAfter}
				if tf, ok := r.typeFix[f.Type]; ok {
					sec.typeFix = &tf
				}
				types[f.Type] = sec
				typeOrder = append(typeOrder, f.Type)
			}
		} else {
			if sec = urns[f.URN]; sec == nil {
				st := status[f.URN]
				if st == "" {
					st = "changed"
				}
				sec = &markdownSection{Name: f.URN, Status: st, Fix: r.Mint[f.URN]}
				urns[f.URN] = sec
				urnOrder = append(urnOrder, f.URN)
			}
		}
		mf := markdownFinding{Finding: f, Link: link(f), HasFix: sec.Fix != ""}
		if f.Severity == Breaking {
			sec.Breaking++
			sec.Findings = append(sec.Findings, mf)
		} else {
			sec.Others = append(sec.Others, mf)
		}
	}
	sort.Strings(typeOrder)
	for _, name := range typeOrder {
		t := types[name]
		for _, u := range t.Reaches {
			via[u.URN] = append(via[u.URN], markdownVia{Type: name, Path: u.Path, Breaking: t.Breaking})
			if urns[u.URN] == nil {
				urns[u.URN] = &markdownSection{Name: u.URN, Status: "changed"}
				urnOrder = append(urnOrder, u.URN)
			}
		}
	}
	for _, name := range typeOrder {
		t := types[name]
		t.FoldOthers = len(t.Others) > foldAfter
		d.Types = append(d.Types, *t)
	}
	sort.SliceStable(d.Types, func(i, j int) bool { return (d.Types[i].Breaking > 0) && d.Types[j].Breaking == 0 })
	sort.Strings(urnOrder)
	ctxs := map[string]*markdownContext{}
	var ctxOrder []string
	for _, u := range urnOrder {
		sec := urns[u]
		sec.Via = via[u]
		sec.FoldOthers = len(sec.Others) > foldAfter
		name := model.URNContext(u)
		ctx := ctxs[name]
		if ctx == nil {
			ctx = &markdownContext{Name: name}
			ctxs[name] = ctx
			ctxOrder = append(ctxOrder, name)
		}
		ctx.Count++
		ctx.Breaking += sec.Breaking
		switch {
		case sec.Breaking > 0:
			ctx.Loud = append(ctx.Loud, *sec)
		case len(sec.Others) == 0:
			ctx.ViaOnly = append(ctx.ViaOnly, *sec)
		default:
			ctx.Quiet = append(ctx.Quiet, *sec)
		}
	}
	sort.Strings(ctxOrder)
	// A context is "breaking" when a URN of it has a breaking finding of its own or uses
	// a named type with one.
	breaking := map[string]bool{}
	for _, name := range ctxOrder {
		ctx := ctxs[name]
		breaking[name] = len(ctx.Loud) > 0
		for _, sec := range ctx.ViaOnly {
			for _, v := range sec.Via {
				breaking[name] = breaking[name] || v.Breaking > 0
			}
		}
		ctx.FoldViaOnly = len(ctx.ViaOnly) > foldAfter
		ctx.FoldQuiet = len(ctx.Quiet) > foldAfter
		d.Contexts = append(d.Contexts, *ctx)
	}
	sort.SliceStable(d.Contexts, func(i, j int) bool {
		return breaking[d.Contexts[i].Name] && !breaking[d.Contexts[j].Name]
	})
	out, err := fitMarkdown(d)
	if err != nil {
		return err
	}
	_, err = io.WriteString(w, out)
	return err
}

// fitMarkdown renders d within MarkdownLimit: with the lists of each of mdLevels in
// turn; then with the last level and as many bounded contexts, then named types, as fit
// (the breaking ones come first); at worst cut at a line with a last line that says so.
func fitMarkdown(full markdownData) (string, error) {
	render := func(lim mdLimits, types, contexts int) (string, error) {
		d := full
		var typesMore, ctxMore int
		d.Types, typesMore = limit(full.Types, types)
		d.Types = append([]markdownSection(nil), d.Types...)
		for i := range d.Types {
			d.Types[i] = d.Types[i].cut(lim)
		}
		d.TypesMore = typesMore
		d.Contexts, ctxMore = limit(full.Contexts, contexts)
		d.Contexts = append([]markdownContext(nil), d.Contexts...)
		for i := range d.Contexts {
			d.Contexts[i] = d.Contexts[i].cut(lim)
		}
		d.ContextsMore, d.ContextsMoreURNs = ctxMore, 0
		for _, c := range full.Contexts[len(d.Contexts):] {
			d.ContextsMoreURNs += c.Count
		}
		d.Short = lim != mdLevels[0] || typesMore > 0 || ctxMore > 0
		d.Limit = fmt.Sprintf("%d,%03d", MarkdownLimit/1000, MarkdownLimit%1000)
		var b strings.Builder
		err := mdTemplate.Execute(&b, d)
		return b.String(), err
	}
	nt, nc := len(full.Types), len(full.Contexts)
	for _, lim := range mdLevels {
		out, err := render(lim, nt, nc)
		if err != nil || len(out) <= MarkdownLimit {
			return out, err
		}
	}
	lim := mdLevels[len(mdLevels)-1]
	fits := func(types, contexts int) bool {
		out, err := render(lim, types, contexts)
		return err == nil && len(out) <= MarkdownLimit
	}
	// The most contexts that fit with every type, else the most types with no context.
	if k := sort.Search(nc+1, func(k int) bool { return !fits(nt, k) }) - 1; k >= 0 {
		return render(lim, nt, k)
	}
	if k := sort.Search(nt+1, func(k int) bool { return !fits(k, 0) }) - 1; k >= 0 {
		return render(lim, k, 0)
	}
	out, err := render(lim, 0, 0)
	if err != nil {
		return "", err
	}
	tail := "\n\n**This report is cut here to fit a pull-request comment:** `bqgen diff --format text` (or `--format json`) lists every finding.\n"
	cutAt := strings.LastIndexByte(out[:MarkdownLimit-len(tail)], '\n')
	return out[:max(cutAt, 0)] + tail, nil
}
