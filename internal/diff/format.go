package diff

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/template"

	"github.com/babelqueue/bqgen/internal/mdtext"
	"github.com/babelqueue/bqgen/templates"
)

// Formats lists the output formats of Write.
var Formats = []string{"text", "markdown", "json", "github"}

// Labels name the two registries in outputs (the --against value and the -r path).
type Labels struct{ Old, New string }

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

// subject is "URN $.path" or the URN alone.
func (f Finding) subject() string {
	if f.Path == "" {
		return f.URN
	}
	return f.URN + " " + f.Path
}

// WriteText writes one finding per line (`file:line:col: severity RULE: URN PATH:
// message (old → new)`), an indented remedy line, and a summary.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	for _, f := range r.Findings {
		fmt.Fprintf(&b, "%s: %s %s: %s: %s", f.Where(), f.Severity, f.Rule.ID, f.subject(), f.Message)
		if ch := f.Change(); ch != "" {
			fmt.Fprintf(&b, " (%s)", ch)
		}
		b.WriteString("\n")
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

// jsonFinding is one element of `--format json`; its fields are stable.
type jsonFinding struct {
	Rule     string `json:"rule"`
	Severity string `json:"severity"`
	URN      string `json:"urn"`
	Path     string `json:"path"`
	Old      string `json:"old"`
	New      string `json:"new"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Message  string `json:"message"`
	Remedy   string `json:"remedy"`
}

// WriteJSON writes a stable array of findings.
func (r *Report) WriteJSON(w io.Writer) error {
	out := make([]jsonFinding, 0, len(r.Findings))
	for _, f := range r.Findings {
		out = append(out, jsonFinding{f.Rule.ID, string(f.Severity), f.URN, f.Path, f.Old, f.New,
			f.Pos.File, f.Pos.Line, f.Pos.Column, f.Message, f.Remedy})
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

// markdownData is what templates/diff.md.tmpl renders.
type markdownData struct {
	Mode                              Mode
	Old, New                          string
	Added, Removed, Changed, Breaking int
	URNs                              []markdownURN
}

type markdownURN struct {
	URN      string
	Status   string // added, removed, changed
	Breaking int
	// Mint is the advice to mint the next version when any change is breaking.
	Mint     string
	Findings []Finding
}

var mdTemplate = template.Must(template.New("diff.md.tmpl").Funcs(template.FuncMap{
	"code":   mdtext.Code,
	"text":   mdtext.Escape,
	"codeOr": func(s string) string { return mdCodeOr(s) },
	"plural": func(n int, one, many string) string { return pluralWord(n, one, many) },
}).ParseFS(templates.FS, "diff.md.tmpl"))

func mdCodeOr(s string) string {
	if s == "" {
		return "—"
	}
	return mdtext.Code(s)
}

// WriteMarkdown renders the pull-request comment: a summary table, then per URN its
// findings, most serious first, each with its remedy.
func (r *Report) WriteMarkdown(w io.Writer, l Labels) error {
	d := markdownData{Mode: r.Mode, Old: l.Old, New: l.New, Added: len(r.Added), Removed: len(r.Removed),
		Changed: len(r.Changed), Breaking: r.Count(Breaking)}
	status := map[string]string{}
	for _, u := range r.Added {
		status[u] = "added"
	}
	for _, u := range r.Removed {
		status[u] = "removed"
	}
	for _, f := range r.Findings {
		if n := len(d.URNs); n == 0 || d.URNs[n-1].URN != f.URN {
			st := status[f.URN]
			if st == "" {
				st = "changed"
			}
			d.URNs = append(d.URNs, markdownURN{URN: f.URN, Status: st, Mint: r.Mint[f.URN]})
		}
		u := &d.URNs[len(d.URNs)-1]
		u.Findings = append(u.Findings, f)
		if f.Severity == Breaking {
			u.Breaking++
		}
	}
	// URNs with breaking changes first, then by URN (findings are already sorted by URN).
	var first, rest []markdownURN
	for _, u := range d.URNs {
		if u.Breaking > 0 {
			first = append(first, u)
		} else {
			rest = append(rest, u)
		}
	}
	d.URNs = append(first, rest...)
	var b strings.Builder
	if err := mdTemplate.Execute(&b, d); err != nil {
		return err
	}
	_, err := io.WriteString(w, b.String())
	return err
}
