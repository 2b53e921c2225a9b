package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/babelqueue/bqgen/internal/buildcache"
	"github.com/babelqueue/bqgen/internal/synth"
	"github.com/babelqueue/bqgen/registry"
)

// cached is a Runner with a build cache in its own temporary directory that counts
// the runs it answered from the cache.
type cached struct {
	Runner
	mu       sync.Mutex
	replays  int
	cacheDir string
}

func newCached(t *testing.T, exe string) *cached {
	dir := t.TempDir()
	return withCache(dir, exe)
}

func withCache(dir, exe string) *cached {
	c := &cached{cacheDir: dir}
	c.Runner = Runner{Cache: buildcache.New(dir, []byte(exe)), replayed: func(string) {
		c.mu.Lock()
		c.replays++
		c.mu.Unlock()
	}}
	return c
}

type result struct {
	code           int
	stdout, stderr string
}

// run runs args and reports whether the run was a replay.
func (c *cached) run(t *testing.T, args ...string) (result, bool) {
	t.Helper()
	c.mu.Lock()
	before := c.replays
	c.mu.Unlock()
	var stdout, stderr bytes.Buffer
	code := c.Run(context.Background(), args, strings.NewReader(""), &stdout, &stderr)
	c.mu.Lock()
	defer c.mu.Unlock()
	return result{code, stdout.String(), stderr.String()}, c.replays > before
}

// uncached runs args without a cache.
func uncached(args ...string) result {
	var stdout, stderr bytes.Buffer
	code := Run(context.Background(), args, strings.NewReader(""), &stdout, &stderr)
	return result{code, stdout.String(), stderr.String()}
}

// snapshot is every regular file below dir (listDir), or nil when dir is missing.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	if _, err := os.Stat(dir); err != nil {
		return nil
	}
	return listDir(t, dir)
}

// restore makes dir hold exactly files (nil: no dir).
func restore(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if files == nil {
		return
	}
	for name, content := range files {
		putFile(t, filepath.Join(dir, filepath.FromSlash(name)), content)
	}
}

// asUncached runs args with c from the state out is in, then again without a cache
// from the same state (out restored), and fails unless both print the same, exit
// alike and leave out alike. It reports whether c's run was a replay.
func (c *cached) asUncached(t *testing.T, out string, args ...string) (result, bool) {
	t.Helper()
	before := snapshot(t, out)
	got, replayed := c.run(t, args...)
	after := snapshot(t, out)
	restore(t, out, before)
	want := uncached(args...)
	if got != want {
		t.Fatalf("bqgen %s with the cache (replayed %v):\n%+v\nwithout:\n%+v", strings.Join(args, " "), replayed, got, want)
	}
	if wantAfter := snapshot(t, out); !reflect.DeepEqual(after, wantAfter) {
		t.Fatalf("bqgen %s: the output directory differs from a run without the cache", strings.Join(args, " "))
	}
	return got, replayed
}

// computedThenReplayed runs args twice (asUncached) and fails unless the first run
// is computed and the second, identical one replayed.
func (c *cached) computedThenReplayed(t *testing.T, out string, args ...string) {
	t.Helper()
	if _, replayed := c.asUncached(t, out, args...); replayed {
		t.Fatalf("%v: the first run was replayed", args)
	}
	if _, replayed := c.asUncached(t, out, args...); !replayed {
		t.Fatalf("%v: an identical run was not replayed", args)
	}
}

// synthDir writes a synthetic registry of n URNs (internal/synth) into a new
// directory and returns it.
func synthDir(t *testing.T, n int, seed uint64) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "reg")
	for name, b := range synth.Files(synth.Options{Messages: n, Seed: seed}) {
		putFile(t, filepath.Join(dir, name), string(b))
	}
	return dir
}

func TestCacheGenerate(t *testing.T) {
	t.Parallel()
	reg := synthDir(t, 40, 1)
	out := filepath.Join(t.TempDir(), "events")
	args := []string{"generate", "-r", reg, "-o", out, "--import-path", "example.com/events"}
	check := append(append([]string(nil), args...), "--check")
	c := newCached(t, "exe-1")

	if _, replayed := c.asUncached(t, out, args...); replayed {
		t.Fatal("the first run was a replay")
	}
	res, replayed := c.asUncached(t, out, args...)
	if !replayed {
		t.Fatal("an identical run on an up-to-date output was not replayed")
	}
	total := len(listDir(t, out))
	if want := fmt.Sprintf("%s: 0 written, 0 removed, %d unchanged\n", out, total); res.stdout != want || res.code != ExitOK {
		t.Fatalf("replayed %+v; want stdout %q", res, want)
	}
	if _, replayed := c.asUncached(t, out, check...); !replayed {
		t.Fatal("--check on an up-to-date output was not replayed")
	}

	// Any option that changes the output is in the key.
	other := append(append([]string(nil), args...), "--package", "other")
	if _, replayed := c.asUncached(t, out, other...); replayed {
		t.Fatal("--package other was replayed")
	}
	if _, replayed := c.asUncached(t, out, args...); replayed {
		t.Fatal("replayed over the output of --package other")
	}
	otherImp := []string{"generate", "-r", reg, "-o", out, "--import-path", "example.com/other"}
	if _, replayed := c.asUncached(t, out, otherImp...); replayed {
		t.Fatal("another --import-path was replayed")
	}
	c.run(t, args...)

	// Another executable never reads this one's entries.
	if _, replayed := withCache(c.cacheDir, "exe-2").run(t, args...); replayed {
		t.Fatal("another executable's entry was replayed")
	}

	// Any byte of the registry is in the key.
	ctxFile := filepath.Join(reg, "orders.yaml")
	b, err := os.ReadFile(ctxFile)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(b), "Synthetic message number 0.", "Synthetic message number 0!", 1)
	if edited == string(b) {
		t.Fatal("the edit changed nothing")
	}
	putFile(t, ctxFile, edited)
	res, replayed = c.asUncached(t, out, args...)
	if replayed || !strings.Contains(res.stdout, fmt.Sprintf(": 1 written, 0 removed, %d unchanged", total-1)) {
		t.Fatalf("after a registry edit: replayed %v, %q", replayed, res.stdout)
	}
	if _, replayed := c.asUncached(t, out, args...); !replayed {
		t.Fatal("not replayed after the edited registry's run")
	}

	// A hand-edited output file is reported by --check and regenerated.
	gen := filepath.Join(out, "orders", "orders.go")
	orig, err := os.ReadFile(gen)
	if err != nil {
		t.Fatal(err)
	}
	putFile(t, gen, string(orig)+"// edited\n")
	res, replayed = c.asUncached(t, out, check...)
	if replayed || res.code != ExitFindings || !strings.Contains(res.stderr, gen+": out of date") {
		t.Fatalf("--check after a hand edit: replayed %v, %+v", replayed, res)
	}
	res, replayed = c.asUncached(t, out, args...)
	if replayed || !strings.Contains(res.stdout, ": 1 written") {
		t.Fatalf("after a hand edit: replayed %v, %q", replayed, res.stdout)
	}
	if got, _ := os.ReadFile(gen); !bytes.Equal(got, orig) {
		t.Fatal("the hand-edited file was not regenerated")
	}
	// An edit that keeps the size is caught by the hash.
	same := bytes.Clone(orig)
	same[len(same)-2] ^= 0x20
	putFile(t, gen, string(same))
	if res, replayed := c.asUncached(t, out, check...); replayed || res.code != ExitFindings {
		t.Fatalf("--check after a same-size edit: replayed %v, %+v", replayed, res)
	}
	// A deleted file is written again.
	if err := os.Remove(gen); err != nil {
		t.Fatal(err)
	}
	if res, replayed := c.asUncached(t, out, args...); replayed || !strings.Contains(res.stdout, ": 1 written") {
		t.Fatalf("after a deletion: replayed %v, %q", replayed, res.stdout)
	}
	// A generated file bqgen no longer produces is removed, a killed run's
	// leftover too: a replay would leave them.
	stray := filepath.Join(out, "orders", "old.go")
	putFile(t, stray, generatedHeader+"\npackage orders\n")
	if res, replayed := c.asUncached(t, out, args...); replayed || !strings.Contains(res.stdout, ": 0 written, 1 removed") {
		t.Fatalf("with a stale generated file: replayed %v, %q", replayed, res.stdout)
	}
	putFile(t, filepath.Join(out, "orders", ".bqgen-2746318.tmp"), "x")
	if _, replayed := c.asUncached(t, out, check...); replayed {
		t.Fatal("a leftover of a killed run was replayed over")
	}
	c.run(t, args...)
	// A hand-written file of another package beside the generated ones is warned
	// about on a replay too; one that does not end in .go changes nothing.
	putFile(t, filepath.Join(out, "orders", "extra.go"), "package other\n")
	putFile(t, filepath.Join(out, "orders", "notes.txt"), "notes")
	res, replayed = c.asUncached(t, out, args...)
	if !replayed || !strings.Contains(res.stderr, "extra.go is package other, but bqgen generates package orders") {
		t.Fatalf("with a foreign package: replayed %v, %+v", replayed, res)
	}
	// The output directory gone: generated again.
	os.RemoveAll(out)
	if res, replayed := c.asUncached(t, out, args...); replayed || !strings.Contains(res.stdout, fmt.Sprintf(": %d written", total)) {
		t.Fatalf("into a removed output: replayed %v, %q", replayed, res.stdout)
	}
}

// A rejected registry's findings are replayed, with its exit code, for generate and
// check alike.
func TestCacheRejected(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	reg := filepath.Join(dir, "reg.yaml")
	putFile(t, reg, "version: 1\nmessages:\n  urn:babel:shop:order.placed:\n    data: {type: object, properties: {id: {type: strin}}}\n")
	out := filepath.Join(dir, "out")
	c := newCached(t, "exe")
	for _, args := range [][]string{
		{"generate", "-r", reg, "-o", out, "--import-path", "example.com/x"},
		{"check", "-r", reg},
		{"check", "-r", reg, "--format", "json"},
		{"jsonschema", "-r", reg, "-o", out},
	} {
		res, replayed := c.asUncached(t, out, args...)
		if replayed || res.code != ExitFindings {
			t.Fatalf("%v: first run replayed %v, %+v", args, replayed, res)
		}
		if _, replayed := c.asUncached(t, out, args...); !replayed {
			t.Fatalf("%v: the rejection was not replayed", args)
		}
	}
}

func TestCacheCheck(t *testing.T) {
	t.Parallel()
	reg := synthDir(t, 40, 2)
	// A warning, so that check prints something.
	putFile(t, filepath.Join(reg, "zz.yaml"), "version: 1\nmessages:\n  urn:babel:zz:thing.done:\n    data: {type: object, properties: {orderId: {type: string}}}\n")
	c := newCached(t, "exe")
	for _, args := range [][]string{
		{"check", "-r", reg},
		{"check", "-r", reg, "--strict"},
		{"check", "-r", reg, "--format", "json"},
		{"check", "-r", reg, "--pii"},
	} {
		first, replayed := c.asUncached(t, "", args...)
		if replayed {
			t.Fatalf("%v: the first run was replayed", args)
		}
		second, replayed := c.asUncached(t, "", args...)
		if !replayed || second != first {
			t.Fatalf("%v: second run replayed %v, %+v; first %+v", args, replayed, second, first)
		}
	}
	if r := uncached("check", "-r", reg, "--strict"); r.code != ExitFindings || r.stdout == "" {
		t.Fatalf("the registry has no warning for --strict to fail on: %+v", r)
	}
	putFile(t, filepath.Join(reg, "zz.yaml"), "version: 1\nmessages: {}\n")
	if _, replayed := c.asUncached(t, "", "check", "-r", reg); replayed {
		t.Fatal("check replayed after a registry file changed")
	}
	os.Remove(filepath.Join(reg, "zz.yaml"))
	if _, replayed := c.asUncached(t, "", "check", "-r", reg); replayed {
		t.Fatal("check replayed after a registry file was removed")
	}
}

func TestCacheFixtures(t *testing.T) {
	t.Parallel()
	reg := synthDir(t, 20, 9)
	out := filepath.Join(t.TempDir(), "fixtures")
	args := []string{"fixtures", "-r", reg, "-o", out}
	c := newCached(t, "exe")
	c.computedThenReplayed(t, out, args...)
	files, _ := filepath.Glob(filepath.Join(out, "*.json"))
	if len(files) == 0 {
		t.Fatal("no fixtures")
	}
	os.Remove(files[0])
	if res, replayed := c.asUncached(t, out, append(args, "--check")...); replayed || res.code != ExitFindings {
		t.Fatalf("--check after a deletion: replayed %v, %+v", replayed, res)
	}
}

func TestCacheJSONSchema(t *testing.T) {
	t.Parallel()
	reg := synthDir(t, 40, 3)
	out := filepath.Join(t.TempDir(), "schemas")
	args := []string{"jsonschema", "-r", reg, "-o", out}
	c := newCached(t, "exe")
	c.computedThenReplayed(t, out, args...)
	if _, replayed := c.asUncached(t, out, append(args, "--draft", "7")...); replayed {
		t.Fatal("--draft 7 was replayed")
	}
	if _, replayed := c.asUncached(t, out, append(args, "--base-id", "https://example.com/s/")...); replayed {
		t.Fatal("another --base-id was replayed")
	}
	c.run(t, args...)
	files, _ := filepath.Glob(filepath.Join(out, "*.json"))
	if len(files) < 2 {
		t.Fatalf("schemas: %v", files)
	}
	b, _ := os.ReadFile(files[1])
	putFile(t, files[1], string(b)+"\n")
	res, replayed := c.asUncached(t, out, append(args, "--check")...)
	if replayed || res.code != ExitFindings || !strings.Contains(res.stderr, files[1]+": out of date") {
		t.Fatalf("--check after a hand edit: replayed %v, %+v", replayed, res)
	}
}

// Every entry of the cache corrupt (truncated, altered, garbage): each run is a
// miss and does what a run without the cache does.
func TestCacheCorruptEntries(t *testing.T) {
	t.Parallel()
	reg := synthDir(t, 40, 4)
	out := filepath.Join(t.TempDir(), "events")
	args := []string{"generate", "-r", reg, "-o", out, "--import-path", "example.com/events"}
	c := newCached(t, "exe")
	c.run(t, args...)
	c.run(t, "check", "-r", reg)
	for i, corrupt := range []func([]byte) []byte{
		func(b []byte) []byte { return b[:len(b)/2] },
		func(b []byte) []byte { b = bytes.Clone(b); b[len(b)-1] ^= 1; return b },
		func([]byte) []byte { return []byte("{}") },
		func([]byte) []byte { return nil },
	} {
		n := 0
		filepath.WalkDir(c.cacheDir, func(p string, d os.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() {
				b, _ := os.ReadFile(p)
				os.WriteFile(p, corrupt(b), 0o600)
				n++
			}
			return nil
		})
		if n == 0 {
			t.Fatal("no entries to corrupt")
		}
		for _, a := range [][]string{args, {"check", "-r", reg}} {
			if _, replayed := c.asUncached(t, out, a...); replayed {
				t.Fatalf("corruption %d: %v replayed a corrupt entry", i, a)
			}
		}
	}
	// An entry that is well formed but not one this code wrote (a digest of the
	// wrong length) is a miss too.
	k, _ := env{cache: c.Cache}.runKey("check", mustRead(t, reg), reg, "text", "false", "false")
	c.Cache.Put(k, []byte(`{"synced":true,"files":[{"n":"a.go","z":1,"s":"AAAA"}]}`))
	if _, replayed := c.asUncached(t, out, "check", "-r", reg); replayed {
		t.Fatal("a malformed entry was replayed")
	}
}

// Runs sharing a cache at the same time, into one output directory and into
// several, all do what a run without the cache does.
func TestCacheConcurrentRuns(t *testing.T) {
	t.Parallel()
	reg := synthDir(t, 40, 5)
	root := t.TempDir()
	c := newCached(t, "exe")
	want := uncached("generate", "-r", reg, "-o", filepath.Join(root, "want"), "--import-path", "example.com/events", "--package", "events")
	if want.code != ExitOK {
		t.Fatal(want)
	}
	wantFiles := listDir(t, filepath.Join(root, "want"))
	var wg sync.WaitGroup
	codes := make([]int, 8)
	for i := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out := filepath.Join(root, fmt.Sprint("out", i%3))
			var so, se bytes.Buffer
			codes[i] = c.Run(context.Background(), []string{"generate", "-r", reg, "-o", out, "--import-path", "example.com/events", "--package", "events"}, strings.NewReader(""), &so, &se)
			if i%2 == 0 {
				c.Run(context.Background(), []string{"check", "-r", reg}, strings.NewReader(""), &so, &se)
			}
		}()
	}
	wg.Wait()
	for i, code := range codes {
		if code != ExitOK {
			t.Fatalf("run %d: exit %d", i, code)
		}
	}
	for i := range 3 {
		if got := listDir(t, filepath.Join(root, fmt.Sprint("out", i))); !reflect.DeepEqual(got, wantFiles) {
			t.Fatalf("out%d differs from a run without the cache", i)
		}
	}
	out := filepath.Join(root, "out0")
	if _, replayed := c.asUncached(t, out, "generate", "-r", reg, "-o", out, "--import-path", "example.com/events", "--package", "events"); !replayed {
		t.Fatal("not replayed after the concurrent runs")
	}
}

// The output of a run with the cache (whole-run entries and the format memo) after
// random edits of a synthetic registry is byte for byte that of a run from scratch
// without it (12 edits; 6 with -short).
func TestCacheIncrementalIsFromScratch(t *testing.T) {
	t.Parallel()
	base := synth.Files(synth.Options{Messages: 60, Seed: 6})
	evolved := synth.Files(synth.Options{Messages: 60, Seed: 6, Evolve: true})
	other := synth.Files(synth.Options{Messages: 60, Seed: 7})
	var names []string
	for n := range base {
		if n != "registry.yaml" {
			names = append(names, n)
		}
	}
	reg := filepath.Join(t.TempDir(), "reg")
	restore(t, reg, nil)
	for n, b := range base {
		putFile(t, filepath.Join(reg, n), string(b))
	}
	root := t.TempDir()
	out := filepath.Join(root, "events")
	c := newCached(t, "exe")
	rng := rand.New(rand.NewPCG(22, 1))
	gen := func(out string) []string {
		return []string{"generate", "-r", reg, "-o", out, "--import-path", "example.com/events", "--package", "events"}
	}
	replays, steps := 0, 12
	if testing.Short() {
		steps = 6
	}
	for step := range steps {
		name := names[rng.IntN(len(names))]
		p := filepath.Join(reg, name)
		switch rng.IntN(7) {
		case 0:
			putFile(t, p, string(evolved[name]))
		case 1:
			putFile(t, p, string(other[name]))
		case 2:
			os.Remove(p) // a context gone: its package is removed
		case 3:
			putFile(t, p, string(base[name]))
		case 4: // no edit: a replay
		case 5, 6:
			// One bound of one field, or the last summary of the file: a change
			// in the descriptor tables or at the end of a file's source only.
			b, err := os.ReadFile(p)
			if err != nil {
				putFile(t, p, string(base[name]))
				break
			}
			from, to := "maxLength: 500", "maxLength: 499"
			if strings.Contains(string(b), to) {
				from, to = to, from
			}
			text := string(b)
			if i := strings.LastIndex(text, "summary: "); i >= 0 && rng.IntN(2) == 0 {
				text = text[:i] + "summary: Last. " + text[i+len("summary: "):]
			} else {
				text = strings.Replace(text, from, to, 1)
			}
			putFile(t, p, text)
		}
		res, replayed := c.run(t, gen(out)...)
		if replayed {
			replays++
		}
		fresh := filepath.Join(root, fmt.Sprint("fresh", step))
		want := uncached(gen(fresh)...)
		if res.code != want.code || res.stderr != want.stderr {
			t.Fatalf("step %d: with the cache %+v; from scratch %+v", step, res, want)
		}
		if res.code == ExitOK && !reflect.DeepEqual(listDir(t, out), listDir(t, fresh)) {
			t.Fatalf("step %d (%s): the incremental output differs from a run from scratch", step, name)
		}
		os.RemoveAll(fresh)
	}
	if replays == 0 {
		t.Fatal("no step was replayed: the test does not cover the replay")
	}
}

// BQGEN_CACHE=off: no cache, nothing written to the user's cache directory.
func TestCacheOff(t *testing.T) {
	home := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", filepath.Join(home, "cache"))
	t.Setenv("HOME", home)
	t.Setenv("LocalAppData", filepath.Join(home, "cache"))
	if ucd, err := os.UserCacheDir(); err != nil || !strings.HasPrefix(ucd, home) {
		t.Skipf("the user cache directory %q is not under HOME here", ucd)
	}
	reg := synthDir(t, 20, 8)
	r := Runner{Cache: buildcache.Default(func(k string) string {
		if k == buildcache.EnvVar {
			return buildcache.Off
		}
		return os.Getenv(k)
	})}
	for range 2 {
		var so, se bytes.Buffer
		if code := r.Run(context.Background(), []string{"check", "-r", reg}, strings.NewReader(""), &so, &se); code != ExitOK {
			t.Fatalf("exit %d: %s", code, se.String())
		}
	}
	ucd, _ := os.UserCacheDir()
	if _, err := os.Stat(filepath.Join(ucd, "bqgen")); err == nil {
		t.Fatalf("BQGEN_CACHE=off wrote %s", filepath.Join(ucd, "bqgen"))
	}
	// Unset, the cache is the user's: the same runs write it (the test binary stands
	// in for bqgen's executable).
	r = Runner{Cache: buildcache.Default(func(k string) string {
		if k == buildcache.EnvVar {
			return ""
		}
		return os.Getenv(k)
	})}
	var so, se bytes.Buffer
	if code := r.Run(context.Background(), []string{"check", "-r", reg}, strings.NewReader(""), &so, &se); code != ExitOK {
		t.Fatalf("exit %d: %s", code, se.String())
	}
	if _, err := os.Stat(filepath.Join(ucd, "bqgen")); err != nil {
		t.Fatalf("without BQGEN_CACHE, no cache in the user's cache directory: %v", err)
	}
}

// mustRead reads the registry at path (registry.Read).
func mustRead(t *testing.T, path string) *registry.Input {
	t.Helper()
	in, err := registry.Read(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// A cache directory that cannot be created: every run is a normal one, printing
// nothing more.
func TestCacheUncreatable(t *testing.T) {
	t.Parallel()
	reg := synthDir(t, 20, 10)
	file := filepath.Join(t.TempDir(), "file")
	putFile(t, file, "not a directory")
	c := withCache(filepath.Join(file, "cache"), "exe")
	out := filepath.Join(t.TempDir(), "events")
	for range 2 {
		for _, args := range [][]string{{"check", "-r", reg, "--strict"}, {"generate", "-r", reg, "-o", out, "--import-path", "example.com/events"}} {
			if _, replayed := c.asUncached(t, out, args...); replayed {
				t.Fatalf("%v: replayed without a cache directory", args)
			}
		}
	}
}

// failingWriter is a stream that takes nothing: a full disk (stdout redirected to
// /dev/full), a closed pipe.
type failingWriter struct{}

func (failingWriter) Write(p []byte) (int, error) { return 0, errors.New("no space left on device") }

// TestCacheFailedStreamNotRecorded: a run whose stdout or stderr did not take what it
// printed leaves no entry of it, so that the next run prints it all (`bqgen check >
// /dev/full` once made every later `bqgen check` print nothing). Each command is run
// with each stream failing, on a rejected registry (all it prints is the findings) and
// on one with a warning (printed before the output is written).
func TestCacheFailedStreamNotRecorded(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	putFile(t, bad, "version: 1\nmessages:\n  urn:babel:shop:order.placed:\n    data: {type: object, properties: {id: {type: strin}}}\n")
	warn := filepath.Join(dir, "warn.yaml")
	putFile(t, warn, "version: 1\nmessages:\n  urn:babel:zz:thing.done:\n    data: {type: object, properties: {orderId: {type: string}}}\n")
	out := filepath.Join(dir, "out")
	for _, reg := range []string{bad, warn} {
		for _, args := range [][]string{
			{"generate", "-r", reg, "-o", out, "--import-path", "example.com/x"},
			{"check", "-r", reg},
			{"check", "-r", reg, "--format", "json"},
			{"jsonschema", "-r", reg, "-o", out},
			{"fixtures", "-r", reg, "-o", out},
		} {
			for _, failing := range []string{"stdout", "stderr"} {
				c := newCached(t, "exe")
				stdout, stderr := io.Writer(&bytes.Buffer{}), io.Writer(&bytes.Buffer{})
				if failing == "stdout" {
					stdout = failingWriter{}
				} else {
					stderr = failingWriter{}
				}
				before := snapshot(t, out)
				c.Run(context.Background(), args, strings.NewReader(""), stdout, stderr)
				restore(t, out, before)
				// asUncached fails unless the run prints all that a run without the
				// cache prints; a replay is fine when the stream that failed took
				// nothing of the entry's (the findings of generate go to stderr).
				if res, _ := c.asUncached(t, out, args...); res.stdout+res.stderr == "" {
					t.Fatalf("%v: the registry made it print nothing", args)
				}
			}
		}
	}
}

// TestCacheTrees: with the build cache, a load leaves every registry file's tree in
// it (registry.WithTreeStore), and a run after one file changed takes the others from
// there: check, generate and diff print and write what runs without a cache do; and
// the trees are really read: an entry swapped for another file's tree changes what
// check reports.
func TestCacheTrees(t *testing.T) {
	t.Parallel()
	reg := synthDir(t, 60, 3)
	orig := filepath.Join(t.TempDir(), "orig")
	files := snapshot(t, reg)
	restore(t, orig, files)
	c := newCached(t, "exe")
	if _, replayed := c.asUncached(t, "", "check", "-r", reg); replayed {
		t.Fatal("the first check was replayed")
	}
	store := treeStore{c.Cache}
	var names []string
	for name, content := range files {
		if _, ok := store.Get(registry.TreeKey([]byte(content))); !ok {
			t.Errorf("%s: no tree stored", name)
		}
		if name != "registry.yaml" {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	if len(names) < 3 {
		t.Fatalf("%d context files", len(names))
	}
	edit := func(name string) {
		p := filepath.Join(reg, name)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		i := strings.LastIndex(text, "summary: ")
		if i < 0 {
			t.Fatalf("%s: no summary", name)
		}
		putFile(t, p, text[:i]+"summary: Edited. "+text[i+len("summary: "):])
	}
	edit(names[0])
	out := filepath.Join(t.TempDir(), "events")
	for _, args := range [][]string{
		{"check", "-r", reg},
		{"generate", "-r", reg, "-o", out, "--import-path", "example.com/events"},
		{"diff", "-r", reg, "--against", orig},
	} {
		if _, replayed := c.asUncached(t, out, args...); replayed {
			t.Fatalf("%v after an edit was replayed", args)
		}
	}
	// names[1]'s entry now holds names[2]'s tree: a check that reads it (names[0]
	// edited again, so the run is not replayed) sees names[2]'s messages twice.
	enc, ok := store.Get(registry.TreeKey([]byte(files[names[2]])))
	if !ok {
		t.Fatal("no tree stored")
	}
	store.Put(registry.TreeKey([]byte(files[names[1]])), enc)
	edit(names[0])
	got, replayed := c.run(t, "check", "-r", reg)
	if want := uncached("check", "-r", reg); replayed || got == want {
		t.Fatalf("a swapped tree entry went unread (replayed %v): %+v", replayed, got)
	}
}

// countEntries is the number of entry files in the cache directory dir.
func countEntries(t *testing.T, dir string) int {
	t.Helper()
	n := 0
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() && strings.HasSuffix(p, "-e") {
			n++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// A generate after one message's summary changed takes every other context's file
// from the cache (golang.Options.Cache): it adds three entries, the edited file's
// tree, its context's file and the run's, and writes what a run from scratch writes.
func TestCacheContextFiles(t *testing.T) {
	t.Parallel()
	reg := filepath.Join(t.TempDir(), "reg")
	files := synth.Files(synth.Options{Messages: 60})
	for n, b := range files {
		putFile(t, filepath.Join(reg, n), string(b))
	}
	root := t.TempDir()
	out := filepath.Join(root, "events")
	c := newCached(t, "exe")
	gen := func(out string) []string {
		return []string{"generate", "-r", reg, "-o", out, "--import-path", "example.com/events"}
	}
	if res, replayed := c.run(t, gen(out)...); res.code != ExitOK || replayed {
		t.Fatalf("first run: %+v, replayed %v", res, replayed)
	}
	before := countEntries(t, c.cacheDir)
	p := filepath.Join(reg, "orders.yaml")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(b), "summary: Synthetic message number 0.", "summary: Edited.", 1)
	if edited == string(b) {
		t.Fatal("no summary to edit")
	}
	putFile(t, p, edited)
	res, replayed := c.run(t, gen(out)...)
	if res.code != ExitOK || replayed {
		t.Fatalf("after the edit: %+v, replayed %v", res, replayed)
	}
	if got := countEntries(t, c.cacheDir) - before; got != 3 {
		t.Errorf("the run after one edit added %d cache entries, want 3 (tree, context file, run)", got)
	}
	fresh := filepath.Join(root, "fresh")
	if want := uncached(gen(fresh)...); want.code != ExitOK || want.stderr != res.stderr {
		t.Fatalf("from scratch %+v; with the cache %+v", want, res)
	}
	if !reflect.DeepEqual(listDir(t, out), listDir(t, fresh)) {
		t.Fatal("the output with the context files from the cache differs from a run from scratch")
	}
}
