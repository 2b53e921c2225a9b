package cli

import (
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// TestHelpTeaches: every command's help has its usage, every flag with its default,
// two or three examples and the exit codes.
func TestHelpTeaches(t *testing.T) {
	t.Parallel()
	for _, c := range commands() {
		code, stdout, _ := run(t, "help", c.name)
		if code != ExitOK {
			t.Errorf("help %s: exit %d", c.name, code)
			continue
		}
		if !strings.Contains(stdout, "Usage:\n  bqgen "+c.usage+"\n") {
			t.Errorf("help %s lacks its usage:\n%s", c.name, stdout)
		}
		if !strings.Contains(stdout, "Exit codes: 0 clean, 1 findings, 2 usage or I/O error.") {
			t.Errorf("help %s lacks the exit codes", c.name)
		}
		if c.name != "version" && (len(c.examples) < 2 || len(c.examples) > 3) {
			t.Errorf("%s has %d examples, want 2 or 3", c.name, len(c.examples))
		}
		for _, ex := range c.examples {
			if !strings.HasPrefix(ex, "bqgen "+c.name) && !strings.Contains(ex, "| bqgen "+c.name) {
				t.Errorf("%s: example %q does not run the command", c.name, ex)
			}
		}
		fs := pflag.NewFlagSet(c.name, pflag.ContinueOnError)
		c.flags(fs)
		fs.VisitAll(func(f *pflag.Flag) {
			if !strings.Contains(stdout, "--"+f.Name) {
				t.Errorf("help %s lacks --%s", c.name, f.Name)
			}
			if f.DefValue != "" && f.DefValue != "false" && !strings.Contains(stdout, "(default "+quoteDefault(f)+")") {
				t.Errorf("help %s lacks the default of --%s (%s):\n%s", c.name, f.Name, f.DefValue, stdout)
			}
		})
	}
}

func quoteDefault(f *pflag.Flag) string {
	if f.Value.Type() == "string" {
		return `"` + f.DefValue + `"`
	}
	return f.DefValue
}

func TestHelpForMyCommands(t *testing.T) {
	t.Parallel()
	for name, want := range map[string][]string{
		"import": {"bqgen import --from bqschema registry.json -o registry.yaml", "--from string", "source format: bqschema", `(default "bqschema")`, "--overwrite"},
		"docs":   {"bqgen docs -r examples/registry.yaml -o docs/catalog.md", "-o, --out string"},
		"init":   {"bqgen init -o messages/registry.yaml", `(default "registry.yaml")`},
	} {
		_, stdout, _ := run(t, "help", name)
		for _, w := range want {
			if !strings.Contains(stdout, w) {
				t.Errorf("help %s lacks %q:\n%s", name, w, stdout)
			}
		}
	}
	_, stdout, _ := run(t, "help")
	for _, name := range []string{"import", "docs", "init"} {
		if !strings.Contains(stdout, "\n  "+name+" ") {
			t.Errorf("overview lacks %s:\n%s", name, stdout)
		}
	}
	if code, _, stderr := run(t, "help", "imoprt"); code != ExitError || !strings.Contains(stderr, `did you mean "import"?`) {
		t.Errorf("help imoprt: exit %d, %s", code, stderr)
	}
}

// TestEveryCommandIsListed guards against a command that exists but is not reachable:
// each constructor's name must answer `bqgen help <name>` and appear in `bqgen help`.
func TestEveryCommandIsListed(t *testing.T) {
	t.Parallel()
	_, overview, _ := run(t, "help")
	for _, name := range []string{"generate", "check", "jsonschema", "validate", "asyncapi", "diff", "import", "docs", "init", "version"} {
		if code, _, stderr := run(t, "help", name); code != ExitOK {
			t.Errorf("bqgen help %s: exit %d: %s", name, code, stderr)
		}
		if !strings.Contains(overview, "\n  "+name+" ") {
			t.Errorf("bqgen help does not list %q", name)
		}
	}
}
