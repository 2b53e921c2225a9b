package golang

import (
	"go/build/constraint"
	"slices"
	"strings"
	"testing"

	"github.com/babelqueue/bqgen/internal/gomodtest"
)

// TestDirectiveSafe checks each directive form directiveSafe neutralises, and the
// lines it leaves as they are.
func TestDirectiveSafe(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"// +build ignore":             "// `+build` ignore",
		"//\t+build ignore":            "//\t`+build` ignore",
		"//   +build linux,!cgo":       "//   `+build` linux,!cgo",
		"// go:build ignore":           "// `go:build` ignore",
		"// go:generate sh -c 'x'":     "// `go:generate` sh -c 'x'",
		"// go:linkname f runtime.f":   "// `go:linkname` f runtime.f",
		"//\tgo:embed *":               "//\t`go:embed` *",
		"// #cgo LDFLAGS: -lx":         "// `#cgo` LDFLAGS: -lx",
		"// +build":                    "// `+build`",
		"// line evil.go:1":            "// line evil.go:1", // //line needs no blank after //
		"// export Evil":               "// export Evil",    // //export needs no blank after //
		"// //go:generate x":           "// //go:generate x",
		"// //line evil.go:1":          "// //line evil.go:1",
		"// uses +build and go:build.": "// uses +build and go:build.",
		"//":                           "//",
		"// Plain text.":               "// Plain text.",
	} {
		if got := directiveSafe(in); got != want {
			t.Errorf("directiveSafe(%q) = %q, want %q", in, got, want)
		}
	}
}

// directiveTexts are registry texts (descriptions, summaries, deprecation reasons)
// that, written as a comment line, a Go tool could read as a directive, each with a
// word that must still be in the comment.
var directiveTexts = []struct{ text, word string }{
	{"+build ignore", "ignore"},
	{"Intro.\n\n\t+build ignore", "ignore"}, // a code block
	{"go:build ignore", "ignore"},
	{"//go:build ignore", "ignore"},
	{"go:generate sh -c 'echo PWNED'", "PWNED"},
	{"//go:generate sh -c 'echo PWNED'", "PWNED"},
	{"go:linkname evil runtime.evil", "runtime.evil"},
	{"line evil.go:1", "evil.go:1"},
	{"//line evil.go:1", "evil.go:1"},
	{"export Evil", "Evil"},
	{"//export Evil", "Evil"},
	{"#cgo LDFLAGS: -levil", "-levil"},
	{"/*line evil.go:1*/", "evil.go:1"},
}

// TestNoDirectiveFromRegistryText emits a registry whose every text is one directive
// form and checks every comment of every generated file: none is a build constraint
// (go/build/constraint, as go/build, gofmt and go vet read them), a compiler or go
// generate directive (`//go:`, `//line `, `//export `, `//extern `), a cgo directive or
// a +build/go: line behind blanks; the text's words are still in the comment; and the
// file still has no build constraint at its top (gofmt hoisted "// +build ignore"
// there as `//go:build ignore` before directiveSafe).
func TestNoDirectiveFromRegistryText(t *testing.T) {
	t.Parallel()
	for _, c := range directiveTexts {
		files := emit(t, textRegistry(c.text), "events")
		for _, f := range files {
			if copied(f) {
				continue
			}
			fset, af := parseFile(t, f.Name, f.Content)
			found := false
			for _, cg := range af.Comments {
				for _, cm := range cg.List {
					line := cm.Text
					where := func() string { return fset.Position(cm.Pos()).String() }
					body := strings.TrimLeft(strings.TrimPrefix(line, "//"), " \t")
					switch {
					case constraint.IsGoBuild(line), constraint.IsPlusBuild(line):
						t.Errorf("%q: %s:%s: build constraint %q", c.text, f.Name, where(), line)
					case strings.HasPrefix(line, "//go:"), strings.HasPrefix(line, "//line "), strings.HasPrefix(line, "//export "),
						strings.HasPrefix(line, "//extern "), strings.HasPrefix(line, "/*"):
						t.Errorf("%q: %s:%s: directive %q", c.text, f.Name, where(), line)
					case strings.HasPrefix(body, "+build"), strings.HasPrefix(body, "go:"), strings.HasPrefix(body, "#cgo"):
						t.Errorf("%q: %s:%s: %q reads as a directive behind blanks", c.text, f.Name, where(), line)
					}
					if strings.Contains(line, c.word) {
						found = true
					}
				}
			}
			if af.Doc != nil && f.Name != typesFile {
				for _, cm := range af.Doc.List {
					if strings.Contains(cm.Text, c.word) {
						t.Errorf("%q: %s: registry text in the package documentation", c.text, f.Name)
					}
				}
			}
			if !found {
				t.Errorf("%q: %s: no comment holds %q", c.text, f.Name, c.word)
			}
			if pre := f.Content[:af.Package-1]; strings.Contains(string(pre), "build") {
				t.Errorf("%q: %s: build constraint before the package clause:\n%s", c.text, f.Name, pre)
			}
		}
	}
}

// TestPlusBuildPackageListed writes the packages of a registry whose descriptions say
// "+build ignore" into a module and checks that `go list ./...` lists every one: on
// main the line became a real build constraint, the packages dropped out of `./...`,
// and go build and go vet of `./...` passed without building them.
func TestPlusBuildPackageListed(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped with -short: runs the go command")
	}
	t.Parallel()
	mod := gomodtest.New(t, "example.com/gen")
	for _, f := range emit(t, textRegistry("+build ignore"), "events") {
		mod.Write("events/"+f.Name, f.Content)
	}
	got := strings.Fields(string(mod.Go("list", "./...")))
	want := []string{"example.com/gen/events", "example.com/gen/events/internal/bqrt", "example.com/gen/events/orders"}
	if !slices.Equal(got, want) {
		t.Errorf("go list ./... = %q, want %q", got, want)
	}
}
