package registry

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/babelqueue/bqgen/internal/synth"
)

// TestFeedLoadsAsAlone loads a new and an old registry at the same time through
// Cache.Feed (as `bqgen diff` does) and checks that each returns exactly what a load
// of it alone, without a Cache, returns: the same registry and the same diagnostics.
// The old registry shares most files with the new one (taken from the feed, under
// other names), has one file changed and one twice (duplicates: errors), and is also
// the new registry itself (the same files: the feeding load's registry).
func TestFeedLoadsAsAlone(t *testing.T) {
	for i, files := range []map[string][]byte{
		synth.Files(synth.Options{Messages: 300}),
		// Examples and enums in every position: nodes the loader keeps past the merge.
		{"random.yaml": synth.Random(synth.RandomOptions{Seed: 7, Messages: 40}), "accounts.yaml": examplesFile(), "orders.yaml": []byte("version: 1\n# Synthetic message number 0.\n")},
	} {
		feedLoadsAsAlone(t, filepath.Join(t.TempDir(), string(rune('a'+i))), files)
	}
}

func feedLoadsAsAlone(t *testing.T, root string, files map[string][]byte) {
	t.Helper()
	write := func(dir string, files map[string][]byte) string {
		d := filepath.Join(root, dir)
		for name, b := range files {
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(d, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return d
	}
	newDir := write("new", files)
	old := map[string][]byte{}
	for name, b := range files {
		old[name] = b
	}
	old["orders.yaml"] = []byte(strings.Replace(string(old["orders.yaml"]), "Synthetic message number 0.", "Edited.", 1))
	oldDir := write("old", old)
	old["zz-twin.yaml"] = old["accounts.yaml"]
	twinDir := write("twin", old)
	ctx := context.Background()
	for _, against := range []string{oldDir, twinDir, newDir} {
		wantNew, wantNewDiags, err := Load(ctx, newDir)
		if err != nil {
			t.Fatal(err)
		}
		wantOld, wantOldDiags, err := Load(ctx, against, WithoutGoNames())
		if err != nil {
			t.Fatal(err)
		}
		if against == twinDir && wantOld != nil {
			t.Fatal("the registry with a file twice loads")
		}
		in, err := Read(ctx, newDir)
		if err != nil {
			t.Fatal(err)
		}
		c := NewCache()
		feed, done := c.Feed(in)
		type res struct {
			reg   any
			diags Diagnostics
			err   error
		}
		oldc := make(chan res, 1)
		go func() {
			reg, diags, err := Load(ctx, against, WithCache(c), WithoutGoNames())
			oldc <- res{reg, diags, err}
		}()
		gotNew, gotNewDiags, err := LoadInput(ctx, in, feed)
		done()
		if err != nil {
			t.Fatal(err)
		}
		got := <-oldc
		if got.err != nil {
			t.Fatal(got.err)
		}
		if !reflect.DeepEqual(gotNew, wantNew) || !reflect.DeepEqual(gotNewDiags, wantNewDiags) {
			t.Errorf("--against %s: the feeding load differs from a load alone", filepath.Base(against))
		}
		if against == newDir {
			// The same files: the feeding load's registry, and its diagnostics.
			if got.reg != any(gotNew) || !reflect.DeepEqual(got.diags, gotNewDiags) {
				t.Errorf("the same files: not the feeding load's registry")
			}
			continue
		}
		if !reflect.DeepEqual(got.reg, any(wantOld)) || !reflect.DeepEqual(got.diags, wantOldDiags) {
			t.Errorf("--against %s: the old load differs from a load alone:\n%v\nwant:\n%v", filepath.Base(against), got.diags, wantOldDiags)
		}
	}
}

// examplesFile is a registry file whose fields have examples, which the loader reads
// from their YAML nodes after the file is merged.
func examplesFile() []byte {
	var b strings.Builder
	b.WriteString("version: 1\nmessages:\n")
	for i := range 50 {
		fmt.Fprintf(&b, "  urn:babel:accounts:example%d.created:\n    data:\n      properties:\n", i)
		for j := range 10 {
			fmt.Fprintf(&b, "        f%d: {type: integer, minimum: 0, examples: [%d, %d]}\n", j, i, j)
		}
	}
	return []byte(b.String())
}

// TestFeedLargeFileWaits: a load given a feeding Cache that meets a file over
// maxCachedFile (which the feeding load leaves no tree of) does not parse it beside
// the feeding load: take returns only once the feed is done, so that two large files
// are never parsed at once (a 19 MB registry file each took diff over its memory
// target when they were).
func TestFeedLargeFileWaits(t *testing.T) {
	t.Parallel()
	big := []byte("version: 1\n# " + strings.Repeat("x", maxCachedFile) + "\n")
	in := &Input{srcs: []source{{name: "new.yaml", data: big}}}
	c := NewCache()
	_, done := c.Feed(in)
	other := append(bytes.Clone(big), '\n') // not the new file: nothing is promised for it
	took := make(chan *tnode, 1)
	go func() { took <- c.take("old.yaml", other) }()
	select {
	case <-took:
		t.Fatal("take of a large file returned before the feed was done")
	case <-time.After(50 * time.Millisecond):
	}
	done()
	if root := <-took; root != nil {
		t.Fatalf("take returned a tree for a file no load left: %v", root)
	}
}
