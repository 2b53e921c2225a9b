//go:build !unix

package outdir

import (
	"io"
	"io/fs"
	"os"
)

// newFile is a file Sync creates and writes (a file of the fast path's staged tree, a
// temporary file of the general path).
type newFile struct{ f *os.File }

// createExcl creates the file name, which must not exist, for writing with mode perm.
func createExcl(name string, perm uint32) (newFile, error) {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fs.FileMode(perm))
	return newFile{f}, err
}

func (f newFile) Name() string                 { return f.f.Name() }
func (f newFile) write(b []byte) (int, error)  { return f.f.Write(b) }
func (f newFile) chmod(mode fs.FileMode) error { return f.f.Chmod(mode) }
func (f newFile) close() error                 { return f.f.Close() }

// perm returns the permission bits the file has.
func (f newFile) perm() (fs.FileMode, error) {
	info, err := f.f.Stat()
	if err != nil {
		return 0, err
	}
	return info.Mode().Perm(), nil
}

// readPrefixInto reads the first limit bytes of the file path (all of it when
// shorter); buf and size are hints of the unix version, unused here.
func readPrefixInto(path string, limit int, size int64, buf []byte) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, int64(limit)))
}
