package registry

// Rule ids reported by this package. Each is described in Rules.
const (
	RuleSyntax       = "BQ001"
	RuleFormat       = "BQ002"
	RuleDefault      = "BQ003"
	RuleLimit        = "BQ004"
	RuleLintUnused   = "BQ005"
	RuleURNSyntax    = "BQ010"
	RuleURNPayload   = "BQ011"
	RuleURNClass     = "BQ012"
	RuleDuplicate    = "BQ013"
	RuleVersion      = "BQ014"
	RuleMoneyFloat   = "BQ020"
	RuleIntRange     = "BQ021"
	RuleJSSafe       = "BQ022"
	RuleNonFinite    = "BQ023"
	RuleBoolean      = "BQ024"
	RuleTime         = "BQ025"
	RuleIntFlag      = "BQ026"
	RuleGoName       = "BQ030"
	RuleSnakeCase    = "BQ031"
	RuleClosedObject = "BQ032"
	RuleNamedType    = "BQ033"
	RuleExample      = "BQ034"
	RulePattern      = "BQ035"
	RuleText         = "BQ036"
	RuleSlowPattern  = "BQ037"
	RuleUniqueItems  = "BQ038"
	// RuleUnicodeProperty: a pattern's Unicode property escape (docs/patterns.md).
	RuleUnicodeProperty = "BQ039"
	RuleYAML11          = "BQ040"
	RuleEnumValue       = "BQ041"
	RuleCopiedEnum      = "BQ042"
	RulePIIReach        = "BQ048"
	// RulePatternDollar, RulePatternBoundary, RulePatternProperty: pattern constructs
	// no portable form carries to Python's re and PCRE2 (registry/portability.go).
	RulePatternDollar   = "BQ060"
	RulePatternBoundary = "BQ061"
	RulePatternProperty = "BQ062"
	RulePIINested       = "BQ049"
	RuleSDKSchemaSize   = "BQ050"
	// RuleImportPath: a bounded context's Go package directory that the go tool
	// refuses in an import path (docs/rules.md, "BQ053").
	RuleImportPath = "BQ053"
	// RulePatternCost: a pattern whose compiled program is above MaxPatternProgram.
	RulePatternCost = "BQ056"
	// RulePatternSize: a pattern whose RE2 translation is above ecmare.MaxRE2Size.
	RulePatternSize = "BQ057"
)

// Rule describes one rule of the catalogue.
type Rule struct {
	// ID is the rule id (BQ001…), stable across releases.
	ID string
	// Severity is the severity the rule reports with.
	Severity Severity
	// Title says what the rule checks, in a few words.
	Title string
	// Source is where the rule comes from: a section of docs/contract.md (the wire
	// contract), docs/registry-format.md or docs/decisions.md, or the JSON Schema
	// keyword of the registry format that enforces it.
	Source string
	// Hint is the general fix; diagnostics carry a hint specific to the finding.
	Hint string
	// Silenceable says whether `lint: {ignore: [ID], reason: "…"}` may silence the
	// rule. Rules whose violation makes generation impossible, ambiguous or unsafe
	// cannot be silenced.
	Silenceable bool
}

var rules = []Rule{
	{ID: RuleSyntax, Severity: SeverityError,
		Title:  "YAML syntax error, duplicate key or several documents in one file",
		Source: "YAML 1.2; docs/registry-format.md#files-and-directories",
		Hint:   "fix the YAML; quote strings that contain `: ` or start with a special character"},
	{ID: RuleFormat, Severity: SeverityError,
		Title:  "registry format violation: unknown key, wrong type, missing required key (a lint block without a reason included), keyword that does not apply to the type, impossible constraint",
		Source: "registry.schema.json (additionalProperties, unevaluatedProperties, type, required, enum, pattern); docs/registry-format.md",
		Hint:   "check the key against docs/registry-format.md; `bqgen jsonschema --registry-schema` prints the format for editors"},
	{ID: RuleDefault, Severity: SeverityError,
		Title:  "`default` is not supported: it has no single cross-language meaning",
		Source: "registry.schema.json (properties.default: not); docs/registry-format.md#what-is-rejected",
		Hint:   "make the field required, or document the default in `description`"},
	{ID: RuleLimit, Severity: SeverityError,
		Title:  "input limit exceeded: file size, nesting depth, YAML alias expansion, properties per object or number length",
		Source: "docs/decisions.md#exit-codes (limits are findings), docs/decisions.md#yaml-anchors-and-aliases",
		Hint:   "split the registry into files, objects into named types, and reuse schemas through `types:` instead of YAML aliases"},
	{ID: RuleLintUnused, Severity: SeverityWarning,
		Title:  "lint ignore that silences nothing: no finding of the rule in its scope, an unknown rule id, or a rule that cannot be silenced",
		Source: "docs/registry-format.md#lint (lint: {ignore, reason})",
		Hint:   "remove the rule id from `ignore` (and the lint block when nothing is left)"},
	{ID: RuleURNSyntax, Severity: SeverityError,
		Title:  "URN syntax and charset: urn:babel:<context>:<name>, [a-z0-9:._-] only",
		Source: "docs/contract.md#urn-naming",
		Hint:   "write the URN as urn:babel:<bounded-context>:<event-or-command>, lower case"},
	{ID: RuleURNPayload, Severity: SeverityError,
		Title:       "payload in the URN: a name segment that is all digits, a UUID or a long hex id",
		Source:      "docs/contract.md#urn-naming",
		Hint:        "move the id into `data`; the URN names the message type, not one message",
		Silenceable: true},
	{ID: RuleURNClass, Severity: SeverityError,
		Title:  "class name used as a URN",
		Source: "docs/contract.md#urn-naming",
		Hint:   "name the message urn:babel:<context>:<event>; class names must never reach the wire"},
	{ID: RuleDuplicate, Severity: SeverityError,
		Title:  "duplicate URN or named type (in one file or across the files of a registry)",
		Source: "docs/contract.md#urn-naming; docs/registry-format.md#files-and-directories",
		Hint:   "keep one definition; an incompatible change mints <urn>.v2"},
	{ID: RuleVersion, Severity: SeverityError,
		Title:       "version suffix misuse: .v0/.v1, a malformed suffix, or a dangling or self `supersedes`",
		Source:      "docs/contract.md#urn-naming, docs/contract.md#versioning",
		Hint:        "the first version has no suffix; later ones are .v2, .v3…; `supersedes` names an existing older URN",
		Silenceable: true},
	{ID: RuleMoneyFloat, Severity: SeverityError,
		Title:       "money carried in a float: a number field whose name has a money word as a token",
		Source:      "docs/contract.md#money",
		Hint:        "use `type: money` (JSON {\"amount\": <integer minor units>, \"currency\": \"<ISO 4217>\"})",
		Silenceable: true},
	{ID: RuleIntRange, Severity: SeverityError,
		Title:  "integer bound or enum value that is not an integer or lies outside int64 (int32 with format int32)",
		Source: "docs/contract.md#integers; JSON Schema minimum, maximum, exclusiveMinimum, exclusiveMaximum, enum",
		Hint:   "use integer bounds within the integer's range"},
	{ID: RuleJSSafe, Severity: SeverityError,
		Title:       "integer not JS-safe while a node consumer is declared: its declared range is not inside ±(2^53 − 1)",
		Source:      "docs/contract.md#integers; JSON Schema minimum, maximum",
		Hint:        "bound it within ±9007199254740991, or carry it as a string with `encoding: string`",
		Silenceable: true},
	{ID: RuleNonFinite, Severity: SeverityError,
		Title:  "NaN or Infinity in the registry (YAML .nan/.inf/-.inf, or a number that overflows a double), anywhere; a number a double cannot carry exactly",
		Source: "docs/contract.md#no-nan-or-infinity; docs/decisions.md#non-finite-numbers",
		Hint:   "use a finite number, or leave the bound out"},
	{ID: RuleBoolean, Severity: SeverityError,
		Title:       "boolean carried as 0/1 or yes/no: a boolean with numeric or string enum values or examples, or a string enum of boolean words",
		Source:      "docs/contract.md#booleans",
		Hint:        "use `type: boolean` with JSON true/false",
		Silenceable: true},
	{ID: RuleTime, Severity: SeverityError,
		Title:       "time not in Unix milliseconds: an integer or number time field (*_at, *_time, *_ts, timestamp) not typed timestamp, or a timestamp example in seconds",
		Source:      "docs/contract.md#time, docs/contract.md#meta-block (meta.created_at)",
		Hint:        "use `type: timestamp` (integer Unix milliseconds, UTC)",
		Silenceable: true},
	{ID: RuleIntFlag, Severity: SeverityWarning,
		Title:       "integer flag: an integer limited to 0..1 whose name starts is_, has_ or can_",
		Source:      "docs/contract.md#booleans",
		Hint:        "use `type: boolean` (a change of type mints <urn>.v2)",
		Silenceable: true},
	{ID: RuleGoName, Severity: SeverityError,
		Title:  "Go identifier collision after name mapping",
		Source: "docs/generated-code.md#names; docs/decisions.md#enum-constant-names",
		Hint:   "set `go: {name: …}` (or `go: {enum: {…}}` for enum values, `go: {contexts: {…}}` for bounded contexts) on one of the two"},
	{ID: RuleSnakeCase, Severity: SeverityWarning,
		Title:       "JSON key not in snake_case",
		Source:      "bqgen's style rule (docs/rules.md#bq031--json-key-not-in-snake_case)",
		Hint:        "rename the key to snake_case (a rename is a breaking change: mint <urn>.v2)",
		Silenceable: true},
	{ID: RuleClosedObject, Severity: SeverityWarning,
		Title:       "closed object (additionalProperties: false) blocks additive growth",
		Source:      "docs/contract.md#consumer-rules, docs/contract.md#versioning; JSON Schema additionalProperties",
		Hint:        "leave additionalProperties unset (open objects let producers add optional fields)",
		Silenceable: true},
	{ID: RuleNamedType, Severity: SeverityError,
		Title:  "unknown named type, or a named type that can only be infinite",
		Source: "docs/registry-format.md#named-types",
		Hint:   "declare the type under `types:`; break a cycle with an optional or nullable property, a map, or an array that may be empty"},
	{ID: RuleExample, Severity: SeverityError,
		Title:       "example that does not validate against its field",
		Source:      "docs/registry-format.md#per-field-keys; JSON Schema examples",
		Hint:        "fix the example or the schema",
		Silenceable: true},
	{ID: RulePattern, Severity: SeverityError,
		Title:  "pattern that is not an ECMA-262 regular expression (u flag), or that uses what RE2 cannot express: lookahead, lookbehind, backreferences, counts above 1000",
		Source: "JSON Schema pattern (ECMA-262); docs/patterns.md; docs/decisions.md#patterns",
		Hint:   "write the pattern as JavaScript reads it with the u flag (escape a literal { } ] as \\{ \\} \\]); rewrite lookaround and backreferences as plain alternatives, or check the condition in code"},
	{ID: RuleText, Severity: SeverityError,
		Title:  "bidirectional-override or control character in text that reaches generated code, schemas or docs",
		Source: "docs/hardening.md#text-that-reaches-output (Trojan Source, CVE-2021-42574)",
		Hint:   "remove the invisible character"},
	{ID: RuleSlowPattern, Severity: SeverityWarning,
		Title:       "pattern that backtracks catastrophically in ECMA-262 and other backtracking engines: a variable quantifier nested in another whose repetitions can match the same characters, overlapping alternatives under a quantifier (an optional branch included), or three or more adjacent quantifiers over the same characters",
		Source:      "docs/hardening.md#bq037-slow-patterns; JSON Schema pattern (ReDoS)",
		Hint:        "make every character matchable one way only: `^a+$` instead of `^(a+)+$`, `[ab]` instead of `(a|b)`, `^\\w+( \\w+)*$` instead of `^(\\w+\\s?)*$`",
		Silenceable: true},
	{ID: RuleUniqueItems, Severity: SeverityError,
		Title:  "uniqueItems over items that generated code cannot compare as JSON Schema does: open objects (keys it does not know are dropped) or numbers (compared as doubles, not as exact decimals)",
		Source: "JSON Schema uniqueItems; docs/decisions.md#agreement-domain (every validator must agree)",
		Hint:   "drop uniqueItems and deduplicate in the consumer, close the item objects (additionalProperties: false), or use integers or strings instead of numbers"},
	{ID: RuleUnicodeProperty, Severity: SeverityWarning,
		Title:       "pattern with a Unicode property escape (\\p{…}): each validator matches by the Unicode version of its own tables",
		Source:      "JSON Schema pattern (ECMA-262); docs/patterns.md",
		Hint:        "list the ranges you accept when characters assigned in recent Unicode versions matter, or silence the warning with a reason",
		Silenceable: true},
	{ID: RulePatternDollar, Severity: SeverityWarning,
		Title:       "pattern whose `$` Python's re and PHP's preg also match before a final newline, where no sibling schema can keep the ECMA-262 meaning (python or php among consumers)",
		Source:      "JSON Schema pattern (ECMA-262); Python re and PCRE2 `$`; docs/patterns.md",
		Hint:        "exclude the newline from what may stand before `$` ([^,\n] for [^,]), or check a final newline in code",
		Silenceable: true},
	{ID: RulePatternBoundary, Severity: SeverityWarning,
		Title:       "pattern with \\b or \\B, which Python's re and PHP's preg (u flag) test against Unicode word characters (python or php among consumers)",
		Source:      "JSON Schema pattern (ECMA-262); Python re and PCRE2 (UCP) word boundaries; docs/patterns.md",
		Hint:        "spell the boundary with classes: (?:^|[^A-Za-z0-9_]) before the word, (?:[^A-Za-z0-9_]|$) after it",
		Silenceable: true},
	{ID: RulePatternProperty, Severity: SeverityWarning,
		Title:       "pattern with a Unicode property escape too large to expand into ranges, which Python's re cannot read (python among consumers)",
		Source:      "JSON Schema pattern (ECMA-262); Python re has no \\p{…}; docs/patterns.md",
		Hint:        "list the ranges you accept, or use a smaller category",
		Silenceable: true},
	{ID: RuleYAML11, Severity: SeverityWarning,
		Title:  "a value YAML 1.1 tools read otherwise than YAML 1.2, where the author may have meant the YAML 1.1 reading: an integer with a leading zero (0777), a yes/no/on/off word where true or false is allowed",
		Source: "YAML 1.2 core schema; YAML 1.1 types (int, bool)",
		Hint:   "write the value unambiguously: 777 or 0o777, true or \"yes\""},
	{ID: RuleEnumValue, Severity: SeverityError,
		Title:  "enum value that its own field rejects (a length, pattern, format or bound of the field)",
		Source: "JSON Schema enum with minLength, maxLength, pattern, format, minimum, maximum, exclusiveMinimum, exclusiveMaximum",
		Hint:   "remove the value, or relax the constraint that rejects it"},
	{ID: RuleCopiedEnum, Severity: SeverityWarning,
		Title:  "an inline enum copied from the URN a message supersedes: two Go types for one set of values",
		Source: "docs/generated-code.md#names (inline enums are declared per message); docs/registry-format.md#types",
		Hint:   "move the enum to `types:` and use the named type in both versions", Silenceable: true},
	{ID: RulePIIReach, Severity: SeverityWarning,
		Title:       `x-gdpr-sensitive value that no SDK path reaches (map values, a key with "." or a trailing "[]", an array in an array, the data block itself, a recursive type below the unroll depth): the SDKs' gdpr.Protect sends it in clear text`,
		Source:      "docs/pii.md (the SDKs' x-gdpr-sensitive paths)",
		Hint:        "move the value where a path of dotted keys and [] reaches it, or mark the enclosing value (it is then protected as one value)",
		Silenceable: true},
	{ID: RulePIINested, Severity: SeverityWarning,
		Title:       "x-gdpr-sensitive string inside a value that is marked too: the SDKs' gdpr.Unprotect decrypts the outer value, then fails on the clear inner one",
		Source:      "docs/pii.md (the SDKs' x-gdpr-sensitive paths)",
		Hint:        "mark either the value or the fields inside it, not both: a marked object, array or map is protected as one value",
		Silenceable: true},
	{ID: RuleSDKSchemaSize, Severity: SeverityError,
		Title:  "message whose SDK schema exceeds its own budget: inlining its named types (the SDKs follow no $ref) would add more than 1 MiB, or nest it deeper than 100 levels",
		Source: "docs/jsonschema.md (the manifest profile); docs/decisions.md#personal-data-fails-closed",
		Hint:   "use fewer or smaller named types in this message (a type used twice at each of many levels doubles the schema at each level; each use copies the type's descriptions), or split the message"},
	{ID: RuleImportPath, Severity: SeverityError,
		Title:  "bounded context whose Go package directory the go tool refuses in an import path: a Windows device name (aux, con, nul, prn, com1–com9, lpt1–lpt9), refused on every system",
		Source: "golang.org/x/mod/module.CheckImportPath (the go tool's import path rules); docs/generated-code.md#import-paths",
		Hint:   "name the context's package with `go: {contexts: {aux: auxpkg}}`"},
	{ID: RulePatternCost, Severity: SeverityWarning,
		Title:       "pattern whose compiled RE2 program has more than 256 instructions: Go's regexp may spend about 20 ns per instruction on each byte of a long value",
		Source:      "docs/hardening.md#the-cost-of-a-pattern; Go regexp (RE2: time linear in the input, times the program size)",
		Hint:        "bound the value with maxLength (checked before the pattern), anchor the pattern (^…), or replace large counts ({1,255}) by + or *",
		Silenceable: true},
	{ID: RulePatternSize, Severity: SeverityError,
		Title:  "pattern whose RE2 translation is longer than 32,768 bytes (property escapes RE2 has no name for are written as their ranges)",
		Source: "docs/patterns.md#what-remains-a-finding; docs/hardening.md#the-cost-of-a-pattern",
		Hint:   "use fewer property escapes such as \\p{Cn}, \\p{C}, \\p{LC} or \\p{Alphabetic}, or list the ranges you mean"},
}

// Rules returns the rule catalogue: every rule id this package can report, in id
// order. The returned slice is a copy.
func Rules() []Rule {
	return append([]Rule(nil), rules...)
}

func ruleByID(id string) (Rule, bool) {
	for _, r := range rules {
		if r.ID == id {
			return r, true
		}
	}
	return Rule{}, false
}
