package golang

import (
	"regexp"
	"sort"
	"strconv"
	"strings"
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
//   - The columns of a struct's fields and of a const or var block are aligned as a
//     text/tabwriter configured as go/printer configures its own aligns the cells
//     go/printer feeds it (alignBlock, a port of the tabwriter's algorithm on the
//     cells themselves): go/printer's fieldList and valueSpec separate the cells of a
//     line with vtabs, put an empty soft column between a field's type and its tag,
//     separate a line comment with a tab, and break the columns before a comment line
//     with a formfeed.
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
// level of indentation whose columns gofmt aligns. Lines are added with field, spec
// and comment (or newline, text and end), then alignBlock writes them and empties the
// block for the next one (its buffers are kept).
//
// A line is a list of cells as go/printer writes them into its tabwriter: the
// indentation (an empty cell ended by a tab), then texts each ended by a vtab (a soft
// cell end: aligned, and a column of empty soft cells takes no space) or a tab (a
// hard cell end: the separator go/printer puts before a line comment), then the last
// text, which is not aligned. A comment line ends the columns of the lines before it
// (go/printer writes a formfeed there). alignBlock does what text/tabwriter does with
// go/printer's configuration on those cells (tabwriter.go's format and writeLines),
// without writing them out as text and parsing them again, which was a tenth of
// the emitter's time.
type block struct {
	// buf holds the text of every cell, cells where each starts and ends.
	buf   []byte
	cells []blockCell
	// rows are the lines: the index of each line's first cell, and whether a
	// comment line starts a new section there (whose columns are aligned apart).
	rows []blockRow
	// lines counts the lines added.
	lines int
	// start is where the text of the cell being written starts in buf.
	start int
	// widths are the widths of the columns of the enclosing column blocks
	// (alignBlock's state).
	widths []int
}

// blockCell is a cell of a block line: its text buf[start:end], its width in runes,
// and whether a tab (not a vtab) ends it.
type blockCell struct {
	start, end, width int
	htab              bool
}

// blockRow is a line of a block: its cells start at cells[first]; brk says its
// section starts with it.
type blockRow struct {
	first int
	brk   bool
}

// comment adds the comment lines ls (each starting with "//").
func (bl *block) comment(ls []string) {
	for _, l := range ls {
		bl.newline(true)
		bl.text(l)
	}
}

// text appends s to the cell being written.
func (bl *block) text(s string) { bl.buf = append(bl.buf, s...) }

// end ends the cell being written, with a tab (htab) or a vtab.
func (bl *block) end(htab bool) {
	bl.cells = append(bl.cells, blockCell{bl.start, len(bl.buf), utf8.RuneCount(bl.buf[bl.start:]), htab})
	bl.start = len(bl.buf)
}

// spec adds the const or var spec `name typ = value` (typ "" for none), as
// go/printer's valueSpec writes it when every spec of the block has a value and
// either all or none have a type.
func (bl *block) spec(name, typ, value string) {
	bl.newline(false)
	bl.text(name)
	bl.end(false)
	if typ != "" {
		bl.text(typ)
		bl.end(false)
	}
	bl.text("= ")
	bl.text(value)
}

// newline ends the previous line and starts one with its indentation cell; before a
// comment line, it ends every column there, as go/printer does.
func (bl *block) newline(beforeComment bool) {
	if bl.lines > 0 {
		bl.end(false) // the last cell of the previous line
	}
	bl.rows = append(bl.rows, blockRow{len(bl.cells), beforeComment})
	bl.lines++
	bl.end(true) // the indentation
}

// alignBlock appends the lines of bl to b, aligned as go/printer aligns them, each
// ending with a newline, and empties bl: what go/printer's tabwriter (format.Source's
// configuration: minimal cell width 0, tab width 8, padding 1, blanks, tabs for the
// indentation, empty soft columns discarded) writes for the cells of bl, each
// section (up to a comment line) flushed on its own as the formfeed before it
// flushes the tabwriter.
func alignBlock(b []byte, bl *block) []byte {
	if bl.lines == 0 {
		return b
	}
	bl.end(false)
	bl.rows = append(bl.rows, blockRow{first: len(bl.cells)}) // the end of the last line
	first := 0
	for i := 1; i < len(bl.rows); i++ {
		if i == len(bl.rows)-1 || bl.rows[i].brk {
			bl.widths = bl.widths[:0]
			b = bl.format(b, first, i)
			first = i
		}
	}
	bl.buf, bl.cells, bl.rows, bl.lines, bl.start = bl.buf[:0], bl.cells[:0], bl.rows[:0], 0, 0
	return b
}

// row returns the cells of line i.
func (bl *block) row(i int) []blockCell { return bl.cells[bl.rows[i].first:bl.rows[i+1].first] }

// format appends lines line0 to line1 (exclusive) of bl to b, their columns from
// len(bl.widths) on aligned: text/tabwriter's Writer.format.
func (bl *block) format(b []byte, line0, line1 int) []byte {
	column := len(bl.widths)
	for this := line0; this < line1; this++ {
		if column >= len(bl.row(this))-1 {
			continue
		}
		// A cell in this column: the lines before it are written, and the block
		// of the column starts here.
		b = bl.writeLines(b, line0, this)
		line0 = this
		width := 0 // the minimal cell width
		discardable := true
		for ; this < line1; this++ {
			line := bl.row(this)
			if column >= len(line)-1 {
				break
			}
			c := line[column]
			if w := c.width + 1; w > width { // padding 1
				width = w
			}
			if c.width > 0 || c.htab {
				discardable = false
			}
		}
		if discardable { // DiscardEmptyColumns
			width = 0
		}
		bl.widths = append(bl.widths, width)
		b = bl.format(b, line0, this)
		bl.widths = bl.widths[:len(bl.widths)-1]
		line0 = this
	}
	return bl.writeLines(b, line0, line1)
}

// writeLines appends lines line0 to line1 (exclusive) of bl to b, each cell padded
// to its column's width with blanks, the leading empty cells with tabs (TabIndent):
// text/tabwriter's Writer.writeLines and writePadding, for a tab width of 8.
func (bl *block) writeLines(b []byte, line0, line1 int) []byte {
	for i := line0; i < line1; i++ {
		useTabs := true
		for j, c := range bl.row(i) {
			if c.end > c.start {
				useTabs = false
				b = append(b, bl.buf[c.start:c.end]...)
			}
			if j >= len(bl.widths) {
				continue
			}
			if useTabs {
				cellw := (bl.widths[j] + 7) / 8 * 8
				for n := (cellw - c.width + 7) / 8; n > 0; n-- {
					b = append(b, '\t')
				}
				continue
			}
			for n := bl.widths[j] - c.width; n > 0; n-- {
				b = append(b, ' ')
			}
		}
		b = append(b, '\n')
	}
	return b
}
