package nodetools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRunNode(t *testing.T) {
	d := Dir(t)
	for _, pkg := range []string{"ajv", "ajv-formats", "@asyncapi/parser", "@asyncapi/specs"} {
		if _, err := os.Stat(filepath.Join(d, "node_modules", filepath.FromSlash(pkg), "package.json")); err != nil {
			t.Errorf("%s not installed: %v", pkg, err)
		}
	}
	out := RunNode(t, `
const Ajv = require('ajv/dist/2020'); const addFormats = require('ajv-formats');
const ajv = new Ajv({strict: true}); addFormats(ajv);
const ok = ajv.validate({type: 'string', format: 'uuid'}, JSON.parse(require('fs').readFileSync(0, 'utf8')));
process.stdout.write(String(ok));`, []byte(`"4f1c2b9e-1111-4a2b-9c3d-0123456789ab"`))
	if strings.TrimSpace(string(out)) != "true" {
		t.Errorf("ajv: %q", out)
	}
}
