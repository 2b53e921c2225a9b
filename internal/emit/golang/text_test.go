package golang

import (
	"go/format"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// TestAlignBlockMatchesGofmt writes random struct types and const blocks with
// block.field, block.spec, block.comment and alignBlock, and holds each to what
// go/format makes of the same declaration written without alignment: fields with and
// without tags, doc comments (with code blocks, whose lines hold tabs) that break the
// columns, single-field structs, names, types, tags and comments of different widths
// with non-ASCII text (tabwriter counts runes).
func TestAlignBlockMatchesGofmt(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(22, 7))
	pick := func(xs ...string) string { return xs[rng.IntN(len(xs))] }
	names := []string{"ID", "A", "OccurredAt", "Ñame", "名前", "VeryLongFieldNameIndeed", "X2", "Über"}
	types := []string{"int64", "string", "*events.Nullable[int32]", "map[string][]events.LineItem", "[]string", "*bool", "events.Nullable[events.Address]", "Ä"}
	tags := []string{"", "", "id", "occurred_at,omitempty", "a b", "ключ", "x-y.z", "日本語,omitempty"}
	comments := []string{"// required", "// optional; nullable; at most 500 code points", "// \"ö-key\": optional", "// 1 to 100 code points", "// é"}
	docs := [][]string{nil, nil, nil, {"// Free text."}, {"// Deprecated: Use x."}, {"// A code block:", "//", "//\tx\t:= 1", "//", "// Ü."}}
	for i := range 400 {
		n := 1 + rng.IntN(7)
		var bl block
		var src strings.Builder
		src.WriteString("package p\n\ntype T struct {\n")
		for range n {
			doc := docs[rng.IntN(len(docs))]
			name, typ, tag, c := pick(names...)+strconv.Itoa(rng.IntN(3)), pick(types...), pick(tags...), pick(comments...)
			if tag != "" {
				tag = structTag(tag)
			}
			bl.comment(doc)
			bl.field(n == 1, name, typ, tag, c)
			for _, l := range doc {
				src.WriteString(l + "\n")
			}
			src.WriteString(name + " " + typ + " " + tag + " " + c + "\n")
		}
		src.WriteString("}\n\nconst (\n")
		var cl block
		typed := rng.IntN(2) == 0
		for range 1 + rng.IntN(6) {
			doc := docs[rng.IntN(len(docs))]
			name, value := pick(names...)+strconv.Itoa(rng.IntN(3)), strconv.Quote(pick(tags...)+pick(comments...))
			typ := ""
			if typed {
				typ = pick("T", "Über", "Status")
			}
			cl.comment(doc)
			cl.spec(name, typ, value)
			for _, l := range doc {
				src.WriteString(l + "\n")
			}
			src.WriteString(name + " " + typ + " = " + value + "\n")
		}
		src.WriteString(")\n")
		want, err := format.Source([]byte(src.String()))
		if err != nil {
			t.Fatalf("case %d: %v\n%s", i, err, src.String())
		}
		got := append([]byte("package p\n\ntype T struct {\n"), alignBlock(nil, &bl)...)
		got = append(got, "}\n\nconst (\n"...)
		got = append(alignBlock(got, &cl), ")\n"...)
		if string(got) != string(want) {
			t.Fatalf("case %d:\n%s\nwant (go/format)\n%s", i, got, want)
		}
	}
}
