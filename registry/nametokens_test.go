package registry

import (
	"reflect"
	"testing"
)

// TestASCIINameTokensAsRunes holds the ASCII fast paths to the general ones on every
// string of up to four characters over an alphabet of every class they tell apart
// (lower, upper, digit, each separator, a character outside them): asciiNameTokens
// against runeNameTokens, isSnake against snakeRe.
func TestASCIINameTokensAsRunes(t *testing.T) {
	alphabet := []byte("aZ9_-. A1z!")
	var rec func(prefix []byte, depth int)
	n := 0
	rec = func(prefix []byte, depth int) {
		name := string(prefix)
		n++
		if got, ok := asciiNameTokens(nil, name); ok {
			if want := runeNameTokens(name); !reflect.DeepEqual(got, want) {
				t.Fatalf("asciiNameTokens(%q) = %q, want %q", name, got, want)
			}
		} else if !containsByte(name, '!') {
			t.Fatalf("asciiNameTokens(%q) refused an ASCII name", name)
		}
		if got, want := isSnake(name), snakeRe.MatchString(name); got != want {
			t.Fatalf("isSnake(%q) = %v, want %v", name, got, want)
		}
		if depth == 4 {
			return
		}
		for _, c := range alphabet {
			rec(append(prefix, c), depth+1)
		}
	}
	rec(nil, 0)
	for _, name := range []string{"créé_le", "Ünit_price", "total_price", "HTTPStatus", "a__b", "a_", "_a", "x2y"} {
		if got, ok := asciiNameTokens(nil, name); ok {
			if want := runeNameTokens(name); !reflect.DeepEqual(got, want) {
				t.Errorf("asciiNameTokens(%q) = %q, want %q", name, got, want)
			}
		}
		if got, want := isSnake(name), snakeRe.MatchString(name); got != want {
			t.Errorf("isSnake(%q) = %v, want %v", name, got, want)
		}
	}
	if n < 16000 {
		t.Fatalf("only %d names", n)
	}
}

func containsByte(s string, c byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return true
		}
	}
	return false
}
