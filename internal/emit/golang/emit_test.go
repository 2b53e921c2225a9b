package golang

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/babelqueue/bqgen/internal/gomodtest"
	"github.com/babelqueue/bqgen/internal/gonames"
	"github.com/babelqueue/bqgen/internal/model"
	"github.com/babelqueue/bqgen/internal/synth"
	"github.com/babelqueue/bqgen/registry"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

const examplesRegistry = "../../../examples/registry.yaml"

// loadExamples loads examples/registry.yaml; it must load without errors.
func loadExamples(t *testing.T) *model.Registry {
	t.Helper()
	if _, err := os.Stat(examplesRegistry); err != nil {
		t.Fatalf("no %s: %v", examplesRegistry, err)
	}
	reg, diags, err := registry.Load(context.Background(), examplesRegistry)
	if err != nil || reg == nil || diags.HasErrors() {
		t.Fatalf("examples/registry.yaml does not load cleanly (err %v): %v", err, diags)
	}
	return reg
}

// testImportPath is the import path the tests generate the root package at.
func testImportPath(pkg string) string { return "example.com/gen/" + pkg }

func emit(t *testing.T, reg *model.Registry, pkg string) []File {
	t.Helper()
	names, colls := gonames.Plan(reg, pkg)
	if len(colls) > 0 {
		t.Fatalf("collisions: %+v", colls)
	}
	files, err := Emit(reg, names, Options{ImportPath: testImportPath(pkg)})
	if err != nil {
		t.Fatalf("Emit: %v", err)
	}
	return files
}

// copied reports whether f is the runtime copied from ./rt or ./rt/bqrt (the same
// bytes for every registry but the package clause and import path).
func copied(f File) bool {
	return f.Name == runtimeFile || strings.HasPrefix(f.Name, gonames.BqrtDir+"/")
}

// TestGolden compares the emitted per-registry files with testdata/golden/<case>/
// (types.go, <context>/<context>.go). babelqueue.go and internal/bqrt are the runtime
// copied from ./rt and are checked by TestRuntimeFile instead, so that runtime edits
// do not churn the goldens.
func TestGolden(t *testing.T) {
	cases := []struct {
		name string
		reg  func(t *testing.T) *model.Registry
	}{
		{"model", func(*testing.T) *model.Registry { return testRegistry() }},
		{"examples", loadExamples},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			reg := c.reg(t)
			files := emit(t, reg, "events")
			dir := filepath.Join("testdata", "golden", c.name)
			if *update {
				if err := os.RemoveAll(dir); err != nil {
					t.Fatal(err)
				}
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			want := map[string]bool{}
			for _, f := range files {
				if copied(f) {
					continue
				}
				golden := filepath.Join(dir, filepath.FromSlash(f.Name)+".golden")
				want[f.Name+".golden"] = true
				if *update {
					if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(golden, f.Content, 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				old, err := os.ReadFile(golden)
				if err != nil {
					t.Errorf("%v (run with -update)", err)
					continue
				}
				if !bytes.Equal(old, f.Content) {
					t.Errorf("%s differs from %s (run with -update and review the diff)", f.Name, golden)
				}
			}
			filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return err
				}
				rel, _ := filepath.Rel(dir, p)
				if !want[filepath.ToSlash(rel)] {
					t.Errorf("stale golden file %s", rel)
				}
				return nil
			})
		})
	}
}

func TestDeterministic(t *testing.T) {
	t.Parallel()
	reg := testRegistry()
	a := emit(t, reg, "events")
	for i := 0; i < 3; i++ {
		b := emit(t, reg, "events")
		if len(a) != len(b) {
			t.Fatalf("run %d: %d files, first run %d", i, len(b), len(a))
		}
		for j := range a {
			if a[j].Name != b[j].Name || !bytes.Equal(a[j].Content, b[j].Content) {
				t.Fatalf("run %d: %s differs", i, a[j].Name)
			}
		}
	}
}

// TestOutputIsGofmtStable holds every emitted file to format.Source(out) == out: the
// descriptor tables are written as text (descText), not through go/format, so this
// is what keeps them in gofmt's form. It covers the test model, the example registry
// and a synthetic registry that uses every registry type (internal/synth); the
// property test (internal/property) checks the same on random registries.
func TestOutputIsGofmtStable(t *testing.T) {
	t.Parallel()
	syn, diags, err := registry.LoadFiles(context.Background(), synth.Files(synth.Options{Messages: 60}))
	if err != nil || syn == nil || diags.HasErrors() {
		t.Fatalf("synthetic registry does not load (err %v): %v", err, diags)
	}
	regs := map[string]*model.Registry{"model": testRegistry(), "examples": loadExamples(t), "synth": syn}
	for name, reg := range regs {
		for _, f := range emit(t, reg, "events") {
			formatted, err := format.Source(f.Content)
			if err != nil {
				t.Errorf("%s/%s: %v", name, f.Name, err)
				continue
			}
			if !bytes.Equal(formatted, f.Content) {
				t.Errorf("%s/%s is not gofmt-stable:\n%s", name, f.Name, firstDiff(f.Content, formatted))
			}
		}
	}
}

// TestOutputReadsAsItsUserSees: every emitted file groups its imports as goimports does
// (the standard library first, a blank line, then the rest) and cites no page of bqgen's
// repository, whose docs/ its reader does not have.
func TestOutputReadsAsItsUserSees(t *testing.T) {
	t.Parallel()
	docRef := regexp.MustCompile(`docs/[a-z0-9-]+\.md`)
	for _, f := range emit(t, loadExamples(t), "events") {
		src := string(f.Content)
		if m := docRef.FindString(src); m != "" {
			t.Errorf("%s cites %s of bqgen's repository", f.Name, m)
		}
		fset := token.NewFileSet()
		af, err := parser.ParseFile(fset, f.Name, f.Content, parser.ImportsOnly)
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		// Within the import block: no standard-library import after another one, and a
		// blank line (a new group) exactly where the kind changes.
		for i := 1; i < len(af.Imports); i++ {
			prev, cur := af.Imports[i-1], af.Imports[i]
			prevStd, curStd := !strings.Contains(strings.SplitN(strings.Trim(prev.Path.Value, `"`), "/", 2)[0], "."), !strings.Contains(strings.SplitN(strings.Trim(cur.Path.Value, `"`), "/", 2)[0], ".")
			gap := fset.Position(cur.Pos()).Line - fset.Position(prev.Pos()).Line
			switch {
			case curStd && !prevStd:
				t.Errorf("%s: standard library import %s after %s", f.Name, cur.Path.Value, prev.Path.Value)
			case prevStd != curStd && gap != 2:
				t.Errorf("%s: no blank line between the standard library and %s", f.Name, cur.Path.Value)
			case prevStd == curStd && gap != 1:
				t.Errorf("%s: a blank line inside an import group before %s", f.Name, cur.Path.Value)
			}
		}
	}
}

// firstDiff shows the first line where got and want differ.
func firstDiff(got, want []byte) string {
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := range min(len(g), len(w)) {
		if g[i] != w[i] {
			return fmt.Sprintf("line %d:\n got  %q\n gofmt %q", i+1, g[i], w[i])
		}
	}
	return fmt.Sprintf("%d lines, gofmt gives %d", len(g), len(w))
}

// TestFilesShape checks every file: sorted names, the header, gofmt'd (parses), the
// package clause of its directory, imports only of the standard library and of the
// generated tree, every exported identifier documented.
func TestFilesShape(t *testing.T) {
	t.Parallel()
	files := emit(t, testRegistry(), "events")
	var names []string
	for _, f := range files {
		if !strings.HasPrefix(f.Name, gonames.BqrtDir+"/") {
			names = append(names, f.Name)
		}
	}
	if got, want := strings.Join(names, " "), "babelqueue.go orders/orders.go types.go useraccounts/useraccounts.go"; got != want {
		t.Errorf("files = %s, want %s", got, want)
	}
	root := testImportPath("events")
	for _, f := range files {
		if !bytes.HasPrefix(f.Content, []byte("// "+Header+"\n")) {
			t.Errorf("%s: missing header", f.Name)
		}
		fset := token.NewFileSet()
		af, err := parser.ParseFile(fset, f.Name, f.Content, parser.ParseComments)
		if err != nil {
			t.Errorf("%s: %v", f.Name, err)
			continue
		}
		wantPkg := "events"
		if dir := path.Dir(f.Name); dir != "." {
			wantPkg = path.Base(dir)
		}
		if af.Name.Name != wantPkg {
			t.Errorf("%s: package %s, want %s", f.Name, af.Name.Name, wantPkg)
		}
		for _, imp := range af.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if strings.Contains(strings.Split(p, "/")[0], ".") && p != root && !strings.HasPrefix(p, root+"/") {
				t.Errorf("%s: import %s outside the standard library and the generated tree", f.Name, p)
			}
			if imp.Name != nil {
				t.Errorf("%s: import %s under the alias %s", f.Name, p, imp.Name.Name)
			}
		}
		if copied(f) {
			continue // the runtime's own docs are checked with its packages (./rt, ./rt/bqrt)
		}
		for _, miss := range undocumented(af) {
			t.Errorf("%s: %s is not documented", f.Name, miss)
		}
	}
}

// undocumented lists the exported declarations, methods and struct fields of af that
// have no doc comment (a const/var/type group's doc counts for its members).
func undocumented(af *ast.File) []string {
	var out []string
	for _, d := range af.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Name.IsExported() && d.Doc == nil && exportedRecv(d) {
				out = append(out, d.Name.Name)
			}
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				switch sp := sp.(type) {
				case *ast.TypeSpec:
					if sp.Name.IsExported() && d.Doc == nil && sp.Doc == nil {
						out = append(out, sp.Name.Name)
					}
					if st, ok := sp.Type.(*ast.StructType); ok && sp.Name.IsExported() {
						for _, fl := range st.Fields.List {
							for _, n := range fl.Names {
								if n.IsExported() && fl.Doc == nil && fl.Comment == nil {
									out = append(out, sp.Name.Name+"."+n.Name)
								}
							}
						}
					}
					if it, ok := sp.Type.(*ast.InterfaceType); ok && sp.Name.IsExported() {
						for _, m := range it.Methods.List {
							for _, n := range m.Names {
								if n.IsExported() && m.Doc == nil {
									out = append(out, sp.Name.Name+"."+n.Name)
								}
							}
						}
					}
				case *ast.ValueSpec:
					for _, n := range sp.Names {
						if n.IsExported() && d.Doc == nil && sp.Doc == nil {
							out = append(out, n.Name)
						}
					}
				}
			}
		}
	}
	return out
}

// TestRuntimeFile checks babelqueue.go (one package clause and header, the
// machinery imported from the generated tree, every non-test declaration of ./rt
// present) and internal/bqrt (./rt/bqrt without bridge.go).
func TestRuntimeFile(t *testing.T) {
	t.Parallel()
	src, err := runtimeSource("events", "example.com/gen/events")
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(src, []byte(Header)); n != 1 {
		t.Errorf("header appears %d times", n)
	}
	fset := token.NewFileSet()
	af, err := parser.ParseFile(fset, runtimeFile, src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	if af.Name.Name != "events" || af.Doc == nil {
		t.Errorf("package %s, doc %v", af.Name.Name, af.Doc != nil)
	}
	var imports []string
	for _, imp := range af.Imports {
		imports = append(imports, imp.Path.Value)
	}
	if !slices.Contains(imports, `"example.com/gen/events/internal/bqrt"`) || slices.Contains(imports, strconv.Quote(rtImportPath)) {
		t.Errorf("imports %v: want the generated tree's bqrt", imports)
	}
	have := map[string]bool{}
	ast.Inspect(af, func(n ast.Node) bool {
		if fd, ok := n.(*ast.FuncDecl); ok {
			have[fd.Name.Name] = true
		}
		return true
	})
	for _, fn := range []string{"New", "Publish", "Decode", "Handle", "initMessage", "encodeMessage", "NewRouter", "Dispatch"} {
		if !have[fn] {
			t.Errorf("runtime lacks %s", fn)
		}
	}
	bq, err := bqrtSources()
	if err != nil {
		t.Fatal(err)
	}
	var bqNames []string
	for _, f := range bq {
		bqNames = append(bqNames, f.Name)
		if bytes.Contains(f.Content, []byte("func ParseStrict")) {
			t.Errorf("%s: bqgen's own bridge is in the generated runtime", f.Name)
		}
	}
	if !slices.Contains(bqNames, "internal/bqrt/json.go") || !slices.Contains(bqNames, "internal/bqrt/envelope.go") {
		t.Errorf("bqrt files %v", bqNames)
	}
}

func TestEmitRejectsBadInput(t *testing.T) {
	t.Parallel()
	reg := testRegistry()
	names, _ := gonames.Plan(reg, "type")
	if _, err := Emit(reg, names, Options{ImportPath: "example.com/x"}); err == nil {
		t.Error("keyword package name accepted")
	}
	if _, err := Emit(reg, plan(t, reg), Options{}); err == nil {
		t.Error("no import path accepted")
	}
	opts := Options{ImportPath: "example.com/x"}
	bad := &model.Registry{Messages: []*model.Message{{URN: "urn:babel:a:b", Data: obj(false,
		prop("x", true, &model.Schema{Kind: model.String, Pattern: "(?<=a)b"}))}}}
	if _, err := Emit(bad, plan(t, bad), opts); err == nil || !strings.Contains(err.Error(), "pattern") {
		t.Errorf("invalid pattern: err = %v", err)
	}
	unresolved := &model.Registry{Messages: []*model.Message{{URN: "urn:babel:a:b", Data: obj(false,
		prop("x", true, &model.Schema{Kind: model.Ref, Ref: "Nope"}))}}}
	if _, err := Emit(unresolved, plan(t, unresolved), opts); err == nil {
		t.Error("unresolved ref accepted")
	}
}

// TestGeneratedPackage writes the generated package of the test model (and of
// examples/registry.yaml when it loads) into a temporary module, with the test of
// generated_test.go.txt, and runs go vet and go test there.
func TestGeneratedPackage(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped with -short: builds and tests a generated module")
	}
	mod := gomodtest.New(t, "example.com/gen")
	for _, f := range emit(t, testRegistry(), "events") {
		mod.Write("events/"+f.Name, f.Content)
	}
	inner, err := os.ReadFile(filepath.Join("testdata", "generated_test.go.txt"))
	if err != nil {
		t.Fatal(err)
	}
	mod.Write("events/generated_test.go", inner)
	for _, f := range emit(t, loadExamples(t), "examples") {
		mod.Write("examples/"+f.Name, f.Content)
	}
	mod.Go("vet", "./...")
	mod.Go("test", "-count=1", "./...")
}

// exportedRecv reports whether a function is not a method, or a method of an
// exported type.
func exportedRecv(d *ast.FuncDecl) bool {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return true
	}
	t := d.Recv.List[0].Type
	if st, ok := t.(*ast.StarExpr); ok {
		t = st.X
	}
	if ix, ok := t.(*ast.IndexExpr); ok {
		t = ix.X
	}
	id, ok := t.(*ast.Ident)
	return !ok || id.IsExported()
}

// hostileText is registry text that tries to leave a comment: to close it, to start a
// block comment, a directive (`//go:generate`, `//line`), or code.
const hostileText = "/*\n*/ func init() { panic(1) } /*\n*/\n\nHeading Here\n\nText\n\n\tcode line\n    spaced code\n" +
	"//go:generate sh -c 'echo PWNED'\n//line evil.go:1\n- item\n*/ var Injected = 1 /*\n/* open"

// textRegistry is a registry whose every piece of free text (summary, description,
// deprecation reason, named type, field and nested object descriptions) is text.
func textRegistry(text string) *model.Registry {
	inner := obj(false, prop("code", true, &model.Schema{Kind: model.String, Description: text}))
	inner.Description = text
	thing := &model.NamedType{Name: "Thing", Schema: &model.Schema{Kind: model.Object, AdditionalProperties: true, Description: text,
		Properties: []*model.Property{prop("a", false, &model.Schema{Kind: model.String, Description: text})}}}
	data := obj(false,
		prop("id", true, &model.Schema{Kind: model.Integer, Description: text, Deprecation: &model.Deprecation{Reason: text}}),
		prop("thing", false, &model.Schema{Kind: model.Ref, Ref: "Thing", Named: thing}),
		prop("parts", false, &model.Schema{Kind: model.Array, Items: inner}),
		prop("mode", false, &model.Schema{Kind: model.String, Enum: []any{"a", "b"}, Description: text}))
	return &model.Registry{Version: 1, Types: []*model.NamedType{thing}, Messages: []*model.Message{{
		URN: "urn:babel:orders:created", Kind: model.Event, Queue: "orders", Summary: text, Description: text,
		Deprecation: &model.Deprecation{Reason: text}, Data: data,
	}}}
}

// TestRegistryTextStaysInComments checks that registry text only ever lands inside
// `//` comments: the files declare the same identifiers as with plain text, no
// comment line is a directive or a block comment, and the files are gofmt-stable.
func TestRegistryTextStaysInComments(t *testing.T) {
	t.Parallel()
	decls := func(files []File) map[string]string {
		out := map[string]string{}
		for _, f := range files {
			if copied(f) {
				continue
			}
			fset, af := parseFile(t, f.Name, f.Content)
			var names []string
			for _, d := range af.Decls {
				switch d := d.(type) {
				case *ast.FuncDecl:
					names = append(names, "func "+d.Name.Name)
				case *ast.GenDecl:
					for _, sp := range d.Specs {
						switch sp := sp.(type) {
						case *ast.TypeSpec:
							names = append(names, "type "+sp.Name.Name)
						case *ast.ValueSpec:
							for _, n := range sp.Names {
								names = append(names, d.Tok.String()+" "+n.Name)
							}
						}
					}
				}
			}
			out[f.Name] = strings.Join(names, ", ")
			for _, cg := range af.Comments {
				for _, c := range cg.List {
					if !strings.HasPrefix(c.Text, "//") || strings.HasPrefix(c.Text, "//go:") || strings.HasPrefix(c.Text, "//line") {
						t.Errorf("%s:%d: comment %q", f.Name, fset.Position(c.Pos()).Line, c.Text)
					}
				}
			}
			if formatted, err := format.Source(f.Content); err != nil || !bytes.Equal(formatted, f.Content) {
				t.Errorf("%s is not gofmt-stable (err %v)", f.Name, err)
			}
		}
		return out
	}
	hostile := decls(emit(t, textRegistry(hostileText), "events"))
	plain := decls(emit(t, textRegistry("Plain text."), "events"))
	for name, want := range plain {
		if got := hostile[name]; got != want {
			t.Errorf("%s declares\n%s\nwith hostile text, want\n%s", name, got, want)
		}
	}
}

// TestEveryTestdataRegistryBuilds generates the packages of every registry in
// testdata that loads without errors (testdata/registry/good, the clean twins of
// testdata/rules, testdata/hostile, examples/registry.yaml: cleanRegistries), each into a module of its
// own, and runs go vet there: every registry `check` accepts must give packages that
// build and vet. The modules share one module path, so the generated runtime
// (internal/bqrt, the same bytes for every registry) has one import path and is
// compiled once (internal/gomodtest).
func TestEveryTestdataRegistryBuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped with -short: builds generated modules")
	}
	t.Parallel()
	paths := cleanRegistries(t)
	var built atomic.Int32
	t.Run("registries", func(t *testing.T) {
		for _, p := range paths {
			reg, diags, err := registry.Load(context.Background(), p)
			if err != nil || reg == nil || diags.HasErrors() {
				continue // a registry check rejects (a hostile file may be one)
			}
			t.Run(strings.TrimPrefix(filepath.ToSlash(p), "../../../"), func(t *testing.T) {
				t.Parallel()
				names, colls := gonames.Plan(reg, "events")
				if len(colls) > 0 {
					t.Fatalf("%s: collisions after a clean load: %+v", p, colls)
				}
				files, err := Emit(reg, names, Options{ImportPath: "example.com/all/events"})
				if err != nil {
					t.Fatalf("%s: %v", p, err)
				}
				mod := gomodtest.New(t, "example.com/all")
				for _, f := range files {
					mod.Write("events/"+f.Name, f.Content)
				}
				mod.Go("vet", "./...")
				built.Add(1)
			})
		}
	})
	if built.Load() < 25 {
		t.Fatalf("only %d of %d testdata registries load cleanly and vet", built.Load(), len(paths))
	}
}

// TestEmitRefusesOverBudget: a message whose SDK schema exceeds its budget (BQ050,
// which `bqgen check` reports before generate runs) fails the emitter rather than get a
// protected-path list without the marks inside its named types: named types L0…L15,
// each using the next twice, over a marked string (2^16 copies once inlined).
func TestEmitRefusesOverBudget(t *testing.T) {
	t.Parallel()
	const levels = 16
	types := make([]*model.NamedType, levels+1)
	types[levels] = &model.NamedType{Name: fmt.Sprintf("L%02d", levels), Schema: &model.Schema{Kind: model.String, GDPR: "true", Description: "A note."}}
	for i := levels - 1; i >= 0; i-- {
		next := types[i+1]
		types[i] = &model.NamedType{Name: fmt.Sprintf("L%02d", i), Schema: obj(false,
			prop("l", true, &model.Schema{Kind: model.Ref, Ref: next.Name, Named: next}),
			prop("r", true, &model.Schema{Kind: model.Ref, Ref: next.Name, Named: next}))}
	}
	reg := &model.Registry{Version: 1, Types: types, Messages: []*model.Message{{URN: "urn:babel:a:tree", Data: obj(false,
		prop("t", true, &model.Schema{Kind: model.Ref, Ref: types[0].Name, Named: types[0]}))}}}
	_, err := Emit(reg, plan(t, reg), Options{ImportPath: "example.com/x"})
	if err == nil || !strings.Contains(err.Error(), "BQ050") || !strings.Contains(err.Error(), "protected paths cannot be listed") {
		t.Errorf("Emit: %v", err)
	}
}

// cleanRegistries returns the paths of the registries in testdata that load without
// errors (testdata/registry/good, the clean twins of testdata/rules, testdata/hostile)
// and examples/registry.yaml, relative to this package.
func cleanRegistries(t *testing.T) []string {
	t.Helper()
	var paths []string
	for _, glob := range []string{"../../../testdata/registry/good/*.yaml", "../../../testdata/rules/*/clean.yaml",
		"../../../testdata/rules/*/clean", "../../../testdata/hostile/*.yaml", examplesRegistry} {
		m, err := filepath.Glob(glob)
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, m...)
	}
	return paths
}
