package agreement

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	js "github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/babelqueue/bqgen/internal/ecmare"
	"github.com/babelqueue/bqgen/internal/emit/golang"
	"github.com/babelqueue/bqgen/internal/emit/jsonschema"
	"github.com/babelqueue/bqgen/internal/emit/jsonschema/fixture"
	"github.com/babelqueue/bqgen/internal/gomodtest"
	"github.com/babelqueue/bqgen/internal/gonames"
	"github.com/babelqueue/bqgen/internal/model"
	"github.com/babelqueue/bqgen/internal/nodetools"
	"github.com/babelqueue/bqgen/internal/validate"
	"github.com/babelqueue/bqgen/registry"
)

// registrySet is one registry of the corpus; name is also its Go package name.
type registrySet struct {
	name string
	reg  *model.Registry
}

func load(t *testing.T, path string) *model.Registry {
	t.Helper()
	reg, diags, err := registry.Load(context.Background(), path)
	if err != nil || reg == nil || diags.HasErrors() {
		t.Fatalf("%s does not load cleanly (err %v): %v", path, err, diags)
	}
	return reg
}

// registries are the models the corpus is built from: the example registry, the
// hand-built fixture of internal/emit/jsonschema (every type and option) and
// testdata/extra.yaml (the constructs both leave out).
func registries(t *testing.T) []registrySet {
	return []registrySet{
		{"examples", load(t, filepath.Join("..", "..", "examples", "registry.yaml"))},
		{"fixture", fixture.Registry()},
		{"extra", load(t, filepath.Join("testdata", "extra.yaml"))},
	}
}

// validators, in the order of a verdict vector.
var validators = []string{"go", "js2020", "js7", "ajv2020", "ajv7"}

const (
	iGo = iota
	iJS2020
	iJS7
	iAjv2020
	iAjv7
)

// verdicts are one instance's results, in the order of validators.
type verdicts [5]bool

func (v verdicts) String() string {
	parts := make([]string, len(v))
	for i, ok := range v {
		w := "invalid"
		if ok {
			w = "valid"
		}
		parts[i] = validators[i] + "=" + w
	}
	return strings.Join(parts, " ")
}

// TestAgreement runs the corpus through the generated Go decoder, jsonschema/v6 and
// ajv (each on the 2020-12 data schema and its draft-07 copy) and requires one verdict
// per instance, equal to the generator's expectation where it has one. ajv is not
// compared on instances outside AjvDomain: a number that is not an exact double or is
// beyond 2^53 (docs/decisions.md#agreement-domain). Disagreements listed in knownDisagreements are expected,
// exactly. bqgen validate must report the generated decoder's problems on every
// instance, path for path and word for word (sameProblems). With -v it logs the
// summary: instances, agreeing, exempt, known.
func TestAgreement(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped with -short: builds a generated module and runs node")
	}
	sets := registries(t)
	var corpus []Instance
	perSet := map[string]int{}
	for _, s := range sets {
		c, err := Corpus(s.name, s.reg)
		if err != nil {
			t.Fatal(err)
		}
		perSet[s.name] = len(c)
		corpus = append(corpus, c...)
	}

	// The emitted data schemas of every set, by URN.
	schemas20 := map[string][]byte{} // key: set + " " + urn
	schemas7 := map[string][]byte{}
	for _, s := range sets {
		files, err := jsonschema.Emit(s.reg, jsonschema.Options{Draft: jsonschema.Draft2020, BaseID: "urn:babel:agreement:" + s.name + ":"})
		if err != nil {
			t.Fatal(err)
		}
		byName := map[string][]byte{}
		for _, f := range files {
			byName[f.Name] = f.Content
		}
		for _, m := range s.reg.Messages {
			schemas20[s.name+" "+m.URN] = byName[jsonschema.DataFile(m.URN)]
			schemas7[s.name+" "+m.URN] = byName[jsonschema.Draft7DataFile(m.URN)]
		}
	}

	// The validators are independent: each runs in a parallel subtest (the generated
	// decoder's build, jsonschema/v6 and node overlap); the group returns when all are done.
	var (
		goV            []goVerdict
		js20, js7      []bool
		ajv            [][2]bool
		tGo, tJS, tAjv time.Duration
	)
	timed := func(d *time.Duration, f func()) {
		start := time.Now()
		f()
		*d = time.Since(start)
	}
	t.Run("validators", func(t *testing.T) {
		t.Run("go", func(t *testing.T) {
			t.Parallel()
			timed(&tGo, func() { goV = runGo(t, sets, corpus) })
		})
		t.Run("jsonschema", func(t *testing.T) {
			t.Parallel()
			timed(&tJS, func() { js20, js7 = runJSONSchema(t, schemas20, corpus), runJSONSchema(t, schemas7, corpus) })
		})
		t.Run("ajv", func(t *testing.T) {
			t.Parallel()
			timed(&tAjv, func() { ajv = runAjv(t, schemas20, schemas7, corpus) })
		})
	})
	if t.Failed() {
		return
	}
	t.Logf("timing (in parallel): go %v, jsonschema/v6 %v, ajv %v", tGo.Round(time.Millisecond), tJS.Round(time.Millisecond), tAjv.Round(time.Millisecond))

	type knownEntry struct{ class, verdicts string }
	known := map[string]knownEntry{}
	for _, c := range knownDisagreements {
		for _, key := range c.Keys {
			if _, dup := known[key]; dup {
				t.Errorf("knownDisagreements lists %q twice", key)
			}
			known[key] = knownEntry{c.Class, c.Verdicts}
		}
	}
	sameProblems(t, sets, corpus, goV)
	var agree, exempt, exemptAjvAgrees, knownSeen int
	for i, in := range corpus {
		v := verdicts{goV[i].ok, js20[i], js7[i], ajv[i][0], ajv[i][1]}
		ex := !AjvDomain(in.JSON)
		problem := disagreement(v, ex, in.Expect)
		k, listed := known[in.Key()]
		switch {
		case problem == "" && listed:
			t.Errorf("known disagreement (%s) is gone; remove it from knownDisagreements: %s\n  instance: %s\n  verdicts: %v", k.class, in.Key(), in.JSON, v)
		case problem == "":
			if ex {
				exempt++
				if v[iAjv2020] == v[iGo] && v[iAjv7] == v[iGo] {
					exemptAjvAgrees++
				}
			} else {
				agree++
			}
		case listed && k.verdicts == v.String():
			knownSeen++
		case listed:
			t.Errorf("known disagreement (%s) changed: %s\n  instance: %s\n  verdicts: %v (listed: %s)\n  go error: %s", k.class, in.Key(), in.JSON, v, k.verdicts, goV[i].err)
		default:
			t.Errorf("DISAGREEMENT (%s): %s\n  urn:      %s (%s)\n  instance: %s\n  verdicts: %v (expected %v, ajv exempt %v)\n  go error: %s\n  key:      %q",
				problem, in.Name, in.URN, in.Set, in.JSON, v, in.Expect, ex, goV[i].err, in.Key())
		}
	}
	keys := map[string]bool{}
	for _, in := range corpus {
		if keys[in.Key()] {
			t.Errorf("two instances named %q", in.Key())
		}
		keys[in.Key()] = true
	}
	for key, k := range known {
		if !keys[key] {
			t.Errorf("knownDisagreements (%s) lists %q, which the corpus no longer has", k.class, key)
		}
	}
	var sizes []string
	for _, s := range sets {
		sizes = append(sizes, fmt.Sprintf("%s %d", s.name, perSet[s.name]))
	}
	t.Logf("agreement: %d instances (%s), %d agree, %d exempt (ajv not compared: a number beyond 2^53 or not an exact double; Go and jsonschema/v6 agree, ajv too on %d), %d known disagreements",
		len(corpus), strings.Join(sizes, ", "), agree, exempt, exemptAjvAgrees, knownSeen)
}

// disagreement describes what is wrong with v, or returns "".
func disagreement(v verdicts, exempt bool, exp Expect) string {
	compared := v[:]
	if exempt {
		compared = v[:iAjv2020]
	}
	for _, ok := range compared[1:] {
		if ok != compared[0] {
			return "validators disagree"
		}
	}
	if exp != Unknown && v[iGo] != (exp == Valid) {
		return "all validators say " + map[bool]string{true: "valid", false: "invalid"}[v[iGo]] + ", the generator expected " + exp.String()
	}
	return ""
}

// ---- the generated Go decoder ------------------------------------------------------

type goVerdict struct {
	ok  bool
	err string
	// problems are the ValidationErrors as "path: message", sorted
	problems []string
}

// corpusLine is one line of the corpus file the Go and node runners read.
type corpusLine struct {
	Key  string          `json:"key"` // set + " " + urn
	Data json.RawMessage `json:"data"`
}

func corpusLines(corpus []Instance) []byte {
	var b bytes.Buffer
	for _, in := range corpus {
		// Written by hand: json.Marshal would re-escape the instance (<, U+2028, …).
		b.WriteString(`{"key":`)
		b.Write(quote(in.Set + " " + in.URN))
		b.WriteString(`,"data":`)
		b.Write(in.JSON)
		b.WriteString("}\n")
	}
	return b.Bytes()
}

// mainTemplate reads corpus lines on stdin and prints one verdict line per instance,
// using the generated data struct's UnmarshalJSON (strict decode + Validate).
const mainTemplate = `// Command agree prints the generated decoder's verdict on each corpus line.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"sort"

%s)

type line struct {
	Key  string          ` + "`json:\"key\"`" + `
	Data json.RawMessage ` + "`json:\"data\"`" + `
}

var decoders = map[string]func([]byte) error{
%s}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<26)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for in.Scan() {
		var l line
		if err := json.Unmarshal(in.Bytes(), &l); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		dec := decoders[l.Key]
		if dec == nil {
			fmt.Fprintln(os.Stderr, "no decoder for", l.Key)
			os.Exit(2)
		}
		var r struct {
			Msg      string   ` + "`json:\"msg\"`" + `
			Problems []string ` + "`json:\"problems\"`" + `
		}
		if err := dec(l.Data); err != nil {
			r.Msg = err.Error()
			if r.Msg == "" {
				r.Msg = "(empty error)"
			}
			// a ValidationErrors (each registry has its own runtime: found by shape)
			for e := err; e != nil; e = errors.Unwrap(e) {
				if reflect.TypeOf(e).Kind() == reflect.Slice {
					var ves []struct{ Path, Message string }
					b, _ := json.Marshal(e)
					json.Unmarshal(b, &ves)
					for _, ve := range ves {
						r.Problems = append(r.Problems, ve.Path+": "+ve.Message)
					}
					sort.Strings(r.Problems)
					break
				}
			}
		}
		b, _ := json.Marshal(r)
		fmt.Fprintf(out, "%%s\n", b)
	}
	if err := in.Err(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
}
`

// runGo writes the generated package of every set into a temporary module with a main
// program, builds it and runs it on the corpus.
func runGo(t *testing.T, sets []registrySet, corpus []Instance) []goVerdict {
	t.Helper()
	mod := gomodtest.New(t, "example.com/agree")
	var imports, decoders strings.Builder
	for _, s := range sets {
		names, colls := gonames.Plan(s.reg, s.name)
		if len(colls) > 0 {
			t.Fatalf("%s: Go name collisions: %+v", s.name, colls)
		}
		root := "example.com/agree/" + s.name
		files, err := golang.Emit(s.reg, names, golang.Options{ImportPath: root})
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		for _, f := range files {
			mod.Write(s.name+"/"+f.Name, f.Content)
		}
		imported := map[string]bool{}
		for _, m := range s.reg.Messages {
			id := names.Messages[m]
			alias := s.name + "_" + id.Pkg.Name
			if !imported[alias] {
				imported[alias] = true
				fmt.Fprintf(&imports, "\t%s %q\n", alias, root+"/"+id.Pkg.Dir)
			}
			fmt.Fprintf(&decoders, "\t%q: func(b []byte) error { var x %s.%s; return x.UnmarshalJSON(b) },\n",
				s.name+" "+m.URN, alias, id.Name)
		}
	}
	mod.Write("cmd/agree/main.go", fmt.Appendf(nil, mainTemplate, imports.String(), decoders.String()))
	run := exec.Command(mod.Build("./cmd/agree"))
	run.Stdin = bytes.NewReader(corpusLines(corpus))
	var stderr bytes.Buffer
	run.Stderr = &stderr
	out, err := run.Output()
	if err != nil {
		t.Fatalf("generated decoder program: %v\n%s", err, stderr.Bytes())
	}
	var res []goVerdict
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		var r struct {
			Msg      string   `json:"msg"`
			Problems []string `json:"problems"`
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("generated decoder program printed %q: %v", sc.Bytes(), err)
		}
		res = append(res, goVerdict{ok: r.Msg == "", err: r.Msg, problems: r.Problems})
	}
	if len(res) != len(corpus) {
		t.Fatalf("generated decoder program gave %d verdicts for %d instances", len(res), len(corpus))
	}
	return res
}

// sameProblems requires bqgen validate (--urn) to report, about every instance, the
// problems the generated decoder reports: the same paths and the same words (one
// catalogue of texts, docs/jsonschema.md#one-vocabulary). A number beyond the doubles,
// which validate reports at its path and the decoder as a syntax error at $, is left out.
func sameProblems(t *testing.T, sets []registrySet, corpus []Instance, goV []goVerdict) {
	vs := map[string]*validate.Validator{}
	for _, s := range sets {
		v, err := validate.New(s.reg)
		if err != nil {
			t.Fatal(err)
		}
		vs[s.name] = v
	}
	differ, skipped := 0, 0
	for i, in := range corpus {
		ps, err := vs[in.Set].Data(in.URN, in.JSON)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		malformed := false
		for _, p := range ps {
			malformed = malformed || p.Kind == validate.Malformed
			// without validate's own hint on values that may be protected
			got = append(got, p.Path+": "+strings.Replace(strings.TrimSuffix(p.Message, " (an x-gdpr-sensitive value: if it is protected, validate with --protected)"),
				"; if it is protected, validate with --protected)", ")", 1))
		}
		if malformed {
			skipped++
			continue
		}
		sort.Strings(got)
		if strings.Join(got, "\n") != strings.Join(goV[i].problems, "\n") {
			if differ++; differ <= 30 {
				t.Errorf("PROBLEMS DIFFER %s\n  instance: %.300s\n  go:\n    %s\n  bqgen validate:\n    %s", in.Key(), in.JSON,
					strings.Join(goV[i].problems, "\n    "), strings.Join(got, "\n    "))
			}
		}
	}
	if differ > 0 {
		t.Errorf("%d instances with different problems", differ)
	}
	t.Logf("problems: bqgen validate and the generated decoder compared on %d instances (%d beyond the doubles left out), %d differ",
		len(corpus)-skipped, skipped, differ)
}

// ---- santhosh-tekuri/jsonschema/v6 ---------------------------------------------------

// runJSONSchema validates every instance with jsonschema/v6, format assertion on,
// against its URN's schema in schemas (keyed by set + " " + urn).
func runJSONSchema(t *testing.T, schemas map[string][]byte, corpus []Instance) []bool {
	t.Helper()
	c := js.NewCompiler()
	c.AssertFormat()
	c.UseRegexpEngine(ecmare.JSONSchemaEngine) // as bqgen validate reads pattern
	ids := map[string]string{}
	keys := make([]string, 0, len(schemas))
	for k := range schemas {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		doc, err := js.UnmarshalJSON(bytes.NewReader(schemas[k]))
		if err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		id := doc.(map[string]any)["$id"].(string)
		if err := c.AddResource(id, doc); err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		ids[k] = id
	}
	compiled := map[string]*js.Schema{}
	for _, k := range keys {
		s, err := c.Compile(ids[k])
		if err != nil {
			t.Fatalf("%s does not compile in jsonschema/v6: %v", k, err)
		}
		compiled[k] = s
	}
	out := make([]bool, len(corpus))
	for i, in := range corpus {
		v, err := js.UnmarshalJSON(bytes.NewReader(in.JSON))
		if err != nil {
			t.Fatalf("%s: jsonschema/v6 cannot read %s: %v", in.Key(), in.JSON, err)
		}
		out[i] = compiled[in.Set+" "+in.URN].Validate(v) == nil
	}
	return out
}

// ---- ajv ------------------------------------------------------------------------------

// ajvScript reads {extensions, schemas20, schemas7} on its first line and corpus lines
// after it; it prints, per instance, [valid under 2020-12, valid under draft-07].
var ajvScript = nodetools.AjvSetup + `
const fs = require("fs");
const lines = fs.readFileSync(0, "utf8").split("\n").filter(l => l !== "");
const head = JSON.parse(lines[0]);
const make = C => newAjv(C, head.extensions);
function compileAll(ajv, schemas) {
  const out = {};
  for (const [key, schema] of Object.entries(schemas)) {
    try { out[key] = ajv.compile(schema); }
    catch (e) { throw new Error(key + ": " + e.message); }
  }
  return out;
}
const v20 = compileAll(make(Ajv2020), head.schemas20);
const v7 = compileAll(make(Ajv7), head.schemas7);
const res = [];
for (const l of lines.slice(1)) {
  const {key, data} = JSON.parse(l);
  res.push([v20[key](data), v7[key](data)]);
}
process.stdout.write(JSON.stringify(res));
`

func runAjv(t *testing.T, schemas20, schemas7 map[string][]byte, corpus []Instance) [][2]bool {
	t.Helper()
	raw := func(m map[string][]byte) map[string]json.RawMessage {
		out := map[string]json.RawMessage{}
		for k, v := range m {
			out[k] = v
		}
		return out
	}
	head, err := json.Marshal(map[string]any{
		"extensions": jsonschema.Extensions,
		"schemas20":  raw(schemas20),
		"schemas7":   raw(schemas7),
	})
	if err != nil {
		t.Fatal(err)
	}
	stdin := append(append(head, '\n'), corpusLines(corpus)...)
	out := nodetools.RunNode(t, ajvScript, stdin)
	var res [][2]bool
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("ajv output: %v\n%.500s", err, out)
	}
	if len(res) != len(corpus) {
		t.Fatalf("ajv gave %d verdicts for %d instances", len(res), len(corpus))
	}
	return res
}
