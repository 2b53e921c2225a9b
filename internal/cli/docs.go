package cli

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/pflag"

	"github.com/babelqueue/bqgen/internal/catalog"
	"github.com/babelqueue/bqgen/internal/outdir"
)

func docsCommand() *command {
	return &command{
		name:    "docs",
		summary: "write a Markdown catalog of the registry: contexts, URNs, owners, queues, field tables",
		usage:   "docs -r REGISTRY -o FILE|- [--check]",
		exits:   writerExits,
		examples: []string{
			"bqgen docs -r examples/registry.yaml -o docs/catalog.md",
			"bqgen docs -r registry/ -o - | less",
			"bqgen docs -r registry.yaml -o catalog.md --check   # CI: exit 1 if catalog.md is stale",
		},
		flags: func(fs *pflag.FlagSet) func(env, []string) int {
			reg := fs.StringP("registry", "r", "", "registry file, or a directory of *.yaml/*.yml files (required)")
			out := fs.StringP("out", "o", "", "the Markdown file to write, or - for standard output (required)")
			check := fs.Bool("check", false, "write nothing; exit 1 if the file would change")
			return func(e env, args []string) int {
				if code, ok := needArgs(e, "docs", args, map[string]string{"-r/--registry": *reg, "-o/--out": *out}); !ok {
					return code
				}
				return runDocs(e, *reg, *out, *check)
			}
		},
	}
}

// runDocs renders the catalog and writes it through outdir: only a file that starts
// with the catalog header is ever replaced.
func runDocs(e env, regPath, out string, check bool) int {
	if code, ok := outputInRegistry(e, "docs", regPath, out, ".md", "docs writes Markdown, whatever the name"); !ok {
		return code
	}
	reg, code := load(e, regPath, "text")
	if reg == nil {
		return code
	}
	md, err := catalog.Render(reg, catalog.Options{Source: filepath.ToSlash(regPath)})
	if err != nil {
		fmt.Fprintf(e.stderr, "bqgen docs: %s\n", errLine(err))
		return ExitError
	}
	if out == "-" {
		if _, err := e.stdout.Write(md); err != nil {
			fmt.Fprintf(e.stderr, "bqgen docs: %s\n", errLine(err))
			return ExitError
		}
		return ExitOK
	}
	dir, base := filepath.Split(out)
	if dir == "" {
		dir = "."
	}
	plan, err := outdir.Sync(e.ctx, dir, []outdir.File{{Name: base, Content: md}}, outdir.Options{Generated: catalog.IsGenerated, DryRun: check})
	if err != nil {
		fmt.Fprintf(e.stderr, "bqgen docs: %s\n", errLine(err))
		return ExitError
	}
	if check {
		if plan.Changed() {
			fmt.Fprintf(e.stderr, "%s: out of date\nbqgen docs --check: run %s\n", out, fixLine(e, "docs", regPath, out))
			return ExitFindings
		}
		return ExitOK
	}
	state := "written"
	if !plan.Changed() {
		state = "unchanged"
	}
	fmt.Fprintf(e.stdout, "%s: %s (%s)\n", out, state, plural(len(reg.Messages), "message"))
	return ExitOK
}
