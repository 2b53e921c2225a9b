package cli

import (
	"context"
	"fmt"

	"github.com/spf13/pflag"

	"github.com/babelqueue/bqgen/internal/diff"
	"github.com/babelqueue/bqgen/internal/model"
	"github.com/babelqueue/bqgen/registry"
)

func diffCommand() *command {
	return &command{
		name:    "diff",
		summary: "compare a registry with an older one and flag breaking URN changes",
		usage:   "diff -r REGISTRY --against OLD [--mode backward|forward|full] [--format text|markdown|json|github]",
		exits:   "0 no breaking change under --mode, 1 breaking changes or a registry rejected, 2 usage or I/O error (an unreadable OLD).",
		examples: []string{
			"bqgen diff -r registry.yaml --against git:origin/main            # CI: exit 1 on a breaking change",
			"bqgen diff -r registry/ --against git:v1.4.0:registry --format markdown > comment.md",
			"bqgen diff -r registry.yaml --against old/registry.yaml --mode full --format json",
		},
		flags: func(fs *pflag.FlagSet) func(env, []string) int {
			reg := fs.StringP("registry", "r", "", "the new registry: a file, or a directory of *.yaml/*.yml files (required)")
			against := fs.String("against", "", "the old registry: a PATH, or git:REF[:PATH] read with git show (PATH defaults to -r's place in the repository; a REF with no registry file there, the registry's first pull request, reports every URN as added) (required)")
			mode := fs.String("mode", string(diff.Backward), "compatibility mode: backward (new consumers read old messages), forward (old consumers read new messages) or full")
			format := fs.String("format", "text", "output format: text, markdown, json or github")
			return func(e env, args []string) int {
				if code, ok := needArgs(e, "diff", args, map[string]string{"-r/--registry": *reg}); !ok {
					return code
				}
				if *against == "" {
					fmt.Fprintf(e.stderr, "bqgen diff: --against is required\nrun 'bqgen help diff' for usage\n")
					return ExitError
				}
				m, err := diff.ParseMode(*mode)
				if err != nil {
					fmt.Fprintf(e.stderr, "bqgen diff: %s\n", errLine(err))
					return ExitError
				}
				switch *format {
				case "text", "markdown", "json", "github":
				default:
					fmt.Fprintf(e.stderr, "bqgen diff: --format must be text, markdown, json or github, not %q\n", *format)
					return ExitError
				}
				return runDiff(e, *reg, *against, m, *format)
			}
		},
	}
}

func runDiff(e env, regPath, against string, mode diff.Mode, format string) int {
	diagFormat := "text"
	if format == "github" {
		diagFormat = "github"
	}
	in, code := readRegistry(e, regPath)
	if in == nil {
		return code
	}
	// One cache for both loads: the old registry's unchanged files are not parsed
	// again. The old registry loads beside the new one, taking each tree as soon as
	// the new load has merged its file (Cache.Feed), so that the trees are not all
	// alive at once; what each load returns is what it returns alone.
	cache := registry.NewCache()
	feed, fed := cache.Feed(in)
	ctx, cancel := context.WithCancel(e.ctx)
	defer cancel()
	type loadedBase struct {
		base *diff.Base
		err  error
	}
	based := make(chan loadedBase, 1)
	go func() {
		// Go names play no part in the comparison: the old registry's are not planned.
		b, err := diff.LoadAgainst(ctx, against, regPath, e.withTrees(registry.WithCache(cache), registry.WithoutGoNames())...)
		based <- loadedBase{b, err}
	}()
	newReg, diags, code := loadInputDiags(e, in, diagFormat, feed)
	fed()
	if newReg == nil {
		cancel() // the old registry is not needed
		<-based
		if format == "json" && code == ExitFindings {
			// Machine readers get a JSON document still: the diagnostics, as
			// `bqgen check --format json` writes them (severity "error"/"warning").
			printDiagnostics(e.stdout, diags, "json")
		}
		return code
	}
	lb := <-based
	base, err := lb.base, lb.err
	if err != nil {
		fmt.Fprintf(e.stderr, "bqgen diff: %s\n", errLine(err))
		return ExitError
	}
	if base.Diags.HasErrors() {
		// The new registry is fine; the one to compare with is not: bqgen cannot do its
		// job (exit 2), and says which revision to fix or to use instead.
		fmt.Fprintf(e.stderr, "bqgen diff: the old registry (--against %s) is rejected, so there is nothing sound to compare with; "+
			"fix it there, or compare against another revision (--against git:<older ref>):\n", against)
		printDiagnostics(e.stderr, base.Diags, "text")
		return ExitError
	}
	rep := diff.Compare(base.Registry, newReg, mode)
	if base.Note != "" {
		rep.Notes = append(rep.Notes, base.Note)
		if format == "json" { // the other formats carry the note; the JSON array holds findings only
			fmt.Fprintf(e.stderr, "bqgen diff: note: %s\n", base.Note)
		}
	}
	labels := diff.Labels{Old: against, New: regPath, Link: githubLinks(e)}
	if err := rep.Write(e.stdout, format, labels); err != nil {
		fmt.Fprintf(e.stderr, "bqgen diff: %s\n", errLine(err))
		return ExitError
	}
	if rep.Breaking() {
		return ExitFindings
	}
	return ExitOK
}

// githubLinks links Markdown findings to their lines in the head commit when the
// environment is a GitHub Actions run (GITHUB_SERVER_URL, GITHUB_REPOSITORY,
// GITHUB_SHA; paths relative to GITHUB_WORKSPACE, else the working directory).
func githubLinks(e env) func(model.Pos) string {
	root := e.getenv("GITHUB_WORKSPACE")
	if root == "" {
		root = "."
	}
	return diff.GitHubLinks(e.getenv("GITHUB_SERVER_URL"), e.getenv("GITHUB_REPOSITORY"), e.getenv("GITHUB_SHA"), root)
}
