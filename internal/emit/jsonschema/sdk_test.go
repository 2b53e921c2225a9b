package jsonschema

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/babelqueue/bqgen/internal/pii"
	"github.com/babelqueue/bqgen/internal/synth"
	"github.com/babelqueue/bqgen/registry"
)

// TestSDKSize: pii.Index.Size, on which `bqgen check` decides BQ050, is an upper bound
// of the bytes of every *.sdk.schema.json written, and a close one (at most 4 times
// the file and 4 KiB), on every test registry and random ones: a schema that check
// accepts is never larger than pii.MaxBytes.
func TestSDKSize(t *testing.T) {
	t.Parallel()
	var paths []string
	for _, glob := range []string{"../../../testdata/registry/good/*.yaml", "../../../testdata/rules/*/clean.yaml",
		"../../../testdata/hostile/*.yaml", "../../../examples/registry.yaml", "../../../internal/agreement/testdata/*.yaml"} {
		m, _ := filepath.Glob(glob)
		paths = append(paths, m...)
	}
	type set struct {
		name  string
		files map[string][]byte
	}
	var sets []set
	for _, p := range paths {
		sets = append(sets, set{p, nil})
	}
	for seed := uint64(1); seed <= 20; seed++ {
		sets = append(sets, set{fmt.Sprint("random-", seed), map[string][]byte{"r.yaml": synth.Random(synth.RandomOptions{Seed: seed, Types: 6, MaxDepth: 4})}})
	}
	urns, worst := 0, 0.0
	for _, s := range sets {
		ctx := context.Background()
		reg, _, err := registry.LoadFiles(ctx, s.files)
		if s.files == nil {
			reg, _, err = registry.Load(ctx, s.name)
		}
		if err != nil || reg == nil {
			continue
		}
		files, err := Emit(reg, Options{})
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		size := map[string]int{}
		for _, f := range files {
			size[f.Name] = len(f.Content)
		}
		ix := pii.NewIndex(reg)
		for _, m := range reg.Messages {
			urns++
			got := size[SDKDataFile(m.URN)]
			est, _, _ := ix.Size(m)
			if est < got || est > 4*got+4096 {
				t.Errorf("%s %s: estimated %d bytes, written %d", s.name, m.URN, est, got)
			}
			if got > 10<<10 {
				worst = max(worst, float64(est)/float64(got))
			}
		}
	}
	if urns < 200 {
		t.Fatalf("only %d URNs", urns)
	}
	t.Logf("%d URNs: estimate at most %.2f times the files over 10 KiB", urns, worst)
}

// doubling returns a registry of named types T0…T(levels-1), each using the next twice,
// each with a description of descBytes bytes, and urns messages using T0: issue 20,
// item 2 (each inlined use copies the type's description: 14.7 KB of YAML gave a
// 98.8 MB manifest schema).
func doubling(levels, descBytes, urns int) string {
	var b strings.Builder
	b.WriteString("version: 1\ntypes:\n")
	desc := strings.Repeat("d", descBytes)
	for i := 0; i < levels; i++ {
		fmt.Fprintf(&b, "  T%d: {type: object, description: %s, properties: {a: {type: T%d}, b: {type: T%d}}}\n", i, desc, i+1, i+1)
	}
	fmt.Fprintf(&b, "  T%d: {type: string, description: %s, x-gdpr-sensitive: true}\nmessages:\n", levels, desc)
	for u := 0; u < urns; u++ {
		fmt.Fprintf(&b, "  urn:babel:h:m%d.sent:\n    data: {properties: {t: {type: T0}}}\n", u)
	}
	return b.String()
}

// TestSDKSizeBounded: a registry whose manifest schemas would take gigabytes is a
// BQ050 error at each URN, found in time linear in the registry (each named type is
// measured once); one just within the limits is written, each file under pii.MaxBytes.
func TestSDKSizeBounded(t *testing.T) {
	t.Parallel()
	src := doubling(20, 400, 20) // 2^21 inlined nodes of 400-byte descriptions per URN
	start := time.Now()
	_, diags, err := registry.LoadFiles(context.Background(), map[string][]byte{"h.yaml": []byte(src)})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, d := range diags {
		if d.Rule == registry.RuleSDKSchemaSize && d.Severity == registry.SeverityError && d.Pos.Line == 25+2*n {
			n++
		}
	}
	if n != 20 || len(diags) != 20 {
		t.Errorf("%d BQ050 errors at the URNs, want 20: %v", n, diags)
	}
	t.Logf("%d bytes of YAML: checked in %v", len(src), time.Since(start))

	reg, diags, err := registry.LoadFiles(context.Background(), map[string][]byte{"h.yaml": []byte(doubling(9, 400, 3))})
	if err != nil || reg == nil {
		t.Fatal(err, diags)
	}
	files, err := Emit(reg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f.Name, ".sdk.schema.json") && (len(f.Content) > pii.MaxBytes || len(f.Content) < 400<<10) {
			t.Errorf("%s: %d bytes", f.Name, len(f.Content))
		}
	}
}
