package registry

import (
	"strings"
	"testing"
)

// TestURNShape: urnShape accepts exactly what urnRe matches, on every string of up to
// five characters after the prefix from an alphabet of the characters that matter
// (and on the URNs of the other tests of this file).
func TestURNShape(t *testing.T) {
	t.Parallel()
	alphabet := []string{"a", "Z", "0", "-", "_", ".", ":", "é", "\n"}
	var walk func(prefix string, depth int)
	n, accepted := 0, 0
	walk = func(s string, depth int) {
		for _, p := range []string{"urn:babel:", "urn:babel:c:", "urn:babel:c:e.", "urn:bab:", ""} {
			u := p + s
			n++
			want := urnRe.MatchString(u)
			if want {
				accepted++
			}
			if got := urnShape(u); got != want {
				t.Fatalf("urnShape(%q) = %v, urnRe matches: %v", u, got, want)
			}
		}
		if depth == 0 {
			return
		}
		for _, c := range alphabet {
			walk(s+c, depth-1)
		}
	}
	walk("", 5)
	for _, u := range []string{"urn:babel:orders:order.created.v2", "urn:babel:a-b:c_d.e-f", "urn:babel::x", "urn:babel:x:", "urn:babel:x:y.", "urn:babel:x:.y", "urn:babel:x:y..z", "urn:babel:x:y:z", "URN:babel:x:y", strings.Repeat("urn:babel:x:y", 2)} {
		if got, want := urnShape(u), urnRe.MatchString(u); got != want {
			t.Errorf("urnShape(%q) = %v, urnRe matches: %v", u, got, want)
		}
	}
	if accepted == 0 || accepted == n {
		t.Fatalf("%d of %d accepted: the walk does not tell the two apart", accepted, n)
	}
}
