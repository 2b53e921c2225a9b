package jsonschema

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"testing"

	"github.com/babelqueue/bqgen/internal/synth"
	"github.com/babelqueue/bqgen/registry"
)

// TestSyntheticOutputPinned holds Emit's output for the synthetic 1,000-URN registry
// (4,401 files, 44 MB; 3,301 in draft 7) to the SHA-256 of what the emitter wrote before its text was
// written from shared, pre-written pieces (defs.go, ordjson.Raw) and pooled buffers
// (commit 4b066b2, computed by this test's hash on that tree): in the default draft,
// and in draft 7 with a base URL. A change of the schemas' text that is meant changes
// these hashes: check the new output (the goldens show what changed on the example
// registry), then put the hashes the failure prints here.
func TestSyntheticOutputPinned(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 7,702 schema files")
	}
	reg, diags, err := registry.LoadFiles(context.Background(), synth.Files(synth.Options{Messages: 1000}))
	if err != nil || diags.HasErrors() {
		t.Fatal(err, diags)
	}
	for _, tc := range []struct {
		opts  Options
		files int
		want  string
	}{
		{Options{}, 4401, "005927c6c9e372603766ec3ffa9336c919f38cc099d9637f2c08642b5a5e7932"},
		// Draft 7 writes no draft-07 copy.
		{Options{Draft: Draft7, BaseID: "https://schemas.example.com/events/"}, 3301, "cf16b83d06caed518591768e6e0533ec6df5f59d2d51f77e7eceeefbc6cdc479"},
	} {
		files, err := Emit(reg, tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		h := sha256.New()
		for _, f := range files {
			h.Write([]byte(f.Name))
			h.Write(binary.BigEndian.AppendUint64([]byte{0}, uint64(len(f.Content))))
			h.Write(f.Content)
		}
		if got := hex.EncodeToString(h.Sum(nil)); got != tc.want || len(files) != tc.files {
			t.Errorf("%+v: %d files, SHA-256 %s, want %d files, %s", tc.opts, len(files), got, tc.files, tc.want)
		}
	}
}
