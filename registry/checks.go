package registry

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"github.com/babelqueue/bqgen/internal/ecmare"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"

	"github.com/babelqueue/bqgen/internal/model"
)

// checkText reports bidirectional-override and control characters in every key and
// string of a file (BQ036): they can hide code in generated comments and literals.
// Every key and string of a registry can reach generated code, schemas or docs.
func checkText(l *loader, root *tnode) {
	l.curLint = nil
	var walk func(n *tnode)
	walk = func(n *tnode) {
		if n.textChecked {
			return // an aliased subtree, already checked
		}
		n.textChecked = true
		switch n.kind {
		case tStr:
			if r, ok := badRune(n.str); ok {
				l.report(n.pos, RuleText, fmt.Sprintf("text contains the invisible character %s", runeName(r)), textHint(r))
			}
		case tSeq:
			for _, it := range n.items {
				walk(it)
			}
		case tMap:
			for _, e := range n.entries {
				if r, ok := badRune(e.key); ok {
					l.report(e.keyPos, RuleText, fmt.Sprintf("key contains the invisible character %s", runeName(r)), textHint(r))
				}
				walk(e.val)
			}
		}
	}
	walk(root)
}

// badRune returns the first rune of s that BQ036 forbids: the bidirectional embeddings,
// overrides and isolates (U+202A–U+202E, U+2066–U+2069), the byte order mark U+FEFF,
// and the C0 and C1 control characters other than tab and
// newline (U+0000–U+001F, U+007F–U+009F).
func badRune(s string) (rune, bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			continue
		}
		if c < 0x80 {
			if c == '\t' || c == '\n' {
				continue
			}
			return rune(c), true
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size - 1
		switch {
		case r >= 0x80 && r <= 0x9f:
			return r, true
		case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
			return r, true
		case r == 0xfeff: // a byte order mark inside text: invisible, and illegal in Go source
			return r, true
		}
	}
	return 0, false
}

var runeNames = map[rune]string{
	0x202a: "LEFT-TO-RIGHT EMBEDDING", 0x202b: "RIGHT-TO-LEFT EMBEDDING", 0x202c: "POP DIRECTIONAL FORMATTING",
	0x202d: "LEFT-TO-RIGHT OVERRIDE", 0x202e: "RIGHT-TO-LEFT OVERRIDE", 0x2066: "LEFT-TO-RIGHT ISOLATE",
	0x2067: "RIGHT-TO-LEFT ISOLATE", 0x2068: "FIRST STRONG ISOLATE", 0x2069: "POP DIRECTIONAL ISOLATE",
	0xfeff: "BYTE ORDER MARK",
	0x0d:   "CARRIAGE RETURN", 0x1b: "ESCAPE", 0x00: "NULL", 0x08: "BACKSPACE", 0x7f: "DELETE",
}

func textHint(r rune) string {
	if r == 0xfeff {
		return "remove the character: a byte order mark inside text is invisible and cannot appear in Go source"
	}
	if r >= 0x202a {
		return "remove the character: bidirectional controls make text display differently from what compilers and schemas read (Trojan Source)"
	}
	return "remove the control character; only tab and newline may appear in text"
}

func runeName(r rune) string {
	if n, ok := runeNames[r]; ok {
		return fmt.Sprintf("%U (%s)", r, n)
	}
	return fmt.Sprintf("%U (a control character)", r)
}

var (
	urnRe        = regexp.MustCompile(`^urn:babel:[a-z0-9-]+:[a-z0-9_-]+(\.[a-z0-9_-]+)*$`)
	uuidPartRe   = regexp.MustCompile(`^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$`)
	hexIDRe      = regexp.MustCompile(`^[0-9a-fA-F]{12,}$`)
	digitsRe     = regexp.MustCompile(`^[0-9]+$`)
	versionRe    = regexp.MustCompile(`\.v([0-9]+)$`)
	badVersionRe = regexp.MustCompile(`[_-][vV][0-9]+$`)
	snakeRe      = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)
	classNameRe  = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*[.\\])*[A-Z][A-Za-z0-9_]*$`)
)

// payloadSegment returns the first dot-separated part of the URN's name that looks
// like a payload (BQ011): all digits, a UUID (with or without dashes), or a hex id of
// 12 or more characters with at least one digit (Mongo ObjectIds, hashes).
func payloadSegment(urn string) (seg, kind string) {
	parts := strings.SplitN(strings.TrimPrefix(urn, "urn:babel:"), ":", 2)
	if len(parts) < 2 {
		return "", ""
	}
	for _, p := range strings.Split(parts[1], ".") {
		for _, sp := range strings.Split(p, ":") {
			switch {
			case digitsRe.MatchString(sp):
				return sp, "a number"
			case uuidPartRe.MatchString(sp):
				return sp, "a UUID"
			case hexIDRe.MatchString(sp) && strings.ContainsAny(sp, "0123456789"):
				return sp, "a hex id"
			}
		}
	}
	return "", ""
}

// isClassName reports whether urn looks like a language class name (BQ012):
// App\Jobs\ProcessOrder, com.example.OrderCreated, Orders::Created, OrderCreated.
func isClassName(urn string) bool {
	if strings.HasPrefix(urn, "urn:") {
		return false
	}
	return strings.Contains(urn, `\`) || strings.Contains(urn, "::") || classNameRe.MatchString(urn)
}

// checkRules runs the registry rules (docs/rules.md) that need the resolved model.
func checkRules(l *loader) {
	msgs, types := l.reg.Messages, l.reg.Types
	// The PII rules read only the linked model and whether link or cycles reported
	// BQ033; they run beside the other rules (a second core is otherwise idle while
	// the last ones run), into a list of their own that joins l.diags where the serial
	// order puts it, so the diagnostics do not depend on the timing.
	pw := *l
	pw.diags, pw.fieldWhats = nil, nil
	broken := l.hasRule(RuleNamedType) // an unknown or infinite type: not measured
	piiDone := make(chan struct{})
	go func() {
		defer close(piiDone)
		checkPII(&pw, broken)
	}()
	l.inParallel(len(msgs)+len(types), func(w *loader, i int) {
		if i < len(msgs) {
			m := msgs[i]
			w.curLint = m.Lint
			w.checkURN(m)
			w.walkRules(m.Data, "", fmt.Sprintf("the data of message %q", m.URN), m.Pos)
			return
		}
		t := types[i-len(msgs)]
		w.curLint = nil
		w.walkRules(t.Schema, "", fmt.Sprintf("type %q", t.Name), t.Pos)
	})
	l.curLint = nil
	checkCopiedEnums(l)
	checkSupersedesCycles(l)
	<-piiDone
	l.diags = append(l.diags, pw.diags...)
	l.curLint = nil // as checkPII leaves it
	checkVersioning(l)
}

// ruleChunk is how many items inParallel hands a worker at a time: a message's rules
// take ~0.1 ms, so a chunk is worth a channel operation.
const ruleChunk = 32

// inParallel runs check(w, i) for every i in [0, n) on up to GOMAXPROCS goroutines
// and leaves in l.diags what they report in the order a loop over i on l reports it,
// whatever the number of goroutines and their timing (the chunks' reports are joined
// in order of i). Each goroutine's w is a copy of l that reports into a list of its
// own, so check must only read the loader and the model besides calling w.report
// (and setting w.curLint; w.fieldWhat's memo is w's own): checkURN and walkRules, whose shared caches (the
// patterns of examples, formatSchemas) are safe for concurrent use. Any other write
// to the loader would be lost or race.
func (l *loader) inParallel(n int, check func(w *loader, i int)) {
	chunks := (n + ruleChunk - 1) / ruleChunk
	out := make([][]pending, chunks)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), chunks) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := *l
			w.fieldWhats = nil // its own
			for c := int(next.Add(1) - 1); c < chunks; c = int(next.Add(1) - 1) {
				w.diags = nil
				for i := c * ruleChunk; i < min(n, (c+1)*ruleChunk); i++ {
					check(&w, i)
				}
				out[c] = w.diags
			}
		}()
	}
	wg.Wait()
	for _, ds := range out {
		l.diags = append(l.diags, ds...)
	}
}

// badURN reports whether checkURN reports urn under BQ010, BQ011 or BQ012.
func badURN(urn string) bool {
	if isClassName(urn) || !urnShape(urn) {
		return true
	}
	seg, _ := payloadSegment(urn)
	return seg != ""
}

// urnShape reports whether urn matches urnRe, without the regexp engine: badURN runs
// three times per message of a load (Go names, versioning), and urnRe took a third of
// checkVersioning at 10,000 URNs.
func urnShape(urn string) bool {
	rest, ok := strings.CutPrefix(urn, "urn:babel:")
	if !ok {
		return false
	}
	ctx, name, ok := strings.Cut(rest, ":")
	if !ok || ctx == "" {
		return false
	}
	for i := 0; i < len(ctx); i++ {
		if c := ctx[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	// One or more segments of [a-z0-9_-] separated by dots, none empty.
	seg := 0
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_':
			seg++
		case c == '.' && seg > 0:
			seg = 0
		default:
			return false
		}
	}
	return seg > 0
}

func (l *loader) checkURN(m *model.Message) {
	urn := m.URN
	if isClassName(urn) {
		l.report(m.Pos, RuleURNClass, fmt.Sprintf("%q is a class name, not a URN", urn),
			"name the message urn:babel:<context>:<event>, e.g. urn:babel:orders:created; class names must never reach the wire")
		return
	}
	if strings.HasPrefix(urn, "urn:babel:") {
		if seg, kind := payloadSegment(urn); seg != "" {
			l.report(m.Pos, RuleURNPayload, fmt.Sprintf("URN %q carries a payload (%q is %s); ids belong in data", urn, seg, kind),
				"drop the id from the URN and add it as a property of `data`")
			return
		}
	}
	if !urnShape(urn) {
		msg := fmt.Sprintf("URN %q is not of the form urn:babel:<context>:<name>", urn)
		switch {
		case !strings.HasPrefix(urn, "urn:babel:"):
			msg = fmt.Sprintf("URN %q must start with urn:babel:", urn)
		case strings.ToLower(urn) != urn:
			msg = fmt.Sprintf("URN %q has upper-case letters", urn)
		case strings.IndexFunc(urn, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || strings.ContainsRune(":._-", r))
		}) >= 0:
			msg = fmt.Sprintf("URN %q has characters outside [a-z0-9:._-]", urn)
		}
		l.report(m.Pos, RuleURNSyntax, msg,
			"write urn:babel:<bounded-context>:<event-or-command>: context [a-z0-9-], name lower case with dot-separated parts")
		return
	}
	if mm := versionRe.FindStringSubmatch(urn); mm != nil {
		n, err := strconv.Atoi(mm[1])
		switch {
		case err != nil && len(strings.TrimLeft(mm[1], "0")) > 0:
			l.report(m.Pos, RuleVersion, fmt.Sprintf("URN %q has a version number out of range (.v%s)", urn, abbrevDigits(mm[1])),
				"number versions from 2 up, one at a time: .v2, .v3…")
		case err != nil || n < 2:
			l.report(m.Pos, RuleVersion, fmt.Sprintf("URN %q has the suffix .v%s; the first version has no suffix", urn, mm[1]),
				"drop the suffix; the second version is .v2")
		case mm[1][0] == '0':
			l.report(m.Pos, RuleVersion, fmt.Sprintf("URN %q has a version with a leading zero", urn), "write .v"+strconv.Itoa(n))
		}
	} else if badVersionRe.MatchString(urn) {
		l.report(m.Pos, RuleVersion, fmt.Sprintf("URN %q has a version suffix not written .vN", urn), "write the version as .v2, .v3…")
	}
	if m.Supersedes != "" {
		switch {
		case m.Supersedes == urn:
			l.report(m.Pos, RuleVersion, fmt.Sprintf("message %q supersedes itself", urn), "name the older URN it replaces")
		case laterVersion(urn, m.Supersedes):
			l.report(supersedesPos(m), RuleVersion, fmt.Sprintf("message %q supersedes %q, a later version of it", urn, m.Supersedes),
				"a URN supersedes an earlier version: move `supersedes` to the later URN")
		case l.reg.Message(m.Supersedes) == nil && !l.partial:
			pos := supersedesPos(m)
			msg := fmt.Sprintf("message %q supersedes %q, which is not in the registry", urn, m.Supersedes)
			if sug := l.closeURN(m.Supersedes, urn); sug != "" {
				msg += fmt.Sprintf("; did you mean %q?", sug)
			}
			l.report(pos, RuleVersion, msg, "keep the older URN (deprecated) until it is retired, or remove `supersedes`")
		}
	}
}

// supersedesPos is where a finding about m's `supersedes` points: its value, else m.
func supersedesPos(m *model.Message) model.Pos {
	if m.SupersedesPos != (model.Pos{}) {
		return m.SupersedesPos
	}
	return m.Pos
}

// laterVersion reports whether old is a later version of urn's URN (same base, higher
// .vN): urn:babel:a:b superseding urn:babel:a:b.v2.
func laterVersion(urn, old string) bool {
	b1, n1, ok1 := urnVersion(urn)
	b2, n2, ok2 := urnVersion(old)
	return ok1 && ok2 && b1 == b2 && n2 > n1
}

// abbrevDigits shortens a long run of digits for a message: its first and last 8.
func abbrevDigits(d string) string {
	if len(d) <= 20 {
		return d
	}
	return d[:8] + "…" + d[len(d)-8:]
}

// checkSupersedesCycles reports (BQ014) each cycle of `supersedes`: following it from
// a message leads back to that message, so no URN of the cycle is the newest and
// diff's advice along the chain has no end. Each cycle is reported once, at the
// `supersedes` of its first message in the registry's order. Linear in the number of
// messages (each is visited once).
func checkSupersedesCycles(l *loader) {
	const (
		unseen = iota
		onPath
		done
	)
	state := make(map[string]int, len(l.reg.Messages))
	for _, start := range l.reg.Messages {
		var path []*model.Message
		for m := start; m != nil && state[m.URN] == unseen; m = l.reg.Message(m.Supersedes) {
			state[m.URN] = onPath
			path = append(path, m)
			if m.Supersedes == "" || m.Supersedes == m.URN {
				break
			}
			if next := l.reg.Message(m.Supersedes); next != nil && state[next.URN] == onPath {
				// The cycle is path from next on.
				i := 0
				for path[i] != next {
					i++
				}
				cyc := path[i:]
				first := cyc[0]
				var urns []string
				for _, c := range cyc {
					if c.Pos.File < first.Pos.File || (c.Pos.File == first.Pos.File && c.Pos.Line < first.Pos.Line) {
						first = c
					}
					urns = append(urns, c.URN)
				}
				l.curLint = first.Lint
				l.report(supersedesPos(first), RuleVersion,
					fmt.Sprintf("the supersedes of %s form a cycle: no URN of it is the newest", strings.Join(quoteAll(append(urns, urns[0])), " → ")),
					"each URN supersedes an older one: remove `supersedes` from the oldest URN of the cycle, which replaces none")
				l.curLint = nil
				break
			}
		}
		for _, m := range path {
			state[m.URN] = done
		}
	}
}

func quoteAll(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = strconv.Quote(x)
	}
	return out
}

// closeURN returns the URN of the registry other than self nearest to u (at most three
// edits, in the same bounded context), or "".
func (l *loader) closeURN(u, self string) string {
	ctx := model.URNContext(u)
	var cands []string
	for _, m := range l.reg.Messages {
		if m.URN != self && model.URNContext(m.URN) == ctx {
			cands = append(cands, m.URN)
		}
	}
	best, bestD := "", 4
	for _, c := range cands {
		if d := editDistance(u, c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

func keyPos(s *model.Schema, key string, def model.Pos) model.Pos {
	if p, ok := s.KeyPos(key); ok {
		return p
	}
	return def
}

// nameTokens splits a JSON key into lower-case words at `_`, `-`, `.`, spaces, case
// changes (totalPrice, HTTPStatus) and letter/digit boundaries.
func nameTokens(name string) []string { return appendNameTokens(nil, name) }

// appendNameTokens appends the tokens of name (nameTokens) to dst.
func appendNameTokens(dst []string, name string) []string {
	if toks, ok := asciiNameTokens(dst, name); ok {
		return toks
	}
	return append(dst, runeNameTokens(name)...)
}

// runeNameTokens is nameTokens for any name.
func runeNameTokens(name string) []string {
	var toks []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			toks = append(toks, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(name)
	for i, r := range rs {
		switch {
		case r == '_' || r == '-' || r == '.' || r == ' ':
			flush()
			continue
		case i > 0 && unicode.IsUpper(r) && (unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1])):
			flush()
		case i > 0 && unicode.IsUpper(r) && unicode.IsUpper(rs[i-1]) && i+1 < len(rs) && unicode.IsLower(rs[i+1]):
			flush()
		case i > 0 && unicode.IsDigit(r) != unicode.IsDigit(rs[i-1]) && rs[i-1] != '_' && rs[i-1] != '-':
			flush()
		}
		cur = append(cur, r)
	}
	flush()
	return toks
}

// asciiNameTokens is appendNameTokens for a name of ASCII letters, digits and the
// separators (ok false otherwise): the same boundaries, its tokens cut from one
// lower-case copy of name (or name itself, when it is lower-case already) instead of a
// string each.
func asciiNameTokens(toks []string, name string) (_ []string, ok bool) {
	lower := true
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '_', c == '-', c == '.', c == ' ':
		case c >= 'A' && c <= 'Z':
			lower = false
		default:
			return nil, false
		}
	}
	low := name
	if !lower {
		low = strings.ToLower(name)
	}
	isUpper := func(c byte) bool { return c >= 'A' && c <= 'Z' }
	isLower := func(c byte) bool { return c >= 'a' && c <= 'z' }
	isDigit := func(c byte) bool { return c >= '0' && c <= '9' }
	start := 0
	flush := func(end int) {
		if end > start {
			toks = append(toks, low[start:end])
		}
		start = end
	}
	for i := 0; i < len(name); i++ {
		r := name[i]
		switch {
		case r == '_' || r == '-' || r == '.' || r == ' ':
			flush(i)
			start = i + 1
			continue
		case i > 0 && isUpper(r) && (isLower(name[i-1]) || isDigit(name[i-1])):
			flush(i)
		case i > 0 && isUpper(r) && isUpper(name[i-1]) && i+1 < len(name) && isLower(name[i+1]):
			flush(i)
		case i > 0 && isDigit(r) != isDigit(name[i-1]) && name[i-1] != '_' && name[i-1] != '-':
			flush(i)
		}
	}
	flush(len(name))
	return toks, true
}

// isSnake reports whether name matches snakeRe (^[a-z][a-z0-9]*(_[a-z0-9]+)*$),
// without the regular expression: it is asked of every JSON key.
func isSnake(name string) bool {
	if name == "" || name[0] < 'a' || name[0] > 'z' {
		return false
	}
	for i := 1; i < len(name); i++ {
		switch c := name[i]; {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
		case c == '_':
			if i == len(name)-1 || name[i+1] == '_' {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// MoneyWords are the name tokens that make a `number` field money (BQ020), and
// NotMoneyWords the tokens that make it a ratio or quantity instead (tax_rate,
// discount_percent, total_weight). Both are documented in docs/rules.md.
var (
	MoneyWords = []string{"amount", "amounts", "balance", "balances", "budget", "cents", "charge", "charges",
		"cost", "costs", "deposit", "deposits", "discount", "discounts", "fee", "fees", "money", "payment",
		"payments", "payout", "payouts", "price", "prices", "refund", "refunds", "revenue", "revenues",
		"salaries", "salary", "subtotal", "subtotals", "tax", "taxes", "total", "totals", "vat", "wage", "wages"}
	NotMoneyWords = []string{"bps", "count", "factor", "multiplier", "pct", "percent", "percentage", "quantity",
		"qty", "rate", "ratio", "score", "weight"}
	moneyWords    = setOf(MoneyWords)
	notMoneyWords = setOf(NotMoneyWords)
)

func setOf(xs []string) map[string]bool {
	m := make(map[string]bool, len(xs))
	for _, x := range xs {
		m[x] = true
	}
	return m
}

// moneyWord returns the money word among a field name's tokens, or "".
func moneyWord(toks []string) string {
	word := ""
	for _, t := range toks {
		if notMoneyWords[t] {
			return ""
		}
		if word == "" && moneyWords[t] {
			word = t
		}
	}
	return word
}

// isTimeName reports whether a field name says it holds a point in time (BQ025):
// its last token is at, time, ts or timestamp (created_at, createdAt, start_time,
// event_ts, timestamp).
func isTimeName(toks []string) bool {
	if len(toks) == 0 {
		return false
	}
	switch toks[len(toks)-1] {
	case "at", "time", "ts", "timestamp":
		return true
	}
	return false
}

// builtinAliases maps type names other languages use to the registry's built-in type
// (docs/registry-format.md#types), for the did-you-mean of an unknown type.
var builtinAliases = map[string]string{
	"int": "integer", "int32": "integer", "int64": "integer", "long": "integer", "short": "integer", "bigint": "integer",
	"float": "number", "float32": "number", "float64": "number", "double": "number", "decimal": "number",
	"bool": "boolean", "str": "string", "text": "string", "char": "string",
	"datetime": "timestamp", "instant": "timestamp", "time": "timestamp",
	"guid": "uuid", "list": "array", "dict": "map", "hash": "map", "record": "object",
	"integer": "integer", "number": "number", "boolean": "boolean", "string": "string",
	"object": "object", "array": "array", "map": "map", "money": "money", "timestamp": "timestamp", "uuid": "uuid",
}

// builtinAlias returns the built-in type a foreign or wrongly-cased type name means
// (`UUID` → uuid, `int` → integer, `Money` → money), or "".
func builtinAlias(name string) string {
	return builtinAliases[strings.ToLower(name)]
}

// isFlagName reports whether a field name reads as a yes/no question (BQ026).
func isFlagName(toks []string) bool {
	return len(toks) > 1 && (toks[0] == "is" || toks[0] == "has" || toks[0] == "can")
}

// walkRules checks one schema tree. name is the JSON key the schema belongs to (the
// parent's key for items and values; "" for roots), what names the schema in
// messages and pos is where diagnostics about the schema point.
func (l *loader) walkRules(s *model.Schema, name, what string, pos model.Pos) {
	if s == nil {
		return
	}
	l.schemaRules(s, name, what, pos)
	if s.Kind == model.Object {
		for _, p := range s.Properties {
			if !isSnake(p.Name) {
				l.report(p.Pos, RuleSnakeCase, fmt.Sprintf("JSON key %q is not snake_case", p.Name), snakeHint(p.Name, s))
			}
			l.walkRules(p.Schema, p.Name, l.fieldWhat(p.Name), p.Pos)
		}
	}
	if s.Items != nil {
		l.walkRules(s.Items, name, "the items of "+what, s.Items.Pos)
	}
	if s.Values != nil {
		l.walkRules(s.Values, name, "the values of "+what, s.Values.Pos)
	}
}

// schemaRules runs the rules on schema s itself (not on its properties, items or
// values, which walkRules visits): arguments as for walkRules. A rule that reads a
// keyword a format error leaves in doubt skips s (certain).
func (l *loader) schemaRules(s *model.Schema, name, what string, pos model.Pos) {
	var buf [8]string // a key's tokens, without allocating
	var toks []string
	if name != "" {
		toks = appendNameTokens(buf[:0], name)
	}
	switch s.Kind {
	case model.Number:
		if w := moneyWord(toks); w != "" && l.certain(s, "type") {
			l.report(pos, RuleMoneyFloat, fmt.Sprintf("%s is a number (a float) but names money (%q)", what, w),
				fmt.Sprintf(`write %s: {type: money}, carried as {"amount": 1299, "currency": "EUR"} with the amount in integer minor units (cents)`, yamlKey(name)))
		}
	case model.Integer:
		// A time-named integer gets BQ025 (type it timestamp), whose fix also makes it
		// JavaScript-safe, so BQ022 is not reported beside it.
		if l.reg.HasConsumer("node") && s.Encoding != "string" && !isTimeName(toks) &&
			l.certain(s, "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "enum", "format", "encoding") {
			if why := jsUnsafe(s); why != "" {
				l.report(pos, RuleJSSafe, fmt.Sprintf("%s %s, and a node consumer is declared: JavaScript loses integers beyond ±9007199254740991", what, why),
					"bound it with minimum/maximum within ±9007199254740991, or carry it as a JSON string with `encoding: string`")
			}
		}
		if isZeroOne(s) && isFlagName(toks) && l.certain(s, "minimum", "maximum", "enum") {
			l.report(pos, RuleIntFlag, fmt.Sprintf("%s is an integer limited to 0 and 1 and named like a flag: a boolean in disguise", what),
				fmt.Sprintf("write %s: {type: boolean} (JSON true/false; a change of type mints <urn>.v2)", yamlKey(name)))
		}
	case model.String:
		if isYesNo(s.Enum) && l.certain(s, "enum") {
			l.report(keyPos(s, "enum", pos), RuleBoolean, fmt.Sprintf("%s is a string enum of boolean words", what),
				"use `type: boolean` (JSON true/false, never \"yes\"/\"no\")")
		}
		l.checkPortability(s, what, pos) // portability.go
	case model.Array:
		if s.UniqueItems && s.MinItems != nil && l.certain(s, "uniqueItems", "items", "minItems") {
			if d := distinctValues(s.Items, 0); d >= 0 && *s.MinItems > d {
				l.report(keyPos(s, "minItems", pos), RuleFormat,
					fmt.Sprintf("minItems %d of %s leaves no valid value: with uniqueItems its items can take only %d distinct %s", *s.MinItems, what, d, plural(d, "value")),
					fmt.Sprintf("lower minItems to %d or less, or drop uniqueItems", d), keyPos(s, "uniqueItems", pos))
			}
		}
		if s.UniqueItems && l.certain(s, "uniqueItems", "items") {
			if why := uncomparable(s.Items, map[*model.NamedType]bool{}, l.skip); why != "" {
				l.report(keyPos(s, "uniqueItems", pos), RuleUniqueItems,
					fmt.Sprintf("uniqueItems on %s cannot be checked as JSON Schema does: its items hold %s", what, why),
					"drop uniqueItems and deduplicate in the consumer, close the item objects (additionalProperties: false), or use integers or strings instead of numbers")
			}
		}
	case model.Object:
		if !s.AdditionalProperties && l.certain(s, "additionalProperties") {
			l.report(keyPos(s, "additionalProperties", pos), RuleClosedObject,
				fmt.Sprintf("%s is closed (additionalProperties: false): adding a property later breaks its consumers", what),
				"remove `additionalProperties: false`; consumers tolerate unknown keys, so producers can add optional fields")
		}
	}
	if len(s.Enum) > 0 && l.certain(s) {
		l.enumValues(s, what, pos)
	}
	switch {
	case !l.certain(s, "format"):
	case (s.Kind == model.Integer || s.Kind == model.Number) && isTimeName(toks):
		l.report(pos, RuleTime, fmt.Sprintf("%s names a time but is a plain %s; time is Unix milliseconds typed timestamp", what, s.Kind),
			fmt.Sprintf("write %s: {type: timestamp} (integer Unix milliseconds, UTC; seconds are multiplied by 1000)", yamlKey(name)))
	case s.Kind == model.String && s.Format != "date" && isTimeName(toks):
		// docs/contract.md#time: a point in time is Unix milliseconds, never a string; a
		// calendar date (format: date) is not a point in time.
		l.report(pos, RuleTime, fmt.Sprintf("%s names a time but is a string; time is Unix milliseconds typed timestamp, never a formatted string", what),
			fmt.Sprintf("write %s: {type: timestamp} (integer Unix milliseconds, UTC); a calendar date without time stays {type: string, format: date}", yamlKey(name)))
	}
	if !l.certain(s) {
		return // an example is checked against every keyword
	}
	exs := l.exampleNodes[s]
	for i, ex := range s.Examples {
		node := exs.item(i)
		at := keyPos(s, "examples", pos) // a finding about example i points at it
		if node != nil {
			at = node.pos
		}
		if s.Kind == model.Boolean && ex != nil {
			if _, ok := ex.(bool); !ok {
				text := jsonText(ex)
				if node != nil {
					text = shown(node)
				}
				l.report(at, RuleBoolean, fmt.Sprintf("example %d of %s is %s, not true or false", i+1, what, text),
					joinHint("write the example as true or false", readingHint(node, "boolean")))
				continue
			}
		}
		if pr := checkExample(s, ex, node, l.skip, "$", 0); pr != nil {
			l.report(at, RuleExample, fmt.Sprintf("example %d of %s is invalid: %s", i+1, what, pr),
				joinHint("fix the example or the schema", readingHint(pr.node, pr.want)))
			continue
		}
		if p, v := secondsTimestamp(s, ex, l.skip, "$", 0); p != "" {
			where := ""
			if p != "$" {
				where = " at " + p
			}
			l.report(at, RuleTime, fmt.Sprintf("example %d of %s has %d%s, which looks like seconds: a timestamp is Unix milliseconds", i+1, what, v, where),
				fmt.Sprintf("write %d (milliseconds)", v*1000))
		}
	}
}

// enumValues reports the enum values of s that s itself rejects (BQ041): the generated
// code would declare a constant that its own validation refuses, and no message could
// carry it.
func (l *loader) enumValues(s *model.Schema, what string, pos model.Pos) {
	nodes := l.enumNodes[s]
	for i, v := range s.Enum {
		if i, ok := v.(int64); ok && s.Encoding == "string" {
			v = strconv.FormatInt(i, 10) // carried as a string
		}
		pr := checkExample(s, v, nil, l.skip, "$", 0)
		if pr == nil {
			continue
		}
		at, text := keyPos(s, "enum", pos), jsonText(v)
		if i < len(nodes) {
			at, text = nodes[i].pos, shown(nodes[i])
		}
		l.report(at, RuleEnumValue, fmt.Sprintf("enum value %s of %s is rejected by the field itself: %s", text, what, pr.msg),
			"remove the value, or relax the constraint that rejects it: the generated code would declare a constant that its own validation refuses")
	}
}

// yamlKey is name as a YAML key for hints.
func yamlKey(name string) string {
	if name == "" {
		return "type"
	}
	if snakeRe.MatchString(name) {
		return name
	}
	return strconv.Quote(name)
}

// secondsTimestamp finds a timestamp in the example v (valid against s) that looks
// like Unix seconds rather than milliseconds: its magnitude is below 10^11 (before
// 1973-03-03 in milliseconds, after 5138 in seconds). It returns the JSON path and
// value, or "".
func secondsTimestamp(s *model.Schema, v any, skip skipSet, path string, depth int) (string, int64) {
	if s == nil || v == nil || depth > 200 || skip[s] {
		return "", 0
	}
	switch s.Kind {
	case model.Ref:
		if s.Named != nil {
			return secondsTimestamp(s.Named.Schema, v, skip, path, depth+1)
		}
	case model.Timestamp:
		var i int64
		switch x := v.(type) {
		case int64:
			i = x
		case float64:
			i = int64(x)
		}
		if i > -1e11 && i < 1e11 {
			return path, i
		}
	case model.Object:
		if obj, ok := v.(map[string]any); ok {
			for _, p := range s.Properties {
				if pv, ok := obj[p.Name]; ok {
					if q, i := secondsTimestamp(p.Schema, pv, skip, path+"."+p.Name, depth+1); q != "" {
						return q, i
					}
				}
			}
		}
	case model.Array:
		if arr, ok := v.([]any); ok {
			for i, it := range arr {
				if q, n := secondsTimestamp(s.Items, it, skip, fmt.Sprintf("%s[%d]", path, i), depth+1); q != "" {
					return q, n
				}
			}
		}
	case model.Map:
		if obj, ok := v.(map[string]any); ok {
			keys := make([]string, 0, len(obj))
			for k := range obj {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				if q, n := secondsTimestamp(s.Values, obj[k], skip, path+"."+k, depth+1); q != "" {
					return q, n
				}
			}
		}
	}
	return "", 0
}

func snake(s string) string {
	return strings.Join(nameTokens(s), "_")
}

// snakeKey is the snake_case form of a JSON key: its words (nameTokens) in lower-case
// ASCII, accents dropped (`café` → `cafe`) and other characters read as separators,
// joined by `_`; "" when no snake_case key comes of it (`日本`, `123`).
func snakeKey(name string) string {
	folded, _, err := transform.String(transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn))), name)
	if err != nil {
		folded = name
	}
	var b strings.Builder
	for _, tok := range nameTokens(folded) {
		word := strings.Map(func(r rune) rune {
			if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
				return r
			}
			return '_'
		}, tok)
		for _, w := range strings.Split(word, "_") {
			if w == "" {
				continue
			}
			if b.Len() > 0 {
				b.WriteByte('_')
			}
			b.WriteString(w)
		}
	}
	if k := b.String(); snakeRe.MatchString(k) {
		return k
	}
	return ""
}

// snakeHint is BQ031's hint for the key name of object s: the snake_case key to rename
// it to — never name itself, and never a key s already has (that would collide).
func snakeHint(name string, s *model.Schema) string {
	const tail = " (in a published URN a rename mints <urn>.v2)"
	k := snakeKey(name)
	switch {
	case k == "" || k == name:
		return "rename it to lower-case ASCII words joined by `_`, starting with a letter (`order_id`, `line_2`)" + tail
	case s.Property(k) != nil:
		return fmt.Sprintf("rename it to a snake_case key other than %q, which this object already has%s", k, tail)
	}
	return "rename it to " + strconv.Quote(k) + tail
}

const maxSafe = 1<<53 - 1

// jsUnsafe says why the integer s may leave ±(2^53 − 1) (BQ022), or returns "". A
// missing bound counts as outside; an enum is safe when every value is; format int32
// is safe.
func jsUnsafe(s *model.Schema) string {
	if s.IntFormat == "int32" {
		return ""
	}
	if s.Enum != nil {
		for _, v := range s.Enum {
			if i, ok := v.(int64); !ok || i > maxSafe || i < -maxSafe {
				return fmt.Sprintf("has the enum value %v", v)
			}
		}
		return ""
	}
	lo, hi := int64(math.MinInt64), int64(math.MaxInt64)
	if s.Minimum != nil {
		lo = s.Minimum.I
	}
	if s.ExclusiveMinimum != nil && s.ExclusiveMinimum.I != math.MaxInt64 {
		lo = max(lo, s.ExclusiveMinimum.I+1)
	}
	if s.Maximum != nil {
		hi = s.Maximum.I
	}
	if s.ExclusiveMaximum != nil && s.ExclusiveMaximum.I != math.MinInt64 {
		hi = min(hi, s.ExclusiveMaximum.I-1)
	}
	noLo := s.Minimum == nil && s.ExclusiveMinimum == nil
	noHi := s.Maximum == nil && s.ExclusiveMaximum == nil
	switch {
	case noLo && noHi:
		return "has no minimum or maximum"
	case lo < -maxSafe && noLo:
		return "has no minimum"
	case hi > maxSafe && noHi:
		return "has no maximum"
	case lo < -maxSafe:
		return fmt.Sprintf("has the lower bound %d, below -9007199254740991", lo)
	case hi > maxSafe:
		return fmt.Sprintf("has the upper bound %d, above 9007199254740991", hi)
	}
	return ""
}

func isZeroOne(s *model.Schema) bool {
	if len(s.Enum) == 2 {
		a, _ := s.Enum[0].(int64)
		b, _ := s.Enum[1].(int64)
		return a+b == 1 && a*b == 0
	}
	return s.Minimum != nil && s.Maximum != nil && s.Minimum.I == 0 && s.Maximum.I == 1
}

func isYesNo(enum []any) bool {
	if len(enum) != 2 {
		return false
	}
	var vs []string
	for _, v := range enum {
		s, ok := v.(string)
		if !ok {
			return false
		}
		vs = append(vs, strings.ToLower(s))
	}
	sort.Strings(vs)
	pair := vs[0] + "/" + vs[1]
	switch pair {
	case "no/yes", "n/y", "false/true", "0/1", "off/on", "f/t":
		return true
	}
	return false
}

// patterns caches compiled patterns: a registry repeats the same few patterns, and
// examples are matched against them too.
var (
	patterns    sync.Map // pattern → patternResult
	patternsN   atomic.Int64
	maxPatCache = int64(10000)
)

type patternResult struct {
	re  *regexp.Regexp
	err error
}

// compilePattern compiles the ECMA-262 pattern p as Go reads it (its RE2 translation,
// internal/ecmare), with a bounded cache.
func compilePattern(p string) (*regexp.Regexp, error) {
	if r, ok := patterns.Load(p); ok {
		pr := r.(patternResult)
		return pr.re, pr.err
	}
	re, err := ecmare.Compile(p)
	if patternsN.Load() < maxPatCache {
		if _, loaded := patterns.LoadOrStore(p, patternResult{re, err}); !loaded {
			patternsN.Add(1)
		}
	}
	return re, err
}

var (
	uuidRe     = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
	currencyRe = regexp.MustCompile(`^[A-Z]{3}$`)
	canonIntRe = regexp.MustCompile(`^-?(0|[1-9][0-9]*)$`)
)

const maxTimestamp = 8_640_000_000_000_000

// exampleProblem is why an example is not valid against its field: the JSON path of
// the offending value (0-based indexes, as in JSON paths), what is wrong, and, for a
// value of the wrong type, the YAML node that holds it and the JSON Schema type wanted
// there (for readingHint).
type exampleProblem struct {
	path, msg string
	node      *tnode
	want      string
}

func (p *exampleProblem) String() string { return p.path + ": " + p.msg }

// checkExample validates an example value against s; it returns nil when v is valid,
// else the first problem. n is the YAML node v was read from, or nil. A schema in skip
// (broken) accepts anything.
func checkExample(s *model.Schema, v any, n *tnode, skip skipSet, path string, depth int) *exampleProblem {
	if depth > 200 || skip[s] {
		return nil
	}
	bad := func(format string, args ...any) *exampleProblem {
		return &exampleProblem{path: path, msg: fmt.Sprintf(format, args...)}
	}
	wrongType := func(want, msg string) *exampleProblem {
		return &exampleProblem{path: path, msg: msg, node: n, want: want}
	}
	if v == nil {
		if s.Nullable {
			return nil
		}
		return bad("null is not allowed")
	}
	if s.Kind == model.Ref {
		if s.Named == nil {
			return nil
		}
		return checkExample(s.Named.Schema, v, n, skip, path, depth+1)
	}
	isInt := func(v any) (int64, bool) {
		switch x := v.(type) {
		case int64:
			return x, true
		case float64:
			if x == math.Trunc(x) && math.Abs(x) < 1<<63 {
				return int64(x), true
			}
		}
		return 0, false
	}
	inEnum := func() bool {
		if s.Enum == nil {
			return true
		}
		for _, e := range s.Enum {
			if e == v {
				return true
			}
			if f, ok := e.(float64); ok {
				if g, ok := v.(int64); ok && float64(g) == f {
					return true
				}
			}
		}
		return false
	}
	switch s.Kind {
	case model.String:
		str, ok := v.(string)
		if !ok {
			return wrongType("string", "want a string")
		}
		cnt := int64(utf8.RuneCountInString(str))
		if s.MinLength != nil && cnt < *s.MinLength {
			return bad("%d %s, shorter than the minLength %d", cnt, plural(cnt, "character"), *s.MinLength)
		}
		if s.MaxLength != nil && cnt > *s.MaxLength {
			return bad("%d %s, longer than the maxLength %d", cnt, plural(cnt, "character"), *s.MaxLength)
		}
		if s.Pattern != "" {
			if re, err := compilePattern(s.Pattern); err == nil && !re.MatchString(str) {
				return bad("%q does not match the pattern %q", str, s.Pattern)
			}
		}
		if !inEnum() {
			return bad("%q is not one of the enum values", str)
		}
		if s.Format != "" && !formatValid(s.Format, str) {
			return bad("%q is not %s", str, formatNames[s.Format])
		}
	case model.Integer:
		var i int64
		if s.Encoding == "string" {
			str, ok := v.(string)
			if !ok || !canonIntRe.MatchString(str) {
				return wrongType("string", "want an integer in a string (canonical decimal)")
			}
			var err error
			if i, err = strconv.ParseInt(str, 10, 64); err != nil {
				return bad("out of int64 range")
			}
		} else {
			var ok bool
			if i, ok = isInt(v); !ok {
				if f, isFloat := v.(float64); isFloat && f == math.Trunc(f) {
					return bad("out of int64 range") // 1e19: an integer, too large
				}
				return wrongType("integer", "want an integer")
			}
		}
		if s.IntFormat == "int32" && (i < math.MinInt32 || i > math.MaxInt32) {
			return bad("out of int32 range")
		}
		if msg := checkBounds(s, float64(i), i, true); msg != "" {
			return bad("%s", msg)
		}
		if s.Enum != nil {
			found := false
			for _, e := range s.Enum {
				if e == i {
					found = true
				}
			}
			if !found {
				return bad("%d is not one of the enum values", i)
			}
		}
	case model.Number:
		var f float64
		switch x := v.(type) {
		case int64:
			f = float64(x)
		case float64:
			f = x
		default:
			return wrongType("number", "want a number")
		}
		if msg := checkBounds(s, f, 0, false); msg != "" {
			return bad("%s", msg)
		}
		if s.Enum != nil {
			found := false
			for _, e := range s.Enum {
				if e == f {
					found = true
				}
			}
			if !found {
				return bad("%v is not one of the enum values", f)
			}
		}
	case model.Boolean:
		if _, ok := v.(bool); !ok {
			return wrongType("boolean", "want true or false")
		}
		if !inEnum() {
			return bad("not one of the enum values")
		}
	case model.Object:
		obj, ok := v.(map[string]any)
		if !ok {
			return wrongType("object", "want an object")
		}
		for _, p := range s.Properties {
			pv, present := obj[p.Name]
			if !present {
				if p.Required {
					return bad("missing required key %q", p.Name)
				}
				continue
			}
			if pr := checkExample(p.Schema, pv, n.child(p.Name), skip, path+"."+p.Name, depth+1); pr != nil {
				return pr
			}
		}
		if !s.AdditionalProperties {
			keys := make([]string, 0, len(obj))
			for k := range obj {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			known := make(map[string]bool, len(s.Properties))
			for _, p := range s.Properties {
				known[p.Name] = true
			}
			for _, k := range keys {
				if !known[k] {
					return bad("unknown key %q", k)
				}
			}
		}
	case model.Array:
		arr, ok := v.([]any)
		if !ok {
			return wrongType("array", "want an array")
		}
		cnt := int64(len(arr))
		if s.MinItems != nil && cnt < *s.MinItems {
			return bad("fewer than %d items", *s.MinItems)
		}
		if s.MaxItems != nil && cnt > *s.MaxItems {
			return bad("more than %d items", *s.MaxItems)
		}
		for i, it := range arr {
			if s.Items != nil {
				if pr := checkExample(s.Items, it, n.item(i), skip, fmt.Sprintf("%s[%d]", path, i), depth+1); pr != nil {
					return pr
				}
			}
		}
		if s.UniqueItems {
			seen := map[string]bool{}
			for _, it := range arr {
				k := jsonText(it)
				if seen[k] {
					return bad("items are not unique")
				}
				seen[k] = true
			}
		}
	case model.Map:
		obj, ok := v.(map[string]any)
		if !ok {
			return wrongType("object", "want an object")
		}
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if s.Values != nil {
				if pr := checkExample(s.Values, obj[k], n.child(k), skip, path+"."+k, depth+1); pr != nil {
					return pr
				}
			}
		}
	case model.Money:
		obj, ok := v.(map[string]any)
		if !ok {
			return wrongType("object", `want {"amount": <integer minor units>, "currency": "<ISO 4217>"}`)
		}
		if _, ok := isInt(obj["amount"]); !ok {
			return &exampleProblem{path: path + ".amount", msg: "want an integer (minor units)", node: n.child("amount"), want: "integer"}
		}
		if c, ok := obj["currency"].(string); !ok || !currencyRe.MatchString(c) {
			return &exampleProblem{path: path + ".currency", msg: "want a three-letter ISO 4217 code", node: n.child("currency"), want: "string"}
		}
	case model.Timestamp:
		i, ok := isInt(v)
		if !ok || i < -maxTimestamp || i > maxTimestamp {
			return wrongType("integer", "want integer Unix milliseconds within ±8.64e15")
		}
	case model.UUID:
		str, ok := v.(string)
		if !ok || !uuidRe.MatchString(str) {
			return wrongType("string", "want a UUID in canonical lower-case form")
		}
	}
	return nil
}

// plural is word for n things (character, characters).
func plural(n int64, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// formatNames name the formats in messages.
var formatNames = map[string]string{"uuid": "a UUID", "date": "a date (YYYY-MM-DD)", "date-time": "an RFC 3339 date-time",
	"email": "an email address", "uri": "an absolute URI"}

// formatSchemas holds, per format, a JSON Schema that asserts it as the emitted
// schemas do: the format (jsonschema/v6, whose logic the generated decoder copies)
// and its narrowing pattern (formatPatterns: the subset every validator agrees on).
var formatSchemas sync.Map // format → *jsonschema.Schema

// formatValid reports whether s is valid under format as the emitted schemas and the
// generated decoder assert it (an unknown format is an annotation: true).
func formatValid(format, s string) bool {
	v, ok := formatSchemas.Load(format)
	if !ok {
		doc := map[string]any{"format": format}
		if p, ok := formatPatterns[format]; ok {
			doc["pattern"] = p
		}
		if format == "email" {
			doc["maxLength"] = json.Number(strconv.Itoa(emailMaxLength))
		}
		c := jsonschema.NewCompiler()
		c.AssertFormat()
		if err := c.AddResource("format.json", doc); err != nil {
			return true
		}
		sch, err := c.Compile("format.json")
		if err != nil {
			return true
		}
		v, _ = formatSchemas.LoadOrStore(format, sch)
	}
	return v.(*jsonschema.Schema).Validate(s) == nil
}

func checkBounds(s *model.Schema, f float64, i int64, isInt bool) string {
	lt := func(b *model.Bound) bool {
		if isInt && b.IsInt {
			return i < b.I
		}
		return f < b.Float()
	}
	gt := func(b *model.Bound) bool {
		if isInt && b.IsInt {
			return i > b.I
		}
		return f > b.Float()
	}
	eq := func(b *model.Bound) bool { return !lt(b) && !gt(b) }
	switch {
	case s.Minimum != nil && lt(s.Minimum):
		return "below the minimum " + boundText(s.Minimum)
	case s.Maximum != nil && gt(s.Maximum):
		return "above the maximum " + boundText(s.Maximum)
	case s.ExclusiveMinimum != nil && (lt(s.ExclusiveMinimum) || eq(s.ExclusiveMinimum)):
		return "not above the exclusiveMinimum " + boundText(s.ExclusiveMinimum)
	case s.ExclusiveMaximum != nil && (gt(s.ExclusiveMaximum) || eq(s.ExclusiveMaximum)):
		return "not below the exclusiveMaximum " + boundText(s.ExclusiveMaximum)
	}
	return ""
}

// distinctValues is how many distinct values schema s admits, or -1 when it is not
// a small finite set: an enum, a boolean, or an integer with both bounds (and null
// when nullable).
func distinctValues(s *model.Schema, depth int) int64 {
	if s == nil || depth > 64 {
		return -1
	}
	if s.Kind == model.Ref {
		if s.Named == nil {
			return -1
		}
		d := distinctValues(s.Named.Schema, depth+1)
		if d >= 0 && s.Nullable && !s.Named.Schema.Nullable {
			d++
		}
		return d
	}
	var d int64 = -1
	switch {
	case s.Enum != nil:
		d = int64(len(s.Enum))
	case s.Kind == model.Boolean:
		d = 2
	case s.Kind == model.Integer && (s.Minimum != nil || s.ExclusiveMinimum != nil) && (s.Maximum != nil || s.ExclusiveMaximum != nil):
		lo, hi := int64(math.MinInt64), int64(math.MaxInt64)
		if s.Minimum != nil {
			lo = s.Minimum.I
		}
		if s.ExclusiveMinimum != nil && s.ExclusiveMinimum.I < math.MaxInt64 {
			lo = max(lo, s.ExclusiveMinimum.I+1)
		}
		if s.Maximum != nil {
			hi = s.Maximum.I
		}
		if s.ExclusiveMaximum != nil && s.ExclusiveMaximum.I > math.MinInt64 {
			hi = min(hi, s.ExclusiveMaximum.I-1)
		}
		if hi < lo || hi-lo > 1<<40 || hi-lo < 0 {
			return -1 // empty (reported apart) or too many to matter
		}
		d = hi - lo + 1
	}
	if d >= 0 && s.Nullable {
		d++
	}
	return d
}

// boundText is b exactly: an integer's digits, or the shortest decimal of the double
// (which the registry holds exactly: BQ023).
func boundText(b *model.Bound) string {
	if b.IsInt {
		return strconv.FormatInt(b.I, 10)
	}
	return strconv.FormatFloat(b.F, 'g', -1, 64)
}

// uncomparable says why two items of schema s can be equal in generated code but not
// under JSON Schema's uniqueItems (or the reverse), or returns "": the generated decoder
// drops keys an open object does not declare, and compares numbers as doubles where JSON
// Schema compares exact decimals (0.1 and 0.10000000000000001 are one double).
func uncomparable(s *model.Schema, seen map[*model.NamedType]bool, skip skipSet) string {
	if s == nil || skip[s] {
		return ""
	}
	if s.Kind == model.Ref {
		if s.Named == nil || seen[s.Named] {
			return ""
		}
		seen[s.Named] = true
		return uncomparable(s.Named.Schema, seen, skip)
	}
	switch s.Kind {
	case model.Number:
		return "numbers (compared as doubles)"
	case model.Object:
		if s.AdditionalProperties {
			return "open objects (keys they do not declare are not kept)"
		}
		for _, p := range s.Properties {
			if why := uncomparable(p.Schema, seen, skip); why != "" {
				return why
			}
		}
	case model.Array:
		return uncomparable(s.Items, seen, skip)
	case model.Map:
		return uncomparable(s.Values, seen, skip)
	}
	return ""
}
