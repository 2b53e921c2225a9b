package registry

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestCoreSchema: plain and tagged scalars resolve as the YAML 1.2 core schema says
// (issue 13, item 7), and spellings YAML 1.1 read otherwise get their finding or hint.
func TestCoreSchema(t *testing.T) {
	t.Parallel()
	cases := []struct {
		yaml, json, diag string
	}{
		{"0777", "777", "f.yaml:1:4: warning BQ040: 0777 is read as 777 (YAML 1.2, decimal); YAML 1.1 tools read it as 511 (octal) | drop the leading zero (777), write 511 in octal as 0o777, or quote \"0777\" if it is text"},
		{"010", "10", "f.yaml:1:4: warning BQ040: 010 is read as 10 (YAML 1.2, decimal); YAML 1.1 tools read it as 8 (octal) | drop the leading zero (10), write 8 in octal as 0o10, or quote \"010\" if it is text"},
		{"-010", "-10", "f.yaml:1:4: warning BQ040: -010 is read as -10 (YAML 1.2, decimal); YAML 1.1 tools read it as -8 (octal) | drop the leading zero (-10), or quote \"-010\" if it is text"},
		{"08", "8", "f.yaml:1:4: warning BQ040: 08 is read as 8 (YAML 1.2, decimal); YAML 1.1 tools read it as the string \"08\" | drop the leading zero (8), or quote \"08\" if it is text"},
		{"!!int 0777", "777", "f.yaml:1:4: warning BQ040: 0777 is read as 777 (YAML 1.2, decimal); YAML 1.1 tools read it as 511 (octal) | drop the leading zero (777), write 511 in octal as 0o777, or quote \"0777\" if it is text"},
		{"07", "7", ""},
		{"00", "0", ""},
		{"0", "0", ""},
		{"+12", "12", ""},
		{"0o17", "15", ""},
		{"0x1F", "31", ""},
		{"-0x1F", `"-0x1F"`, ""},
		{"0b101", `"0b101"`, ""},
		{"1_000", `"1_000"`, ""},
		{"1:30", `"1:30"`, ""},
		{"1e3", "1000", ""},
		{"1.5e-3", "0.0015", ""},
		{".5", "0.5", ""},
		{"5.", "5", ""},
		{"yes", `"yes"`, ""},
		{"on", `"on"`, ""},
		{"N", `"N"`, ""},
		{"True", "true", ""},
		{"FALSE", "false", ""},
		{"~", "null", ""},
		{"Null", "null", ""},
		{"2024-01-01", `"2024-01-01"`, ""},
		{`"0777"`, `"0777"`, ""},
		{"'1e3'", `"1e3"`, ""},
		{"!!str 12", `"12"`, ""},
		{"!!float 12", "12", ""},
		{"!!int 0b101", "", "f.yaml:1:4: error BQ001: !!int \"0b101\" is not a YAML 1.2 integer | YAML 1.2 has no binary integers: write 5"},
		{"!!int 1_000", "", "f.yaml:1:4: error BQ001: !!int \"1_000\" is not a YAML 1.2 integer | YAML 1.2 has no digit separators: write 1000"},
		{"!!int 1.5", "", "f.yaml:1:4: error BQ001: !!int \"1.5\" is not a YAML 1.2 integer | write a decimal integer (12), octal with 0o (0o14) or hexadecimal with 0x (0xC)"},
		{"!!float 0x10", "", "f.yaml:1:4: error BQ001: !!float \"0x10\" is not a YAML 1.2 number | write a decimal number (12, 1.5, 2.5e-3)"},
		{"!!bool yes", "", "f.yaml:1:4: error BQ001: !!bool \"yes\" is not a YAML 1.2 boolean | YAML 1.2 booleans are true and false only: write true"},
		{"!!null nil", "", "f.yaml:1:4: error BQ001: !!null \"nil\" is not a YAML 1.2 null | write null, ~ or nothing"},
	}
	for _, c := range cases {
		root, ds := parseFile("f.yaml", []byte("x: "+c.yaml+"\n"))
		got := ""
		if e := root.get("x"); e != nil {
			b, _ := json.Marshal(e.val.toJSON())
			got = string(b)
		}
		var diags []string
		for _, d := range ds {
			diags = append(diags, d.String()+" | "+d.Hint)
		}
		if got != c.json || strings.Join(diags, "\n") != c.diag {
			t.Errorf("x: %s\n got %s, %q\nwant %s, %q", c.yaml, got, diags, c.json, c.diag)
		}
	}
}

func TestYAML11Reading(t *testing.T) {
	t.Parallel()
	cases := map[string]yaml11{
		"yes":      {"boolean", "true", "YAML 1.2 booleans are true and false only"},
		"Off":      {"boolean", "false", "YAML 1.2 booleans are true and false only"},
		"true":     {"boolean", "true", ""},
		"0b1010":   {"integer", "10", "YAML 1.2 has no binary integers"},
		"-0b11":    {"integer", "-3", "YAML 1.2 has no binary integers"},
		"1_000":    {"integer", "1000", "YAML 1.2 has no digit separators"},
		"0777":     {"integer", "511", "YAML 1.1 read a leading 0 as octal; YAML 1.2 reads decimal (0o for octal)"},
		"0x_1F":    {"integer", "31", "YAML 1.2 has no digit separators"},
		"1:30":     {"integer", "90", "YAML 1.2 has no base-60 numbers"},
		"-1:30:00": {"integer", "-5400", "YAML 1.2 has no base-60 numbers"},
		"1:30.5":   {"number", "90.5", "YAML 1.2 has no base-60 numbers"},
		"1_000.25": {"number", "1000.25", "YAML 1.2 has no digit separators"},
		"1.5":      {"number", "1.5", ""},
		"1e3":      {"string", "1e3", ""},
		"0o17":     {"string", "0o17", ""},
		"hello":    {"string", "hello", ""},
	}
	for in, want := range cases {
		if got, ok := yaml11Reading(in); !ok || got != want {
			t.Errorf("yaml11Reading(%q) = %+v, %v; want %+v", in, got, ok, want)
		}
	}
}

// TestCorePlainTagFilter: corePlainTag looks coreSpecial up only for a text that is
// empty or starts with one of "~nNtTfF.+-"; every key of coreSpecial must, or its
// scalars would be read as strings.
func TestCorePlainTagFilter(t *testing.T) {
	for k, tag := range coreSpecial {
		if got := corePlainTag(k); got != tag {
			t.Errorf("corePlainTag(%q) = %s, want %s", k, got, tag)
		}
	}
	for _, v := range []string{"yes", "Widget", "0", "12", "1.5", "-3", "+.5", "n", "~x"} {
		if got := corePlainTag(v); got == "!!null" || got == "!!bool" {
			t.Errorf("corePlainTag(%q) = %s", v, got)
		}
	}
}
