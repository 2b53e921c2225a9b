package termtext

import (
	"strconv"
	"strings"
	"testing"
)

func TestName(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{"registry/orders.yaml", "registry/orders.yaml"},
		{"a b/ü-日本.yaml", "a b/ü-日本.yaml"},
		{"x\n" + "y.yaml:1:1: error BQ001: forged", `"x\ny.yaml:1:1: error BQ001: forged"`},
		{"\x1b]0;owned\a.yaml", `"\x1b]0;owned\a.yaml"`},
		{"\x1b[31mred.yaml", `"\x1b[31mred.yaml"`},
		{"\u202elmay.txt", `"\u202elmay.txt"`},
		{"\u0085next.yaml", `"\u0085next.yaml"`},
		{"bad\xff.yaml", `"bad\xff.yaml"`},
		{"tab\t.yaml", `"tab\t.yaml"`},
		{"", ""},
	} {
		if got := Name(c.in); got != c.want {
			t.Errorf("Name(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}

func TestLine(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{"registry: a.yaml: not a regular file", "registry: a.yaml: not a regular file"},
		{"open x\ny: no such file", `open x\ny: no such file`},
		{"open \x1b]0;t\a: denied", `open \x1b]0;t\a: denied`},
		{"a\tb", "a\tb"},
		{"\u202e", `\u202e`},
		{"bad\xff\xfe", `bad\xff\xfe`},
		{"\r", `\r`},
		{"é\x7f", `é\x7f`},
		{"1\u202f×\u202f10³, a\u00a0b", "1\u202f×\u202f10³, a\u00a0b"},
		{"\u2028\u2029", `\u2028\u2029`},
	} {
		if got := Line(c.in); got != c.want {
			t.Errorf("Line(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}

// FuzzName: whatever the name, Name and Line print it on one line without a control
// character, and Name keeps it recoverable (strconv.Unquote gives it back).
func FuzzName(f *testing.F) {
	for _, s := range []string{"a.yaml", "x\ny", "\x1b]0;t\a", "\u202e", "bad\xff", "\u0085", "\"quoted\".yaml", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, out := range []string{Name(s), Line(s)} {
			if !Plain(out) && !plainExceptTab(out) {
				t.Fatalf("%q: output %q is not plain", s, out)
			}
		}
		if n := Name(s); n != s {
			if back, err := strconv.Unquote(n); err != nil || back != s {
				t.Fatalf("Name(%q) = %s does not unquote to it (%v)", s, n, err)
			}
		}
	})
}

func plainExceptTab(s string) bool { return Plain(strings.ReplaceAll(s, "\t", " ")) }
