package cli

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/spf13/pflag"

	"github.com/babelqueue/bqgen/internal/importer"
	"github.com/babelqueue/bqgen/internal/outdir"
	"github.com/babelqueue/bqgen/internal/termtext"
	"github.com/babelqueue/bqgen/registry"
)

func importCommand() *command {
	return &command{
		name:    "import",
		summary: "convert a babelqueue-registry (bqschema) registry.json and its schemas into a bqgen registry",
		usage:   "import [--from bqschema] MANIFEST -o FILE|- [--force] [--overwrite] [--schema-root DIR]",
		exits:   "0 converted and clean, 1 something could not be converted or the result fails check, 2 usage or I/O error.",
		examples: []string{
			"bqgen import --from bqschema registry.json -o registry.yaml",
			"bqgen import registry.json -o -   # preview on stdout",
			"bqgen import registry.json -o registry.yaml --force   # write what converts; gaps are marked with # bqgen import: comments",
		},
		flags: func(fs *pflag.FlagSet) func(env, []string) int {
			from := fs.String("from", "bqschema", "source format: bqschema (the babelqueue-registry manifest {\"schemas\":[{\"urn\",\"schema\",\"owner\",\"status\"}]} with draft-07 schema files)")
			out := fs.StringP("out", "o", "", "the registry file to write, or - for standard output (required)")
			force := fs.Bool("force", false, "write the registry even when some constructs cannot be converted (each left out and marked with a comment); the exit code is still 1")
			overwrite := fs.Bool("overwrite", false, "replace an existing output file")
			schemaRoot := fs.String("schema-root", "", "read schema files from anywhere under DIR (default: only the manifest's directory); a schema path outside it is refused")
			return func(e env, args []string) int {
				if code, ok := needArgs(e, "import", nil, map[string]string{"-o/--out": *out}); !ok {
					return code
				}
				if *from != "bqschema" {
					fmt.Fprintf(e.stderr, "bqgen import: --from must be bqschema, not %q\n", *from)
					return ExitError
				}
				if len(args) != 1 {
					fmt.Fprintf(e.stderr, "bqgen import: want one manifest (registry.json), got %d arguments\nrun 'bqgen help import' for usage\n", len(args))
					return ExitError
				}
				return runImport(e, args[0], *out, *force, *overwrite, *schemaRoot)
			}
		},
	}
}

// runImport converts the manifest, reports every issue, writes the registry (unless a
// construct could not be converted and force is off), then runs the registry checks on
// what was written, so rule violations in the imported schemas (a float amount: BQ020)
// surface with their fix.
//
// Exit codes: 0 converted and clean (warnings may be printed); 1 something could not be
// converted (a schema file outside the schema root, not a regular file or too large
// included), or the converted registry fails `bqgen check` (it is written, so the
// diagnostics point into it); 2 usage or I/O errors (an unreadable manifest, one that is
// not a regular file or too large, an existing output file without --overwrite).
func runImport(e env, manifest, out string, force, overwrite bool, schemaRoot string) int {
	res, err := importer.BQSchema(manifest, importer.Options{SchemaRoot: schemaRoot})
	if err != nil {
		fmt.Fprintf(e.stderr, "bqgen import: %s\n", errLine(err))
		return ExitError
	}
	errs := printIssues(e.stderr, res.Issues)
	if errs > 0 && !force {
		fmt.Fprintf(e.stderr, "bqgen import: %s could not be converted; nothing written (--force writes the rest, each gap marked with a `# bqgen import:` comment)\n", plural(errs, "construct"))
		return ExitFindings
	}
	name := out
	if out == "-" {
		name = "(stdout)"
		if _, err := e.stdout.Write(res.YAML); err != nil {
			fmt.Fprintf(e.stderr, "bqgen import: %s\n", errLine(err))
			return ExitError
		}
	} else {
		dir, base := filepath.Split(out)
		if dir == "" {
			dir = "."
		}
		_, err := outdir.Sync(e.ctx, dir, []outdir.File{{Name: base, Content: res.YAML}}, outdir.Options{
			Generated: func([]byte) bool { return overwrite },
		})
		if err != nil {
			if errors.Is(err, outdir.ErrNotGenerated) {
				err = fmt.Errorf("%s exists; pass --overwrite to replace it", out)
			}
			fmt.Fprintf(e.stderr, "bqgen import: %s\n", errLine(err))
			return ExitError
		}
	}
	_, diags, err := registry.LoadFiles(e.ctx, map[string][]byte{name: res.YAML})
	if err != nil {
		fmt.Fprintf(e.stderr, "bqgen import: %s\n", errLine(err))
		return ExitError
	}
	if len(diags) > 0 {
		fmt.Fprintf(e.stderr, "bqgen check on the converted registry:\n")
		printDiagnostics(e.stderr, diags, "text")
	}
	summary := fmt.Sprintf("%s: %s and %s converted from %s", termtext.Name(name), plural(res.Messages, "message"), plural(res.Types, "type"), termtext.Name(manifest))
	w := e.stdout
	if out == "-" {
		w = e.stderr
	}
	fmt.Fprintln(w, summary)
	if errs > 0 || diags.HasErrors() {
		if diags.HasErrors() {
			fmt.Fprintf(e.stderr, "bqgen import: the converted registry does not pass bqgen check; fix %s as the hints say (a change of wire type mints <urn>.v2)\n", name)
		}
		return ExitFindings
	}
	return ExitOK
}

// printIssues prints import issues with their hints and returns the number of errors.
func printIssues(w io.Writer, issues []importer.Issue) int {
	errs := 0
	for _, is := range issues {
		// Messages quote what the manifest and schemas say (URNs, paths): one line each.
		fmt.Fprintln(w, termtext.Line(is.String()))
		if is.Hint != "" {
			fmt.Fprintf(w, "    hint: %s\n", termtext.Line(is.Hint))
		}
		if is.Severity == importer.SeverityError {
			errs++
		}
	}
	return errs
}
