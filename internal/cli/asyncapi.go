package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"github.com/babelqueue/bqgen/internal/emit/asyncapi"
	"github.com/babelqueue/bqgen/internal/outdir"
)

func asyncapiCommand() *command {
	return &command{
		name:    "asyncapi",
		summary: "write an AsyncAPI 3.0 document: a channel per URN, envelope payloads from the JSON Schemas",
		usage:   "asyncapi -r REGISTRY -o FILE [--title T] [--api-version V] [--check]",
		exits:   writerExits,
		examples: []string{
			"bqgen asyncapi -r examples/registry.yaml -o asyncapi.yaml   # YAML (.yaml/.yml); any other name gets JSON",
			"bqgen asyncapi -r registry/ -o docs/asyncapi.json --title 'Orders platform' --api-version 2.3.0",
			"bqgen asyncapi -r registry/ -o -   # print to stdout",
		},
		flags: func(fs *pflag.FlagSet) func(env, []string) int {
			reg := fs.StringP("registry", "r", "", "registry file, or a directory of *.yaml/*.yml files (required)")
			out := fs.StringP("out", "o", "", "output file: YAML when it ends in .yaml or .yml, else JSON; - for JSON on stdout (required)")
			title := fs.String("title", asyncapi.DefaultTitle, "info.title of the document")
			version := fs.String("api-version", asyncapi.DefaultVersion, "info.version of the document (the version of your messages, not of AsyncAPI)")
			check := fs.Bool("check", false, "write nothing; exit 1 if the file would change")
			return func(e env, args []string) int {
				if code, ok := needArgs(e, "asyncapi", args, map[string]string{"-r/--registry": *reg, "-o/--out": *out}); !ok {
					return code
				}
				if *out != "-" && (strings.HasSuffix(*out, "/") || strings.HasSuffix(*out, string(os.PathSeparator)) || filepath.Base(*out) == ".") {
					fmt.Fprintf(e.stderr, "bqgen asyncapi: -o takes a file name, not a directory: %q\n", *out)
					return ExitError
				}
				if *out == "-" && *check {
					fmt.Fprintln(e.stderr, "bqgen asyncapi: --check needs -o FILE, not -")
					return ExitError
				}
				return runAsyncAPI(e, *reg, *out, asyncapi.Options{Title: *title, Version: *version, YAML: *out != "-" && asyncapi.IsYAMLName(*out)}, *check)
			}
		},
	}
}

func runAsyncAPI(e env, regPath, out string, opts asyncapi.Options, check bool) int {
	if code, ok := outputInRegistry(e, "asyncapi", regPath, out, ".json", "asyncapi writes JSON to a name not ending in .yaml/.yml"); !ok {
		return code
	}
	reg, code := load(e, regPath, "text")
	if reg == nil {
		return code
	}
	doc, err := asyncapi.Emit(reg, opts)
	if err != nil {
		fmt.Fprintf(e.stderr, "bqgen asyncapi: %s\n", errLine(err))
		return ExitError
	}
	if out == "-" {
		if _, err := e.stdout.Write(doc); err != nil {
			fmt.Fprintf(e.stderr, "bqgen asyncapi: %s\n", errLine(err))
			return ExitError
		}
		return ExitOK
	}
	// One file: Ext "" so that nothing else in its directory is ever removed.
	dir, name := filepath.Dir(out), filepath.Base(out)
	plan, err := outdir.Sync(e.ctx, dir, []outdir.File{{Name: name, Content: doc}}, outdir.Options{Generated: asyncapi.IsGenerated, DryRun: check})
	if err != nil {
		fmt.Fprintf(e.stderr, "bqgen asyncapi: %s\n", errLine(err))
		return ExitError
	}
	if check {
		if !plan.Changed() {
			return ExitOK
		}
		fmt.Fprintf(e.stderr, "%s: out of date\nbqgen asyncapi --check: run %s\n", out, fixLine(e, "asyncapi", regPath, out))
		return ExitFindings
	}
	state := "unchanged"
	if plan.Changed() {
		state = "written"
	}
	fmt.Fprintf(e.stdout, "%s: %s\n", out, state)
	return ExitOK
}
