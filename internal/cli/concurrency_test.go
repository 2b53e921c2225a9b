package cli

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/babelqueue/bqgen/internal/synth"
)

// findingsBlock is a message added to every file of the synthetic registry by
// writeFindings, with a finding of a different rule in most fields; %[1]s is the
// file's bounded context and %[2]d its number.
const findingsBlock = `  urn:babel:%[1]s:bad.thing%[2]d:
    summary: A message full of findings.
    data:
      properties:
        totalPrice: {type: number}
        flag_on: {type: integer, minimum: 0, maximum: 1}
        answer: {type: string, enum: ["yes", "no"]}
        ref: {type: Missing%[2]d}
        count: {type: integer, minimum: 0, maximum: 9, examples: [12]}
        shut: {type: object, additionalProperties: false, properties: {a: {type: string}}}
        sent_at: {type: string}
        typo: {type: strnig}
  urn:babel:everywhere:same:
    summary: Defined in every file.
    data: {properties: {n: {type: integer, minimum: 0, maximum: 9}}}
`

var firstURN = regexp.MustCompile(`(?m)^  urn:babel:([a-z0-9-]+):`)

// writeFindings writes the synthetic registry of n URNs under dir with findingsBlock
// added to each of its files, and returns the number of files changed.
func writeFindings(t *testing.T, dir string, n int) int {
	t.Helper()
	changed := 0
	files := synth.Files(synth.Options{Messages: n})
	for _, name := range slices.Sorted(maps.Keys(files)) {
		src := string(files[name])
		if m := firstURN.FindStringSubmatch(src); m != nil {
			src = strings.Replace(src, "\nmessages:\n", "\nmessages:\n"+fmt.Sprintf(findingsBlock, m[1], changed), 1)
			changed++
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return changed
}

// TestReportsIndependentOfGOMAXPROCS: the registry loader parses and checks files and
// messages on GOMAXPROCS goroutines; what check and diff print must not depend on
// it (issue 22). check runs on a 300-URN registry (15 files) with findings of nine
// rules in every file, also a format error, diff on a pull request that changes some
// of its files and on a rejected registry, with GOMAXPROCS 1 and 8 and once more with
// 8; every output must be byte-identical to the first, and check must report every
// finding in the one run.
func TestReportsIndependentOfGOMAXPROCS(t *testing.T) {
	const n = 300
	bad, old, next := t.TempDir(), t.TempDir(), t.TempDir()
	files := writeFindings(t, bad, n)
	for dir, evolved := range map[string]bool{old: false, next: true} {
		for name, data := range synth.Files(synth.Options{Messages: n, Evolve: evolved}) {
			if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	commands := []struct {
		name string
		exit int
		args []string
	}{
		{"check", ExitFindings, []string{"check", "-r", bad}},
		{"check-json", ExitFindings, []string{"check", "-r", bad, "--format", "json"}},
		{"diff", ExitFindings, []string{"diff", "-r", next, "--against", old}},
		{"diff-markdown", ExitFindings, []string{"diff", "-r", next, "--against", old, "--format", "markdown"}},
		{"diff-rejected", ExitFindings, []string{"diff", "-r", bad, "--against", old, "--format", "json"}},
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	first := map[string]string{}
	for _, procs := range []int{1, 8, 8} {
		runtime.GOMAXPROCS(procs)
		for _, c := range commands {
			code, stdout, stderr := run(t, c.args...)
			if code != c.exit {
				t.Fatalf("GOMAXPROCS %d: bqgen %s: exit %d, want %d\n%s", procs, strings.Join(c.args, " "), code, c.exit, stderr)
			}
			out := stdout + "\x00" + stderr
			if want, ok := first[c.name]; !ok {
				first[c.name] = out
			} else if out != want {
				t.Errorf("GOMAXPROCS %d: %s printed something else than with GOMAXPROCS 1:\n%s", procs, c.name, firstDifference(out, want))
			}
		}
	}
	// Every finding of every file, in the one run: each file's block has one of each
	// of these rules (BQ013 for its copy of urn:babel:everywhere:same but the first).
	perFile := map[string]int{"BQ002": 1, "BQ020": 1, "BQ024": 1, "BQ025": 1, "BQ031": 1, "BQ032": 1, "BQ033": 1, "BQ034": 1}
	text := first["check"]
	for rule, k := range perFile {
		if got := strings.Count(text, " "+rule+": "); got != k*files {
			t.Errorf("check reports %s %d times, want %d (once per file)", rule, got, k*files)
		}
	}
	if got := strings.Count(text, " BQ013: "); got != files-1 {
		t.Errorf("check reports BQ013 %d times, want %d", got, files-1)
	}
}

// firstDifference shows where got and want first differ, with a line of context.
func firstDifference(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < min(len(g), len(w)); i++ {
		if g[i] != w[i] {
			return fmt.Sprintf("line %d:\n got  %q\n want %q", i+1, g[i], w[i])
		}
	}
	return fmt.Sprintf("%d lines, want %d", len(g), len(w))
}
