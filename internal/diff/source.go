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

// Base is the old registry LoadAgainst read.
type Base struct {
	// Registry is the old registry; with Diags holding errors it is nil. When the base
	// has no registry at -r's place (Note), it is an empty registry.
	Registry *model.Registry
	// Diags are the diagnostics of the old registry, as from registry.Load.
	Diags registry.Diagnostics
	// Note is set when `git:REF` has no file or directory at -r's place: the pull
	// request that adds the registry. Every URN of the new registry is then added.
	Note string
}

// LoadAgainst loads the old registry named by against: a file or directory path, or
// `git:REF[:PATH]`, read from the git repository that holds newPath (the -r path) with
// `git show` (a file) or `git ls-tree` + `git show` (a directory). PATH is relative to
// the repository root and defaults to newPath's place in the repository; when REF has
// nothing there, the base is an empty registry with a Note (a registry's first pull
// request).
//
// err is non-nil when the old registry cannot be read at all (exit 2): a path that does
// not exist (with "did you mean git:X?" when X is a revision), a revision that does not
// exist (saying so when the clone is shallow), an explicit PATH missing at REF.
// Problems in its content come back as diagnostics, as from registry.Load; for a git
// source their file names are `REF:PATH`. opts are registry.Load's: with the
// registry.Cache that loaded the new registry, the files the two have in common are
// not parsed again.
func LoadAgainst(ctx context.Context, against, newPath string, opts ...registry.Option) (*Base, error) {
	spec, ok := strings.CutPrefix(against, "git:")
	if !ok {
		if _, err := os.Stat(against); err != nil && errors.Is(err, os.ErrNotExist) {
			return nil, missingPath(ctx, against, newPath)
		}
		reg, diags, err := registry.Load(ctx, against, opts...)
		if err != nil {
			return nil, err
		}
		return &Base{Registry: reg, Diags: diags}, nil
	}
	files, note, err := gitFiles(ctx, spec, newPath)
	if err != nil {
		return nil, err
	}
	if note != "" {
		return &Base{Registry: &model.Registry{Version: 1}, Note: note}, nil
	}
	reg, diags, err := registry.LoadFiles(ctx, files, opts...)
	if err != nil {
		return nil, err
	}
	return &Base{Registry: reg, Diags: diags}, nil
}

// missingPath is the error of an --against PATH that does not exist: it quotes the
// path and, when the path (or its part before a colon, `main:registry.yaml`) names a git
// revision, suggests the git: form; in a shallow clone, where the revision may not have
// been fetched, a name git accepts as a branch gets the same suggestion with how to
// fetch it.
func missingPath(ctx context.Context, against, newPath string) error {
	msg := fmt.Sprintf("--against %q: no such file or directory (--against takes a registry PATH or git:REF[:PATH])", against)
	ref, _, _ := strings.Cut(against, ":")
	switch {
	case isRevision(ctx, ref, newPath):
		return fmt.Errorf("%s; %s is a git revision: did you mean git:%s?", msg, ref, against)
	case maybeUnfetched(ctx, ref, newPath):
		return fmt.Errorf("%s; if %s is a git revision, this shallow clone does not have it: did you mean git:%s? "+
			"(then fetch it: actions/checkout needs `fetch-depth: 0`; elsewhere `git fetch origin %s`)", msg, ref, against, ref)
	}
	return errors.New(msg)
}

// maybeUnfetched reports whether the repository that holds newPath is a shallow clone
// and name is a valid branch name, so name may be a revision not fetched.
func maybeUnfetched(ctx context.Context, name, newPath string) bool {
	if name == "" || strings.HasPrefix(name, "-") {
		return false
	}
	out, err := git(ctx, repoDir(newPath), "rev-parse", "--is-shallow-repository")
	if err != nil || strings.TrimSpace(string(out)) != "true" {
		return false
	}
	_, err = git(ctx, repoDir(newPath), "check-ref-format", "--allow-onelevel", "refs/heads/"+name)
	return err == nil
}

// isRevision reports whether name is a commit of the git repository that holds newPath.
func isRevision(ctx context.Context, name, newPath string) bool {
	if name == "" || strings.HasPrefix(name, "-") {
		return false
	}
	_, err := git(ctx, repoDir(newPath), "rev-parse", "--verify", "--quiet", "--end-of-options", name+"^{commit}")
	return err == nil
}

// repoDir is the directory git runs in for newPath: newPath itself when it is a
// directory, else the directory that holds it.
func repoDir(newPath string) string {
	if fi, err := os.Stat(newPath); err == nil && fi.IsDir() {
		return newPath
	}
	return filepath.Dir(newPath)
}

// gitFiles reads the registry files of `git:spec` (spec is REF[:PATH]). When REF
// exists but has nothing at -r's place (no explicit PATH), it returns no files and the
// note that says so.
func gitFiles(ctx context.Context, spec, newPath string) (files map[string][]byte, note string, err error) {
	ref, rel, hasPath := strings.Cut(spec, ":")
	if ref == "" {
		return nil, "", errors.New("--against git:REF[:PATH] needs a REF (a branch, tag or commit, e.g. git:origin/main)")
	}
	if hasPath && rel == "" {
		return nil, "", fmt.Errorf("--against %q: the PATH after %q is empty: leave out the colon to compare -r's own place (git:%s), "+
			"or name the registry (git:%s:registry.yaml; git:%s:. for the repository root)", "git:"+spec, ref+":", ref, ref, ref)
	}
	if strings.HasPrefix(ref, "-") {
		return nil, "", fmt.Errorf("--against: %q is not a git revision", ref)
	}
	top, err := git(ctx, repoDir(newPath), "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, "", fmt.Errorf("--against %s: %s is not inside a git repository: %w", "git:"+spec, newPath, err)
	}
	root := strings.TrimRight(string(top), "\r\n")
	if !hasPath {
		rel, err = relToRoot(root, newPath)
		if err != nil {
			return nil, "", err
		}
	}
	rel = path.Clean(strings.TrimPrefix(filepath.ToSlash(rel), "/"))
	obj := ref + ":" + rel
	if rel == "." {
		obj = ref + ":"
	}
	if _, err := git(ctx, root, "rev-parse", "--verify", "--quiet", "--end-of-options", ref+"^{commit}"); err != nil {
		if out, err := git(ctx, root, "rev-parse", "--is-shallow-repository"); err == nil && strings.TrimSpace(string(out)) == "true" {
			return nil, "", fmt.Errorf("--against git:%s: %q is not a revision of the repository %s, which is a shallow clone without it: "+
				"fetch the base (actions/checkout: set `fetch-depth: 0`; elsewhere `git fetch origin <branch>`)", spec, ref, root)
		}
		return nil, "", fmt.Errorf("--against git:%s: %q is not a revision of the repository %s (a branch, tag or commit; in CI fetch it first: actions/checkout needs `fetch-depth: 0`)", spec, ref, root)
	}
	typ, err := git(ctx, root, "cat-file", "-t", obj)
	if err != nil {
		if !hasPath {
			return nil, fmt.Sprintf("the base (git:%s) has no registry at %s: every URN is reported as added", ref, rel), nil
		}
		return nil, "", fmt.Errorf("--against git:%s: %s does not exist at %s (to compare -r's own place, leave out :PATH): %w", spec, rel, ref, err)
	}
	files = map[string][]byte{}
	switch strings.TrimSpace(string(typ)) {
	case "blob":
		b, err := git(ctx, root, "show", obj)
		if err != nil {
			return nil, "", fmt.Errorf("--against git:%s: %w", spec, err)
		}
		files[ref+":"+rel] = b
	case "tree":
		args := []string{"ls-tree", "-r", "--name-only", "-z", ref}
		if rel != "." {
			args = append(args, "--", rel)
		}
		out, err := git(ctx, root, args...)
		if err != nil {
			return nil, "", fmt.Errorf("--against git:%s: %w", spec, err)
		}
		for _, name := range strings.Split(string(out), "\x00") {
			if ext := strings.ToLower(path.Ext(name)); name == "" || (ext != ".yaml" && ext != ".yml") {
				continue
			}
			b, err := git(ctx, root, "show", ref+":"+name)
			if err != nil {
				return nil, "", fmt.Errorf("--against git:%s: %w", spec, err)
			}
			files[ref+":"+name] = b
		}
		if len(files) == 0 {
			if !hasPath { // a directory that holds no registry yet: like no directory
				return nil, fmt.Sprintf("the base (git:%s) has no registry at %s (no *.yaml or *.yml files there): every URN is reported as added", ref, rel), nil
			}
			return nil, "", fmt.Errorf("--against git:%s: no *.yaml or *.yml files under %s at %s", spec, rel, ref)
		}
	default:
		return nil, "", fmt.Errorf("--against git:%s: %s at %s is neither a file nor a directory", spec, rel, ref)
	}
	return files, "", nil
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
