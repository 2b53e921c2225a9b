package gonames

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/babelqueue/bqgen/internal/model"
)

// rtDir is the runtime's source directory, relative to this package.
const rtDir = "../emit/golang/rt"

// TestRuntimeIdentifiersFromSource reads the runtime's files from disk, as a
// maintainer edits them, and checks that RuntimeIdentifiers holds every exported
// package-level name they declare and nothing else: a name the runtime gains is
// reserved without a list to update. The names that were missing from the hand list
// this replaced (Cipher, EnvelopeEncoder, ErrCipherUnavailable, WithCipher,
// WithRouterCipher) must be among them.
func TestRuntimeIdentifiersFromSource(t *testing.T) {
	t.Parallel()
	ents, err := os.ReadDir(rtDir)
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, e := range ents {
		n := e.Name()
		if strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") && n != "source.go" {
			files = append(files, n)
		}
	}
	disk, err := declaredNames(files, func(n string) ([]byte, error) { return os.ReadFile(filepath.Join(rtDir, n)) })
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for n := range disk {
		if IsExported(n) {
			want = append(want, n)
		}
		if !RuntimeDeclares(n) {
			t.Errorf("RuntimeDeclares(%q) = false; the runtime declares it", n)
		}
	}
	slices.Sort(want)
	if got := RuntimeIdentifiers(); !slices.Equal(got, want) {
		t.Errorf("RuntimeIdentifiers() =\n%q\nthe runtime's source declares\n%q", got, want)
	}
	for _, n := range []string{"Cipher", "EnvelopeEncoder", "ErrCipherUnavailable", "WithCipher", "WithRouterCipher", "NewRouter", "Money"} {
		if !slices.Contains(want, n) {
			t.Errorf("the runtime's source does not declare %s", n)
		}
	}
	for _, n := range []string{"collect", "initMessage"} {
		if !RuntimeDeclares(n) {
			t.Errorf("RuntimeDeclares(%q) = false", n)
		}
	}
	// No runtime name has the form of a variable the generated files declare.
	for n := range disk {
		if isGeneratedVar(n) || n == "namedTypeDescs" {
			t.Errorf("the runtime declares %s, a name the generated files use", n)
		}
	}
}

// TestRuntimeNamesCollide plans a registry with a named type called like each
// exported runtime identifier, and an enum constant and an inline object that map onto
// ones: every one is a collision with the runtime (BQ030), none reaches the emitter.
func TestRuntimeNamesCollide(t *testing.T) {
	t.Parallel()
	ids := RuntimeIdentifiers()
	reg := &model.Registry{}
	for i, id := range ids {
		reg.Types = append(reg.Types, &model.NamedType{Name: id, Schema: &model.Schema{Kind: model.String}, Pos: pos(i + 1)})
	}
	// With + cipher → WithCipher (an inline object); Reason + failed → ReasonFailed (an enum constant).
	reg.Types = append(reg.Types,
		&model.NamedType{Name: "With", Pos: pos(1000), Schema: &model.Schema{Kind: model.Object, Properties: []*model.Property{
			{Name: "cipher", Pos: pos(1001), Schema: &model.Schema{Kind: model.Object}}}}},
		&model.NamedType{Name: "Reason", Pos: pos(1002), Schema: &model.Schema{Kind: model.String, Enum: []any{"failed"}}})
	colls := Collisions(reg, "events")
	got := map[string]bool{}
	for _, c := range colls {
		if c.OtherWhat == "the generated runtime's "+c.Name {
			got[c.Name] = true
		}
	}
	for _, id := range append(ids, "WithCipher", "ReasonFailed") {
		if !got[id] {
			t.Errorf("no collision with the runtime's %s", id)
		}
	}
}
