// Package cli implements the bqgen command line. cmd/bqgen only calls Run, so every
// command, flag and exit code is reachable from tests.
//
// Exit codes (docs/decisions.md#exit-codes): 0 clean; 1 the registry or message was read and rejected
// (syntax, rules, limits) or generated output is stale; 2 bqgen could not do its job
// (usage errors, unreadable input, an output it may not touch).
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/spf13/pflag"

	"github.com/babelqueue/bqgen/internal/termtext"
)

// Exit codes.
const (
	ExitOK       = 0
	ExitFindings = 1
	ExitError    = 2
)

// errUsage marks a usage error (exit 2) whose message has already been made helpful.
var errUsage = errors.New("usage")

// env is what a command gets: its streams and context.
type env struct {
	ctx    context.Context
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
}

// command is one subcommand: its flags and what it does.
type command struct {
	name     string
	summary  string
	usage    string   // the synopsis after "bqgen "
	examples []string // shell lines shown by `bqgen help <command>`
	flags    func(fs *pflag.FlagSet) func(e env, args []string) int
}

func commands() []*command {
	return []*command{generateCommand(), checkCommand(), jsonschemaCommand(), fixturesCommand(), validateCommand(), asyncapiCommand(), diffCommand(), importCommand(), docsCommand(), initCommand(), versionCommand()}
}

func lookup(name string) *command {
	for _, c := range commands() {
		if c.name == name {
			return c
		}
	}
	return nil
}

// Run runs bqgen with args (without the program name) and returns the exit code.
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := env{ctx: ctx, stdin: stdin, stdout: stdout, stderr: stderr}
	if len(args) == 0 {
		printOverview(stderr)
		return ExitError
	}
	name := args[0]
	switch name {
	case "help", "-h", "--help":
		if len(args) > 1 {
			c := lookup(args[1])
			if c == nil {
				return unknownCommand(stderr, args[1])
			}
			printCommandHelp(stdout, c)
			return ExitOK
		}
		printOverview(stdout)
		return ExitOK
	case "-v", "--version":
		name = "version"
	}
	c := lookup(name)
	if c == nil {
		return unknownCommand(stderr, name)
	}
	fs := pflag.NewFlagSet("bqgen "+c.name, pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SortFlags = false
	run := c.flags(fs)
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			printCommandHelp(stdout, c)
			return ExitOK
		}
		fmt.Fprintf(stderr, "bqgen %s: %s\n", c.name, termtext.Line(suggestFlag(err, fs)))
		fmt.Fprintf(stderr, "usage: bqgen %s\nrun 'bqgen help %s' for details\n", c.usage, c.name)
		return ExitError
	}
	return run(e, fs.Args())
}

func unknownCommand(w io.Writer, name string) int {
	fmt.Fprintf(w, "bqgen: unknown command %q", name)
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
	}
	if s := closest(name, append(names, "help")); s != "" {
		fmt.Fprintf(w, "; did you mean %q?", s)
	}
	fmt.Fprintf(w, "\nrun 'bqgen help' for the list of commands\n")
	return ExitError
}

// suggestFlag adds a did-you-mean to pflag's unknown-flag errors.
func suggestFlag(err error, fs *pflag.FlagSet) string {
	msg := err.Error()
	const prefix = "unknown flag: --"
	if !strings.HasPrefix(msg, prefix) {
		return msg
	}
	var names []string
	fs.VisitAll(func(f *pflag.Flag) { names = append(names, f.Name) })
	if s := closest(strings.TrimPrefix(msg, prefix), names); s != "" {
		msg += fmt.Sprintf("; did you mean --%s?", s)
	}
	return msg
}

// closest returns the candidate within edit distance 2 of s, or "".
func closest(s string, candidates []string) string {
	best, bestD := "", 3
	sort.Strings(candidates)
	for _, c := range candidates {
		if d := distance(s, c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// distance is the Levenshtein distance between a and b, in bytes.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func printOverview(w io.Writer) {
	fmt.Fprintln(w, "bqgen compiles a registry of BabelQueue message URNs into typed Go code.")
	fmt.Fprintln(w, "\nUsage:\n  bqgen <command> [flags]\n\nCommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-11s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, "  %-11s %s\n", "help", "show help for a command")
	fmt.Fprintln(w, "\nExit codes: 0 clean, 1 findings (registry rejected, stale output), 2 usage or I/O error.")
	fmt.Fprintln(w, "Run 'bqgen help <command>' for a command's flags and examples.")
}

func printCommandHelp(w io.Writer, c *command) {
	fmt.Fprintf(w, "bqgen %s — %s\n\nUsage:\n  bqgen %s\n", c.name, c.summary, c.usage)
	fs := pflag.NewFlagSet(c.name, pflag.ContinueOnError)
	fs.SortFlags = false
	c.flags(fs)
	if fs.HasFlags() {
		fmt.Fprintf(w, "\nFlags:\n%s", fs.FlagUsages())
	}
	if len(c.examples) > 0 {
		fmt.Fprintln(w, "\nExamples:")
		for _, ex := range c.examples {
			fmt.Fprintf(w, "  %s\n", ex)
		}
	}
	fmt.Fprintln(w, "\nExit codes: 0 clean, 1 findings, 2 usage or I/O error.")
}

func versionCommand() *command {
	return &command{
		name:    "version",
		summary: "print bqgen's version and build information",
		usage:   "version",
		flags: func(fs *pflag.FlagSet) func(env, []string) int {
			return func(e env, args []string) int {
				if len(args) > 0 {
					fmt.Fprintf(e.stderr, "bqgen version: unexpected argument %q\n", args[0])
					return ExitError
				}
				fmt.Fprintln(e.stdout, versionString())
				return ExitOK
			}
		},
	}
}

// versionString reports the module version and VCS revision from runtime/debug.
func versionString() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "bqgen (unknown version)"
	}
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	s := "bqgen " + v + " " + info.GoVersion
	for _, kv := range info.Settings {
		switch kv.Key {
		case "vcs.revision":
			s += " " + kv.Value
		case "vcs.modified":
			if kv.Value == "true" {
				s += "+dirty"
			}
		}
	}
	return s
}
