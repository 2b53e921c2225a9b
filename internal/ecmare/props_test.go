package ecmare

import (
	"encoding/json"
	"errors"
	"slices"
	"sort"
	"strings"
	"testing"
	"unicode"

	"github.com/babelqueue/bqgen/internal/nodetools"
)

// propsScript reads a JSON list of property escapes and prints, per escape, its code
// points (surrogates left out) as inclusive [lo, hi] pairs, by Node's RegExp (u flag);
// then process.versions.unicode.
const propsScript = `
const names = JSON.parse(require("fs").readFileSync(0, "utf8"));
const out = {};
for (const n of names) {
  const re = new RegExp("^" + n + "$", "u");
  const rs = [];
  for (let cp = 0; cp <= 0x10FFFF; cp++) {
    if (cp === 0xD800) cp = 0xE000;
    if (re.test(String.fromCodePoint(cp))) {
      if (rs.length && rs[rs.length - 1] === cp - 1) rs[rs.length - 1] = cp;
      else rs.push(cp, cp);
    }
  }
  out[n] = rs;
}
process.stdout.write(JSON.stringify({sets: out, unicode: process.versions.unicode}));
`

// propertyNames lists one escape per property bqgen translates: every General_Category
// value (long names too), every binary property and every script Go has a table for.
func propertyNames() []string {
	var names []string
	for n := range gcAliases {
		names = append(names, `\p{`+n+`}`)
	}
	for n := range binaryProps {
		names = append(names, `\p{`+n+`}`)
	}
	for n := range unicode.Scripts {
		names = append(names, `\p{Script=`+n+`}`)
	}
	for n := range scriptAliases {
		names = append(names, `\p{sc=`+n+`}`)
	}
	names = append(names, `\P{L}`, `\P{White_Space}`, `\P{Cn}`, `[^\P{Lu}]`)
	sort.Strings(names)
	return names
}

// TestPropertiesAgainstNode holds each translated property escape to Node's: the two
// may differ only on code points Go's tables leave unassigned (characters assigned in
// the Unicode versions between Go's and Node's), and Node's version is the one
// UnicodeVersionNote names.
func TestPropertiesAgainstNode(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("needs node")
	}
	names := propertyNames()
	in, _ := json.Marshal(names)
	var res struct {
		Sets    map[string][]rune `json:"sets"`
		Unicode string            `json:"unicode"`
	}
	if err := json.Unmarshal(nodetools.RunNode(t, propsScript, in), &res); err != nil {
		t.Fatal(err)
	}
	if res.Unicode != NodeUnicodeVersion {
		t.Errorf("node's Unicode is %s, NodeUnicodeVersion says %s: update it (and docs/patterns.md)", res.Unicode, NodeUnicodeVersion)
	}
	goAssigned := assigned()
	gap, assignedDiffs := 0, 0
	for _, n := range names {
		p, err := Parse(n)
		if err != nil {
			t.Errorf("Parse(%q): %v", n, err)
			continue
		}
		goSet := p.Root.Runes()
		diff := symDiff(goSet, res.Sets[n])
		changed := 0
		for i := 0; i+1 < len(diff); i += 2 {
			for r := diff[i]; r <= diff[i+1]; r++ {
				if r >= 0xD800 && r <= 0xDFFF {
					continue // no valid string holds one
				}
				if inRanges(goAssigned, r) {
					changed++
				}
				gap++
			}
		}
		// Unicode 16.0 and 17.0 moved a few assigned characters between properties
		// (U+0295 from Ll to Lo, some 50 into Diacritic); a wrong table differs in
		// hundreds.
		if changed > 64 {
			t.Errorf("%s: Go and Node disagree on %d code points that Go's Unicode %s assigns", n, changed, unicode.Version)
		}
		assignedDiffs += changed
	}
	t.Logf("%d property escapes; %d (escape, code point) differences, %d of them on code points Unicode %s assigns", len(names), gap, assignedDiffs, unicode.Version)
}

// symDiff returns the code points in exactly one of a and b (sorted pairs).
func symDiff(a, b []rune) []rune {
	var out []rune
	all := normalize(append(slices.Clone(a), b...))
	for i := 0; i+1 < len(all); i += 2 {
		for r := all[i]; r <= all[i+1]; r++ {
			if inRanges(a, r) != inRanges(b, r) {
				if n := len(out); n > 0 && out[n-1] == r-1 {
					out[n-1] = r
				} else {
					out = append(out, r, r)
				}
			}
		}
	}
	return out
}

func inRanges(rs []rune, r rune) bool {
	i := sort.Search(len(rs)/2, func(i int) bool { return rs[2*i+1] >= r })
	return i < len(rs)/2 && rs[2*i] <= r
}

// TestPropertyErrors checks the property escapes bqgen refuses, and how.
func TestPropertyErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		kind error
		msg  string
	}{
		{`\p{Greek}`, ErrSyntax, `\p{Greek} at character 1 is not a Unicode property ECMA-262 knows`},
		{`\p{letter}`, ErrSyntax, `\p{letter} at character 1 is not a Unicode property ECMA-262 knows`},
		{`\p{Script=Klingon}`, ErrSyntax, `\p{Script=Klingon} at character 1 names no script ECMA-262 knows`},
		{`x\p{scx=Greek}`, ErrUnsupported, `\p{scx=Greek} at character 2 uses Script_Extensions, for which Go's regexp has no table`},
		{`\p{Emoji}`, ErrUnsupported, `\p{Emoji} at character 1 uses the Unicode property Emoji, for which Go's regexp has no table`},
		{`\p{sc=Garay}`, ErrUnsupported, `\p{sc=Garay} at character 1 names a script Go's regexp has no table for (Unicode ` + unicode.Version + `)`},
		{`\pL`, ErrSyntax, `\p at character 1 is a property escape without a {name}`},
	} {
		_, err := Parse(tc.in)
		var e *Error
		if !errors.As(err, &e) || !errors.Is(err, tc.kind) || e.Message() != tc.msg {
			t.Errorf("Parse(%q) = %v; want %v: %s", tc.in, err, tc.kind, tc.msg)
		}
	}
	if !strings.Contains(UnicodeVersionNote(), unicode.Version) {
		t.Errorf("UnicodeVersionNote() = %q", UnicodeVersionNote())
	}
}
