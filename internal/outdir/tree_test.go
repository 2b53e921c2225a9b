package outdir

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"
)

// tree lists every entry below dir: directories with a trailing slash, symbolic
// links with "@", files with their content after "=".
func tree(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		switch {
		case rel == ".":
		case d.Type()&os.ModeSymlink != 0:
			out = append(out, rel+"@")
		case d.IsDir():
			out = append(out, rel+"/")
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out = append(out, rel+"="+string(b))
		}
		return nil
	})
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

func TestSyncSubdirectories(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "out")

	first := []File{gen("root.go", "r"), gen("orders/orders.go", "o1"), gen("billing/billing.go", "b1"), gen("internal/bqrt/json.go", "j")}
	plan, err := Sync(ctx, dir, first, opts())
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"billing/billing.go", "internal/bqrt/json.go", "orders/orders.go", "root.go"}; !reflect.DeepEqual(plan.Write, want) {
		t.Fatalf("Write = %q, want %q", plan.Write, want)
	}
	want := []string{"billing/", "billing/billing.go=" + hdr + "b1", "internal/", "internal/bqrt/", "internal/bqrt/json.go=" + hdr + "j",
		"orders/", "orders/orders.go=" + hdr + "o1", "root.go=" + hdr + "r"}
	if got := tree(t, dir); !reflect.DeepEqual(got, want) {
		t.Fatalf("tree = %q, want %q", got, want)
	}

	// A hand-written test beside a generated file of a context that goes away: the
	// generated file is removed, the directory kept (and reported).
	if err := os.WriteFile(filepath.Join(dir, "orders", "orders_test.go"), []byte("package orders\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A hand-written package beside the output, and a nested module: never touched.
	if err := os.MkdirAll(filepath.Join(dir, "mocks"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "mocks", "mocks.go"), []byte("package mocks\n"), 0o644)
	os.MkdirAll(filepath.Join(dir, "tools"), 0o755)
	os.WriteFile(filepath.Join(dir, "tools", "go.mod"), []byte("module tools\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "tools", "old.go"), []byte(hdr+"generated into another module"), 0o644)

	second := []File{gen("root.go", "r"), gen("shipping/shipping.go", "s1"), gen("internal/bqrt/json.go", "j")}
	dry, err := Sync(ctx, dir, second, Options{Ext: ".go", Generated: opts().Generated, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	wantPlan := Plan{Write: []string{"shipping/shipping.go"}, Remove: []string{"billing/billing.go", "orders/orders.go"},
		Unchanged: []string{"internal/bqrt/json.go", "root.go"}, RemoveDirs: []string{"billing"}, KeptDirs: []string{"orders"}}
	if !reflect.DeepEqual(dry, wantPlan) {
		t.Fatalf("dry plan = %+v\nwant %+v", dry, wantPlan)
	}
	if !dry.Changed() {
		t.Error("Changed() = false")
	}
	before := tree(t, dir)
	if after := tree(t, dir); !reflect.DeepEqual(before, after) {
		t.Fatal("the dry run wrote")
	}
	plan, err = Sync(ctx, dir, second, opts())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(plan, wantPlan) {
		t.Fatalf("plan = %+v\nwant %+v", plan, wantPlan)
	}
	want = []string{"internal/", "internal/bqrt/", "internal/bqrt/json.go=" + hdr + "j", "mocks/", "mocks/mocks.go=package mocks\n",
		"orders/", "orders/orders_test.go=package orders\n", "root.go=" + hdr + "r", "shipping/", "shipping/shipping.go=" + hdr + "s1",
		"tools/", "tools/go.mod=module tools\n", "tools/old.go=" + hdr + "generated into another module"}
	if got := tree(t, dir); !reflect.DeepEqual(got, want) {
		t.Fatalf("tree = %q\nwant %q", got, want)
	}

	// Into the nested module: refused, nothing written.
	before = tree(t, dir)
	if _, err := Sync(ctx, dir, append(second, gen("tools/tools.go", "t")), opts()); !errors.Is(err, ErrUnsafePath) {
		t.Fatalf("writing into a nested module: err = %v", err)
	}
	if after := tree(t, dir); !reflect.DeepEqual(before, after) {
		t.Errorf("refused sync changed files:\n%q\n%q", before, after)
	}
}

func TestSyncNestedRefusals(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cases := []struct {
		name  string
		setup func(t *testing.T, dir string)
		files []File
	}{
		{"dot-dot", nil, []File{gen("a/../../x.go", "x")}},
		{"unclean", nil, []File{gen("a//x.go", "x")}},
		{"absolute", nil, []File{gen("/x.go", "x")}},
		{"dot element", nil, []File{gen(".git/x.go", "x")}},
		{"backslash", nil, []File{gen(`a\x.go`, "x")}},
		{"too deep", nil, []File{gen("a/b/c/x.go", "x")}},
		{"file and directory", nil, []File{gen("a", "x"), gen("a/x.go", "x")}},
		{"symlinked subdirectory", func(t *testing.T, dir string) {
			other := t.TempDir()
			if err := os.Symlink(other, filepath.Join(dir, "orders")); err != nil {
				t.Fatal(err)
			}
		}, []File{gen("orders/orders.go", "o")}},
		{"file in place of a subdirectory", func(t *testing.T, dir string) {
			os.WriteFile(filepath.Join(dir, "orders"), []byte("x"), 0o644)
		}, []File{gen("orders/orders.go", "o")}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			if c.setup != nil {
				c.setup(t, dir)
			}
			before := tree(t, dir)
			if _, err := Sync(ctx, dir, c.files, opts()); !errors.Is(err, ErrUnsafePath) {
				t.Fatalf("err = %v, want ErrUnsafePath", err)
			}
			if after := tree(t, dir); !reflect.DeepEqual(before, after) {
				t.Errorf("files changed:\n%q\n%q", before, after)
			}
		})
	}
}

// TestSyncFailureInSubdirectoryRollsBack: a rename failing in a subdirectory undoes
// every change, the directories it created included.
func TestSyncFailureInSubdirectoryRollsBack(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	if _, err := Sync(context.Background(), dir, []File{gen("root.go", "r1"), gen("orders/orders.go", "o1")}, opts()); err != nil {
		t.Fatal(err)
	}
	before := tree(t, dir)
	restore := Fail("rename", 2, errors.New("disk full"))
	_, err := Sync(context.Background(), dir, []File{gen("root.go", "r2"), gen("orders/orders.go", "o2"), gen("billing/billing.go", "b")}, opts())
	restore()
	if err == nil {
		t.Fatal("no error")
	}
	if after := tree(t, dir); !reflect.DeepEqual(before, after) {
		t.Errorf("not rolled back:\nbefore %q\nafter  %q", before, after)
	}
}

// TestSyncSymlinkedPaths: a symbolic link anywhere between the working directory
// and the output directory is refused however the path is spelled ("link",
// "link/", "link/.", "link/sub"), with nothing written on either side of the link.
func TestSyncSymlinkedPaths(t *testing.T) {
	root := t.TempDir()
	target := filepath.Join(root, "target")
	if err := os.Mkdir(target, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	real := filepath.Join(root, "real")
	os.Mkdir(real, 0o755)
	if err := os.Symlink(target, filepath.Join(real, "inner")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(root)
	for _, out := range []string{"link", "link/", "link/.", "link/sub", "real/inner/x", filepath.Join(root, "link", "sub")} {
		before := tree(t, root)
		_, err := Sync(context.Background(), out, []File{gen("a.go", "a")}, opts())
		if !errors.Is(err, ErrUnsafePath) || !strings.Contains(err.Error(), "symbolic link") {
			t.Errorf("-o %s: err = %v, want ErrUnsafePath for the link", out, err)
		}
		if after := tree(t, root); !reflect.DeepEqual(before, after) {
			t.Errorf("-o %s: files changed:\n%q\n%q", out, before, after)
		}
	}
	// The working directory itself may be reached through a link (`-o .` works from a
	// symlinked checkout): its ancestors are the user's environment.
	t.Chdir(filepath.Join(root, "link"))
	if _, err := Sync(context.Background(), ".", []File{gen("a.go", "a")}, opts()); err != nil {
		t.Errorf("-o . in a symlinked working directory: %v", err)
	}
	if _, err := os.Stat(filepath.Join(target, "a.go")); err != nil {
		t.Errorf("a.go not written through the working directory: %v", err)
	}
}

// TestSyncConcurrentRuns: two runs writing different outputs into one directory at
// once leave the complete output of one of them, every time.
func TestSyncConcurrentRuns(t *testing.T) {
	t.Parallel()
	outA := []File{gen("a.go", "A"), gen("orders/orders.go", "A"), gen("shared.go", "A")}
	outB := []File{gen("b.go", "B"), gen("billing/billing.go", "B"), gen("shared.go", "B")}
	// Both runs write over an earlier output of the other's shape (trials 0–19), or
	// into a directory that does not exist (20–39): the first takes the fast path
	// and replaces the directory it locked, the second waits for that lock, then
	// locks the new directory and writes over it.
	for trial := 0; trial < 40; trial++ {
		root := t.TempDir()
		dir := filepath.Join(root, "out")
		if trial < 20 {
			if _, err := Sync(context.Background(), dir, outA, opts()); err != nil {
				t.Fatal(err)
			}
		}
		errs := make(chan error, 2)
		for _, files := range [][]File{outA, outB} {
			go func() {
				_, err := Sync(context.Background(), dir, files, opts())
				errs <- err
			}()
		}
		for range 2 {
			if err := <-errs; err != nil {
				t.Fatalf("trial %d: %v", trial, err)
			}
		}
		got := tree(t, dir)
		a := []string{"a.go=" + hdr + "A", "orders/", "orders/orders.go=" + hdr + "A", "shared.go=" + hdr + "A"}
		b := []string{"b.go=" + hdr + "B", "billing/", "billing/billing.go=" + hdr + "B", "shared.go=" + hdr + "B"}
		if !reflect.DeepEqual(got, a) && !reflect.DeepEqual(got, b) {
			t.Fatalf("trial %d: the directory holds neither output:\n%q", trial, got)
		}
		if ents, _ := os.ReadDir(root); len(ents) != 1 {
			t.Fatalf("trial %d: beside the output: %v", trial, ents)
		}
	}
}

// TestSyncWaitsForTheLockUntilCanceled: a run that cannot get the lock gives up
// when its context is done, without writing or creating anything.
func TestSyncWaitsForTheLockUntilCanceled(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "out")
	if _, err := Sync(context.Background(), dir, []File{gen("a.go", "A")}, opts()); err != nil {
		t.Fatal(err)
	}
	unlock, _, err := lockDir(context.Background(), dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	before := tree(t, dir)
	if _, err := Sync(ctx, dir, []File{gen("b.go", "B")}, opts()); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want the deadline", err)
	}
	if after := tree(t, dir); !reflect.DeepEqual(before, after) {
		t.Errorf("files changed while locked out:\n%q\n%q", before, after)
	}
}
