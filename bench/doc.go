// Package bench holds bqgen's end-to-end benchmarks (cli_test.go): the bqgen binary
// run on the synthetic registries of internal/synth, as a user runs it, with wall
// time, CPU time and peak RSS per command and size, beside the same numbers of a
// build of the baseline commit (baselineCommit, built from the repository's history)
// in the same run, and their ratios (docs/performance.md). A command is added as a
// cliCase. The peer comparison is bench/peers.sh; bench/cmd/synth writes the
// registries for it.
package bench
