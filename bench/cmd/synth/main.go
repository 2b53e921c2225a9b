// Command synth writes the deterministic synthetic registry of internal/synth
// (N message URNs, a .v2 for one in ten) to a directory, one file per bounded
// context, for bench/peers.sh; or, with -file, as one file.
//
//	go run ./bench/cmd/synth -n 1000 -o DIR
//	go run ./bench/cmd/synth -n 10000 -file registry.yaml
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/babelqueue/bqgen/internal/synth"
)

func main() {
	n := flag.Int("n", 1000, "number of message URNs (before the .v2s)")
	seed := flag.Uint64("seed", 0, "seed of the field mix")
	out := flag.String("o", "", "output directory (required unless -file)")
	file := flag.String("file", "", "write the registry as this one file instead of a directory")
	flag.Parse()
	if (*out == "") == (*file == "") || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: synth -n N (-o DIR | -file FILE) [-seed S]")
		os.Exit(2)
	}
	if *file != "" {
		if err := os.WriteFile(*file, synth.Registry(synth.Options{Messages: *n, Seed: *seed}), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		return
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	for name, data := range synth.Files(synth.Options{Messages: *n, Seed: *seed}) {
		if err := os.WriteFile(filepath.Join(*out, name), data, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
	}
}
