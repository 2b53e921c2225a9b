package diff

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"

	"github.com/babelqueue/bqgen/internal/model"
	"github.com/babelqueue/bqgen/registry"
)

// LoadAgainst loads the old registry named by against: a file or directory path, or
// `git:REF[:PATH]`, read from the git repository that holds newPath (the -r path) with
// `git show` (a file) or `git ls-tree` + `git show` (a directory). PATH is relative to
// the repository root and defaults to newPath's place in the repository.
//
// err is non-nil when the old registry cannot be read at all (exit 2). Problems in its
// content come back as diagnostics, as from registry.Load; for a git source their file
// names are `REF:PATH`. opts are registry.Load's: with the registry.Cache that loaded
// the new registry, the files the two have in common are not parsed again.
func LoadAgainst(ctx context.Context, against, newPath string, opts ...registry.Option) (*model.Registry, registry.Diagnostics, error) {
	spec, ok := strings.CutPrefix(against, "git:")
	if !ok {
		return registry.Load(ctx, against, opts...)
	}
	files, err := gitFiles(ctx, spec, newPath)
	if err != nil {
		return nil, nil, err
	}
	return registry.LoadFiles(ctx, files, opts...)
}

// gitFiles reads the registry files of `git:spec` (spec is REF[:PATH]).
func gitFiles(ctx context.Context, spec, newPath string) (map[string][]byte, error) {
	ref, rel, hasPath := strings.Cut(spec, ":")
	if ref == "" {
		return nil, errors.New("--against git:REF[:PATH] needs a REF (a branch, tag or commit, e.g. git:origin/main)")
	}
	if strings.HasPrefix(ref, "-") {
		return nil, fmt.Errorf("--against: %q is not a git revision", ref)
	}
	dir := newPath
	if fi, err := os.Stat(newPath); err != nil || !fi.IsDir() {
		dir = filepath.Dir(newPath)
	}
	top, err := git(ctx, dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, fmt.Errorf("--against %s: %s is not inside a git repository: %w", "git:"+spec, newPath, err)
	}
	root := strings.TrimRight(string(top), "\r\n")
	if !hasPath {
		rel, err = relToRoot(root, newPath)
		if err != nil {
			return nil, err
		}
	}
	rel = path.Clean(strings.TrimPrefix(filepath.ToSlash(rel), "/"))
	obj := ref + ":" + rel
	if rel == "." {
		obj = ref + ":"
	}
	if _, err := git(ctx, root, "rev-parse", "--verify", "--quiet", "--end-of-options", ref+"^{commit}"); err != nil {
		return nil, fmt.Errorf("--against git:%s: %q is not a revision of the repository %s (a branch, tag or commit; fetch it first in a shallow CI clone)", spec, ref, root)
	}
	typ, err := git(ctx, root, "cat-file", "-t", obj)
	if err != nil {
		return nil, fmt.Errorf("--against git:%s: %s does not exist at %s: %w", spec, rel, ref, err)
	}
	files := map[string][]byte{}
	switch strings.TrimSpace(string(typ)) {
	case "blob":
		b, err := git(ctx, root, "show", obj)
		if err != nil {
			return nil, fmt.Errorf("--against git:%s: %w", spec, err)
		}
		files[ref+":"+rel] = b
	case "tree":
		args := []string{"ls-tree", "-r", "--name-only", "-z", ref}
		if rel != "." {
			args = append(args, "--", rel)
		}
		out, err := git(ctx, root, args...)
		if err != nil {
			return nil, fmt.Errorf("--against git:%s: %w", spec, err)
		}
		for _, name := range strings.Split(string(out), "\x00") {
			if ext := strings.ToLower(path.Ext(name)); name == "" || (ext != ".yaml" && ext != ".yml") {
				continue
			}
			b, err := git(ctx, root, "show", ref+":"+name)
			if err != nil {
				return nil, fmt.Errorf("--against git:%s: %w", spec, err)
			}
			files[ref+":"+name] = b
		}
		if len(files) == 0 {
			return nil, fmt.Errorf("--against git:%s: no *.yaml or *.yml files under %s at %s", spec, rel, ref)
		}
	default:
		return nil, fmt.Errorf("--against git:%s: %s at %s is neither a file nor a directory", spec, rel, ref)
	}
	return files, nil
}

// relToRoot returns p relative to the repository root, with symlinks resolved on both
// sides (a temporary directory under a symlink, …).
func relToRoot(root, p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		abs = r
	}
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("--against: %s is outside the git repository %s; pass git:REF:PATH", p, root)
	}
	return rel, nil
}

// git runs git in dir and returns its standard output; the error carries git's
// standard error.
func git(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "LC_ALL=C")
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("git %s: %s", strings.Join(args, " "), msg)
	}
	return stdout.Bytes(), nil
}
