//go:build !unix

package importer

import "os"

// openFlags opens a file for reading (no FIFOs to block on here).
const openFlags = os.O_RDONLY
