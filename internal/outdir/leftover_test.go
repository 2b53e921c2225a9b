package outdir

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// deadPID is a process id no process can have (above Linux's largest, 2^22).
const deadPID = 99999999

// TestSyncLeftovers: the temporary and backup files a killed run left, under the
// names apply gives them, are reported by a dry run and removed by the next run, in
// every directory Sync may have written (a depth-2 directory no longer produced
// included); files of this process or of a live one, other names, and files in a
// nested module are left alone. The killed run's mix of old and new files is
// repaired: every file that differs is written again.
func TestSyncLeftovers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "out")
	v1 := []File{gen("a.go", "a1"), gen("ctx/ctx.go", "c1"), gen("internal/bqrt/x.go", "x1"), gen("old/sub/s.go", "s1")}
	if _, err := Sync(ctx, dir, v1, opts()); err != nil {
		t.Fatal(err)
	}
	put := func(name, content string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// (old/sub/s.go is no longer produced, but not in a directory Sync scans for
	// stale files: it stays, as documented; the leftover beside it goes.)
	// The killed run of v2 had renamed ctx/ctx.go into place, moved a.go to its
	// backup (a rename where links fail) and staged x.go.
	leftovers := []string{
		".bqgen-2746318.tmp", // an older bqgen's temporary file
		fmt.Sprintf(".bqgen-%d-0.bak", deadPID),
		fmt.Sprintf("ctx/.bqgen-%d-1.bak", deadPID),
		fmt.Sprintf("internal/bqrt/.bqgen-%d-3964.tmp", deadPID),
		fmt.Sprintf("old/sub/.bqgen-%d-5.bak", deadPID),
	}
	put("ctx/ctx.go", hdr+"c2")
	os.Rename(filepath.Join(dir, "a.go"), filepath.Join(dir, leftovers[1]))
	for _, l := range append(leftovers[:1:1], leftovers[2:]...) {
		put(l, hdr+"half")
	}
	kept := []string{
		fmt.Sprintf(".bqgen-%d-7.tmp", os.Getpid()),  // this process's: in use
		fmt.Sprintf(".bqgen-%d-7.bak", os.Getppid()), // a live process's
		".bqgen-notes.bak", ".bqgen-1-2.txt", "ctx/bqgen-5-5.bak",
		fmt.Sprintf("mod/.bqgen-%d-0.bak", deadPID), fmt.Sprintf("mod/pkg/.bqgen-%d-0.bak", deadPID),
		fmt.Sprintf(".hidden/.bqgen-%d-0.bak", deadPID),
	}
	put("mod/go.mod", "module x\n")
	for _, k := range kept {
		put(k, "mine")
	}

	v2 := []File{gen("a.go", "a2"), gen("ctx/ctx.go", "c2"), gen("internal/bqrt/x.go", "x2")}
	dry := opts()
	dry.DryRun = true
	plan, err := Sync(ctx, dir, v2, dry)
	if err != nil {
		t.Fatal(err)
	}
	want := Plan{Write: []string{"a.go", "internal/bqrt/x.go"}, Unchanged: []string{"ctx/ctx.go"},
		Leftovers: leftovers}
	if !reflect.DeepEqual(plan, want) || !plan.Changed() {
		t.Fatalf("dry plan = %+v\nwant %+v", plan, want)
	}
	if _, err := os.Stat(filepath.Join(dir, leftovers[1])); err != nil {
		t.Fatalf("the dry run removed a leftover: %v", err)
	}
	if plan, err = Sync(ctx, dir, v2, opts()); err != nil || !reflect.DeepEqual(plan, want) {
		t.Fatalf("plan = %+v (%v)\nwant %+v", plan, err, want)
	}
	for _, l := range leftovers {
		if _, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(l))); !os.IsNotExist(err) {
			t.Errorf("%s is still there (%v)", l, err)
		}
	}
	for _, k := range kept {
		if got := read(t, filepath.Join(dir, filepath.FromSlash(k))); got != "mine" {
			t.Errorf("%s = %q", k, got)
		}
	}
	for _, f := range v2 {
		if got := read(t, filepath.Join(dir, filepath.FromSlash(f.Name))); got != string(f.Content) {
			t.Errorf("%s = %q, want %q", f.Name, got, f.Content)
		}
	}
	// Only leftovers: the run removes them and writes nothing.
	put(fmt.Sprintf("ctx/.bqgen-%d-9.tmp", deadPID), "x")
	plan, err = Sync(ctx, dir, v2, opts())
	if want := []string{fmt.Sprintf("ctx/.bqgen-%d-9.tmp", deadPID)}; err != nil || len(plan.Write) != 0 || !reflect.DeepEqual(plan.Leftovers, want) {
		t.Fatalf("plan = %+v (%v), want leftovers %q only", plan, err, want)
	}
	if plan, err = Sync(ctx, dir, v2, dry); err != nil || plan.Changed() {
		t.Errorf("after the runs: %+v (%v)", plan, err)
	}
}

// TestTempFilesAreNamedForLeftovers: apply's temporary files carry this process's
// id, so a later run recognises one a killed run left, and this run's are in use.
func TestTempFilesAreNamedForLeftovers(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	if err := os.Mkdir(dir, 0o755); err != nil { // an existing directory: no fast path
		t.Fatal(err)
	}
	var names []string
	old := createTemp
	createTemp = func(d string) (newFile, error) {
		f, err := old(d)
		if err == nil {
			names = append(names, filepath.Base(f.Name()))
		}
		return f, err
	}
	defer func() { createTemp = old }()
	if _, err := Sync(context.Background(), dir, []File{gen("a.go", "a")}, opts()); err != nil {
		t.Fatal(err)
	}
	if len(names) != 1 || !leftoverName.MatchString(names[0]) || isLeftover(names[0]) {
		t.Errorf("temporary files %q: want one named .bqgen-<pid>-<n>.tmp, of this live process", names)
	}
}

// TestSyncLeftoversOfOneFile: for a single file (Options.Ext ""), as asyncapi and
// docs write, only the directories of the files are cleaned, not the
// subdirectories of a directory bqgen does not own.
func TestSyncLeftoversOfOneFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	here, below := fmt.Sprintf(".bqgen-%d-0.tmp", deadPID), filepath.Join("sub", fmt.Sprintf(".bqgen-%d-0.tmp", deadPID))
	for _, l := range []string{here, below} {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(l)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, l), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	plan, err := Sync(context.Background(), dir, []File{gen("doc.json", "{}")}, Options{Generated: opts().Generated})
	if err != nil || !reflect.DeepEqual(plan.Leftovers, []string{here}) {
		t.Fatalf("plan %+v (%v), want leftovers %q", plan, err, here)
	}
	if _, err := os.Stat(filepath.Join(dir, here)); !os.IsNotExist(err) {
		t.Errorf("%s is still there (%v)", here, err)
	}
	if _, err := os.Stat(filepath.Join(dir, below)); err != nil {
		t.Errorf("%s: %v, want it left alone", below, err)
	}
}
