// Package cli implements the bqgen command line. cmd/bqgen only calls Run, so every
// command, flag and exit code is reachable from tests.
//
// Exit codes (docs/decisions.md#exit-codes): 0 clean; 1 the registry or message was read and rejected
// (syntax, rules, limits) or generated output is stale; 2 bqgen could not do its job
// (usage errors, unreadable input, an output it may not touch).
package cli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/spf13/pflag"

	"github.com/babelqueue/bqgen/internal/buildcache"
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
	// lookup reads an environment variable; nil reads the process's (os.Getenv).
	lookup func(string) string
	// cache is the build cache (Runner.Cache); nil: none.
	cache *buildcache.Cache
	// replayed, when set, is called with the command's name when a run is answered
	// from the cache (tests).
	replayed func(cmd string)
	// rerun is the command line that runs the command again as the user gave it, less
	// --check (rerunLine): the fix a stale --check prints. "" when the env was not
	// built by Run.
	rerun string
}

// getenv returns the environment variable key ("" when unset).
func (e env) getenv(key string) string {
	if e.lookup != nil {
		return e.lookup(key)
	}
	return os.Getenv(key)
}

// command is one subcommand: its flags and what it does.
type command struct {
	name     string
	summary  string
	usage    string   // the synopsis after "bqgen "
	examples []string // shell lines shown by `bqgen help <command>`
	// exits says what each exit code means for this command, after "Exit codes: "
	// (default defaultExits).
	exits string
	flags func(fs *pflag.FlagSet) func(e env, args []string) int
}

// defaultExits is the exit-code line of a command that reads a registry and reports findings.
const defaultExits = "0 clean, 1 findings, 2 usage or I/O error."

// Exit-code lines shared by several commands.
const (
	writerExits = "0 written or already up to date, 1 the registry was rejected or --check found stale output, 2 usage or I/O error."
	helpExits   = "0 shown, 2 unknown command."
)

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

// Runner runs bqgen commands with the settings of the process around them. The zero
// Runner is Run: no build cache.
type Runner struct {
	// Cache is the build cache (docs/performance.md, "Build cache"): cmd/bqgen passes
	// buildcache.Default; nil runs every command in full.
	Cache *buildcache.Cache
	// replayed, when set, is called with the command's name when a run is answered
	// from Cache (tests).
	replayed func(cmd string)
}

// Run runs bqgen with args (without the program name) and returns the exit code,
// without a build cache.
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return Runner{}.Run(ctx, args, stdin, stdout, stderr)
}

// Run runs bqgen with args (without the program name) and returns the exit code; what
// it prints and writes is the same with or without r.Cache.
func (r Runner) Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := env{ctx: ctx, stdin: stdin, stdout: stdout, stderr: stderr, cache: r.Cache, replayed: r.replayed}
	if len(args) == 0 {
		printOverview(stderr)
		return ExitError
	}
	name := args[0]
	switch name {
	case "help", "-h", "--help":
		if len(args) > 2 {
			fmt.Fprintf(stderr, "bqgen help: unexpected argument %q\nusage: bqgen help [command]\n", termtext.Line(args[2]))
			return ExitError
		}
		if len(args) > 1 {
			if args[1] == "help" {
				printHelpHelp(stdout)
				return ExitOK
			}
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
	out := &watchedWriter{w: stdout}
	e.stdout = out
	e.rerun = rerunLine(c.name, fs)
	code := run(e, fs.Args())
	if out.err != nil && code != ExitError {
		// What the command printed did not all reach its reader (a full disk, a closed
		// pipe): the run did not do its job, whatever it found (exit 2).
		fmt.Fprintf(stderr, "bqgen %s: writing standard output: %s\n", c.name, errLine(out.err))
		return ExitError
	}
	return code
}

// watchedWriter passes writes to w and keeps the first error w returned.
type watchedWriter struct {
	w   io.Writer
	err error
}

func (ww *watchedWriter) Write(p []byte) (int, error) {
	n, err := ww.w.Write(p)
	if err != nil && ww.err == nil {
		ww.err = err
	}
	return n, err
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

// rerunLine returns the command line `bqgen NAME` with every flag the user set on fs,
// in the order given, each value shell-quoted where it needs it (shellWord), and the
// arguments, but not --check: the command a stale --check tells the user to run, so
// that --import-path, --package and the like are not lost. A flag with a shorthand is
// written with it (-r, -o). The line passes through termtext.Line (no control
// characters reach the terminal).
func rerunLine(name string, fs *pflag.FlagSet) string {
	parts := []string{"bqgen", name}
	fs.Visit(func(f *pflag.Flag) {
		if f.Name == "check" {
			return
		}
		flag := "--" + f.Name
		if f.Shorthand != "" {
			flag = "-" + f.Shorthand
		}
		if f.Value.Type() == "bool" {
			if f.Value.String() != "true" {
				flag = "--" + f.Name + "=false"
			}
			parts = append(parts, flag)
			return
		}
		parts = append(parts, flag, shellWord(f.Value.String()))
	})
	for _, a := range fs.Args() {
		parts = append(parts, shellWord(a))
	}
	return termtext.Line(strings.Join(parts, " "))
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
	fmt.Fprintln(w, "Build cache: $BQGEN_CACHE (an absolute path, or off), else bqgen in the user's cache directory.")
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
	exits := c.exits
	if exits == "" {
		exits = defaultExits
	}
	fmt.Fprintln(w, "\nExit codes: "+exits)
}

// printHelpHelp is `bqgen help help`: help is a command too, so it answers like one.
func printHelpHelp(w io.Writer) {
	fmt.Fprintf(w, "bqgen help — show the list of commands, or one command's usage, flags, examples and exit codes\n\nUsage:\n  bqgen help [command]\n")
	fmt.Fprintln(w, "\nExamples:\n  bqgen help\n  bqgen help generate")
	fmt.Fprintln(w, "\nExit codes: "+helpExits)
}

func versionCommand() *command {
	return &command{
		name:    "version",
		summary: "print bqgen's version and build information",
		usage:   "version",
		exits:   "0 printed, 2 usage error.",
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

// modulePath is bqgen's own module path, as the go tool records it in build information.
const modulePath = "github.com/babelqueue/bqgen"

// versionString reports the module version and VCS revision from runtime/debug.
//
// Built in bqgen's own checkout (go build, go run), the go tool stamps the VCS revision.
// Built as a module at a version (`go tool bqgen` from a `tool` line, `go install
// …@version`), no revision is stamped: the line gives the module version, and under a
// replace directive the replacement and, since a directory replacement has no version of
// its own, the executable's SHA-256 (first 12 hex digits), so two builds can be told
// apart.
func versionString() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "bqgen (unknown version)"
	}
	return describeBuild(info, executableDigest)
}

// describeBuild is versionString's text for info; digest returns the running executable's
// short digest, or "" when it cannot be read.
func describeBuild(info *debug.BuildInfo, digest func() string) string {
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	s := "bqgen " + v + " " + info.GoVersion
	if r := info.Main.Replace; r != nil {
		if r.Version == "" || r.Version == "(devel)" {
			s += ", replaced by the directory " + r.Path
			if h := digest(); h != "" {
				s += ", executable sha256 " + h
			}
		} else {
			s += ", replaced by " + r.Path + " " + r.Version
		}
	}
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

// executableDigest is the first 12 hex digits of the SHA-256 of the running executable,
// or "" when it cannot be read.
func executableDigest() string {
	p, err := os.Executable()
	if err != nil {
		return ""
	}
	f, err := os.Open(p)
	if err != nil {
		return ""
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
}

// invokedAs is how the user runs bqgen, for the commands bqgen prints as next steps:
// "go tool bqgen" when this executable was built as a module at a version (or under a
// replacement) and runs from the Go build cache, where `go tool` keeps the tools of a
// module's `tool` lines (or from the go command's work directory, when it does not cache
// the build); "bqgen" otherwise (an installed binary, a build in bqgen's own
// checkout).
func invokedAs() string {
	info, ok := debug.ReadBuildInfo()
	if !ok || info.Main.Path != modulePath || (info.Main.Replace == nil && (info.Main.Version == "" || info.Main.Version == "(devel)")) {
		return "bqgen"
	}
	exe, err := os.Executable()
	if err != nil {
		return "bqgen"
	}
	var caches []string
	if c := os.Getenv("GOCACHE"); c != "" {
		caches = append(caches, c)
	}
	if d, err := os.UserCacheDir(); err == nil {
		caches = append(caches, filepath.Join(d, "go-build"))
	}
	for _, c := range caches {
		if rel, err := filepath.Rel(c, exe); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return "go tool bqgen"
		}
	}
	// Not cached (-mod=mod, for one): the go command's work directory,
	// $TMPDIR/go-build…/b…/exe/bqgen.
	exeDir := filepath.Dir(exe)
	if filepath.Base(exeDir) == "exe" && strings.HasPrefix(filepath.Base(filepath.Dir(exeDir)), "b") &&
		strings.HasPrefix(filepath.Base(filepath.Dir(filepath.Dir(exeDir))), "go-build") {
		return "go tool bqgen"
	}
	return "bqgen"
}
