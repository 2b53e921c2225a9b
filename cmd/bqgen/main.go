// Command bqgen compiles a YAML registry of BabelQueue message URNs into a typed Go
// package, after checking it against the BabelQueue data rules.
//
// Run `bqgen help` for the commands; the logic lives in internal/cli.
package main

import (
	"context"
	"os"
	"os/signal"

	"github.com/babelqueue/bqgen/internal/cli"
)

func main() {
	cli.TuneGC(os.LookupEnv)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := cli.Run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
