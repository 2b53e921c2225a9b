// Command bqgen compiles a YAML registry of BabelQueue message URNs into a typed Go
// package, after checking it against the BabelQueue data rules.
//
// Run `bqgen help` for the commands; the logic lives in internal/cli.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/babelqueue/bqgen/internal/buildcache"
	"github.com/babelqueue/bqgen/internal/cli"
)

func main() {
	cli.TuneGC(os.LookupEnv)
	ctx, stop := notifyContext()
	// The build cache ($BQGEN_CACHE, else the user's cache directory; off disables it)
	// is enabled here only: tests and library users of cli.Run never touch it.
	r := cli.Runner{Cache: buildcache.Default(os.Getenv)}
	code := r.Run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// notifyContext returns a context that SIGINT (Ctrl-C) and SIGTERM (what kill, a
// CI runner's timeout, docker stop and systemd send) cancel instead of killing the
// process: a run stops before it writes, or finishes the writing it started
// (internal/outdir), and leaves no temporary file behind. Later signals are caught
// too until main calls stop.
func notifyContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}
