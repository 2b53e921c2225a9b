package importer

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The importer reads files as the registry loader does (issue 16, item 6): regular
// files within the size cap, and schema files only inside the schema root.

const secret = "TOP-SECRET-TEXT"

// secretSchema is a valid schema whose description must never reach the output unless
// the file is allowed.
const secretSchema = `{"type": "object", "description": "` + secret + `", "properties": {"a": {"type": "string"}}}`

// importWith writes a manifest in dir whose one entry points at schema, and imports it.
func importWith(t *testing.T, dir, schema string, opts Options) *Result {
	t.Helper()
	manifest := filepath.Join(dir, "registry.json")
	write(t, manifest, `{"schemas": [{"urn": "urn:babel:t:happened", "schema": `+quoteJSON(schema)+`, "owner": "t"}]}`)
	done := make(chan *Result, 1)
	go func() {
		res, err := BQSchema(manifest, opts)
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()
	select {
	case res := <-done:
		if res == nil {
			t.FailNow()
		}
		return res
	case <-time.After(20 * time.Second):
		t.Fatalf("import of %s hangs", schema)
	}
	return nil
}

func TestSchemaFilesRead(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "manifest")
	other := filepath.Join(base, "other")
	for _, d := range []string{dir, filepath.Join(dir, "schemas"), other} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(t, filepath.Join(other, "s.json"), secretSchema)
	write(t, filepath.Join(dir, "schemas", "s.json"), secretSchema)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Symlink(filepath.Join(other, "s.json"), filepath.Join(dir, "out-link.json")))
	must(os.Symlink(filepath.Join(dir, "schemas", "s.json"), filepath.Join(dir, "in-link.json")))
	must(os.Symlink("/dev/zero", filepath.Join(dir, "zero.json")))
	must(syscall.Mkfifo(filepath.Join(dir, "fifo.json"), 0o644))
	big, err := os.Create(filepath.Join(dir, "big.json"))
	must(err)
	must(big.Truncate(MaxFileSize + 1))
	big.Close()

	for _, c := range []struct {
		name, schema string
		opts         Options
		want         string // "" when converted; else the start of the error after the URN
	}{
		{"inside", "schemas/s.json", Options{}, ""},
		{"inside, absolute", filepath.Join(dir, "schemas", "s.json"), Options{}, ""},
		{"link inside", "in-link.json", Options{}, ""},
		{"parent", "../other/s.json", Options{}, "schema file " + filepath.Join(dir, "..", "other", "s.json") + " is outside " + dir},
		{"deep parent", "schemas/../../../../../../etc/passwd", Options{}, "schema file /etc/passwd is outside"},
		{"absolute elsewhere", filepath.Join(other, "s.json"), Options{}, "schema file " + filepath.Join(other, "s.json") + " is outside"},
		{"link out", "out-link.json", Options{}, "schema file " + filepath.Join(dir, "out-link.json") + " is outside"},
		{"link to /dev/zero", "zero.json", Options{}, "schema file " + filepath.Join(dir, "zero.json") + " is outside"},
		{"/dev/zero", "/dev/zero", Options{}, "schema file /dev/zero is outside"},
		{"/dev/zero under --schema-root /dev", "/dev/zero", Options{SchemaRoot: "/dev"}, "schema file /dev/zero: not a regular file (D"},
		{"FIFO", "fifo.json", Options{}, "schema file " + filepath.Join(dir, "fifo.json") + ": not a regular file (p"},
		{"over the size cap", "big.json", Options{}, "schema file " + filepath.Join(dir, "big.json") + ": " + strconv.Itoa(MaxFileSize+1) + " bytes: over the size limit"},
		{"parent under --schema-root", "../other/s.json", Options{SchemaRoot: base}, ""},
		{"link out under --schema-root", "out-link.json", Options{SchemaRoot: base}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := importWith(t, dir, c.schema, c.opts)
			var errs []string
			for _, is := range res.Issues {
				if is.Severity == SeverityError {
					errs = append(errs, strings.TrimPrefix(is.Message, "urn:babel:t:happened: "))
				}
			}
			if c.want == "" {
				if len(errs) != 0 || !strings.Contains(string(res.YAML), secret) {
					t.Errorf("not converted: %q\n%s", errs, res.YAML)
				}
				return
			}
			if len(errs) != 1 || !strings.HasPrefix(errs[0], c.want) {
				t.Errorf("errors %q, want one starting %q", errs, c.want)
			}
			if strings.Contains(string(res.YAML), secret) {
				t.Errorf("text of a refused file reached the output:\n%s", res.YAML)
			}
		})
	}
}

func TestManifestRead(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.json")
	f, _ := os.Create(big)
	f.Truncate(MaxFileSize + 1)
	f.Close()
	for path, want := range map[string]string{
		fifo:        ": not a regular file (p",
		"/dev/zero": ": not a regular file (D",
		big:         ": " + strconv.Itoa(MaxFileSize+1) + " bytes: over the size limit",
	} {
		done := make(chan error, 1)
		go func() { _, err := BQSchema(path, Options{}); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), path+want) {
				t.Errorf("%s: %v, want …%s", path, err, want)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("%s: hangs", path)
		}
	}
}

// TestSchemaFilesReadOnce: a manifest naming one file many times reads it once.
func TestSchemaFilesReadOnce(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "s.json"), secretSchema)
	files, err := openSchemaFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer files.close()
	a, _ := files.read(filepath.Join(dir, "s.json"))
	os.Remove(filepath.Join(dir, "s.json"))
	b, err := files.read(filepath.Join(dir, "s.json"))
	if err != nil || string(a) != string(b) || string(b) != secretSchema {
		t.Errorf("second read: %q %v", b, err)
	}
}

// FuzzImportSchema: any schema file gives a result, never an error or a panic; the
// output is YAML whose size is bounded by the input's (a 10-character literal cannot
// become a million digits), and it never names a file outside the manifest's directory.
func FuzzImportSchema(f *testing.F) {
	for _, s := range []string{
		secretSchema,
		`{"type": "object", "properties": {"f": {"type": "integer", "minimum": 1.5e999999, "maximum": -1e999999}}}`,
		`{"type": "object", "properties": {"f": {"type": "number", "enum": [1e400, 0.5], "minimum": 1e-999999}}}`,
		`{"type": "object", "properties": {"f": {"type": "string", "maxLength": 1e999999, "minLength": 1.0}}}`,
		`{"type": "object", "properties": {"f": {"enum": [1, 1e999999, 2.5]}}}`,
		`{"type": "object", "properties": {"f": {"$ref": "../../etc/passwd#/x"}}}`,
		`{"oneOf": [{"type": "string"}]}`, `[`, ``,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, schema string) {
		dir := t.TempDir()
		write(t, filepath.Join(dir, "s.json"), schema)
		write(t, filepath.Join(dir, "registry.json"), `{"schemas": [{"urn": "urn:babel:t:happened", "schema": "s.json"}]}`)
		res, err := BQSchema(filepath.Join(dir, "registry.json"), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if limit := 8*len(schema) + 4096; len(res.YAML) > limit {
			t.Fatalf("%d bytes of output for %d of input", len(res.YAML), len(schema))
		}
		for _, is := range res.Issues {
			if is.File != filepath.Join(dir, "s.json") && is.File != filepath.Join(dir, "registry.json") {
				t.Fatalf("issue in another file: %v", is)
			}
		}
	})
}
