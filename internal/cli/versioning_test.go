package cli

import (
	"strings"
	"testing"
)

// TestVersioningPolicy: the versioning rules (BQ063–BQ065) are warnings in every
// format, pass `check` and fail `check --strict`; a lint block with a reason silences
// them (issue 21, item 5).
func TestVersioningPolicy(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ rule, line string }{
		{"BQ063", ":7:3"}, {"BQ064", ":4:3"}, {"BQ065", ":4:3"},
	} {
		reg := "testdata/rules/" + c.rule + "/registry.yaml"
		for _, f := range []struct{ format, want string }{
			{"text", reg + c.line + ": warning " + c.rule + ": "},
			{"json", `"line": ` + strings.Split(c.line, ":")[1] + `,` + "\n    \"column\": 3,\n    \"severity\": \"warning\",\n    \"rule\": \"" + c.rule + `"`},
			{"github", "::warning file=" + reg + ",line=" + strings.Split(c.line, ":")[1] + ",col=3,title=" + c.rule + "::"},
		} {
			code, out, errOut := runCheck(t, "check", "--format", f.format, "-r", reg)
			if code != ExitOK || errOut != "" || !strings.Contains(out, f.want) {
				t.Errorf("%s --format %s: exit %d, want 0 and %q in\n%s%s", c.rule, f.format, code, f.want, out, errOut)
			}
		}
		if code, _, _ := runCheck(t, "check", "--strict", "-r", reg); code != ExitFindings {
			t.Errorf("%s --strict: exit %d, want 1", c.rule, code)
		}
	}
	// Silenced with a reason on the message.
	dir := t.TempDir()
	path := dir + "/r.yaml"
	writeFile(t, path, "version: 1\nmessages:\n  urn:babel:orders:created.v2:\n    lint: {ignore: [BQ064], reason: The first version was retired in 2025.}\n    data: {}\n")
	if code, out, errOut := runCheck(t, "check", "--strict", "-r", path); code != ExitOK || out != "" || errOut != "" {
		t.Errorf("silenced: exit %d\n%s%s", code, out, errOut)
	}
}
