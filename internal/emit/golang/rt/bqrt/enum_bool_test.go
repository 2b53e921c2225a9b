package bqrt

import (
	"reflect"
	"testing"
)

// boolEnumData is a data block with boolean enums: a field, a nullable field, array
// items and map values (issue 20, item 10: {"flag": false} passed enum [true]).
type boolEnumData struct {
	Flag   bool
	Maybe  Nullable[bool]
	Items  []bool
	Values map[string]bool
}

var boolOnlyTrue = Desc{Kind: KBool, Flags: FChecked, EnumBool: []bool{true}}

var boolEnumDesc = Desc{Kind: KObject, Flags: FChecked, Fields: []Field{
	{Key: "flag", Required: true, Type: boolOnlyTrue},
	{Key: "maybe", Type: Desc{Kind: KBool, Flags: FNullable | FChecked | FGDPR, EnumBool: []bool{false}}},
	{Key: "items", Type: Desc{Kind: KArray, Flags: FChecked, Elem: &boolOnlyTrue}},
	{Key: "values", Type: Desc{Kind: KMap, Flags: FChecked, Elem: &boolOnlyTrue}},
}}

func TestBooleanEnum(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ data, want string }{
		{`{"flag":true}`, ""},
		{`{"flag":true,"maybe":false,"items":[true,true],"values":{"a":true}}`, ""},
		{`{"flag":true,"maybe":null}`, ""},
		{`{"flag":false}`, "babelqueue: invalid data: $.flag: value false is not one of the enum values true"},
		{`{"flag":true,"maybe":true}`, "babelqueue: invalid data: $.maybe: is not one of the enum values false (x-gdpr-sensitive: the value is not shown)"},
		{`{"flag":true,"items":[true,false]}`, "babelqueue: invalid data: $.items[1]: value false is not one of the enum values true"},
		{`{"flag":true,"values":{"a":true,"b":false}}`, "babelqueue: invalid data: $.values.b: value false is not one of the enum values true"},
	} {
		var x boolEnumData
		err := Unmarshal([]byte(tc.data), &x, &boolEnumDesc)
		if got := errText(err); got != tc.want {
			t.Errorf("Unmarshal(%s) = %q, want %q", tc.data, got, tc.want)
		}
		if err != nil {
			continue
		}
		// The producer's check (New, Validate) on a value built in Go.
		bad := x
		bad.Flag = false
		if got := errText(Validate(&bad, &boolEnumDesc)); got != "babelqueue: invalid data: $.flag: value false is not one of the enum values true" {
			t.Errorf("Validate(flag false) = %q", got)
		}
	}
	if err := validateWith(&boolOnlyTrue, reflect.ValueOf(true)); err != nil {
		t.Errorf("true: %v", err)
	}
}
