package interop

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/babelqueue/bqgen/internal/agreement"
	"github.com/babelqueue/bqgen/internal/emit/jsonschema"
	"github.com/babelqueue/bqgen/internal/emit/jsonschema/fixture"
	"github.com/babelqueue/bqgen/internal/model"
	"github.com/babelqueue/bqgen/internal/nodetools"
	"github.com/babelqueue/bqgen/registry"
)

var keep = flag.String("keep", "", "write the schemas and the TypeScript under this directory instead of a temporary one")

// source is one registry whose data schemas go through quicktype.
type source struct {
	name string
	reg  *model.Registry
}

func load(t *testing.T, path string) *model.Registry {
	t.Helper()
	reg, diags, err := registry.Load(context.Background(), path)
	if err != nil || reg == nil || diags.HasErrors() {
		t.Fatalf("load %s: %v\n%v", path, err, diags)
	}
	return reg
}

// run is one quicktype invocation: every data schema of one registry in one draft.
type run struct {
	name string   // e.g. "example-7"
	srcs []string // the data schema files
	out  string   // the TypeScript file
	cmd  *exec.Cmd
	// results
	stdout, stderr bytes.Buffer
	err            error
}

// TestQuicktypeTypeScript emits the data schemas of the example registry, the agreement
// registry (internal/agreement/testdata/extra.yaml) and the hand-built fixture in both
// drafts, turns each set into TypeScript with quicktype (the full output, with the
// runtime-checking Convert class), requires quicktype to succeed silently, type-checks
// all of it with tsc --strict, and spot-checks the TypeScript for the shapes bqgen's
// mapping promises.
func TestQuicktypeTypeScript(t *testing.T) {
	start := time.Now()
	mods := nodetools.ModulesDir(t)
	quicktype := filepath.Join(mods, ".bin", "quicktype")
	tsc := filepath.Join(mods, ".bin", "tsc")
	for _, bin := range []string{quicktype, tsc} {
		if _, err := os.Stat(bin); err != nil {
			t.Fatalf("%v: run make node-tools (tools/node/package.json pins quicktype and typescript)", err)
		}
	}

	checkNodeVersion(t, 20, 19)

	sources := []source{
		{"example", load(t, "../../examples/registry.yaml")},
		{"extra", load(t, "../agreement/testdata/extra.yaml")},
		{"fixture", fixture.Registry()},
	}
	dir := *keep
	if dir == "" {
		dir = t.TempDir()
	}

	drafts := testDrafts()
	var runs []*run
	for _, src := range sources {
		for _, draft := range drafts {
			files, err := jsonschema.Emit(src.reg, jsonschema.Options{Draft: draft})
			if err != nil {
				t.Fatalf("%s: emit draft %s: %v", src.name, draft, err)
			}
			r := &run{name: src.name + "-" + draft}
			sub := filepath.Join(dir, r.name)
			if err := os.MkdirAll(sub, 0o755); err != nil {
				t.Fatal(err)
			}
			for _, m := range src.reg.Messages {
				// DataFile is in the requested draft; the *.data.draft7.schema.json copies are left out.
				want := jsonschema.DataFile(m.URN)
				found := false
				for _, f := range files {
					if f.Name == want {
						p := filepath.Join(sub, f.Name)
						if err := os.WriteFile(p, f.Content, 0o644); err != nil {
							t.Fatal(err)
						}
						r.srcs = append(r.srcs, p)
						found = true
					}
				}
				if !found {
					t.Fatalf("%s: Emit wrote no %s", r.name, want)
				}
			}
			r.out = filepath.Join(dir, r.name+".ts")
			args := []string{quicktype, "--src-lang", "schema", "--lang", "typescript", "--out", r.out}
			for _, s := range r.srcs {
				args = append(args, "--src", s)
			}
			r.cmd = nodetools.Command(t, args...)
			r.cmd.Stdout, r.cmd.Stderr = &r.stdout, &r.stderr
			runs = append(runs, r)
		}
	}

	// quicktype takes a second or two per run, mostly start-up: run them side by side.
	var wg sync.WaitGroup
	for _, r := range runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.err = r.cmd.Run()
		}()
	}
	wg.Wait()
	ts := map[string]string{}
	var outs []string
	for _, r := range runs {
		if r.err != nil {
			t.Errorf("quicktype %s: %v\nstderr:\n%s", r.name, r.err, r.stderr.Bytes())
			continue
		}
		// With --out quicktype prints nothing on success: any message (a warning about a
		// schema it cannot read, say) fails the test.
		if r.stderr.Len() > 0 || r.stdout.Len() > 0 {
			t.Errorf("quicktype %s wrote messages:\nstderr:\n%s\nstdout:\n%s", r.name, r.stderr.Bytes(), r.stdout.Bytes())
		}
		b, err := os.ReadFile(r.out)
		if err != nil {
			t.Errorf("quicktype %s: %v", r.name, err)
			continue
		}
		ts[r.name] = string(b)
		outs = append(outs, r.out)
	}
	if t.Failed() {
		t.FailNow()
	}

	// One tsc run over every file (each is a module of its own). It runs in the output
	// directory, so that no node_modules/@types of tools/node is pulled in.
	cmd := nodetools.Command(t, append([]string{tsc, "--noEmit", "--strict", "--pretty", "false"}, outs...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("tsc --noEmit --strict: %v\n%s", err, out)
	}

	for name, src := range ts {
		checkNoAny(t, name, src)
	}
	checkShapes(t, ts)
	checkRuntime(t, sources, runs)
	t.Logf("quicktype on %d schema sets and tsc --strict on the output in %v", len(runs), time.Since(start).Round(time.Millisecond))
}

// checkNodeVersion fails the test when node is older than major.minor: quicktype 26
// declares node >= 20.19 and does not promise to work on older versions.
func checkNodeVersion(t *testing.T, major, minor int) {
	t.Helper()
	out, err := nodetools.Command(t, "--version").Output()
	if err != nil {
		t.Fatalf("node --version: %v", err)
	}
	v := strings.TrimSpace(string(out))
	var ma, mi int
	if _, err := fmt.Sscanf(v, "v%d.%d", &ma, &mi); err != nil {
		t.Fatalf("node --version: %q: %v", v, err)
	}
	if ma < major || ma == major && mi < minor {
		t.Fatalf("node %s is too old for the pinned quicktype: install Node.js >= %d.%d", v, major, minor)
	}
}

// typesPart is the part of quicktype's output before the Convert class: the declarations.
func typesPart(src string) string {
	if i := strings.Index(src, "\n// Converts JSON"); i >= 0 {
		return src[:i]
	}
	return src
}

var anyType = regexp.MustCompile(`\bany\b`)

// checkNoAny fails when a declaration uses any: quicktype's sign that it found no type
// in a schema.
func checkNoAny(t *testing.T, name, src string) {
	t.Helper()
	for i, line := range strings.Split(typesPart(src), "\n") {
		l := strings.TrimSpace(line)
		if strings.HasPrefix(l, "//") || strings.HasPrefix(l, "*") || strings.HasPrefix(l, "/**") {
			continue
		}
		if anyType.MatchString(l) {
			t.Errorf("%s.ts:%d: declaration uses any: %s", name, i+1, l)
		}
		if strings.Contains(l, "unknown") && l != "[property: string]: unknown;" {
			t.Errorf("%s.ts:%d: declaration uses unknown outside an index signature: %s", name, i+1, l)
		}
	}
}

var space = regexp.MustCompile(`\s+`)

// decl returns the declaration of name in src (export interface/type/enum … up to its
// end), without comments, its white space collapsed to single spaces; "" when missing.
func decl(src, name string) string {
	src = typesPart(src)
	var start int
	var end string
	if i := strings.Index(src, "\nexport interface "+name+" {\n"); i >= 0 {
		start, end = i+1, "\n}\n"
	} else if i := strings.Index(src, "\nexport enum "+name+" {\n"); i >= 0 {
		start, end = i+1, "\n}\n"
	} else if i := strings.Index(src, "\nexport type "+name+" = "); i >= 0 {
		start, end = i+1, ";\n"
	} else {
		return ""
	}
	j := strings.Index(src[start:], end)
	if j < 0 {
		return ""
	}
	body := src[start : start+j+len(end)]
	var lines []string
	for _, line := range strings.Split(body, "\n") {
		l := strings.TrimSpace(line)
		if strings.HasPrefix(l, "/**") || strings.HasPrefix(l, "*") {
			continue
		}
		lines = append(lines, l)
	}
	return strings.TrimSpace(space.ReplaceAllString(strings.Join(lines, " "), " "))
}

// shape is an expectation on one declaration of quicktype's output, compared after decl
// has dropped the comments and collapsed the white space: the whole declaration (equal)
// or parts of it (contains).
type shape struct {
	name     string
	equal    string
	contains []string
}

func checkShapes(t *testing.T, ts map[string]string) {
	t.Helper()
	money := func(name string) shape {
		// closed, both fields required: no index signature, no "?"
		return shape{name: name, equal: "export interface " + name + " { amount: number; currency: string; }"}
	}
	for _, draft := range testDrafts() {
		// quicktype 26 names a type after its key under "definitions" (draft 7) but not
		// under "$defs" (2020-12), where a named type used by two properties is named
		// after the schema file instead (docs/jsonschema.md, "Other generators").
		// orders:ship's Address is a second type, named after the first free name.
		address, shipAddress := "Address", "AddressObject"
		if draft == jsonschema.Draft2020 {
			address, shipAddress = "OrdersCreatedV2DataSchema", "Address"
		}
		want := map[string][]shape{
			"example": {
				{name: "OrdersCreatedV2", contains: []string{
					"order_id: number;",                  // required integer
					"customer: OrdersCreatedV2Customer;", // required named type
					"total: OrdersCreatedV2Total;",       // money
					"placed_at: number;",                 // timestamp
					"shipping?: " + address + ";",        // optional named type
					"billing?: null | " + address + ";",  // nullable named type
					"channel?: Channel;",                 // enum
					"lines: [Line, ...Line[]];",          // minItems: 1
					"tags?: { [key: string]: string };",  // map
					"note?: null | string;",              // nullable string
					"coupon?: string;",                   // deprecated field
					"[property: string]: unknown; }",     // open object
				}},
				money("OrdersCreatedV2Total"),
				money("UnitPrice"),
				{name: "Line", equal: "export interface Line { gift_wrap?: boolean; quantity: number; sku: string; unit_price: UnitPrice; [property: string]: unknown; }"},
				{name: "OrdersCreatedV2Customer", equal: "export interface OrdersCreatedV2Customer { customer_id: string; display_name?: null | string; email: string; [property: string]: unknown; }"},
				{name: "Channel", equal: `export type Channel = "web" | "mobile" | "pos";`},
				{name: "Reason", equal: `export type Reason = "customer_request" | "payment_failed" | "out_of_stock" | "fraud";`},
				{name: "OrdersCancelled", contains: []string{"refund?: Refund | null;"}},
				money("Refund"),
				// closed message: no index signature
				{name: "OrdersShip", equal: "export interface OrdersShip { address: " + shipAddress + "; carrier: Carrier; order_id: number; priority?: number; weight_grams?: number; }"},
				{name: "BillingInvoiceRequested", contains: []string{"invoice_id: string;", "ledger_entry?: string;", "fx_rate?: number;"}},
			},
			"extra": {
				{name: "AgreeGapsCovered", contains: []string{
					"name: string;",
					"point: Point;",
					"names?: [string, string, ...string[]];", // minItems: 2
					"matrix?: Array<number[]>;",
					"attrs?: { [key: string]: number } | null;", // nullable map
					"points?: Point[] | null;",                  // nullable array
					"label_list?: Array<null | string>;",        // nullable items
					"flag?: boolean | null;",
					"status_n?: Status | null;", // nullable named enum
					"i32s?: string;",            // integer, encoding: string
					"i32s_nullable?: null | string;",
					"n_enum?: number;", // integer enum: the values are not kept
				}},
				{name: "Point", equal: "export interface Point { x: number; y: number; [property: string]: unknown; }"},
				{name: "Status", equal: `export type Status = "active" | "paused";`},
				money("Price"),
			},
			"fixture": {
				{name: "FixtureEverythingHappened", contains: []string{
					"must_note: null | string;", // required and nullable
					"level?: number | null;",    // nullable integer enum
					"ledger_enum?: LedgerEnum;", // integer-string enum
					"birthday?: Date;",          // format: date
					"seen?: Date;",              // format: date-time
					"score?: number;",           // number enum: the values are not kept
					"id?: string;",              // uuid
					"total: Total;",
					"refund?: Refund | null;", // nullable money
					"open?: Open;",
				}},
				{name: "LedgerEnum", equal: `export type LedgerEnum = "7" | "-7";`},
				money("Total"),
				{name: "Open", equal: "export interface Open { a: number; [property: string]: unknown; }"},
				{name: "Tree", equal: "export interface Tree { children?: Tree[]; name: string; [property: string]: unknown; }"}, // recursion
				{name: "FixtureClosedV2", equal: "export interface FixtureClosedV2 { id: number; when?: number; }"},
			},
		}
		for set, shapes := range want {
			name := set + "-" + draft
			src, ok := ts[name]
			if !ok {
				t.Errorf("no TypeScript for %s", name)
				continue
			}
			for _, sh := range shapes {
				d := decl(src, sh.name)
				switch {
				case d == "":
					t.Errorf("%s.ts: no declaration of %s", name, sh.name)
				case sh.equal != "" && d != sh.equal:
					t.Errorf("%s.ts: %s:\n got: %s\nwant: %s", name, sh.name, d, sh.equal)
				}
				for _, c := range sh.contains {
					if d != "" && !strings.Contains(d, c) {
						t.Errorf("%s.ts: %s has no %q:\n%s", name, sh.name, c, d)
					}
				}
			}
		}
	}
}

// runtimeScript transpiles quicktype's TypeScript modules (typescript.transpileModule,
// no type check: tsc did that) and passes each instance to its Convert.to<Type>, which
// checks the parsed JSON against the declared types at run time. Input on stdin:
// {"modules": {name: file}, "checks": [{"module", "type", "key", "json"}]}; output: the
// number of instances read and the failures.
const runtimeScript = `
const ts = require('typescript'), fs = require('fs'), Module = require('module');
const input = JSON.parse(fs.readFileSync(0, 'utf8'));
const mods = {};
for (const [name, file] of Object.entries(input.modules)) {
  const js = ts.transpileModule(fs.readFileSync(file, 'utf8'), {compilerOptions: {module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2020}}).outputText;
  const m = new Module(file); m.filename = file; m._compile(js, file); mods[name] = m.exports;
}
let read = 0; const fails = [];
for (const c of input.checks) {
  const conv = mods[c.module].Convert, fn = conv['to' + c.type];
  if (typeof fn !== 'function') { fails.push(c.module + ': no Convert.to' + c.type); continue; }
  try { fn.call(conv, c.json); read++; } catch (e) { fails.push(c.module + ' ' + c.key + ': ' + e.message); }
}
process.stdout.write(JSON.stringify({read, fails}));
`

// checkRuntime runs every instance the agreement corpus knows to be valid through the
// Convert class quicktype generated for its registry, in each draft: the TypeScript side
// must read every message bqgen's schema accepts.
func checkRuntime(t *testing.T, sources []source, runs []*run) {
	t.Helper()
	type check struct {
		Module string `json:"module"`
		Type   string `json:"type"`
		Key    string `json:"key"`
		JSON   string `json:"json"`
	}
	in := struct {
		Modules map[string]string `json:"modules"`
		Checks  []check           `json:"checks"`
	}{Modules: map[string]string{}}
	for _, r := range runs {
		in.Modules[r.name] = r.out
	}
	valid := 0
	for _, src := range sources {
		insts, err := agreement.Corpus(src.name, src.reg)
		if err != nil {
			t.Fatal(err)
		}
		for _, inst := range insts {
			if inst.Expect != agreement.Valid {
				continue
			}
			valid++
			for _, draft := range testDrafts() {
				in.Checks = append(in.Checks, check{src.name + "-" + draft, jsonschema.PascalName(inst.URN), inst.Key(), string(inst.JSON)})
			}
		}
	}
	stdin, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Read  int      `json:"read"`
		Fails []string `json:"fails"`
	}
	if err := json.Unmarshal(nodetools.RunNode(t, runtimeScript, stdin), &res); err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Fails {
		t.Error(f)
	}
	t.Logf("quicktype's Convert read %d of %d checks (%d valid corpus instances, both drafts)", res.Read, len(in.Checks), valid)
}

// testDrafts are the drafts TestQuicktypeTypeScript runs quicktype on: both, or with
// -short only 2020-12 (three quicktype runs instead of six, and the checks of the
// outputs made).
func testDrafts() []string {
	if testing.Short() {
		return []string{jsonschema.Draft2020}
	}
	return []string{jsonschema.Draft2020, jsonschema.Draft7}
}
