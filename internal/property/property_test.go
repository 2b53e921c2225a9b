package property

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"go/format"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	js "github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/babelqueue/bqgen/internal/agreement"
	"github.com/babelqueue/bqgen/internal/emit/golang"
	"github.com/babelqueue/bqgen/internal/emit/jsonschema"
	"github.com/babelqueue/bqgen/internal/gomodtest"
	"github.com/babelqueue/bqgen/internal/gonames"
	"github.com/babelqueue/bqgen/internal/model"
	"github.com/babelqueue/bqgen/internal/synth"
	"github.com/babelqueue/bqgen/registry"
)

// Environment knobs (the defaults keep `go test ./...` well under a minute):
//
//	BQGEN_PROPERTY_REGISTRIES  number of random registries (default 3)
//	BQGEN_PROPERTY_SEED        first seed (default 1)
//	BQGEN_PROPERTY_MUTATIONS   random mutations per message (default 40)
//	BQGEN_PROPERTY_MESSAGES    messages per registry before .v2 successors (default 6)
//	BQGEN_PROPERTY_ADVERSARIAL adversarial registries (default 2; adversarial_test.go)
//	BQGEN_PROPERTY_CHANGES     adversarial changes tried per registry (default 150 of ~460)
func envInt(t *testing.T, name string, def int) int {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		t.Fatalf("%s=%q: want a non-negative integer", name, s)
	}
	return n
}

type set struct {
	name  string // the tree's directory in the module
	seed  uint64
	reg   *model.Registry
	names *gonames.Names
	// buildOnly: the set is built, vetted and listed, but has no corpus.
	buildOnly bool
}

// TestRandomRegistries is the property: for random valid registries, and for
// adversarial ones (adversarial_test.go: names and texts drawn from Go keywords and
// predeclared identifiers, every runtime identifier, Windows device names, directive
// lines, names equal after case folding or initialisms, texts and keys of unusual
// width or shape (wide, combining, zero-width, tabs, `[*]`), each kept when `check` still
// passes), the generated packages compile and pass go vet (`go build ./...`, `go vet
// ./...`) and `go list ./...` lists every one of them; on every instance (the agreement corpus of the
// model plus random mutations) the generated decoder (UnmarshalJSON) and jsonschema/v6
// on the emitted 2020-12 data schema give the same verdict, equal to the corpus'
// expectation where it has one; and Router.Dispatch of an envelope carrying the
// instance agrees with the decoder (nil, or ErrInvalidData; ErrMalformedEnvelope when
// the instance is not an object).
func TestRandomRegistries(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped with -short: builds generated packages")
	}
	start := time.Now()
	nreg := envInt(t, "BQGEN_PROPERTY_REGISTRIES", 3)
	first := envInt(t, "BQGEN_PROPERTY_SEED", 1)
	nmut := envInt(t, "BQGEN_PROPERTY_MUTATIONS", 40)
	nmsg := envInt(t, "BQGEN_PROPERTY_MESSAGES", 6)
	nadv := envInt(t, "BQGEN_PROPERTY_ADVERSARIAL", 2)
	nchg := envInt(t, "BQGEN_PROPERTY_CHANGES", 150)

	var sets []set
	var corpus []agreement.Instance
	var kept, rejected int
	for i := 0; i < nreg+nadv; i++ {
		seed := uint64(first + i)
		name := fmt.Sprintf("r%d", seed)
		var src []byte
		var reg *model.Registry
		if i < nreg {
			src = synth.Random(synth.RandomOptions{Seed: seed, Messages: nmsg, Package: name})
			r, diags, err := registry.LoadFiles(context.Background(), map[string][]byte{name + ".yaml": src})
			if err != nil || r == nil || diags.HasErrors() {
				t.Fatalf("seed %d does not load cleanly (err %v): %v\n%s", seed, err, diags, src)
			}
			reg = r
		} else {
			name = fmt.Sprintf("a%d", seed)
			var k, r int
			src, reg, k, r = adversarial(t, seed, name, nchg)
			kept, rejected = kept+k, rejected+r
		}
		names, colls := gonames.Plan(reg, reg.GoPackage)
		if len(colls) > 0 {
			t.Fatalf("seed %d: Go name collisions %+v", seed, colls)
		}
		if i >= nreg {
			// The adversarial registries are about names and texts: they are
			// built, vetted and listed, not run.
			sets = append(sets, set{name: name, seed: seed, reg: reg, names: names, buildOnly: true})
			continue
		}
		c, err := agreement.Corpus(name, reg)
		if err != nil {
			t.Fatalf("seed %d: corpus: %v\n%s", seed, err, src)
		}
		rng := rand.New(rand.NewPCG(seed, 0x6d757461)) // "muta"
		for _, m := range reg.Messages {
			var valid [][]byte
			for _, in := range c {
				if in.URN == m.URN && in.Expect == agreement.Valid {
					valid = append(valid, in.JSON)
				}
			}
			if len(valid) == 0 {
				t.Fatalf("seed %d: no valid instance of %s", seed, m.URN)
			}
			seen := map[string]bool{}
			for _, in := range c {
				seen[in.URN+" "+string(in.JSON)] = true
			}
			for k := 0; k < nmut; k++ {
				b := valid[rng.IntN(len(valid))]
				for r := rng.IntN(3); r >= 0; r-- { // 1 to 3 mutations
					b = Mutate(rng, b)
				}
				if seen[m.URN+" "+string(b)] {
					continue
				}
				seen[m.URN+" "+string(b)] = true
				c = append(c, agreement.Instance{Set: name, URN: m.URN, Name: fmt.Sprintf("random #%d", k), JSON: b})
			}
		}
		corpus = append(corpus, c...)
		sets = append(sets, set{name: name, seed: seed, reg: reg, names: names})
	}

	goV := runGenerated(t, sets, corpus)
	tGo := time.Since(start)
	jsV := runJSONSchema(t, sets, corpus)

	var agree, inexact, overflow, valid int
	for i, in := range corpus {
		g, j := goV[i], jsV[i]
		if OverflowsDouble(in.JSON) {
			// docs/decisions.md#non-finite-numbers: a number beyond a double makes the body malformed (Dispatch), a
			// syntax error at $ for UnmarshalJSON; jsonschema/v6 is not compared.
			if g.decode != "invalid" || g.dispatch != "malformed" {
				t.Errorf("a number beyond a double: UnmarshalJSON %s (want invalid), Dispatch %s (want malformed): %s %s %s: %s",
					g.decode, g.dispatch, in.Set, in.URN, in.Name, in.JSON)
			}
			overflow++
			continue
		}
		if in.JSON[0] != '{' {
			// data that is not an object: the envelope is malformed (docs/contract.md#consumer-rules).
			if g.dispatch != "malformed" {
				t.Errorf("Router.Dispatch (%s) of data that is not an object, want malformed: %s %s %s: %s",
					g.dispatch, in.Set, in.URN, in.Name, in.JSON)
			}
		} else if g.decode != g.dispatch {
			t.Errorf("Router.Dispatch (%s) and UnmarshalJSON (%s) disagree on %s %s %s: %s",
				g.dispatch, g.decode, in.Set, in.URN, in.Name, in.JSON)
		}
		goOK := g.decode == "ok"
		if goOK == j && (in.Expect == agreement.Unknown || (in.Expect == agreement.Valid) == goOK) {
			agree++
			if goOK {
				valid++
			}
			continue
		}
		if goOK != j && !ExactDoubles(in.JSON) {
			// Known: the Go decoder compares number bounds as float64 (docs/agreement.md,
			// roundingIntoRange / roundingOutOfRange).
			inexact++
			continue
		}
		t.Errorf("DISAGREEMENT on %s %s (seed %d) %s\n  instance:      %s\n  go:            %s\n  jsonschema/v6: %v\n  expected:      %v",
			in.Set, in.URN, sets[indexOf(sets, in.Set)].seed, in.Name, in.JSON, g.decode, j, in.Expect)
	}
	var urns, advURNs int
	for _, s := range sets {
		if s.buildOnly {
			advURNs += len(s.reg.Messages)
		} else {
			urns += len(s.reg.Messages)
		}
	}
	t.Logf("%d adversarial registries (%d URNs): %d changes kept, %d rejected by check; built, vetted, listed", nadv, advURNs, kept, rejected)
	t.Logf("%d random registries (seeds %d..%d, %d URNs): go vet and go build clean in %v; %d instances, %d agree (%d valid), %d not exact doubles where Go still rounds (known), %d with a number beyond a double (malformed, docs/decisions.md#non-finite-numbers), total %v",
		nreg, first, first+nreg-1, urns, tGo.Round(time.Millisecond), len(corpus), agree, valid, inexact, overflow, time.Since(start).Round(time.Millisecond))
}

func indexOf(sets []set, name string) int {
	for i, s := range sets {
		if s.name == name {
			return i
		}
	}
	return 0
}

// verdict is what the generated program printed for one instance: "ok" or the error
// class, for the decoder and for the router.
type verdict struct {
	decode, dispatch string
}

// mainTemplate reads {"key","urn","data"} lines and prints, per line, the verdict
// of UnmarshalJSON and of Router.Dispatch on an envelope carrying the data.
const mainTemplate = `// Command property prints the generated decoder's and router's verdicts.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"

%s)

type line struct {
	Key  string          ` + "`json:\"key\"`" + `
	URN  string          ` + "`json:\"urn\"`" + `
	Data json.RawMessage ` + "`json:\"data\"`" + `
}

type target struct {
	decode   func([]byte) error
	router   interface{ Dispatch(context.Context, []byte) error }
	invalid, malformed error
}

func class(err error, t target) string {
	switch {
	case err == nil:
		return "ok"
	case errors.Is(err, t.invalid):
		return "invalid"
	case errors.Is(err, t.malformed):
		return "malformed"
	}
	return "other: " + err.Error()
}

func main() {
	targets := map[string]target{}
%s
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
		t, ok := targets[l.Key]
		if !ok {
			fmt.Fprintln(os.Stderr, "no target for", l.Key)
			os.Exit(2)
		}
		dec := class(t.decode(l.Data), t)
		env := append(append([]byte("{\"job\":"), mustJSON(l.URN)...), ",\"trace_id\":\"t\",\"data\":"...)
		env = append(append(env, l.Data...), ",\"meta\":{\"schema_version\":1}}"...)
		dis := class(t.router.Dispatch(context.Background(), env), t)
		fmt.Fprintf(out, "%%s %%s\n", dec, dis)
	}
	if err := in.Err(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
}

func mustJSON(s string) []byte {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return b
}
`

// runGenerated writes every set's generated package into a temporary module with a
// main program, runs go vet and go build there, and runs the program on the corpus.
func runGenerated(t *testing.T, sets []set, corpus []agreement.Instance) []verdict {
	t.Helper()
	mod := gomodtest.New(t, "example.com/property")
	var imports, targets strings.Builder
	wantPkgs := []string{"example.com/property/cmd/property"}
	for _, s := range sets {
		root := "example.com/property/" + s.name
		files, err := golang.Emit(s.reg, s.names, golang.Options{ImportPath: root})
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		for _, f := range files {
			// The descriptor tables are written as text, not through go/format
			// (internal/emit/golang, descText): random schemas must keep them gofmt'd.
			if formatted, err := format.Source(f.Content); err != nil || !bytes.Equal(formatted, f.Content) {
				t.Errorf("%s/%s is not gofmt-stable (err %v)", s.name, f.Name, err)
			}
			mod.Write(s.name+"/"+f.Name, f.Content)
		}
		wantPkgs = append(wantPkgs, root, root+"/"+gonames.BqrtDir)
		for _, dir := range sortedContexts(s.names) {
			wantPkgs = append(wantPkgs, root+"/"+dir)
		}
		if s.buildOnly {
			continue
		}
		fmt.Fprintf(&imports, "\t%s %q\n", s.name, root)
		imported := map[string]bool{}
		fmt.Fprintf(&targets, "\t{\n\t\tr := %s.NewRouter()\n", s.name)
		for _, m := range s.reg.Messages {
			id := s.names.Messages[m]
			alias := s.name + "_" + id.Pkg.Name
			if !imported[alias] {
				imported[alias] = true
				fmt.Fprintf(&imports, "\t%s %q\n", alias, root+"/"+id.Pkg.Dir)
			}
			fmt.Fprintf(&targets, "\t\t%[1]s.Handle(r, func(context.Context, %[1]s.Message[%[2]s.%[3]s]) error { return nil })\n", s.name, alias, id.Name)
			fmt.Fprintf(&targets, "\t\ttargets[%q] = target{func(b []byte) error { var x %s.%s; return x.UnmarshalJSON(b) }, r, %s.ErrInvalidData, %[4]s.ErrMalformedEnvelope}\n",
				s.name+" "+m.URN, alias, id.Name, s.name)
		}
		targets.WriteString("\t}\n")
	}
	mod.Write("cmd/property/main.go", fmt.Appendf(nil, mainTemplate, imports.String(), targets.String()))
	mod.Go("vet", "./...")
	mod.Go("build", "./...")
	// A package a build constraint excludes drops out of ./... silently: go vet and
	// go build of ./... pass without it.
	sort.Strings(wantPkgs)
	if got := strings.Fields(string(mod.Go("list", "./..."))); !slices.Equal(got, wantPkgs) {
		t.Errorf("go list ./... =\n%q\nwant every generated package\n%q", got, wantPkgs)
	}
	bin := mod.Build("./cmd/property")
	var lines bytes.Buffer
	for _, in := range corpus {
		k, _ := json.Marshal(in.Set + " " + in.URN)
		u, _ := json.Marshal(in.URN)
		fmt.Fprintf(&lines, `{"key":%s,"urn":%s,"data":%s}`+"\n", k, u, in.JSON)
	}
	run := exec.Command(bin)
	run.Stdin = &lines
	var stderr bytes.Buffer
	run.Stderr = &stderr
	out, err := run.Output()
	if err != nil {
		t.Fatalf("generated program: %v\n%s", err, stderr.Bytes())
	}
	var res []verdict
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		dec, dis, _ := strings.Cut(sc.Text(), " ")
		res = append(res, verdict{dec, dis})
	}
	if len(res) != len(corpus) {
		t.Fatalf("generated program gave %d verdicts for %d instances", len(res), len(corpus))
	}
	return res
}

// runJSONSchema validates every instance with jsonschema/v6 (format assertion on)
// against its URN's emitted 2020-12 data schema.
func runJSONSchema(t *testing.T, sets []set, corpus []agreement.Instance) []bool {
	t.Helper()
	c := js.NewCompiler()
	c.AssertFormat()
	compiled := map[string]*js.Schema{}
	for _, s := range sets {
		if s.buildOnly {
			continue
		}
		files, err := jsonschema.Emit(s.reg, jsonschema.Options{Draft: jsonschema.Draft2020, BaseID: "urn:babel:property:" + s.name + ":"})
		if err != nil {
			t.Fatal(err)
		}
		byName := map[string][]byte{}
		for _, f := range files {
			byName[f.Name] = f.Content
		}
		for _, m := range s.reg.Messages {
			doc, err := js.UnmarshalJSON(bytes.NewReader(byName[jsonschema.DataFile(m.URN)]))
			if err != nil {
				t.Fatalf("%s %s: %v", s.name, m.URN, err)
			}
			id := doc.(map[string]any)["$id"].(string)
			if err := c.AddResource(id, doc); err != nil {
				t.Fatal(err)
			}
			sch, err := c.Compile(id)
			if err != nil {
				t.Fatalf("%s %s: the data schema does not compile in jsonschema/v6: %v", s.name, m.URN, err)
			}
			compiled[s.name+" "+m.URN] = sch
		}
	}
	out := make([]bool, len(corpus))
	for i, in := range corpus {
		v, err := js.UnmarshalJSON(bytes.NewReader(in.JSON))
		if err != nil {
			t.Fatalf("jsonschema/v6 cannot read %s: %v", in.JSON, err)
		}
		out[i] = compiled[in.Set+" "+in.URN].Validate(v) == nil
	}
	return out
}
