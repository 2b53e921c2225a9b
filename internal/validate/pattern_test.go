package validate

import "testing"

// TestPatternsAreECMA: bqgen validate reads pattern as ECMA-262 (docs/patterns.md), as
// ajv does: `.` rejects a carriage return and U+2028, `\S` rejects U+00A0 and U+3000.
func TestPatternsAreECMA(t *testing.T) {
	t.Parallel()
	v := messageValidator(t, "        line: {type: string, pattern: \"^.+$\"}\n"+
		"        token: {type: string, pattern: \"^\\\\S+$\"}\n")
	for _, c := range []struct {
		body string
		ok   bool
	}{
		{`{"line": "a b", "token": "ab"}`, true},
		{`{"line": "a\u00a0b"}`, true},
		{`{"line": "a\rb"}`, false},
		{`{"line": "a\u2028b"}`, false},
		{`{"token": "a\u00a0b"}`, false},
		{`{"token": "a\u3000b"}`, false},
		{`{"token": "a\u200bb"}`, true},
	} {
		ps, err := v.Data("urn:babel:t:happened", []byte(c.body))
		if err != nil {
			t.Fatal(err)
		}
		if (len(ps) == 0) != c.ok {
			t.Errorf("%s: problems %v, want valid %v", c.body, ps, c.ok)
		}
	}
}
