package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// outputInRegistry refuses (ExitError, ok false, having printed why) an output file out
// of the command cmd ("asyncapi", "docs") that would become part of the registry
// regPath: out ends in .yaml or .yml (any case) and lies inside regPath, a directory,
// at any depth (registry.Load reads every *.yaml/*.yml file below a directory, so the
// next `bqgen check -r regPath` would read the output as registry and reject it). The
// paths are compared absolute and cleaned, with symbolic links resolved in the part of
// each that exists. The hint suggests out with the extension otherExt instead, and
// otherWhy says what the command writes to such a name. out "-" and a registry that is
// one file are always fine.
func outputInRegistry(e env, cmd, regPath, out, otherExt, otherWhy string) (int, bool) {
	ext := filepath.Ext(out)
	if out == "-" || !(strings.EqualFold(ext, ".yaml") || strings.EqualFold(ext, ".yml")) {
		return ExitOK, true
	}
	if fi, err := os.Stat(regPath); err != nil || !fi.IsDir() {
		return ExitOK, true // a missing registry is load's error to report
	}
	reg, err1 := resolvedPath(regPath)
	o, err2 := resolvedPath(out)
	if err1 != nil || err2 != nil {
		return ExitOK, true
	}
	rel, err := filepath.Rel(reg, o)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return ExitOK, true
	}
	fmt.Fprintf(e.stderr, "bqgen %s: -o %s lies inside the registry directory %s (-r), which reads every *.yaml/*.yml file below it as registry: the next bqgen check -r %s would reject it\n"+
		"  hint: write it outside %s, or give it another extension: %s (-o %s)\n",
		cmd, out, regPath, regPath, regPath, otherWhy, strings.TrimSuffix(out, ext)+otherExt)
	return ExitError, false
}

// resolvedPath returns p absolute and cleaned, with symbolic links resolved in its
// longest leading part that exists (the rest, not created yet, is joined as given).
func resolvedPath(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	rest := ""
	for cur := abs; ; {
		if r, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(r, rest), nil
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return abs, nil
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}
