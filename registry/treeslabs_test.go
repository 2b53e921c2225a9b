package registry

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
)

// TestTreeSlabs: files parsed one after the other with the slabs of one worker get
// the trees they get parsed alone (merge keys append entries past what a mapping's
// slice was cut with, and must not write into the next one's), and a node kept from
// such a tree is a copy (keep), not a pointer into the slab.
func TestTreeSlabs(t *testing.T) {
	t.Parallel()
	files := []string{
		"version: 1\nbase: &b {x: 1, y: [a, b], z: {k: v}}\nm1: {<<: *b, w: 2}\nm2: {<<: [*b, {q: 3}], x: 0}\n",
		"version: 1\nmessages:\n  urn:babel:c:a.b:\n    data: {properties: {s: {type: string, enum: [p, q, r], examples: [p]}}}\n",
		"[1, 2, {a: [3, 4]}, *nope]\n",
		"a: {b: {c: {d: [1, {e: f}]}}}\n",
	}
	// Big enough to cut a slab's worth of nodes and more than convSlab/8 in one mapping.
	big := "big:\n"
	for i := range convSlab/8 + 1 {
		big += fmt.Sprintf("  k%d: [%d, x]\n", i, i)
	}
	files = append(files, big, files[0], files[1])
	shared := &treeSlabs{}
	var trees []*tnode
	for i, f := range files {
		name := fmt.Sprintf("f%d.yaml", i)
		alone, ad := parseFile(name, []byte(f))
		got, gd := parseFileSlabs(name, []byte(f), shared)
		if !reflect.DeepEqual(ad, gd) {
			t.Fatalf("file %d: diagnostics %v, alone %v", i, gd, ad)
		}
		if (alone == nil) != (got == nil) {
			t.Fatalf("file %d: tree %v, alone %v", i, got, alone)
		}
		trees = append(trees, got)
	}
	// Compared once all are parsed: a later file must not have written into an earlier tree.
	for i, f := range files {
		alone, _ := parseFile(fmt.Sprintf("f%d.yaml", i), []byte(f))
		if alone == nil {
			continue
		}
		if g, a := treeText(trees[i]), treeText(alone); g != a {
			t.Errorf("file %d:\n%s\nalone:\n%s", i, g, a)
		}
	}
	// And the values are the right ones (parseFile cuts from slabs too).
	const want = `{"base":{"x":1,"y":["a","b"],"z":{"k":"v"}},"m1":{"w":2,"x":1,"y":["a","b"],"z":{"k":"v"}},"m2":{"q":3,"x":0,"y":["a","b"],"z":{"k":"v"}},"version":1}`
	for _, i := range []int{0, 5} {
		if got, err := json.Marshal(plainJSON(trees[i])); err != nil || string(got) != want {
			t.Errorf("file %d: %s (%v), want %s", i, got, err, want)
		}
	}
	l := &loader{slab: true}
	enum := trees[1].child("messages").child("urn:babel:c:a.b").child("data").child("properties").child("s").child("enum")
	kept := l.keepAll(enum.items)
	for i, n := range kept {
		if n == enum.items[i] || treeText(n) != treeText(enum.items[i]) {
			t.Errorf("kept enum item %d: %p (%s), want a copy of %p (%s)", i, n, treeText(n), enum.items[i], treeText(enum.items[i]))
		}
	}
}

// treeText writes out n with every position, kind and flag.
func treeText(n *tnode) string {
	s := fmt.Sprintf("%d%v%v%v%v@%s size %d height %d str %q num %q lit %q", n.kind, n.b, n.bad, n.plain, n.shared, n.pos, n.size, n.height, n.str, n.num, n.lit)
	for _, e := range n.entries {
		s += fmt.Sprintf("\n%q@%s: %s", e.key, e.keyPos, treeText(e.val))
	}
	for _, it := range n.items {
		s += "\n- " + treeText(it)
	}
	return s
}
