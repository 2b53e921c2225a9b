package cli

import (
	"os"
	"path/filepath"
	"runtime/debug"
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
		if !strings.Contains(stdout, "\nExit codes: 0 ") {
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

// TestHelpLooseEnds: help answers for itself, a stray registry argument points at -r,
// and every command's exit-code line speaks of what that command does.
func TestHelpLooseEnds(t *testing.T) {
	t.Parallel()
	code, stdout, stderr := run(t, "help", "help")
	if code != ExitOK || !strings.Contains(stdout, "Usage:\n  bqgen help [command]\n") || stderr != "" {
		t.Errorf("help help: exit %d\n%s%s", code, stdout, stderr)
	}
	code, _, stderr = run(t, "check", "registry.yaml")
	if want := "bqgen check: unexpected argument \"registry.yaml\"; the registry is given with -r: bqgen check -r registry.yaml\nrun 'bqgen help check' for usage\n"; code != ExitError || stderr != want {
		t.Errorf("check registry.yaml: exit %d\n%q\nwant %q", code, stderr, want)
	}
	code, _, stderr = run(t, "generate", "-o", "x", "my regs.yml")
	if want := "bqgen generate: unexpected argument \"my regs.yml\"; the registry is given with -r: bqgen generate -r 'my regs.yml'\n"; code != ExitError || !strings.HasPrefix(stderr, want) {
		t.Errorf("generate with a stray registry: exit %d\n%q", code, stderr)
	}
	// With -r given, the stray argument is something else: no -r advice.
	if _, _, stderr = run(t, "check", "-r", "a.yaml", "b.yaml"); strings.Contains(stderr, "given with -r") {
		t.Errorf("check -r a.yaml b.yaml advises -r: %q", stderr)
	}
	for name, want := range map[string]string{
		"version":  "Exit codes: 0 printed, 2 usage error.\n",
		"init":     "Exit codes: 0 written, 2 usage or I/O error (a file in the way is never overwritten).\n",
		"generate": "Exit codes: " + writerExits + "\n",
		"fixtures": "Exit codes: " + writerExits + "\n",
		"check":    "Exit codes: 0 no errors (warnings only fail under --strict), 1 findings, 2 usage or I/O error.\n",
	} {
		if _, stdout, _ := run(t, "help", name); !strings.HasSuffix(stdout, want) {
			t.Errorf("help %s ends\n%s\nwant the line %q", name, stdout, want)
		}
	}
}

// TestDescribeBuild: the version line of a build in bqgen's checkout, of a release and
// of a build under a replace directive (a directory has no version: the executable's
// digest tells two builds apart).
func TestDescribeBuild(t *testing.T) {
	t.Parallel()
	digest := func() string { return "0123456789ab" }
	const pseudo = "v0.0.0-00010101000000-000000000000"
	for _, tc := range []struct {
		info *debug.BuildInfo
		want string
	}{
		{&debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: modulePath, Version: "(devel)"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "6a70da9"}, {Key: "vcs.modified", Value: "true"}}},
			"bqgen (devel) go1.26.8 6a70da9+dirty"},
		{&debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: modulePath, Version: "v1.2.3"}}, "bqgen v1.2.3 go1.26.8"},
		{&debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: modulePath, Version: pseudo, Replace: &debug.Module{Path: "../bqgen", Version: "(devel)"}}},
			"bqgen " + pseudo + " go1.26.8, replaced by the directory ../bqgen, executable sha256 0123456789ab"},
		{&debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: modulePath, Version: pseudo, Replace: &debug.Module{Path: "example.com/fork", Version: "v1.0.1"}}},
			"bqgen " + pseudo + " go1.26.8, replaced by example.com/fork v1.0.1"},
	} {
		if got := describeBuild(tc.info, digest); got != tc.want {
			t.Errorf("describeBuild = %q\nwant %q", got, tc.want)
		}
	}
}

// TestREADMECommandTable holds the README's command table and the help together: each
// row's synopsis is the command's usage line as `bqgen help` prints it, every command has
// a row, and every flag of a command appears in its usage line.
func TestREADMECommandTable(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]string{}
	for _, line := range strings.Split(string(b), "\n") {
		if !strings.HasPrefix(line, "| `bqgen ") {
			continue
		}
		syn, _, _ := strings.Cut(strings.TrimPrefix(line, "| `"), "` |")
		syn = strings.ReplaceAll(syn, `\|`, "|")
		name, _, _ := strings.Cut(strings.TrimPrefix(syn, "bqgen "), " ")
		name = strings.TrimSuffix(name, "`,")
		rows[name] = syn
	}
	for _, c := range commands() {
		syn, ok := rows[c.name]
		if !ok {
			t.Errorf("README's command table has no row for %s", c.name)
			continue
		}
		if c.name != "version" && syn != "bqgen "+c.usage {
			t.Errorf("README row of %s:\n  %s\nhelp's usage:\n  bqgen %s", c.name, syn, c.usage)
		}
		fs := pflag.NewFlagSet(c.name, pflag.ContinueOnError)
		c.flags(fs)
		fs.VisitAll(func(f *pflag.Flag) {
			if !strings.Contains(c.usage, "--"+f.Name) && (f.Shorthand == "" || !strings.Contains(c.usage, "-"+f.Shorthand+" ")) {
				t.Errorf("usage of %s lacks --%s", c.name, f.Name)
			}
		})
	}
}
