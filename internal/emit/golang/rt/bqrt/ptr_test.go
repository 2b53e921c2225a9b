package bqrt

import (
	"reflect"
	"testing"
)

// chain is a type that contains itself through a required nullable field: the
// generated code holds it as *chain, nil for null (FPtr).
type chain struct {
	Value int64
	Next  *chain
	Label *string // optional: a pointer too, nil for absent
}

var chainDesc Desc

func init() {
	chainDesc = Desc{Kind: KObject, Flags: FChecked | FClosed, Fields: []Field{
		{Key: "value", Required: true, Type: Desc{Kind: KInt64, Flags: FChecked | FMin | FMax, Lo: 0, Hi: 100}},
		{Key: "next", Required: true, Type: Desc{Kind: KDesc, Flags: FPtr | FChecked | FGDPR, Elem: &chainDesc}},
		{Key: "label", Type: Desc{Kind: KString}},
	}}
}

// TestPointerField: a required nullable *T field decodes null to nil and a value to
// a new T, in the tree and the stream decoder alike; it encodes back byte for byte,
// is validated inside, is required, and logs redacted.
func TestPointerField(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		`{"value":1,"next":null}`,
		`{"value":1,"next":{"value":2,"next":{"value":3,"next":null,"label":"c"}},"label":"a"}`,
	} {
		var x chain
		if err := Unmarshal([]byte(in), &x, &chainDesc); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		out, err := Marshal(&x, &chainDesc)
		if err != nil || string(out) != in {
			t.Errorf("round trip %s: %s, %v", in, out, err)
		}
		// The tree decoder gives the same value as the stream decoder.
		var y chain
		j, err := parseJSON([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		d := &decoder{}
		decodeValue(d, &chainDesc, reflect.ValueOf(&y).Elem(), j)
		if len(d.errs) > 0 || !reflect.DeepEqual(x, y) {
			t.Errorf("%s: tree %+v (%v), stream %+v", in, y, d.errs, x)
		}
	}
	var x chain
	if err := Unmarshal([]byte(`{"value":1,"next":{"value":200,"next":null}}`), &x, &chainDesc); err == nil ||
		err.Error() != "babelqueue: invalid data: $.next.value: must be at most 100 (x-gdpr-sensitive: the value is not shown)" {
		t.Errorf("bound inside: %v", err)
	}
	if err := Unmarshal([]byte(`{"value":1}`), &x, &chainDesc); err == nil ||
		err.Error() != "babelqueue: invalid data: $.next: required property missing" {
		t.Errorf("required: %v", err)
	}
	v := chain{Value: 1, Next: &chain{Value: 101}}
	if err := Validate(&v, &chainDesc); err == nil || err.Error() != "babelqueue: invalid data: $.next.value: must be at most 100 (x-gdpr-sensitive: the value is not shown)" {
		t.Errorf("Validate: %v", err)
	}
	if got := String(&chain{Value: 1, Next: &chain{Value: 2}}, &chainDesc); got != `{"value":1,"next":"***"}` {
		t.Errorf("String = %s", got)
	}
	if got := String(&chain{Value: 1}, &chainDesc); got != `{"value":1,"next":null}` {
		t.Errorf("String with null = %s", got)
	}
}
