package cli

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/babelqueue/bqgen/internal/diff"
	"github.com/babelqueue/bqgen/internal/synth"
	"github.com/babelqueue/bqgen/registry"
)

// plainDiff is runDiff as two independent loads without a registry.Cache, one after
// the other: what the faster path (Cache.Feed, the old registry loaded beside the
// new one) must print and return for every input.
func plainDiff(e env, regPath, against string, mode diff.Mode, format string) int {
	diagFormat := "text"
	if format == "github" {
		diagFormat = "github"
	}
	newReg, diags, code := loadDiags(e, regPath, diagFormat)
	if newReg == nil {
		if format == "json" && code == ExitFindings {
			printDiagnostics(e.stdout, diags, "json")
		}
		return code
	}
	base, err := diff.LoadAgainst(e.ctx, against, regPath, registry.WithoutGoNames())
	if err != nil {
		fmt.Fprintf(e.stderr, "bqgen diff: %s\n", errLine(err))
		return ExitError
	}
	if base.Diags.HasErrors() {
		fmt.Fprintf(e.stderr, "bqgen diff: the old registry (--against %s) is rejected, so there is nothing sound to compare with; "+
			"fix it there, or compare against another revision (--against git:<older ref>):\n", against)
		printDiagnostics(e.stderr, base.Diags, "text")
		return ExitError
	}
	rep := diff.Compare(base.Registry, newReg, mode)
	if base.Note != "" {
		rep.Notes = append(rep.Notes, base.Note)
	}
	if err := rep.Write(e.stdout, format, diff.Labels{Old: against, New: regPath, Link: githubLinks(e)}); err != nil {
		fmt.Fprintf(e.stderr, "bqgen diff: %s\n", errLine(err))
		return ExitError
	}
	if rep.Breaking() {
		return ExitFindings
	}
	return ExitOK
}

// diffPair writes a random pair of directory registries for seed: synthetic ones,
// the old or the new evolved, and random ones (every keyword, examples, enums), with
// edits a pull request makes (a changed line, a file renamed, one removed) and
// some that make a registry rejected or warned about (a syntax error, a file
// twice: duplicates, whose findings point into both copies).
func diffPair(t *testing.T, seed uint64) (newDir, oldDir string) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 0xd1ff))
	root := t.TempDir()
	newDir, oldDir = filepath.Join(root, "new"), filepath.Join(root, "old")
	var newFiles, oldFiles map[string][]byte
	if rng.IntN(3) == 0 {
		src := synth.Random(synth.RandomOptions{Seed: seed, Messages: 4})
		newFiles = map[string][]byte{"random.yaml": src}
		oldFiles = map[string][]byte{"random.yaml": src}
		if rng.IntN(2) == 0 {
			oldFiles["random.yaml"] = synth.Random(synth.RandomOptions{Seed: seed + 1000, Messages: 4})
		}
	} else {
		n := 20 + rng.IntN(60)
		ev := rng.IntN(2) == 0
		newFiles = synth.Files(synth.Options{Messages: n, Seed: seed, Evolve: ev})
		oldFiles = synth.Files(synth.Options{Messages: n, Seed: seed, Evolve: !ev && rng.IntN(2) == 0})
	}
	names := func(m map[string][]byte) []string {
		var ns []string
		for n := range m {
			ns = append(ns, n)
		}
		sort.Strings(ns)
		return ns
	}
	for _, files := range []map[string][]byte{newFiles, oldFiles} {
		ns := names(files)
		pick := func() string { return ns[rng.IntN(len(ns))] }
		switch rng.IntN(10) {
		case 0: // a line edited
			f := pick()
			files[f] = bytes.Replace(files[f], []byte("Synthetic message number"), []byte("Edited message number"), 1)
		case 1: // a file renamed (the same bytes under another name)
			f := pick()
			files["zz-"+f] = files[f]
			delete(files, f)
		case 2: // a file removed
			if len(ns) > 1 {
				delete(files, pick())
			}
		case 3: // a syntax error
			f := pick()
			files[f] = append(append([]byte(nil), files[f]...), "\n  bad: [unclosed\n"...)
		case 4: // a file twice: duplicate URNs and types, in both copies
			f := pick()
			files["zz-twin-"+f] = files[f]
		case 5: // a warning: a time field typed as a string (BQ-time), the registry still loads
			f := pick()
			files[f] = bytes.Replace(files[f], []byte("        occurred_at: {type: timestamp}"), []byte("        occurred_at: {type: string}"), 1)
		}
	}
	if rng.IntN(2) == 0 {
		// Examples and enum values with findings (their positions come from nodes the
		// new load keeps past the merge), first in the new registry and under another
		// name in the old one: the old load takes the tree and moves its positions to
		// its own name while the new load still reports from those nodes.
		kept := keptFindings(rng.IntN(4) == 0)
		newFiles["aa-kept.yaml"] = kept
		oldFiles["zz-kept-moved.yaml"] = kept
	}
	for dir, files := range map[string]map[string][]byte{newDir: newFiles, oldDir: oldFiles} {
		for name, b := range files {
			writeFile(t, filepath.Join(dir, name), string(b))
		}
	}
	return newDir, oldDir
}

// keptFindings is a registry file whose fields have examples and enum values, which
// the loader reads from their YAML nodes after the file is merged: with findings
// each (BQ025, BQ041: the registry is rejected) or, clean, none.
func keptFindings(clean bool) []byte {
	ts, enum := "1700000000", "9"
	if clean {
		ts, enum = "1700000000000", "3"
	}
	var b strings.Builder
	b.WriteString("version: 1\nmessages:\n")
	for i := range 30 {
		fmt.Fprintf(&b, "  urn:babel:kept:m%d.created:\n    data:\n      properties:\n", i)
		fmt.Fprintf(&b, "        at: {type: timestamp, examples: [%s]}\n", ts)
		fmt.Fprintf(&b, "        n: {type: integer, maximum: 5, enum: [1, %s]}\n", enum)
	}
	return []byte(b.String())
}

// TestDiffFeedDifferential compares runDiff (the old registry loaded beside the new
// one, trees handed over through Cache.Feed) with plainDiff (two loads without a
// Cache) on random registry pairs, in every format and mode, and on each registry
// compared with itself: the same output, byte for byte, and the same exit code.
func TestDiffFeedDifferential(t *testing.T) {
	seeds := 60
	if testing.Short() {
		seeds = 20
	}
	formats := []string{"text", "json", "github", "markdown"}
	modes := []diff.Mode{diff.Backward, diff.Forward, diff.Full}
	kinds := map[int]int{}
	for seed := range uint64(seeds) {
		newDir, oldDir := diffPair(t, seed)
		format, mode := formats[seed%4], modes[seed%3]
		for _, against := range []string{oldDir, newDir} {
			run := func(f func(env, string, string, diff.Mode, string) int) (int, string, string) {
				var out, errOut bytes.Buffer
				e := env{ctx: context.Background(), stdout: &out, stderr: &errOut, lookup: func(string) string { return "" }}
				return f(e, newDir, against, mode, format), out.String(), errOut.String()
			}
			wantCode, wantOut, wantErr := run(plainDiff)
			code, out, errOut := run(runDiff)
			kinds[wantCode]++
			if code != wantCode || out != wantOut || errOut != wantErr {
				t.Errorf("seed %d, --against %s, %s, %s: exit %d, want %d\nstdout:\n%s\nwant:\n%s\nstderr:\n%s\nwant:\n%s",
					seed, filepath.Base(against), format, mode, code, wantCode, out, wantOut, errOut, wantErr)
			}
		}
	}
	// The pairs reach every outcome: no breaking change, breaking changes or a new
	// registry rejected, a rejected old registry.
	for _, c := range []int{ExitOK, ExitFindings, ExitError} {
		if kinds[c] == 0 {
			t.Errorf("no pair exits %d: %v", c, kinds)
		}
	}
}

// TestDiffFeedOldRejectedTwin is a case a shared tree could get wrong: an old
// registry holding a file twice, with an example finding (whose position comes from
// a node the loader keeps past the file's merge), beside a new registry that shares
// no file with it. Each finding names its own copy, in every run, as a load without
// a Cache reports it.
func TestDiffFeedOldRejectedTwin(t *testing.T) {
	root := t.TempDir()
	newDir, oldDir := filepath.Join(root, "new"), filepath.Join(root, "old")
	twin := "version: 1\nmessages:\n  urn:babel:orders:created:\n    data:\n      properties:\n        at: {type: timestamp, examples: [1700000000]}\n"
	writeFile(t, filepath.Join(newDir, "a.yaml"), strings.Replace(twin, "[1700000000]", "[1700000000000]", 1))
	writeFile(t, filepath.Join(oldDir, "a.yaml"), twin)
	writeFile(t, filepath.Join(oldDir, "b.yaml"), twin)
	a, b := filepath.Join(oldDir, "a.yaml"), filepath.Join(oldDir, "b.yaml")
	want := "bqgen diff: the old registry (--against " + oldDir + ") is rejected, so there is nothing sound to compare with; " +
		"fix it there, or compare against another revision (--against git:<older ref>):\n" +
		a + ":6:42: error BQ025: example 1 of field \"at\" has 1700000000, which looks like seconds: a timestamp is Unix milliseconds\n" +
		"    hint: write 1700000000000 (milliseconds)\n" +
		b + ":3:3: error BQ013: URN \"urn:babel:orders:created\" is defined twice (first at " + a + ":3:3)\n" +
		"    hint: a URN is defined once; an incompatible change mints urn:babel:orders:created.v2\n" +
		"2 errors, 0 warnings in 2 files\n"
	for range 20 {
		var out, errOut bytes.Buffer
		e := env{ctx: context.Background(), stdout: &out, stderr: &errOut, lookup: func(string) string { return "" }}
		code := runDiff(e, newDir, oldDir, diff.Backward, "text")
		if code != ExitError || out.Len() != 0 || errOut.String() != want {
			t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s\nwant:\n%s", code, ExitError, out.String(), errOut.String(), want)
		}
		var pout, perr bytes.Buffer
		pe := env{ctx: context.Background(), stdout: &pout, stderr: &perr, lookup: func(string) string { return "" }}
		if pcode := plainDiff(pe, newDir, oldDir, diff.Backward, "text"); pcode != code || perr.String() != errOut.String() {
			t.Fatalf("plain path: exit %d\n%s\nfeed path:\n%s", pcode, perr.String(), errOut.String())
		}
	}
}
