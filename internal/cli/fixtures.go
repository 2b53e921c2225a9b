package cli

import (
	"fmt"
	"math"
	"runtime/debug"

	"github.com/spf13/pflag"

	"github.com/babelqueue/bqgen/internal/fixtures"
	"github.com/babelqueue/bqgen/internal/outdir"
)

func fixturesCommand() *command {
	return &command{
		name:    "fixtures",
		summary: "write a conformance suite of the registry (manifest.json, fixtures/) for tests in any language",
		usage:   "fixtures -r REGISTRY -o DIR [--check]",
		exits:   writerExits,
		examples: []string{
			"bqgen fixtures -r examples/registry.yaml -o conformance/",
			"bqgen fixtures -r registry/ -o testdata/conformance --check   # CI drift gate",
		},
		flags: func(fs *pflag.FlagSet) func(env, []string) int {
			reg := fs.StringP("registry", "r", "", "registry file, or a directory of *.yaml/*.yml files (required)")
			out := fs.StringP("out", "o", "", "output directory of manifest.json and fixtures/ (required)")
			check := fs.Bool("check", false, "write nothing; exit 1 if any file would change")
			return func(e env, args []string) int {
				if code, ok := needArgs(e, "fixtures", args, map[string]string{"-r/--registry": *reg, "-o/--out": *out}); !ok {
					return code
				}
				if code, ok := needOutDir(e, "fixtures", *out); !ok {
					return code
				}
				return runFixtures(e, *reg, *out, *check)
			}
		},
	}
}

func runFixtures(e env, regPath, out string, check bool) int {
	in, code := readRegistry(e, regPath)
	if in == nil {
		return code
	}
	r, e := e.startOutput("fixtures", regPath, out, outdir.Options{Ext: ".json", Generated: fixtures.IsGenerated, DryRun: check}, in)
	if code, _, ok := r.replay(e, nil); ok {
		return code
	}
	reg, code := loadInput(e, in, "text")
	if reg == nil {
		r.rejected(e, code)
		return code
	}
	var opts fixtures.Options
	if e.getenv("GOMEMLIMIT") == "" {
		// bqgen's own soft memory limit (TuneGC), if any, bounds the garbage: the suite
		// is output, held whole until outdir writes it, so the limit grows by its size
		// (at 10,000 URNs the manifest alone is over 1 GB, and a heap that stays above
		// the limit keeps the collector running).
		if base := debug.SetMemoryLimit(-1); base != math.MaxInt64 {
			opts.Reserve = func(n int) {
				debug.SetMemoryLimit(base + int64(n))
				if raised != nil {
					raised()
				}
			}
			defer debug.SetMemoryLimit(base)
		}
	}
	files, err := fixtures.GenerateWith(reg, opts)
	if err != nil {
		fmt.Fprintf(e.stderr, "bqgen fixtures: %s\n", errLine(err))
		r.rejected(e, ExitFindings)
		return ExitFindings
	}
	return r.sync(e, filesSource(files))
}

// raised, when set (by tests), is called after fixtures raised the memory limit.
var raised func()
