package outdir

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/babelqueue/bqgen/internal/cputime"
)

// BenchmarkSync writes 2,000 files of 2 KB over 20 directories (the shape of a
// generated tree, at a tenth of the synthetic 10,000-URN registry's jsonschema
// output): into a directory that does not exist (the fast path: one staged tree), into
// an existing empty one (a temporary file and a rename per file), and again with
// every file unchanged (read and compared, nothing written). File creation on a
// shared VM's disk is noisy: compare the cases within one run, and cpu-ns/op (the
// process's user + system time per Sync, the kernel's work on the files included)
// more than ns/op. TMPDIR chooses the filesystem (TMPDIR=/dev/shm: tmpfs).
//
//	go test ./internal/outdir -run '^$' -bench Sync -benchtime 5x
func BenchmarkSync(b *testing.B) {
	body := strings.Repeat("x", 2<<10)
	var files []File
	for i := range 2000 {
		files = append(files, gen(fmt.Sprintf("d%02d/f%04d.go", i%20, i), body))
	}
	b.Run("new-directory", func(b *testing.B) {
		defer cputime.PerOp(b)()
		for b.Loop() {
			dir := filepath.Join(b.TempDir(), "out")
			if _, err := Sync(context.Background(), dir, files, opts()); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("existing-empty", func(b *testing.B) {
		defer cputime.PerOp(b)()
		for b.Loop() {
			dir := filepath.Join(b.TempDir(), "out")
			if err := os.Mkdir(dir, 0o755); err != nil {
				b.Fatal(err)
			}
			if _, err := Sync(context.Background(), dir, files, opts()); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("unchanged", func(b *testing.B) {
		dir := filepath.Join(b.TempDir(), "out")
		if _, err := Sync(context.Background(), dir, files, opts()); err != nil {
			b.Fatal(err)
		}
		defer cputime.PerOp(b)()
		for b.Loop() {
			if plan, err := Sync(context.Background(), dir, files, opts()); err != nil || plan.Changed() {
				b.Fatal(plan, err)
			}
		}
	})
}
