package cli

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestCheckPII: `bqgen check --pii` prints the PII inventory after the diagnostics, in
// text and as the json object {diagnostics, pii}, with golden files under testdata/pii.
func TestCheckPII(t *testing.T) {
	t.Parallel()
	cases := []struct {
		registry, format, golden string
		exit                     int
	}{
		{exampleRegistry, "text", "testdata/pii/examples.txt", ExitOK},
		{exampleRegistry, "json", "testdata/pii/examples.json", ExitOK},
		{"testdata/rules/BQ048/registry.yaml", "text", "testdata/pii/BQ048.txt", ExitOK},
		{"testdata/rules/BQ048/registry.yaml", "json", "testdata/pii/BQ048.json", ExitOK},
		{"testdata/rules/BQ033/registry.yaml", "json", "testdata/pii/errors.json", ExitFindings},
		{"testdata/rules/BQ033/registry.yaml", "text", "testdata/pii/errors.txt", ExitFindings},
	}
	for _, c := range cases {
		code, out, errOut := runCheck(t, "check", "--pii", "--format", c.format, "-r", c.registry)
		if code != c.exit || errOut != "" {
			t.Errorf("%s %s: exit %d, want %d; stderr %q", c.registry, c.format, code, c.exit, errOut)
		}
		golden(t, c.golden, out)
		if c.format != "json" {
			continue
		}
		// The diagnostics member is exactly the array of --format json.
		_, plain, _ := runCheck(t, "check", "--format", "json", "-r", c.registry)
		var obj struct {
			Diagnostics json.RawMessage `json:"diagnostics"`
		}
		if err := json.Unmarshal([]byte(out), &obj); err != nil {
			t.Fatalf("%s: %v", c.golden, err)
		}
		var a, b bytes.Buffer
		json.Compact(&a, obj.Diagnostics)
		json.Compact(&b, []byte(plain))
		if a.String() != b.String() {
			t.Errorf("%s: diagnostics differ from --format json:\n%s\n%s", c.golden, a.String(), b.String())
		}
	}
	if code, _, errOut := runCheck(t, "check", "--pii", "--format", "github", "-r", exampleRegistry); code != ExitError || errOut != "bqgen check: --pii needs --format text or json\n" {
		t.Errorf("--pii --format github: exit %d, stderr %q", code, errOut)
	}
}
