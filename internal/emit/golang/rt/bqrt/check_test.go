package bqrt

import (
	"math"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

func TestCheckLengthCodePoints(t *testing.T) {
	t.Parallel()
	tests := []struct {
		s        string
		min, max int
		want     ValidationErrors
	}{
		{"héllo", 5, 5, nil},   // 5 code points, 6 bytes
		{"😀😀😀", -1, 3, nil},    // 3 code points, 12 bytes
		{"e\u0301", 2, 2, nil}, // combining mark: 2 code points
		{"😀😀😀😀", -1, 3, ValidationErrors{{"$.s", "length 4 is greater than the maximum 3 (code points)"}}},
		{"éé", 3, -1, ValidationErrors{{"$.s", "length 2 is less than the minimum 3 (code points)"}}},
		{"", 0, -1, nil},
		{"", 1, -1, ValidationErrors{{"$.s", "length 0 is less than the minimum 1 (code points)"}}},
		{"anything at all", -1, -1, nil},
	}
	for _, tt := range tests {
		var e ValidationErrors
		checkLength(&e, "$.s", tt.s, tt.min, tt.max)
		if !reflect.DeepEqual(e, tt.want) {
			t.Errorf("checkLength(%q, %d, %d) = %v, want %v", tt.s, tt.min, tt.max, e, tt.want)
		}
	}
}

func TestCheckPattern(t *testing.T) {
	t.Parallel()
	re := regexp.MustCompile(`[0-9]{3}`)
	var e ValidationErrors
	checkPattern(&e, "$.p", "ab123", re) // unanchored: matches
	checkPattern(&e, "$.p", "ab12", re)
	want := ValidationErrors{{"$.p", `does not match pattern "[0-9]{3}"`}}
	if !reflect.DeepEqual(e, want) {
		t.Errorf("errs = %v, want %v", e, want)
	}
}

// formatCases are the verdicts of jsonschema/v6 v6.0.3 with the format narrowing
// of the emitted schemas (also checked differentially in format_diff_test.go).
var formatCases = []struct {
	format, s string
	ok        bool
}{
	{"email", "joe@example.com", true},
	{"email", "Joe.Bloggs+tag@sub.example.co.uk", true},
	{"email", `"john doe"@example.com`, false}, // narrowed out: quoted local part
	{"email", "joe@[127.0.0.1]", false},        // narrowed out: address literal
	{"email", "joe@[IPv6:::1]", false},
	{"email", "joe@localhost", false},    // narrowed out: one label
	{"email", "joe@example.com.", false}, // narrowed out: trailing dot
	{"email", "@example.com", false},
	{"email", strings.Repeat("a", 64) + "@" + strings.Repeat("b", 63) + ".com", true},
	{"email", "joe@[IPv6:zz]", false},
	{"email", "joe@[300.0.0.1]", false},
	{"email", "joe", false},
	{"email", ".joe@example.com", false},
	{"email", "joe.@example.com", false},
	{"email", "jo..e@example.com", false},
	{"email", "jö@example.com", false},
	{"email", "joe@-example.com", false},
	{"email", "joe@exa_mple.com", false},
	{"email", "joe@", false},
	{"email", strings.Repeat("a", 65) + "@example.com", false},
	{"email", "a@b@example.com", false},
	{"uri", "https://example.com/a?b=c#d", true},
	{"uri", "urn:babel:orders:created", true},
	{"uri", "mailto:joe@example.com", true},
	{"uri", "http://[::1]:8080/", true},
	{"uri", "http://::1/", false},
	{"uri", "/relative/path", false},
	{"uri", "example.com", false},
	{"uri", "http://exa mple.com", false},
	{"uri", "http://[zz]/", false},
	{"uri", "http:", false},                 // narrowed out: empty hier-part
	{"uri", "http://a/b c", false},          // narrowed out: raw space
	{"uri", "https://example.com/ä", false}, // narrowed out: an IRI
	{"uri", "http://a%41b/", false},         // narrowed out: percent-encoded host
	{"uri", "http://u:p@h:8080/p/q?x#f", true},
	{"uri", "", false},
	{"date", "2024-02-29", true},
	{"date", "2023-02-29", false},
	{"date", "2024-13-01", false},
	{"date", "2024-1-01", false},
	{"date", "20240101", false},
	{"date-time", "2024-02-29T12:34:56Z", true},
	{"date-time", "2024-02-29t12:34:56.123456z", true},
	{"date-time", "2024-02-29T12:34:56+05:30", true},
	{"date-time", "2016-12-31T23:59:60Z", true},
	{"date-time", "2016-12-31T22:59:60-01:00", true},
	{"date-time", "2016-12-31T12:59:60Z", false},
	{"date-time", "2024-02-29 12:34:56Z", false},
	{"date-time", "2024-02-29T12:34:56", false},
	{"date-time", "2024-02-29T24:00:00Z", false},
	{"date-time", "2024-02-29T12:34:56.Z", false},
	{"date-time", "2024-02-29T12:34:56+0530", false},
	{"date-time", "2024-02-30T12:34:56Z", false},
	{"uuid", "0f8fad5b-d9cb-469f-a165-70867728950e", true},
	{"uuid", "0F8FAD5B-D9CB-469F-A165-70867728950E", true},
	{"uuid", "0f8fad5bd9cb469fa16570867728950e", false},
	{"uuid", "0f8fad5b-d9cb-469f-a165-70867728950", false},
	{"uuid", "0f8fad5b-d9cb-469f-a165-70867728950g", false},
	{"uuid", "{0f8fad5b-d9cb-469f-a165-70867728950e}", false},
	{"uuid", "urn:uuid:0f8fad5b-d9cb-469f-a165-70867728950e", false},
	{"hostname", "not checked", true}, // other formats are annotations
}

func TestCheckFormat(t *testing.T) {
	t.Parallel()
	for _, tt := range formatCases {
		var e ValidationErrors
		checkFormat(&e, "$.f", tt.s, tt.format)
		if got := len(e) == 0; got != tt.ok {
			t.Errorf("checkFormat(%q, %s) ok = %v, want %v (%v)", tt.s, tt.format, got, tt.ok, e)
		}
	}
	var e ValidationErrors
	checkFormat(&e, "$.f", "joe", "email")
	want := ValidationErrors{{"$.f", `is not a valid "email": missing @`}}
	if !reflect.DeepEqual(e, want) {
		t.Errorf("errs = %v, want %v", e, want)
	}
}

func TestCheckNumbers(t *testing.T) {
	t.Parallel()
	var e ValidationErrors
	checkIntMin(&e, "$.a", 5, 5, false) // ok
	checkIntMin(&e, "$.a", 5, 5, true)
	checkIntMin(&e, "$.a", 4, 5, false)
	checkIntMax(&e, "$.a", 5, 5, false) // ok
	checkIntMax(&e, "$.a", 5, 5, true)
	checkIntMax(&e, "$.a", 6, 5, false)
	// Number bounds: validateFloat on a descriptor with one bound.
	float := func(v, b float64, isMin, excl bool) {
		td := Desc{Kind: KFloat64, Flags: FChecked, FLo: b, FHi: b}
		switch {
		case isMin && excl:
			td.Flags |= FFMin | FFExclMin
		case isMin:
			td.Flags |= FFMin
		case excl:
			td.Flags |= FFMax | FFExclMax
		default:
			td.Flags |= FFMax
		}
		d := decoder{errs: e}
		d.pushKey("b")
		validateFloat(&d, &td, v)
		e = d.errs
	}
	float(0.5, 0.5, true, false) // ok
	float(0.5, 0.5, true, true)
	float(0.25, 0.5, true, false)
	float(1e21, 1e21, false, false) // ok
	float(1e21, 1e21, false, true)
	float(2.5, 1, false, false)
	float(math.NaN(), 0, true, false)
	checkFinite(&e, "$.c", 1.5) // ok
	checkFinite(&e, "$.c", math.NaN())
	checkFinite(&e, "$.c", math.Inf(-1))
	want := ValidationErrors{
		{"$.a", "must be greater than 5, got 5"},
		{"$.a", "must be at least 5, got 4"},
		{"$.a", "must be less than 5, got 5"},
		{"$.a", "must be at most 5, got 6"},
		{"$.b", "must be greater than 0.5, got 0.5"},
		{"$.b", "must be at least 0.5, got 0.25"},
		{"$.b", "must be less than 1e+21, got 1e+21"},
		{"$.b", "must be at most 1, got 2.5"},
		{"$.b", "must be a finite number, got NaN"},
		{"$.c", "must be a finite number, got NaN"},
		{"$.c", "must be a finite number, got -Inf"},
	}
	if !reflect.DeepEqual(e, want) {
		t.Errorf("errs =\n%v\nwant\n%v", e, want)
	}
}

func TestCheckItems(t *testing.T) {
	t.Parallel()
	var e ValidationErrors
	checkItems(&e, "$.l", 0, -1, -1)
	checkItems(&e, "$.l", 2, 2, 2)
	checkItems(&e, "$.l", 1, 2, -1)
	checkItems(&e, "$.l", 3, -1, 2)
	want := ValidationErrors{
		{"$.l", "has 1 items, fewer than the minimum 2"},
		{"$.l", "has 3 items, more than the maximum 2"},
	}
	if !reflect.DeepEqual(e, want) {
		t.Errorf("errs = %v, want %v", e, want)
	}
}

func TestCheckUnique(t *testing.T) {
	t.Parallel()
	negZero := math.Copysign(0, -1)
	tests := []struct {
		name string
		run  func(e *ValidationErrors)
		want ValidationErrors
	}{
		{"ints unique", func(e *ValidationErrors) { checkUnique(e, "$.u", []int64{1, 2, 3}, appendInt) }, nil},
		{"ints dup", func(e *ValidationErrors) { checkUnique(e, "$.u", []int64{1, 2, 3, 2, 1}, appendInt) },
			ValidationErrors{{"$.u", "items at index 1 and 3 are equal"}}},
		{"empty", func(e *ValidationErrors) { checkUnique(e, "$.u", []string(nil), appendString) }, nil},
		{"strings case", func(e *ValidationErrors) { checkUnique(e, "$.u", []string{"a", "A"}, appendString) }, nil},
		{"float zero", func(e *ValidationErrors) { checkUnique(e, "$.u", []float64{0, negZero}, appendFloat) },
			ValidationErrors{{"$.u", "items at index 0 and 1 are equal"}}},
		{"float 1 and 1.0", func(e *ValidationErrors) { checkUnique(e, "$.u", []float64{1, 1.0}, appendFloat) },
			ValidationErrors{{"$.u", "items at index 0 and 1 are equal"}}},
		{"-0 in string is not a number", func(e *ValidationErrors) { checkUnique(e, "$.u", []string{"-0", "0"}, appendString) }, nil},
		{"negative numbers kept", func(e *ValidationErrors) { checkUnique(e, "$.u", []float64{-0.5, 0.5, -10, 10}, appendFloat) }, nil},
		{"objects", func(e *ValidationErrors) {
			checkUnique(e, "$.lines", []sampleLine{{"A", 1}, {"B", 1}, {"A", 1}}, appendSampleLine)
		}, ValidationErrors{{"$.lines", "items at index 0 and 2 are equal"}}},
		{"maps", func(e *ValidationErrors) {
			enc := func(b []byte, m map[string]float64) []byte { return appendMap(b, m, appendFloat) }
			checkUnique(e, "$.m", []map[string]float64{{"a": 1, "b": negZero}, {"b": 0, "a": 1}}, enc)
		}, ValidationErrors{{"$.m", "items at index 0 and 1 are equal"}}},
	}
	for _, tt := range tests {
		var e ValidationErrors
		tt.run(&e)
		if !reflect.DeepEqual(e, tt.want) {
			t.Errorf("%s: errs = %v, want %v", tt.name, e, tt.want)
		}
	}
}

func TestCheckMoney(t *testing.T) {
	t.Parallel()
	tests := []struct {
		m    money
		want ValidationErrors
	}{
		{money{1299, "EUR"}, nil},
		{money{-9007199254740991, "JPY"}, nil},
		{money{9007199254740991, "USD"}, nil},
		{money{9007199254740992, "USD"}, ValidationErrors{{"$.total.amount", "amount 9007199254740992 (minor units) outside ±9007199254740991"}}},
		{money{-9007199254740992, "USD"}, ValidationErrors{{"$.total.amount", "amount -9007199254740992 (minor units) outside ±9007199254740991"}}},
		{money{1, "eur"}, ValidationErrors{{"$.total.currency", `currency "eur" is not three upper-case letters (ISO 4217)`}}},
		{money{1, "EURO"}, ValidationErrors{{"$.total.currency", `currency "EURO" is not three upper-case letters (ISO 4217)`}}},
		{money{1, ""}, ValidationErrors{{"$.total.currency", `currency "" is not three upper-case letters (ISO 4217)`}}},
		{money{1, "ÉUR"}, ValidationErrors{{"$.total.currency", `currency "ÉUR" is not three upper-case letters (ISO 4217)`}}},
	}
	for _, tt := range tests {
		var e ValidationErrors
		checkMoney(&e, "$.total", tt.m)
		if !reflect.DeepEqual(e, tt.want) {
			t.Errorf("checkMoney(%v) = %v, want %v", tt.m, e, tt.want)
		}
	}
}

func TestCheckTimestampUUIDEnum(t *testing.T) {
	t.Parallel()
	var e ValidationErrors
	checkTimestamp(&e, "$.t", 8640000000000000)
	checkTimestamp(&e, "$.t", -8640000000000000)
	checkTimestamp(&e, "$.t", 8640000000000001)
	checkTimestamp(&e, "$.t", -8640000000000001)
	checkUUID(&e, "$.u", "0f8fad5b-d9cb-469f-a165-70867728950e")
	checkUUID(&e, "$.u", "0F8FAD5B-D9CB-469F-A165-70867728950E")
	checkUUID(&e, "$.u", "0f8fad5bd9cb469fa16570867728950e")
	checkUUID(&e, "$.u", "0f8fad5b-d9cb-469f-a165_70867728950e")
	checkEnum(&e, "$.s", true, `"a"`, func() []string { return enumTexts([]string{"a"}) })
	checkEnum(&e, "$.s", false, `"c"`, func() []string { return enumTexts([]string{"a", "b\""}) })
	want := ValidationErrors{
		{"$.t", "timestamp 8640000000000001 ms outside ±8640000000000000"},
		{"$.t", "timestamp -8640000000000001 ms outside ±8640000000000000"},
		{"$.u", `"0F8FAD5B-D9CB-469F-A165-70867728950E" is not a canonical lowercase UUID`},
		{"$.u", `"0f8fad5bd9cb469fa16570867728950e" is not a canonical lowercase UUID`},
		{"$.u", `"0f8fad5b-d9cb-469f-a165_70867728950e" is not a canonical lowercase UUID`},
		{"$.s", `value "c" is not one of the enum values "a", "b\""`},
	}
	if !reflect.DeepEqual(e, want) {
		t.Errorf("errs =\n%v\nwant\n%v", e, want)
	}
}

func TestValidationErrorsError(t *testing.T) {
	t.Parallel()
	e := ValidationErrors{{"$.a", "x"}, {"$.b", "y"}}
	if got, want := e.Error(), "babelqueue: invalid data: $.a: x; $.b: y"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if e.Unwrap() != ErrInvalidData {
		t.Error("Unwrap")
	}
	if ValidationErrors(nil).errOrNil() != nil {
		t.Error("errOrNil(nil) != nil")
	}
	if err := e.errOrNil(); !reflect.DeepEqual(err, e) {
		t.Errorf("errOrNil = %v", err)
	}
}

// TestPatternQuotesSource: a pattern problem quotes the pattern as the registry writes
// it (Pattern's source), not the RE2 translation the decoder runs (issue 23).
func TestPatternQuotesSource(t *testing.T) {
	re := Pattern(`^\S+$`, `^[^\t\n\v\f\r \x{a0}\x{feff}]+\z`)
	var e ValidationErrors
	checkPattern(&e, "$.token", "a b", re)
	want := ValidationErrors{{"$.token", `does not match pattern "^\\S+$"`}}
	if !reflect.DeepEqual(e, want) {
		t.Errorf("errs = %v, want %v", e, want)
	}
}
