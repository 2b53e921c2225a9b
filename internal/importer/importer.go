// Package importer converts registries written for other tools into a bqgen registry
// (docs/registry-format.md). Today it reads the babelqueue-registry format (`bqschema`): a
// registry.json manifest `{"schemas": [{"urn", "schema", "owner", "status"}]}` whose
// entries point, by path relative to the manifest, at draft-07 JSON Schemas of each
// message's data.
//
// The conversion is exact or it says so: every keyword that changes what is valid and
// that bqgen cannot express (oneOf, allOf, if/then, patternProperties, default, tuple
// items, type unions, …) is an Issue of severity error with its file, line, column and
// JSON pointer, and the part it belongs to is left out of the output with a comment
// saying so. Annotations that are lost (an unknown x- keyword, a title) are warnings.
// The output is deterministic YAML, ordered and styled like a hand-written registry.
//
// What maps to what:
//
//	manifest owner                  owner
//	manifest status "deprecated"    deprecated: (the schema's x-deprecated-reason, or true)
//	root description                summary (first paragraph) and description (the rest)
//	type, format, enum, bounds, lengths, pattern, required, additionalProperties: false
//	                                the same keywords
//	type: [X, "null"], enum with null, anyOf/oneOf [X, {"type": "null"}]
//	                                nullable: true
//	const (a scalar)                enum with that one value
//	additionalProperties: {schema}  type: map, values: schema (objects without properties)
//	$ref #/definitions/N, #/$defs/N types: N (CamelCase), used as type: N
//	x-babel-type money, timestamp, uuid, integer-string
//	                                type: money, timestamp, uuid; integer with encoding: string
//	integer bounds equal to the int64 range (int32: format: int32)
//	                                left out: the type implies them
//	x-gdpr-sensitive, description, deprecated, x-deprecated-reason, examples
//	                                kept
//
// A message URN ending in .vN (N ≥ 2) gets `supersedes:` the previous version when the
// manifest has it. bqgen jsonschema's own output (its registry.json) imports back to a
// registry whose data schemas are byte-identical: its entries name the full-fidelity
// data schema under "x-babel-data-schema", which is read instead of "schema" (the
// manifest profile, whose named types are inlined).
package importer

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"net/url"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/babelqueue/bqgen/internal/yamlsafe"
	"go.yaml.in/yaml/v3"

	"github.com/babelqueue/bqgen/internal/ecmare"
	"github.com/babelqueue/bqgen/internal/emit/jsonschema"
	"github.com/babelqueue/bqgen/internal/jsonnum"
	"github.com/babelqueue/bqgen/internal/termtext"
	"github.com/babelqueue/bqgen/registry"
)

// Severities of an Issue.
const (
	// SeverityError: something that changes what is valid could not be converted.
	SeverityError = "error"
	// SeverityWarning: an annotation was dropped; what is valid is unchanged.
	SeverityWarning = "warning"
)

// Issue is one thing the import could not carry over exactly.
type Issue struct {
	// File is the file the problem is in (the manifest or a schema file), as a path
	// from the working directory (the schema path joined to the manifest's directory).
	File string
	// Line and Column locate the offending key or value (1-based; 0 when unknown).
	Line, Column int
	// Pointer is the JSON pointer of the offending keyword in File ("" for the whole
	// document).
	Pointer  string
	Severity string
	Message  string
	// Hint says what to do instead; may be "".
	Hint string
}

// String formats i as `file:line:col: severity: #/pointer: message`, the file name
// quoted when it is not plain printable text (termtext.Name).
func (i Issue) String() string {
	var b strings.Builder
	b.WriteString(termtext.Name(i.File))
	if i.Line > 0 {
		fmt.Fprintf(&b, ":%d:%d", i.Line, i.Column)
	}
	fmt.Fprintf(&b, ": %s: ", i.Severity)
	if i.Pointer != "" || i.File != "" {
		b.WriteString("#" + i.Pointer + ": ")
	}
	b.WriteString(i.Message)
	return b.String()
}

// Result is a converted registry.
type Result struct {
	// YAML is the bqgen registry. It is complete only when HasErrors is false;
	// otherwise the parts that could not be converted are left out, each marked with a
	// `# bqgen import:` comment.
	YAML []byte
	// Issues are sorted by file, line and column.
	Issues []Issue
	// Messages and Types count what was written.
	Messages, Types int
}

// HasErrors reports whether anything that changes what is valid was not converted.
func (r *Result) HasErrors() bool {
	for _, i := range r.Issues {
		if i.Severity == SeverityError {
			return true
		}
	}
	return false
}

// ErrManifest wraps the errors that stop an import before any schema is read: the
// manifest cannot be read.
var ErrManifest = errors.New("cannot read the manifest")

// BQSchema converts the babelqueue-registry manifest at manifestPath and the schema
// files it names. Files are read as the registry loader reads registries: regular
// files only (a FIFO or a device is refused without blocking), at most MaxFileSize
// bytes each, and schema files only inside opts.SchemaRoot (the manifest's directory by
// default), so a manifest cannot make the import read, or copy into its output, a file
// the user did not hand it (docs/import.md, "Files read"). The error is non-nil only
// when the manifest itself cannot be read (wrapping ErrManifest and the cause); every
// other problem, including a manifest that is not valid JSON and a schema file that is
// missing or refused, is an Issue.
func BQSchema(manifestPath string, opts Options) (*Result, error) {
	data, err := readManifest(manifestPath)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrManifest, err)
	}
	rootDir := opts.SchemaRoot
	if rootDir == "" {
		rootDir = filepath.Dir(manifestPath)
	}
	files, err := openSchemaFiles(rootDir)
	if err != nil {
		return nil, fmt.Errorf("schema root: %w", err)
	}
	defer files.close()
	c := &conv{
		manifest: manifestPath,
		dir:      filepath.Dir(manifestPath),
		files:    files,
		types:    map[string]*typeDef{},
		byRef:    map[string]*typeDef{},
	}
	doc := c.convert(data)
	res := &Result{Issues: c.issues, Messages: c.messages, Types: len(c.types)}
	sort.SliceStable(res.Issues, func(i, j int) bool {
		a, b := res.Issues[i], res.Issues[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
	// Every string a YAML 1.1 reader would resolve otherwise is quoted (yamlsafe).
	b, err := yamlsafe.Marshal(doc)
	if err != nil {
		return nil, err
	}
	res.YAML = b
	return res, nil
}

// conv holds the state of one import.
type conv struct {
	manifest string
	dir      string
	files    *schemaFiles
	issues   []Issue
	messages int
	types    map[string]*typeDef // by bqgen type name
	byRef    map[string]*typeDef // by file + "\x00" + definition key
	pending  []*typeDef          // definitions referenced but not yet converted
	dropped  *[]string           // comments for the message or type being converted
}

// typeDef is one named type made from a definition.
type typeDef struct {
	name  string
	file  *schemaFile
	key   string // the key under definitions/$defs
	ptr   string
	v     *jval
	canon string
	node  *yaml.Node
	notes []string
}

type schemaFile struct {
	path string // as reported
	root *jval
}

func (c *conv) add(file string, v *jval, ptr, sev, msg, hint string) {
	is := Issue{File: file, Pointer: ptr, Severity: sev, Message: msg, Hint: hint}
	if v != nil {
		is.Line, is.Column = v.line, v.col
	}
	c.issues = append(c.issues, is)
	if sev == SeverityError && c.dropped != nil {
		*c.dropped = append(*c.dropped, fmt.Sprintf("%s#%s: %s", filepath.ToSlash(file), ptr, msg))
	}
}

// convert builds the registry document.
func (c *conv) convert(data []byte) *yaml.Node {
	root := mapNode()
	doc := &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{root}}
	k := addKey(root, "version", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: "1"})
	k.HeadComment = fmt.Sprintf("Converted by `bqgen import --from bqschema %s`.\n"+
		"Review before use: every message is an event unless marked `kind: command`, and\n"+
		"`consumers: [go, php, node]` declares the languages that read these messages\n"+
		"(\"node\" turns on rule BQ022, JavaScript-safe integers).", filepath.ToSlash(c.manifest))

	m, err := parseJSON(data)
	if err != nil {
		var je *jsonError
		if errors.As(err, &je) {
			c.issues = append(c.issues, Issue{File: c.manifest, Line: je.line, Column: je.col, Severity: SeverityError, Message: "not valid JSON: " + je.msg})
		} else {
			c.add(c.manifest, nil, "", SeverityError, "not valid JSON: "+err.Error(), "")
		}
		addKey(root, "messages", mapNode())
		return doc
	}
	entries := c.manifestEntries(m)
	urns := map[string]bool{}
	for _, e := range entries {
		urns[e.urn] = true
	}
	msgs := mapNode()
	for _, e := range entries {
		node := c.message(e, urns)
		if node == nil {
			continue
		}
		addKey(msgs, e.urn, node)
		c.messages++
	}
	// Convert every definition reached (they may reach more).
	for len(c.pending) > 0 {
		td := c.pending[0]
		c.pending = c.pending[1:]
		c.dropped = &td.notes
		td.node = c.field(td.file, []layer{{td.v, td.ptr}})
		c.dropped = nil
	}
	if len(c.types) > 0 {
		types := mapNode()
		names := make([]string, 0, len(c.types))
		for n := range c.types {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			td := c.types[n]
			node := td.node
			if node == nil {
				// Nothing of it could be converted: keep the name so uses still resolve,
				// as an open object, and say so.
				b := &fieldBuilder{}
				b.set("type", strNode("object"))
				node = b.node()
			}
			k := addKey(types, n, node)
			k.HeadComment = notesComment(td.notes)
		}
		addKey(root, "types", types)
	}
	addKey(root, "messages", msgs)
	return doc
}

func notesComment(notes []string) string {
	if len(notes) == 0 {
		return ""
	}
	lines := []string{"bqgen import: not converted (see the import report):"}
	for _, n := range notes {
		lines = append(lines, "  "+strings.ReplaceAll(n, "\n", " "))
	}
	return strings.Join(lines, "\n")
}

type entry struct {
	urn, schema, owner, status string
	data                       string // x-babel-data-schema: read instead of schema
	v                          *jval
	ptr                        string
}

// manifestEntries reads the entries of the manifest, reporting malformed ones.
func (c *conv) manifestEntries(m *jval) []entry {
	if m.kind != jObject {
		c.add(c.manifest, m, "", SeverityError, "the manifest must be a JSON object with a \"schemas\" array", "")
		return nil
	}
	for i, k := range m.keys {
		if k != "schemas" && k != "$comment" {
			c.add(c.manifest, m.vals[i], "/"+ptrEscape(k), SeverityWarning, fmt.Sprintf("manifest key %q is not part of the babelqueue-registry format; ignored", k), "")
		}
	}
	list := m.get("schemas")
	if list == nil || list.kind != jArray {
		c.add(c.manifest, m, "/schemas", SeverityError, "the manifest has no \"schemas\" array", "")
		return nil
	}
	var out []entry
	seen := map[string]string{}
	for i, ev := range list.elems {
		ptr := fmt.Sprintf("/schemas/%d", i)
		if ev.kind != jObject {
			c.add(c.manifest, ev, ptr, SeverityError, "a manifest entry must be an object {\"urn\", \"schema\", \"owner\", \"status\"}", "")
			continue
		}
		e := entry{v: ev, ptr: ptr}
		ok := true
		for j, k := range ev.keys {
			val := ev.vals[j]
			kp := ptr + "/" + ptrEscape(k)
			var dst *string
			switch k {
			case "urn":
				dst = &e.urn
			case "schema":
				dst = &e.schema
			case "owner":
				dst = &e.owner
			case "status":
				dst = &e.status
			case "x-babel-data-schema":
				// bqgen jsonschema: the full-fidelity draft-07 data schema, beside the
				// manifest-profile one that "schema" names (docs/jsonschema.md).
				dst = &e.data
			default:
				c.add(c.manifest, val, kp, SeverityWarning, fmt.Sprintf("manifest entry key %q is not part of the babelqueue-registry format; ignored", k), "")
				continue
			}
			if val.kind != jString {
				c.add(c.manifest, val, kp, SeverityError, fmt.Sprintf("%s must be a string, not %s", k, val.kind), "")
				ok = false
				continue
			}
			*dst = val.str
		}
		if !ok {
			continue
		}
		if e.data != "" {
			e.schema = e.data
		}
		if e.urn == "" || e.schema == "" {
			c.add(c.manifest, ev, ptr, SeverityError, "a manifest entry needs a non-empty urn and schema", "")
			continue
		}
		if first, dup := seen[e.urn]; dup {
			c.add(c.manifest, ev.get("urn"), ptr+"/urn", SeverityError, fmt.Sprintf("URN %q is declared twice (first at %s); the second entry is ignored", e.urn, first), "keep one entry; an incompatible change mints <urn>.v2")
			continue
		}
		seen[e.urn] = "#" + ptr
		out = append(out, e)
	}
	return out
}

var versionSuffix = regexp.MustCompile(`^(.+)\.v([0-9]+)$`)

// message converts one manifest entry.
func (c *conv) message(e entry, urns map[string]bool) *yaml.Node {
	path := e.schema
	if !filepath.IsAbs(path) {
		path = filepath.Join(c.dir, filepath.FromSlash(path))
	}
	data, err := c.files.read(path)
	if err != nil {
		msg, hint := err.Error(), ""
		switch {
		case errors.Is(err, fs.ErrNotExist):
			msg = fmt.Sprintf("schema file %s does not exist", path)
		case errors.Is(err, errOutside):
			msg = fmt.Sprintf("schema file %s is outside %s, where schema files are read from; it was not read", path, c.files.rootDir)
			hint = "keep the schemas beside the manifest, or name the directory that holds them with --schema-root"
		case errors.Is(err, errNotRegular), errors.Is(err, errTooLarge):
			msg = fmt.Sprintf("schema file %s: %v; it was not read", path, err)
		}
		c.add(c.manifest, e.v.get("schema"), e.ptr+"/schema", SeverityError, fmt.Sprintf("%s: %s", e.urn, termtext.Line(msg)), hint)
		return nil
	}
	root, err := parseJSON(data)
	if err != nil {
		is := Issue{File: path, Severity: SeverityError, Message: "not valid JSON: " + err.Error()}
		var je *jsonError
		if errors.As(err, &je) {
			is.Line, is.Column, is.Message = je.line, je.col, "not valid JSON: "+je.msg
		}
		c.issues = append(c.issues, is)
		return nil
	}
	f := &schemaFile{path: path, root: root}
	var notes []string
	c.dropped = &notes
	defer func() { c.dropped = nil }()

	msg := mapNode()
	var summary, description, reason string
	deprecated := false
	if root.kind == jObject {
		if d := root.get("description"); d != nil && d.kind == jString {
			summary, description = splitDescription(d.str)
		}
		if t := root.get("title"); t != nil && t.kind == jString && t.str != jsonschema.PascalName(e.urn) {
			if summary == "" {
				summary = t.str
			} else {
				c.add(path, t, "/title", SeverityWarning, "title dropped: a bqgen message is named by its URN (the description is kept as summary)", "")
			}
		}
		if d := root.get("deprecated"); d != nil && d.kind == jBool && d.b {
			deprecated = true
		}
		if r := root.get("x-deprecated-reason"); r != nil && r.kind == jString {
			deprecated, reason = true, r.str
		}
		if u := root.get("x-babel-urn"); u != nil && u.kind == jString && u.str != e.urn {
			c.add(path, u, "/x-babel-urn", SeverityWarning, fmt.Sprintf("x-babel-urn %q differs from the manifest's URN %q; the manifest wins", u.str, e.urn), "")
		}
	}
	switch e.status {
	case "", "active":
	case "deprecated":
		deprecated = true
	default:
		c.add(c.manifest, e.v.get("status"), e.ptr+"/status", SeverityWarning, fmt.Sprintf("status %q has no bqgen equivalent (only deprecated is carried over); dropped", e.status), "")
	}
	if summary != "" {
		addKey(msg, "summary", strNode(summary))
	}
	if description != "" {
		addKey(msg, "description", strNode(description))
	}
	if e.owner != "" {
		addKey(msg, "owner", strNode(e.owner))
	}
	if deprecated {
		if reason != "" {
			addKey(msg, "deprecated", strNode(reason))
		} else {
			addKey(msg, "deprecated", boolNode(true))
		}
	}
	if sm := versionSuffix.FindStringSubmatch(e.urn); sm != nil {
		if n, err := strconv.Atoi(sm[2]); err == nil && n >= 2 {
			prev := sm[1]
			if n > 2 {
				prev = fmt.Sprintf("%s.v%d", sm[1], n-1)
			}
			if urns[prev] {
				addKey(msg, "supersedes", strNode(prev))
			}
		}
	}
	data2 := c.data(f, root)
	k := addKey(msg, "data", data2)
	k.HeadComment = notesComment(notes)
	return msg
}

// splitDescription makes the first paragraph the summary and the rest the description.
func splitDescription(s string) (summary, description string) {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, "\n\n"); i >= 0 {
		return strings.TrimSpace(s[:i]), strings.TrimSpace(s[i+2:])
	}
	return s, ""
}

// layer is one JSON object contributing keywords to a schema, with its pointer. A
// schema is usually one layer; `anyOf: [X, {"type": "null"}]` and `allOf: [{$ref}]`
// merge the outer object's keywords with the inner one's.
type layer struct {
	v   *jval
	ptr string
}

// kw is one keyword of a schema, with where it came from.
type kw struct {
	v   *jval
	ptr string
}

// keywords flattens layers into one keyword set, reporting keys given twice.
type keywords struct {
	order []string
	m     map[string]kw
	used  map[string]bool
	at    layer // the innermost layer: where to report the schema as a whole
}

func (k *keywords) get(name string) (kw, bool) {
	x, ok := k.m[name]
	if ok {
		k.used[name] = true
	}
	return x, ok
}

func (k *keywords) has(name string) bool { _, ok := k.m[name]; return ok }

// rootKeys are keywords of a schema document's root that say nothing about the data.
var rootKeys = map[string]bool{"$schema": true, "$id": true, "title": true, "description": true, "deprecated": true, "x-deprecated-reason": true, "x-babel-urn": true, "definitions": true, "$defs": true, "$comment": true}

// data converts a document root into the message's data schema.
func (c *conv) data(f *schemaFile, root *jval) *yaml.Node {
	if root.kind != jObject {
		c.add(f.path, root, "", SeverityError, fmt.Sprintf("the data schema must be an object schema, not a JSON %s", root.kind), "")
		return mapNode()
	}
	ls := []layer{{root, ""}}
	// A root that is only a reference to a definition is that definition.
	if r := root.get("$ref"); r != nil && r.kind == jString {
		if target, ptr, _, ok := c.resolveRef(f, kw{v: r, ptr: "/$ref"}); ok {
			ls = []layer{{root, ""}, {target, ptr}}
		}
	}
	ks := c.collect(f, ls)
	ks.used["$ref"] = true
	for k := range rootKeys {
		if _, ok := ks.m[k]; ok {
			ks.used[k] = true
		}
	}
	if t, ok := ks.get("type"); ok && !(t.v.kind == jString && t.v.str == "object") {
		c.add(f.path, t.v, t.ptr, SeverityError, "the data schema must have type object", "data is always a JSON object (BabelQueue wire contract)")
	}
	b := &fieldBuilder{}
	c.object(f, ks, b, true)
	for _, k := range []string{"examples", "x-gdpr-sensitive", "nullable"} {
		if x, ok := ks.get(k); ok {
			c.add(f.path, x.v, x.ptr, SeverityWarning, k+" on the data schema itself has no bqgen equivalent; dropped", "")
		}
	}
	c.leftovers(f, ks, "object")
	m := mapNode()
	for _, k := range []string{"required", "additionalProperties", "properties", "values"} {
		for i, bk := range b.keys {
			if bk == k {
				addKey(m, k, b.vals[i])
			}
		}
	}
	if b.has("values") {
		c.add(f.path, root, "/additionalProperties", SeverityError, "the data schema is a map (additionalProperties with a schema and no properties); a bqgen data block needs named properties", "wrap the map in a property: {\"properties\": {\"items\": {\"type\": \"object\", \"additionalProperties\": …}}}")
		return mapNode()
	}
	return m
}

// collect merges layers into a keyword set.
func (c *conv) collect(f *schemaFile, ls []layer) *keywords {
	ks := &keywords{m: map[string]kw{}, used: map[string]bool{}, at: ls[len(ls)-1]}
	for _, l := range ls {
		for i, k := range l.v.keys {
			p := l.ptr + "/" + ptrEscape(k)
			if old, dup := ks.m[k]; dup {
				if old.v.canonical() != l.v.vals[i].canonical() && k != "$ref" {
					c.add(f.path, l.v.vals[i], p, SeverityError, fmt.Sprintf("%s is given both at #%s and here with different values; bqgen cannot combine them", k, old.ptr), "")
				}
				continue
			}
			ks.order = append(ks.order, k)
			ks.m[k] = kw{l.v.vals[i], p}
		}
	}
	return ks
}

// unsupported explains the keywords bqgen cannot express.
var unsupported = map[string][2]string{
	"oneOf":                 {"oneOf (a union) cannot be expressed in a bqgen registry", "bqgen has no unions: use one object with optional fields, or one URN per alternative"},
	"anyOf":                 {"anyOf (a union) cannot be expressed in a bqgen registry; only [X, {\"type\": \"null\"}] (nullable) is", "bqgen has no unions: use one object with optional fields, or one URN per alternative"},
	"allOf":                 {"allOf cannot be expressed in a bqgen registry; only [{\"$ref\": …}] is", "merge the subschemas into one object schema"},
	"not":                   {"not cannot be expressed in a bqgen registry", "state what is allowed with enum, bounds or pattern"},
	"if":                    {"if/then/else cannot be expressed in a bqgen registry", "split the cases into separate URNs, or validate the condition in code"},
	"then":                  {"if/then/else cannot be expressed in a bqgen registry", "split the cases into separate URNs, or validate the condition in code"},
	"else":                  {"if/then/else cannot be expressed in a bqgen registry", "split the cases into separate URNs, or validate the condition in code"},
	"default":               {"default is not supported: a default has no single cross-language meaning", "make the field required, or document the default in its description"},
	"patternProperties":     {"patternProperties cannot be expressed in a bqgen registry", "use a map (additionalProperties with a schema) and check key shapes in code"},
	"propertyNames":         {"propertyNames cannot be expressed in a bqgen registry", "use a map and check key shapes in code"},
	"minProperties":         {"minProperties cannot be expressed in a bqgen registry", ""},
	"maxProperties":         {"maxProperties cannot be expressed in a bqgen registry", ""},
	"dependencies":          {"dependencies cannot be expressed in a bqgen registry", "make the dependent fields one optional object property"},
	"dependentRequired":     {"dependentRequired cannot be expressed in a bqgen registry", "make the dependent fields one optional object property"},
	"dependentSchemas":      {"dependentSchemas cannot be expressed in a bqgen registry", ""},
	"additionalItems":       {"additionalItems (tuples) cannot be expressed in a bqgen registry", "use an array of one item type, or an object with named properties"},
	"prefixItems":           {"prefixItems (tuples) cannot be expressed in a bqgen registry", "use an array of one item type, or an object with named properties"},
	"contains":              {"contains cannot be expressed in a bqgen registry", ""},
	"minContains":           {"minContains cannot be expressed in a bqgen registry", ""},
	"maxContains":           {"maxContains cannot be expressed in a bqgen registry", ""},
	"multipleOf":            {"multipleOf cannot be expressed in a bqgen registry", "for money use type money (integer minor units); otherwise check it in code"},
	"unevaluatedProperties": {"unevaluatedProperties cannot be expressed in a bqgen registry", ""},
	"unevaluatedItems":      {"unevaluatedItems cannot be expressed in a bqgen registry", ""},
	"contentEncoding":       {"contentEncoding cannot be expressed in a bqgen registry", "describe the encoding in the description (binary goes as base64 text)"},
	"contentMediaType":      {"contentMediaType cannot be expressed in a bqgen registry", ""},
	"contentSchema":         {"contentSchema cannot be expressed in a bqgen registry", ""},
	"const":                 {"const with an object or array value cannot be expressed in a bqgen registry", ""},
	"enum":                  {"enum on an object or array cannot be expressed in a bqgen registry", ""},
	"$ref":                  {"this $ref cannot be expressed in a bqgen registry", "only local references to definitions (#/definitions/Name, #/$defs/Name) are supported"},
}

// annotationOnly are keywords that do not change what is valid and have no bqgen
// equivalent: dropped with a warning.
var annotationOnly = map[string]bool{"readOnly": true, "writeOnly": true, "$id": true, "$anchor": true, "$schema": true}

// typeKeywords are the keywords that only apply to one JSON type.
var typeKeywords = map[string]string{
	"minLength": "string", "maxLength": "string", "pattern": "string", "format": "string",
	"minimum": "number", "maximum": "number", "exclusiveMinimum": "number", "exclusiveMaximum": "number",
	"properties": "object", "required": "object", "additionalProperties": "object",
	"items": "array", "minItems": "array", "maxItems": "array", "uniqueItems": "array",
}

// leftovers reports every keyword no converter used.
func (c *conv) leftovers(f *schemaFile, ks *keywords, kind string) {
	for _, k := range ks.order {
		if ks.used[k] {
			continue
		}
		x := ks.m[k]
		switch {
		case k == "$comment":
		case strings.HasPrefix(k, "x-"):
			c.add(f.path, x.v, x.ptr, SeverityWarning, fmt.Sprintf("extension keyword %s has no bqgen equivalent; dropped", k), "")
		case annotationOnly[k]:
			c.add(f.path, x.v, x.ptr, SeverityWarning, fmt.Sprintf("%s has no bqgen equivalent; dropped (it does not change what is valid)", k), "")
		case k == "title":
			c.add(f.path, x.v, x.ptr, SeverityWarning, "title dropped (the description is kept)", "")
		case typeKeywords[k] != "":
			applies := typeKeywords[k]
			if applies == "number" {
				applies = "integer or number"
			}
			c.add(f.path, x.v, x.ptr, SeverityWarning, fmt.Sprintf("%s applies to %s values only and has no effect on a %s; dropped", k, applies, kind), "")
		case k == "definitions" || k == "$defs":
			// Definitions below the root are reachable only through pointers bqgen
			// does not follow.
			c.add(f.path, x.v, x.ptr, SeverityWarning, k+" below the document root is not read; dropped", "move the definitions to the document root")
		default:
			if u, ok := unsupported[k]; ok {
				c.add(f.path, x.v, x.ptr, SeverityError, u[0], u[1])
			} else {
				c.add(f.path, x.v, x.ptr, SeverityError, fmt.Sprintf("keyword %q is not part of JSON Schema draft-07 as bqgen reads it", k), "remove it, or rename it x-… if it is an annotation")
			}
		}
	}
}

// field converts a schema used as a property, an item, a map value or a definition.
// It returns nil when nothing of it can be converted (the issue is reported).
func (c *conv) field(f *schemaFile, ls []layer) *yaml.Node {
	top := ls[len(ls)-1]
	if top.v.kind == jBool {
		c.add(f.path, top.v, top.ptr, SeverityError, fmt.Sprintf("the boolean schema %v cannot be expressed in a bqgen registry", top.v.b), "give the field a type")
		return nil
	}
	if top.v.kind != jObject {
		c.add(f.path, top.v, top.ptr, SeverityError, fmt.Sprintf("a schema must be a JSON object, not %s", top.v.kind), "")
		return nil
	}
	ks := c.collect(f, ls)
	b := &fieldBuilder{}
	nullable := false

	// Nullable wrappers: anyOf/oneOf [X, {"type": "null"}].
	for _, comb := range []string{"anyOf", "oneOf"} {
		x, ok := ks.m[comb]
		if !ok || x.v.kind != jArray || len(x.v.elems) != 2 {
			continue
		}
		other := -1
		for i, e := range x.v.elems {
			if isNullSchema(e) {
				other = 1 - i
			}
		}
		if other < 0 || isNullSchema(x.v.elems[other]) {
			continue
		}
		ks.used[comb] = true
		inner := x.v.elems[other]
		rest := make([]layer, 0, len(ls)+1)
		rest = append(rest, layer{withoutKey(top.v, comb), top.ptr})
		rest = append(rest, layer{inner, fmt.Sprintf("%s/%d", x.ptr, other)})
		n := c.field(f, rest)
		if n == nil {
			return nil
		}
		setNullable(n)
		return n
	}
	// allOf [{"$ref": …}] with annotations beside it (bqgen's own draft-07 output).
	if x, ok := ks.m["allOf"]; ok && x.v.kind == jArray && len(x.v.elems) == 1 && x.v.elems[0].kind == jObject && x.v.elems[0].get("$ref") != nil {
		ks.used["allOf"] = true
		inner := x.v.elems[0]
		return c.field(f, []layer{{withoutKey(top.v, "allOf"), top.ptr}, {inner, x.ptr + "/0"}})
	}

	c.annotations(f, ks, b)

	// A use of a named type.
	if r, ok := ks.m["$ref"]; ok {
		ks.used["$ref"] = true
		if r.v.kind != jString {
			c.add(f.path, r.v, r.ptr, SeverityError, "$ref must be a string", "")
			return nil
		}
		td := c.definition(f, r)
		if td == nil {
			return nil
		}
		b.set("type", strNode(td.name))
		c.leftoversRef(f, ks)
		return b.node()
	}

	kind, null, ok := c.kind(f, ks)
	if !ok {
		c.leftovers(f, ks, "value")
		return nil
	}
	nullable = nullable || null

	switch hint, _ := ks.get("x-babel-type"); {
	case hint.v != nil && hint.v.kind == jString && hint.v.str == "money" && kind == "object":
		b.set("type", strNode("money"))
		for _, k := range []string{"properties", "required", "additionalProperties"} {
			ks.used[k] = true
		}
	case hint.v != nil && hint.v.kind == jString && hint.v.str == "timestamp" && kind == "integer":
		b.set("type", strNode("timestamp"))
		for _, k := range []string{"minimum", "maximum"} {
			ks.used[k] = true
		}
	case hint.v != nil && hint.v.kind == jString && hint.v.str == "uuid" && kind == "string":
		b.set("type", strNode("uuid"))
		for _, k := range []string{"format", "pattern"} {
			ks.used[k] = true
		}
		dropGuard(ks, "")
	case hint.v != nil && hint.v.kind == jString && hint.v.str == "integer-string" && kind == "string":
		b.set("type", strNode("integer"))
		b.set("encoding", strNode("string"))
		c.integerString(f, ks, b, &nullable)
		dropGuard(ks, "")
	case hint.v != nil:
		c.add(f.path, hint.v, hint.ptr, SeverityWarning, fmt.Sprintf("x-babel-type %s does not fit a %s; ignored", hint.v.canonical(), kind), "")
		fallthrough
	default:
		b.set("type", strNode(kind))
		switch kind {
		case "string":
			c.str(f, ks, b, &nullable)
		case "integer", "number":
			c.number(f, ks, b, kind, &nullable)
		case "boolean":
			c.enum(f, ks, b, kind, &nullable)
		case "object":
			c.object(f, ks, b, true)
		case "array":
			if !c.array(f, ks, b) {
				c.leftovers(f, ks, kind)
				return nil
			}
		}
	}
	if nullable {
		b.set("nullable", boolNode(true))
	}
	if b.has("values") {
		b.set("type", strNode("map"))
	}
	c.leftovers(f, ks, kind)
	return b.node()
}

// leftoversRef reports the siblings of a $ref that say more than annotations. Draft-07
// validators ignore every sibling of $ref, so dropping them changes nothing.
func (c *conv) leftoversRef(f *schemaFile, ks *keywords) {
	for _, k := range ks.order {
		if ks.used[k] || k == "$comment" {
			continue
		}
		x := ks.m[k]
		c.add(f.path, x.v, x.ptr, SeverityWarning, k+" beside $ref is ignored by draft-07 validators; dropped", "")
	}
}

func isNullSchema(v *jval) bool {
	if v.kind != jObject || len(v.keys) != 1 || v.keys[0] != "type" {
		return false
	}
	t := v.vals[0]
	return t.kind == jString && t.str == "null"
}

func withoutKey(v *jval, key string) *jval {
	out := &jval{kind: jObject, line: v.line, col: v.col}
	for i, k := range v.keys {
		if k != key {
			out.keys = append(out.keys, k)
			out.vals = append(out.vals, v.vals[i])
		}
	}
	return out
}

func setNullable(n *yaml.Node) {
	for i := 0; i < len(n.Content); i += 2 {
		if n.Content[i].Value == "nullable" {
			return
		}
	}
	// Insert before the annotations, as fieldBuilder would.
	b := &fieldBuilder{}
	for i := 0; i < len(n.Content); i += 2 {
		b.set(n.Content[i].Value, n.Content[i+1])
	}
	b.set("nullable", boolNode(true))
	nn := b.node()
	if n.Style != yaml.FlowStyle {
		nn.Style = n.Style
	}
	*n = *nn
}

// annotations carries description, deprecation, examples and x-gdpr-sensitive.
func (c *conv) annotations(f *schemaFile, ks *keywords, b *fieldBuilder) {
	if d, ok := ks.get("description"); ok {
		if d.v.kind == jString {
			b.set("description", strNode(d.v.str))
		} else {
			c.add(f.path, d.v, d.ptr, SeverityWarning, "description is not a string; dropped", "")
		}
	}
	if t, ok := ks.m["title"]; ok && t.v.kind == jString && !b.has("description") {
		ks.used["title"] = true
		b.set("description", strNode(t.v.str))
	}
	dep, hasDep := ks.get("deprecated")
	reason, hasReason := ks.get("x-deprecated-reason")
	switch {
	case hasReason && reason.v.kind == jString && reason.v.str != "":
		b.set("deprecated", strNode(reason.v.str))
	case hasDep && dep.v.kind == jBool && dep.v.b:
		b.set("deprecated", boolNode(true))
	}
	if g, ok := ks.get("x-gdpr-sensitive"); ok {
		switch g.v.kind {
		case jBool:
			if g.v.b {
				b.set("x-gdpr-sensitive", boolNode(true))
			}
		case jString:
			b.set("x-gdpr-sensitive", strNode(g.v.str))
		default:
			c.add(f.path, g.v, g.ptr, SeverityWarning, "x-gdpr-sensitive must be true or a category string; dropped", "")
		}
	}
	if ex, ok := ks.m["examples"]; ok {
		ks.used["examples"] = true
		if ex.v.kind != jArray {
			c.add(f.path, ex.v, ex.ptr, SeverityWarning, "examples must be an array; dropped", "")
		} else if len(ex.v.elems) > 0 {
			b.set("examples", jsonNode(ex.v))
		}
	}
}

// kind determines the registry type of a schema without $ref.
func (c *conv) kind(f *schemaFile, ks *keywords) (kind string, nullable, ok bool) {
	if t, has := ks.get("type"); has {
		var names []string
		switch t.v.kind {
		case jString:
			names = []string{t.v.str}
		case jArray:
			for _, e := range t.v.elems {
				if e.kind != jString {
					c.add(f.path, e, t.ptr, SeverityError, "type must list type names", "")
					return "", false, false
				}
				names = append(names, e.str)
			}
		default:
			c.add(f.path, t.v, t.ptr, SeverityError, "type must be a string or an array of strings", "")
			return "", false, false
		}
		var rest []string
		for _, n := range names {
			if n == "null" {
				nullable = true
			} else {
				rest = append(rest, n)
			}
		}
		if len(rest) == 2 && (rest[0] == "integer" && rest[1] == "number" || rest[0] == "number" && rest[1] == "integer") {
			rest = []string{"number"} // number already includes the integers
		}
		switch {
		case len(rest) == 0:
			c.add(f.path, t.v, t.ptr, SeverityError, "a field that can only be null cannot be expressed in a bqgen registry", "remove the field, or give it a type and nullable: true")
			return "", false, false
		case len(rest) > 1:
			c.add(f.path, t.v, t.ptr, SeverityError, fmt.Sprintf("the type union %s cannot be expressed in a bqgen registry", t.v.canonical()), "give the field one type (add \"null\" for nullable), or split it into separate fields")
			return "", false, false
		}
		switch rest[0] {
		case "string", "integer", "number", "boolean", "object", "array":
			return rest[0], nullable, true
		}
		c.add(f.path, t.v, t.ptr, SeverityError, fmt.Sprintf("unknown type %q", rest[0]), "")
		return "", false, false
	}
	// No type: infer it from the other keywords, as bqschema's examples do with enum.
	values := ks.m["enum"]
	if cst, has := ks.m["const"]; has && values.v == nil {
		values = kw{&jval{kind: jArray, elems: []*jval{cst.v}, line: cst.v.line, col: cst.v.col}, cst.ptr}
	}
	if values.v != nil && values.v.kind == jArray {
		kinds := map[string]bool{}
		for _, e := range values.v.elems {
			switch e.kind {
			case jNull:
				nullable = true
			case jString:
				kinds["string"] = true
			case jBool:
				kinds["boolean"] = true
			case jNumber:
				if isIntegral(e.str) {
					kinds["integer"] = true
				} else {
					kinds["number"] = true
				}
			default:
				kinds["object or array"] = true
			}
		}
		if kinds["integer"] && kinds["number"] {
			delete(kinds, "integer")
		}
		if len(kinds) == 1 {
			for k := range kinds {
				if k != "object or array" {
					return k, nullable, true
				}
			}
		}
		c.add(f.path, values.v, values.ptr, SeverityError, "the values "+values.v.canonical()+" do not share one type; bqgen cannot express them", "use values of one type")
		return "", false, false
	}
	for _, k := range []string{"properties", "required", "additionalProperties"} {
		if ks.has(k) {
			return "object", false, true
		}
	}
	for _, k := range []string{"items", "minItems", "maxItems", "uniqueItems"} {
		if ks.has(k) {
			return "array", false, true
		}
	}
	for _, k := range []string{"minLength", "maxLength", "pattern", "format"} {
		if ks.has(k) {
			return "string", false, true
		}
	}
	for _, k := range []string{"oneOf", "anyOf", "allOf", "not", "if"} {
		if x, has := ks.m[k]; has {
			ks.used[k] = true
			c.add(f.path, x.v, x.ptr, SeverityError, unsupported[k][0], unsupported[k][1])
			return "", false, false
		}
	}
	c.add(f.path, ks.at.v, ks.at.ptr, SeverityError, "a value of any type cannot be expressed in a bqgen registry", "give the field a type")
	return "", false, false
}

var stringFormats = map[string]bool{"uuid": true, "email": true, "uri": true, "date": true, "date-time": true}

func (c *conv) str(f *schemaFile, ks *keywords, b *fieldBuilder, nullable *bool) {
	format := ""
	if x, ok := ks.get("format"); ok {
		switch {
		case x.v.kind == jString && stringFormats[x.v.str]:
			format = x.v.str
			b.set("format", strNode(x.v.str))
		default:
			c.add(f.path, x.v, x.ptr, SeverityError, fmt.Sprintf("format %s is not supported (bqgen knows uuid, email, uri, date, date-time)", x.v.canonical()), "drop the format, or replace it with a pattern")
		}
	}
	// bqgen's own format narrowing (jsonschema.FormatPatterns): the format implies it.
	narrow := jsonschema.FormatPatterns[format]
	isNarrow := func(x kw) bool { return narrow != "" && x.v.kind == jString && x.v.str == narrow }
	if x, ok := ks.m["allOf"]; ok && x.v.kind == jArray && len(x.v.elems) == 1 && x.v.elems[0].kind == jObject {
		if in := x.v.elems[0]; len(in.keys) == 1 && in.keys[0] == "pattern" && isNarrow(kw{in.get("pattern"), ""}) {
			ks.used["allOf"] = true
		}
	}
	dropGuard(ks, narrow)
	for _, k := range []string{"minLength", "maxLength"} {
		if x, ok := ks.get(k); ok {
			if k == "maxLength" && format == "email" && x.v.kind == jNumber && x.v.str == strconv.Itoa(jsonschema.EmailMaxLength) {
				continue
			}
			if n, ok := c.count(f, x, k); ok {
				b.set(k, numNode(n))
			}
		}
	}
	if x, ok := ks.get("pattern"); ok {
		switch {
		case isNarrow(x):
		case x.v.kind == jString:
			b.set("pattern", strNode(x.v.str))
		default:
			c.add(f.path, x.v, x.ptr, SeverityError, "pattern must be a string", "")
		}
	}
	c.enum(f, ks, b, "string", nullable)
}

// dropGuard marks bqgen's final-newline guard (jsonschema.NotFinalNewline, under
// "not") as read when the schema's pattern, or the pattern extra its type implies,
// rejects every string ending in "\n" in ECMA-262: the pattern says it already, and
// the emitter writes the guard again. Any other "not" stays an error.
func dropGuard(ks *keywords, extra string) {
	x, ok := ks.m["not"]
	if !ok || !isFinalNewlineGuard(x.v) {
		return
	}
	pats := []string{extra}
	if p, ok := ks.m["pattern"]; ok && p.v.kind == jString {
		pats = append(pats, p.v.str)
	}
	for _, p := range pats {
		if res, err := ecmare.PortablePattern(p); p != "" && err == nil && res.GuardFinalNewline {
			ks.used["not"] = true
		}
	}
}

// isFinalNewlineGuard reports whether v is {"type": "string", "pattern": "\\n$"}.
func isFinalNewlineGuard(v *jval) bool {
	if v.kind != jObject || len(v.keys) != 2 {
		return false
	}
	t, p := v.get("type"), v.get("pattern")
	return t != nil && t.kind == jString && t.str == "string" && p != nil && p.kind == jString && p.str == ecmare.FinalNewlinePattern
}

// count reads a non-negative integer keyword (lengths, item counts) within int64.
func (c *conv) count(f *schemaFile, x kw, name string) (string, bool) {
	if x.v.kind == jNumber {
		if d, ok := jsonnum.Parse(x.v.str); ok {
			if n, ok := d.Int64(); ok && n >= 0 {
				return strconv.FormatInt(n, 10), true
			}
		}
	}
	c.add(f.path, x.v, x.ptr, SeverityError, name+" must be a non-negative integer within int64", "")
	return "", false
}

// enum converts enum (or const) for a scalar kind.
func (c *conv) enum(f *schemaFile, ks *keywords, b *fieldBuilder, kind string, nullable *bool) {
	x, ok := ks.get("enum")
	if cst, has := ks.get("const"); has {
		if ok {
			c.add(f.path, cst.v, cst.ptr, SeverityError, "const beside enum cannot be expressed in a bqgen registry", "keep one of them")
			return
		}
		c.add(f.path, cst.v, cst.ptr, SeverityWarning, "const written as an enum of one value (the same constraint)", "")
		x, ok = kw{&jval{kind: jArray, elems: []*jval{cst.v}, line: cst.v.line, col: cst.v.col}, cst.ptr}, true
	}
	if !ok {
		return
	}
	if x.v.kind != jArray || len(x.v.elems) == 0 {
		c.add(f.path, x.v, x.ptr, SeverityError, "enum must be a non-empty array", "")
		return
	}
	s := seqNode()
	for _, e := range x.v.elems {
		switch {
		case e.kind == jNull:
			*nullable = true
		case kind == "string" && e.kind == jString,
			kind == "boolean" && e.kind == jBool:
			s.Content = append(s.Content, jsonNode(e))
		case kind == "number" && e.kind == jNumber:
			if c.numberLiteral(f, e, x.ptr, "enum value") {
				s.Content = append(s.Content, jsonNode(e))
			}
		case kind == "integer" && e.kind == jNumber && isIntegral(e.str):
			if n, ok := intValue(e.str); ok {
				s.Content = append(s.Content, numNode(strconv.FormatInt(n, 10)))
			} else {
				c.add(f.path, e, x.ptr, SeverityError, fmt.Sprintf("enum value %s is outside the int64 range of a bqgen integer: no value can equal it", abbrev(e.str)),
					"remove it, or make the field a number")
			}
		case kind == "integer" && e.kind == jNumber:
			// 1.5 can never be an integer: it only narrows the enum.
		default:
			c.add(f.path, e, x.ptr, SeverityError, fmt.Sprintf("enum value %s is not a %s; a bqgen enum holds values of the field's type", e.canonical(), kind), "")
		}
	}
	if len(s.Content) > 0 {
		b.set("enum", s)
	}
}

// number converts integer and number constraints.
func (c *conv) number(f *schemaFile, ks *keywords, b *fieldBuilder, kind string, nullable *bool) {
	if x, ok := ks.get("format"); ok {
		switch {
		case kind == "integer" && x.v.kind == jString && x.v.str == "int32":
			b.set("format", strNode("int32"))
		case x.v.kind == jString && (x.v.str == "int64" && kind == "integer" || (x.v.str == "float" || x.v.str == "double") && kind == "number"):
			// The default width: nothing to say.
		default:
			c.add(f.path, x.v, x.ptr, SeverityWarning, fmt.Sprintf("format %s has no bqgen equivalent on a %s; dropped", x.v.canonical(), kind), "")
		}
	}
	bounds := map[string]string{}
	at := map[string]kw{}
	for _, k := range []string{"minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum"} {
		x, ok := ks.get(k)
		if !ok {
			continue
		}
		if x.v.kind != jNumber {
			hint := ""
			if x.v.kind == jBool {
				hint = "draft-04 boolean exclusiveMinimum/exclusiveMaximum: write the bound itself as exclusiveMinimum/exclusiveMaximum (draft-06+)"
			}
			c.add(f.path, x.v, x.ptr, SeverityError, k+" must be a number", hint)
			continue
		}
		bounds[k], at[k] = x.v.str, x
	}
	var problems []boundProblem
	if kind == "integer" {
		problems = integerBounds(bounds, b)
	} else {
		problems = numberBounds(bounds)
	}
	for _, p := range problems {
		x := at[p.key]
		c.add(f.path, x.v, x.ptr, p.severity, p.msg, p.hint)
	}
	for _, k := range []string{"minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum"} {
		if v, ok := bounds[k]; ok {
			b.set(k, numNode(v))
		}
	}
	c.enum(f, ks, b, kind, nullable)
}

// boundProblem is a bound that could not be carried over (integerBounds, numberBounds).
type boundProblem struct {
	key, severity, msg, hint string
}

// integerBounds makes integer bounds exact integers (minimum 0.5 → 1) and leaves out
// the bounds the type implies (the int64 range; the int32 range becomes format int32),
// also those beyond it on the side the type already closes (minimum -1e30). A bound
// beyond int64 on the other side leaves no value (minimum 1.5e999999): it is dropped
// and returned as an error. The literals are read exactly, at a cost linear in their
// length (jsonnum): 1.5e999999 is never written out as a million-digit integer.
func integerBounds(bounds map[string]string, b *fieldBuilder) []boundProblem {
	var problems []boundProblem
	set := func(k string, n int64) { bounds[k] = strconv.FormatInt(n, 10) }
	orig := map[string]string{} // the literals as written, for messages
	for k, v := range bounds {
		orig[k] = v
	}
	// beyond handles a bound whose integer value is outside int64 on side out (-1 below,
	// +1 above); lower says whether it bounds from below.
	beyond := func(k string, lower bool, out int) {
		delete(bounds, k)
		if (out < 0) == lower {
			return // the int64 type already excludes everything it excludes
		}
		where := "above"
		if out < 0 {
			where = "below"
		}
		problems = append(problems, boundProblem{k, SeverityError,
			fmt.Sprintf("%s %s is %s the int64 range of a bqgen integer: no value satisfies it", k, abbrev(orig[k]), where),
			"fix the bound, or make the field a number"})
	}
	for _, k := range []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"} {
		s, ok := bounds[k]
		if !ok {
			continue
		}
		d, ok := jsonnum.Parse(s)
		if !ok {
			continue
		}
		lower := k == "minimum" || k == "exclusiveMinimum"
		if d.IsInt() {
			if n, out := d.Floor(); out != 0 {
				beyond(k, lower, out)
			} else {
				set(k, n)
			}
			continue
		}
		switch k {
		case "minimum": // ceil
			if n, out := d.Ceil(); out != 0 {
				beyond(k, true, out)
			} else {
				set("minimum", n)
			}
		case "maximum":
			if n, out := d.Floor(); out != 0 {
				beyond(k, false, out)
			} else {
				set("maximum", n)
			}
		case "exclusiveMinimum": // > 1.5 means ≥ 2
			n, out := d.Ceil()
			delete(bounds, k)
			if out != 0 {
				beyond(k, true, out)
				continue
			}
			if old, ok := bounds["minimum"]; !ok || intOf(old) < n {
				set("minimum", n)
			}
		case "exclusiveMaximum": // < 1.5 means ≤ 1
			n, out := d.Floor()
			delete(bounds, k)
			if out != 0 {
				beyond(k, false, out)
				continue
			}
			if old, ok := bounds["maximum"]; !ok || intOf(old) > n {
				set("maximum", n)
			}
		}
	}
	minI64, maxI64 := strconv.FormatInt(math.MinInt64, 10), strconv.FormatInt(math.MaxInt64, 10)
	minI32, maxI32 := strconv.FormatInt(math.MinInt32, 10), strconv.FormatInt(math.MaxInt32, 10)
	if bounds["minimum"] == minI64 {
		delete(bounds, "minimum")
	}
	if bounds["maximum"] == maxI64 {
		delete(bounds, "maximum")
	}
	if bounds["minimum"] == minI32 || bounds["maximum"] == maxI32 {
		if bounds["minimum"] == minI32 {
			delete(bounds, "minimum")
		}
		if bounds["maximum"] == maxI32 {
			delete(bounds, "maximum")
		}
		b.set("format", strNode("int32"))
	}
	return problems
}

// intOf reads a bound integerBounds wrote (an int64 in decimal).
func intOf(s string) int64 {
	n, _ := strconv.ParseInt(s, 10, 64)
	return n
}

// numberBounds checks the bounds of a number: a bound beyond the doubles on the side
// they already close (minimum -1e999999) is dropped, as every double satisfies it; one
// on the other side (minimum 1e999999) leaves no value and is an error; a literal
// longer than the registry reads (registry.MaxNumberLength) is an error. Every other
// bound is kept as written.
func numberBounds(bounds map[string]string) []boundProblem {
	var problems []boundProblem
	for _, k := range []string{"minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum"} {
		s, ok := bounds[k]
		if !ok {
			continue
		}
		if msg, hint := numberProblem(s); msg != "" {
			delete(bounds, k)
			problems = append(problems, boundProblem{k, SeverityError, k + " " + msg, hint})
			continue
		}
		d, _ := jsonnum.Parse(s)
		if !d.OverflowsFloat64() {
			continue
		}
		delete(bounds, k)
		if lower := k == "minimum" || k == "exclusiveMinimum"; lower == d.Neg {
			continue // every double satisfies it
		}
		problems = append(problems, boundProblem{k, SeverityError,
			fmt.Sprintf("%s %s is beyond the range of a double: no number satisfies it", k, abbrev(s)), "fix the bound"})
	}
	return problems
}

// integerString converts bqgen's integer-string expansion back: the range is read off
// the exact range pattern.
func (c *conv) integerString(f *schemaFile, ks *keywords, b *fieldBuilder, nullable *bool) {
	if x, ok := ks.get("enum"); ok && x.v.kind == jArray {
		s := seqNode()
		for _, e := range x.v.elems {
			switch {
			case e.kind == jNull:
				*nullable = true
			case e.kind == jString && canonicalInt.MatchString(e.str):
				s.Content = append(s.Content, numNode(e.str))
			default:
				c.add(f.path, e, x.ptr, SeverityError, fmt.Sprintf("enum value %s is not a canonical decimal integer", e.canonical()), "")
			}
		}
		if len(s.Content) > 0 {
			b.set("enum", s)
		}
		return
	}
	x, ok := ks.get("pattern")
	if !ok || x.v.kind != jString {
		return
	}
	lo, hi, found := rangeOfPattern(x.v.str)
	if !found {
		c.add(f.path, x.v, x.ptr, SeverityError, "the range of this integer carried as a string cannot be read from its pattern", "write the field as {type: integer, encoding: string, minimum: …, maximum: …}")
		return
	}
	switch {
	case lo == math.MinInt64 && hi == math.MaxInt64:
	case lo == math.MinInt32 && hi == math.MaxInt32:
		b.set("format", strNode("int32"))
	default:
		if lo != math.MinInt64 {
			b.set("minimum", numNode(strconv.FormatInt(lo, 10)))
		}
		if hi != math.MaxInt64 {
			b.set("maximum", numNode(strconv.FormatInt(hi, 10)))
		}
	}
}

// mid is the midpoint of a ≤ b without overflow.
func mid(a, b int64) int64 { return a + int64((uint64(b)-uint64(a))/2) }

var canonicalInt = regexp.MustCompile(`^-?(0|[1-9][0-9]*)$`)

// rangeOfPattern finds [lo, hi] such that jsonschema.IntRangePattern(lo, hi) is p.
// The pattern matches an interval of integers, so once one member is known, binary
// search finds both ends; the result is checked by regenerating the pattern.
func rangeOfPattern(p string) (int64, int64, bool) {
	re, err := ecmare.Compile(p) // an ECMA-262 pattern (docs/patterns.md)
	if err != nil {
		return 0, 0, false
	}
	in := func(n int64) bool { return re.MatchString(strconv.FormatInt(n, 10)) }
	seeds := []int64{0, 1, -1, math.MaxInt64, math.MinInt64, math.MaxInt32, math.MinInt32}
	for e, n := 0, int64(1); e < 19; e, n = e+1, n*10 {
		seeds = append(seeds, n, -n, n-1, -(n - 1), n+1)
	}
	seed, ok := int64(0), false
	for _, s := range seeds {
		if in(s) {
			seed, ok = s, true
			break
		}
	}
	if !ok {
		return 0, 0, false
	}
	// Lowest member: in(lo) for lo in [?, seed].
	lo, hi := seed, seed
	{
		a, b := int64(math.MinInt64), seed // find the first member in [a, b]
		if in(a) {
			lo = a
		} else {
			for uint64(b)-uint64(a) > 1 { // invariant: !in(a), in(b)
				m := mid(a, b)
				if in(m) {
					b = m
				} else {
					a = m
				}
			}
			lo = b
		}
	}
	{
		a, b := seed, int64(math.MaxInt64)
		if in(b) {
			hi = b
		} else {
			for uint64(b)-uint64(a) > 1 { // invariant: in(a), !in(b)
				m := mid(a, b)
				if in(m) {
					a = m
				} else {
					b = m
				}
			}
			hi = a
		}
	}
	if jsonschema.IntRangePattern(lo, hi) != p {
		return 0, 0, false
	}
	return lo, hi, true
}

// object converts properties, required and additionalProperties. With a schema for
// additionalProperties and no properties, the object is a map.
func (c *conv) object(f *schemaFile, ks *keywords, b *fieldBuilder, isField bool) {
	props := mapNode()
	names := map[string]bool{}
	if x, ok := ks.get("properties"); ok {
		if x.v.kind != jObject {
			c.add(f.path, x.v, x.ptr, SeverityError, "properties must be an object", "")
		} else {
			for i, name := range x.v.keys {
				p := x.ptr + "/" + ptrEscape(name)
				n := c.field(f, []layer{{x.v.vals[i], p}})
				if n == nil {
					continue
				}
				addKey(props, name, n)
				names[name] = true
			}
		}
	}
	var req []*yaml.Node
	if x, ok := ks.get("required"); ok {
		if x.v.kind != jArray {
			c.add(f.path, x.v, x.ptr, SeverityError, "required must be an array of property names", "")
		} else {
			for _, e := range x.v.elems {
				switch {
				case e.kind != jString:
					c.add(f.path, e, x.ptr, SeverityError, "required must list property names", "")
				case names[e.str]:
					req = append(req, strNode(e.str))
				case isDeclared(ks, e.str):
					// The property was reported and left out; so is its requirement.
				default:
					c.add(f.path, e, x.ptr, SeverityError, fmt.Sprintf("required names %q, which has no schema under properties (a value of any type)", e.str), "declare the property with its type")
				}
			}
		}
	}
	if x, ok := ks.get("additionalProperties"); ok {
		switch {
		case x.v.kind == jBool && !x.v.b:
			b.set("additionalProperties", boolNode(false))
		case x.v.kind == jBool:
		case x.v.kind == jObject && len(props.Content) == 0 && len(req) == 0 && isField:
			if n := c.field(f, []layer{{x.v, x.ptr}}); n != nil {
				b.set("values", n)
			}
		case x.v.kind == jObject && len(x.v.keys) == 0:
			// {} allows anything: the default.
		default:
			c.add(f.path, x.v, x.ptr, SeverityError, "additionalProperties with a schema beside named properties cannot be expressed in a bqgen registry", "move the free-form keys into a map property ({type: map, values: …})")
		}
	}
	if len(req) > 0 {
		b.set("required", seqNode(req...))
	}
	if len(props.Content) > 0 {
		b.set("properties", props)
	}
}

func isDeclared(ks *keywords, name string) bool {
	x, ok := ks.m["properties"]
	return ok && x.v.get(name) != nil
}

// array converts an array schema. It returns false when the items cannot be
// converted: an array needs an item schema, so the whole field is left out.
func (c *conv) array(f *schemaFile, ks *keywords, b *fieldBuilder) bool {
	if x, ok := ks.get("items"); ok {
		switch x.v.kind {
		case jArray:
			c.add(f.path, x.v, x.ptr, SeverityError, "items as an array (a tuple) cannot be expressed in a bqgen registry", "use an array of one item type, or an object with named properties")
			return false
		default:
			n := c.field(f, []layer{{x.v, x.ptr}})
			if n == nil {
				return false
			}
			b.set("items", n)
		}
	} else {
		c.add(f.path, ks.at.v, ks.at.ptr, SeverityError, "an array without items (items of any type) cannot be expressed in a bqgen registry", "give the items a schema")
		return false
	}
	for _, k := range []string{"minItems", "maxItems"} {
		if x, ok := ks.get(k); ok {
			if n, ok := c.count(f, x, k); ok {
				b.set(k, numNode(n))
			}
		}
	}
	if x, ok := ks.get("uniqueItems"); ok {
		if x.v.kind == jBool && x.v.b {
			b.set("uniqueItems", boolNode(true))
		}
	}
	return true
}

// definition returns the named type a local $ref points at, queueing its conversion.
func (c *conv) definition(f *schemaFile, r kw) *typeDef {
	target, ptr, key, ok := c.resolveRef(f, r)
	if !ok {
		return nil
	}
	id := f.path + "\x00" + ptr
	if td := c.byRef[id]; td != nil {
		return td
	}
	canon := target.canonical()
	base := typeName(key)
	name := base
	for n := 2; ; n++ {
		old := c.types[name]
		if old == nil {
			break
		}
		if old.canon == canon {
			c.byRef[id] = old
			return old
		}
		name = fmt.Sprintf("%s%d", base, n)
	}
	if name != base {
		c.add(f.path, target, ptr, SeverityWarning, fmt.Sprintf("definition %q differs from the one of the same name in %s; named %s", key, c.types[base].file.path, name), "")
	}
	td := &typeDef{name: name, file: f, key: key, ptr: ptr, v: target, canon: canon}
	c.types[name] = td
	c.byRef[id] = td
	c.pending = append(c.pending, td)
	return td
}

// resolveRef resolves the $ref r (a string) of f to one of f's definitions, as
// resolveLocal does, and reports an error Issue at r when it cannot: a malformed
// fragment, or a $ref that names anything but a definition of f.
func (c *conv) resolveRef(f *schemaFile, r kw) (target *jval, ptr, key string, ok bool) {
	target, ptr, key, err := c.resolveLocal(f, r.v.str)
	var re *refError
	switch {
	case errors.As(err, &re):
		c.add(f.path, r.v, r.ptr, SeverityError, fmt.Sprintf("$ref %q: %s", r.v.str, re.msg), re.hint)
		return nil, "", "", false
	case target == nil:
		u := unsupported["$ref"]
		c.add(f.path, r.v, r.ptr, SeverityError, fmt.Sprintf("$ref %q: %s", r.v.str, strings.TrimPrefix(u[0], "this $ref ")), u[1])
		return nil, "", "", false
	}
	return target, ptr, key, true
}

// resolveLocal resolves a $ref to a definition of f, #/definitions/Name or
// #/$defs/Name, reading its fragment as RFC 6901 §6 says (localRef). It returns the
// definition, its JSON pointer in canonical form (RFC 6901 escapes, no
// percent-encoding: the same for every spelling of the $ref) and its key; a nil
// target when ref names anything else; and a *refError when the fragment is malformed.
func (c *conv) resolveLocal(f *schemaFile, ref string) (target *jval, ptr, key string, err error) {
	toks, err := localRef(ref)
	if err != nil || len(toks) != 2 || toks[0] != "definitions" && toks[0] != "$defs" {
		return nil, "", "", err
	}
	t := f.root.get(toks[0]).get(toks[1])
	if t == nil {
		return nil, "", "", nil
	}
	return t, "/" + toks[0] + "/" + ptrEscape(toks[1]), toks[1], nil
}

// refError is a malformed $ref fragment: what is wrong, and the fix.
type refError struct{ msg, hint string }

func (e *refError) Error() string { return e.msg }

// localRef returns the reference tokens of the JSON Pointer in the fragment of the
// same-document $ref ref (`#/definitions/shelf%20unit` → [definitions, shelf unit]),
// read as RFC 6901 §6 says: the fragment of a URI is percent-decoded first (RFC 3986
// §2.1, by net/url), and each token of the resulting pointer then has ~1 read as / and
// ~0 as ~. It returns nil tokens and no error for a $ref that is not a JSON Pointer
// into its own document (another document's, `#` alone, a plain-name fragment), and a
// *refError for a bad percent-escape, percent-escapes that are not UTF-8, or a ~ not
// followed by 0 or 1.
func localRef(ref string) ([]string, error) {
	if !strings.HasPrefix(ref, "#") {
		return nil, nil
	}
	ptr, err := url.PathUnescape(ref[1:])
	if err != nil {
		bad := err.Error()
		var ee url.EscapeError
		if errors.As(err, &ee) {
			bad = strconv.Quote(string(ee))
		}
		return nil, &refError{fmt.Sprintf("the fragment has the bad percent-escape %s", bad),
			"a $ref fragment is a URI fragment: write a byte as % and two hexadecimal digits (a space is %20, % itself is %25)"}
	}
	if !utf8.ValidString(ptr) {
		return nil, &refError{"the fragment's percent-escapes decode to bytes that are not UTF-8",
			"percent-encode the UTF-8 bytes of each character (ü is %C3%BC)"}
	}
	if !strings.HasPrefix(ptr, "/") {
		return nil, nil
	}
	toks := strings.Split(ptr[1:], "/")
	for i, tok := range toks {
		for j := 0; j < len(tok); j++ {
			if tok[j] != '~' {
				continue
			}
			if j+1 < len(tok) && (tok[j+1] == '0' || tok[j+1] == '1') {
				j++
				continue
			}
			_, n := utf8.DecodeRuneInString(tok[j+1:])
			return nil, &refError{fmt.Sprintf("%q in the JSON Pointer %q is not an escape (RFC 6901 has ~0 and ~1 only)", tok[j:j+1+n], ptr),
				"in a JSON Pointer write ~ as ~0 and / as ~1; no other character may follow ~"}
		}
		toks[i] = ptrUnescape(tok)
	}
	return toks, nil
}

// typeName makes a bqgen type name (CamelCase, ^[A-Z][A-Za-z0-9]*$) of a definition key.
func typeName(key string) string {
	var b strings.Builder
	for _, part := range strings.FieldsFunc(key, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}) {
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	s := b.String()
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		s = "T" + s
	}
	return s
}

func ptrEscape(s string) string { return strings.NewReplacer("~", "~0", "/", "~1").Replace(s) }

func ptrUnescape(s string) string { return strings.NewReplacer("~1", "/", "~0", "~").Replace(s) }

// isIntegral reports whether a JSON number's text is an integer (1, 1.0, 1e3), exactly
// and at a cost linear in its length (1e999999 is one; jsonnum).
func isIntegral(s string) bool {
	d, ok := jsonnum.Parse(s)
	return ok && d.IsInt()
}

// intValue is the value of an integral JSON number, when it is within int64.
func intValue(s string) (int64, bool) {
	d, ok := jsonnum.Parse(s)
	if !ok {
		return 0, false
	}
	return d.Int64()
}

// numberProblem says what keeps a number literal out of a bqgen registry (it is longer
// than registry.MaxNumberLength, or beyond the doubles: "" when nothing), with a hint.
func numberProblem(s string) (msg, hint string) {
	if len(s) > registry.MaxNumberLength {
		return fmt.Sprintf("is a number literal of %d characters; a registry reads at most %d", len(s), registry.MaxNumberLength),
			"write the shortest decimal of the double it means"
	}
	return "", ""
}

// numberLiteral reports whether the number e (an enum value of a number field) can be
// carried over, adding an error when it cannot (too long, or beyond the doubles: no
// double can equal it).
func (c *conv) numberLiteral(f *schemaFile, e *jval, ptr, what string) bool {
	if msg, hint := numberProblem(e.str); msg != "" {
		c.add(f.path, e, ptr, SeverityError, what+" "+msg, hint)
		return false
	}
	if d, _ := jsonnum.Parse(e.str); d.OverflowsFloat64() {
		c.add(f.path, e, ptr, SeverityError, fmt.Sprintf("%s %s is beyond the range of a double: no number can equal it", what, abbrev(e.str)), "remove it")
		return false
	}
	return true
}

// abbrev shortens a literal for a message.
func abbrev(s string) string {
	if len(s) > 40 {
		return s[:37] + "..."
	}
	return s
}
