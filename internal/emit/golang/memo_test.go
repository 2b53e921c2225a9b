package golang

import (
	"bytes"
	"crypto/sha256"
	"sync"
	"testing"

	"github.com/babelqueue/bqgen/internal/gonames"
	"github.com/babelqueue/bqgen/internal/model"
)

// mapMemo is a FormatMemo in memory that counts its lookups and records.
type mapMemo struct {
	mu       sync.Mutex
	m        map[[sha256.Size]byte][]byte
	names    map[[sha256.Size]byte]string
	hits     int
	recorded int
}

func (m *mapMemo) Formatted(name string, key [sha256.Size]byte) []byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	b, ok := m.m[key]
	if ok && m.names[key] == name {
		m.hits++
		return b
	}
	return nil
}

func (m *mapMemo) Record(name string, key [sha256.Size]byte, content []byte) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.m[key] = bytes.Clone(content)
	m.names[key] = name
	m.recorded++
}

func emitWith(t *testing.T, reg *model.Registry, memo FormatMemo) []File {
	t.Helper()
	names, colls := gonames.Plan(reg, "events")
	if len(colls) > 0 {
		t.Fatalf("collisions: %+v", colls)
	}
	files, err := Emit(reg, names, Options{ImportPath: testImportPath("events"), Memo: memo})
	if err != nil {
		t.Fatalf("Emit: %v", err)
	}
	return files
}

// A memo changes nothing in the output: the first run records every file rendered
// through jennifer (types.go and each context's file) with the bytes it emits; a second
// run takes every one of them from the memo and formats none.
func TestFormatMemo(t *testing.T) {
	t.Parallel()
	reg := loadExamples(t)
	want := emitWith(t, reg, nil)
	memo := &mapMemo{m: map[[sha256.Size]byte][]byte{}, names: map[[sha256.Size]byte]string{}}
	first := emitWith(t, reg, memo)
	rendered := 0
	for _, f := range want {
		if !copied(f) {
			rendered++
		}
	}
	if memo.recorded != rendered || memo.hits != 0 {
		t.Fatalf("first run: %d recorded, %d hits; want %d, 0", memo.recorded, memo.hits, rendered)
	}
	for key, b := range memo.m {
		var f *File
		for i := range want {
			if want[i].Name == memo.names[key] {
				f = &want[i]
			}
		}
		if f == nil || !bytes.Equal(f.Content, b) {
			t.Fatalf("recorded %s does not match the emitted file", memo.names[key])
		}
	}
	second := emitWith(t, reg, memo)
	if memo.recorded != rendered || memo.hits != rendered {
		t.Fatalf("second run: %d recorded, %d hits; want %d, %d", memo.recorded, memo.hits, rendered, rendered)
	}
	for _, got := range [][]File{first, second} {
		if len(got) != len(want) {
			t.Fatalf("%d files; want %d", len(got), len(want))
		}
		for i := range want {
			if got[i].Name != want[i].Name || !bytes.Equal(got[i].Content, want[i].Content) {
				t.Fatalf("%s differs from the run without a memo", want[i].Name)
			}
		}
	}
	// The memo's bytes are what Emit returns: a memo is trusted, so its keys must
	// cover every input of the formatted file (MemoKey).
	for k := range memo.m {
		memo.m[k] = []byte("// from the memo\n")
	}
	for _, f := range emitWith(t, reg, memo) {
		if !copied(f) && string(f.Content) != "// from the memo\n" {
			t.Fatalf("%s was formatted again although the memo had it", f.Name)
		}
	}
}

func TestMemoKey(t *testing.T) {
	t.Parallel()
	if MemoKey([]byte("ab"), []byte("c")) == MemoKey([]byte("a"), []byte("bc")) {
		t.Fatal("MemoKey does not separate the source from the tables")
	}
	if MemoKey([]byte("a"), nil) != MemoKey([]byte("a"), []byte{}) {
		t.Fatal("nil and empty tables differ")
	}
}
