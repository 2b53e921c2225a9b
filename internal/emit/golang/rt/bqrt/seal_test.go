package bqrt

import (
	"regexp"
	"strings"
	"testing"
)

type sealCard struct{ Pan string }

type sealed struct {
	Date     *string
	ID       *UUID
	Salary   *int64
	Score    *float64
	Religion *string
	Wallet   *Money
	Ref      *int64
	Small    *int32
	When     *Timestamp
	Emails   []string
	Card     *sealCard
	Plain    *int64
	Contacts map[string]int64
}

var sealPan = regexp.MustCompile(`^[0-9]{16}$`)

var sealedDesc = Desc{Kind: KObject, Flags: FClosed | FChecked, Fields: []Field{
	{Key: "date", Type: Desc{Kind: KString, Flags: FChecked | FGDPR, Format: "date"}},
	{Key: "id", Type: Desc{Kind: KUUID, Flags: FChecked | FGDPR}},
	{Key: "salary", Type: Desc{Kind: KInt64, Flags: FChecked | FMax | FGDPR, Hi: 1000000}},
	{Key: "score", Type: Desc{Kind: KFloat64, Flags: FChecked | FFMax | FGDPR, FHi: 10.5}},
	{Key: "religion", Type: Desc{Kind: KString, Flags: FChecked | FGDPR, Enum: []string{"a", "b"}}},
	{Key: "wallet", Type: Desc{Kind: KMoney, Flags: FChecked | FGDPR}},
	{Key: "ref", Type: Desc{Kind: KInt64Str, Flags: FGDPR}},
	{Key: "small", Type: Desc{Kind: KInt32, Flags: FGDPR}},
	{Key: "when", Type: Desc{Kind: KTimestamp, Flags: FChecked | FGDPR}},
	{Key: "emails", Type: Desc{Kind: KArray, Flags: FChecked, Elem: &Desc{Kind: KString, Flags: FChecked | FGDPR, Format: "email"}}},
	{Key: "card", Type: Desc{Kind: KObject, Flags: FClosed | FChecked | FGDPR, Fields: []Field{
		{Key: "pan", Required: true, Type: Desc{Kind: KString, Flags: FChecked, Pattern: &sealPan}}}}},
	{Key: "plain", Type: Desc{Kind: KInt64, Flags: FChecked | FMax, Hi: 5}},
	{Key: "contacts", Type: Desc{Kind: KMap, Flags: FChecked | FGDPR, Elem: &Desc{Kind: KInt64, Flags: FChecked | FMax, Hi: 5}}},
}}

// TestSealedErrors: no error at or inside an x-gdpr-sensitive value quotes the value
// (here every one holds SECRET, 7777, 9999), decoding and validating alike; errors at
// other values keep it.
func TestSealedErrors(t *testing.T) {
	t.Parallel()
	const note = " (x-gdpr-sensitive: the value is not shown)"
	for _, tt := range []struct {
		name, in string
		want     []string
	}{
		{"validation", `{"date":"SECRET-1990","id":"SECRET-UUID","salary":7777777,"score":77.77,"religion":"SECRET",` +
			`"wallet":{"amount":1,"currency":"SECRET"},"when":99999999999999999,"emails":["SECRET@"],"card":{"pan":"SECRET"},"plain":7}`, []string{
			`$.date: is not a valid "date"` + note,
			`$.id: is not a canonical lowercase UUID` + note,
			`$.salary: must be at most 1000000` + note,
			`$.score: must be at most 10.5` + note,
			`$.religion: is not one of the enum values "a", "b"` + note,
			`$.wallet.currency: currency is not three upper-case letters (ISO 4217)` + note,
			`$.when: timestamp outside ±8640000000000000 ms` + note,
			`$.emails[0]: is not a valid "email"` + note,
			`$.card.pan: does not match pattern "^[0-9]{16}$"`,
			`$.plain: must be at most 5, got 7`}},
		{"decoding", `{"ref":"SECRET7777","small":99999999999,"salary":7777.5,"score":"SECRET","wallet":{"amount":7777.5,"currency":"EUR"},"card":{"pan":"1","x":"SECRET"}}`, []string{
			`$.ref: expected an integer in canonical decimal form within int64` + note,
			`$.small: integer out of int32 range` + note,
			`$.salary: expected integer` + note,
			`$.score: expected number, got string`,
			`$.wallet.amount: expected integer` + note,
			`$.card.*: additional property not allowed`,
			// checked beside the values that did not decode (one problem per path)
			`$.card.pan: does not match pattern "^[0-9]{16}$"`}},
		// Keys inside a marked value that the schema does not name are data: "*".
		{"map keys", `{"contacts":{"SECRET@x.com":7777777,"ok":1}}`, []string{`$.contacts.*: must be at most 5` + note}},
		{"unknown keys", `{"card":{"pan":"1234123412341234","SECRET":1}}`, []string{`$.card.*: additional property not allowed`}},
		// Syntax errors quote nothing of the body but one character.
		{"duplicate key", `{"contacts":{"SECRET@x.com":1,"SECRET@x.com":2}}`, []string{`$: malformed JSON at byte 30: duplicate object key`}},
		{"overflow", `{"salary":7777777e400}`, []string{`$: malformed JSON at byte 10: number overflows a float64`}},
		{"escape", `{"date":"SECRET\q"}`, []string{`$: malformed JSON at byte 16: invalid escape, character 'q' after the backslash`}},
	} {
		var x sealed
		err := Unmarshal([]byte(tt.in), &x, &sealedDesc)
		ve, _ := err.(ValidationErrors)
		var got []string
		for _, e := range ve {
			got = append(got, e.Error())
			if s := e.Error(); strings.Contains(s, "SECRET") || strings.Contains(s, "7777") || strings.Contains(s, "9999") {
				t.Errorf("%s: the value shows in %q", tt.name, e)
			}
		}
		if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
			t.Errorf("%s:\ngot:\n%s\nwant:\n%s", tt.name, strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
		}
	}

	// The producer side: Validate on Go values.
	date, salary := "SECRET-1990", int64(7777777)
	x := sealed{Date: &date, Salary: &salary}
	if err := Validate(&x, &sealedDesc); err == nil || strings.Contains(err.Error(), "SECRET") || strings.Contains(err.Error(), "7777") ||
		err.Error() != `babelqueue: invalid data: $.date: is not a valid "date"`+note+`; $.salary: must be at most 1000000`+note {
		t.Errorf("Validate: %v", err)
	}
}

// TestErrorLimits: a message is at most maxMessage bytes, a ValidationErrors at most
// maxErrors errors and the one that says there are more.
func TestErrorLimits(t *testing.T) {
	t.Parallel()
	desc := Desc{Kind: KObject, Flags: FChecked, Fields: []Field{
		{Key: "xs", Type: Desc{Kind: KArray, Flags: FChecked, Elem: &Desc{Kind: KString, Flags: FChecked, Format: "date"}}},
	}}
	var x struct{ Xs []string }
	long := strings.Repeat("é", 100000) + "-tail"
	err := Unmarshal([]byte(`{"xs":["`+long+`"]}`), &x, &desc)
	ve, _ := err.(ValidationErrors)
	if len(ve) != 1 || len(ve[0].Message) > maxMessage || !strings.HasPrefix(ve[0].Message, `is not a valid "date": parsing time "`) ||
		!strings.Contains(ve[0].Message, "...") || !strings.HasSuffix(ve[0].Message, `-tail" as "2006"`) {
		t.Errorf("long value: %d bytes: %q", len(ve[0].Message), ve)
	}
	items := strings.Repeat(`"x",`, 1000)
	err = Unmarshal([]byte(`{"xs":[`+items+`"x"]}`), &x, &desc)
	ve, _ = err.(ValidationErrors)
	if len(ve) != maxErrors+1 || ve[maxErrors] != (ValidationError{Path: "$", Message: "more problems, not listed (at most 100 are)"}) ||
		ve[99].Path != "$.xs[99]" {
		t.Errorf("1,001 invalid items: %d errors, last %v", len(ve), ve[len(ve)-1])
	}
}
