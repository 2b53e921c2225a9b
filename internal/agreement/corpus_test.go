package agreement

import (
	"bytes"
	"encoding/json"
	"regexp"
	"testing"
)

func TestAjvDomain(t *testing.T) {
	for in, want := range map[string]bool{
		`{"a":1,"b":[1.5,-0,1e2,"x"]}`: true,
		`9007199254740992`:             true, // 2^53
		`9007199254740993`:             false,
		`-9007199254740992`:            true,
		`9223372036854775808`:          false, // 2^63: a double, but beyond 2^53
		`0.1`:                          false, // not a dyadic fraction
		`0.1000000000000000055511151231257827021181583404541015625`: true, // the double 0.1
		`1.49999999999999999999`:                                    false,
		`1e-400`:                                                    false,
		`{"x":"9007199254740993"}`:                                  true, // a string, not a number
		`[0.5,0.25,0.125]`:                                          true,
	} {
		if got := AjvDomain([]byte(in)); got != want {
			t.Errorf("AjvDomain(%s) = %v, want %v", in, got, want)
		}
	}
}

func TestPatternSample(t *testing.T) {
	for _, p := range []string{"^[A-Z]{2}$", "^[A-Z0-9-]{3,32}$", "^[0-9]{4}$", "^[a-z]{2}(-[A-Z]{2})?$", "^[a-z]+$", "^(?:ab|c)*x$"} {
		re := regexp.MustCompile(p)
		for extra := 0; extra < 5; extra++ {
			s, ok := patternSample(p, extra)
			if !ok || !re.MatchString(s) {
				t.Errorf("patternSample(%q, %d) = %q, %v: no match", p, extra, s, ok)
			}
		}
	}
	if s, _ := patternOverflow("^[A-Z]{3}$", 1); s != "AAAA" {
		t.Errorf("patternOverflow = %q", s)
	}
}

func TestExactText(t *testing.T) {
	for _, f := range []float64{0.3, 1.5, -90.00000000000001, 1e308, 5e-324, 1e21, 123} {
		s := exactText(f)
		if !exactDouble(s) {
			t.Errorf("exactText(%v) = %s is not exact", f, s)
		}
		var back float64
		if err := json.Unmarshal([]byte(s), &back); err != nil || back != f {
			t.Errorf("exactText(%v) = %s reads back as %v (%v)", f, s, back, err)
		}
	}
}

// TestCorpusDeterministic checks that the corpus is the same on every run and that
// every instance is well-formed JSON with a unique key.
func TestCorpusDeterministic(t *testing.T) {
	for _, s := range registries(t) {
		a, err := Corpus(s.name, s.reg)
		if err != nil {
			t.Fatal(err)
		}
		b, err := Corpus(s.name, s.reg)
		if err != nil {
			t.Fatal(err)
		}
		if len(a) != len(b) {
			t.Fatalf("%s: %d then %d instances", s.name, len(a), len(b))
		}
		keys := map[string]bool{}
		for i := range a {
			if a[i].Key() != b[i].Key() || !bytes.Equal(a[i].JSON, b[i].JSON) || a[i].Expect != b[i].Expect {
				t.Fatalf("%s: instance %d differs: %s / %s", s.name, i, a[i].Key(), b[i].Key())
			}
			if !json.Valid(a[i].JSON) {
				t.Errorf("%s: not JSON: %s", a[i].Key(), a[i].JSON)
			}
			if keys[a[i].Key()] {
				t.Errorf("duplicate key %s", a[i].Key())
			}
			keys[a[i].Key()] = true
		}
	}
}

// TestQuoteAsEncodingJSON: quote (whose printable-ASCII strings skip the Encoder) writes
// every string as encoding/json's Encoder does without HTML escaping: each single byte,
// each pair of ASCII bytes, and strings with escapes, HTML characters, U+2028, invalid
// UTF-8 and other code points.
func TestQuoteAsEncodingJSON(t *testing.T) {
	cases := []string{"", "plain key", `a"b`, `a\b`, "<&>", "tab\there", "\u2028\u2029", "\xff\xfe", "é", "😀", "a\x7fb", "\x00"}
	for c := 0; c < 256; c++ {
		cases = append(cases, string(rune(c)), string([]byte{byte(c)}), "x"+string([]byte{byte(c)})+"y")
	}
	for c := 0; c < 128; c++ {
		for d := 0; d < 128; d++ {
			cases = append(cases, string([]byte{byte(c), byte(d)}))
		}
	}
	for _, s := range cases {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		if got := quote(s); !bytes.Equal(got, bytes.TrimSuffix(want.Bytes(), []byte("\n"))) {
			t.Errorf("quote(%q) = %s, want %s", s, got, want.Bytes())
		}
	}
}
