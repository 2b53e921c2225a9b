package cli

import (
	"fmt"
	"io"
	"strconv"

	"github.com/spf13/pflag"

	"github.com/babelqueue/bqgen/internal/termtext"
	"github.com/babelqueue/bqgen/internal/validate"
)

func validateCommand() *command {
	return &command{
		name:    "validate",
		summary: "check messages against the wire contract and their URN's data schema",
		usage:   "validate -r REGISTRY [--urn URN] FILE|- ...",
		examples: []string{
			"bqgen validate -r examples/registry.yaml message.json",
			"kafka-console-consumer … | bqgen validate -r registry/ -",
			"bqgen validate -r registry.yaml --urn urn:babel:orders:created.v2 data.json   # bare data",
		},
		flags: func(fs *pflag.FlagSet) func(env, []string) int {
			reg := fs.StringP("registry", "r", "", "registry file, or a directory of *.yaml/*.yml files (required)")
			urn := fs.String("urn", "", "validate each input as the bare data of this URN instead of a full envelope")
			return func(e env, args []string) int {
				if code, ok := needArgs(e, "validate", nil, map[string]string{"-r/--registry": *reg}); !ok {
					return code
				}
				if len(args) == 0 {
					fmt.Fprintf(e.stderr, "bqgen validate: no input; pass files, or - for standard input\nrun 'bqgen help validate' for usage\n")
					return ExitError
				}
				return runValidate(e, *reg, *urn, args)
			}
		},
	}
}

func runValidate(e env, regPath, urn string, files []string) int {
	reg, code := load(e, regPath, "text")
	if reg == nil {
		return code
	}
	v, err := validate.New(reg)
	if err != nil {
		fmt.Fprintf(e.stderr, "bqgen validate: %s\n", errLine(err))
		return ExitError
	}
	res, err := validate.Files(v, files, validate.Options{URN: urn}, e.stdin, textReport(e.stdout), e.stderr)
	if err != nil {
		fmt.Fprintf(e.stderr, "bqgen validate: %s\n", errLine(err))
		return ExitError
	}
	if len(files) > 1 {
		fmt.Fprintf(e.stdout, "%s: %d valid, %d invalid\n", plural(len(files), "input"), res.Valid, res.Invalid)
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
// KIND: MESSAGE"; in a stream NAME is "FILE:N" for the Nth message. Names that are not
// plain text are quoted (termtext.Name).
func textReport(w io.Writer) func(validate.Message) error {
	return func(m validate.Message) error {
		name := termtext.Name(m.Input)
		if m.Input == "-" {
			name = "<stdin>"
		}
		if m.Stream {
			name += ":" + strconv.Itoa(m.Index)
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
