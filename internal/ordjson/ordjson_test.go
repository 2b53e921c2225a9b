package ordjson

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

func TestMarshal(t *testing.T) {
	t.Parallel()
	o := New().Set("b", 1).Set("a", []any{"x<y&z", true, nil, int64(-9223372036854775808), 0.5}).Set("b", 2)
	o.Add("m", map[string]any{"z": 1, "y": "\u2028"})
	o.Add("e", New())
	o.Add("s", []string{})
	got, err := Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"b\": 2,\n  \"a\": [\n    \"x<y&z\",\n    true,\n    null,\n    -9223372036854775808,\n    0.5\n  ],\n  \"m\": {\n    \"y\": \"\\u2028\",\n    \"z\": 1\n  },\n  \"e\": {},\n  \"s\": []\n}\n"
	if string(got) != want {
		t.Errorf("Marshal =\n%s\nwant\n%s", got, want)
	}
	if _, err := Marshal(math.NaN()); err == nil {
		t.Error("NaN encoded")
	}
	if _, err := Marshal(struct{}{}); err == nil {
		t.Error("struct encoded")
	}
}

func TestDecodeRoundTrip(t *testing.T) {
	t.Parallel()
	src := "{\n  \"z\": 9223372036854775807,\n  \"a\": [\n    1.0,\n    \"\u00e9\"\n  ]\n}\n"
	v, err := Decode([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	got, err := Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != src {
		t.Errorf("round trip =\n%s\nwant\n%s", got, src)
	}
	w, _ := Decode(got)
	if !Equal(v, w) {
		t.Error("Equal is false for identical documents")
	}
	o := v.(*Object)
	o.Del("z")
	if Equal(v, w) {
		t.Error("Equal is true after Del")
	}
	for _, bad := range []string{"{", "[1,]", "1 2", ""} {
		if _, err := Decode([]byte(bad)); err == nil {
			t.Errorf("Decode(%q) succeeded", bad)
		}
	}
}

// TestWriteStringFastPath checks that the plain-ASCII fast path of writeString writes
// what the encoder path writes, for every single byte and for mixed strings.
func TestWriteStringFastPath(t *testing.T) {
	t.Parallel()
	slow := func(s string) string {
		var b bytes.Buffer
		writeString(&b, s+"\u00e9") // not plain: the encoder path
		return strings.TrimSuffix(b.String(), "\u00e9\"") + "\""
	}
	cases := []string{"", "order_id", "^[A-Z]{2}$", `a"b`, `a\b`, "tab\there", "del\x7f", "<&>", "https://x.y/z?a=1&b=2"}
	for c := 0; c < 0x80; c++ {
		cases = append(cases, "x"+string(rune(c))+"y")
	}
	for _, s := range cases {
		var fast bytes.Buffer
		writeString(&fast, s)
		if got, want := fast.String(), slow(s); got != want {
			t.Errorf("writeString(%q) = %s, want %s", s, got, want)
		}
	}
}
