package registry

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// Input.Key changes with any file's name or bytes, and with a file added; Read then
// LoadInput is Load.
func TestInputKey(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	key := func() [32]byte {
		t.Helper()
		in, err := Read(context.Background(), dir)
		if err != nil {
			t.Fatal(err)
		}
		return in.Key()
	}
	write("a.yaml", "version: 1\n")
	k1 := key()
	if key() != k1 {
		t.Fatal("the same files, another key")
	}
	write("a.yaml", "version: 2\n")
	k2 := key()
	if k2 == k1 {
		t.Fatal("a changed byte kept the key")
	}
	os.Rename(filepath.Join(dir, "a.yaml"), filepath.Join(dir, "b.yaml"))
	if k3 := key(); k3 == k2 {
		t.Fatal("a renamed file kept the key")
	}
	write("c.yml", "")
	if k4 := key(); k4 == k2 {
		t.Fatal("an added file kept the key")
	}
	in, err := Read(context.Background(), filepath.Join(dir, "b.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	_, d1, _ := LoadInput(context.Background(), in)
	_, d2, _ := Load(context.Background(), filepath.Join(dir, "b.yaml"))
	if len(d1) == 0 || fmt.Sprint(d1) != fmt.Sprint(d2) {
		t.Fatalf("LoadInput(Read) found %v; Load found %v", d1, d2)
	}
}
