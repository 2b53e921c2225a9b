// Package registry loads a bqgen registry (docs/registry-format.md) from YAML, validates it
// against the registry format's own JSON Schema and the registry rules (docs/rules.md; the
// data rules and URN naming of docs/contract.md),
// and resolves it into a *model.Registry.
//
// Every problem is reported as a Diagnostic with the file, line and column of the
// offending key or value and a rule id from Rules. Load reports all problems it finds
// in one run.
package registry

import (
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/babelqueue/bqgen/internal/model"
)

// Limits on the input (docs/decisions.md#exit-codes, docs/decisions.md#yaml-anchors-and-aliases).
// Going over one is a BQ004 error diagnostic.
const (
	// MaxFileSize is the largest registry file read, in bytes (32 MiB: a registry of
	// 10,000 URNs written as internal/synth writes them is 19 MB in one file).
	MaxFileSize = 32 << 20
	// MaxDepth is the deepest nesting of YAML mappings and sequences allowed, counted
	// after alias expansion (the top-level mapping is depth 1).
	MaxDepth = 64
	// MaxNodes is the alias-expansion budget: the number of YAML nodes a file's
	// aliases add when each is expanded (an alias of a 10-node mapping used 3 times
	// adds 30). The nodes written out are bounded by MaxFileSize alone. The alias that
	// crosses the budget is reported.
	MaxNodes = 1_000_000
	// MaxProperties is the largest number of properties one object schema may declare.
	// A message is not a table: past this, split the object into named types.
	MaxProperties = 10_000
	// MaxNumberLength is the longest number literal read, in characters (after YAML's
	// `_` separators are removed). Exact big-number arithmetic on longer literals is
	// quadratic; every int64 and double fits in far fewer.
	MaxNumberLength = 1_000
	// maxMessageLen is the longest diagnostic message or hint printed, in bytes: longer
	// ones (a 1 MB key quoted in a message) keep their head and tail.
	maxMessageLen = 1_000
)

// Severity is how serious a diagnostic is.
type Severity string

// The severities. Errors make Load return a nil registry (and bqgen exit 1); warnings
// fail `bqgen check` only with --strict.
const (
	SeverityError   Severity = "error"
	SeverityWarning Severity = "warning"
)

// Diagnostic is one problem found in a registry.
type Diagnostic struct {
	// Pos is the file and the 1-based line and column of the offending key or value.
	Pos model.Pos
	// Severity is error or warning.
	Severity Severity
	// Rule is the rule id (BQ001…); see Rules.
	Rule string
	// Message says what is wrong, on one line.
	Message string
	// Hint says how to fix it; may be "".
	Hint string
	// Related lists other positions involved (the first definition of a duplicate, …).
	Related []model.Pos
}

// String formats d as `file:line:col: severity RULE: message` (without the hint).
func (d Diagnostic) String() string {
	return fmt.Sprintf("%s: %s %s: %s", d.Pos, d.Severity, d.Rule, d.Message)
}

// Diagnostics is a list of diagnostics.
type Diagnostics []Diagnostic

// HasErrors reports whether any diagnostic has severity error.
func (ds Diagnostics) HasErrors() bool {
	for _, d := range ds {
		if d.Severity == SeverityError {
			return true
		}
	}
	return false
}

// Sort orders ds by file, line, column, rule and message.
func (ds Diagnostics) Sort() {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		if a.Pos.File != b.Pos.File {
			return a.Pos.File < b.Pos.File
		}
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line < b.Pos.Line
		}
		if a.Pos.Column != b.Pos.Column {
			return a.Pos.Column < b.Pos.Column
		}
		if a.Rule != b.Rule {
			return a.Rule < b.Rule
		}
		return a.Message < b.Message
	})
}

//go:embed registry.schema.json
var schemaJSON []byte

// Schema returns the registry format's own JSON Schema (draft 2020-12), as embedded in
// the binary. The caller must not modify the returned bytes.
func Schema() []byte { return schemaJSON }

// ErrLinkOutside is the error of Load for a symbolic link in a registry directory that
// leads outside it: its target would be read, and its values and keys quoted in
// diagnostics (in a pull request's annotations, for one), from anywhere on the machine.
var ErrLinkOutside = errors.New("a symbolic link in a registry directory that leads outside it")

// linkInside returns nil when the symbolic link p resolves to a file inside root (a
// directory with its own symbolic links resolved), else an error wrapping
// ErrLinkOutside that names p (quoted) and says what to do.
func linkInside(p, root string) error {
	target, err := filepath.EvalSymlinks(p)
	if err == nil {
		if rel, rerr := filepath.Rel(root, target); rerr == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel) {
			return nil
		}
	}
	return fmt.Errorf("%q is %w: copy the file into the directory, or pass it with its own -r", p, ErrLinkOutside)
}

// Load reads the registry at path: a .yaml/.yml file, or a directory whose every
// *.yaml/*.yml file below it (in lexical order) is part of one registry.
//
// err is non-nil only when bqgen could not do its job: path cannot be read, or a
// directory holds no registry file (exit code 2). Problems in the content come back as
// diagnostics (exit code 1); when any of them is an error, reg is nil. Positions use
// path as given (for a directory, each file's path joined under it). opts: WithCache,
// WithTreeStore, WithoutGoNames, WithGoNames.
// In a directory, a symbolic link to a file outside it is refused (ErrLinkOutside); a
// file named by path itself may be a link.
func Load(ctx context.Context, path string, opts ...Option) (reg *model.Registry, diags Diagnostics, err error) {
	in, err := Read(ctx, path)
	if err != nil {
		return nil, nil, err
	}
	return LoadInput(ctx, in, opts...)
}

// Input is the content of a registry as Read found it: every file's name and bytes.
// It is what Load reads before it parses anything; LoadInput loads it.
type Input struct {
	srcs   []source
	isDir  bool
	tooBig Diagnostics
}

// Key is the SHA-256 of everything that decides what LoadInput returns for in: each
// file's name (as in positions) and bytes, in order, which files were too big to read
// and what their size diagnostics say, and whether the registry was a directory. Two
// inputs with the same key load alike (bqgen's build cache, docs/performance.md).
func (in *Input) Key() [sha256.Size]byte {
	h := sha256.New()
	k := sourcesKey(in.srcs)
	h.Write(k[:])
	fmt.Fprintf(h, "dir=%t\n", in.isDir)
	for _, d := range in.tooBig {
		fmt.Fprintf(h, "%s\n%s\n", d.Pos.File, d.Message)
	}
	return [sha256.Size]byte(h.Sum(nil))
}

// Read reads the registry at path as Load does (the same files, checks and errors)
// and returns its content without loading it.
func Read(ctx context.Context, path string) (*Input, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("registry: %w", err)
	}
	var names []string
	if fi.IsDir() {
		root, err := filepath.EvalSymlinks(path)
		if err != nil {
			return nil, fmt.Errorf("registry: %w", err)
		}
		err = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				return nil
			}
			if ext := strings.ToLower(filepath.Ext(p)); ext == ".yaml" || ext == ".yml" {
				if d.Type()&fs.ModeSymlink != 0 {
					if err := linkInside(p, root); err != nil {
						return err
					}
				}
				names = append(names, p)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("registry: %w", err)
		}
		if len(names) == 0 {
			return nil, fmt.Errorf("registry: no *.yaml or *.yml files under %s", path)
		}
		sort.Strings(names)
	} else {
		names = []string{path}
	}
	var srcs []source
	var tooBig Diagnostics
	for _, name := range names {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		st, err := os.Stat(name)
		if err != nil {
			return nil, fmt.Errorf("registry: %w", err)
		}
		if !st.Mode().IsRegular() {
			// A FIFO or a device would block or never end: only regular files (or links
			// to them) are registries.
			return nil, fmt.Errorf("registry: %s: not a regular file (%s)", name, st.Mode().Type())
		}
		if st.Size() > MaxFileSize {
			tooBig = append(tooBig, sizeDiag(name, st.Size()))
			srcs = append(srcs, source{name: name, skip: true})
			continue
		}
		// Read at most one byte over the cap: the size of a device, a FIFO or a file
		// that grows (a symbolic link to /dev/zero) says nothing.
		b, err := readCapped(name, st.Size())
		if err != nil {
			return nil, fmt.Errorf("registry: %w", err)
		}
		if len(b) > MaxFileSize {
			tooBig = append(tooBig, sizeDiag(name, -1))
			srcs = append(srcs, source{name: name, skip: true})
			continue
		}
		srcs = append(srcs, source{name: name, data: b})
	}
	return &Input{srcs: srcs, isDir: fi.IsDir(), tooBig: tooBig}, nil
}

// LoadInput loads what Read read: Load is Read then LoadInput.
func LoadInput(ctx context.Context, in *Input, opts ...Option) (reg *model.Registry, diags Diagnostics, err error) {
	srcs, tooBig := in.srcs, in.tooBig
	reg, diags, err = load(ctx, srcs, optionsOf(opts))
	if in.isDir {
		diags = hintGeneratedAsyncAPI(srcs, diags)
	}
	if len(tooBig) > 0 {
		diags = append(diags, tooBig...)
		diags.Sort()
		reg = nil
	}
	return reg, diags, err
}

// asyncAPIStart is how the YAML AsyncAPI document `bqgen asyncapi` writes begins
// (internal/emit/asyncapi marks it with a top-level x-generated-by: bqgen).
const asyncAPIStart = "\nx-generated-by: bqgen\n"

// hintGeneratedAsyncAPI replaces the hint of every error in a file of a directory
// registry that begins as bqgen's YAML AsyncAPI output ("asyncapi: <version>", then
// "x-generated-by: bqgen"): such a file is not registry input, and its errors say so.
// It returns diags, copied when a hint changes (a Cache keeps the slice it returned).
func hintGeneratedAsyncAPI(srcs []source, diags Diagnostics) Diagnostics {
	generated := map[string]bool{}
	for _, s := range srcs {
		first, _, _ := strings.Cut(string(s.data[:min(len(s.data), 200)]), "\n")
		if strings.HasPrefix(first, "asyncapi: ") && strings.HasPrefix(string(s.data[len(first):]), asyncAPIStart) {
			generated[s.name] = true
		}
	}
	if len(generated) == 0 {
		return diags
	}
	diags = append(Diagnostics(nil), diags...)
	for i := range diags {
		if diags[i].Severity == SeverityError && generated[diags[i].Pos.File] {
			diags[i].Hint = "this looks like bqgen's AsyncAPI output; move it out of the registry directory (or write it as .json)"
		}
	}
	return diags
}

// LoadFiles is Load for in-memory sources (tests, fuzzing): files maps a file name, used
// in positions, to its content. Files are read in the order of their names. err is
// non-nil only when files is empty or ctx is done.
func LoadFiles(ctx context.Context, files map[string][]byte, opts ...Option) (*model.Registry, Diagnostics, error) {
	if len(files) == 0 {
		return nil, nil, errors.New("registry: no registry files")
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	var srcs []source
	var tooBig Diagnostics
	for _, n := range names {
		if len(files[n]) > MaxFileSize {
			tooBig = append(tooBig, sizeDiag(n, int64(len(files[n]))))
			srcs = append(srcs, source{name: n, skip: true})
			continue
		}
		srcs = append(srcs, source{name: n, data: files[n]})
	}
	reg, diags, err := load(ctx, srcs, optionsOf(opts))
	if len(tooBig) > 0 {
		diags = append(diags, tooBig...)
		diags.Sort()
		reg = nil
	}
	return reg, diags, err
}

// optionsOf applies opts.
func optionsOf(opts []Option) options {
	var o options
	for _, f := range opts {
		f(&o)
	}
	return o
}

// readCapped reads up to MaxFileSize+1 bytes of the file at name, into a buffer sized
// for size bytes (its size as stat gave it; the read does not trust it, as a file
// may grow or be a device).
func readCapped(name string, size int64) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var b bytes.Buffer
	b.Grow(int(min(max(size, 0), MaxFileSize)) + bytes.MinRead)
	_, err = b.ReadFrom(io.LimitReader(f, MaxFileSize+1))
	return b.Bytes(), err
}

func sizeDiag(name string, size int64) Diagnostic {
	what := fmt.Sprintf("file is %d bytes", size)
	if size < 0 { // read past the cap; the size is unknown (a device, a growing file)
		what = fmt.Sprintf("file is over %d bytes", MaxFileSize)
	}
	return Diagnostic{
		Pos:      model.Pos{File: name, Line: 1, Column: 1},
		Severity: SeverityError,
		Rule:     RuleLimit,
		Message:  fmt.Sprintf("%s; the limit is %d bytes (%d MiB)", what, MaxFileSize, MaxFileSize>>20),
		Hint:     "split the registry into several files in one directory",
	}
}

// source is one registry file's content.
type source struct {
	name string
	data []byte
	skip bool // too big; already reported
}

// clipText shortens s to about n bytes, cut on a rune boundary, noting how long it was.
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s…(%d bytes)", s[:cut], len(s))
}

// clipMiddle shortens s to about n bytes by eliding its middle, keeping the head
// (what is wrong) and the tail (where, and the rest of the sentence).
func clipMiddle(s string, n int) string {
	if len(s) <= n {
		return s
	}
	head, tail := n/2, len(s)-n/2
	for head > 0 && !utf8.RuneStart(s[head]) {
		head--
	}
	for tail < len(s) && !utf8.RuneStart(s[tail]) {
		tail++
	}
	return fmt.Sprintf("%s …(%d bytes elided)… %s", s[:head], tail-head, s[tail:])
}

// tidy keeps every diagnostic's message and hint printable: one line, bounded length.
func tidy(ds Diagnostics) Diagnostics {
	for i := range ds {
		ds[i].Message = clipMiddle(ds[i].Message, maxMessageLen)
		ds[i].Hint = clipMiddle(ds[i].Hint, maxMessageLen)
	}
	return ds
}
