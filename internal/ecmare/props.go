package ecmare

import (
	"sort"
	"strings"
	"sync"
	"unicode"
)

// Unicode property escapes (\p{…}, \P{…}).
//
// ECMA-262 names a property exactly as Unicode's PropertyAliases and
// PropertyValueAliases spell it: a General_Category value (`L`, `Letter`, `Lu`,
// `Uppercase_Letter`, `gc=Lu`, `General_Category=Lu`), a script (`Script=Greek`,
// `sc=Greek`, `Script_Extensions=Greek`, `scx=Greek`) or a binary property
// (`Alphabetic`, `White_Space`, `ASCII`, `Any`, `Assigned`, …). RE2 accepts general
// categories and scripts by name, so those are written as \p{…} with Go's name; binary
// properties Go has a table for are written as explicit ranges. Go has no table for
// Script_Extensions or for the other binary properties (Emoji, ID_Start, …): those are
// ErrUnsupported.

// UnicodeVersionNote names the Unicode versions property escapes follow in Go's
// regexp (unicode.Version of the Go that built bqgen) and in the ECMA-262 engine of the
// agreement suite, Node 20's V8 (NodeUnicodeVersion, the version its ICU reports as
// process.versions.unicode).
func UnicodeVersionNote() string {
	return "Go's regexp matches by Unicode " + unicode.Version + ", Node 20 (V8, ajv) by Unicode " + NodeUnicodeVersion
}

// NodeUnicodeVersion is process.versions.unicode of the Node.js 20 the agreement suite
// runs ajv on (its tests check it).
const NodeUnicodeVersion = "17.0"

// gcAliases maps every ECMA-262 General_Category value name to Go's category name.
// Go's regexp reads the short names (Lu) the same way in every Go release bqgen
// builds with; LC, Cn and C (which holds Cn) are written as explicit ranges (gcRanges).
var gcAliases = func() map[string]string {
	m := map[string]string{}
	for k := range unicode.Categories {
		if len(k) <= 2 {
			m[k] = k
		}
	}
	for _, s := range []string{"LC", "Cn", "C"} {
		m[s] = s
	}
	for long, short := range map[string]string{
		"Cased_Letter": "LC", "Close_Punctuation": "Pe", "Combining_Mark": "M", "Connector_Punctuation": "Pc",
		"Control": "Cc", "Currency_Symbol": "Sc", "Dash_Punctuation": "Pd", "Decimal_Number": "Nd",
		"Enclosing_Mark": "Me", "Final_Punctuation": "Pf", "Format": "Cf", "Initial_Punctuation": "Pi",
		"Letter": "L", "Letter_Number": "Nl", "Line_Separator": "Zl", "Lowercase_Letter": "Ll",
		"Mark": "M", "Math_Symbol": "Sm", "Modifier_Letter": "Lm", "Modifier_Symbol": "Sk",
		"Nonspacing_Mark": "Mn", "Number": "N", "Open_Punctuation": "Ps", "Other": "C",
		"Other_Letter": "Lo", "Other_Number": "No", "Other_Punctuation": "Po", "Other_Symbol": "So",
		"Paragraph_Separator": "Zp", "Private_Use": "Co", "Punctuation": "P", "Separator": "Z",
		"Space_Separator": "Zs", "Spacing_Mark": "Mc", "Surrogate": "Cs", "Symbol": "S",
		"Titlecase_Letter": "Lt", "Unassigned": "Cn", "Uppercase_Letter": "Lu",
		"cntrl": "Cc", "digit": "Nd", "punct": "P",
	} {
		m[long] = short
	}
	return m
}()

// assigned returns the code points of every general category but Cn.
func assigned() []rune {
	var ts []*unicode.RangeTable
	for _, n := range []string{"L", "M", "N", "P", "S", "Z", "Cc", "Cf", "Co", "Cs"} {
		ts = append(ts, unicode.Categories[n])
	}
	return tableRanges(ts...)
}

// gcEscape spells the general category g (a value of gcAliases).
func gcEscape(g string, neg bool) *classEsc {
	switch g {
	case "LC":
		return memoEsc("gc:LC", neg, func() []rune { return tableRanges(unicode.Lu, unicode.Ll, unicode.Lt) })
	case "Cn":
		return memoEsc("gc:Cn", neg, func() []rune { return complement(assigned()) })
	case "C":
		return memoEsc("gc:C", neg, func() []rune {
			return normalize(append(complement(assigned()), tableRanges(unicode.Cc, unicode.Cf, unicode.Co, unicode.Cs)...))
		})
	}
	if neg {
		return &classEsc{text: `\P{` + g + "}"}
	}
	return &classEsc{text: `\p{` + g + "}"}
}

// escMemo holds, by key and sign, the escapes spelled as ranges (memoEsc): `\p{Cn}` is
// 10 KB of RE2, and a pattern that repeats it, or a registry that uses it in many
// patterns, used to compute that text at every use.
var escMemo sync.Map // escKey → *classEsc

type escKey struct {
	key string
	neg bool
}

// memoEsc returns the escape of the ranges ranges() computes, with both of its RE2
// spellings (atom, inClass) written once per process. The escape is shared: it must
// not be modified.
func memoEsc(key string, neg bool, ranges func() []rune) *classEsc {
	k := escKey{key, neg}
	if c, ok := escMemo.Load(k); ok {
		return c.(*classEsc)
	}
	c := &classEsc{ranges: ranges(), neg: neg}
	c.atomText, c.classText = c.atom(), c.inClass()
	actual, _ := escMemo.LoadOrStore(k, c)
	return actual.(*classEsc)
}

// binaryProps maps ECMA-262 binary property names (long and short) to the ranges Go's
// unicode package has for them.
var binaryProps = func() map[string]func() []rune {
	table := func(ts ...*unicode.RangeTable) func() []rune {
		return func() []rune { return tableRanges(ts...) }
	}
	m := map[string]func() []rune{
		"Any":        func() []rune { return []rune{0, unicode.MaxRune} },
		"ASCII":      func() []rune { return []rune{0, 0x7F} },
		"Assigned":   assigned,
		"Alphabetic": table(unicode.Lu, unicode.Ll, unicode.Lt, unicode.Lm, unicode.Lo, unicode.Nl, unicode.Other_Alphabetic),
		"Lowercase":  table(unicode.Ll, unicode.Other_Lowercase),
		"Uppercase":  table(unicode.Lu, unicode.Other_Uppercase),
		"Math":       table(unicode.Sm, unicode.Other_Math),
	}
	short := map[string]string{
		"ASCII_Hex_Digit": "AHex", "Alphabetic": "Alpha", "Bidi_Control": "Bidi_C", "Dash": "",
		"Deprecated": "Dep", "Diacritic": "Dia", "Extender": "Ext", "Hex_Digit": "Hex",
		"IDS_Binary_Operator": "IDSB", "IDS_Trinary_Operator": "IDST", "Ideographic": "Ideo",
		"Join_Control": "Join_C", "Logical_Order_Exception": "LOE", "Lowercase": "Lower",
		"Math": "", "Noncharacter_Code_Point": "NChar", "Pattern_Syntax": "Pat_Syn",
		"Pattern_White_Space": "Pat_WS", "Quotation_Mark": "QMark", "Radical": "",
		"Regional_Indicator": "RI", "Sentence_Terminal": "STerm", "Soft_Dotted": "SD",
		"Terminal_Punctuation": "Term", "Unified_Ideograph": "UIdeo", "Uppercase": "Upper",
		"Variation_Selector": "VS", "White_Space": "space",
	}
	for long, s := range short {
		if m[long] == nil {
			t := unicode.Properties[long]
			if long == "Sentence_Terminal" {
				t = unicode.STerm // the only name Go 1.24 has for it
			}
			m[long] = table(t)
		}
		if s != "" {
			m[s] = m[long]
		}
	}
	return m
}()

// noTable lists ECMA-262 binary properties Go's unicode package has no table for.
var noTable = map[string]bool{}

func init() {
	for _, n := range strings.Fields(`Bidi_Mirrored Bidi_M Case_Ignorable CI Cased
		Changes_When_Casefolded CWCF Changes_When_Casemapped CWCM Changes_When_Lowercased CWL
		Changes_When_NFKC_Casefolded CWKCF Changes_When_Titlecased CWT Changes_When_Uppercased CWU
		Default_Ignorable_Code_Point DI Emoji Emoji_Component EComp Emoji_Modifier EMod
		Emoji_Modifier_Base EBase Emoji_Presentation EPres Extended_Pictographic ExtPict
		Grapheme_Base Gr_Base Grapheme_Extend Gr_Ext ID_Continue IDC ID_Start IDS
		XID_Continue XIDC XID_Start XIDS`) {
		noTable[n] = true
	}
}

// tableRanges returns the code points of the tables as sorted, merged pairs.
func tableRanges(ts ...*unicode.RangeTable) []rune {
	var rs []rune
	for _, t := range ts {
		for _, r := range t.R16 {
			rs = appendRange(rs, rune(r.Lo), rune(r.Hi), rune(r.Stride))
		}
		for _, r := range t.R32 {
			rs = appendRange(rs, rune(r.Lo), rune(r.Hi), rune(r.Stride))
		}
	}
	return normalize(rs)
}

func appendRange(rs []rune, lo, hi, stride rune) []rune {
	if stride == 1 {
		return append(rs, lo, hi)
	}
	for r := lo; r <= hi; r += stride {
		rs = append(rs, r, r)
	}
	return rs
}

// normalize sorts pairs and merges overlapping and adjacent ones.
func normalize(rs []rune) []rune {
	type pr struct{ lo, hi rune }
	ps := make([]pr, 0, len(rs)/2)
	for i := 0; i+1 < len(rs); i += 2 {
		ps = append(ps, pr{rs[i], rs[i+1]})
	}
	sort.Slice(ps, func(i, j int) bool { return ps[i].lo < ps[j].lo })
	out := make([]rune, 0, len(rs))
	for _, p := range ps {
		if n := len(out); n > 0 && p.lo <= out[n-1]+1 {
			out[n-1] = max(out[n-1], p.hi)
			continue
		}
		out = append(out, p.lo, p.hi)
	}
	return out
}

// property reads \p{…} or \P{…} (p.i is after the p).
func (p *parser) property(lo int, neg bool) *classEsc {
	end := -1
	if p.peek() == '{' {
		end = strings.IndexByte(p.src[p.i:], '}')
	}
	if end < 0 {
		p.fail(lo, clip(p.src[lo:p.i]), "is a property escape without a {name}", `write \p{L}, \p{Lu}, \p{Script=Greek}…, or p without the backslash`)
	}
	body := p.src[p.i+1 : p.i+end]
	p.i += end + 1
	text := p.src[lo:p.i]
	p.props = append(p.props, Property{Offset: lo, Text: text})
	sign := `\p`
	if neg {
		sign = `\P`
	}
	name, value, hasValue := strings.Cut(body, "=")
	if hasValue {
		switch name {
		case "General_Category", "gc":
			if g, ok := gcAliases[value]; ok {
				return gcEscape(g, neg)
			}
		case "Script", "sc":
			if g, ok := p.script(lo, text, value); ok {
				if !goFindsScript(g) {
					// Go's regexp drops underscores and lowers every letter but the
					// first before it looks a name up, and then finds no Old_Italic or
					// SignWriting (Go 1.26): write the ranges.
					return memoEsc("sc:"+g, neg, func() []rune { return tableRanges(unicode.Scripts[g]) })
				}
				return &classEsc{text: sign + "{" + g + "}"}
			}
			return &classEsc{text: `\p{Any}`}
		case "Script_Extensions", "scx":
			if _, ok := p.script(lo, text, value); !ok {
				return &classEsc{text: `\p{Any}`}
			}
			p.unsupported(lo, text, "uses Script_Extensions, for which Go's regexp has no table",
				`write \p{Script=`+value+`} (the characters whose script is `+value+`) or list the ranges`)
			return &classEsc{text: `\p{Any}`}
		}
		p.fail(lo, text, "is not a Unicode property ECMA-262 knows", `write \p{L}, \p{Lu}, \p{Script=Greek}, \p{White_Space}…: names are case-sensitive`)
	}
	if g, ok := gcAliases[name]; ok {
		return gcEscape(g, neg)
	}
	if f := binaryProps[name]; f != nil {
		return memoEsc("bin:"+name, neg, f)
	}
	if noTable[name] {
		p.unsupported(lo, text, "uses the Unicode property "+name+", for which Go's regexp has no table",
			"list the ranges you accept")
		return &classEsc{text: `\p{Any}`}
	}
	hint := `write \p{L}, \p{Lu}, \p{Script=Greek}, \p{White_Space}…: names are case-sensitive`
	if _, ok := unicode.Scripts[name]; ok {
		hint = `write \p{Script=` + name + `}: ECMA-262 names scripts with Script=`
	}
	p.fail(lo, text, "is not a Unicode property ECMA-262 knows", hint)
	return nil
}

// scriptAliases maps the short script names of Unicode's PropertyValueAliases to the
// long names Go's unicode.Scripts uses (taken from Node 20's V8: each alias matches the
// first character of the Go table of its script).
var scriptAliases = map[string]string{
	"Adlm": "Adlam", "Hluw": "Anatolian_Hieroglyphs", "Arab": "Arabic", "Armn": "Armenian",
	"Avst": "Avestan", "Bali": "Balinese", "Bamu": "Bamum", "Bass": "Bassa_Vah",
	"Batk": "Batak", "Beng": "Bengali", "Bhks": "Bhaiksuki", "Bopo": "Bopomofo",
	"Brah": "Brahmi", "Brai": "Braille", "Bugi": "Buginese", "Buhd": "Buhid",
	"Cans": "Canadian_Aboriginal", "Cari": "Carian", "Aghb": "Caucasian_Albanian",
	"Cakm": "Chakma", "Cher": "Cherokee", "Chrs": "Chorasmian", "Zyyy": "Common",
	"Copt": "Coptic", "Qaac": "Coptic", "Xsux": "Cuneiform", "Cprt": "Cypriot",
	"Cpmn": "Cypro_Minoan", "Cyrl": "Cyrillic", "Dsrt": "Deseret", "Deva": "Devanagari",
	"Diak": "Dives_Akuru", "Dogr": "Dogra", "Dupl": "Duployan", "Egyp": "Egyptian_Hieroglyphs",
	"Elba": "Elbasan", "Elym": "Elymaic", "Ethi": "Ethiopic", "Geor": "Georgian",
	"Glag": "Glagolitic", "Goth": "Gothic", "Gran": "Grantha", "Grek": "Greek",
	"Gujr": "Gujarati", "Gong": "Gunjala_Gondi", "Guru": "Gurmukhi", "Hani": "Han",
	"Hang": "Hangul", "Rohg": "Hanifi_Rohingya", "Hano": "Hanunoo", "Hatr": "Hatran",
	"Hebr": "Hebrew", "Hira": "Hiragana", "Armi": "Imperial_Aramaic", "Qaai": "Inherited",
	"Zinh": "Inherited", "Phli": "Inscriptional_Pahlavi", "Prti": "Inscriptional_Parthian",
	"Java": "Javanese", "Kthi": "Kaithi", "Knda": "Kannada", "Kana": "Katakana",
	"Kali": "Kayah_Li", "Khar": "Kharoshthi", "Kits": "Khitan_Small_Script", "Khmr": "Khmer",
	"Khoj": "Khojki", "Sind": "Khudawadi", "Laoo": "Lao", "Latn": "Latin", "Lepc": "Lepcha",
	"Limb": "Limbu", "Lina": "Linear_A", "Linb": "Linear_B", "Lyci": "Lycian",
	"Lydi": "Lydian", "Mahj": "Mahajani", "Maka": "Makasar", "Mlym": "Malayalam",
	"Mand": "Mandaic", "Mani": "Manichaean", "Marc": "Marchen", "Gonm": "Masaram_Gondi",
	"Medf": "Medefaidrin", "Mtei": "Meetei_Mayek", "Mend": "Mende_Kikakui",
	"Merc": "Meroitic_Cursive", "Mero": "Meroitic_Hieroglyphs", "Plrd": "Miao",
	"Mong": "Mongolian", "Mroo": "Mro", "Mult": "Multani", "Mymr": "Myanmar",
	"Nbat": "Nabataean", "Nagm": "Nag_Mundari", "Nand": "Nandinagari", "Talu": "New_Tai_Lue",
	"Nkoo": "Nko", "Nshu": "Nushu", "Hmnp": "Nyiakeng_Puachue_Hmong", "Ogam": "Ogham",
	"Olck": "Ol_Chiki", "Hung": "Old_Hungarian", "Ital": "Old_Italic",
	"Narb": "Old_North_Arabian", "Perm": "Old_Permic", "Xpeo": "Old_Persian",
	"Sogo": "Old_Sogdian", "Sarb": "Old_South_Arabian", "Orkh": "Old_Turkic",
	"Ougr": "Old_Uyghur", "Orya": "Oriya", "Osge": "Osage", "Osma": "Osmanya",
	"Hmng": "Pahawh_Hmong", "Palm": "Palmyrene", "Pauc": "Pau_Cin_Hau", "Phag": "Phags_Pa",
	"Phnx": "Phoenician", "Phlp": "Psalter_Pahlavi", "Rjng": "Rejang", "Runr": "Runic",
	"Samr": "Samaritan", "Saur": "Saurashtra", "Shrd": "Sharada", "Shaw": "Shavian",
	"Sidd": "Siddham", "Sgnw": "SignWriting", "Sinh": "Sinhala", "Sogd": "Sogdian",
	"Sora": "Sora_Sompeng", "Soyo": "Soyombo", "Sund": "Sundanese", "Sylo": "Syloti_Nagri",
	"Syrc": "Syriac", "Tglg": "Tagalog", "Tagb": "Tagbanwa", "Tale": "Tai_Le",
	"Lana": "Tai_Tham", "Tavt": "Tai_Viet", "Takr": "Takri", "Taml": "Tamil", "Tnsa": "Tangsa",
	"Tang": "Tangut", "Telu": "Telugu", "Thaa": "Thaana", "Tibt": "Tibetan",
	"Tfng": "Tifinagh", "Tirh": "Tirhuta", "Ugar": "Ugaritic", "Vaii": "Vai",
	"Vith": "Vithkuqi", "Wcho": "Wancho", "Wara": "Warang_Citi", "Yezi": "Yezidi",
	"Yiii": "Yi", "Zanb": "Zanabazar_Square",
}

// newerScripts are the scripts (long name, then alias) Node 20 knows and Go's Unicode
// 15.0 tables do not: added in Unicode 16.0 and 17.0, and Unknown (Zzzz), for which Go
// has no table.
var newerScripts = map[string]string{
	"Beria_Erfe": "Berf", "Garay": "Gara", "Gurung_Khema": "Gukh", "Kirat_Rai": "Krai", "Ol_Onal": "Onao",
	"Sidetic": "Sidt", "Sunuwar": "Sunu", "Tai_Yo": "Tayo", "Todhri": "Todr", "Tolong_Siki": "Tols",
	"Tulu_Tigalari": "Tutg", "Unknown": "Zzzz",
}

// goFindsScript reports whether Go's regexp finds the script by its name: a capital and
// lower-case letters only.
func goFindsScript(name string) bool {
	for i, c := range name {
		if i == 0 && (c < 'A' || c > 'Z') || i > 0 && (c < 'a' || c > 'z') {
			return false
		}
	}
	return true
}

// script returns Go's name of the ECMA-262 script name value (long or short), or
// records what goes wrong.
func (p *parser) script(lo int, text, value string) (string, bool) {
	if long, ok := scriptAliases[value]; ok {
		value = long
	}
	if _, ok := unicode.Scripts[value]; ok {
		return value, true
	}
	for long, short := range newerScripts {
		if value == long || value == short {
			p.unsupported(lo, text, "names a script Go's regexp has no table for (Unicode "+unicode.Version+")",
				"list the ranges you accept")
			return "", false
		}
	}
	p.fail(lo, text, "names no script ECMA-262 knows", `write the script's name as Unicode spells it: \p{Script=Greek} or \p{Script=Grek}, \p{Script=Old_Italic}`)
	return "", false
}
