package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const bqschemaManifest = "../importer/testdata/bqschema/registry.json"

func TestImportCommand(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "registry.yaml")

	// Unconvertible constructs: reported with file and JSON pointer, nothing written.
	code, stdout, stderr := run(t, "import", "--from", "bqschema", bqschemaManifest, "-o", out)
	if code != ExitFindings {
		t.Fatalf("exit %d, want 1\n%s", code, stderr)
	}
	for _, want := range []string{
		"schemas/payment-captured.json:11:16: error: #/properties/method/oneOf: oneOf (a union) cannot be expressed",
		"schemas/users-registered.json:9:46: error: #/properties/locale/default: default is not supported",
		"6 constructs could not be converted; nothing written",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if _, err := os.Stat(out); err == nil || stdout != "" {
		t.Errorf("something was written: %q", stdout)
	}

	// --force writes the rest, then the checks run on it: BQ020 with the money fix.
	code, stdout, stderr = run(t, "import", bqschemaManifest, "-o", out, "--force")
	if code != ExitFindings {
		t.Fatalf("exit %d, want 1\n%s", code, stderr)
	}
	for _, want := range []string{
		"bqgen check on the converted registry:",
		out + ":22:9: error BQ020: ",
		"amount: {type: money}",
		out + ":64:9: error BQ025: ",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if want := out + ": 4 messages and 1 type converted from " + bqschemaManifest + "\n"; stdout != want {
		t.Errorf("stdout = %q, want %q", stdout, want)
	}
	b, err := os.ReadFile(out)
	if err != nil || !strings.Contains(string(b), "# bqgen import: not converted") {
		t.Fatalf("output: %v\n%s", err, b)
	}

	// An existing file is not replaced without --overwrite.
	if err := os.WriteFile(out, []byte("# mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = run(t, "import", bqschemaManifest, "-o", out, "--force")
	if code != ExitError || !strings.Contains(stderr, "exists; pass --overwrite") {
		t.Errorf("exit %d: %s", code, stderr)
	}
	if code, _, stderr = run(t, "import", bqschemaManifest, "-o", out, "--force", "--overwrite"); code != ExitFindings {
		t.Errorf("--overwrite: exit %d: %s", code, stderr)
	}
}

// TestImportClean: a registry that converts completely and passes the checks exits 0;
// -o - prints the YAML.
func TestImportClean(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	putFile(t, filepath.Join(dir, "registry.json"), `{"schemas": [{"urn": "urn:babel:users:registered", "schema": "schemas/users.json", "owner": "identity", "status": "active"}]}`)
	putFile(t, filepath.Join(dir, "schemas", "users.json"), `{
  "$schema": "http://json-schema.org/draft-07/schema#",
  "type": "object",
  "required": ["user_id", "email"],
  "properties": {
    "user_id": {"type": "integer", "minimum": 1, "maximum": 9007199254740991},
    "email": {"type": "string", "format": "email", "x-gdpr-sensitive": "contact"}
  }
}`)
	code, stdout, stderr := run(t, "import", filepath.Join(dir, "registry.json"), "-o", "-")
	if code != ExitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	want := "        email: {type: string, format: email, x-gdpr-sensitive: contact}\n"
	if !strings.Contains(stdout, want) || !strings.Contains(stdout, "    owner: identity\n") {
		t.Errorf("stdout lacks %q:\n%s", want, stdout)
	}
	if !strings.HasSuffix(stderr, "(stdout): 1 message and 0 types converted from "+filepath.Join(dir, "registry.json")+"\n") {
		t.Errorf("stderr = %q", stderr)
	}
}

func TestImportUsage(t *testing.T) {
	t.Parallel()
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"import", "registry.json"}, "bqgen import: -o/--out is required\n"},
		{[]string{"import", "-o", "x.yaml"}, "bqgen import: want one manifest (registry.json), got 0 arguments\n"},
		{[]string{"import", "--from", "avro", "r.json", "-o", "x.yaml"}, "bqgen import: --from must be bqschema, not \"avro\"\n"},
		{[]string{"import", "r.json", "-o", "x.yaml", "--forse"}, "bqgen import: unknown flag: --forse; did you mean --force?\n"},
		{[]string{"imprt"}, "bqgen: unknown command \"imprt\"; did you mean \"import\"?\n"},
		{[]string{"import", "does-not-exist.json", "-o", "x.yaml"}, "bqgen import: cannot read the manifest: open does-not-exist.json: no such file or directory\n"},
	}
	for _, c := range cases {
		code, _, stderr := run(t, c.args...)
		if code != ExitError || !strings.HasPrefix(stderr, c.want) {
			t.Errorf("%q: exit %d, stderr %q; want 2, %q", c.args, code, stderr, c.want)
		}
	}
}

// TestImportFilesRead: a manifest naming a schema outside its directory cannot make
// import read it, not even with --force, unless the user names the directory with
// --schema-root (issue 16, item 6).
func TestImportFilesRead(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	dir := filepath.Join(base, "manifest")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(base, "secret.json"), []byte(`{"type": "object", "description": "TOP-SECRET", "properties": {"a": {"type": "string"}}}`), 0o644)
	manifest := filepath.Join(dir, "registry.json")
	os.WriteFile(manifest, []byte(`{"schemas": [{"urn": "urn:babel:t:happened", "schema": "../secret.json", "owner": "t"}]}`), 0o644)
	out := filepath.Join(base, "registry.yaml")

	code, _, stderr := run(t, "import", manifest, "-o", out, "--force")
	if code != ExitFindings || !strings.Contains(stderr, "is outside "+dir+", where schema files are read from; it was not read") ||
		!strings.Contains(stderr, "hint: keep the schemas beside the manifest, or name the directory that holds them with --schema-root") {
		t.Errorf("--force: exit %d\n%s", code, stderr)
	}
	if b, _ := os.ReadFile(out); strings.Contains(string(b), "TOP-SECRET") {
		t.Errorf("the refused file reached the output:\n%s", b)
	}
	code, _, stderr = run(t, "import", manifest, "-o", out, "--overwrite", "--schema-root", base)
	if b, _ := os.ReadFile(out); code != ExitOK || !strings.Contains(string(b), "TOP-SECRET") {
		t.Errorf("--schema-root: exit %d\n%s\n%s", code, stderr, b)
	}
	// A manifest that is a device: exit 2, at once.
	if code, _, stderr := run(t, "import", "/dev/zero", "-o", "-"); code != ExitError || !strings.Contains(stderr, "/dev/zero: not a regular file") {
		t.Errorf("/dev/zero: exit %d\n%s", code, stderr)
	}
}
