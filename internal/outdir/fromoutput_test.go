package outdir

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// With Source.FromOutput the contents are taken as what the directory holds (they
// were read from it): they are not read again, so a dry run plans them as unchanged,
// and the rest of the plan (stale generated files to remove) is as without it.
func TestFromOutput(t *testing.T) {
	dir := t.TempDir()
	gen := func(s string) []byte { return []byte("// generated\n" + s) }
	opts := Options{Ext: ".go", Generated: func(b []byte) bool { return len(b) >= 13 && string(b[:13]) == "// generated\n" }}
	if _, err := Sync(context.Background(), dir, []File{{"a.go", gen("a")}, {"b.go", gen("b")}, {"old.go", gen("old")}}, opts); err != nil {
		t.Fatal(err)
	}
	opts.DryRun = true
	src := Source{Names: []string{"a.go", "b.go"}, Content: func(i int) ([]byte, error) { return gen("not what is on disk"), nil }}
	plan, err := SyncSource(context.Background(), dir, src, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(plan.Write, []string{"a.go", "b.go"}) {
		t.Fatalf("without FromOutput: Write %q", plan.Write)
	}
	src.FromOutput = true
	plan, err = SyncSource(context.Background(), dir, src, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Write) != 0 || !reflect.DeepEqual(plan.Unchanged, []string{"a.go", "b.go"}) || !reflect.DeepEqual(plan.Remove, []string{"old.go"}) {
		t.Fatalf("with FromOutput: %+v", plan)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.go")); string(b) != string(gen("a")) {
		t.Fatal("a dry run wrote")
	}
}
