package bqrt

import (
	"encoding/base64"
	"errors"
	"strings"
	"testing"
)

// hexCipher is a deterministic test cipher: "c:" and the plaintext in base64.
type hexCipher struct{}

func (hexCipher) Encrypt(p []byte) (string, error) {
	return "c:" + base64.StdEncoding.EncodeToString(p), nil
}

func (hexCipher) Decrypt(s string) ([]byte, error) {
	rest, ok := strings.CutPrefix(s, "c:")
	if !ok {
		return nil, errors.New("not mine")
	}
	return base64.StdEncoding.DecodeString(rest)
}

func c64(p string) string { s, _ := hexCipher{}.Encrypt([]byte(p)); return s }

func TestProtectData(t *testing.T) {
	t.Parallel()
	const data = `{"a":{"b":[1,{"c":"x"}],"d":null},"e":[{"f":"y","g":2},{"g":3},7,{"f":[true]}],"h":"z","i":{"j":1}}`
	tests := []struct {
		paths []string
		want  string
	}{
		{nil, data},
		// Absent keys, values of another shape and the root are skipped.
		{[]string{"zz", "h.x", "a[]", "i.j.k", "h[]", "e[].g.x"}, data},
		{[]string{"h"}, strings.Replace(data, `"h":"z"`, `"h":"`+c64(`"z"`)+`"`, 1)},
		{[]string{"a.d"}, strings.Replace(data, `"d":null`, `"d":"`+c64(`null`)+`"`, 1)},
		{[]string{"e[].f"}, strings.NewReplacer(`"f":"y"`, `"f":"`+c64(`"y"`)+`"`, `"f":[true]`, `"f":"`+c64(`[true]`)+`"`).Replace(data)},
		{[]string{"e[]"}, strings.Replace(data, `[{"f":"y","g":2},{"g":3},7,{"f":[true]}]`,
			`["`+c64(`{"f":"y","g":2}`)+`","`+c64(`{"g":3}`)+`","`+c64(`7`)+`","`+c64(`{"f":[true]}`)+`"]`, 1)},
		// An outer value is protected whole; the path inside it then meets a string.
		{[]string{"a", "a.b[]"}, strings.Replace(data, `{"b":[1,{"c":"x"}],"d":null}`, `"`+c64(`{"b":[1,{"c":"x"}],"d":null}`)+`"`, 1)},
		{[]string{"a.b[].c"}, strings.Replace(data, `{"c":"x"}`, `{"c":"`+c64(`"x"`)+`"}`, 1)},
	}
	for _, tt := range tests {
		const frame = `{"job":"u","data":`
		got, err := protectData([]byte(frame+data), len(frame), tt.paths, hexCipher{})
		if err != nil || string(got) != frame+tt.want {
			t.Errorf("protectData(%q):\n got %s (%v)\nwant %s", tt.paths, got, err, frame+tt.want)
			continue
		}
		// unprotectData restores it, whatever the paths protected.
		tree, err := parseJSON(got[len(frame):])
		if err != nil {
			t.Fatal(err)
		}
		if err := unprotectData(tree, nil, filterInside(tt.paths), hexCipher{}); err != nil || string(appendTree(nil, tree)) != data {
			t.Errorf("unprotectData(%q): %s (%v)", tt.paths, appendTree(nil, tree), err)
		}
	}
	boom := errors.New("boom")
	if _, err := protectData([]byte(data), 0, []string{"e[].g"}, failCipher{boom}); !errors.Is(err, boom) || err.Error() != "protect $.e[0].g: boom" {
		t.Errorf("cipher error: %v", err)
	}
}

// filterInside drops the paths inside another one, as bqgen does (pii.Protected).
func filterInside(paths []string) []string {
	var out []string
	for _, p := range paths {
		inside := false
		for _, q := range out {
			if strings.HasPrefix(p, q+".") || strings.HasPrefix(p, q+"[]") {
				inside = true
			}
		}
		if !inside {
			out = append(out, p)
		}
	}
	return out
}

type failCipher struct{ err error }

func (c failCipher) Encrypt([]byte) (string, error) { return "", c.err }
func (c failCipher) Decrypt(string) ([]byte, error) { return nil, c.err }

func TestAtPath(t *testing.T) {
	t.Parallel()
	tests := []struct {
		at, path string
		want     bool
	}{
		{"$.email", "email", true},
		{"$.email.x", "email", false},
		{"$.emails", "email", false},
		{"$.lines[3].sku", "lines[].sku", true},
		{"$.lines[3].sku[0]", "lines[].sku", false},
		{"$.lines[3]", "lines[].sku", false},
		{"$.lines.sku", "lines[].sku", false},
		{"$.lines[].sku", "lines[].sku", false},
		{"$.tags[12]", "tags[]", true},
		{"$.tags[1][2]", "tags[]", false},
		{`$["a b"].c`, "a b.c", true},
		{`$["a b"]`, "a b.c", false},
		{"$", "a", false},
		{"", "a", false},
	}
	for _, tt := range tests {
		if got := atPath(tt.at, splitPath(tt.path)); got != tt.want {
			t.Errorf("atPath(%q, %q) = %v", tt.at, tt.path, got)
		}
	}
}

// A decrypted value that takes the data past the depth limit is invalid data.
func TestUnprotectDepth(t *testing.T) {
	t.Parallel()
	desc := Desc{Kind: KObject, Fields: []Field{{Key: "tags", Type: Desc{Kind: KArray, Elem: &Desc{Kind: KString}}}}}
	deep := strings.Repeat("[", maxJSONDepth-1) + strings.Repeat("]", maxJSONDepth-1)
	body := `{"job":"u","trace_id":"t","data":{"tags":"` + c64(deep) + `"},"meta":{"schema_version":1}}`
	var x struct{ Tags []string }
	var h Header
	err := Decode([]byte(body), "u", &x, &desc, []string{"tags"}, hexCipher{}, &h)
	if !errors.Is(err, ErrInvalidData) || err.Error() != "babelqueue: invalid data: $: decrypted data: nesting deeper than 128" {
		t.Errorf("Decode = %v", err)
	}
}
