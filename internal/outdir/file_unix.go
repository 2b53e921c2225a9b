//go:build unix

package outdir

import (
	"io"
	"io/fs"
	"syscall"
)

// newFile is a file Sync creates and writes (a file of the fast path's staged tree, a
// temporary file of the general path): a bare descriptor, written with write(2). An
// *os.File would cost a fcntl (os.NewFile) or an epoll_ctl and three fcntl (os.OpenFile)
// and a cleanup registered with the collector per file; the fast path creates 44,001
// files for jsonschema at 10,000 URNs.
type newFile struct {
	fd   int
	name string
}

// createExcl creates the file name, which must not exist, for writing with mode perm
// less the umask (open(2) with O_CREAT|O_EXCL, so a symbolic link at name is an error).
func createExcl(name string, perm uint32) (newFile, error) {
	for {
		fd, err := syscall.Open(name, syscall.O_WRONLY|syscall.O_CREAT|syscall.O_EXCL|syscall.O_CLOEXEC, perm)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return newFile{fd: -1}, &fs.PathError{Op: "open", Path: name, Err: err}
		}
		return newFile{fd, name}, nil
	}
}

// Name is the path the file was created at.
func (f newFile) Name() string { return f.name }

// write writes all of b (write(2) until it is taken, or an error).
func (f newFile) write(b []byte) (int, error) {
	n := 0
	for n < len(b) {
		k, err := syscall.Write(f.fd, b[n:])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return n, &fs.PathError{Op: "write", Path: f.name, Err: err}
		}
		if k <= 0 {
			return n, &fs.PathError{Op: "write", Path: f.name, Err: io.ErrShortWrite}
		}
		n += k
	}
	return n, nil
}

// perm returns the permission bits the file has (fstat(2)).
func (f newFile) perm() (fs.FileMode, error) {
	var st syscall.Stat_t
	for {
		err := syscall.Fstat(f.fd, &st)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return 0, &fs.PathError{Op: "stat", Path: f.name, Err: err}
		}
		return fs.FileMode(st.Mode & 0o777), nil
	}
}

// chmod sets the file's mode (fchmod(2)).
func (f newFile) chmod(mode fs.FileMode) error {
	for {
		err := syscall.Fchmod(f.fd, uint32(mode.Perm()))
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return &fs.PathError{Op: "chmod", Path: f.name, Err: err}
		}
		return nil
	}
}

// close closes the descriptor (close(2), not retried: on Linux the descriptor is
// released even when it reports EINTR).
func (f newFile) close() error {
	if err := syscall.Close(f.fd); err != nil {
		return &fs.PathError{Op: "close", Path: f.name, Err: err}
	}
	return nil
}

// readPrefixInto reads the first limit bytes of the file path (all of it when
// shorter) into buf's memory, which it grows as needed, with open(2) and read(2):
// size is the file's size as Lstat saw it, so that a file read whole in one short
// read costs no read more to see its end. The file is opened with O_NOFOLLOW: a
// symbolic link put at path since the Lstat is refused (ELOOP).
func readPrefixInto(path string, limit int, size int64, buf []byte) ([]byte, error) {
	var fd int
	for {
		var err error
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NOFOLLOW, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: path, Err: err}
		}
		break
	}
	defer syscall.Close(fd)
	want := limit
	if size >= 0 && size < int64(limit) {
		want = int(size) + 1 // one byte more shows that it grew
	}
	b := buf[:0]
	if cap(b) < want {
		b = make([]byte, 0, want)
	}
	for len(b) < limit {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		end := min(cap(b), limit)
		k, err := syscall.Read(fd, b[len(b):end])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: path, Err: err}
		}
		if k <= 0 {
			break
		}
		short := len(b)+k < end
		b = b[:len(b)+k]
		if short && int64(len(b)) == size {
			break // a regular file's short read is its end, at the size Lstat saw
		}
	}
	return b, nil
}
