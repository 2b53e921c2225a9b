package registry

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/babelqueue/bqgen/internal/synth"
)

// prebuildRegistry writes a registry whose files each make the merge refuse the
// prebuild in another way, among files whose prebuilds it takes: a URN and a named
// type defined again in a later file, a `required` name that is no property (a
// did-you-mean suggestion: its budget is spent in file order), and patterns of about
// 20 KB of RE2 each whose total crosses MaxRE2Total in the seventh of eight files,
// some of them used again in later files (analysed within the total, or met first
// past it and not analysed).
func prebuildRegistry(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const head = "version: 1\n"
	msg := func(urn, props string) string {
		return fmt.Sprintf("  %s:\n    summary: s\n    data:\n      properties:\n%s", urn, props)
	}
	write("a.yaml", head+"types:\n  Address:\n    type: object\n    properties:\n      line1: {type: string, pattern: \"^[a-z]+$\"}\n"+
		"messages:\n"+msg("urn:babel:orders:created", "        id: {type: integer, enum: [1, 2], examples: [1]}\n        at: {type: Address}\n"))
	write("b.yaml", head+"types:\n  Address:\n    type: object\n    properties:\n      line2: {type: string}\n"+
		"messages:\n"+msg("urn:babel:orders:created", "        id: {type: string}\n")+msg("urn:babel:orders:paid", "        id: {type: string, enum: [x, 3]}\n"))
	write("c.yaml", head+"messages:\n"+msg("urn:babel:orders:shipped", "        name: {type: string}\n")+"      required: [nme]\n")
	pat := func(i int) string {
		return fmt.Sprintf("        f%d: {type: string, pattern: \"%d\\\\p{Cn}\\\\p{Cn}\"}\n", i, i)
	}
	for f := range 8 {
		var props strings.Builder
		for i := f * 8; i < f*8+8; i++ {
			props.WriteString(pat(i))
		}
		props.WriteString(pat(3))         // analysed within the total (file 0)
		props.WriteString(pat(4*8 + f%2)) // first met in file 4, where the total is crossed
		props.WriteString(pat(100 + f%3)) // used in several files, some past the total
		props.WriteString("        e: {type: string, enum: [a, b], examples: [c]}\n")
		write(fmt.Sprintf("p%d.yaml", f), head+"messages:\n"+msg(fmt.Sprintf("urn:babel:pats:p%d", f), props.String()))
	}
	return dir
}

// TestPrebuildAlike: the merge taking the workers' prebuilds of files (prebuild.go)
// gives exactly what building every file in the merge gives (serialBuild): the
// diagnostics, the model and the Go names, at GOMAXPROCS 1, 2 and 4, with trees parsed
// and decoded from a TreeStore, on every registry of testdata, the synthetic one and
// prebuildRegistry; and it took some prebuilds and refused some.
func TestPrebuildAlike(t *testing.T) {
	syn := t.TempDir()
	for name, b := range synth.Files(synth.Options{Messages: 200}) {
		if err := os.WriteFile(filepath.Join(syn, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	paths := []string{syn, prebuildRegistry(t)}
	for p := range registryPaths(t) {
		paths = append(paths, p)
	}
	sort.Strings(paths[2:])
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	var counts [2]int
	counted := func(o *options) { o.prebuilds = &counts }
	serial := func(o *options) { o.serialBuild = true }
	for pi, p := range paths {
		want := loadState(t, p, serial)
		if pi == 1 && (!strings.Contains(want.diags, "BQ057") || !strings.Contains(want.diags, "did you mean") || !strings.Contains(want.diags, "defined twice")) {
			t.Fatalf("prebuildRegistry does not reach the budgets and duplicates:\n%s", want.diags)
		}
		s := newMemStore()
		for _, procs := range []int{1, 2, 4} {
			runtime.GOMAXPROCS(procs)
			for _, what := range []string{"parsed", "stored", "decoded"} {
				opts := []Option{counted}
				if what != "parsed" {
					opts = append(opts, WithTreeStore(s))
				}
				got := loadState(t, p, opts...)
				if got.diags != want.diags || fmt.Sprint(got.err) != fmt.Sprint(want.err) {
					t.Fatalf("%s, GOMAXPROCS=%d, trees %s: diagnostics\n%s\nwant\n%s", p, procs, what, got.diags, want.diags)
				}
				if !reflect.DeepEqual(got.reg, want.reg) {
					t.Fatalf("%s, GOMAXPROCS=%d, trees %s: another registry model", p, procs, what)
				}
				if renderNames(got.reg, got.names) != renderNames(want.reg, want.names) {
					t.Fatalf("%s, GOMAXPROCS=%d, trees %s: other Go names", p, procs, what)
				}
			}
		}
		if pi == 1 {
			before := counts
			loadState(t, p, counted)
			// a, p0-p5 taken; b (duplicates), c (suggestion), p6 (crosses the total)
			// and p7 (patterns past it) built by the merge.
			if taken, refused := counts[0]-before[0], counts[1]-before[1]; taken != 7 || refused != 4 {
				t.Errorf("prebuildRegistry: %d prebuilds taken, %d refused; want 7 and 4", taken, refused)
			}
		}
	}
	if counts[0] < 1000 || counts[1] < 50 {
		t.Errorf("%d prebuilds taken, %d refused: not what this test is about", counts[0], counts[1])
	}
}
