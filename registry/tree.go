package registry

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/babelqueue/bqgen/internal/model"
)

// tkind is the JSON kind of a tree node.
type tkind uint8

const (
	tNull tkind = iota
	tBool
	tNum
	tStr
	tSeq
	tMap
)

// tnode is a YAML value converted to JSON's data model, with positions. Aliases are
// expanded by sharing: an aliased subtree is one *tnode referred to several times.
// The small fields come first, together: a registry of 10,000 URNs has ~4 million
// nodes, and 160 bytes each instead of 192 is a sixth less of the trees' memory.
type tnode struct {
	kind   tkind
	b      bool
	bad    bool // a non-finite number (BQ023), reported and left out of the tree
	plain  bool // a plain scalar (not quoted, no tag): YAML 1.1 may read it otherwise
	shared bool // on a file's root: some subtrees are shared (anchors were used)
	// textChecked: checkText has visited this node (aliases share nodes).
	textChecked bool
	// size is the number of nodes in the expanded subtree, this one included: at most
	// the nodes of a file (MaxFileSize) plus what its aliases add (MaxNodes).
	size    int32
	height  int32 // nesting depth of the expanded subtree (MaxDepth)
	pos     model.Pos
	entries []tentry // tMap, in source order
	items   []*tnode // tSeq
	str     string   // tStr
	num     json.Number
	lit     string // the text of a plain scalar that is not a string (0777, 1e3, true)
	// unsure holds, for a field schema with a format error, the keywords the error
	// leaves in doubt ("*": all); the rules that read them skip it (isolate).
	unsure map[string]bool
}

type tentry struct {
	key    string
	keyPos model.Pos
	val    *tnode
}

// get returns the entry called key, or nil.
func (n *tnode) get(key string) *tentry {
	if n == nil || n.kind != tMap {
		return nil
	}
	for i := range n.entries {
		if n.entries[i].key == key {
			return &n.entries[i]
		}
	}
	return nil
}

// child is the value of key in the mapping n, or nil (also for a nil n).
func (n *tnode) child(key string) *tnode {
	if n == nil {
		return nil
	}
	return n.val(key)
}

// item is the i-th item of the sequence n, or nil.
func (n *tnode) item(i int) *tnode {
	if n == nil || n.kind != tSeq || i >= len(n.items) {
		return nil
	}
	return n.items[i]
}

// val returns the value of key, or nil.
func (n *tnode) val(key string) *tnode {
	if e := n.get(key); e != nil {
		return e.val
	}
	return nil
}

// toJSON converts n to the values jsonschema/v6 validates: map[string]any, []any,
// string, json.Number (exact), bool, nil.
func (n *tnode) toJSON() any { return plainJSON(n) }

// plainJSON is toJSON as a function; it only reads the tree, so it is safe for
// concurrent use on a shared tree.
func plainJSON(n *tnode) any {
	switch n.kind {
	case tBool:
		return n.b
	case tNum:
		return n.num
	case tStr:
		return n.str
	case tSeq:
		a := make([]any, len(n.items))
		for i, it := range n.items {
			a[i] = plainJSON(it)
		}
		return a
	case tMap:
		m := make(map[string]any, len(n.entries))
		for _, e := range n.entries {
			m[e.key] = plainJSON(e.val)
		}
		return m
	}
	return nil
}

// parserProblems are yaml.v3's parser (not scanner) error texts.
var parserProblems = map[string]bool{
	"did not find expected ',' or ']'": true, "did not find expected ',' or '}'": true,
	"did not find expected '-' indicator": true, "did not find expected <document start>": true,
	"did not find expected <stream-start>": true, "did not find expected key": true,
	"did not find expected node content": true, "found duplicate %TAG directive": true,
	"found duplicate %YAML directive": true, "found incompatible YAML document": true,
	"found undefined tag handle": true,
}

var yamlLineRe = regexp.MustCompile(`^yaml: line (\d+)(?:, column (\d+))?: `)

// parseFile parses one YAML file into a tree. It returns nil and diagnostics when the
// file cannot be used.
func parseFile(name string, data []byte) (*tnode, Diagnostics) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	err := dec.Decode(&doc)
	if errors.Is(err, io.EOF) {
		// An empty file is an empty mapping; the schema reports what is missing.
		return &tnode{kind: tMap, pos: model.Pos{File: name, Line: 1, Column: 1}, size: 1, height: 1}, nil
	}
	if err != nil {
		return nil, Diagnostics{escapeHint(tabHint(indentHint(longKeyHint(yamlDiag(name, err), data), data), data), data)}
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return nil, Diagnostics{{
			Pos: model.Pos{File: name, Line: max(extra.Line, 1), Column: max(extra.Column, 1)}, Severity: SeverityError, Rule: RuleSyntax,
			Message: "a registry file holds one YAML document; found a second one",
			Hint:    "remove the `---` separator, or move the second document to its own file",
		}}
	} else if !errors.Is(err, io.EOF) {
		return nil, Diagnostics{yamlDiag(name, err)}
	}
	c := &converter{file: name, done: map[*yaml.Node]*tnode{}, busy: map[*yaml.Node]bool{}}
	root := &doc
	if root.Kind == yaml.DocumentNode {
		if len(root.Content) == 0 {
			return &tnode{kind: tMap, pos: model.Pos{File: name, Line: 1, Column: 1}, size: 1, height: 1}, nil
		}
		root = root.Content[0]
	}
	t := c.conv(root, 1, nil)
	if c.fatal {
		return nil, c.diags
	}
	t.shared = len(c.done) > 0
	return t, c.diags
}

// indentProblems are the yaml.v3 errors a key indented deeper than the key before it
// causes, reported at or near that line (a parser error up to two lines before it).
var indentProblems = []string{"did not find expected key", "mapping values are not allowed in this context", "could not find expected ':'"}

// indentHint attributes an indentation error to the line that causes it. yaml.v3 reports
// such errors at or near the line, or at the start of the block mapping that holds it,
// some lines before. Within maxIndentScan lines of the reported one, it looks for a line
// holding a key (`name:`) indented deeper than the line before it, when that line's value
// is already complete (it does not end with `:`, comments aside, open a block scalar, or
// start a sequence item); the nearest such line to the reported one wins. When the line
// before it is indented less than the lines on both sides of it, which are alike, that
// line is the one out of place (dedented); otherwise the deeper line is. Without such a
// line, d is returned as is.
func indentHint(d Diagnostic, data []byte) Diagnostic {
	if !slices.ContainsFunc(indentProblems, func(p string) bool { return strings.Contains(d.Message, p) }) {
		return d
	}
	lines := bytes.SplitN(data, []byte("\n"), d.Pos.Line+maxIndentScan+1)
	code := func(ln int) []byte { return bytes.TrimSpace(stripComment(lines[ln-1])) }
	prevCode := func(ln int) int {
		for ln--; ln >= 1 && len(code(ln)) == 0; ln-- {
		}
		return ln
	}
	best, bestPrev := 0, 0
	for ln := max(2, d.Pos.Line-2); ln <= d.Pos.Line+maxIndentScan && ln <= len(lines); ln++ {
		body := code(ln)
		if len(body) == 0 || !(bytes.Contains(body, []byte(": ")) || bytes.HasSuffix(body, []byte(":"))) {
			continue
		}
		prev := prevCode(ln)
		if prev < 1 {
			continue
		}
		pt := code(prev)
		if indentOf(lines[ln-1]) <= indentOf(lines[prev-1]) || bytes.HasSuffix(pt, []byte(":")) || bytes.HasPrefix(pt, []byte("- ")) ||
			bytes.HasSuffix(pt, []byte("|")) || bytes.HasSuffix(pt, []byte(">")) || bytes.HasSuffix(pt, []byte("|-")) || bytes.HasSuffix(pt, []byte(">-")) {
			continue
		}
		if best == 0 || abs(ln-d.Pos.Line) < abs(best-d.Pos.Line) {
			best, bestPrev = ln, prev
		}
	}
	if best == 0 {
		return levelHint(d, lines, code)
	}
	ind, pind := indentOf(lines[best-1]), indentOf(lines[bestPrev-1])
	if before := prevCode(bestPrev); before >= 1 && indentOf(lines[before-1]) == ind && !bytes.HasSuffix(code(before), []byte(":")) {
		// The lines before and after bestPrev are siblings: bestPrev lost its indentation.
		d.Pos.Line, d.Pos.Column = bestPrev, pind+1
		d.Message += fmt.Sprintf(" (line %d is indented less than lines %d and %d around it)", bestPrev, before, best)
		d.Hint = fmt.Sprintf("indent line %d like lines %d and %d (column %d), %d more %s",
			bestPrev, before, best, ind+1, ind-pind, pluralWord(ind-pind, "space", "spaces"))
		return d
	}
	d.Pos.Line, d.Pos.Column = best, ind+1
	d.Message += fmt.Sprintf(" (line %d is indented deeper than line %d)", best, bestPrev)
	d.Hint = fmt.Sprintf("indent line %d like line %d (column %d), %d %s less: a key indented deeper than the key above it continues that key's value, which is already written",
		best, bestPrev, pind+1, ind-pind, pluralWord(ind-pind, "space", "spaces"))
	return d
}

// yamlEscapes are the characters yaml.v3 accepts after a backslash in a double-quoted
// scalar (YAML 1.2 §5.7 without `\/`, with `\'`), a line break included.
const yamlEscapes = "0abt\tnvfre \"'\\N_LPxuU\n\r"

// escapeHint explains "found unknown escape character": inside double quotes YAML reads
// backslash escapes, and a regular expression's `\d` is not one. yaml.v3 reports it at
// the line of the backslash without a column; the column is that of the first backslash
// on the line, inside double quotes, followed by a character YAML does not escape. The
// hint rewrites the value in single quotes and with the backslashes doubled when the
// double-quoted string is on that line.
func escapeHint(d Diagnostic, data []byte) Diagnostic {
	if !strings.Contains(d.Message, "found unknown escape character") {
		return d
	}
	d.Hint = "inside double quotes YAML reads backslash escapes: write the value in single quotes, or double each backslash"
	lines := bytes.SplitN(data, []byte("\n"), d.Pos.Line+maxIndentScan+1)
	if d.Pos.Line > len(lines) {
		return d
	}
	// yaml.v3 reports the line the string starts on: the backslash may be further down.
	text := string(bytes.Join(lines[d.Pos.Line-1:min(len(lines), d.Pos.Line+maxIndentScan)], []byte("\n")))
	open, at := unknownEscape(text, false)
	if at < 0 {
		open, at = unknownEscape(text, true) // a string continued from a line above
	}
	if at < 0 {
		return d
	}
	start := strings.LastIndexByte(text[:at], '\n') + 1
	d.Pos.Line += strings.Count(text[:at], "\n")
	d.Pos.Column = utf8.RuneCountInString(text[start:at]) + 1
	_, size := utf8.DecodeRuneInString(text[at+1:])
	esc := text[at : at+1+size]
	d.Message += " " + esc
	d.Hint = fmt.Sprintf("inside double quotes YAML reads backslash escapes, and %s is not one: write the value in single quotes, or double each backslash", esc)
	if open < 0 {
		return d
	}
	if end := closingQuote(text, open); end > 0 {
		if v := text[open+1 : end]; !strings.ContainsAny(v, "'\"\n") && !strings.Contains(v, `\\`) {
			d.Hint = fmt.Sprintf("inside double quotes YAML reads backslash escapes, and %s is not one: write the value in single quotes ('%s') or double the backslash (\"%s\")",
				esc, v, strings.ReplaceAll(v, `\`, `\\`))
		}
	}
	return d
}

// unknownEscape returns the index of the first backslash of line inside double quotes
// followed by a character YAML does not escape, or -1, and the index of the quote that
// opens its string (-1 when inside: the line starts inside a double-quoted string).
func unknownEscape(line string, inside bool) (open, at int) {
	open = -1
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case !inside && c == '"':
			open, inside = i, true
		case inside && c == '"':
			open, inside = -1, false
		case inside && c == '\\' && i+1 < len(line):
			if !strings.ContainsRune(yamlEscapes, rune(line[i+1])) {
				return open, i
			}
			i++ // a known escape: skip its character
		}
	}
	return -1, -1
}

// closingQuote is the index of the `"` that closes the double-quoted string opened at
// index open of line, or -1 when it does not close on the line.
func closingQuote(line string, open int) int {
	for i := open + 1; i < len(line); i++ {
		switch line[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return -1
}

// levelHint attributes an indentation error to the first line, up to maxIndentScan lines
// after the reported one, indented less than the line before it but not as far as any
// enclosing level: a key dedented part of the way (one space, say) matches neither its
// siblings nor its parent's. The levels are those of the keys and sequence items above
// it (an item's content is a level too); block scalars' lines are skipped. The hint
// names the nearest sibling above it, at the level it left. Without such a line, d is
// returned as is. code(ln) is line ln without its comment and surrounding spaces.
func levelHint(d Diagnostic, lines [][]byte, code func(int) []byte) Diagnostic {
	type level struct{ indent, line int }
	var stack []level // increasing indents
	scalar := -1      // the indentation of the key of an open block scalar, or -1
	for ln := 1; ln <= len(lines) && ln <= d.Pos.Line+maxIndentScan; ln++ {
		body := code(ln)
		if len(body) == 0 {
			continue
		}
		ind := indentOf(lines[ln-1])
		if scalar >= 0 && ind > scalar {
			continue
		}
		scalar = -1
		var left *level
		for len(stack) > 0 && stack[len(stack)-1].indent > ind {
			left = &stack[len(stack)-1]
			stack = stack[:len(stack)-1]
		}
		top := -1
		if len(stack) > 0 {
			top = stack[len(stack)-1].indent
		}
		if left != nil && top != ind {
			// Between two levels: the line matches none of them.
			sib := left.line
			d.Pos.Line, d.Pos.Column = ln, ind+1
			d.Message += fmt.Sprintf(" (line %d is indented to column %d, which no key above it is at)", ln, ind+1)
			d.Hint = fmt.Sprintf("indent line %d like line %d (column %d), %d more %s", ln, sib, left.indent+1,
				left.indent-ind, pluralWord(left.indent-ind, "space", "spaces"))
			return d
		}
		if top == ind {
			stack[len(stack)-1].line = ln
		} else {
			stack = append(stack, level{ind, ln})
		}
		if rest, ok := bytes.CutPrefix(body, []byte("-")); ok && (len(rest) == 0 || rest[0] == ' ') {
			// A sequence item: its content is a level of its own.
			if item := bytes.TrimLeft(rest, " "); len(item) > 0 {
				stack = append(stack, level{ind + len(body) - len(item), ln})
			}
		}
		if blockScalarRe.Match(body) {
			scalar = ind
		}
	}
	return d
}

// blockScalarRe matches a line (comment and spaces removed) whose value opens a block
// scalar: `key: |`, `- >-`, `key: |2`.
var blockScalarRe = regexp.MustCompile(`(^|^-|: )\s*[|>][-+0-9]*$`)

// maxIndentScan is how many lines after the reported one indentHint reads.
const maxIndentScan = 40

// stripComment returns line without a YAML comment: from a `#` at its start or after a
// space or tab, outside quotes, to its end.
func stripComment(line []byte) []byte {
	var quote byte
	for i, c := range line {
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t'):
			return line[:i]
		}
	}
	return line
}

// indentOf is the number of leading spaces of a line.
func indentOf(line []byte) int { return len(line) - len(bytes.TrimLeft(line, " ")) }

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func pluralWord(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// maxImplicitKey is YAML's limit on a key written without `? ` (YAML 1.2 §7.4.2).
const maxImplicitKey = 1024

// longKeyHint explains the YAML error that a key over 1024 characters causes, which
// yaml.v3 reports as a misplaced colon.
func longKeyHint(d Diagnostic, data []byte) Diagnostic {
	if !strings.Contains(d.Message, "mapping values are not allowed") && !strings.Contains(d.Message, "could not find expected ':'") {
		return d
	}
	line := data
	for i := 1; i < d.Pos.Line; i++ {
		j := bytes.IndexByte(line, '\n')
		if j < 0 {
			return d
		}
		line = line[j+1:]
	}
	if j := bytes.IndexByte(line, '\n'); j >= 0 {
		line = line[:j]
	}
	if k := bytes.Index(line, []byte(": ")); k > maxImplicitKey || (k < 0 && len(line) > maxImplicitKey) {
		d.Message += fmt.Sprintf(" (a key longer than %d characters)", maxImplicitKey)
		d.Hint = fmt.Sprintf("YAML limits a plain key to %d characters: shorten the name, or write a long key explicitly as `? key` on one line and `: value` on the next", maxImplicitKey)
	}
	return d
}

// tabHint explains the YAML errors a tab in the indentation causes ("found character
// that cannot start any token", "found a tab character that violates indentation"):
// YAML indents with spaces only. The position moves to the tab, which yaml.v3 reports
// at the start of its line or on the line before.
func tabHint(d Diagnostic, data []byte) Diagnostic {
	if !strings.Contains(d.Message, "cannot start any token") && !strings.Contains(d.Message, "tab character") {
		return d
	}
	lines := bytes.SplitN(data, []byte("\n"), d.Pos.Line+2)
	for _, ln := range []int{d.Pos.Line, d.Pos.Line + 1} {
		if ln < 1 || ln > len(lines) {
			continue
		}
		text := lines[ln-1]
		indent := text[:len(text)-len(bytes.TrimLeft(text, " \t"))]
		if col := bytes.IndexByte(indent, '\t'); col >= 0 {
			d.Pos.Line, d.Pos.Column = ln, col+1
			if !strings.Contains(d.Message, "tab") {
				d.Message += " (a tab in the indentation)"
			}
			d.Hint = fmt.Sprintf("YAML indents with spaces only: replace the tab at line %d, column %d with spaces (set your editor to insert spaces in .yaml files)", ln, col+1)
			return d
		}
	}
	return d
}

func yamlDiag(name string, err error) Diagnostic {
	msg := err.Error()
	pos := model.Pos{File: name, Line: 1, Column: 1}
	if m := yamlLineRe.FindStringSubmatch(msg); m != nil {
		pos.Line, _ = strconv.Atoi(m[1])
		if m[2] != "" {
			pos.Column, _ = strconv.Atoi(m[2])
		}
		msg = msg[len(m[0]):]
		if parserProblems[msg] {
			// yaml.v3 prints the parser's 0-based mark for parser (not scanner) errors.
			pos.Line++
		}
	} else {
		msg = strings.TrimPrefix(msg, "yaml: ")
	}
	if pos.Line < 1 {
		pos.Line = 1
	}
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	return Diagnostic{Pos: pos, Severity: SeverityError, Rule: RuleSyntax, Message: "YAML syntax error: " + msg,
		Hint: "fix the YAML syntax; quote strings that contain `: ` or start with a special character"}
}

// converter turns a yaml.Node tree into a tnode tree, enforcing MaxNodes (on what
// aliases add) and MaxDepth and reporting non-finite numbers (BQ023).
type converter struct {
	file string
	done map[*yaml.Node]*tnode // converted anchor targets
	busy map[*yaml.Node]bool   // anchors being converted
	// expanded counts the YAML nodes that alias uses add (MaxNodes).
	expanded int
	diags    Diagnostics
	fatal    bool
	// section is the top-level key whose value is being converted: a key defined
	// twice directly under "messages" or "types" is a duplicate URN or type (BQ013).
	section string
}

func (c *converter) pos(n *yaml.Node) model.Pos {
	return model.Pos{File: c.file, Line: max(n.Line, 1), Column: max(n.Column, 1)}
}

func (c *converter) fail(n *yaml.Node, msg, hint string) {
	if c.fatal {
		return
	}
	c.fatal = true
	c.diags = append(c.diags, Diagnostic{Pos: c.pos(n), Severity: SeverityError, Rule: RuleLimit, Message: msg, Hint: hint})
}

// conv converts n found at nesting depth depth into slot (a new node when slot is nil)
// and returns it; an alias returns the node of its anchor instead, leaving slot unused.
// A mapping or a sequence allocates its values' nodes in one slice (their slots): a
// registry's trees have millions of nodes, and one allocation per node was a tenth of
// a load's allocations.
func (c *converter) conv(n *yaml.Node, depth int, slot *tnode) *tnode {
	if c.fatal {
		return nil
	}
	if n.Kind == yaml.AliasNode {
		if n.Alias == nil {
			c.fail(n, "alias to an unknown anchor", "define the anchor before using it")
			return nil
		}
		if c.busy[n.Alias] {
			c.fail(n, "alias *"+n.Value+" refers to a value that contains it", "remove the recursive alias")
			return nil
		}
		t := c.done[n.Alias]
		if t == nil {
			t = c.conv(n.Alias, depth, nil)
			if t == nil {
				return nil
			}
		}
		// Budget what aliases add, not what the author wrote (the file size bounds
		// that): every use of an alias adds its expanded subtree once more.
		c.expanded += int(t.size)
		if c.expanded > MaxNodes {
			c.fail(n, fmt.Sprintf("alias *%s makes the file's aliases expand to more than %d YAML nodes", n.Value, MaxNodes),
				"reuse schemas through `types:` instead of YAML aliases")
			return nil
		}
		if depth-1+int(t.height) > MaxDepth {
			c.fail(n, fmt.Sprintf("alias *%s nests values deeper than %d levels", n.Value, MaxDepth),
				"flatten the schema with named types (`types:`)")
			return nil
		}
		return t
	}
	t := slot
	if t == nil {
		t = new(tnode)
	}
	t.pos, t.size, t.height = c.pos(n), 1, 1
	if n.Anchor != "" {
		c.busy[n] = true
		defer delete(c.busy, n)
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			t.kind = tNull
			return t
		}
		return c.conv(n.Content[0], depth, t)
	case yaml.ScalarNode:
		c.scalar(n, t)
	case yaml.SequenceNode:
		if depth > MaxDepth {
			c.fail(n, fmt.Sprintf("values are nested deeper than %d levels", MaxDepth), "flatten the schema with named types (`types:`)")
			return nil
		}
		t.kind = tSeq
		t.items = make([]*tnode, 0, len(n.Content))
		slots := make([]tnode, len(n.Content))
		for i, it := range n.Content {
			ct := c.conv(it, depth+1, &slots[i])
			n.Content[i] = nil // converted: let the collector have it (a dense file's two trees)
			if ct == nil {
				return nil
			}
			if ct.bad {
				continue
			}
			t.items = append(t.items, ct)
			t.size += ct.size
			t.height = max(t.height, ct.height+1)
		}
	case yaml.MappingNode:
		if depth > MaxDepth {
			c.fail(n, fmt.Sprintf("values are nested deeper than %d levels", MaxDepth), "flatten the schema with named types (`types:`)")
			return nil
		}
		t.kind = tMap
		if !c.mapping(n, t, depth) {
			return nil
		}
	default:
		t.kind = tNull
	}
	if n.Anchor != "" {
		c.done[n] = t
	}
	return t
}

// mergeKey is the text of YAML's merge key.
const mergeKey = "<<"

// mapping fills t from the mapping node n, applying its merge key (`<<: *base`, or
// `<<: [*a, *b]`, the earlier mapping winning): a key written in n wins over a merged
// one. A key written twice in n is an error whatever the key, the merge key included
// (yaml.v3's decoder refuses both; YAML readers disagree on what a second `<<` means),
// and so is `<<` beside a quoted "<<" key; the first one is kept.
func (c *converter) mapping(n *yaml.Node, t *tnode, depth int) bool {
	seen := keySet{entries: &t.entries}
	t.entries = make([]tentry, 0, len(n.Content)/2)
	slots := make([]tnode, len(n.Content)/2)
	var merge *tnode
	var mergePos model.Pos
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		n.Content[i], n.Content[i+1] = nil, nil // converted below: let the collector have them
		slot := &slots[i/2]
		kp := c.pos(k)
		if k.Kind == yaml.ScalarNode && k.ShortTag() == "!!merge" {
			first, dup := seen.get(mergeKey)
			if mergePos.IsValid() {
				first, dup = mergePos, true
			}
			if dup {
				c.duplicate(mergeKey, kp, first, depth)
				continue
			}
			mv := c.conv(v, depth+1, slot)
			if mv == nil {
				return false
			}
			merge, mergePos = mv, kp
			continue
		}
		var key string
		switch {
		case k.Kind == yaml.ScalarNode:
			key = k.Value
		case k.Kind == yaml.AliasNode && k.Alias != nil && k.Alias.Kind == yaml.ScalarNode:
			key = k.Alias.Value
		default:
			c.diags = append(c.diags, Diagnostic{Pos: kp, Severity: SeverityError, Rule: RuleFormat,
				Message: "a mapping key must be a plain string", Hint: "use a string key"})
			continue
		}
		first, dup := seen.get(key)
		if key == mergeKey && mergePos.IsValid() {
			first, dup = mergePos, true
		}
		if dup {
			c.duplicate(key, kp, first, depth)
			continue
		}
		if depth == 1 {
			c.section = key
		}
		cv := c.conv(v, depth+1, slot)
		if cv == nil {
			return false
		}
		if cv.bad {
			seen.put(key, kp, false)
			continue
		}
		t.entries = append(t.entries, tentry{key: key, keyPos: kp, val: cv})
		seen.put(key, kp, true)
		t.size += cv.size + 1
		t.height = max(t.height, cv.height+1)
	}
	if merge != nil {
		var srcs []*tnode
		switch merge.kind {
		case tMap:
			srcs = []*tnode{merge}
		case tSeq:
			srcs = merge.items
		}
		for _, s := range srcs {
			if s.kind != tMap {
				c.diags = append(c.diags, Diagnostic{Pos: s.pos, Severity: SeverityError, Rule: RuleSyntax,
					Message: "a merge key (<<) needs a mapping or a list of mappings", Hint: "merge an anchored mapping: `<<: *base`"})
				continue
			}
			for _, e := range s.entries {
				if _, ok := seen.get(e.key); ok {
					continue
				}
				t.entries = append(t.entries, e)
				seen.put(e.key, e.keyPos, true)
				t.size += e.val.size + 1
				t.height = max(t.height, e.val.height+1)
			}
		}
	}
	return true
}

// keySet is the keys of one mapping seen so far, with their positions: the keys of
// its entries, and the few whose values were left out (a non-finite number). The
// mappings of a registry are small (a schema's keywords, a message's few keys): up to
// smallKeySet keys are looked up in the entries themselves, without a map or a copy
// (a map per mapping was a tenth of the allocations of a load); a mapping with more
// keys gets a map, so that a hostile file's huge mapping is not quadratic.
type keySet struct {
	entries *[]tentry // the mapping's entries, which put has just appended to
	out     []seenKey // keys whose values were left out
	m       map[string]model.Pos
}

type seenKey struct {
	key string
	pos model.Pos
}

// smallKeySet is the most keys a keySet holds without a map.
const smallKeySet = 32

// get returns the position of key and true when it was put, else false.
func (s *keySet) get(key string) (model.Pos, bool) {
	if s.m != nil {
		p, ok := s.m[key]
		return p, ok
	}
	for _, e := range *s.entries {
		if e.key == key {
			return e.keyPos, true
		}
	}
	for _, k := range s.out {
		if k.key == key {
			return k.pos, true
		}
	}
	return model.Pos{}, false
}

// put records key at pos; key must not be in s. inEntries says it was just appended
// to the entries; else its value was left out.
func (s *keySet) put(key string, pos model.Pos, inEntries bool) {
	if !inEntries && s.m == nil {
		s.out = append(s.out, seenKey{key, pos})
	}
	if s.m == nil && len(*s.entries)+len(s.out) <= smallKeySet {
		return
	}
	if s.m == nil {
		s.m = make(map[string]model.Pos, 2*smallKeySet)
		for _, e := range *s.entries {
			s.m[e.key] = e.keyPos
		}
		for _, k := range s.out {
			s.m[k.key] = k.pos
		}
		return
	}
	s.m[key] = pos
}

// duplicate reports key, written at kp in a mapping at nesting depth depth, as
// written before at first (BQ001; BQ013 for a URN or a type name).
func (c *converter) duplicate(key string, kp, first model.Pos, depth int) {
	d := Diagnostic{Pos: kp, Severity: SeverityError, Rule: RuleSyntax,
		Message: fmt.Sprintf("duplicate key %q (first defined at %s)", key, first),
		Hint:    "remove one of the two keys", Related: []model.Pos{first}}
	switch {
	case key == mergeKey:
		d.Message = fmt.Sprintf("key %q (a merge key) is written twice in one mapping (first at %s)", key, first)
		d.Hint = "merge several mappings with one key and a list, `<<: [*first, *second]` (the earlier one wins), or write the keys out; YAML readers disagree on what a second `<<` (or a quoted \"<<\" beside it) means"
	case depth == 2 && c.section == "messages":
		d.Rule = RuleDuplicate
		d.Message = fmt.Sprintf("URN %q is defined twice (first at %s)", key, first)
		d.Hint = "a URN is defined once; an incompatible change mints " + key + ".v2"
	case depth == 2 && c.section == "types":
		d.Rule = RuleDuplicate
		d.Message = fmt.Sprintf("type %q is defined twice (first at %s)", key, first)
		d.Hint = "keep one definition of the type"
	}
	c.diags = append(c.diags, d)
}

var nonFinite = map[string]bool{".nan": true, ".NaN": true, ".NAN": true, ".inf": true, ".Inf": true, ".INF": true,
	"+.inf": true, "+.Inf": true, "+.INF": true, "-.inf": true, "-.Inf": true, "-.INF": true}

// scalar fills t from a scalar node, resolved by the YAML 1.2 core schema (yaml12.go).
func (c *converter) scalar(n *yaml.Node, t *tnode) {
	tag, explicit := coreTag(n)
	v := n.Value
	t.plain = !explicit && n.Style == 0
	if (tag == "!!int" || tag == "!!float") && len(v) > MaxNumberLength {
		t.kind, t.bad = tNull, true
		c.diags = append(c.diags, Diagnostic{Pos: c.pos(n), Severity: SeverityError, Rule: RuleLimit,
			Message: fmt.Sprintf("number literal of %d characters; the limit is %d", len(v), MaxNumberLength),
			Hint:    "write the number with fewer digits; an int64 has at most 19 and a double needs at most 17 significant digits"})
		return
	}
	switch tag {
	case "!!null":
		if coreSpecial[v] != "!!null" {
			c.badTag(n, t, "null", "write null, ~ or nothing")
			return
		}
		t.kind = tNull
	case "!!bool":
		if coreSpecial[v] != "!!bool" {
			c.badTag(n, t, "boolean", "write true or false")
			return
		}
		t.kind, t.b = tBool, v[0] == 't' || v[0] == 'T'
	case "!!int":
		x, ok := coreInt(v)
		if !ok {
			c.badTag(n, t, "integer", "write a decimal integer (12), octal with 0o (0o14) or hexadecimal with 0x (0xC)")
			return
		}
		t.kind, t.num = tNum, x
		c.leadingZero(n, v, x)
	case "!!float":
		if nonFinite[v] {
			t.kind, t.bad = tNull, true
			c.nonFinite(n, v)
			return
		}
		c.number(n, t, v)
	default:
		t.kind, t.str = tStr, v
	}
	if t.plain && t.kind != tStr {
		t.lit = v
	}
}

// badTag reports an explicitly tagged scalar whose text the YAML 1.2 core schema does
// not read as that tag (`!!int 0b101`, `!!bool yes`), and leaves the value out (BQ001).
// The hint gives the YAML 1.1 reading when there is one.
func (c *converter) badTag(n *yaml.Node, t *tnode, what, hint string) {
	t.kind, t.bad, t.str = tNull, true, ""
	if r, ok := yaml11Reading(n.Value); ok && r.why != "" && (r.kind == what || what == "number" && r.kind == "integer") {
		hint = fmt.Sprintf("%s: write %s", r.why, r.value)
	}
	c.diags = append(c.diags, Diagnostic{Pos: c.pos(n), Severity: SeverityError, Rule: RuleSyntax,
		Message: fmt.Sprintf("%s %s is not a YAML 1.2 %s", n.ShortTag(), strconv.Quote(n.Value), what), Hint: hint})
}

// leadingZero reports an integer written with a leading zero (0777): YAML 1.2 reads it
// as decimal, YAML 1.1 tools as octal (or, with an 8 or 9, as a string), so the author
// may have meant another number than the one bqgen reads (BQ040).
func (c *converter) leadingZero(n *yaml.Node, v string, x json.Number) {
	d := strings.TrimLeft(v, "+-")
	if len(d) < 2 || d[0] != '0' || !isDigit(d[1]) {
		return
	}
	other := "the string " + strconv.Quote(v)
	octal := ""
	if r, ok := yaml11Reading(v); ok && r.kind == "integer" {
		if r.value == string(x) {
			return // 00, 07: the same number either way
		}
		other = r.value + " (octal)"
		if v[0] != '-' { // YAML 1.2 octal (0o) has no sign
			octal = fmt.Sprintf(", write %s in octal as 0o%s", r.value, strings.TrimLeft(d, "0"))
		}
	}
	c.diags = append(c.diags, Diagnostic{Pos: c.pos(n), Severity: SeverityWarning, Rule: RuleYAML11,
		Message: fmt.Sprintf("%s is read as %s (YAML 1.2, decimal); YAML 1.1 tools read it as %s", v, x, other),
		Hint:    fmt.Sprintf("drop the leading zero (%s)%s, or quote %s if it is text", x, octal, strconv.Quote(v))})
}

// number fills t from the decimal literal text of n (readNumber), reporting a value
// beyond a double or one a double cannot carry (BQ023).
func (c *converter) number(n *yaml.Node, t *tnode, text string) {
	num, double, class := readNumber(text)
	switch class {
	case numExact:
		t.kind, t.num, t.str = tNum, num, ""
	case numInfinite:
		t.kind, t.bad, t.str = tNull, true, ""
		c.nonFinite(n, n.Value)
	case numInexact:
		t.kind, t.bad, t.str = tNull, true, ""
		c.inexact(n, n.Value, double)
	default:
		c.badTag(n, t, "number", "write a decimal number (12, 1.5, 2.5e-3)")
	}
}

func (c *converter) inexact(n *yaml.Node, text, double string) {
	c.diags = append(c.diags, Diagnostic{Pos: c.pos(n), Severity: SeverityError, Rule: RuleNonFinite,
		Message: fmt.Sprintf("%s cannot be carried exactly: a double reads it as %s", text, double),
		Hint:    fmt.Sprintf("write %s, or a number a double keeps (at most 15 significant digits, magnitude between 1e-307 and 1e308)", double)})
}

func (c *converter) nonFinite(n *yaml.Node, text string) {
	c.diags = append(c.diags, Diagnostic{Pos: c.pos(n), Severity: SeverityError, Rule: RuleNonFinite,
		Message: fmt.Sprintf("%s is not a finite number; JSON has no NaN or Infinity", text),
		Hint:    "use a finite number (JSON has no NaN or Infinity); leave an open bound out"})
}
