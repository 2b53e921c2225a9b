package jsonschema

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/babelqueue/bqgen/internal/pii"
	"github.com/babelqueue/bqgen/registry"
)

// TestManifestBudget: named types that use the next one twice and as map values,
// seven levels deep (about 8,700 schema nodes per URN once inlined), in 15 URNs: the
// URNs within the registry's budget (pii.MinBudget) get inlined manifest schemas, the
// others keep $ref, so the output stays bounded.
func TestManifestBudget(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("version: 1\ntypes:\n")
	for i := 0; i < 7; i++ {
		fmt.Fprintf(&b, "  T%d: {type: object, properties: {a: {type: T%d}, b: {type: T%d}, m: {type: map, values: {type: T%d}}}}\n", i, i+1, i+1, i+1)
	}
	b.WriteString("  T7: {type: string, x-gdpr-sensitive: leaf}\nmessages:\n")
	const urns = 15
	for u := 0; u < urns; u++ {
		fmt.Fprintf(&b, "  urn:babel:h:m%02d.sent:\n    data: {properties: {t: {type: T0}, w: {type: map, values: {type: T0}}}}\n", u)
	}
	reg, diags, err := registry.LoadFiles(context.Background(), map[string][]byte{"h.yaml": []byte(b.String())})
	if err != nil || reg == nil {
		t.Fatal(err, diags)
	}
	files, err := Emit(reg, Options{Draft: Draft7})
	if err != nil {
		t.Fatal(err)
	}
	ix := pii.NewIndex(reg)
	inlined, total := 0, 0
	for _, f := range files {
		if !strings.HasSuffix(f.Name, ".sdk.schema.json") {
			continue
		}
		total += len(f.Content)
		m := reg.Message("urn:babel:h:" + strings.TrimSuffix(strings.TrimPrefix(f.Name, "h."), ".sdk.schema.json"))
		hasRef := bytes.Contains(f.Content, []byte(`"$ref"`))
		if m == nil || hasRef == ix.Inlined(m) {
			t.Errorf("%s: $ref %v, Inlined %v", f.Name, hasRef, m != nil && ix.Inlined(m))
		}
		if !hasRef {
			inlined++
		}
	}
	if inlined == 0 || inlined == urns || total > 40<<20 {
		t.Errorf("%d of %d URNs inlined, %d bytes of manifest schemas", inlined, urns, total)
	}
	t.Logf("%d of %d URNs inlined, %d bytes of manifest schemas", inlined, urns, total)
}
