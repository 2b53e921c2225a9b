package registry

import (
	"context"
	"strings"
	"testing"
)

// TestGoPackageChecked: a go.package that generate refuses (gonames.CheckPackage) is a
// BQ030 finding of check at the go.package value; on main check passed and generate
// then refused the name (found by the adversarial property test, internal/property).
func TestGoPackageChecked(t *testing.T) {
	t.Parallel()
	for pkg, want := range map[string]string{
		"context":  `r.yaml:2:15: error BQ030: go.package "context" cannot be the Go package name: it is a name the generated context packages use for an import or a parameter`,
		"pattern0": `r.yaml:2:15: error BQ030: go.package "pattern0" cannot be the Go package name: it is a name of the form of the variables the generated context packages declare (pattern0, piiCreated, tdCreated)`,
		"string":   `r.yaml:2:15: error BQ030: go.package "string" cannot be the Go package name: it is a predeclared Go identifier`,
		"main":     `r.yaml:2:15: error BQ030: go.package "main" cannot be the Go package name: it is a name the go tool treats specially`,
		"events":   "",
	} {
		src := "version: 1\ngo: {package: " + pkg + "}\nmessages:\n  urn:babel:orders:created:\n    data: {properties: {id: {type: integer, minimum: 1}}}\n"
		_, diags, err := LoadFiles(context.Background(), map[string][]byte{"r.yaml": []byte(src)})
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if len(diags) > 0 {
			got, _, _ = strings.Cut(diags[0].String(), " | ")
		}
		if got != want || len(diags) > 1 {
			t.Errorf("go.package %s: %v, want %q", pkg, diags, want)
		}
	}
}
