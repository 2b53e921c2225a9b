package registry

// formatPatterns are the narrowing patterns of the asserted string formats, the subset
// of each format on which every validator agrees: the emitted JSON Schemas carry them
// beside "format" (internal/emit/jsonschema FormatPatterns, docs/jsonschema.md
// "Formats"), and the generated decoder checks them (rt/narrow.go). The registry checks
// examples and enum values against them (formatValid), so that an example passes
// exactly when a message carrying it would. The registry cannot import the emitter
// (whose tests load registries), so this is a copy, which TestFormatPatternsMatchEmitter
// keeps equal to the emitter's.
var formatPatterns = map[string]string{
	"date":      `^[0-9]{4}-[0-9]{2}-[0-9]{2}$`,
	"date-time": `^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]+)?(?:[Zz]|[+-][0-9]{2}:[0-9]{2})$`,
	"email":     "^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-](?:[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]{0,62}[A-Za-z0-9!#$%&'*+/=?^_`{|}~-])?@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$",
	"uri":       `^[A-Za-z][A-Za-z0-9+.-]*:(?://(?:(?:[A-Za-z0-9._~!$&'()*+,;=:-]|%[0-9A-Fa-f]{2})*@)?(?:\[[0-9A-Fa-f:]*:[0-9A-Fa-f:]*\]|[A-Za-z0-9._~!$&'()*+,;=-]*)(?::[0-9]*)?(?:/(?:[A-Za-z0-9._~!$&'()*+,;=:@-]|%[0-9A-Fa-f]{2})*)*|/(?:(?:[A-Za-z0-9._~!$&'()*+,;=:@-]|%[0-9A-Fa-f]{2})+(?:/(?:[A-Za-z0-9._~!$&'()*+,;=:@-]|%[0-9A-Fa-f]{2})*)*)?|(?:[A-Za-z0-9._~!$&'()*+,;=:@-]|%[0-9A-Fa-f]{2})+(?:/(?:[A-Za-z0-9._~!$&'()*+,;=:@-]|%[0-9A-Fa-f]{2})*)*)(?:\?(?:[A-Za-z0-9._~!$&'()*+,;=:@/?-]|%[0-9A-Fa-f]{2})*)?(?:#(?:[A-Za-z0-9._~!$&'()*+,;=:@/?-]|%[0-9A-Fa-f]{2})*)?$`,
	"uuid":      `^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$`,
}

// emailMaxLength is the longest address format email accepts (RFC 5321 §4.5.3.1.3),
// as the emitted schemas' maxLength says.
const emailMaxLength = 254
