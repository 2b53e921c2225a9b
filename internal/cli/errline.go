package cli

import "github.com/babelqueue/bqgen/internal/termtext"

// errLine formats err for one line of text output. Errors quote file names as they
// came (registry files found in a directory, inputs, os.PathError), so every character
// that would break the line or drive the terminal is escaped (termtext.Line; issue 16,
// item 9).
func errLine(err error) string { return termtext.Line(err.Error()) }
