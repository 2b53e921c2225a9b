// Package bench holds bqgen's end-to-end benchmarks (cli_test.go): the bqgen binary
// run on the synthetic registries of internal/synth, as a user runs it, with wall
// time, CPU time and peak RSS per command and size (docs/performance.md). The peer
// comparison is bench/peers.sh; bench/cmd/synth writes the registries for it.
package bench
