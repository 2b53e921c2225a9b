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
	"slices"
	"strconv"
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
// line, or a resulting path that module.CheckImportPath rejects or with an element
// below the module's root that CheckElem rejects (vendor, testdata, a name starting
// with "." or "_", a Windows device name).
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
			// The directories below the module's root: the module path itself is
			// not a directory of it (a vendor element there is refused all the same).
			var below []string
			if rel != "." {
				below = strings.Split(filepath.ToSlash(rel), "/")
			}
			if slices.Contains(strings.Split(mp, "/"), "vendor") {
				return "", "", fmt.Errorf("the output directory's import path %q: %w; choose another -o", p, errVendor)
			}
			if err := checkElems(p, below); err != nil {
				return "", "", fmt.Errorf("the output directory's %w; choose another -o", err)
			}
			if err := module.CheckImportPath(p); err != nil {
				return "", "", fmt.Errorf("the output directory's import path %q is not valid (%v); choose another -o", p, err)
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
// given with --import-path: module.CheckImportPath, no trailing slash, and every
// element after the first passes CheckElem (the first names the host or the module,
// not a directory of the tree).
func CheckImportPath(p string) error {
	if strings.HasSuffix(p, "/") {
		return fmt.Errorf("import path %q ends in a slash", p)
	}
	elems := strings.Split(p, "/")
	if elems[0] == "vendor" {
		return fmt.Errorf("import path %q: %w", p, errVendor)
	}
	if err := checkElems(p, elems[1:]); err != nil {
		return err
	}
	return module.CheckImportPath(p)
}

// checkElems checks each of elems, elements of the import path p, with CheckElem.
func checkElems(p string, elems []string) error {
	for _, e := range elems {
		if err := CheckElem(e); err != nil {
			return fmt.Errorf("import path %q: element %q: %w", p, e, err)
		}
	}
	return nil
}

var errVendor = errors.New("the go tool reads a package below a vendor directory as vendored: the generated packages could not import each other")

// CheckElem reports why elem cannot be an element of a generated import path, or
// nil. It applies the go tool's own rules, module.CheckImportPath (golang.org/x/mod,
// which cmd/go applies on every system, not only on Windows): no Windows device name
// (aux, con, nul, prn, com1–com9, lpt1–lpt9, in any case, with or without an
// extension), no shortened Windows name (abcdef~1), only letters, digits and -._~,
// no trailing dot. And what that function does not cover: `vendor` (the packages
// below it are read as vendored and cannot import each other by their paths),
// `testdata` and names starting with "." or "_" (the go tool's `./...` skips them,
// so go build, go vet and go list of `./...` would leave the packages out).
func CheckElem(elem string) error {
	if err := module.CheckImportPath(elem); err != nil {
		msg := strings.TrimPrefix(err.Error(), "malformed import path "+strconv.Quote(elem)+": ")
		if strings.Contains(msg, "Windows") {
			msg += ", and the go tool refuses it on every system"
		}
		return errors.New(msg)
	}
	switch {
	case elem == "vendor":
		return errVendor
	case elem == "testdata":
		return errors.New("`./...` skips a directory named testdata: go build, go vet and go list of ./... would leave the packages out")
	case strings.HasPrefix(elem, ".") || strings.HasPrefix(elem, "_"):
		return errors.New("`./...` skips a directory whose name starts with . or _: go build, go vet and go list of ./... would leave the packages out")
	}
	return nil
}
