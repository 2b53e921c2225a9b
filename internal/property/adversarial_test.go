package property

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"go/format"
	"go/token"
	"go/types"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/babelqueue/bqgen/internal/emit/golang"
	"github.com/babelqueue/bqgen/internal/gonames"
	"github.com/babelqueue/bqgen/internal/model"
	"github.com/babelqueue/bqgen/registry"
)

// The adversarial lists of issue 20, item 9: names and texts a registry may hold that
// reached the go tool on main and broke it after `check` passed.
var (
	// windowsNames are the device names the go tool refuses as import path elements
	// on every system.
	windowsNames = []string{"con", "prn", "aux", "nul", "com1", "com5", "com9", "lpt1", "lpt9"}
	// directiveLines are texts that, as a comment line, a Go tool could read as a
	// directive, or that try to leave the comment.
	directiveLines = []string{"+build ignore", "go:build ignore", "//go:build ignore", "go:generate sh -c 'echo PWNED'",
		"//go:generate sh -c 'echo PWNED'", "go:linkname evil runtime.evil", "line evil.go:1", "//line evil.go:1",
		"export Evil", "//export Evil", "#cgo LDFLAGS: -levil", "/* open", "*/ close", "Intro.\n\n\t+build ignore",
		"Intro.\n\n    go:build ignore", "text\n+build linux\nmore"}
	// docShapes are texts whose doc comment go/doc/comment prints in a form that it, and
	// so gofmt, reads differently: a list after a code block, TeX-style quotes (two
	// backquotes or two single quotes, printed as “ and ”), a first word that
	// directiveSafe quotes into two backquotes in a row, implicit headings.
	docShapes = []string{"Intro.\n\n    code line\n- item after the code", "Intro:\n\tcode\n* star\n continued",
		"Quoted ``like this'' in TeX style", "go:`", "Intro.\n\nTitle Case Line\n\nText.", "UPPER\n\n\tcode\n\nUPPER"}
	// specialNames are names the go tool or the generated files treat specially.
	specialNames = []string{"main", "init", "documentation", "internal", "testdata", "vendor", "bqrt", "context",
		"slog", "regexp", "errors", "fmt", "strings", "pattern0", "pattern1", "babelqueue", "types", "events",
		"data", "ctx", "opts", "h", "r", "x", "b", "urn", "queue", "desc", "pii"}
	// foldPairs are keys and names equal after case folding, separators or the
	// initialism rules of gonames.Camel.
	foldPairs = [][2]string{{"url", "URL"}, {"id", "ID"}, {"api_key", "APIKey"}, {"http_url", "httpURL"},
		{"user-id", "user_id"}, {"i_d", "id"}, {"Api", "API"}, {"mW", "MW"}, {"a.b", "a_b"}, {"uuid", "UUID"},
		{"json_id", "JSONID"}, {"created", "Created"}, {"x", "X"}}
	// layoutTexts are texts whose width or shape the emitter's own layout must get
	// as gofmt does (internal/emit/golang: alignBlock aligns the cells of struct and
	// const blocks by their width in runes, plainDoc writes plain doc comments
	// without go/doc/comment): wide, combining, zero-width and right-to-left
	// letters, Unicode blanks at the ends of a line, tabs, the `[*]` of item paths
	// beside other brackets, code blocks with tabs, long lines.
	layoutTexts = []string{"Has [*] in it.", "Items [*] and [Name] and [*]x and ] and [", "[*]", "Tab\there.",
		"Wide ｗｉｄｅ 数量 名前 text.", "Combining e\u0301 a\u0308 text.", "RTL مرحبا שלום text.", "Zero\u200bwidth\u200djoin.",
		"Ends in a blank\u00a0", "\u3000Starts with one.", "Line one.\n\u3000\nLine two.", "Code:\n\n\tx\t:= [*]1\n    y := 2\n\nAfter.",
		strings.Repeat("Long ", 90) + "end.", "Para [*] one.\n\nPara two [*]"}
	// layoutKeys are JSON keys of the same kinds, and keys that cannot be a struct
	// tag (a quote, backquote, comma, backslash: the key then leads the line
	// comment instead).
	layoutKeys = []string{"数量", "ｗｉｄｅ_key", "e\u0301tat", "a\u0308b", "zw\u200bkey", "مرحبا", "ǅx", "ﬁx", "[*]", "a[*]b",
		"a\"b", "a`b", "a,b", "a\\b", "a b", "k\u00a0ey", "x"}
)

// goKeywords returns Go's keywords (go/token).
func goKeywords() []string {
	var out []string
	for tok := token.Token(0); tok < 200; tok++ {
		if tok.IsKeyword() {
			out = append(out, tok.String())
		}
	}
	return out
}

// lowerNames is every adversarial word usable as a lower-case name: keywords,
// predeclared identifiers, special and Windows names, the runtime's identifiers in
// lower case, and the generated struct methods in lower case.
func lowerNames() []string {
	var out []string
	out = append(out, goKeywords()...)
	out = append(out, types.Universe.Names()...)
	out = append(out, specialNames...)
	out = append(out, windowsNames...)
	for _, w := range windowsNames {
		out = append(out, strings.ToUpper(w), w+".txt")
	}
	for _, id := range gonames.RuntimeIdentifiers() {
		out = append(out, strings.ToLower(id), snake(id))
	}
	for _, m := range gonames.StructMethods {
		out = append(out, strings.ToLower(m), snake(m))
	}
	for _, p := range foldPairs {
		out = append(out, p[0], p[1])
	}
	return out
}

// upperNames is every adversarial word usable as a Go type name: the runtime's
// exported identifiers, the generated struct methods, keywords and predeclared
// identifiers capitalised, and the case-fold pairs.
func upperNames() []string {
	out := append([]string(nil), gonames.RuntimeIdentifiers()...)
	out = append(out, gonames.StructMethods...)
	for _, n := range append(goKeywords(), types.Universe.Names()...) {
		out = append(out, strings.ToUpper(n[:1])+n[1:])
	}
	for _, p := range foldPairs {
		for _, n := range p {
			if n != "" && n[0] >= 'A' && n[0] <= 'Z' {
				out = append(out, n)
			}
		}
	}
	return append(out, "With", "Reason", "New", "Err", "Dead")
}

// snake writes an identifier in snake_case (EnvelopeEncoder → envelope_encoder).
func snake(id string) string {
	var b strings.Builder
	for i, r := range id {
		if r >= 'A' && r <= 'Z' {
			if i > 0 {
				b.WriteByte('_')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// advReg is an adversarial registry under construction.
type advReg struct {
	Version   int                       `json:"version"`
	Consumers []string                  `json:"consumers"`
	Go        advGo                     `json:"go"`
	Types     map[string]map[string]any `json:"types,omitempty"`
	Messages  map[string]map[string]any `json:"messages"`
}

type advGo struct {
	Package  string            `json:"package"`
	Contexts map[string]string `json:"contexts,omitempty"`
}

func (r *advReg) clone() *advReg {
	b, err := json.Marshal(r)
	if err != nil {
		panic(err)
	}
	var c advReg
	if err := json.Unmarshal(b, &c); err != nil {
		panic(err)
	}
	if c.Types == nil {
		c.Types = map[string]map[string]any{}
	}
	return &c
}

func (r *advReg) yaml() []byte {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		panic(err)
	}
	return append(b, '\n')
}

// baseMessage is the message every candidate may change: its data, summary and
// description.
const baseMessage = "urn:babel:orders:created"

func message(summary string, props map[string]any) map[string]any {
	return map[string]any{"summary": summary, "owner": "team", "data": map[string]any{"properties": props}}
}

func intField() map[string]any {
	return map[string]any{"type": "integer", "minimum": 1, "maximum": 100}
}

// candidates returns the changes an adversarial registry is built from: every name
// and text of the lists, each in one role drawn from rng (a named type, a type's
// field or enum value, a field key, a bounded context, an event name, a go.contexts
// or go.package name, a summary, description, deprecation reason), in an order drawn
// from rng.
func candidates(rng *rand.Rand) []func(*advReg) {
	var out []func(*advReg)
	pick := func(roles ...func(*advReg)) { out = append(out, roles[rng.IntN(len(roles))]) }
	for _, n := range upperNames() {
		pick(func(r *advReg) {
			r.Types[n] = map[string]any{"type": "object", "properties": map[string]any{"id": intField()}}
		},
			func(r *advReg) { r.Types[n] = map[string]any{"type": "string", "maxLength": 8} })
	}
	// Names derived inside a type: With + cipher → WithCipher, Reason + failed →
	// ReasonFailed, an enum's values equal after case folding.
	for i, p := range foldPairs {
		out = append(out, func(r *advReg) {
			r.Types[fmt.Sprintf("Mode%d", i)] = map[string]any{"type": "string", "enum": []any{p[0], p[1]}}
		})
	}
	for _, id := range gonames.RuntimeIdentifiers() {
		words := gonames.Words(id)
		if len(words) < 2 {
			continue
		}
		head, tail := words[0], snake(strings.Join(words[1:], ""))
		pick(func(r *advReg) {
			r.Types[head] = map[string]any{"type": "object", "properties": map[string]any{tail: map[string]any{"type": "object", "properties": map[string]any{"id": intField()}}}}
		},
			func(r *advReg) { r.Types[head] = map[string]any{"type": "string", "enum": []any{tail}} })
	}
	for _, n := range lowerNames() {
		roles := []func(*advReg){
			// A field key of the base message.
			func(r *advReg) {
				r.Messages[baseMessage]["data"].(map[string]any)["properties"].(map[string]any)[n] = intField()
			},
			// The root package's name.
			func(r *advReg) { r.Go.Package = n },
		}
		if ctx := contextOf(n); ctx != "" {
			roles = append(roles,
				// A bounded context, and an event name.
				func(r *advReg) {
					r.Messages["urn:babel:"+ctx+":created"] = message("S.", map[string]any{"id": intField()})
				},
				func(r *advReg) { r.Messages["urn:babel:orders:"+ctx] = message("S.", map[string]any{"id": intField()}) },
				// The package go.contexts gives a bounded context.
				func(r *advReg) {
					r.Messages["urn:babel:billing:paid"] = message("S.", map[string]any{"id": intField()})
					r.Go.Contexts = map[string]string{"billing": n}
				})
		}
		pick(roles...)
	}
	for _, text := range slices.Concat(directiveLines, docShapes) {
		roles := []func(*advReg){
			func(r *advReg) { r.Messages[baseMessage]["summary"] = text },
			func(r *advReg) { r.Messages[baseMessage]["description"] = text },
			func(r *advReg) { r.Messages[baseMessage]["deprecated"] = text },
			func(r *advReg) {
				r.Messages[baseMessage]["data"].(map[string]any)["properties"].(map[string]any)["noted"] = map[string]any{"type": "string", "description": text, "deprecated": text}
			},
			func(r *advReg) {
				r.Types["Described"] = map[string]any{"type": "object", "description": text, "properties": map[string]any{"id": map[string]any{"type": "integer", "description": text}}}
			},
			func(r *advReg) {
				r.Types["Coded"] = map[string]any{"type": "string", "description": text, "enum": []any{text}}
			},
		}
		// Two roles each: a text is the most direct route to a directive.
		pick(roles...)
		pick(roles...)
	}
	out = append(out, layoutCandidates(rng)...)
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// layoutCandidates returns the changes of layoutTexts and layoutKeys, each in one
// role drawn from rng: a text as the description of a field of the base message
// (among fields of other widths), of an inline object under an array (whose doc
// comment holds its path with `[*]`), of a named type or as an enum value; a key as
// a field key of the base message, with its derived Go name or a go.name, beside
// ASCII keys, or as an enum value of a named type with a go.enum name.
func layoutCandidates(rng *rand.Rand) []func(*advReg) {
	var out []func(*advReg)
	pick := func(roles ...func(*advReg)) { out = append(out, roles[rng.IntN(len(roles))]) }
	props := func(r *advReg) map[string]any {
		return r.Messages[baseMessage]["data"].(map[string]any)["properties"].(map[string]any)
	}
	for i, text := range layoutTexts {
		pick(func(r *advReg) {
			props(r)[fmt.Sprintf("described_%d", i)] = map[string]any{"type": "string", "maxLength": 9, "description": text}
		},
			func(r *advReg) {
				props(r)[fmt.Sprintf("lines_%d", i)] = map[string]any{"type": "array", "description": text, "items": map[string]any{
					"type": "object", "description": text, "properties": map[string]any{"q": intField(), "long_key_name": map[string]any{"type": "string", "description": text}}}}
			},
			func(r *advReg) {
				r.Types[fmt.Sprintf("Laid%d", i)] = map[string]any{"type": "object", "description": text, "properties": map[string]any{"id": intField(), "n": map[string]any{"type": "boolean", "description": text}}}
			},
			func(r *advReg) {
				r.Types[fmt.Sprintf("Valued%d", i)] = map[string]any{"type": "string", "enum": []any{text, "b"}, "go": map[string]any{"enum": map[string]any{text: fmt.Sprintf("V%dText", i), "b": fmt.Sprintf("V%dB", i)}}}
			})
	}
	for i, key := range layoutKeys {
		pick(func(r *advReg) { props(r)[key] = map[string]any{"type": "string", "enum": []any{key, "ok"}} },
			func(r *advReg) {
				props(r)[key] = map[string]any{"type": "integer", "nullable": true, "go": map[string]any{"name": fmt.Sprintf("Laid%d", i)}}
			},
			func(r *advReg) {
				r.Types[fmt.Sprintf("Keyed%d", i)] = map[string]any{"type": "string", "enum": []any{key, "a"}, "go": map[string]any{"enum": map[string]any{key: fmt.Sprintf("K%dLongerName", i), "a": "A"}}}
			})
	}
	return out
}

// contextOf is n as a bounded context name ([a-z0-9-]), or "".
func contextOf(n string) string {
	return strings.ToLower(strings.Trim(strings.Map(func(r rune) rune {
		switch {
		case (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') || r == '-':
			return r
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		}
		return '-'
	}, n), "-"))
}

// adversarial returns a registry built from the adversarial lists by seed: the first
// n candidate changes (all when n is 0 or more than there are), each kept when the
// registry still loads without errors (so the result is check-clean by
// construction), and the counts of kept and rejected changes.
func adversarial(t *testing.T, seed uint64, name string, n int) (src []byte, reg *model.Registry, kept, rejected int) {
	t.Helper()
	all := candidates(rand.New(rand.NewPCG(seed, 0x61647672))) // "advr"
	if n > 0 && n < len(all) {
		all = all[:n]
	}
	return adversarialFrom(t, seed, name, all)
}

// adversarialFrom is adversarial for the candidate changes all.
func adversarialFrom(t *testing.T, seed uint64, name string, all []func(*advReg)) (src []byte, reg *model.Registry, kept, rejected int) {
	t.Helper()
	r := &advReg{Version: 1, Consumers: []string{"go"}, Go: advGo{Package: name}, Types: map[string]map[string]any{},
		Messages: map[string]map[string]any{baseMessage: message("S.", map[string]any{"id": intField()})}}
	load := func(b []byte) (*model.Registry, bool) {
		reg, diags, err := registry.LoadFiles(context.Background(), map[string][]byte{name + ".yaml": b})
		return reg, err == nil && reg != nil && !diags.HasErrors()
	}
	if _, ok := load(r.yaml()); !ok {
		t.Fatalf("seed %d: the base registry does not load", seed)
	}
	// Each change is first tried alone on the base registry (cheap), then the ones
	// that pass are applied in chunks; a chunk that fails as a whole (two changes
	// that collide with each other) is applied one change at a time.
	base := r
	var alone []func(*advReg)
	for _, change := range all {
		c := base.clone()
		change(c)
		if _, ok := load(c.yaml()); ok {
			alone = append(alone, change)
		} else {
			rejected++
		}
	}
	const chunk = 24
	for i := 0; i < len(alone); i += chunk {
		group := alone[i:min(i+chunk, len(alone))]
		c := r.clone()
		for _, change := range group {
			change(c)
		}
		if _, ok := load(c.yaml()); ok {
			r, kept = c, kept+len(group)
			continue
		}
		for _, change := range group {
			c := r.clone()
			change(c)
			if _, ok := load(c.yaml()); ok {
				r, kept = c, kept+1
			} else {
				rejected++
			}
		}
	}
	src = r.yaml()
	reg, ok := load(src)
	if !ok {
		t.Fatalf("seed %d: the adversarial registry does not load", seed)
	}
	return src, reg, kept, rejected
}

// sortedContexts lists the context package directories of names.
func sortedContexts(names *gonames.Names) []string {
	var out []string
	for _, p := range names.Contexts {
		out = append(out, p.Dir)
	}
	sort.Strings(out)
	return out
}

// TestLayoutGofmtStable: registries built from the layout candidates alone
// (layoutCandidates: wide, combining, zero-width and right-to-left text, Unicode
// blanks, tabs, `[*]` beside other brackets, keys that cannot be struct tags, each
// change kept when check passes) give Go files that gofmt leaves as they are,
// without building them (TestRandomRegistries builds and vets these candidates
// among the others): the emitter aligns struct and const blocks and writes plain doc
// comments itself, so a width counted in bytes or a doc text go/doc/comment reads
// differently shows here.
func TestLayoutGofmtStable(t *testing.T) {
	t.Parallel()
	seeds := 8
	if testing.Short() {
		seeds = 3
	}
	kept := 0
	for seed := uint64(1); seed <= uint64(seeds); seed++ {
		name := fmt.Sprintf("l%d", seed)
		_, reg, k, _ := adversarialFrom(t, seed, name, layoutCandidates(rand.New(rand.NewPCG(seed, 0x6c61796f)))) // "layo"
		kept += k
		t.Logf("seed %d: %d layout changes kept", seed, k)
		names, colls := gonames.Plan(reg, reg.GoPackage)
		if len(colls) > 0 {
			t.Fatalf("seed %d: Go name collisions %+v", seed, colls)
		}
		files, err := golang.Emit(reg, names, golang.Options{ImportPath: "example.com/" + name})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		for _, f := range files {
			formatted, err := format.Source(f.Content)
			if err != nil {
				t.Errorf("seed %d: %s: %v", seed, f.Name, err)
			} else if !bytes.Equal(formatted, f.Content) {
				t.Errorf("seed %d: %s is not gofmt-stable; gofmt makes it\n%s", seed, f.Name, formatted)
			}
		}
	}
	// Each seed keeps most of the changes: a key with no exported Go name as an
	// enum value of the base message is the one role check refuses.
	if min := seeds * (len(layoutTexts) + len(layoutKeys)) / 2; kept < min {
		t.Fatalf("%d layout changes kept over %d seeds, want at least %d", kept, seeds, min)
	}
}
