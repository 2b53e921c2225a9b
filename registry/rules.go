package registry

// Rule ids reported by this package. Each is described in Rules.
const (
	RuleSyntax       = "BQ001"
	RuleFormat       = "BQ002"
	RuleDefault      = "BQ003"
	RuleLimit        = "BQ004"
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
	RuleGoName       = "BQ030"
	RuleSnakeCase    = "BQ031"
	RuleClosedObject = "BQ032"
	RuleNamedType    = "BQ033"
	RuleExample      = "BQ034"
	RulePattern      = "BQ035"
	RuleText         = "BQ036"
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
	// Hint is the general fix.
	Hint string
}

var rules = []Rule{
	{RuleSyntax, SeverityError, "YAML syntax error, duplicate key or several documents in one file", "YAML 1.2; BRIEF §3",
		"fix the YAML; quote strings that contain `: ` or start with a special character"},
	{RuleFormat, SeverityError, "registry format violation: unknown key, wrong type, missing required key, keyword that does not apply to the type, impossible constraint", "registry.schema.json (additionalProperties, unevaluatedProperties, type, required, enum, pattern); BRIEF §3",
		"check the key against BRIEF §3; `bqgen jsonschema --registry-schema` prints the format for editors"},
	{RuleDefault, SeverityError, "`default` is not supported: it has no single cross-language meaning", "registry.schema.json (properties.default: not); BRIEF §3",
		"make the field required, or document the default in `description`"},
	{RuleLimit, SeverityError, "input limit exceeded: file size, nesting depth or YAML alias expansion", "BRIEF §8",
		"split the registry into files and reuse schemas through `types:` instead of YAML aliases"},
	{RuleURNSyntax, SeverityError, "URN syntax and charset: urn:babel:<context>:<name>, [a-z0-9:._-] only", "CONTRACT §4",
		"write the URN as urn:babel:<bounded-context>:<event-or-command>, lower case"},
	{RuleURNPayload, SeverityError, "payload in the URN (an id, number or UUID as a URN part)", "CONTRACT §4",
		"move the id into `data`; the URN names the message type, not one message"},
	{RuleURNClass, SeverityError, "class name used as a URN", "CONTRACT §4",
		"name the message urn:babel:<context>:<event>; class names must never reach the wire"},
	{RuleDuplicate, SeverityError, "duplicate URN or named type (across the files of a registry)", "CONTRACT §4; BRIEF §2",
		"keep one definition; an incompatible change mints <urn>.v2"},
	{RuleVersion, SeverityError, "version suffix misuse: .v0/.v1, a malformed suffix, or a dangling or self `supersedes`", "CONTRACT §4, §8",
		"the first version has no suffix; later ones are .v2, .v3…; `supersedes` names an existing older URN"},
	{RuleMoneyFloat, SeverityError, "money carried in a float", "CONTRACT §3.4",
		"use `type: money` (integer minor units plus currency)"},
	{RuleIntRange, SeverityError, "integer bound that is not an integer or lies outside int64 (int32 with format int32)", "CONTRACT §3.3",
		"use integer bounds within the integer's range"},
	{RuleJSSafe, SeverityError, "integer not JS-safe while a node consumer is declared", "CONTRACT §3.3",
		"bound it within ±9007199254740991, or carry it as a string with `encoding: string`"},
	{RuleNonFinite, SeverityError, "NaN or Infinity in the registry (YAML .nan/.inf, or a number that overflows a double)", "CONTRACT §3.2; BRIEF §8",
		"use a finite number"},
	{RuleBoolean, SeverityError, "boolean carried as 0/1 or yes/no", "CONTRACT §3.5",
		"use `type: boolean` (JSON true/false)"},
	{RuleTime, SeverityError, "time not in Unix milliseconds (an integer or number time field not typed timestamp)", "CONTRACT §3.6",
		"use `type: timestamp` (integer Unix milliseconds, UTC)"},
	{RuleGoName, SeverityError, "Go identifier collision after name mapping", "BRIEF §4, §5, §8",
		"set `go: {name: …}` (or `go: {enum: {…}}` for enum values) on one of the two"},
	{RuleSnakeCase, SeverityWarning, "JSON key not in snake_case", "BRIEF §4",
		"rename the key to snake_case (a rename is a breaking change: mint <urn>.v2)"},
	{RuleClosedObject, SeverityWarning, "closed object (additionalProperties: false) blocks additive growth", "BRIEF §4; CONTRACT §6",
		"leave additionalProperties unset (open objects let producers add optional fields)"},
	{RuleNamedType, SeverityError, "unknown named type, or a named type that can only be infinite", "BRIEF §3, §4",
		"declare the type under `types:`; break a cycle with an optional, nullable, array or map property"},
	{RuleExample, SeverityError, "example that does not validate against its field", "BRIEF §3",
		"fix the example or the schema"},
	{RulePattern, SeverityError, "pattern not valid in both RE2 and ECMA-262", "BRIEF §4",
		"use the common subset: no lookaround, backreferences, inline flags or named groups"},
	{RuleText, SeverityError, "bidirectional-override or control character in text that reaches generated code", "BRIEF §4",
		"remove the invisible character"},
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
