package golang

import (
	"regexp"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode"
	"unicode/utf8"

	"github.com/dave/jennifer/jen"
)

// The emitter writes every file as text, already in the form go/format gives it, and
// never runs go/format on it: formatting the files (go/parser, then go/printer) was
// two thirds of Emit's time, and building jen statement trees most of the rest. What it
// writes has few shapes — doc comments, type declarations, one-line methods, const
// and var blocks, descriptor literals (descText) — and each is written as gofmt
// prints it:
//
//   - Declarations at the top level are separated by one blank line and each has a
//     doc comment (gofmt's declList puts a blank line before a declaration with one).
//   - Doc comment text is in go/doc/comment's canonical form (docComment), which is
//     what gofmt rewrites a doc comment into.
//   - The columns of a struct's fields and of a const or var block are aligned by a
//     text/tabwriter configured as go/printer configures its own (alignBlock), fed the
//     cells go/printer feeds it: go/printer's fieldList and valueSpec separate the
//     cells of a line with vtabs, put an empty soft column between a field's type and
//     its tag, separate a line comment with a tab, and break the columns before a
//     comment line with a formfeed.
//   - Imports are registered where a qualified identifier is written, as jen
//     registers them (textFile.qual), and written sorted, the standard library first.
//
// TestOutputIsGofmtStable holds every emitted file to format.Source(out) == out,
// TestAlignBlockMatchesGofmt compares alignBlock with go/format on random blocks, and
// TestOutputPinned holds whole generated trees to the bytes the earlier jen and
// go/format emitter wrote.

// textFile is a generated file being written: its package, the imports its
// qualified identifiers registered, and its declarations after the import block.
type textFile struct {
	// path and name are the import path and name of the file's package.
	path, name string
	// hints are the import names of the root package and bqrt, which are never
	// written as aliases (jen's ImportName).
	hints map[string]string
	// imports maps each imported path to its name in the file, registered as the
	// references are written (their order decides which of two packages of one name
	// gets the numbered alias, as in jen).
	imports map[string]importDef
	// doc is the package documentation, as doc comment lines.
	doc []string
	// body holds the declarations, each preceded by a blank line.
	body []byte
	// blk is the block being written (one at a time).
	blk block
}

// importDef is the name of an import; alias says it is written in the import block.
type importDef struct {
	name  string
	alias bool
}

// stdImportNames are the standard library packages the emitter imports, with their
// names (as jen knows them: no alias is written for them).
var stdImportNames = map[string]string{"log/slog": "slog"}

// qual returns name qualified by the package at path as the file refers to it: bare in
// the file's own package, else behind the name the import gets, registering it as jen
// does (File.register): a hinted name or a standard library package's own name is
// written without an alias; any other package gets an alias guessed from its path;
// a name already taken or reserved gets a number appended, and then an alias.
func (f *textFile) qual(path, name string) string {
	if path == f.path {
		return name
	}
	if d, ok := f.imports[path]; ok {
		return d.name + "." + name
	}
	var d importDef
	switch {
	case f.hints[path] != "":
		d.name = f.hints[path]
	case stdImportNames[path] != "":
		d.name = stdImportNames[path]
	default:
		d = importDef{guessAlias(path), true}
	}
	unique := d.name
	for i := 1; !f.validAlias(unique); i++ {
		unique = d.name + strconv.Itoa(i)
	}
	if unique != d.name {
		d = importDef{unique, true}
	}
	f.imports[path] = d
	return d.name + "." + name
}

// appendQual appends qual(path, name) to b.
func (f *textFile) appendQual(b []byte, path, name string) []byte {
	if path == f.path {
		return append(b, name...)
	}
	if d, ok := f.imports[path]; ok {
		return append(append(append(b, d.name...), '.'), name...)
	}
	return append(b, f.qual(path, name)...)
}

// validAlias reports whether alias can name another import of f (jen's isValidAlias).
func (f *textFile) validAlias(alias string) bool {
	if jen.IsReservedWord(alias) {
		return false
	}
	for _, d := range f.imports {
		if d.name == alias {
			return false
		}
	}
	return true
}

var notAliasChar = regexp.MustCompile(`[^a-z0-9]`)

// guessAlias is the import alias jen gives a package it has no name for: the last
// element of the path, lower case, without the characters of no identifier and
// without leading digits ("pkg" if nothing is left).
func guessAlias(path string) string {
	alias := strings.TrimSuffix(path, "/")
	alias = alias[strings.LastIndex(alias, "/")+1:]
	alias = notAliasChar.ReplaceAllString(strings.ToLower(alias), "")
	for r, n := utf8.DecodeRuneInString(alias); unicode.IsDigit(r); r, n = utf8.DecodeRuneInString(alias) {
		alias = alias[n:]
	}
	if alias == "" {
		alias = "pkg"
	}
	return alias
}

// bytes returns the whole file, tables (the descriptor declarations, descDecl)
// after its declarations: the header, the package documentation and clause, the
// import block (the standard library's imports first, then a blank line and the
// others, each group sorted by path, as goimports groups them), the declarations.
func (f *textFile) bytes(tables []byte) []byte {
	paths := make([]string, 0, len(f.imports))
	for p := range f.imports {
		paths = append(paths, p)
	}
	sort.Slice(paths, func(i, j int) bool {
		if si, sj := isStdPath(paths[i]), isStdPath(paths[j]); si != sj {
			return si
		}
		return paths[i] < paths[j]
	})
	n := 256 + len(f.body) + len(tables)
	for _, l := range f.doc {
		n += len(l) + 1
	}
	b := make([]byte, 0, n)
	b = append(b, "// "+Header+"\n\n"...)
	for _, l := range f.doc {
		b = append(append(b, l...), '\n')
	}
	b = append(append(append(b, "package "...), f.name...), '\n')
	importLine := func(b []byte, p string) []byte {
		if d := f.imports[p]; d.alias {
			b = append(append(b, d.name...), ' ')
		}
		return append(strconv.AppendQuote(b, p), '\n')
	}
	switch len(paths) {
	case 0:
	case 1:
		b = importLine(append(b, "\nimport "...), paths[0])
	default:
		b = append(b, "\nimport (\n"...)
		for i, p := range paths {
			if i > 0 && isStdPath(p) != isStdPath(paths[i-1]) {
				b = append(b, '\n')
			}
			b = importLine(append(b, '\t'), p)
		}
		b = append(b, ")\n"...)
	}
	b = append(b, f.body...)
	return append(b, tables...)
}

// isStdPath reports whether an import path names a standard library package: its
// first element has no dot (as the go tool and goimports tell them apart).
func isStdPath(p string) bool {
	first, _, _ := strings.Cut(p, "/")
	return !strings.Contains(first, ".")
}

// decl starts a top-level declaration: a blank line, then its doc comment lines.
func (f *textFile) decl(doc ...string) {
	f.body = append(f.body, '\n')
	for _, l := range doc {
		f.body = append(append(f.body, l...), '\n')
	}
}

// write appends s to the file's declarations.
func (f *textFile) write(s ...string) {
	for _, x := range s {
		f.body = append(f.body, x...)
	}
}

// group writes the parenthesized const or var block (kw) of the specs in bl
// (f.blk).
func (f *textFile) group(kw string, bl *block) {
	f.write(kw, " (\n")
	f.body = alignBlock(f.body, bl)
	f.write(")\n")
}

// A block is the body of a struct type or of a const or var block: lines at one
// level of indentation whose columns gofmt aligns. Lines are added with line, field,
// spec and comment, then alignBlock writes them and empties the block for the next
// one (its buffers are kept).
type block struct {
	buf []byte
	// lines counts the lines added; comment lines end the line before them with a
	// formfeed, which ends every column there, as go/printer does before a comment.
	lines int
	tw    tabwriter.Writer
	out   appender
}

// appender is an io.Writer that appends to b.
type appender struct{ b []byte }

func (a *appender) Write(p []byte) (int, error) {
	a.b = append(a.b, p...)
	return len(p), nil
}

// Cell separators of a block line, as go/printer writes them into its tabwriter.
const (
	vtab = "\v" // a soft cell end: aligned, and a column of empty soft cells takes no space
	htab = "\t" // a hard cell end: the separator go/printer puts before a line comment
	esc  = "\xff"
)

// comment adds the comment lines ls (each starting with "//").
func (bl *block) comment(ls []string) {
	for _, l := range ls {
		bl.newline(true)
		bl.buf = append(bl.buf, "\t"+esc...)
		bl.buf = append(bl.buf, l...)
		bl.buf = append(bl.buf, esc...)
	}
}

// line adds a line of cells: texts, each of which ends with its separator (vtab or
// htab) but the last, which is not aligned. Comment and literal text is escaped
// (lit), so that a tab in it is not a cell separator.
func (bl *block) line(cells ...string) {
	bl.newline(false)
	bl.buf = append(bl.buf, '\t')
	for _, c := range cells {
		bl.buf = append(bl.buf, c...)
	}
}

// field adds the struct field name of Go type typ with the struct tag tag (a
// literal, "" for none) and the line comment comment, as go/printer's fieldList
// writes it: with blanks between the columns when the struct has a single field,
// else vtabs, and an empty soft column before the tag (so that the tags of tagged
// fields and the comments of untagged ones start in one column).
func (bl *block) field(single bool, name, typ, tag, comment string) {
	c := lit(comment)
	switch {
	case single && tag != "":
		bl.line(name, " ", typ, " ", lit(tag), htab, c)
	case single:
		bl.line(name, " ", typ, htab, c)
	case tag != "":
		bl.line(name, vtab, typ, vtab, vtab, lit(tag), htab, c)
	default:
		bl.line(name, vtab, typ, vtab, c)
	}
}

// spec adds the const or var spec `name typ = value` (typ "" for none), as
// go/printer's valueSpec writes it when every spec of the block has a value and
// either all or none have a type.
func (bl *block) spec(name, typ, value string) {
	if typ == "" {
		bl.line(name, vtab, "= ", lit(value))
	} else {
		bl.line(name, vtab, typ, vtab, "= ", lit(value))
	}
}

// newline ends the previous line, with a formfeed when the next is a comment.
func (bl *block) newline(beforeComment bool) {
	if bl.lines > 0 {
		if beforeComment {
			bl.buf = append(bl.buf, '\f')
		} else {
			bl.buf = append(bl.buf, '\n')
		}
	}
	bl.lines++
}

// lit escapes s for the tabwriter: text in which a tab is not a cell separator.
func lit(s string) string { return esc + s + esc }

// alignBlock appends the lines of bl to b, aligned as go/printer aligns them, each
// ending with a newline, and empties bl: go/printer's tabwriter (format.Source's
// configuration: minimal cell width 0, tab width 8, padding 1, blanks, tabs for the
// indentation, empty soft columns discarded), with the escapes stripped (go/printer's
// trimmer).
func alignBlock(b []byte, bl *block) []byte {
	if bl.lines == 0 {
		return b
	}
	bl.buf = append(bl.buf, '\n')
	bl.out.b = b
	bl.tw.Init(&bl.out, 0, 8, 1, ' ', tabwriter.DiscardEmptyColumns|tabwriter.TabIndent|tabwriter.StripEscape)
	bl.tw.Write(bl.buf)
	bl.tw.Flush()
	b = bl.out.b
	bl.buf, bl.lines, bl.out.b = bl.buf[:0], 0, nil
	return b
}
