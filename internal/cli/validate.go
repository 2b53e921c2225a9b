package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/babelqueue/bqgen/internal/termtext"
	"github.com/babelqueue/bqgen/internal/validate"
)

func validateCommand() *command {
	return &command{
		name:    "validate",
		summary: "check messages against the wire contract and their URN's data schema",
		usage:   "validate -r REGISTRY [--urn URN] [--protected] [--format text|json|github] FILE|- ...",
		exits:   "0 every message valid, 1 a message or the registry was rejected, 2 usage or I/O error.",
		examples: []string{
			"kafka-console-consumer … | bqgen validate -r registry/ -",
			"bqgen validate -r registry.yaml --urn urn:babel:orders:created.v2 data.json   # bare data",
			"bqgen validate -r registry/ --protected --format json dead-letters.jsonl > report.json   # personal data encrypted",
		},
		flags: func(fs *pflag.FlagSet) func(env, []string) int {
			reg := fs.StringP("registry", "r", "", "registry file, or a directory of *.yaml/*.yml files (required)")
			urn := fs.String("urn", "", "validate each input as the bare data of this URN instead of a full envelope")
			format := fs.String("format", "text", "output format: text, json (an array, one object per message) or github (an annotation per problem)")
			protected := fs.Bool("protected", false, "the messages' x-gdpr-sensitive values may be encrypted: a string at a protected path (check --pii) is not checked against its schema, and any other value there is reported (it was never protected)")
			return func(e env, args []string) int {
				if code, ok := needArgs(e, "validate", nil, map[string]string{"-r/--registry": *reg}); !ok {
					return code
				}
				switch *format {
				case "text", "json", "github":
				default:
					fmt.Fprintf(e.stderr, "bqgen validate: --format must be text, json or github, not %q\n", *format)
					return ExitError
				}
				if len(args) == 0 {
					fmt.Fprintf(e.stderr, "bqgen validate: no input; pass files, or - for standard input\nrun 'bqgen help validate' for usage\n")
					return ExitError
				}
				return runValidate(e, *reg, *urn, *format, *protected, args)
			}
		},
	}
}

// runValidate validates the inputs and prints one result per message in format (text,
// json or github; see the reports below). Registry diagnostics go to stderr in the same
// format.
func runValidate(e env, regPath, urn, format string, protected bool, files []string) int {
	reg, code := load(e, regPath, format)
	if reg == nil {
		return code
	}
	var opts []validate.Option
	if protected {
		opts = append(opts, validate.WithProtected())
	}
	v, err := validate.New(reg, opts...)
	if err != nil {
		fmt.Fprintf(e.stderr, "bqgen validate: %s\n", errLine(err))
		return ExitError
	}
	report, finish := textReport(e.stdout), func() error { return nil }
	switch format {
	case "json":
		report, finish = jsonReport(e.stdout)
	case "github":
		report = githubReport(e.stdout)
	}
	res, err := validate.Files(v, files, validate.Options{URN: urn}, e.stdin, report, e.stderr)
	if ferr := finish(); err == nil {
		err = ferr
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "bqgen validate: %s\n", errLine(err))
		return ExitError
	}
	// The summary counts messages (a JSON-lines input holds many), after the inputs;
	// one input holding one message has none.
	if n := res.Valid + res.Invalid; format == "text" && (len(files) > 1 || n > 1) {
		fmt.Fprintf(e.stdout, "%s, %s: %d valid, %d invalid\n", plural(len(files), "input"), plural(n, "message"), res.Valid, res.Invalid)
	}
	switch {
	case res.IOErrors > 0:
		return ExitError
	case res.Invalid > 0:
		return ExitFindings
	}
	return ExitOK
}

// textReport prints each message as "NAME: valid" or one line per problem, "NAME: PATH:
// KIND: MESSAGE"; in a stream NAME is "FILE:LINE", the line the message starts on
// (--format json gives both the message's number and its line). Names that are not
// plain text are quoted (termtext.Name).
func textReport(w io.Writer) func(validate.Message) error {
	return func(m validate.Message) error {
		name := termtext.Name(m.Input)
		if m.Input == "-" {
			name = "<stdin>"
		}
		if m.Stream {
			name += ":" + strconv.Itoa(m.Line) // the line the message starts on, as editors read FILE:LINE
		}
		if len(m.Problems) == 0 {
			_, err := fmt.Fprintf(w, "%s: valid\n", name)
			return err
		}
		for _, p := range m.Problems {
			if _, err := fmt.Fprintf(w, "%s: %s\n", name, termtext.Line(p.String())); err != nil {
				return err
			}
		}
		return nil
	}
}

// inputName is an input's name in reports: "<stdin>" for "-".
func inputName(m validate.Message) string {
	if m.Input == "-" {
		return "<stdin>"
	}
	return m.Input
}

// jsonMessage is one element of `validate --format json`.
type jsonMessage struct {
	Input    string        `json:"input"`
	Message  int           `json:"message"`
	Line     int           `json:"line"`
	Valid    bool          `json:"valid"`
	Problems []jsonProblem `json:"problems"`
}

type jsonProblem struct {
	Path    string `json:"path"`
	Kind    string `json:"kind"`
	Message string `json:"message"`
}

// jsonReport writes a JSON array with one object per message, in input order, as the
// messages are validated (a stream of millions is never held): {"input", "message" (its
// position in the input, from 1), "line" (where it starts), "valid", "problems": [{"path",
// "kind", "message"}]}. finish closes the array.
func jsonReport(w io.Writer) (report func(validate.Message) error, finish func() error) {
	n := 0
	report = func(m validate.Message) error {
		jm := jsonMessage{Input: inputName(m), Message: m.Index, Line: m.Line, Valid: len(m.Problems) == 0, Problems: []jsonProblem{}}
		for _, p := range m.Problems {
			jm.Problems = append(jm.Problems, jsonProblem{p.Path, string(p.Kind), p.Message})
		}
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		enc.SetIndent("  ", "  ")
		if err := enc.Encode(jm); err != nil {
			return err
		}
		sep := ",\n  "
		if n == 0 {
			sep = "[\n  "
		}
		n++
		_, err := io.WriteString(w, sep+strings.TrimSuffix(b.String(), "\n"))
		return err
	}
	finish = func() error {
		end := "\n]\n"
		if n == 0 {
			end = "[]\n"
		}
		_, err := io.WriteString(w, end)
		return err
	}
	return report, finish
}

// githubReport writes one GitHub Actions error annotation per problem, at the input
// file and the line its message starts on (no file for standard input); valid messages
// print nothing.
func githubReport(w io.Writer) func(validate.Message) error {
	return func(m validate.Message) error {
		where := ""
		if m.Input != "-" {
			where = fmt.Sprintf("file=%s,line=%d,", ghProp(m.Input), m.Line)
		}
		for _, p := range m.Problems {
			msg := p.Path + ": " + p.Message
			if m.Stream {
				msg = fmt.Sprintf("message %d: %s", m.Index, msg)
			}
			if _, err := fmt.Fprintf(w, "::error %stitle=%s::%s\n", where, ghProp(string(p.Kind)), ghData(msg)); err != nil {
				return err
			}
		}
		return nil
	}
}
