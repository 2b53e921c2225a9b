package registry

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/babelqueue/bqgen/internal/synth"
)

// pinnedGolden holds every diagnostic, hint and related position of every registry
// under testdata (each YAML file on its own, and each directory holding YAML files as
// a directory registry), and of pinnedCases, in load order.
const pinnedGolden = "../testdata/registry/all-diagnostics.golden"

// pinnedCases are in-memory registries for the paths of the loader that testdata does
// not reach: duplicate keys on both sides of the size where a mapping's keys are
// looked up in a map instead of its entries, a key whose value is left out (a
// non-finite number) written again, merge keys, and a synthetic registry with
// findings in many files.
func pinnedCases() map[string]map[string][]byte {
	wide := func(n int, dups ...int) []byte {
		var b strings.Builder
		b.WriteString("version: 1\nmessages:\n  urn:babel:wide:thing.created:\n    summary: A wide thing.\n    data:\n      properties:\n")
		for i := range n {
			fmt.Fprintf(&b, "        f%d: {type: integer, minimum: 0, maximum: .nan}\n", i)
			for _, d := range dups {
				if d == i {
					fmt.Fprintf(&b, "        f%d: {type: string}\n", i/2)
					fmt.Fprintf(&b, "        f%d: {type: string}\n", i)
				}
			}
		}
		b.WriteString("        g: .inf\n        g: 1\n        <<: {h: {type: boolean}, f1: {type: string}}\n")
		return []byte(b.String())
	}
	// Go field names colliding with each other and with the generated methods, in
	// structs on both sides of the size where the planner looks them up in a map.
	fields := func(n int) []byte {
		var b strings.Builder
		b.WriteString("version: 1\nmessages:\n  urn:babel:wide:fields.created:\n    data:\n      properties:\n")
		for i := range n {
			fmt.Fprintf(&b, "        f%d: {type: string}\n", i)
		}
		b.WriteString("        f_2: {type: string}\n        validate: {type: string}\n        log_value: {type: integer}\n        F1: {type: string}\n")
		return []byte(b.String())
	}
	files := synth.Files(synth.Options{Messages: 200})
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for i, n := range names {
		s := string(files[n])
		switch i % 4 {
		case 1:
			s = strings.Replace(s, "type: integer", "type: intger", 1)
		case 2:
			s = strings.Replace(s, "summary:", "summary: x\n    summary:", 1)
		case 3:
			s = strings.Replace(s, "minimum: 0", "minimum: 10, maximum: 1", 1)
		}
		files[n] = []byte(s)
	}
	return map[string]map[string][]byte{
		"wide-10":   {"w.yaml": wide(10, 3, 7)},
		"wide-31":   {"w.yaml": wide(31, 2, 30)},
		"wide-40":   {"w.yaml": wide(40, 5, 33, 39)},
		"wide-100":  {"w.yaml": wide(100, 0, 50, 99)},
		"synth":     files,
		"fields-5":  {"f.yaml": fields(5)},
		"fields-36": {"f.yaml": fields(36)},
		"fields-60": {"f.yaml": fields(60)},
	}
}

// renderFull is every field of ds, one diagnostic a line and its related positions
// below it.
func renderFull(ds Diagnostics) string {
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintf(&b, "%s\n\thint: %s\n", d, d.Hint)
		for _, r := range d.Related {
			b.WriteString("\trelated: " + r.String() + "\n")
		}
	}
	return b.String()
}

// TestDiagnosticsPinned loads every registry of testdata and pinnedCases and compares
// all their diagnostics, hints and related positions, in order, with pinnedGolden:
// a change to the loader's speed must not change a word or the order of what it
// reports (go test ./registry -run DiagnosticsPinned -update rewrites it).
func TestDiagnosticsPinned(t *testing.T) {
	root := "../testdata"
	var paths []string
	dirs := map[string]bool{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if ext := filepath.Ext(p); !d.IsDir() && (ext == ".yaml" || ext == ".yml") {
			paths = append(paths, p)
			dirs[filepath.Dir(p)] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for d := range dirs {
		paths = append(paths, d)
	}
	sort.Strings(paths)
	if len(paths) < 250 {
		t.Fatalf("only %d registries under %s", len(paths), root)
	}
	cases := pinnedCases()
	names := make([]string, 0, len(cases))
	for n := range cases {
		names = append(names, n)
	}
	sort.Strings(names)
	run := func(opts ...Option) string {
		var b strings.Builder
		for _, p := range paths {
			reg, ds, err := Load(context.Background(), p, opts...)
			fmt.Fprintf(&b, "== %s: loaded %v, error %v\n%s", p, reg != nil, err, renderFull(ds))
		}
		for _, n := range names {
			reg, ds, err := LoadFiles(context.Background(), cases[n], opts...)
			fmt.Fprintf(&b, "== %s: loaded %v, error %v\n%s", n, reg != nil, err, renderFull(ds))
		}
		return b.String()
	}
	got := run()
	// The same with a TreeStore (WithTreeStore) that a first pass filled: every clean
	// file's tree comes from the store, and not a word may change.
	store := newMemStore()
	run(WithTreeStore(store))
	store.puts = 0
	if warm := run(WithTreeStore(store)); warm != got {
		got = warm
		defer t.Errorf("with a warm TreeStore (%d trees from it) the diagnostics differ", store.hits)
	}
	if store.puts != 0 || store.hits < 100 {
		t.Errorf("the warm pass put %d trees and took %d from the store", store.puts, store.hits)
	}
	if *update {
		if err := os.WriteFile(pinnedGolden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(pinnedGolden)
	if err != nil {
		t.Fatalf("%v (run go test ./registry -run DiagnosticsPinned -update)", err)
	}
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Fatalf("diagnostics differ from %s at line %d:\ngot  %s\nwant %s", pinnedGolden, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("diagnostics differ from %s: %d lines, want %d", pinnedGolden, len(gl), len(wl))
	}
}
