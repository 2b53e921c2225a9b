package ghaction

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/babelqueue/bqgen/internal/cli"
)

// repoRoot is the repository root: action.yml and the bqgen sources the action builds.
const repoRoot = "../.."

// action is the part of action.yml a composite action may use that this harness runs.
// Decoding with KnownFields rejects every other key (`if:`, `uses:`,
// `working-directory:`, …), so the action cannot rely on what the harness does not
// simulate.
type action struct {
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
	Author      string `yaml:"author"`
	Branding    struct {
		Icon  string `yaml:"icon"`
		Color string `yaml:"color"`
	} `yaml:"branding"`
	Inputs map[string]struct {
		Description string `yaml:"description"`
		Required    bool   `yaml:"required"`
		Default     string `yaml:"default"`
	} `yaml:"inputs"`
	Outputs map[string]struct {
		Description string `yaml:"description"`
		Value       string `yaml:"value"`
	} `yaml:"outputs"`
	Runs struct {
		Using string `yaml:"using"`
		Steps []step `yaml:"steps"`
	} `yaml:"runs"`
}

type step struct {
	Name  string            `yaml:"name"`
	ID    string            `yaml:"id"`
	Shell string            `yaml:"shell"`
	Env   map[string]string `yaml:"env"`
	Run   string            `yaml:"run"`
}

func readAction(t *testing.T) *action {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	var a action
	if err := dec.Decode(&a); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	if a.Runs.Using != "composite" || len(a.Runs.Steps) == 0 {
		t.Fatalf("action.yml: runs.using %q with %d steps, want a composite action", a.Runs.Using, len(a.Runs.Steps))
	}
	for _, in := range []string{"registry", "output-dir", "mode", "version"} {
		if _, ok := a.Inputs[in]; !ok {
			t.Errorf("action.yml has no input %q", in)
		}
	}
	for _, s := range a.Runs.Steps {
		if s.Shell != "bash" || s.Run == "" {
			t.Fatalf("step %q: shell %q; every step must be a bash run: step", s.Name, s.Shell)
		}
	}
	return &a
}

// run is one run of the action: what GitHub gives it and what it left.
type run struct {
	inputs    map[string]string
	workspace string
	env       map[string]string // the GITHUB_* and RUNNER_* variables of the job
	// outputs of each step by id, after the run.
	steps map[string]map[string]string
	// log is the steps' standard output and error, in order.
	log strings.Builder
	// failed is the name of the step that exited non-zero ("" when none), code its status.
	failed string
	code   int
}

var exprRe = regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`)

// expand substitutes the `${{ … }}` expressions of s as GitHub does before a step
// runs, textually: `inputs.NAME` is the input given, else its default; `github.action_path`
// is the action's checkout (the repository root); `github.workspace`, `github.base_ref`
// and `runner.temp` are the job's GITHUB_WORKSPACE, GITHUB_BASE_REF and RUNNER_TEMP;
// `steps.ID.outputs.NAME` is what step ID wrote to its GITHUB_OUTPUT. Any other
// expression fails the test.
func (r *run) expand(t *testing.T, a *action, s string) string {
	t.Helper()
	return exprRe.ReplaceAllStringFunc(s, func(m string) string {
		e := exprRe.FindStringSubmatch(m)[1]
		switch {
		case strings.HasPrefix(e, "inputs."):
			name := strings.TrimPrefix(e, "inputs.")
			in, ok := a.Inputs[name]
			if !ok {
				t.Fatalf("action.yml uses undeclared input %q", name)
			}
			if v, ok := r.inputs[name]; ok {
				return v
			}
			return in.Default
		case e == "github.action_path":
			abs, err := filepath.Abs(repoRoot)
			if err != nil {
				t.Fatal(err)
			}
			return abs
		case e == "github.workspace":
			return r.env["GITHUB_WORKSPACE"]
		case e == "github.base_ref":
			return r.env["GITHUB_BASE_REF"]
		case e == "runner.temp":
			return r.env["RUNNER_TEMP"]
		case strings.HasPrefix(e, "steps."):
			parts := strings.Split(e, ".")
			if len(parts) != 4 || parts[2] != "outputs" {
				t.Fatalf("action.yml: unsupported expression %q", m)
			}
			return r.steps[parts[1]][parts[3]]
		}
		t.Fatalf("action.yml: expression %q is not one the test simulates", m)
		return ""
	})
}

// hostEnv is the test process's environment without the variables of a GitHub job
// (the test sets its own) or of the test's parent go command, and without bqgen's
// build cache (BQGEN_CACHE=off: the bqgen the action runs must not use the user's).
func hostEnv() []string {
	var out []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "GITHUB_") || strings.HasPrefix(kv, "RUNNER_") {
			continue
		}
		out = append(out, kv)
	}
	return append(out, "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1", "GIT_TERMINAL_PROMPT=0", "BQGEN_CACHE=off")
}

// runAction runs every step of a in order, as a GitHub runner runs a composite action:
// `bash --noprofile --norc -eo pipefail FILE` in the workspace, with the job's
// environment, the step's env (expanded), a fresh GITHUB_OUTPUT and GITHUB_PATH per
// step (lines appended to GITHUB_PATH are put in front of PATH for the later steps), and
// the first failing step ending the run.
func (r *run) runAction(t *testing.T, a *action) {
	t.Helper()
	r.steps = map[string]map[string]string{}
	var paths []string
	for i, s := range a.Runs.Steps {
		dir := filepath.Join(r.env["RUNNER_TEMP"], fmt.Sprintf("step%d", i))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		script, out, ghPath := filepath.Join(dir, "run.sh"), filepath.Join(dir, "output"), filepath.Join(dir, "path")
		for _, f := range []string{out, ghPath} {
			if err := os.WriteFile(f, nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(script, []byte(r.expand(t, a, s.Run)), 0o644); err != nil {
			t.Fatal(err)
		}
		env := hostEnv()
		for k, v := range r.env {
			env = append(env, k+"="+v)
		}
		for k, v := range s.Env {
			env = append(env, k+"="+r.expand(t, a, v))
		}
		env = append(env, "GITHUB_OUTPUT="+out, "GITHUB_PATH="+ghPath,
			"PATH="+strings.Join(append(append([]string(nil), paths...), os.Getenv("PATH")), string(os.PathListSeparator)))
		cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", script)
		cmd.Dir = r.workspace
		cmd.Env = env
		var buf bytes.Buffer
		cmd.Stdout, cmd.Stderr = &buf, &buf
		err := cmd.Run()
		r.log.WriteString(buf.String())
		if s.ID != "" {
			r.steps[s.ID] = readOutputs(t, out)
		}
		b, _ := os.ReadFile(ghPath)
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			if l != "" {
				paths = append([]string{l}, paths...)
			}
		}
		if err != nil {
			ee, ok := err.(*exec.ExitError)
			if !ok {
				t.Fatalf("step %q: %v", s.Name, err)
			}
			r.failed, r.code = s.Name, ee.ExitCode()
			return
		}
	}
}

// readOutputs parses a GITHUB_OUTPUT file: `name=value` lines and `name<<DELIM` blocks.
func readOutputs(t *testing.T, path string) map[string]string {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	lines := strings.Split(string(b), "\n")
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if name, delim, ok := strings.Cut(l, "<<"); ok && !strings.Contains(name, "=") {
			var v []string
			for i++; i < len(lines) && lines[i] != delim; i++ {
				v = append(v, lines[i])
			}
			out[name] = strings.Join(v, "\n")
		} else if name, v, ok := strings.Cut(l, "="); ok {
			out[name] = v
		}
	}
	return out
}

// git runs git in dir, failing the test on an error.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=bqgen", "-c", "user.email=bqgen@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Env = hostEnv()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// repo makes the repository of a pull request: branch main with the files of base,
// branch feature with those of head (after generate runs there when genDir is set), and
// a full clone of it (as actions/checkout with fetch-depth: 0 leaves it) on feature. It
// returns the clone and the head commit.
func repo(t *testing.T, base, head map[string]string, genDir string) (string, string) {
	t.Helper()
	tmp := t.TempDir()
	origin := filepath.Join(tmp, "origin")
	if err := os.MkdirAll(origin, 0o755); err != nil {
		t.Fatal(err)
	}
	git(t, origin, "init", "-q", "-b", "main")
	write := func(files map[string]string) {
		for name, content := range files {
			p := filepath.Join(origin, name)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	write(base)
	if genDir != "" {
		generate(t, origin, genDir)
	}
	git(t, origin, "add", "-A")
	git(t, origin, "commit", "-q", "--allow-empty", "-m", "base")
	git(t, origin, "checkout", "-q", "-b", "feature")
	for name := range base {
		if _, ok := head[name]; !ok {
			os.Remove(filepath.Join(origin, name))
		}
	}
	write(head)
	git(t, origin, "add", "-A")
	git(t, origin, "commit", "-q", "--allow-empty", "-m", "head")
	ws := filepath.Join(tmp, "workspace")
	cmd := exec.Command("git", "clone", "-q", "file://"+origin, ws)
	cmd.Env = hostEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("clone: %v\n%s", err, out)
	}
	git(t, ws, "checkout", "-q", "feature")
	return ws, git(t, ws, "rev-parse", "HEAD")
}

// generate writes the generated packages of dir/registry.yaml into dir/genDir.
func generate(t *testing.T, dir, genDir string) {
	t.Helper()
	var out, errOut bytes.Buffer
	if code := cli.Run(context.Background(), []string{"generate", "-r", filepath.Join(dir, "registry.yaml"), "-o", filepath.Join(dir, genDir)}, strings.NewReader(""), &out, &errOut); code != 0 {
		t.Fatalf("generate: exit %d\n%s%s", code, out.String(), errOut.String())
	}
}

// The registries of the scenarios: a deprecated URN and its successor share the named
// type Rider. Line numbers are cited by the expected annotations.
const (
	goMod = "module example.com/rentals\n\ngo 1.24\n"
	reg   = `version: 1
types:
  Rider:
    type: object
    required: [rider_id]
    properties:
      rider_id: {type: integer, minimum: 1, maximum: 1000000}
      name: {type: string, maxLength: 100}
messages:
  urn:babel:rentals:ride.started:
    summary: A ride started.
    deprecated: Use urn:babel:rentals:ride.started.v2.
    data:
      required: [ride_id]
      properties:
        ride_id: {type: integer, minimum: 1, maximum: 1000000}
        rider: {type: Rider}
  urn:babel:rentals:ride.started.v2:
    summary: A ride started, with its station.
    supersedes: urn:babel:rentals:ride.started
    data:
      required: [ride_id]
      properties:
        ride_id: {type: integer, minimum: 1, maximum: 1000000}
        rider: {type: Rider}
        station: {type: string, maxLength: 40}
`
)

// TestAction runs the action's steps on pull requests with no change, an additive
// change, a breaking change (under two modes), a change to the shared named type, the
// first pull request adding the registry and stale generated code (issue 21, item 6).
func TestAction(t *testing.T) {
	for _, tool := range []string{"git", "bash", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is required: the action's steps run it", tool)
		}
	}
	a := readAction(t)
	additive := strings.Replace(reg, "        station: {type: string, maxLength: 40}\n", "        station: {type: string, maxLength: 40}\n        note: {type: string}\n", 1)
	breaking := strings.Replace(reg, "        ride_id: {type: integer, minimum: 1, maximum: 1000000}\n        rider: {type: Rider}\n        station",
		"        ride_id: {type: integer, minimum: 1, maximum: 1000}\n        rider: {type: Rider}\n        station", 1)
	shared := strings.Replace(reg, "name: {type: string, maxLength: 100}", "name: {type: string, maxLength: 50}", 1)
	if additive == reg || breaking == reg || shared == reg {
		t.Fatal("a scenario does not change the registry")
	}
	const base = "git:origin/main"
	for _, c := range []struct {
		name       string
		base, head string // "" = no registry.yaml
		inputs     map[string]string
		genBase    bool // generate into events/ on main only (stale on feature)
		genHead    bool // generate into events/ on both branches
		shallow    bool // clone only the head commit, as actions/checkout does by default
		code       int
		failed     string
		// annotations are the workflow commands the steps print, in order.
		annotations []string
		summary     []string // in the job summary, in this order
		breaking    string
	}{
		{name: "no change", base: reg, head: reg, code: 0, breaking: "false",
			summary: []string{"### bqgen diff: no breaking changes (backward mode)", "No URN changed."}},
		{name: "additive", base: reg, head: additive, inputs: map[string]string{"output-dir": "events"}, genHead: true, code: 0, breaking: "false",
			annotations: []string{"::notice file=registry.yaml,line=27,col=9,title=BQ114 notice (backward)::urn:babel:rentals:ride.started.v2 $.note: optional property added (— → optional string)"},
			summary:     []string{"### bqgen diff: no breaking changes (backward mode)", "##### `urn:babel:rentals:ride.started.v2` — changed", "**notice** BQ114 `$.note`"}},
		{name: "breaking", base: reg, head: breaking, code: 1, failed: "Review URN changes", breaking: "true",
			annotations: []string{"::error file=registry.yaml,line=24,col=46,title=BQ130 breaking (backward)::urn:babel:rentals:ride.started.v2 $.ride_id: upper bound lowered (maximum: 1000000 → maximum: 1000)%0Aremedy: mint urn:babel:rentals:ride.started.v3 with this shape and `supersedes: urn:babel:rentals:ride.started.v2`, deprecate urn:babel:rentals:ride.started.v2 and keep its old shape until its consumers have moved; or keep `maximum: 1000000`"},
			summary:     []string{"### bqgen diff: 1 breaking change (backward mode)", "**Fix:** mint urn:babel:rentals:ride.started.v3", "· [`registry.yaml:24:46`](https://github.com/acme/rentals/blob/HEADSHA/registry.yaml#L24)"}},
		{name: "breaking, forward mode", base: reg, head: breaking, inputs: map[string]string{"mode": "forward"}, code: 0, breaking: "false",
			annotations: []string{"::notice file=registry.yaml,line=24,col=46,title=BQ130 notice (forward)::urn:babel:rentals:ride.started.v2 $.ride_id: upper bound lowered (maximum: 1000000 → maximum: 1000)"},
			summary:     []string{"### bqgen diff: no breaking changes (forward mode)"}},
		{name: "shared named type", base: reg, head: shared, code: 1, failed: "Review URN changes", breaking: "true",
			annotations: []string{"::error file=registry.yaml,line=8,col=28,title=BQ130 breaking (backward)::type Rider $.name: maxLength tightened (maxLength: 100 → maxLength: 50)%0Areaches: urn:babel:rentals:ride.started $.rider, urn:babel:rentals:ride.started.v2 $.rider%0Aremedy: keep `maxLength: 100` in Rider; or leave Rider as it was for the URNs it reaches and give the new shape a new named type, RiderV2, used in a new version of each URN that needs it: put it in urn:babel:rentals:ride.started.v3, minted with `supersedes: urn:babel:rentals:ride.started.v2`"},
			summary: []string{"### bqgen diff: 1 breaking change (backward mode)", "#### Named type `Rider` — 1 breaking", "Reaches `urn:babel:rentals:ride.started` at `$.rider`, `urn:babel:rentals:ride.started.v2` at `$.rider`.",
				"Changed only through named types:\n\n- `urn:babel:rentals:ride.started` uses `Rider` at `$.rider`\n- `urn:babel:rentals:ride.started.v2` uses `Rider` at `$.rider`"}},
		{name: "first PR", base: "", head: reg, code: 0, breaking: "false",
			annotations: []string{
				"::notice title=bqgen diff::the base (" + base + ") has no registry at registry.yaml: every URN is reported as added",
				"::notice file=registry.yaml,line=10,col=3,title=BQ102 notice (backward)::urn:babel:rentals:ride.started: URN added (— → event on queue rentals)",
				"::notice file=registry.yaml,line=18,col=3,title=BQ102 notice (backward)::urn:babel:rentals:ride.started.v2: URN added (— → event on queue rentals)",
			},
			summary: []string{"### bqgen diff: no breaking changes (backward mode)", "| 2 | 0 | 0 | 0 |", "> **Note:** the base (" + base + ") has no registry at registry.yaml: every URN is reported as added"}},
		{name: "stale generated code", base: reg, head: additive, inputs: map[string]string{"output-dir": "events"}, genBase: true, code: 1, failed: "Check the generated code"},
		{name: "broken base", base: strings.Replace(reg, "maxLength: 100", "maxLength: -1", 1), head: reg, code: 2, failed: "Review URN changes",
			annotations: []string{"::error title=bqgen diff::bqgen diff: the old registry (--against git:origin/main) is rejected, so there is nothing sound to compare with; fix it there, or compare against another revision (--against git:<older ref>):%0Aorigin/main:registry.yaml:8:"},
			summary:     []string{"### bqgen diff could not review this pull request", "the old registry (--against git:origin/main) is rejected"}},
		{name: "shallow clone", base: reg, head: additive, shallow: true, code: 2, failed: "Review URN changes",
			annotations: []string{"::error title=bqgen diff::bqgen diff: --against git:origin/main: \"origin/main\" is not a revision of the repository "},
			summary:     []string{"### bqgen diff could not review this pull request", "which is a shallow clone without it: fetch the base (actions/checkout: set `fetch-depth: 0`"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel() // each scenario has its own repository, workspace and runner directory
			files := func(r string) map[string]string {
				m := map[string]string{"go.mod": goMod, "README.md": "rentals\n"}
				if r != "" {
					m["registry.yaml"] = r
				}
				return m
			}
			var ws, sha string
			switch {
			case c.genHead:
				ws, sha = repoGenerated(t, files(c.base), files(c.head))
			case c.genBase:
				ws, sha = repo(t, files(c.base), files(c.head), "events")
			case c.shallow:
				ws, sha = repo(t, files(c.base), files(c.head), "")
				ws, sha = shallowClone(t, ws)
			default:
				ws, sha = repo(t, files(c.base), files(c.head), "")
			}
			tmp := t.TempDir()
			summary := filepath.Join(tmp, "summary.md")
			if err := os.WriteFile(summary, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			r := &run{inputs: c.inputs, workspace: ws, env: map[string]string{
				"GITHUB_BASE_REF": "main", "GITHUB_HEAD_REF": "feature", "GITHUB_EVENT_NAME": "pull_request",
				"GITHUB_STEP_SUMMARY": summary, "GITHUB_WORKSPACE": ws, "GITHUB_SERVER_URL": "https://github.com",
				"GITHUB_REPOSITORY": "acme/rentals", "GITHUB_SHA": sha, "GITHUB_ACTIONS": "true", "RUNNER_TEMP": filepath.Join(tmp, "runner"),
			}}
			r.runAction(t, a)
			log := r.log.String()
			if r.code != c.code || r.failed != c.failed {
				t.Fatalf("exit %d in step %q, want %d in %q; log:\n%s", r.code, r.failed, c.code, c.failed, log)
			}
			var annotations []string
			for _, l := range strings.Split(log, "\n") {
				if strings.HasPrefix(l, "::") {
					annotations = append(annotations, l)
				}
			}
			match := strings.Join(annotations, "\n") == strings.Join(c.annotations, "\n")
			if c.code == 2 {
				// The message names temporary paths: compare its start.
				match = len(annotations) == 1 && strings.HasPrefix(annotations[0], c.annotations[0])
			}
			if !match {
				t.Errorf("annotations:\n%s\nwant:\n%s\nlog:\n%s", strings.Join(annotations, "\n"), strings.Join(c.annotations, "\n"), log)
			}
			b, err := os.ReadFile(summary)
			if err != nil {
				t.Fatal(err)
			}
			got := string(b)
			if c.failed == "Check the generated code" {
				if got != "" || r.steps["review"] != nil || !strings.Contains(log, "bqgen generate --check: events is stale; run bqgen generate -r registry.yaml -o events") {
					t.Errorf("stale output: summary %q, review outputs %v, log:\n%s", got, r.steps["review"], log)
				}
				return
			}
			at := 0
			for _, want := range c.summary {
				want = strings.ReplaceAll(want, "HEADSHA", sha)
				i := strings.Index(got[at:], want)
				if i < 0 {
					t.Errorf("summary lacks %q after byte %d:\n%s", want, at, got)
					break
				}
				at += i + len(want)
			}
			if c.code == 2 {
				if r.steps["review"]["report"] != "" {
					t.Errorf("a review that could not be made names a report: %v", r.steps["review"])
				}
				return
			}
			outs := map[string]string{}
			for name, o := range a.Outputs {
				outs[name] = r.expand(t, a, o.Value)
			}
			if outs["breaking"] != c.breaking || outs["report"] != filepath.Join(r.env["RUNNER_TEMP"], "bqgen-diff.md") {
				t.Errorf("outputs %v", outs)
			}
			report, err := os.ReadFile(outs["report"])
			if err != nil || string(report) != got {
				t.Errorf("the report file %s differs from the summary (%v):\n%s", outs["report"], err, report)
			}
		})
	}
}

// shallowClone clones the feature branch of ws's origin with one commit, as
// actions/checkout does without fetch-depth: 0; it returns the clone and its commit.
func shallowClone(t *testing.T, ws string) (string, string) {
	t.Helper()
	origin := git(t, ws, "remote", "get-url", "origin")
	clone := filepath.Join(t.TempDir(), "shallow")
	cmd := exec.Command("git", "clone", "-q", "--depth", "1", "--branch", "feature", "--single-branch", origin, clone)
	cmd.Env = hostEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("shallow clone: %v\n%s", err, out)
	}
	return clone, git(t, clone, "rev-parse", "HEAD")
}

// repoGenerated is repo with the generated packages of each branch's registry
// committed on that branch (generate --check passes).
func repoGenerated(t *testing.T, base, head map[string]string) (string, string) {
	t.Helper()
	ws, _ := repo(t, base, head, "events")
	// Regenerate on the feature branch and commit, as the author of the change does.
	generate(t, ws, "events")
	git(t, ws, "add", "-A")
	git(t, ws, "commit", "-q", "--allow-empty", "-m", "regenerate")
	// Push the branch so that the clone state is what a checkout of the PR gives.
	return ws, git(t, ws, "rev-parse", "HEAD")
}

// TestActionNotAPullRequest: without GITHUB_BASE_REF (a push), the review says there is
// no base and passes; check still runs.
func TestActionNotAPullRequest(t *testing.T) {
	a := readAction(t)
	ws, sha := repo(t, map[string]string{"go.mod": goMod, "registry.yaml": reg}, map[string]string{"go.mod": goMod, "registry.yaml": reg}, "")
	tmp := t.TempDir()
	summary := filepath.Join(tmp, "summary.md")
	os.WriteFile(summary, nil, 0o644)
	r := &run{workspace: ws, env: map[string]string{"GITHUB_STEP_SUMMARY": summary, "GITHUB_WORKSPACE": ws, "GITHUB_SHA": sha, "RUNNER_TEMP": filepath.Join(tmp, "runner")}}
	r.runAction(t, a)
	if r.code != 0 || !strings.Contains(r.log.String(), "::notice title=bqgen diff::not a pull request (GITHUB_BASE_REF is empty)") ||
		r.steps["review"]["breaking"] != "false" || r.steps["review"]["report"] != "" {
		t.Errorf("exit %d, outputs %v, log:\n%s", r.code, r.steps["review"], r.log.String())
	}
}
