package cli

import (
	"fmt"

	"github.com/spf13/pflag"

	"github.com/babelqueue/bqgen/internal/emit/jsonschema"
	"github.com/babelqueue/bqgen/internal/outdir"
	"github.com/babelqueue/bqgen/registry"
)

func jsonschemaCommand() *command {
	return &command{
		name:    "jsonschema",
		summary: "write JSON Schemas (data and envelope per URN) and a registry.json manifest",
		usage:   "jsonschema -r REGISTRY -o DIR [--draft 2020-12|7] [--base-id PREFIX] [--check] | jsonschema --registry-schema",
		exits:   writerExits,
		examples: []string{
			"bqgen jsonschema -r examples/registry.yaml -o schemas/",
			"bqgen jsonschema -r registry/ -o schemas/ --draft 7 --base-id https://schemas.example.com/events/",
			"bqgen jsonschema --registry-schema > registry.schema.json   # for editors",
		},
		flags: func(fs *pflag.FlagSet) func(env, []string) int {
			reg := fs.StringP("registry", "r", "", "registry file, or a directory of *.yaml/*.yml files (required)")
			out := fs.StringP("out", "o", "", "output directory of the schemas (required)")
			draft := fs.String("draft", jsonschema.Draft2020, "JSON Schema draft: 2020-12 or 7 of the data and envelope schemas (registry.json points at draft-07 manifest-profile schemas, *.sdk.schema.json)")
			baseID := fs.String("base-id", jsonschema.DefaultBaseID, "prefix of every $id; the file name is appended")
			check := fs.Bool("check", false, "write nothing; exit 1 if any file would change")
			regSchema := fs.Bool("registry-schema", false, "print the registry format's own JSON Schema to stdout and exit")
			return func(e env, args []string) int {
				if *regSchema {
					if code, ok := needArgs(e, "jsonschema", args, nil); !ok {
						return code
					}
					if _, err := e.stdout.Write(registry.Schema()); err != nil {
						fmt.Fprintf(e.stderr, "bqgen jsonschema: %s\n", errLine(err))
						return ExitError
					}
					return ExitOK
				}
				if code, ok := needArgs(e, "jsonschema", args, map[string]string{"-r/--registry": *reg, "-o/--out": *out}); !ok {
					return code
				}
				if code, ok := needOutDir(e, "jsonschema", *out); !ok {
					return code
				}
				if *draft != jsonschema.Draft2020 && *draft != jsonschema.Draft7 {
					fmt.Fprintf(e.stderr, "bqgen jsonschema: --draft must be 2020-12 or 7, not %q\n", *draft)
					return ExitError
				}
				return runJSONSchema(e, *reg, *out, jsonschema.Options{Draft: *draft, BaseID: *baseID}, *check)
			}
		},
	}
}

func runJSONSchema(e env, regPath, out string, opts jsonschema.Options, check bool) int {
	in, code := readRegistry(e, regPath)
	if in == nil {
		return code
	}
	r, e := e.startOutput("jsonschema", regPath, out, outdir.Options{Ext: ".json", Generated: jsonschema.IsGenerated, DryRun: check}, in, opts.Draft, opts.BaseID)
	if code, _, ok := r.replay(e, nil); ok {
		return code
	}
	reg, code := loadInput(e, in, "text")
	if reg == nil {
		r.rejected(e, code)
		return code
	}
	// Built while they are written, a few at a time (jsonschema.Files): at 10,000
	// URNs the schemas are 420 MB.
	src, err := jsonschema.Files(reg, opts)
	if err != nil {
		fmt.Fprintf(e.stderr, "bqgen jsonschema: %s\n", errLine(err))
		return ExitError
	}
	return r.sync(e, src)
}
