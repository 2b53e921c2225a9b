package golang

import (
	"go/format"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/dave/jennifer/jen"
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

// TestQualMatchesJen holds textFile.qual to jennifer's File.register, which named the
// imports of the files before the emitter wrote them as text: for each sequence of
// referenced packages (the root package and bqrt under their hinted names, a standard
// library package, other packages whose names jen guesses from the path, names taken
// twice or reserved), the same qualifier for every reference and the same import
// lines.
func TestQualMatchesJen(t *testing.T) {
	t.Parallel()
	const root, bqrt = "example.com/gen", "example.com/gen/internal/bqrt"
	cases := []struct {
		rootName string
		paths    []string
	}{
		{"events", []string{root, bqrt, "log/slog"}},
		{"events", []string{"log/slog", bqrt, root, "example.com/gen/orders", "example.com/gen/orders"}},
		{"events", []string{"example.com/gen/orders", "example.com/other/orders", "example.com/third/orders"}},
		{"events", []string{"example.com/gen/Billing-2", "example.com/gen/9lives", "example.com/gen/123", "example.com/gen/x_y/"}},
		{"string", []string{root, "example.com/gen/string", bqrt}},
		{"bqrt", []string{bqrt, root}},
		{"slog", []string{"example.com/gen/slog", "log/slog", root}},
		{"events", []string{"example.com/gen/events", root}},
	}
	for i, c := range cases {
		jf := jen.NewFilePathName("example.com/gen/self", "self")
		jf.ImportName(root, c.rootName)
		jf.ImportName(bqrt, "bqrt")
		tf := &textFile{path: "example.com/gen/self", name: "self", hints: map[string]string{root: c.rootName, bqrt: "bqrt"}, imports: map[string]importDef{}}
		var want, got []string
		for j, p := range c.paths {
			jf.Var().Id("v"+strconv.Itoa(j)).Op("=").Qual(p, "X")
			got = append(got, "var v"+strconv.Itoa(j)+" = "+tf.qual(p, "X"))
		}
		var out strings.Builder
		jf.NoFormat = true
		if err := jf.Render(&out); err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(out.String(), "\n") {
			if strings.HasPrefix(l, "var ") {
				want = append(want, l)
			}
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("case %d: qualifiers\n%s\nwant (jen)\n%s", i, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		importLines := func(src string) []string {
			var ls []string
			block, _, _ := strings.Cut(src[strings.Index(src, "import"):], "\n)")
			for _, l := range strings.Split(block, "\n")[1:] {
				if l = strings.TrimSpace(l); l != "" {
					ls = append(ls, l)
				}
			}
			slices.Sort(ls)
			return ls
		}
		if g, w := importLines(string(tf.bytes(nil))), importLines(out.String()); !slices.Equal(g, w) {
			t.Errorf("case %d: imports %q, want (jen) %q", i, g, w)
		}
	}
}

// TestPlainDocMatchesParser holds plainDoc, docComment's shortcut for plain
// paragraphs, to go/doc/comment's parser and printer (parsedDoc) on every text it
// accepts: texts the emitter writes and random texts assembled from lines that the
// parser reads as headings, lists, code, links, doc links, URLs and directives, TeX-style
// quotes (two backquotes or two single quotes, which it prints as “ and ”), and plain
// ones; and it must accept the plain ones.
func TestPlainDocMatchesParser(t *testing.T) {
	t.Parallel()
	for _, text := range []string{"Free text.\n", "Deprecated: Use reference.\n", "GDPR-sensitive personal data (contact).\n",
		"X is the data of the event urn:babel:a:b (owner t; default queue \"q\").\n\nSynthetic message number 655.\n",
		"Über alles, ünd mehr.\nZweite Zeile\n\nDeprecated: do not use in new code.\n",
		"CreatedLinesItem is the value at $.lines[*] of urn:babel:orders:created.\n"} {
		if _, ok := plainDoc(text); !ok {
			t.Errorf("plainDoc refuses the plain text %q", text)
		}
	}
	frags := []string{"Free text.", "Shipping details", "Shipping details.", "# Heading", "- item", "* item", "1. first", "2) second",
		"\tcode", " indented", "[Link]: https://example.com", "See [Name] here.", "See https://example.com/x.", "go:build ignore",
		"+build ignore", "#cgo LDFLAGS", "Deprecated: Use x.", "Ünïcode line", "日本語のテキスト。", "a lower case line", "Text (with parens)",
		"Ends with digit 42", "Ends with quote\"", "Quoted ``like this'' in TeX style", "Markdown ```fence``` here", "x := f(y) {", "}", "", "", "Über's thing", "TODO: fix", "e.g. something", "Money, amount",
		"X is the value at $.lines[*] of urn:babel:a:b.", "Values $.m.*[*][*] here", "See [*Name] or [*] [x] there.", "A [*]: link", "[*] first"}
	rng := rand.New(rand.NewPCG(22, 8))
	plain := 0
	for i := range 20000 {
		var b strings.Builder
		for range 1 + rng.IntN(6) {
			b.WriteString(frags[rng.IntN(len(frags))])
			b.WriteByte('\n')
		}
		text := b.String()
		got, ok := plainDoc(text)
		if !ok {
			continue
		}
		plain++
		if want := parsedDoc(text); !slices.Equal(got, want) {
			t.Fatalf("case %d, %q: plainDoc %q, parser %q", i, text, got, want)
		}
	}
	t.Logf("plainDoc accepted %d of 20000 texts", plain)
	if plain < 1000 {
		t.Errorf("plainDoc accepted %d of 20000 texts: the comparison is too thin", plain)
	}
}

// TestDocCommentIsGofmtFixpoint holds docComment to what gofmt does to a doc comment
// (go/printer's formatDocComment parses and prints it again): on random texts
// assembled from lines the parser reads as headings, lists, code blocks, links,
// directives and TeX-style quotes, in any order, a file with the comment on a
// declaration must come out of go/format unchanged. go/doc/comment's printer alone is
// not enough: it indents a list after a code block like the code, so that the text
// parsed again has the list inside the code block.
func TestDocCommentIsGofmtFixpoint(t *testing.T) {
	t.Parallel()
	frags := []string{"Free text.", "Shipping details", "# Heading", "#nohead", "- item", "* item", "+ item", "1. first", "2) second",
		"\tcode", "    code four", " indented", "  two spaces", "[Link]: https://example.com", "See [Name] here.", "https://example.com/x",
		"go:build ignore", "+build ignore", "#cgo LDFLAGS", "go:`", "Deprecated: Use x.", "Quoted ``like this''", "```", "Ünïcode line",
		"Ends with digit 42", "}", "", "", "", "-", "> quote", "TODO: fix", "Value at $.a[*].b.*[*] of T."}
	rng := rand.New(rand.NewPCG(23, 9))
	n := 5000
	if testing.Short() {
		n = 1000
	}
	for i := range n {
		var b strings.Builder
		for range 1 + rng.IntN(8) {
			b.WriteString(frags[rng.IntN(len(frags))])
			b.WriteByte('\n')
		}
		if strings.TrimSpace(b.String()) == "" {
			continue // no doc comment is written for blank text
		}
		lines := docComment(b.String())
		src := "package p\n\n" + strings.Join(lines, "\n") + "\nvar X int\n"
		got, err := format.Source([]byte(src))
		if err != nil {
			t.Fatalf("case %d, %q: %v", i, b.String(), err)
		}
		if string(got) != src {
			t.Fatalf("case %d, %q: gofmt changes the doc comment\n%s\nto\n%s", i, b.String(), src, got)
		}
	}
}

// field adds, for the tests, the struct field name of Go type typ with the struct tag tag (a
// literal, "" for none) and the line comment comment, as go/printer's fieldList
// writes it: with blanks between the columns when the struct has a single field,
// else vtabs, and an empty soft column before the tag (so that the tags of tagged
// fields and the comments of untagged ones start in one column). It lays the cells out
// as gen.fieldLine does, which appends the type and tag in place instead of taking
// strings.
func (bl *block) field(single bool, name, typ, tag, comment string) {
	bl.newline(false)
	switch {
	case single && tag != "":
		bl.text(name + " " + typ + " " + tag)
		bl.end(true)
	case single:
		bl.text(name + " " + typ)
		bl.end(true)
	case tag != "":
		bl.text(name)
		bl.end(false)
		bl.text(typ)
		bl.end(false)
		bl.end(false)
		bl.text(tag)
		bl.end(true)
	default:
		bl.text(name)
		bl.end(false)
		bl.text(typ)
		bl.end(false)
	}
	bl.text(comment)
}
