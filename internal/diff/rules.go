package diff

import (
	"fmt"
	"strings"
)

// Severity is how serious a finding is under one mode.
type Severity string

// The severities, most serious first. Only Breaking makes `bqgen diff` exit 1.
const (
	// Breaking: some consumer rejects or misreads some message (see Mode).
	Breaking Severity = "breaking"
	// Warning: not a data incompatibility, but routing or delivery changes; review it.
	Warning Severity = "warning"
	// Notice: a compatible change to the contract, listed for the reviewer.
	Notice Severity = "notice"
	// Info: documentation, annotations and deprecations; no effect on the wire.
	Info Severity = "info"
)

// rank orders severities: lower is more serious.
func (s Severity) rank() int {
	switch s {
	case Breaking:
		return 0
	case Warning:
		return 1
	case Notice:
		return 2
	}
	return 3
}

func maxSeverity(a, b Severity) Severity {
	if b.rank() < a.rank() {
		return b
	}
	return a
}

// Mode is a compatibility mode, as Confluent Schema Registry defines them.
type Mode string

// The modes.
const (
	// Backward: a consumer built from the new registry reads every message valid under
	// the old one (consumers upgrade first). The default (docs/contract.md#versioning).
	Backward Mode = "backward"
	// Forward: a consumer built from the old registry reads every message valid under
	// the new one (producers upgrade first).
	Forward Mode = "forward"
	// Full: both.
	Full Mode = "full"
)

// Modes lists the modes in documentation order.
var Modes = []Mode{Backward, Forward, Full}

// ParseMode returns the mode called s.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(s); m {
	case Backward, Forward, Full:
		return m, nil
	}
	return "", fmt.Errorf("--mode must be backward, forward or full, not %q", s)
}

// Rule is one kind of change in the catalogue.
type Rule struct {
	// ID is the stable rule id (BQ1xx).
	ID string
	// Title names the change.
	Title string
	// Backward and Forward are the severities under those modes; Full is the more
	// serious of the two.
	Backward, Forward Severity
	// Doc explains the severities: which instances stop validating in which direction.
	Doc string
}

// Severity returns the severity of the rule under mode m.
func (r *Rule) Severity(m Mode) Severity {
	switch m {
	case Forward:
		return r.Forward
	case Full:
		return maxSeverity(r.Backward, r.Forward)
	}
	return r.Backward
}

// The rule ids.
const (
	RuleURNRemoved           = "BQ100"
	RuleURNRemovedDeprecated = "BQ101"
	RuleURNAdded             = "BQ102"
	RuleKindChanged          = "BQ103"
	RuleQueueChanged         = "BQ104"
	RuleDeprecation          = "BQ105"
	RuleDoc                  = "BQ106"

	RuleOptionalRemoved       = "BQ110"
	RuleRequiredRemoved       = "BQ111"
	RuleOptionalRemovedClosed = "BQ112"
	RuleRequiredRemovedClosed = "BQ113"
	RuleOptionalAdded         = "BQ114"
	RuleRequiredAdded         = "BQ115"
	RuleOptionalAddedClosed   = "BQ116"
	RuleRequiredAddedClosed   = "BQ117"
	RuleMadeRequired          = "BQ118"
	RuleMadeOptional          = "BQ119"

	RuleRetyped         = "BQ120"
	RuleItemsRetyped    = "BQ121"
	RuleValuesRetyped   = "BQ122"
	RuleEncodingChanged = "BQ123"

	RuleTightened = "BQ130"
	RuleRelaxed   = "BQ131"
	RuleReplaced  = "BQ132"

	RuleEnumValueRemoved = "BQ140"
	RuleEnumAdded        = "BQ141"
	RuleEnumWidened      = "BQ142"
	RuleEnumRemoved      = "BQ143"

	RuleNullableRemoved = "BQ150"
	RuleNullableAdded   = "BQ151"
	RuleClosed          = "BQ152"
	RuleOpened          = "BQ153"
)

// The reading of open objects every rule below relies on, stated once in the docs:
// an open object (additionalProperties: true, the default) accepts undeclared keys so
// that readers tolerate growth (docs/contract.md#consumer-rules), but a name once declared for a property
// is never reused for another shape, so "undeclared" keys never collide with declared
// ones across versions.

// Rules is the catalogue, in id order.
var Rules = []*Rule{
	{RuleURNRemoved, "URN removed", Breaking, Warning,
		"The URN is gone from the registry without having been deprecated first. Backward: messages produced under the old registry " +
			"(queued, retried, dead-lettered and replayed) reach consumers that no longer know the URN and are dead-lettered as " +
			"`unknown_urn`: breaking. Forward: new producers simply stop sending it, so no new message is unreadable, but the old " +
			"consumers of the URN silently starve: warning. Deprecate it first (`deprecated: \"Use …\"`), remove it in a later change."},
	{RuleURNRemovedDeprecated, "deprecated URN removed", Notice, Notice,
		"The URN was deprecated in the old registry, so its consumers were told to move: its removal is the planned end of the " +
			"migration. Listed so that the reviewer confirms nothing produces it any more."},
	{RuleURNAdded, "URN added", Notice, Warning,
		"A new message type. Backward: no old message carries it: compatible. Forward: producers that upgrade first send a URN that " +
			"old consumers sharing the queue do not know; they dead-letter it as `unknown_urn`: warning. Deploy its consumers first."},
	{RuleKindChanged, "message kind changed", Warning, Warning,
		"`kind` (event ↔ command) changes what the message means and, in most deployments, how it is routed (fan-out vs one " +
			"handler). The wire format does not change, so it is a warning in every mode."},
	{RuleQueueChanged, "default queue changed", Warning, Warning,
		"The default logical queue (`queue:`, else the bounded context) changed. Producers using the default publish elsewhere, " +
			"and consumers listening on the old queue stop receiving the URN until both sides move: a routing warning in every mode."},
	{RuleDeprecation, "deprecation added or removed", Info, Info,
		"A message or a field was deprecated (or is no longer). Generated code marks it `// Deprecated:`; the wire does not change."},
	{RuleDoc, "documentation or annotation changed", Info, Info,
		"summary, description, owner, supersedes, examples, `x-gdpr-sensitive`, `go:` names or the integer's Go width changed. " +
			"None of these changes what is valid on the wire; `go:` names and `format: int32` within unchanged bounds change " +
			"generated identifiers or types, so Go callers may need edits."},

	{RuleOptionalRemoved, "optional property removed", Breaking, Notice,
		"Backward: breaking by decision (the contract's [versioning](contract.md#versioning) counts only additive changes as compatible, and bqgen counts a removed property as breaking). " +
			"An open object would still accept old messages, but the name becomes free for another shape, and data that producers " +
			"on the old shape still send is silently dropped by the new consumer. Forward: new messages lack a key the old consumer " +
			"treats as optional: compatible. Deprecate the property (`deprecated: …`) instead of removing it."},
	{RuleRequiredRemoved, "required property removed", Breaking, Breaking,
		"Backward: breaking by decision, as for an optional property ([versioning](contract.md#versioning)). Forward: new messages lack a key " +
			"the old consumer requires, so it rejects them: breaking."},
	{RuleOptionalRemovedClosed, "optional property removed from a closed object", Breaking, Notice,
		"Backward: old messages may carry the key, and the new object is closed (`additionalProperties: false`), so the new " +
			"consumer rejects them: breaking. Forward: new messages lack an optional key: compatible."},
	{RuleRequiredRemovedClosed, "required property removed from a closed object", Breaking, Breaking,
		"Backward: old messages carry the key, which the new closed object rejects: breaking. Forward: new messages lack a key the " +
			"old consumer requires: breaking."},
	{RuleOptionalAdded, "optional property added", Notice, Notice,
		"Backward: old messages lack the key, which is optional: compatible. Forward: new messages may carry it; the old object is " +
			"open, so the old consumer ignores it: compatible. The additive change the contract's [versioning](contract.md#versioning) allows."},
	{RuleRequiredAdded, "required property added", Breaking, Notice,
		"Backward: old messages lack the key, which the new consumer requires: breaking. Forward: the old (open) object ignores " +
			"the new key: compatible. Add it as optional instead, or mint a new URN."},
	{RuleOptionalAddedClosed, "optional property added to a closed object", Notice, Breaking,
		"Backward: old messages lack the optional key: compatible. Forward: new messages may carry a key that the old closed " +
			"object (`additionalProperties: false`) rejects: breaking."},
	{RuleRequiredAddedClosed, "required property added to a closed object", Breaking, Breaking,
		"Backward: old messages lack a required key: breaking. Forward: new messages carry a key the old closed object rejects: breaking."},
	{RuleMadeRequired, "optional property made required", Breaking, Notice,
		"Backward: old messages may lack the key, which the new consumer requires: breaking. Forward: new messages always carry " +
			"it, and the old consumer accepts it either way: compatible."},
	{RuleMadeOptional, "required property made optional", Notice, Breaking,
		"Backward: old messages always carry the key: compatible. Forward: new messages may lack a key the old consumer " +
			"requires: breaking."},

	{RuleRetyped, "property retyped", Breaking, Breaking,
		"The type changed (integer ↔ number, string ↔ timestamp, money ↔ integer, string ↔ uuid, object ↔ a named type of " +
			"another kind, …). Values of one type are not values of the other, or have another meaning (a timestamp is a number " +
			"of milliseconds, money an object). Even the apparent widenings are breaking in both modes: integer → number loses " +
			"exactness beyond 2^53 and turns int64 into float64 in every generated reader; uuid → string drops the canonical " +
			"form readers rely on. A change of shape between an inline object and a named type is not a retype: the two shapes " +
			"are compared property by property."},
	{RuleItemsRetyped, "array item type changed", Breaking, Breaking,
		"The type of the items of an array changed; as for a retyped property, no item of one type is read correctly as the other."},
	{RuleValuesRetyped, "map value type changed", Breaking, Breaking,
		"The type of the values of a map changed; as for a retyped property, no value of one type is read correctly as the other."},
	{RuleEncodingChanged, "integer encoding changed", Breaking, Breaking,
		"`encoding: string` was added or removed: the integer travels as `42` on one side and as `\"42\"` on the other, and " +
			"neither reader accepts the other form."},

	{RuleTightened, "constraint tightened", Breaking, Notice,
		"A bound or check now rejects values it accepted: a higher minimum or exclusiveMinimum, a lower maximum or " +
			"exclusiveMaximum, `format: int32`, a larger minLength or minItems, a smaller maxLength or maxItems, a pattern or " +
			"format added, uniqueItems turned on. Backward: some old messages fail the new check: breaking. Forward: every new " +
			"message passes the old, looser check: compatible. Bounds are compared by their effect (`minimum: 1` and " +
			"`exclusiveMinimum: 0` on an integer are the same bound)."},
	{RuleRelaxed, "constraint relaxed", Notice, Breaking,
		"The reverse of BQ130: the new check accepts values the old one rejected. Backward: old messages pass: compatible. " +
			"Forward: new producers may send values the old consumer rejects: breaking."},
	{RuleReplaced, "constraint replaced", Breaking, Breaking,
		"A pattern or format was replaced by another. bqgen does not decide whether one regular expression or format " +
			"contains the other, so each side may reject values the other accepts: breaking in both modes. If the new " +
			"pattern only accepts more, say so in the review; the tool stays conservative."},

	{RuleEnumValueRemoved, "enum value removed", Breaking, Notice,
		"Backward: old messages may carry the value, which the new consumer rejects: breaking. Forward: new messages use only " +
			"values the old consumer knows: compatible."},
	{RuleEnumAdded, "enum added where any value was allowed", Breaking, Notice,
		"Backward: old messages may carry any value of the type, most of them outside the new enum: breaking. Forward: every " +
			"enum value is a value of the type: compatible."},
	{RuleEnumWidened, "enum value added", Notice, Breaking,
		"Backward: old messages use only old values, all still allowed: compatible ([versioning](contract.md#versioning): widen an enum). Forward: new " +
			"producers may send the value, which the old consumer rejects: breaking."},
	{RuleEnumRemoved, "enum removed", Notice, Breaking,
		"Any value of the type is now allowed. Backward: compatible. Forward: new messages may carry values outside the old " +
			"enum: breaking."},

	{RuleNullableRemoved, "nullable removed", Breaking, Notice,
		"Backward: old messages may carry `null`, which the new consumer rejects: breaking. Forward: new messages never carry " +
			"`null`: compatible."},
	{RuleNullableAdded, "nullable added", Notice, Breaking,
		"Backward: compatible. Forward: new messages may carry `null`, which the old consumer rejects: breaking."},
	{RuleClosed, "object closed", Breaking, Notice,
		"`additionalProperties: false` was set. Backward: old messages may carry undeclared keys (producers of other versions, " +
			"enrichment), which the new consumer now rejects: breaking. Forward: new messages carry only declared keys: compatible."},
	{RuleOpened, "object opened", Notice, Breaking,
		"`additionalProperties: false` was dropped. Backward: compatible. Forward: new messages may carry undeclared keys that " +
			"the old closed object rejects: breaking."},
}

var rulesByID = func() map[string]*Rule {
	m := map[string]*Rule{}
	for _, r := range Rules {
		m[r.ID] = r
	}
	return m
}()

// RuleByID returns the rule with the given id, or nil.
func RuleByID(id string) *Rule { return rulesByID[id] }

// RulesMarkdown renders the catalogue as the Markdown section docs/diff.md embeds.
func RulesMarkdown() string {
	var b strings.Builder
	b.WriteString("| id | change | backward | forward | full |\n|---|---|---|---|---|\n")
	for _, r := range Rules {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", r.ID, r.Title, r.Backward, r.Forward, r.Severity(Full))
	}
	for _, r := range Rules {
		fmt.Fprintf(&b, "\n### %s: %s\n\nbackward: **%s** · forward: **%s** · full: **%s**\n\n%s\n", r.ID, r.Title, r.Backward, r.Forward, r.Severity(Full), r.Doc)
	}
	return b.String()
}
