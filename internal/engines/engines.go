// Package engines gives Go tests the other readers of bqgen's output: Node's RegExp
// (through internal/nodetools), Debian's
// Python 3 (/usr/bin/python3, with its python3-yaml and python3-jsonschema modules) and
// PHP's command-line interpreter (php-cli, whose preg functions are PCRE2). .ci/run
// installs both; a test that needs one fails when it is missing under CI (CI=true) and
// is skipped on a developer machine without it.
//
// Each helper runs one interpreter process for a whole batch (a script on stdin reading
// JSON lines), never one per string.
package engines

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/babelqueue/bqgen/internal/nodetools"
	"go.yaml.in/yaml/v3"
)

// PythonPath is Debian's Python 3, whose modules (yaml, jsonschema) come from Debian's
// packages; a python3 earlier on PATH may be another installation without them.
const PythonPath = "/usr/bin/python3"

// missing fails the test under CI and skips it elsewhere.
func missing(t testing.TB, what string) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf("%s is missing; .ci/run installs it", what)
	}
	t.Skipf("%s is missing (CI fails here; .ci/run installs it)", what)
}

// Python returns PythonPath after checking that it imports every module of modules
// (e.g. "yaml"); see missing for a machine without them.
func Python(t testing.TB, modules ...string) string {
	t.Helper()
	if _, err := os.Stat(PythonPath); err != nil {
		missing(t, PythonPath+" (Debian's python3)")
	}
	for _, m := range modules {
		if err := exec.Command(PythonPath, "-c", "import "+m).Run(); err != nil {
			missing(t, "the Python module "+m+" (Debian's python3-"+m+")")
		}
	}
	return PythonPath
}

// PHP returns the path of php (Debian's php-cli); see missing for a machine without it.
func PHP(t testing.TB) string {
	t.Helper()
	p, err := exec.LookPath("php")
	if err != nil {
		missing(t, "php (Debian's php-cli)")
	}
	return p
}

// Run runs the interpreter bin with the script given on its command line (-c for
// Python, -r for PHP), writes each element of in as one JSON line on its stdin and
// returns the JSON value of each output line, decoded into out (a pointer to a slice).
func Run(t testing.TB, bin, flag, script string, in []any, out any) {
	t.Helper()
	var stdin bytes.Buffer
	enc := json.NewEncoder(&stdin)
	for _, v := range in {
		if err := enc.Encode(v); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(bin, flag, script)
	cmd.Stdin = &stdin
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	got, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\n%s", bin, err, stderr.String())
	}
	var lines []string
	for _, l := range strings.Split(string(got), "\n") {
		if l != "" {
			lines = append(lines, l)
		}
	}
	if err := json.Unmarshal([]byte("["+strings.Join(lines, ",")+"]"), out); err != nil {
		t.Fatalf("%s: reading its output: %v\n%.500s", bin, err, got)
	}
}

// pyMatch answers, for each line {"p": pattern, "s": [strings]}, the list of
// re.search verdicts (python-jsonschema's reading of pattern), or the error text when
// the pattern does not compile.
const pyMatch = `
import json, re, sys
for line in sys.stdin:
    q = json.loads(line)
    try:
        r = re.compile(q["p"])
    except Exception as e:
        print(json.dumps({"err": str(e)}))
        continue
    print(json.dumps({"m": [r.search(s) is not None for s in q["s"]]}))
`

// phpMatch does the same with preg_match and the u flag, the pattern between ~
// delimiters with ~ escaped, as PHP's JSON Schema validators wrap it.
const phpMatch = `
while (($line = fgets(STDIN)) !== false) {
    $q = json_decode($line, true);
    $re = '~' . str_replace('~', '\~', $q['p']) . '~u';
    $m = [];
    $bad = false;
    foreach ($q['s'] as $s) {
        $r = @preg_match($re, $s);
        if ($r === false) { $bad = true; break; }
        $m[] = $r === 1;
    }
    if ($bad) { echo json_encode(['err' => preg_last_error_msg() ?: 'compile error']), "\n"; continue; }
    echo json_encode(['m' => $m]), "\n";
}
`

// Verdicts is one engine's answer for one pattern: the match verdict per string, or
// Err when the engine rejects the pattern.
type Verdicts struct {
	M   []bool `json:"m"`
	Err string `json:"err"`
}

// Query is a pattern and the strings to search it in.
type Query struct {
	P string   `json:"p"`
	S []string `json:"s"`
}

// MatchPython searches each query's strings with Python's re (one process).
func MatchPython(t testing.TB, qs []Query) []Verdicts {
	t.Helper()
	return match(t, Python(t), "-c", pyMatch, qs)
}

// MatchPHP searches each query's strings with PHP's preg_match and the u flag (one
// process).
func MatchPHP(t testing.TB, qs []Query) []Verdicts {
	t.Helper()
	return match(t, PHP(t), "-r", phpMatch, qs)
}

func match(t testing.TB, bin, flag, script string, qs []Query) []Verdicts {
	t.Helper()
	in := make([]any, len(qs))
	for i, q := range qs {
		in[i] = q
	}
	var out []Verdicts
	Run(t, bin, flag, script, in, &out)
	if len(out) != len(qs) {
		t.Fatalf("%s answered %d of %d patterns", bin, len(out), len(qs))
	}
	for i, v := range out {
		if v.Err == "" && len(v.M) != len(qs[i].S) {
			t.Fatalf("%s answered %d of %d strings for %q", bin, len(v.M), len(qs[i].S), qs[i].P)
		}
	}
	return out
}

// String is a short form of a query for failure messages.
func (q Query) String() string { return fmt.Sprintf("%q", q.P) }

// pyYAMLLoad prints PyYAML's safe_load of each document as JSON; a key that is not a
// string (a boolean, a number, a date) and a value JSON has no form for are printed
// with a marker, so that they cannot pass for the string they were meant to be.
const pyYAMLLoad = `
import json, sys, yaml
def norm(v):
    if isinstance(v, dict):
        return {(k if isinstance(k, str) else "NOT A STRING KEY: " + repr(k)): norm(x) for k, x in v.items()}
    if isinstance(v, list):
        return [norm(x) for x in v]
    if v is None or isinstance(v, (str, bool, int, float)):
        return v
    return "NOT JSON: " + repr(v)
for line in sys.stdin:
    print(json.dumps(norm(yaml.safe_load(json.loads(line)))))
`

// PyYAML returns PyYAML's safe_load (YAML 1.1, as SnakeYAML and most AsyncAPI tooling
// outside Go read YAML) of each document, decoded from JSON (one process).
func PyYAML(t testing.TB, docs []string) []any {
	t.Helper()
	py := Python(t, "yaml")
	in := make([]any, len(docs))
	for i, d := range docs {
		in[i] = d
	}
	var out []any
	Run(t, py, "-c", pyYAMLLoad, in, &out)
	if len(out) != len(docs) {
		t.Fatalf("PyYAML read %d of %d documents", len(out), len(docs))
	}
	return out
}

// YAMLv3 is yaml.v3's reading of a document as the JSON value it holds, for
// comparison with PyYAML.
func YAMLv3(t testing.TB, doc []byte) any {
	t.Helper()
	var v any
	if err := yaml.Unmarshal(doc, &v); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// nodeMatch answers the queries (a JSON array on stdin) with new RegExp(p, "u").test,
// as ajv reads pattern.
const nodeMatch = `const qs = JSON.parse(require("fs").readFileSync(0, "utf8"));
console.log(JSON.stringify(qs.map(q => {
  let re;
  try { re = new RegExp(q.p, "u"); } catch (e) { return {err: String(e.message)}; }
  return {m: q.s.map(s => re.test(s))};
})));`

// MatchNode searches each query's strings with Node's RegExp and the u flag (ECMA-262,
// as ajv reads pattern; one process, the pinned Node of tools/node).
func MatchNode(t testing.TB, qs []Query) []Verdicts {
	t.Helper()
	in, err := json.Marshal(qs)
	if err != nil {
		t.Fatal(err)
	}
	var out []Verdicts
	if err := json.Unmarshal(nodetools.RunNode(t, nodeMatch, in), &out); err != nil {
		t.Fatal(err)
	}
	if len(out) != len(qs) {
		t.Fatalf("node answered %d of %d patterns", len(out), len(qs))
	}
	return out
}

// Engines4 are the verdicts of the four engines on the same queries.
type Engines4 struct {
	Node, Go, Python, PHP []Verdicts
}

// MatchAll searches each query in Node (ECMA-262, u flag), Go's regexp (RE2, as
// jsonschema/v6 reads pattern by default), Python's re and PHP's preg_match (u flag).
func MatchAll(t testing.TB, qs []Query) Engines4 {
	t.Helper()
	e := Engines4{Node: MatchNode(t, qs), Python: MatchPython(t, qs), PHP: MatchPHP(t, qs)}
	for _, q := range qs {
		re, err := regexp.Compile(q.P)
		if err != nil {
			e.Go = append(e.Go, Verdicts{Err: err.Error()})
			continue
		}
		v := Verdicts{}
		for _, s := range q.S {
			v.M = append(v.M, re.MatchString(s))
		}
		e.Go = append(e.Go, v)
	}
	return e
}
