package jsonschema

// Format narrowing (docs/jsonschema.md, "Formats").
//
// Validators read the asserted formats differently: santhosh-tekuri/jsonschema/v6
// (whose logic the generated Go runtime copies) accepts `a@example.com.` and
// `http://a/b c`, ajv-formats rejects them; ajv-formats accepts `2024-01-01
// 00:00:00Z` and `urn:uuid:…`, jsonschema/v6 rejects them. So that every validator
// gives the same verdict, each asserted format is narrowed to a conservative subset on
// which they all agree: the emitted schema keeps "format" and adds a "pattern" (and, for
// email, a maxLength of at most 254) that every validator applies, and the Go runtime
// checks the same pattern after its format logic (rt/narrow.go, which must hold the
// same expressions: TestNarrowingPatternsMatchRuntime).
//
// The patterns are anchored, ASCII-only and read the same under RE2 and ECMA-262 (with
// or without the u flag): only literals, character classes, groups, alternation and
// counted repetition.

// Character classes of the patterns (RFC 5322 atext, RFC 3986 sets).
const (
	atext      = "A-Za-z0-9!#$%&'*+/=?^_`{|}~-"
	atextDot   = "A-Za-z0-9!#$%&'*+/=?^_`{|}~.-"
	ldhLabel   = "[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
	pctEnc     = "%[0-9A-Fa-f]{2}"
	pchar      = "(?:[A-Za-z0-9._~!$&'()*+,;=:@-]|" + pctEnc + ")"
	qfchar     = "(?:[A-Za-z0-9._~!$&'()*+,;=:@/?-]|" + pctEnc + ")"
	uriHost    = "(?:\\[[0-9A-Fa-f:]*:[0-9A-Fa-f:]*\\]|[A-Za-z0-9._~!$&'()*+,;=-]*)"
	uriAuthHP  = "//(?:(?:[A-Za-z0-9._~!$&'()*+,;=:-]|" + pctEnc + ")*@)?" + uriHost + "(?::[0-9]*)?(?:/" + pchar + "*)*"
	uriPathAbs = "/(?:" + pchar + "+(?:/" + pchar + "*)*)?"
	uriRootles = pchar + "+(?:/" + pchar + "*)*"
)

// The narrowing patterns of the asserted formats.
const (
	// EmailPattern: a dot-atom local part of 1 to 64 characters (no quoted local part),
	// "@", and a domain of at least two LDH labels of 1 to 63 characters (no address
	// literal, no trailing dot). With it the schema carries maxLength 254 (or less).
	EmailPattern = "^[" + atext + "](?:[" + atextDot + "]{0,62}[" + atext + "])?@" +
		ldhLabel + "(?:\\." + ldhLabel + ")+$"
	// URIPattern: an RFC 3986 URI with a non-empty hier-part, ASCII only, percent-
	// encoding only outside the host, and IP literals only as bracketed hex and colons
	// (IPv6 without an embedded IPv4 part or zone; no IPvFuture).
	URIPattern = "^[A-Za-z][A-Za-z0-9+.-]*:(?:" + uriAuthHP + "|" + uriPathAbs + "|" + uriRootles + ")" +
		"(?:\\?" + qfchar + "*)?(?:#" + qfchar + "*)?$"
	// DatePattern: RFC 3339 full-date, ASCII digits.
	DatePattern = "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"
	// DateTimePattern: RFC 3339 date-time with "T" (or "t") between date and time, and
	// an offset "Z" ("z") or ±hh:mm.
	DateTimePattern = "^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]+)?(?:[Zz]|[+-][0-9]{2}:[0-9]{2})$"
	// UUIDFormatPattern: the 8-4-4-4-12 hex form, either case, no "urn:uuid:" prefix
	// or braces.
	UUIDFormatPattern = "^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$"
	// EmailMaxLength is the longest address format email accepts (RFC 5321 §4.5.3.1.3,
	// the path limit less the angle brackets).
	EmailMaxLength = 254
)

// FormatPatterns maps each format the Go decoder asserts to its narrowing pattern.
var FormatPatterns = map[string]string{
	"email":     EmailPattern,
	"uri":       URIPattern,
	"date":      DatePattern,
	"date-time": DateTimePattern,
	"uuid":      UUIDFormatPattern,
}
