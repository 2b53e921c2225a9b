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
	RulePIIReach     = "BQ048"
	RulePIINested    = "BQ049"
)

// Rule describes one rule of the catalogue.
type Rule struct {
	// ID is the rule id (BQ001…), stable across releases.
	ID string
	// Severity is the severity the rule reports with.
	Severity Severity
	// Title says what the rule checks, in a few words.
	Title string
	// Source is where the rule comes from: a contract or brief section, or the JSON
	// Schema keyword of the registry format that enforces it.
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
		Source: "YAML 1.2; BRIEF §3",
		Hint:   "fix the YAML; quote strings that contain `: ` or start with a special character"},
	{ID: RuleFormat, Severity: SeverityError,
		Title:  "registry format violation: unknown key, wrong type, missing required key (a lint block without a reason included), keyword that does not apply to the type, impossible constraint",
		Source: "registry.schema.json (additionalProperties, unevaluatedProperties, type, required, enum, pattern); BRIEF §3",
		Hint:   "check the key against BRIEF §3; `bqgen jsonschema --registry-schema` prints the format for editors"},
	{ID: RuleDefault, Severity: SeverityError,
		Title:  "`default` is not supported: it has no single cross-language meaning",
		Source: "registry.schema.json (properties.default: not); BRIEF §3",
		Hint:   "make the field required, or document the default in `description`"},
	{ID: RuleLimit, Severity: SeverityError,
		Title:  "input limit exceeded: file size, nesting depth, YAML alias expansion, properties per object or number length",
		Source: "BRIEF §8",
		Hint:   "split the registry into files, objects into named types, and reuse schemas through `types:` instead of YAML aliases"},
	{ID: RuleLintUnused, Severity: SeverityWarning,
		Title:  "lint ignore that silences nothing: no finding of the rule in its scope, an unknown rule id, or a rule that cannot be silenced",
		Source: "BRIEF §4 (lint: {ignore, reason})",
		Hint:   "remove the rule id from `ignore` (and the lint block when nothing is left)"},
	{ID: RuleURNSyntax, Severity: SeverityError,
		Title:  "URN syntax and charset: urn:babel:<context>:<name>, [a-z0-9:._-] only",
		Source: "CONTRACT §4",
		Hint:   "write the URN as urn:babel:<bounded-context>:<event-or-command>, lower case"},
	{ID: RuleURNPayload, Severity: SeverityError,
		Title:       "payload in the URN: a name segment that is all digits, a UUID or a long hex id",
		Source:      "CONTRACT §4",
		Hint:        "move the id into `data`; the URN names the message type, not one message",
		Silenceable: true},
	{ID: RuleURNClass, Severity: SeverityError,
		Title:  "class name used as a URN",
		Source: "CONTRACT §4",
		Hint:   "name the message urn:babel:<context>:<event>; class names must never reach the wire"},
	{ID: RuleDuplicate, Severity: SeverityError,
		Title:  "duplicate URN or named type (in one file or across the files of a registry)",
		Source: "CONTRACT §4; BRIEF §2",
		Hint:   "keep one definition; an incompatible change mints <urn>.v2"},
	{ID: RuleVersion, Severity: SeverityError,
		Title:       "version suffix misuse: .v0/.v1, a malformed suffix, or a dangling or self `supersedes`",
		Source:      "CONTRACT §4, §8",
		Hint:        "the first version has no suffix; later ones are .v2, .v3…; `supersedes` names an existing older URN",
		Silenceable: true},
	{ID: RuleMoneyFloat, Severity: SeverityError,
		Title:       "money carried in a float: a number field whose name has a money word as a token",
		Source:      "CONTRACT §3.4",
		Hint:        "use `type: money` (JSON {\"amount\": <integer minor units>, \"currency\": \"<ISO 4217>\"})",
		Silenceable: true},
	{ID: RuleIntRange, Severity: SeverityError,
		Title:  "integer bound or enum value that is not an integer or lies outside int64 (int32 with format int32)",
		Source: "CONTRACT §3.3; JSON Schema minimum, maximum, exclusiveMinimum, exclusiveMaximum, enum",
		Hint:   "use integer bounds within the integer's range"},
	{ID: RuleJSSafe, Severity: SeverityError,
		Title:       "integer not JS-safe while a node consumer is declared: its declared range is not inside ±(2^53 − 1)",
		Source:      "CONTRACT §3.3; JSON Schema minimum, maximum",
		Hint:        "bound it within ±9007199254740991, or carry it as a string with `encoding: string`",
		Silenceable: true},
	{ID: RuleNonFinite, Severity: SeverityError,
		Title:  "NaN or Infinity in the registry (YAML .nan/.inf/-.inf, or a number that overflows a double), anywhere; a number a double cannot carry exactly",
		Source: "CONTRACT §3.2; BRIEF §8",
		Hint:   "use a finite number, or leave the bound out"},
	{ID: RuleBoolean, Severity: SeverityError,
		Title:       "boolean carried as 0/1 or yes/no: a boolean with numeric or string enum values or examples, or a string enum of boolean words",
		Source:      "CONTRACT §3.5",
		Hint:        "use `type: boolean` with JSON true/false",
		Silenceable: true},
	{ID: RuleTime, Severity: SeverityError,
		Title:       "time not in Unix milliseconds: an integer or number time field (*_at, *_time, *_ts, timestamp) not typed timestamp, or a timestamp example in seconds",
		Source:      "CONTRACT §3.6, §2 (meta.created_at)",
		Hint:        "use `type: timestamp` (integer Unix milliseconds, UTC)",
		Silenceable: true},
	{ID: RuleIntFlag, Severity: SeverityWarning,
		Title:       "integer flag: an integer limited to 0..1 whose name starts is_, has_ or can_",
		Source:      "CONTRACT §3.5",
		Hint:        "use `type: boolean` (a change of type mints <urn>.v2)",
		Silenceable: true},
	{ID: RuleGoName, Severity: SeverityError,
		Title:  "Go identifier collision after name mapping",
		Source: "BRIEF §4, §5, §8",
		Hint:   "set `go: {name: …}` (or `go: {enum: {…}}` for enum values) on one of the two"},
	{ID: RuleSnakeCase, Severity: SeverityWarning,
		Title:       "JSON key not in snake_case",
		Source:      "BRIEF §4",
		Hint:        "rename the key to snake_case (a rename is a breaking change: mint <urn>.v2)",
		Silenceable: true},
	{ID: RuleClosedObject, Severity: SeverityWarning,
		Title:       "closed object (additionalProperties: false) blocks additive growth",
		Source:      "BRIEF §4; CONTRACT §6, §8.3; JSON Schema additionalProperties",
		Hint:        "leave additionalProperties unset (open objects let producers add optional fields)",
		Silenceable: true},
	{ID: RuleNamedType, Severity: SeverityError,
		Title:  "unknown named type, or a named type that can only be infinite",
		Source: "BRIEF §3, §4",
		Hint:   "declare the type under `types:`; break a cycle with an optional or nullable property, a map, or an array that may be empty"},
	{ID: RuleExample, Severity: SeverityError,
		Title:       "example that does not validate against its field",
		Source:      "BRIEF §3; JSON Schema examples",
		Hint:        "fix the example or the schema",
		Silenceable: true},
	{ID: RulePattern, Severity: SeverityError,
		Title:  "pattern not valid in both RE2 and ECMA-262, or read differently by them (\\s, ., \\p{…})",
		Source: "BRIEF §4, §8; JSON Schema pattern",
		Hint:   "use the common subset: no lookaround, backreferences, inline flags, \\x{…}, \\A or \\z; spell \\s as [ \\t\\n\\r\\f], . as [^\\n], \\p{…} as explicit ranges"},
	{ID: RuleText, Severity: SeverityError,
		Title:  "bidirectional-override or control character in text that reaches generated code, schemas or docs",
		Source: "BRIEF §4 (Trojan Source, CVE-2021-42574)",
		Hint:   "remove the invisible character"},
	{ID: RuleSlowPattern, Severity: SeverityWarning,
		Title:       "pattern that backtracks catastrophically in ECMA-262 and other backtracking engines: a variable quantifier nested in another whose repetitions can match the same characters, or overlapping alternatives under a quantifier",
		Source:      "BRIEF §4; JSON Schema pattern (ReDoS)",
		Hint:        "make every character matchable one way only: `^a+$` instead of `^(a+)+$`, `[ab]` instead of `(a|b)`, `^\\w+( \\w+)*$` instead of `^(\\w+\\s?)*$`",
		Silenceable: true},
	{ID: RuleUniqueItems, Severity: SeverityError,
		Title:  "uniqueItems over items that generated code cannot compare as JSON Schema does: open objects (keys it does not know are dropped) or numbers (compared as doubles, not as exact decimals)",
		Source: "JSON Schema uniqueItems; BRIEF §8 (every validator must agree)",
		Hint:   "drop uniqueItems and deduplicate in the consumer, close the item objects (additionalProperties: false), or use integers or strings instead of numbers"},
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
