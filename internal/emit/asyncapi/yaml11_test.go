package asyncapi

import (
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/babelqueue/bqgen/internal/engines"
	"github.com/babelqueue/bqgen/registry"
)

// TestPyYAMLReadsTheJSONDocument: for every testdata registry check accepts, PyYAML's
// safe_load of the YAML document equals the JSON document, and so does yaml.v3's
// reading (issue 19, item 4). The
// registry testdata/registry/good/yaml11.yaml holds the spellings YAML 1.1 reads as
// booleans, null, numbers, timestamps and merge keys, as keys and values.
func TestPyYAMLReadsTheJSONDocument(t *testing.T) {
	t.Parallel()
	var paths []string
	for _, glob := range []string{"../../../testdata/registry/good/*.yaml", "../../../testdata/rules/*/clean.yaml",
		"../../../testdata/rules/*/clean", "../../../internal/agreement/testdata/*.yaml", exampleRegistry} {
		m, err := filepath.Glob(glob)
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, m...)
	}
	var docs []string
	var wants []any
	var names []string
	for _, p := range paths {
		reg, diags, err := registry.Load(context.Background(), p)
		if err != nil || reg == nil || diags.HasErrors() {
			continue
		}
		j, y := emit(t, reg, Options{}), emit(t, reg, Options{YAML: true})
		var want any
		if err := json.Unmarshal(j, &want); err != nil {
			t.Fatal(err)
		}
		if back := engines.YAMLv3(t, y); !reflect.DeepEqual(back, want) {
			t.Errorf("%s: yaml.v3 reads the YAML document otherwise than the JSON one: %s", p, firstDiff(back, want, "$"))
		}
		docs, wants, names = append(docs, string(y)), append(wants, want), append(names, p)
	}
	if len(docs) < 20 {
		t.Fatalf("only %d testdata registries load cleanly", len(docs))
	}
	got := engines.PyYAML(t, docs)
	for i := range docs {
		if !reflect.DeepEqual(got[i], wants[i]) {
			t.Errorf("%s: PyYAML reads the YAML document otherwise than the JSON one: %s", names[i], firstDiff(got[i], wants[i], "$"))
		}
	}
}

// firstDiff names the first path where a and b differ.
func firstDiff(a, b any, path string) string {
	switch av := a.(type) {
	case map[string]any:
		bv, ok := b.(map[string]any)
		if !ok {
			return path
		}
		for k, x := range bv {
			if y, ok := av[k]; !ok {
				return path + "." + k + " missing"
			} else if !reflect.DeepEqual(x, y) {
				return firstDiff(y, x, path+"."+k)
			}
		}
		for k := range av {
			if _, ok := bv[k]; !ok {
				return path + " has the extra key " + k
			}
		}
	case []any:
		bv, ok := b.([]any)
		if !ok || len(av) != len(bv) {
			return path
		}
		for i := range av {
			if !reflect.DeepEqual(av[i], bv[i]) {
				return firstDiff(av[i], bv[i], path+"[]")
			}
		}
	}
	g, _ := json.Marshal(a)
	w, _ := json.Marshal(b)
	return path + ": " + string(g) + ", want " + string(w)
}
