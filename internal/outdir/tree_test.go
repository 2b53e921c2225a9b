package outdir

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"
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
