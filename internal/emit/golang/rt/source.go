package rt

// This file is not part of the generated runtime (the emitter leaves out source.go): it
// hands the runtime's own source to bqgen, so that the emitter copies it into the root
// package (babelqueue.go) and internal/gonames reserves every package-level identifier
// it declares, both from the one text the compiler also checks.

import (
	"embed"
	"io/fs"
	"sort"
	"strings"
)

// Source holds the Go files of this directory (tests included); RootFiles selects
// those that make up the generated root package's babelqueue.go.
//
//go:embed *.go
var Source embed.FS

// SourceFile is this file's name: it is not part of the generated runtime.
const SourceFile = "source.go"

// RootFiles returns the names of the files in Source that the emitter merges into the
// root package's babelqueue.go: every .go file that is not a test and not SourceFile,
// rt.go (the public API) first, then the others by name.
func RootFiles() []string {
	ents, _ := fs.ReadDir(Source, ".") // an embed.FS directory always reads
	var names []string
	for _, e := range ents {
		n := e.Name()
		if !e.IsDir() && strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") && n != SourceFile {
			names = append(names, n)
		}
	}
	sort.Slice(names, func(i, j int) bool {
		if (names[i] == "rt.go") != (names[j] == "rt.go") {
			return names[i] == "rt.go"
		}
		return names[i] < names[j]
	})
	return names
}
