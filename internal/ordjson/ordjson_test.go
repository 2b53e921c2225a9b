package ordjson

import (
	"encoding/json"
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

// TestWriteStringFastPath checks that the plain-ASCII fast path of appendString writes
// what the encoder path writes, for every single byte and for mixed strings.
func TestWriteStringFastPath(t *testing.T) {
	t.Parallel()
	slow := func(s string) string {
		b := appendString(nil, s+"\u00e9") // not plain: the encoder path
		return strings.TrimSuffix(string(b), "\u00e9\"") + "\""
	}
	cases := []string{"", "order_id", "^[A-Z]{2}$", `a"b`, `a\b`, "tab\there", "del\x7f", "<&>", "https://x.y/z?a=1&b=2"}
	for c := 0; c < 0x80; c++ {
		cases = append(cases, "x"+string(rune(c))+"y")
	}
	for _, s := range cases {
		if got, want := string(appendString(nil, s)), slow(s); got != want {
			t.Errorf("writeString(%q) = %s, want %s", s, got, want)
		}
	}
}

// TestRawSplice checks that a Raw written by MarshalRaw is spliced in as the tree it
// was written from would be written there, at any depth (beyond the 32 levels of the
// indentation constant too), and that Marshal's results do not share the pooled
// buffer.
func TestRawSplice(t *testing.T) {
	t.Parallel()
	sub := New().Set("a", []any{1, New().Set("b", "c\u2028")}).Set("e", New()).Set("s", []string{"x", "y"})
	raw, err := MarshalRaw(sub)
	if err != nil {
		t.Fatal(err)
	}
	if want := "{\n  \"a\": [\n    1,\n    {\n      \"b\": \"c\\u2028\"\n    }\n  ],\n  \"e\": {},\n  \"s\": [\n    \"x\",\n    \"y\"\n  ]\n}"; string(raw) != want {
		t.Fatalf("MarshalRaw =\n%s\nwant\n%s", raw, want)
	}
	// encoding/json writes the same tree (its keys are sorted already) as the
	// reference, indentation and the \u2028 escape included.
	plain := map[string]any{"a": []any{1, map[string]any{"b": "c\u2028"}}, "e": map[string]any{}, "s": []string{"x", "y"}}
	for _, depth := range []int{0, 1, 2, 31, 32, 33, 70} {
		ref, spliced := any(plain), any(raw)
		for range depth {
			ref, spliced = []any{ref}, []any{spliced}
		}
		want, err := json.MarshalIndent(map[string]any{"k": ref}, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		got, err := Marshal(New().Set("k", spliced))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want)+"\n" {
			t.Errorf("depth %d: spliced =\n%s\nwant\n%s", depth, got, want)
		}
	}
	first, _ := Marshal(New().Set("x", "first"))
	Marshal(New().Set("x", "second"))
	if string(first) != "{\n  \"x\": \"first\"\n}\n" || cap(first) != len(first) {
		t.Errorf("first result changed by the second Marshal or not sized exactly: %q (cap %d)", first, cap(first))
	}
}
