package cli

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// brokenWriter takes n bytes, then fails every write, as a full disk or a closed
// pipe does.
type brokenWriter struct{ n int }

var errNoSpace = errors.New("no space left on device")

func (b *brokenWriter) Write(p []byte) (int, error) {
	if len(p) <= b.n {
		b.n -= len(p)
		return len(p), nil
	}
	n := b.n
	b.n = 0
	return n, errNoSpace
}

// A run whose standard output did not take what it printed exits 2 and says so on
// standard error, whatever the command found: before, `bqgen check > /dev/full`
// exited 0 (clean registry) or 1 (findings) with its report lost.
func TestStdoutFailureIsExit2(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	clean, bad := filepath.Join(dir, "clean.yaml"), filepath.Join(dir, "bad.yaml")
	writeFile(t, bad, "version: 1\nbogus: 1\n")
	writeFile(t, clean, "version: 1\nmessages:\n  urn:babel:orders:created:\n    summary: An order was placed.\n    queue: orders\n    data:\n      type: object\n      properties:\n        id: {type: integer}\n")
	for _, tc := range []struct {
		name string
		args []string
		keep int
	}{
		{"check with findings, nothing taken", []string{"check", "-r", bad}, 0},
		{"check with findings, part taken", []string{"check", "-r", bad}, 10},
		{"check json of a clean registry", []string{"check", "-r", clean, "--format", "json"}, 1},
		{"version", []string{"version"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stderr bytes.Buffer
			code := Run(context.Background(), tc.args, strings.NewReader(""), &brokenWriter{n: tc.keep}, &stderr)
			if code != ExitError {
				t.Errorf("exit %d; want %d (stderr %q)", code, ExitError, stderr.String())
			}
			want := "bqgen " + tc.args[0] + ": writing standard output: no space left on device\n"
			if !strings.HasSuffix(stderr.String(), want) {
				t.Errorf("stderr %q; want it to end with %q", stderr.String(), want)
			}
		})
	}
	// A writer that takes everything changes nothing.
	var stdout, stderr bytes.Buffer
	if code := Run(context.Background(), []string{"check", "-r", clean}, strings.NewReader(""), &stdout, &stderr); code != ExitOK {
		t.Fatalf("exit %d with a working stdout; stderr %q", code, stderr.String())
	}
}
