package bqrt

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestParseStrict(t *testing.T) {
	t.Parallel()
	got, err := ParseStrict([]byte(` {"a":[1.0,"é",null,true],"b":{"c":-0}} `))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"a": []any{json.Number("1.0"), "é", nil, true}, "b": map[string]any{"c": json.Number("-0")}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ParseStrict = %#v, want %#v", got, want)
	}
	for _, bad := range []string{`{"a":1,"a":2}`, "\"\xff\"", `"\ud800"`, `1e400`, `[1] [2]`} {
		if _, err := ParseStrict([]byte(bad)); err == nil {
			t.Errorf("ParseStrict(%q) accepted", bad)
		}
	}
	if n, v := ExactInt64("1e2"); n != 100 || v != IntOK {
		t.Errorf("ExactInt64(1e2) = %d, %v", n, v)
	}
}
