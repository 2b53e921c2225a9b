package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

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

// ghData escapes a workflow command's message (GitHub Actions decodes %25, %0D and %0A):
// %, CR and LF, and also, as %XX of each UTF-8 byte, every other character that is not
// graphic (ESC, BEL and the other C0 and C1 controls, bidi overrides such as U+202E,
// invalid UTF-8), which GitHub does not decode: the log then shows "%1B" where the
// input held ESC, and nothing from the input drives the log viewer or a terminal.
func ghData(s string) string { return ghEscape(s, false) }

// ghProp escapes a workflow command's property value (file=, title=): as ghData, and
// also : and , (%3A, %2C).
func ghProp(s string) string { return ghEscape(s, true) }

func ghEscape(s string, prop bool) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '%' || r == '\r' || r == '\n' || prop && (r == ':' || r == ','),
			r == utf8.RuneError && n <= 1,
			r != '\t' && !unicode.IsGraphic(r):
			for _, c := range []byte(s[i : i+n]) {
				fmt.Fprintf(&b, "%%%02X", c)
			}
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}
