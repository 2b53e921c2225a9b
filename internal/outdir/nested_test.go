package outdir

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"testing"
)

// rootOpts recognise "root.go" starting with hdr + "ROOT" as the root of an output.
func rootOpts() Options {
	o := opts()
	o.RootFile = "root.go"
	o.IsRoot = func(b []byte) bool { return bytes.HasPrefix(b, []byte(hdr+"ROOT")) }
	return o
}

// TestSyncLeavesNestedOutputsAlone: a subdirectory holding the root of another
// output (another registry generated into out/legacy) is neither scanned for stale
// files nor removed, while a stale generated subdirectory of this output still is;
// writing into another output's directory is refused with nothing written. On main
// Sync removed out/legacy/root.go and out/legacy/types.go.
func TestSyncLeavesNestedOutputsAlone(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "out")
	if _, err := Sync(ctx, dir, []File{gen("root.go", "ROOT a"), gen("orders/orders.go", "o"), gen("stale/stale.go", "s")}, rootOpts()); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "legacy")
	if _, err := Sync(ctx, other, []File{gen("root.go", "ROOT b"), gen("types.go", "t"), gen("billing/billing.go", "b"), gen("internal/x/x.go", "x")}, rootOpts()); err != nil {
		t.Fatal(err)
	}
	plan, err := Sync(ctx, dir, []File{gen("root.go", "ROOT a"), gen("orders/orders.go", "o")}, rootOpts())
	if err != nil {
		t.Fatal(err)
	}
	want := Plan{Remove: []string{"stale/stale.go"}, RemoveDirs: []string{"stale"}, Unchanged: []string{"orders/orders.go", "root.go"}}
	if !reflect.DeepEqual(plan, want) {
		t.Errorf("plan = %+v, want %+v", plan, want)
	}
	for _, f := range []string{"root.go", "types.go", "billing/billing.go", "internal/x/x.go"} {
		read(t, filepath.Join(other, filepath.FromSlash(f)))
	}
	// A file of this output in the other one's directory: refused, nothing written.
	_, err = Sync(ctx, dir, []File{gen("root.go", "ROOT a2"), gen("legacy/legacy.go", "l")}, rootOpts())
	if !errors.Is(err, ErrUnsafePath) {
		t.Fatalf("writing into another output: err %v, want ErrUnsafePath", err)
	}
	if got := read(t, filepath.Join(dir, "root.go")); got != hdr+"ROOT a" {
		t.Errorf("root.go = %q after a refused run", got)
	}
	// Without RootFile (another command's outputs), the subdirectory is this
	// output's own stale files, as before.
	plan, err = Sync(ctx, dir, []File{gen("root.go", "ROOT a"), gen("orders/orders.go", "o")}, Options{Ext: ".go", Generated: opts().Generated, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"legacy/root.go", "legacy/types.go"}; !reflect.DeepEqual(plan.Remove, want) {
		t.Errorf("without RootFile: remove %q, want %q", plan.Remove, want)
	}
}
