package gonames

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"sort"
	"sync"

	"github.com/babelqueue/bqgen/internal/emit/golang/rt"
)

// runtimeDecls is every package-level identifier the generated runtime
// (babelqueue.go in the root package) declares — types, functions, variables and
// constants, exported or not — read once from the runtime's own source (rt.Source,
// the files rt.RootFiles names, which the emitter copies), so that a name the runtime
// gains is reserved with no list to update. Methods are not package-level names.
var runtimeDecls = sync.OnceValue(func() map[string]bool {
	names, err := declaredNames(rt.RootFiles(), rt.Source.ReadFile)
	if err != nil {
		// The files are the source of package rt, which compiled: they parse.
		panic("gonames: reading the runtime's source: " + err.Error())
	}
	return names
})

// declaredNames returns the package-level identifiers declared in the Go files
// files, read with read.
func declaredNames(files []string, read func(string) ([]byte, error)) (map[string]bool, error) {
	out := map[string]bool{}
	for _, n := range files {
		src, err := read(n)
		if err != nil {
			return nil, err
		}
		af, err := parser.ParseFile(token.NewFileSet(), n, src, parser.SkipObjectResolution)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", n, err)
		}
		for _, d := range af.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					out[d.Name.Name] = true
				}
			case *ast.GenDecl:
				for _, sp := range d.Specs {
					switch sp := sp.(type) {
					case *ast.TypeSpec:
						out[sp.Name.Name] = true
					case *ast.ValueSpec:
						for _, id := range sp.Names {
							out[id.Name] = true
						}
					}
				}
			}
		}
	}
	delete(out, "_")
	return out, nil
}

// RuntimeIdentifiers returns the exported package-level identifiers the generated
// runtime declares, sorted: a named type, or a type or constant declared inside one
// (all in the root package), that maps onto one of them collides (BQ030). They are
// read from the runtime's source, not listed by hand.
func RuntimeIdentifiers() []string {
	var out []string
	for n := range runtimeDecls() {
		if token.IsExported(n) {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// RuntimeDeclares reports whether the generated runtime declares name at package
// level (exported or not): the root package's other files must not declare it.
func RuntimeDeclares(name string) bool { return runtimeDecls()[name] }
