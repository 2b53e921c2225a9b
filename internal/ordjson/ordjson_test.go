package ordjson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
	"unicode/utf16"
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

// encoderString is how appendString wrote every string that is not plain ASCII up to
// commit 4b066b2: through encoding/json, then invisible non-ASCII characters escaped.
// It is the reference appendString is held to.
func encoderString(s string) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	var b strings.Builder
	for _, r := range strings.TrimSuffix(buf.String(), "\n") {
		if r >= 0x80 && (unicode.IsSpace(r) || unicode.In(r, unicode.Cc, unicode.Cf, unicode.Z)) {
			for _, u := range utf16.Encode([]rune{r}) {
				fmt.Fprintf(&b, "\\u%04x", u)
			}
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// TestAppendString checks appendString against encoderString: for every code point
// below U+3000, every invisible one and one in 97 of the others (surrogates as Go
// encodes them: U+FFFD), alone and between letters, for invalid UTF-8, and for 20,000
// random strings of such pieces.
func TestAppendString(t *testing.T) {
	t.Parallel()
	cases := []string{"", "order_id", "^[A-Z]{2}$", `a"b`, `a\b`, "\\n$", "tab\there", "del\x7f", "<&>",
		"https://x.y/z?a=1&b=2", "\xff", "a\xc3", "\xed\xa0\x80", "\ufffd", "±(2^53 − 1)", "\u2028\u2029\u00a0\u200b\U000e0001"}
	for r := rune(0); r <= unicode.MaxRune; r++ {
		// All of the first 12,288, every invisible one, and a sample of the rest.
		if r < 0x3000 || r%97 == 0 || unicode.IsSpace(r) || unicode.In(r, unicode.Cc, unicode.Cf, unicode.Z) {
			cases = append(cases, string(r), "x"+string(r)+"y")
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"a", "Z", "\"", "\\", "\n", "\x00", "\x1f", "\x7f", "é", "\u00a0", "\u2028", "\u200b", "\U0001f600", "\U000e0001", "\xff", "\xe2\x80"}
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		cases = append(cases, b.String())
	}
	for _, s := range cases {
		if got, want := string(appendString(nil, s)), encoderString(s); got != want {
			t.Fatalf("appendString(%q) = %s, want %s", s, got, want)
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

// TestPlainASCII checks the eight-bytes-at-a-time test of plainASCII against a byte
// loop: every byte value at every position of strings of 1 to 17 bytes.
func TestPlainASCII(t *testing.T) {
	t.Parallel()
	naive := func(s string) bool {
		for i := 0; i < len(s); i++ {
			if c := s[i]; c < 0x20 || c >= 0x80 || c == '"' || c == '\\' {
				return false
			}
		}
		return true
	}
	for n := 1; n <= 17; n++ {
		for pos := 0; pos < n; pos++ {
			for c := 0; c < 256; c++ {
				b := []byte(strings.Repeat("a~ ", 6)[:n])
				b[pos] = byte(c)
				if got, want := plainASCII(string(b)), naive(string(b)); got != want {
					t.Fatalf("plainASCII(%q) = %v, want %v", b, got, want)
				}
			}
		}
	}
}

// TestArena checks that the Objects of an Arena keep their keys apart when they fill
// and outgrow their room, across blocks (one larger than a block too), and write as
// Objects from New do, before and after a Reset.
func TestArena(t *testing.T) {
	t.Parallel()
	var a Arena
	for round := range 3 {
		var got, want []*Object
		for i := range 300 + 100*round {
			room := i % 7
			if i == 150 {
				room = 300
			}
			o, w := a.New(room), New()
			for k := range room + i%3 { // up to two keys past the room
				key := fmt.Sprintf("k%d.%d.%d", round, i, k)
				o.Set(key, i)
				w.Set(key, i)
			}
			got, want = append(got, o), append(want, w)
		}
		for i := range got {
			g, err := Marshal(got[i])
			if err != nil {
				t.Fatal(err)
			}
			w, _ := Marshal(want[i])
			if !bytes.Equal(g, w) {
				t.Fatalf("round %d: object %d of the arena =\n%s\nwant\n%s", round, i, g, w)
			}
		}
		a.Reset()
	}
}

// TestAppend: Append writes what Marshal writes after the bytes it is given, and on an
// error returns them unchanged.
func TestAppend(t *testing.T) {
	t.Parallel()
	o := New().Set("a", []any{1, "x"}).Set("r", Raw("{\n  \"k\": true\n}"))
	want, err := Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Append([]byte("prefix"), o)
	if err != nil || string(got) != "prefix"+string(want) {
		t.Errorf("Append = %q, %v; want %q", got, err, "prefix"+string(want))
	}
	if string(want) != "{\n  \"a\": [\n    1,\n    \"x\"\n  ],\n  \"r\": {\n    \"k\": true\n  }\n}\n" {
		t.Errorf("Marshal = %q", want)
	}
	b, err := Append([]byte("keep"), New().Set("bad", math.Inf(1)))
	if err == nil || string(b) != "keep" {
		t.Errorf("Append(+Inf) = %q, %v; want keep and an error", b, err)
	}
}
