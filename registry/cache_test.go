package registry

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/babelqueue/bqgen/internal/gonames"
	"github.com/babelqueue/bqgen/internal/model"
)

// cacheFiles is a two-file registry: a.yaml declares a type with an alias, and a
// message that uses it, with a BQ031 warning (found after parsing) and, with bidi, a
// BQ036 error in a description (found by the text check, which marks the tree);
// b.yaml holds another message and changed.
func cacheFiles(prefix, changed string, bidi bool) map[string][]byte {
	note := "plain"
	if bidi {
		note = "bad \u202e text"
	}
	return map[string][]byte{
		prefix + "a.yaml": []byte(`version: 1
types:
  Base: &base
    type: object
    properties:
      line: {type: string, maxLength: 10}
  Copy: *base
messages:
  urn:babel:orders:created:
    data:
      properties:
        orderId: {type: integer, minimum: 1, maximum: 10}
        base: {type: Base}
        note: {type: string, description: "` + note + `"}
`),
		prefix + "b.yaml": []byte(`version: 1
messages:
  urn:babel:orders:shipped:
    data:
      properties:
        note: {type: string}
` + changed),
	}
}

// positions lists every position of reg's messages and types, schemas and keywords.
func positions(reg *model.Registry) string {
	var b strings.Builder
	add := func(_ string, s *model.Schema) {
		fmt.Fprintln(&b, s.Pos, s.Keys)
	}
	for _, t := range reg.Types {
		fmt.Fprintln(&b, t.Name, t.Pos)
		model.Walk(t.Schema, "$", add)
	}
	for _, m := range reg.Messages {
		fmt.Fprintln(&b, m.URN, m.Pos)
		model.Walk(m.Data, "$", add)
	}
	return b.String()
}

// TestCache checks that a load through a Cache filled by a load of the same files
// under other names gives the diagnostics and positions of a load without it, that
// it takes the unchanged files from the cache, and that each tree is taken once.
func TestCache(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	// A registry with errors returns no model: positions are compared without the
	// BQ036 error, diagnostics with and without.
	for _, withErr := range []bool{false, true} {
		newFiles := cacheFiles("new/", "", withErr)
		oldFiles := cacheFiles("old/", "  urn:babel:orders:cancelled:\n    data: {}\n", withErr)
		want, wantDiags, err := LoadFiles(ctx, oldFiles)
		if err != nil {
			t.Fatal(err)
		}
		cache := NewCache()
		if _, _, err := LoadFiles(ctx, newFiles, WithCache(cache)); err != nil {
			t.Fatal(err)
		}
		held := 0
		cache.files.Range(func(any, any) bool { held++; return true })
		// a.yaml is clean at parse time (its BQ031 comes later); b.yaml's BQ036 too.
		if held != len(newFiles) {
			t.Errorf("withErr %v: cache holds %d trees, want %d", withErr, held, len(newFiles))
		}
		got, gotDiags, err := LoadFiles(ctx, oldFiles, WithCache(cache))
		if err != nil {
			t.Fatal(err)
		}
		if g, w := fmt.Sprint(gotDiags), fmt.Sprint(wantDiags); g != w {
			t.Errorf("withErr %v: diagnostics through the cache\n%s\nwant\n%s", withErr, g, w)
		}
		if !strings.Contains(fmt.Sprint(gotDiags), "old/a.yaml:12:9: warning BQ031") {
			t.Errorf("withErr %v: no BQ031 at old/a.yaml:12:9 in %v", withErr, gotDiags)
		}
		if withErr && !strings.Contains(fmt.Sprint(gotDiags), "old/a.yaml:14:43: error BQ036") {
			t.Errorf("no BQ036 at old/b.yaml:5:43 in %v", gotDiags)
		}
		if !withErr {
			if g, w := positions(got), positions(want); g != w {
				t.Errorf("positions through the cache\n%s\nwant\n%s", g, w)
			}
		}
		// old/a.yaml was taken from the cache (same bytes as new/a.yaml) and is not
		// put back; old/b.yaml differs, was parsed, and was left in the cache.
		if _, ok := cache.files.Load(keyOf(newFiles["new/a.yaml"])); ok {
			t.Errorf("withErr %v: a.yaml's tree is in the cache after it was taken", withErr)
		}
		if _, ok := cache.files.Load(keyOf(oldFiles["old/b.yaml"])); !ok {
			t.Errorf("old/b.yaml's tree is not in the cache")
		}
	}
}

// TestWithoutGoNames checks that WithoutGoNames skips BQ030 and nothing else.
func TestWithoutGoNames(t *testing.T) {
	t.Parallel()
	files := map[string][]byte{"r.yaml": []byte(`version: 1
messages:
  urn:babel:orders:created:
    data:
      properties:
        order_id: {type: integer, minimum: 1, maximum: 10}
        orderId: {type: integer, minimum: 1, maximum: 10}
`)}
	_, with, err := LoadFiles(context.Background(), files)
	if err != nil {
		t.Fatal(err)
	}
	reg, without, err := LoadFiles(context.Background(), files, WithoutGoNames())
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(with); !strings.Contains(got, "error BQ030") || !strings.Contains(got, "warning BQ031") {
		t.Errorf("default load: %s; want BQ030 and BQ031", got)
	}
	if got := fmt.Sprint(without); strings.Contains(got, "BQ030") || !strings.Contains(got, "warning BQ031") || reg == nil {
		t.Errorf("WithoutGoNames: %s (registry %v); want BQ031 only", got, reg != nil)
	}
}

// TestWithGoNames checks that the names the load planned are gonames.Plan's.
func TestWithGoNames(t *testing.T) {
	t.Parallel()
	var names *gonames.Names
	reg, diags, err := LoadFiles(context.Background(), cacheFiles("", "", false), WithGoNames(&names))
	if err != nil || reg == nil || names == nil {
		t.Fatalf("err %v, diagnostics %v, names %v", err, diags, names)
	}
	want, _ := gonames.Plan(reg, reg.GoPackage)
	if !reflect.DeepEqual(names, want) {
		t.Errorf("planned names %+v, want %+v", names, want)
	}
	var none *gonames.Names
	if _, _, err := LoadFiles(context.Background(), cacheFiles("", "", true), WithGoNames(&none)); err != nil || none != nil {
		t.Errorf("registry with errors: names %v (err %v), want nil", none, err)
	}
}

// TestCacheSameFiles: a load through a Cache of exactly the files of the last load
// without errors through it returns that registry and its diagnostics (the second
// load of `bqgen diff -r R --against R`); other names, other bytes, a load that
// wants Go names, or a last load with errors load afresh.
func TestCacheSameFiles(t *testing.T) {
	ctx := context.Background()
	files := cacheFiles("", "", false)
	c := NewCache()
	first, ds, err := LoadFiles(ctx, files, WithCache(c))
	if err != nil || first == nil || len(ds) != 1 || ds[0].Rule != RuleSnakeCase {
		t.Fatalf("first load: %v %v (want one BQ031)", err, ds)
	}
	again, ds2, err := LoadFiles(ctx, files, WithCache(c), WithoutGoNames())
	if err != nil || again != first || !reflect.DeepEqual(ds, ds2) {
		t.Fatalf("the same files: got registry %p (want %p), diagnostics %v, err %v", again, first, ds2, err)
	}
	fresh, _, _ := LoadFiles(ctx, files)
	if !reflect.DeepEqual(fresh, again) {
		t.Error("the registry of the shortcut differs from a fresh load's")
	}
	for name, other := range map[string]map[string][]byte{
		"renamed":     cacheFiles("x/", "", false),
		"other bytes": cacheFiles("", "# edited\n", false),
	} {
		reg, _, err := LoadFiles(ctx, other, WithCache(c))
		if err != nil || reg == nil || reg == first {
			t.Errorf("%s: got %p, err %v; want a registry of its own", name, reg, err)
		}
	}
	// The last load was "other bytes"; loading it again wanting Go names loads afresh.
	var names *gonames.Names
	last, _, _ := LoadFiles(ctx, cacheFiles("", "# edited\n", false), WithCache(c))
	reg, _, _ := LoadFiles(ctx, cacheFiles("", "# edited\n", false), WithCache(c), WithGoNames(&names))
	if reg == last || names == nil {
		t.Errorf("WithGoNames: got the remembered registry (%v) or no names (%v)", reg == last, names == nil)
	}
	// A load with errors is not remembered.
	bad := cacheFiles("", "", true)
	if reg, ds, _ := LoadFiles(ctx, bad, WithCache(c)); reg != nil || !ds.HasErrors() {
		t.Fatalf("bidi: want errors, got %v", ds)
	}
	if reg, ds, _ := LoadFiles(ctx, bad, WithCache(c)); reg != nil || !ds.HasErrors() {
		t.Errorf("bidi again: want the errors again, got %v", ds)
	}
}
