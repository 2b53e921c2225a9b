//go:build unix

package importer

import (
	"os"
	"syscall"
)

// openFlags opens a file for reading without blocking: a FIFO opens at once (and is
// then refused as not regular) instead of waiting for a writer.
const openFlags = os.O_RDONLY | syscall.O_NONBLOCK
