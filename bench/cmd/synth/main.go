// Command synth writes the deterministic synthetic registry of internal/synth
// (N message URNs, a .v2 for one in ten) to a directory, one file per bounded
// context, for bench/peers.sh.
//
//	go run ./bench/cmd/synth -n 1000 -o DIR
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
	out := flag.String("o", "", "output directory (required)")
	flag.Parse()
	if *out == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: synth -n N -o DIR [-seed S]")
		os.Exit(2)
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
