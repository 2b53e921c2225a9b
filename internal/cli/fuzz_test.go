package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	js "github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"

	"github.com/babelqueue/bqgen/internal/diff"
	"github.com/babelqueue/bqgen/internal/ecmare"
	"github.com/babelqueue/bqgen/internal/emit/asyncapi"
	"github.com/babelqueue/bqgen/internal/emit/jsonschema"
	"github.com/babelqueue/bqgen/internal/model"
	"github.com/babelqueue/bqgen/registry"
)

// seedRegistries returns the registry files of testdata and examples as fuzz seeds.
func seedRegistries(f *testing.F) [][]byte {
	f.Helper()
	var out [][]byte
	for _, glob := range []string{"testdata/registry/good/*.yaml", "testdata/rules/*/*.yaml", "testdata/hostile/*.yaml",
		"testdata/diff/*/*.yaml", "examples/registry.yaml"} {
		files, _ := filepath.Glob(filepath.Join(repoRoot, glob))
		for _, file := range files {
			b, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			out = append(out, b)
		}
	}
	return out
}

func loadBytes(name string, data []byte) *model.Registry {
	reg, _, err := registry.LoadFiles(context.Background(), map[string][]byte{name: data})
	if err != nil {
		return nil
	}
	return reg
}

// FuzzEmitSchemas: every registry the loader accepts gives JSON Schemas (2020-12 and
// draft 7) that jsonschema/v6 compiles, validating its own examples, under file names
// no two of which are the same (issue 16, item 10), and an AsyncAPI document that is
// valid JSON and, as YAML, holds the same values.
func FuzzEmitSchemas(f *testing.F) {
	for _, b := range seedRegistries(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		reg := loadBytes("f.yaml", data)
		if reg == nil {
			return
		}
		for _, draft := range []string{jsonschema.Draft2020, jsonschema.Draft7} {
			files, err := jsonschema.Emit(reg, jsonschema.Options{Draft: draft})
			if err != nil {
				t.Fatalf("draft %s: Emit: %v", draft, err)
			}
			c := js.NewCompiler()
			c.UseRegexpEngine(ecmare.JSONSchemaEngine) // pattern is ECMA-262 (docs/patterns.md)
			var ids []string
			names := map[string]bool{}
			for _, file := range files {
				if names[file.Name] {
					t.Fatalf("draft %s: two files named %s", draft, file.Name)
				}
				names[file.Name] = true
				doc, err := js.UnmarshalJSON(bytes.NewReader(file.Content))
				if err != nil {
					t.Fatalf("%s: not JSON: %v", file.Name, err)
				}
				if file.Name == jsonschema.RegistryFile {
					continue
				}
				m, ok := doc.(map[string]any)
				if !ok {
					t.Fatalf("%s: not an object", file.Name)
				}
				id, _ := m["$id"].(string)
				if err := c.AddResource(id, doc); err != nil {
					t.Fatalf("%s: %v", file.Name, err)
				}
				ids = append(ids, id)
			}
			for _, id := range ids {
				if _, err := c.Compile(id); err != nil {
					t.Fatalf("draft %s: %s does not compile: %v", draft, id, err)
				}
			}
		}
		doc, err := asyncapi.Emit(reg, asyncapi.Options{})
		if err != nil {
			t.Fatalf("asyncapi: %v", err)
		}
		if !json.Valid(doc) {
			t.Fatalf("asyncapi: not JSON")
		}
		y, err := asyncapi.Emit(reg, asyncapi.Options{YAML: true})
		if err != nil {
			t.Fatalf("asyncapi YAML: %v", err)
		}
		var fromJSON, fromYAML any
		if err := yaml.Unmarshal(doc, &fromJSON); err != nil {
			t.Fatalf("asyncapi: %v", err)
		}
		if err := yaml.Unmarshal(y, &fromYAML); err != nil || !reflect.DeepEqual(fromJSON, fromYAML) {
			t.Fatalf("asyncapi YAML: %v, or other values than the JSON document", err)
		}
	})
}

// FuzzDiff: comparing two registries the loader accepts never panics, every format
// renders (JSON output is valid JSON, text and GitHub output one line per finding
// and remedy), and a registry compared with itself has no findings.
func FuzzDiff(f *testing.F) {
	seeds := seedRegistries(f)
	dirs, _ := filepath.Glob(filepath.Join(repoRoot, "testdata/diff/*"))
	for _, d := range dirs {
		o, err1 := os.ReadFile(filepath.Join(d, "old.yaml"))
		n, err2 := os.ReadFile(filepath.Join(d, "new.yaml"))
		if err1 == nil && err2 == nil {
			f.Add(o, n)
		}
	}
	for i := 0; i+1 < len(seeds); i += 7 {
		f.Add(seeds[i], seeds[i+1])
	}
	f.Fuzz(func(t *testing.T, oldData, newData []byte) {
		o, n := loadBytes("old.yaml", oldData), loadBytes("new.yaml", newData)
		if o == nil || n == nil {
			return
		}
		for _, mode := range diff.Modes {
			if self := diff.Compare(o, o, mode); len(self.Findings) != 0 {
				t.Fatalf("%s: a registry differs from itself: %+v", mode, self.Findings[0])
			}
			rep := diff.Compare(o, n, mode)
			for _, format := range []string{"text", "json", "github", "markdown"} {
				var buf bytes.Buffer
				if err := rep.Write(&buf, format, diff.Labels{Old: "old", New: "new"}); err != nil {
					t.Fatalf("%s %s: %v", mode, format, err)
				}
				switch format {
				case "json":
					if !json.Valid(buf.Bytes()) {
						t.Fatalf("%s: invalid JSON", mode)
					}
				case "github":
					if lines := strings.Count(buf.String(), "\n"); lines != len(rep.Findings) {
						t.Fatalf("%s github: %d lines for %d findings:\n%s", mode, lines, len(rep.Findings), buf.String())
					}
				}
			}
		}
	})
}
