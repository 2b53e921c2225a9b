package importer

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/babelqueue/bqgen/registry"
)

// MaxFileSize is the largest manifest or schema file read, in bytes: the registry
// loader's cap (registry.MaxFileSize).
const MaxFileSize = registry.MaxFileSize

// Options controls BQSchema.
type Options struct {
	// SchemaRoot is the directory every schema file must lie in, symbolic links
	// resolved: the manifest's directory when "". A schema path that leaves it (../,
	// an absolute path elsewhere, a link pointing out) is not read.
	SchemaRoot string
}

// errNotRegular, errTooLarge and errOutside classify a file the importer refuses to read.
var (
	errNotRegular = errors.New("not a regular file")
	errTooLarge   = fmt.Errorf("over the size limit of %d bytes (%d MiB)", MaxFileSize, MaxFileSize>>20)
	errOutside    = errors.New("outside the schema root")
)

// readRegular reads an open file that must be a regular file of at most MaxFileSize
// bytes. The file was opened without blocking (openFlags), so a FIFO or a device is
// refused before any read, and a file that grows is cut at one byte over the cap.
func readRegular(f *os.File) ([]byte, error) {
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%w (%s)", errNotRegular, info.Mode().Type())
	}
	if info.Size() > MaxFileSize {
		return nil, fmt.Errorf("%d bytes: %w", info.Size(), errTooLarge)
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(b) > MaxFileSize {
		return nil, errTooLarge
	}
	return b, nil
}

// readManifest reads the manifest the user named: a regular file within the size cap.
func readManifest(path string) ([]byte, error) {
	f, err := os.OpenFile(path, openFlags, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := readRegular(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return b, nil
}

// schemaFiles reads the schema files of one import: only regular files within the size
// cap, only inside the schema root (no .., no absolute path elsewhere, no symbolic link
// out of it; the open goes through os.Root), each file once.
type schemaFiles struct {
	root    *os.Root
	rootDir string // as given, for messages
	abs     string // absolute, for absolute schema paths
	cache   map[string]cached
}

type cached struct {
	data []byte
	err  error
}

func openSchemaFiles(dir string) (*schemaFiles, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		root.Close()
		return nil, err
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	return &schemaFiles{root: root, rootDir: dir, abs: abs, cache: map[string]cached{}}, nil
}

func (s *schemaFiles) close() { s.root.Close() }

// read reads the schema file at path (as the manifest's directory joined with the
// manifest's entry, or absolute).
func (s *schemaFiles) read(path string) ([]byte, error) {
	if c, ok := s.cache[path]; ok {
		return c.data, c.err
	}
	data, err := s.readOnce(path)
	s.cache[path] = cached{data, err}
	return data, err
}

func (s *schemaFiles) readOnce(path string) ([]byte, error) {
	rel, err := s.relative(path)
	if err != nil {
		return nil, err
	}
	f, err := s.root.OpenFile(rel, openFlags, 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		var pe *fs.PathError
		if errors.As(err, &pe) && strings.Contains(pe.Err.Error(), "escapes") {
			return nil, errOutside // a symbolic link that points out of the root
		}
		return nil, err
	}
	defer f.Close()
	return readRegular(f)
}

// relative returns the file path leads to (symbolic links resolved) relative to the
// schema root, or errOutside. (os.Root alone refuses every link with an absolute target,
// also one pointing inside; it still guards the open against a link swapped in since.)
func (s *schemaFiles) relative(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(s.abs, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", errOutside
	}
	return rel, nil
}
