package pii_test

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/babelqueue/bqgen/internal/model"
	"github.com/babelqueue/bqgen/internal/pii"
	"github.com/babelqueue/bqgen/registry"
)

func load(t *testing.T, src string) *model.Registry {
	t.Helper()
	reg, diags, err := registry.LoadFiles(context.Background(), map[string][]byte{"r.yaml": []byte(src)})
	if err != nil || reg == nil || diags.HasErrors() {
		t.Fatalf("registry does not load: %v\n%v", err, diags)
	}
	return reg
}

// summary renders an inventory compactly: paths (with categories), lost marks (reason,
// cause owner, path from it, cause line), nested marks.
func summary(inv *pii.Inventory) string {
	var b strings.Builder
	if !inv.Inlined {
		b.WriteString("not inlined\n")
	}
	for _, p := range inv.Paths {
		fmt.Fprintf(&b, "path %s", p.Path)
		if p.Category != "" {
			fmt.Fprintf(&b, " (%s)", p.Category)
		}
		fmt.Fprintf(&b, " @%d\n", p.Pos.Line)
	}
	for _, l := range inv.Lost {
		fmt.Fprintf(&b, "lost %s: %s in %q at %q (cause line %d) %s @%d\n", l.Path, l.Cause.Reason, l.Cause.Owner, l.Cause.Path, l.Cause.At.Line, l.CauseRel, l.Pos.Line)
	}
	for _, n := range inv.Nested {
		fmt.Fprintf(&b, "nested %s in %s (%q: %s)\n", n.Inner.Path, n.Outer.Path, n.Outer.Owner, n.InnerRel)
	}
	return b.String()
}

func TestExampleRegistry(t *testing.T) {
	t.Parallel()
	reg, diags, err := registry.Load(context.Background(), "../../examples/registry.yaml")
	if err != nil || reg == nil || len(diags) > 0 {
		t.Fatalf("%v %v", err, diags)
	}
	want := map[string][]string{
		"urn:babel:orders:created.v2": {"billing.line1", "billing.line2", "billing.postal_code (postal)", "customer.email (contact)",
			"shipping.line1", "shipping.line2", "shipping.postal_code (postal)"},
		"urn:babel:orders:ship":                      {"address.line1", "address.line2", "address.postal_code (postal)"},
		"urn:babel:billing:payment.captured":         {"card_last4 (payment)"},
		"urn:babel:notifications:email.welcome.send": {"customer.email (contact)"},
	}
	for _, m := range reg.Messages {
		inv := pii.Of(reg, m)
		var got []string
		for _, p := range inv.Paths {
			s := p.Path
			if p.Category != "" {
				s += " (" + p.Category + ")"
			}
			got = append(got, s)
		}
		if strings.Join(got, ", ") != strings.Join(want[m.URN], ", ") || len(inv.Lost) > 0 || len(inv.Nested) > 0 || !inv.Inlined {
			t.Errorf("%s:\n%s", m.URN, summary(inv))
		}
	}
}

func TestInventory(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, yaml, want string
	}{
		{"map values", `version: 1
types:
  Person:
    type: object
    properties:
      email: {type: string, x-gdpr-sensitive: contact}
messages:
  urn:babel:t:happened:
    data:
      properties:
        tags: {type: map, values: {type: string, x-gdpr-sensitive: true}}
        people: {type: map, values: {type: Person}}
        marked: {type: map, x-gdpr-sensitive: true, values: {type: Person}}
`, `path marked @13
lost tags.*: map-value in "" at "tags" (cause line 11) tags.* @11
lost people.*.email: map-value in "" at "people" (cause line 12) people.*.email @6
`},
		{"keys the path syntax cannot spell", `version: 1
messages:
  urn:babel:t:happened:
    data:
      properties:
        "a.b": {type: string, x-gdpr-sensitive: true}
        "x[]": {type: object, properties: {v: {type: string, x-gdpr-sensitive: true}}}
        ok: {type: object, properties: {"c.d": {type: integer, x-gdpr-sensitive: true}}}
`, `lost "a.b": key in "" at "\"a.b\"" (cause line 6) "a.b" @6
lost "x[]".v: key in "" at "\"x[]\"" (cause line 7) "x[]".v @7
lost ok."c.d": key in "" at "ok.\"c.d\"" (cause line 8) ok."c.d" @8
`},
		{"nested arrays", `version: 1
messages:
  urn:babel:t:happened:
    data:
      properties:
        m:
          type: array
          items:
            type: array
            x-gdpr-sensitive: true
            items: {type: string}
        n:
          type: array
          items:
            type: array
            items: {type: object, properties: {v: {type: string, x-gdpr-sensitive: true}}}
`, `path m[] @10
lost n[][].v: nested-array in "" at "n[][]" (cause line 16) n[][].v @16
`},
		{"root mark", `version: 1
messages:
  urn:babel:t:happened:
    data:
      x-gdpr-sensitive: true
      properties:
        a: {type: string, x-gdpr-sensitive: true}
`, `path a @7
lost : root in "" at "" (cause line 5)  @5
`},
		{"recursion", `version: 1
types:
  Node:
    type: object
    properties:
      name: {type: string, x-gdpr-sensitive: true}
      children: {type: array, items: {type: Node}}
messages:
  urn:babel:t:happened:
    data:
      properties:
        root: {type: Node}
`, `path root.children[].children[].name @6
path root.children[].name @6
path root.name @6
lost root.children[].children[].children[].name: recursion in "Node" at "children[]" (cause line 7) children[].name @6
`},
		{"mutual recursion through an alias, marks on uses and types", `version: 1
types:
  A:
    type: object
    properties:
      b: {type: B}
      secret: {type: Secret}
  B:
    type: object
    properties:
      a: {type: A, x-gdpr-sensitive: ab}
  Secret: {type: Code, x-gdpr-sensitive: outer}
  Code: {type: string, x-gdpr-sensitive: inner}
messages:
  urn:babel:t:happened:
    data:
      properties:
        a: {type: A}
`, `path a.b.a (ab) @11
path a.b.a.b.a (ab) @11
path a.b.a.b.a.b.a (ab) @11
path a.b.a.b.a.secret (outer) @12
path a.b.a.secret (outer) @12
path a.secret (outer) @12
nested a.b.a.b.a.secret in a.b.a ("B": a.b.a.secret)
nested a.b.a.secret in a.b.a ("B": a.secret)
`},
		{"mutual recursion through an alias", `version: 1
types:
  A:
    type: object
    properties:
      b: {type: B}
      secret: {type: Secret}
  B:
    type: object
    properties:
      a: {type: A}
      list: {type: array, items: {type: Secret}}
  Secret: {type: Code}
  Code: {type: string, x-gdpr-sensitive: inner}
messages:
  urn:babel:t:happened:
    data:
      properties:
        b: {type: B}
`, `path b.a.b.a.b.a.secret (inner) @14
path b.a.b.a.b.list[] (inner) @14
path b.a.b.a.secret (inner) @14
path b.a.b.list[] (inner) @14
path b.a.secret (inner) @14
path b.list[] (inner) @14
lost b.a.b.a.b.a.b.a.secret: recursion in "A" at "b" (cause line 6) b.a.secret @14
`},
		{"nested marks", `version: 1
types:
  Customer:
    type: object
    properties:
      email: {type: string, x-gdpr-sensitive: contact}
      age: {type: integer, x-gdpr-sensitive: true}
      tags: {type: array, items: {type: string, x-gdpr-sensitive: true}}
messages:
  urn:babel:t:happened:
    data:
      properties:
        customer: {type: Customer, x-gdpr-sensitive: true}
        other: {type: Customer}
        box: {type: object, x-gdpr-sensitive: true, properties: {m: {type: map, values: {type: string, x-gdpr-sensitive: true}}}}
`, `path box @15
path customer @13
path customer.age @7
path customer.email (contact) @6
path customer.tags[] @8
path other.age @7
path other.email (contact) @6
path other.tags[] @8
nested customer.email in customer ("": customer.email)
nested customer.tags[] in customer ("": customer.tags[])
`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			reg := load(t, c.yaml)
			if got := summary(pii.Of(reg, reg.Messages[0])); got != c.want {
				t.Errorf("got:\n%swant:\n%s", got, c.want)
			}
		})
	}
}

func TestIndexMarked(t *testing.T) {
	t.Parallel()
	reg := load(t, `version: 1
types:
  Plain: {type: object, properties: {a: {type: string}}}
  Deep: {type: object, properties: {p: {type: Plain}, s: {type: Secret}}}
  Secret: {type: string, x-gdpr-sensitive: true}
  Loop: {type: object, properties: {next: {type: Loop}, m: {type: map, values: {type: Deep}}}}
messages:
  urn:babel:t:plain:
    data: {properties: {p: {type: Plain}, n: {type: integer}}}
  urn:babel:t:deep:
    data: {properties: {l: {type: array, items: {type: Loop}}}}
  urn:babel:t:inline:
    data: {properties: {o: {type: object, properties: {e: {type: string, x-gdpr-sensitive: contact}}}}}
`)
	ix := pii.NewIndex(reg)
	for _, m := range reg.Messages {
		marked := pii.Of(reg, m)
		has := len(marked.Paths)+len(marked.Lost)+len(marked.Nested) > 0
		if got := ix.Marked(m); got != has || got != (m.URN != "urn:babel:t:plain") {
			t.Errorf("%s: Marked %v, inventory %s", m.URN, got, summary(marked))
		}
	}
}

// hostileDAG is a registry of named types T0…Tdepth where each uses the next twice and
// as map values (3^depth paths to the marked leaf), and urns messages that use T0 in a
// field and in map values.
func hostileDAG(depth, urns int) string {
	var b strings.Builder
	b.WriteString("version: 1\ntypes:\n")
	for i := 0; i < depth; i++ {
		fmt.Fprintf(&b, "  T%d: {type: object, properties: {a: {type: T%d}, b: {type: T%d}, m: {type: map, values: {type: T%d}}}}\n", i, i+1, i+1, i+1)
	}
	fmt.Fprintf(&b, "  T%d: {type: string, x-gdpr-sensitive: leaf}\nmessages:\n", depth)
	for u := 0; u < urns; u++ {
		fmt.Fprintf(&b, "  urn:babel:h:m%d.sent:\n    data: {properties: {t: {type: T0}, w: {type: map, values: {type: T0}}}}\n", u)
	}
	return b.String()
}

// TestProblemsLinear: over a registry whose inlined schemas grow as 3^depth, the
// Problems of every URN walk a number of schemas proportional to the URN's own schema
// and the named types it reaches (each once per state, or once per cause below a cause
// of the URN's own data: here its map w), not to URNs × 3^depth.
func TestProblemsLinear(t *testing.T) {
	t.Parallel()
	// 300 URNs or 10: every one inlined, as budgets are per URN.
	for _, c := range []struct{ depth, urns int }{{5, 300}, {5, 10}} {
		reg := load(t, hostileDAG(c.depth, c.urns))
		ix := pii.NewIndex(reg)
		lost := 0
		for _, m := range reg.Messages {
			if inv := ix.Problems(m); inv != nil {
				lost += len(inv.Lost)
			}
		}
		// Per URN: data, t, w, and below w each type once (its three properties); per
		// type and state: its properties.
		if v := pii.Visits(ix); v > c.urns*(4+5*(c.depth+1))+50*c.depth {
			t.Errorf("%d URNs: %d schemas visited for %d types", c.urns, v, c.depth)
		}
		if lost < c.urns {
			t.Errorf("%d URNs: %d lost marks, want at least one per URN (its map w)", c.urns, lost)
		}
		// Budgets are per URN: every URN (all alike) is inlined, whatever their number.
		for _, m := range reg.Messages {
			if !ix.Inlined(m) {
				t.Fatalf("%d URNs: %s not inlined (size %v)", c.urns, m.URN, fmt.Sprint(ix.Size(m)))
			}
		}
		// Of lists every reachable path (2^depth below t): it walks the inlined tree
		// (a few schemas per node) but not the 3^depth of its map values, where it
		// follows each type once per cause.
		full := pii.NewIndex(reg)
		paths := 0
		for _, m := range reg.Messages {
			paths += len(full.Of(m).Paths)
		}
		if v := pii.Visits(full); v > c.urns*(3<<(c.depth+1)+20*(c.depth+1)) || paths == 0 {
			t.Errorf("%d URNs: Of visited %d schemas, listed %d paths", c.urns, v, paths)
		}
	}
}

// fillerTeam is another team's change (issue 20, item 1): 52 URNs of plain strings, in
// a context sorted before "orders", over families of named types that each use the
// next twice (L levels inline 2^(L+1) − 1 schema nodes, from 3L + 1 of their own):
// 48 URNs of 2,048 inlined nodes, then 1,024, 512, 128 and 32, which fill exactly the
// registry-wide budget of 100,000 inlined schema nodes the manifest profile once had,
// so that the next URN, however small, went past it.
func fillerTeam() string {
	var types, msgs strings.Builder
	u := 0
	for _, f := range []struct{ levels, urns int }{{10, 48}, {9, 1}, {8, 1}, {6, 1}, {4, 1}} {
		for i := 0; i < f.levels; i++ {
			fmt.Fprintf(&types, "  F%dT%d: {type: object, properties: {l: {type: F%dT%d}, r: {type: F%dT%d}}}\n", f.levels, i, f.levels, i+1, f.levels, i+1)
		}
		fmt.Fprintf(&types, "  F%dT%d: {type: string, maxLength: 10}\n", f.levels, f.levels)
		for j := 0; j < f.urns; j++ {
			fmt.Fprintf(&msgs, "  urn:babel:aaa:filler%d.sent:\n    data: {properties: {t: {type: F%dT0}}}\n", u, f.levels)
			u++
		}
	}
	return types.String() + "messages:\n" + msgs.String()
}

const ordersTypes = `version: 1
types:
  Address:
    type: object
    properties:
      line1: {type: string, x-gdpr-sensitive: address}
      line2: {type: string, x-gdpr-sensitive: address}
      city: {type: string}
  Customer:
    type: object
    properties:
      email: {type: string, format: email, x-gdpr-sensitive: contact}
      name: {type: string, x-gdpr-sensitive: true}
      billing: {type: Address}
      shipping: {type: Address}
`

const ordersMessage = `  urn:babel:orders:created.v2:
    data:
      properties:
        customer: {type: Customer}
        phone: {type: string, x-gdpr-sensitive: contact}
`

// TestBudgetPerURN: the protected paths of a URN, and whether its SDK schema is
// written, depend on that URN alone. Another team's URNs in a context sorted first,
// which together inline more than any registry-wide budget, leave the 7 protected
// paths of orders:created.v2 as they are (issue 20, item 1: they went to none, and
// the generated code sent the email and the address lines in clear).
func TestBudgetPerURN(t *testing.T) {
	t.Parallel()
	alone := load(t, ordersTypes+"messages:\n"+ordersMessage)
	want := pii.Of(alone, alone.Message("urn:babel:orders:created.v2")).Protected()
	wantPaths := []string{"customer.billing.line1", "customer.billing.line2", "customer.email", "customer.name",
		"customer.shipping.line1", "customer.shipping.line2", "phone"}
	if !reflect.DeepEqual(want, wantPaths) {
		t.Fatalf("alone: %q, want %q", want, wantPaths)
	}
	reg := load(t, ordersTypes+fillerTeam()+ordersMessage)
	ix := pii.NewIndex(reg)
	total := 0
	for _, m := range reg.Messages {
		if !ix.Inlined(m) {
			t.Errorf("%s: not inlined (size %v)", m.URN, fmt.Sprint(ix.Size(m)))
		}
		total += countInlined(reg, m.Data, map[*model.NamedType]int{})
	}
	if total <= 100_000 {
		t.Fatalf("the filler URNs inline %d schema nodes: not past the old budget", total)
	}
	m := reg.Message("urn:babel:orders:created.v2")
	if got := ix.Of(m).Protected(); !reflect.DeepEqual(got, want) {
		t.Errorf("with the other team's URNs: %q, want %q", got, want)
	}
	// The size of its SDK schema is the one it has alone.
	n0, a0, d0 := pii.NewIndex(alone).Size(alone.Message(m.URN))
	if n, a, d := ix.Size(m); n != n0 || a != a0 || d != d0 {
		t.Errorf("size %d (%d inlined), %d levels; alone %d (%d), %d levels", n, a, d, n0, a0, d0)
	}
}

// countInlined counts the schema nodes of s with named types inlined, recursion
// unrolled pii.UnrollDepth times (an independent count).
func countInlined(reg *model.Registry, s *model.Schema, counts map[*model.NamedType]int) int {
	if s == nil {
		return 0
	}
	if s.Kind == model.Ref {
		nt := pii.Named(reg, s)
		if counts[nt] >= pii.UnrollDepth {
			return 1
		}
		counts[nt]++
		defer func() { counts[nt]-- }()
		return countInlined(reg, nt.Schema, counts)
	}
	n := 1
	for _, p := range s.Properties {
		n += countInlined(reg, p.Schema, counts)
	}
	return n + countInlined(reg, s.Items, counts) + countInlined(reg, s.Values, counts)
}

func TestProtected(t *testing.T) {
	t.Parallel()
	cases := []struct {
		paths []string
		want  []string
	}{
		{nil, nil},
		{[]string{"customer", "customer.age", "customer.email", "customer.tags[]", "other.age"}, []string{"customer", "other.age"}},
		{[]string{"a", "a[].b", "ab", "ab.c"}, []string{"a", "ab"}},
		{[]string{"lines[]", "lines[].sku", "lines[]x"}, []string{"lines[]", "lines[]x"}},
		{[]string{"a.b", "a.b.c", "a.bc"}, []string{"a.b", "a.bc"}},
		// Segments, not text: the key "a[]b" is no element of a, the key "[]b" of o
		// lies beside its key "", not inside it.
		{[]string{"a", "a[]b"}, []string{"a", "a[]b"}},
		{[]string{"o.", "o.[]b", "o..x"}, []string{"o.", "o.[]b"}},
		{[]string{"a", "a[]", "a[].b", "a.b", "a[]b.c"}, []string{"a", "a[]b.c"}},
		{[]string{"t[]", "t[]."}, []string{"t[]"}},
	}
	for _, c := range cases {
		inv := &pii.Inventory{}
		for _, p := range c.paths {
			inv.Paths = append(inv.Paths, pii.Mark{Path: p})
		}
		if got := inv.Protected(); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Protected(%q) = %q, want %q", c.paths, got, c.want)
		}
	}
}
