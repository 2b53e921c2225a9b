package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/babelqueue/bqgen/registry"
)

// jsonDiagnostic is one element of `--format json`: a stable array of these.
type jsonDiagnostic struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Severity string `json:"severity"`
	Rule     string `json:"rule"`
	Message  string `json:"message"`
	Hint     string `json:"hint"`
}

// printDiagnostics writes diags, sorted, in format text (file:line:col: severity ID:
// message, an indented hint line, and a summary), json (a stable array) or github
// (workflow command annotations).
func printDiagnostics(w io.Writer, diags registry.Diagnostics, format string) {
	diags = append(registry.Diagnostics(nil), diags...)
	diags.Sort()
	switch format {
	case "json":
		out := make([]jsonDiagnostic, 0, len(diags))
		for _, d := range diags {
			out = append(out, jsonDiagnostic{d.Pos.File, d.Pos.Line, d.Pos.Column, string(d.Severity), d.Rule, d.Message, d.Hint})
		}
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		enc.Encode(out)
	case "github":
		for _, d := range diags {
			level := "error"
			if d.Severity == registry.SeverityWarning {
				level = "warning"
			}
			msg := d.Message
			if d.Hint != "" {
				msg += "\nhint: " + d.Hint
			}
			fmt.Fprintf(w, "::%s file=%s,line=%d,col=%d,title=%s::%s\n", level, ghProp(d.Pos.File), d.Pos.Line, d.Pos.Column, ghProp(d.Rule), ghData(msg))
		}
	default:
		files := map[string]bool{}
		errs, warns := 0, 0
		for _, d := range diags {
			fmt.Fprintln(w, d.String())
			if d.Hint != "" {
				fmt.Fprintf(w, "    hint: %s\n", d.Hint)
			}
			files[d.Pos.File] = true
			if d.Severity == registry.SeverityWarning {
				warns++
			} else {
				errs++
			}
		}
		if len(diags) > 0 {
			fmt.Fprintf(w, "%s, %s in %s\n", plural(errs, "error"), plural(warns, "warning"), plural(len(files), "file"))
		}
	}
}

func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// ghData escapes a workflow command's message (GitHub Actions: %, CR, LF).
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// ghProp escapes a workflow command's property value (also : and ,).
func ghProp(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
