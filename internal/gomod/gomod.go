// Package gomod finds the Go import path of an output directory, so that the
// generated packages can import each other (docs/generated-code.md, "Import
// paths"): the module path of the nearest go.mod at or above the directory, joined
// with the directory's path inside that module.
package gomod

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
)

// ErrNoModule is returned when no go.mod is found at or above the directory.
var ErrNoModule = errors.New("no go.mod at or above the output directory")

// maxGoMod is the largest go.mod ImportPath reads, in bytes.
const maxGoMod = 1 << 20

// ImportPath returns the import path of the package in directory dir (which need
// not exist yet) and the directory of the go.mod it came from. dir is made
// absolute and its deepest existing ancestor has its symbolic links resolved, so
// that `-o .` and a symlinked checkout give the path the go tool uses. Errors:
// ErrNoModule (wrapped, naming dir), a go.mod that cannot be read or has no module
// line, or a resulting path that module.CheckImportPath rejects.
func ImportPath(dir string) (importPath, modDir string, err error) {
	abs, err := resolved(dir)
	if err != nil {
		return "", "", err
	}
	for d := abs; ; d = filepath.Dir(d) {
		gm := filepath.Join(d, "go.mod")
		info, err := os.Stat(gm)
		switch {
		case err == nil && info.Mode().IsRegular():
			if info.Size() > maxGoMod {
				return "", "", fmt.Errorf("%s: larger than %d bytes", gm, maxGoMod)
			}
			b, err := os.ReadFile(gm)
			if err != nil {
				return "", "", err
			}
			mp := modfile.ModulePath(b)
			if mp == "" {
				return "", "", fmt.Errorf("%s: no module line", gm)
			}
			rel, err := filepath.Rel(d, abs)
			if err != nil {
				return "", "", err
			}
			p := mp
			if rel != "." {
				p = path.Join(mp, filepath.ToSlash(rel))
			}
			if err := module.CheckImportPath(p); err != nil {
				return "", "", fmt.Errorf("the output directory's import path %q is not valid (%v); pass --import-path", p, err)
			}
			return p, d, nil
		case err != nil && !errors.Is(err, fs.ErrNotExist):
			return "", "", err
		}
		if filepath.Dir(d) == d {
			return "", "", fmt.Errorf("%s: %w", dir, ErrNoModule)
		}
	}
}

// resolved returns dir absolute, with the symbolic links of its deepest existing
// ancestor resolved.
func resolved(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	var rest []string
	for d := abs; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil {
			real, err := filepath.EvalSymlinks(d)
			if err != nil {
				return "", err
			}
			for i := len(rest) - 1; i >= 0; i-- {
				real = filepath.Join(real, rest[i])
			}
			return real, nil
		}
		if filepath.Dir(d) == d {
			return abs, nil
		}
		rest = append(rest, filepath.Base(d))
	}
}

// CheckImportPath reports whether p can be the import path of the root package
// given with --import-path (module.CheckImportPath, and no trailing slash).
func CheckImportPath(p string) error {
	if strings.HasSuffix(p, "/") {
		return fmt.Errorf("import path %q ends in a slash", p)
	}
	return module.CheckImportPath(p)
}
