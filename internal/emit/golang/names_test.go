package golang

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/babelqueue/bqgen/internal/gonames"
	"github.com/babelqueue/bqgen/internal/model"
	"github.com/babelqueue/bqgen/registry"
)

// parseFile parses the generated file name (comments included); the test fails
// when it does not parse.
func parseFile(t *testing.T, name string, src []byte) (*token.FileSet, *ast.File) {
	t.Helper()
	fset := token.NewFileSet()
	af, err := parser.ParseFile(fset, name, src, parser.ParseComments)
	if err != nil {
		t.Fatalf("%s does not parse: %v", name, err)
	}
	return fset, af
}

// namesRegistries loads examples/registry.yaml and testdata/registry/good/*.yaml: every
// kind of declaration the emitter writes (patterns, PII, named types, enums, inline
// objects, maps, recursion).
func namesRegistries(t *testing.T) map[string]*model.Registry {
	t.Helper()
	paths, err := filepath.Glob("../../../testdata/registry/good/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*model.Registry{}
	for _, p := range append(paths, examplesRegistry) {
		reg, diags, err := registry.Load(context.Background(), p)
		if err != nil || reg == nil || diags.HasErrors() {
			t.Fatalf("%s does not load cleanly (err %v): %v", p, err, diags)
		}
		out[p] = reg
	}
	return out
}

// TestRootNameCannotClash derives the names a root package may not have from the
// generated context files themselves: each imports the root package under its name, so
// every unexported identifier a context file declares or imports at package level (an
// import, a variable such as pattern0 or piiCreated), and every parameter or local of
// a function that refers to the root package, must be one gonames.CheckPackage
// refuses: a root package named like it would be redeclared or shadowed there.
func TestRootNameCannotClash(t *testing.T) {
	t.Parallel()
	seen := map[string]string{}
	for p, reg := range namesRegistries(t) {
		for _, f := range emit(t, reg, "events") {
			if copied(f) || f.Name == typesFile {
				continue
			}
			_, af := parseFile(t, f.Name, f.Content)
			where := p + ": " + f.Name
			for _, imp := range af.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				if path != testImportPath("events") {
					seen[filepath.Base(path)] = where + " (import)"
				}
			}
			for _, d := range af.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok {
					ast.Inspect(d, func(m ast.Node) bool { return inspectIdent(m, seen, where) })
					continue
				}
				if fd.Recv == nil {
					seen[fd.Name.Name] = where
				}
				// A function's parameters and locals matter only where the function
				// refers to the root package.
				if usesRoot(fd) {
					ast.Inspect(fd, func(m ast.Node) bool { return inspectIdent(m, seen, where) })
				}
			}
			// Only package-level names: the struct fields and methods are exported.
			delete(seen, "init")
		}
	}
	var names []string
	for n := range seen {
		names = append(names, n)
	}
	sort.Strings(names)
	if len(names) < 10 {
		t.Fatalf("only %d unexported identifiers in the context files: %q", len(names), names)
	}
	for _, n := range names {
		if gonames.CheckPackage(n) == nil {
			t.Errorf("%s uses %q, which gonames.CheckPackage accepts as the root package's name", seen[n], n)
		}
	}
}

// usesRoot reports whether fd refers to the root package ("events.X").
func usesRoot(fd *ast.FuncDecl) bool {
	found := false
	ast.Inspect(fd, func(n ast.Node) bool {
		if se, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := se.X.(*ast.Ident); ok && id.Name == "events" {
				found = true
			}
		}
		return !found
	})
	return found
}

// inspectIdent records in seen every unexported identifier at or below n except the
// selected names of selectors (fields and methods, which the package name cannot
// shadow) and the root package's qualifier "events".
func inspectIdent(n ast.Node, seen map[string]string, where string) bool {
	switch n := n.(type) {
	case *ast.SelectorExpr:
		ast.Inspect(n.X, func(m ast.Node) bool { return inspectIdent(m, seen, where) })
		return false
	case *ast.Ident:
		if n.Name != "_" && n.Name != "events" && !token.IsExported(n.Name) {
			if _, ok := seen[n.Name]; !ok {
				seen[n.Name] = where
			}
		}
	}
	return true
}

// TestTypesFileAndRuntimeDisjoint checks the other side of the root package: the
// package-level names types.go declares and the names it imports are none the runtime
// (babelqueue.go, same package) declares (gonames.RuntimeDeclares), and the runtime's
// imports are none types.go declares.
func TestTypesFileAndRuntimeDisjoint(t *testing.T) {
	t.Parallel()
	rtSrc, err := runtimeSource("events", testImportPath("events"))
	if err != nil {
		t.Fatal(err)
	}
	_, rf := parseFile(t, runtimeFile, rtSrc)
	rtImports := map[string]bool{}
	for _, imp := range rf.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		name := filepath.Base(path)
		if imp.Name != nil {
			name = imp.Name.Name
		}
		rtImports[name] = true
	}
	checked := 0
	for p, reg := range namesRegistries(t) {
		for _, f := range emit(t, reg, "events") {
			if f.Name != typesFile {
				continue
			}
			_, af := parseFile(t, f.Name, f.Content)
			for _, imp := range af.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				if n := filepath.Base(path); gonames.RuntimeDeclares(n) {
					t.Errorf("%s: types.go imports %s, which the runtime declares", p, n)
				}
			}
			for _, d := range af.Decls {
				var names []string
				switch d := d.(type) {
				case *ast.FuncDecl:
					if d.Recv == nil && d.Name.Name != "init" {
						names = append(names, d.Name.Name)
					}
				case *ast.GenDecl:
					for _, sp := range d.Specs {
						switch sp := sp.(type) {
						case *ast.TypeSpec:
							names = append(names, sp.Name.Name)
						case *ast.ValueSpec:
							for _, id := range sp.Names {
								names = append(names, id.Name)
							}
						}
					}
				}
				for _, n := range names {
					checked++
					if gonames.RuntimeDeclares(n) || rtImports[n] {
						t.Errorf("%s: types.go declares %s, which the runtime declares or imports", p, n)
					}
				}
			}
		}
	}
	if checked < 10 {
		t.Errorf("only %d declarations of types.go checked", checked)
	}
}

// TestIsRuntime: the runtime file is recognised as the root of a generated tree; a
// context package's file is not, not even one called babelqueue.go (the context
// "babelqueue"), nor types.go or a hand-written file.
func TestIsRuntime(t *testing.T) {
	t.Parallel()
	reg := testRegistry()
	reg.Messages[0].URN = "urn:babel:babelqueue:created"
	files := emit(t, reg, "events")
	got := map[string]bool{}
	for _, f := range files {
		if !strings.HasPrefix(f.Name, gonames.BqrtDir+"/") {
			got[f.Name] = IsRuntime(f.Content)
		}
	}
	if !got[runtimeFile] || got[typesFile] {
		t.Errorf("IsRuntime: %v", got)
	}
	if v, ok := got["babelqueue/babelqueue.go"]; !ok || v {
		t.Errorf("the context package babelqueue: present %v, IsRuntime %v", ok, v)
	}
	for _, s := range []string{"", "package events\n", "// " + Header + "\n\n// Package events is the runtime\n"} {
		if IsRuntime([]byte(s)) {
			t.Errorf("IsRuntime(%q) = true", s)
		}
	}
}
