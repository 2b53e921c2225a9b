package cli

import (
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/pflag"

	"github.com/babelqueue/bqgen/internal/outdir"
	"github.com/babelqueue/bqgen/registry"
)

// starterRegistry is what `bqgen init` writes: one event and one command, every key
// explained. TestInit checks that it passes `bqgen check --strict`.
//
//go:embed init_registry.yaml
var starterRegistry []byte

// registrySchemaFile is the name of the registry's JSON Schema that init writes next to
// the registry; the starter's first line points editors at it.
const registrySchemaFile = "registry.schema.json"

func initCommand() *command {
	return &command{
		name:    "init",
		summary: "write a starter registry.yaml and the registry.schema.json editors check it with",
		usage:   "init [-o FILE]",
		exits:   "0 written, 2 usage or I/O error (a file in the way is never overwritten).",
		examples: []string{
			"bqgen init",
			"bqgen init -o messages/registry.yaml   # also writes messages/registry.schema.json",
			"bqgen init && bqgen check -r registry.yaml --strict",
		},
		flags: func(fs *pflag.FlagSet) func(env, []string) int {
			out := fs.StringP("out", "o", "registry.yaml", "the registry file to write; registry.schema.json is written next to it")
			return func(e env, args []string) int {
				if code, ok := needArgs(e, "init", args, map[string]string{"-o/--out": *out}); !ok {
					return code
				}
				return runInit(e, *out)
			}
		},
	}
}

// runInit writes the starter registry and the registry schema. It never overwrites:
// when either file exists, nothing is written (exit 2).
func runInit(e env, out string) int {
	dir, base := filepath.Split(out)
	if dir == "" {
		dir = "."
	}
	if base == "" || base == registrySchemaFile {
		fmt.Fprintf(e.stderr, "bqgen init: -o must name the registry file (registry.yaml), not %q\n", out)
		return ExitError
	}
	files := []outdir.File{{Name: base, Content: starterRegistry}, {Name: registrySchemaFile, Content: registry.Schema()}}
	for _, f := range files {
		p := filepath.Join(dir, f.Name)
		if _, err := os.Lstat(p); err == nil {
			fmt.Fprintf(e.stderr, "bqgen init: %s exists; init never overwrites a file (pass -o another path)\n", p)
			return ExitError
		} else if !errors.Is(err, fs.ErrNotExist) {
			fmt.Fprintf(e.stderr, "bqgen init: %s\n", errLine(err))
			return ExitError
		}
	}
	if _, err := outdir.Sync(e.ctx, dir, files, outdir.Options{}); err != nil {
		fmt.Fprintf(e.stderr, "bqgen init: %s\n", errLine(err))
		return ExitError
	}
	bq, reg := invokedAs(), shellWord(out)
	fmt.Fprintf(e.stdout, "wrote %s and %s\nnext: edit %s, then\n  %s check -r %s\n  %s generate -r %s -o events\n",
		out, filepath.Join(dir, registrySchemaFile), out, bq, reg, bq, reg)
	return ExitOK
}
