package cli

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/babelqueue/bqgen/internal/buildcache"
	"github.com/babelqueue/bqgen/internal/emit/golang"
	"github.com/babelqueue/bqgen/internal/outdir"
	"github.com/babelqueue/bqgen/registry"
)

// The build cache in the CLI (docs/performance.md, "Build cache"): a run of a command
// whose result is a function of its input files, its options and the executable is
// answered from an entry of an earlier run with the same key, after checking that
// what the entry says was written is still on disk. Every entry's key starts with the
// executable's SHA-256 (buildcache), then the command, its options as given (paths
// too: they are printed) and what they resolve to, then registry.Input.Key (every
// registry file's name and bytes).

// treeStore is the build cache as the registry's TreeStore (registry.WithTreeStore):
// the parsed, format-checked tree of each registry file, under the executable's
// identity, the kind "tree" and registry.TreeKey (the file's bytes), so that a run
// after one file changed parses only that file (docs/performance.md, "Build cache").
type treeStore struct{ c *buildcache.Cache }

func (s treeStore) key(k [sha256.Size]byte) buildcache.Key {
	return s.c.NewKey("tree").Bytes(k[:]).Sum()
}

// Get returns the encoded tree stored under the TreeKey k, or false.
func (s treeStore) Get(k [sha256.Size]byte) ([]byte, bool) { return s.c.Get(s.key(k)) }

// Put stores an encoded tree under the TreeKey k.
func (s treeStore) Put(k [sha256.Size]byte, enc []byte) { s.c.Put(s.key(k), enc) }

// withTrees returns opts, and with a build cache the option that makes a load take
// and leave its files' trees there.
func (e env) withTrees(opts ...registry.Option) []registry.Option {
	if !e.cache.Enabled() {
		return opts
	}
	return append(opts[:len(opts):len(opts)], registry.WithTreeStore(treeStore{e.cache}))
}

// contextStore is the build cache as golang.Emit's ContextCache (golang.Options.Cache):
// the rendered file of each context package, under the executable's identity, the
// kind "golang context" and golang.ContextKey (everything the file's rendering reads),
// so that a generate after one context's file changed renders only the contexts whose
// inputs changed (docs/decisions.md, "The build cache").
type contextStore struct{ c *buildcache.Cache }

func (s contextStore) key(k golang.ContextKey) buildcache.Key {
	return s.c.NewKey("golang context").Bytes(k[:]).Sum()
}

// Get returns the file stored under the ContextKey k, or false.
func (s contextStore) Get(k golang.ContextKey) ([]byte, bool) { return s.c.Get(s.key(k)) }

// Put stores a rendered context file under the ContextKey k.
func (s contextStore) Put(k golang.ContextKey, content []byte) { s.c.Put(s.key(k), content) }

// contexts returns the build cache as a ContextCache, or nil without one.
func (e env) contexts() golang.ContextCache {
	if !e.cache.Enabled() {
		return nil
	}
	return contextStore{e.cache}
}

// runEntry is a whole-run entry: what the run printed before it wrote anything (for
// check, all it printed) and its exit code; for a command that writes an output
// directory and got that far, the files it produced.
type runEntry struct {
	Stdout []byte `json:"stdout,omitempty"`
	Stderr []byte `json:"stderr,omitempty"`
	Code   int    `json:"code"`
	// Synced: the run produced Files and synced them into its output directory;
	// Stdout, Stderr are what it printed before, and Code is meaningless (the sync's
	// outcome decides the exit code).
	Synced bool         `json:"synced,omitempty"`
	Files  []fileDigest `json:"files,omitempty"`
}

// fileDigest is one produced file: its name relative to the output directory (a
// outdir.File name), its size in bytes and its SHA-256.
type fileDigest struct {
	Name string `json:"n"`
	Size int    `json:"z"`
	Sum  []byte `json:"s"`
}

// runKey returns the key of cmd's whole-run entry for the registry input in and the
// command's parts (its options as given and resolved), or false without a cache.
func (e env) runKey(cmd string, in *registry.Input, parts ...string) (buildcache.Key, bool) {
	k := e.cache.NewKey("run " + cmd)
	if k == nil {
		return buildcache.Key{}, false
	}
	for _, p := range parts {
		k.String(p)
	}
	ik := in.Key()
	return k.Bytes(ik[:]).Sum(), true
}

// lookupRun returns the whole-run entry under key, or false (none, or not one this
// code wrote).
func (e env) lookupRun(key buildcache.Key) (*runEntry, bool) {
	b, ok := e.cache.Get(key)
	if !ok {
		return nil, false
	}
	var ent runEntry
	if err := json.Unmarshal(b, &ent); err != nil {
		return nil, false
	}
	for _, f := range ent.Files {
		if len(f.Sum) != sha256.Size || f.Size < 0 {
			return nil, false
		}
	}
	return &ent, true
}

// storeRun writes ent under key.
func (e env) storeRun(key buildcache.Key, ent *runEntry) {
	b, err := json.Marshal(ent)
	if err == nil {
		e.cache.Put(key, b)
	}
}

// replayStreams prints what ent recorded and notes the replay.
func (e env) replayStreams(cmd string, ent *runEntry) {
	e.stdout.Write(ent.Stdout)
	e.stderr.Write(ent.Stderr)
	if e.replayed != nil {
		e.replayed(cmd)
	}
}

// recorder passes writes on to w and keeps a copy. failed says a write did not take
// all it was given: what was recorded is then not what the run printed in full, and
// is not stored (stdout redirected to a full disk must not make later runs print
// nothing).
type recorder struct {
	w      io.Writer
	buf    bytes.Buffer
	failed bool
}

func (r *recorder) Write(p []byte) (int, error) {
	n, err := r.w.Write(p)
	r.buf.Write(p[:n])
	if err != nil || n < len(p) {
		r.failed = true
	}
	return n, err
}

// intact reports whether every write to the recorders took all it was given.
func intact(rs ...*recorder) bool {
	for _, r := range rs {
		if r.failed {
			return false
		}
	}
	return true
}

// recording returns e with its output streams recorded (out, errs).
func (e env) recording() (env, *recorder, *recorder) {
	out, errs := &recorder{w: e.stdout}, &recorder{w: e.stderr}
	e.stdout, e.stderr = out, errs
	return e, out, errs
}

// errStale is the error of verifyOutput's source for a file that is not what the
// entry recorded.
var errStale = errors.New("not the recorded content")

// outputRun is one run of a command that writes an output directory (generate,
// jsonschema) with the build cache: its key, and the streams it records until it
// writes.
type outputRun struct {
	cmd, regPath, out string
	opts              outdir.Options
	key               buildcache.Key
	cached            bool
	stdout, stderr    *recorder
}

// startOutput begins cmd's run into out with the registry input in and the
// command's parts; it returns the run and e recording its streams.
func (e env) startOutput(cmd, regPath, out string, opts outdir.Options, in *registry.Input, parts ...string) (*outputRun, env) {
	r := &outputRun{cmd: cmd, regPath: regPath, out: out, opts: opts}
	r.key, r.cached = e.runKey(cmd, in, append([]string{regPath, out}, parts...)...)
	e, r.stdout, r.stderr = e.recording()
	return r, e
}

// replay answers the run from its entry when there is one and the output directory
// still holds exactly what it recorded: it prints what the run printed and reports
// the directory as up to date (or, with --check, nothing), and returns the exit code,
// the entry and true. seen, when set, is given each file's content as it is checked. Any
// difference (a file edited, deleted or added that outdir would remove, a leftover of
// a killed run) makes it return false: the caller runs in full.
func (r *outputRun) replay(e env, seen func(i int, content []byte)) (int, *runEntry, bool) {
	if !r.cached {
		return 0, nil, false
	}
	ent, ok := e.lookupRun(r.key)
	if !ok {
		return 0, nil, false
	}
	if !ent.Synced {
		e.replayStreams(r.cmd, ent)
		return ent.Code, ent, true
	}
	plan, ok := verifyOutput(e.ctx, r.out, ent.Files, r.opts, seen)
	if !ok {
		return 0, nil, false
	}
	e.replayStreams(r.cmd, ent)
	return reportPlan(e, r.cmd, r.regPath, r.out, plan, r.opts.DryRun), ent, true
}

// verifyOutput reports whether the directory out holds files as recorded and nothing
// outdir.SyncSource would change: it plans a dry-run sync of out whose contents are
// the files on disk, each checked against its size and SHA-256 (errStale otherwise),
// so that outdir decides, as for any run, which files are bqgen's and would be
// removed. It returns that plan.
func verifyOutput(ctx context.Context, out string, files []fileDigest, opts outdir.Options, seen func(int, []byte)) (outdir.Plan, bool) {
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = f.Name
	}
	opts.DryRun = true
	plan, err := outdir.SyncSource(ctx, out, outdir.Source{Names: names, Content: func(i int) ([]byte, error) {
		p := filepath.Join(out, filepath.FromSlash(files[i].Name))
		info, err := os.Lstat(p)
		if err != nil || !info.Mode().IsRegular() || info.Size() != int64(files[i].Size) {
			return nil, errStale
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, errStale
		}
		if sum := sha256.Sum256(b); !bytes.Equal(sum[:], files[i].Sum) {
			return nil, errStale
		}
		if seen != nil {
			seen(i, b)
		}
		return b, nil
	}, FromOutput: true}, opts)
	if err != nil || plan.Changed() || len(plan.Unchanged) != len(files) {
		return plan, false
	}
	return plan, true
}

// rejected records a run that ended before writing with code: only a registry that
// was read and rejected (ExitFindings) is a function of the key; I/O and usage
// errors are not kept.
func (r *outputRun) rejected(e env, code int) {
	if r.cached && code == ExitFindings && intact(r.stdout, r.stderr) {
		e.storeRun(r.key, &runEntry{Stdout: r.stdout.buf.Bytes(), Stderr: r.stderr.buf.Bytes(), Code: code})
	}
}

// sync makes the output directory hold src (syncSource) and, once SyncSource
// succeeded, records the run: what it printed so far and every file's digest, taken
// as the files were produced.
func (r *outputRun) sync(e env, src outdir.Source) int {
	var digests []fileDigest
	if r.cached {
		digests = make([]fileDigest, len(src.Names))
		content := src.Content
		src.Content = func(i int) ([]byte, error) {
			b, err := content(i)
			if err == nil {
				sum := sha256.Sum256(b)
				digests[i] = fileDigest{Name: src.Names[i], Size: len(b), Sum: sum[:]}
			}
			return b, err
		}
	}
	// What the run printed before writing is the entry's; syncing reports on the
	// streams of the run itself.
	pre := &runEntry{Stdout: bytes.Clone(r.stdout.buf.Bytes()), Stderr: bytes.Clone(r.stderr.buf.Bytes()), Synced: true}
	e.stdout, e.stderr = r.stdout.w, r.stderr.w
	plan, err := outdir.SyncSource(e.ctx, r.out, src, r.opts)
	if err != nil {
		fmt.Fprintf(e.stderr, "bqgen %s: %s\n", r.cmd, errLine(err))
		return ExitError
	}
	if r.cached && complete(digests) && intact(r.stdout, r.stderr) {
		pre.Files = digests
		e.storeRun(r.key, pre)
	}
	return reportPlan(e, r.cmd, r.regPath, r.out, plan, r.opts.DryRun)
}

// complete reports whether every file's digest was taken.
func complete(ds []fileDigest) bool {
	for _, d := range ds {
		if d.Sum == nil {
			return false
		}
	}
	return true
}
