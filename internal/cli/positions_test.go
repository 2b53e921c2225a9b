package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/babelqueue/bqgen/registry"
)

// TestListElementPositions: a finding about one element of a list (an example, an enum
// value, a `required`, `consumers` or lint `ignore` entry) points at that element's
// line and column, not at its field's or its list's, in every output format (issue
// 20, item 17). Each case writes the list in block style, so that every element has a
// line of its own, and lists every finding of its registry as "line:col rule"; a
// value listed twice points at the second, with the first as its related position.
func TestListElementPositions(t *testing.T) {
	t.Parallel()
	const head = "version: 1\nmessages:\n  urn:babel:orders:created:\n    data:\n      properties:\n"
	tests := []struct {
		name    string
		src     string
		want    []string // every finding, "line:col rule", in output order
		related string   // "line:col" of the first finding's related position, if any
	}{
		{"BQ034 invalid example",
			head + "        qty:\n          type: integer\n          maximum: 9\n          examples:\n            - 3\n            - 10\n",
			[]string{"11:15 BQ034"}, ""},
		{"BQ034 invalid examples in a flow list",
			head + "        qty: {type: integer, maximum: 9, examples: [30, 3, 10]}\n",
			[]string{"6:53 BQ034", "6:60 BQ034"}, ""},
		{"BQ024 boolean example",
			head + "        gift:\n          type: boolean\n          examples:\n            - true\n            - \"yes\"\n",
			[]string{"10:15 BQ024"}, ""},
		{"BQ025 example in seconds",
			head + "        sent:\n          type: timestamp\n          examples:\n            - 1700000000000\n            - 1700000000\n",
			[]string{"10:15 BQ025"}, ""},
		{"BQ002 enum value twice",
			head + "        c:\n          type: string\n          enum:\n            - a\n            - b\n            - a\n",
			[]string{"11:15 BQ002"}, "9:15"},
		{"BQ002 required entry twice",
			"version: 1\nmessages:\n  urn:babel:orders:created:\n    data:\n      required:\n        - a\n        - a\n      properties:\n        a: {type: string}\n",
			[]string{"7:11 BQ002"}, "6:11"},
		{"BQ002 consumers entry twice",
			"version: 1\nconsumers:\n  - go\n  - node\n  - go\nmessages: {}\n",
			[]string{"5:5 BQ002"}, "3:5"},
		{"BQ002 file lint ignore entry twice",
			"version: 1\nlint:\n  ignore:\n    - BQ031\n    - BQ031\n  reason: legacy\nmessages: {}\n",
			[]string{"5:7 BQ002"}, "4:7"},
		{"BQ002 message lint ignore entry twice",
			"version: 1\nmessages:\n  urn:babel:orders:created:\n    lint:\n      ignore:\n        - BQ032\n        - BQ031\n        - BQ032\n      reason: legacy\n    data: {additionalProperties: false}\n",
			[]string{"8:11 BQ002", "10:12 BQ032"}, "6:11"}, // the lint block is left out
		{"BQ030 enum values with one Go name",
			head + "        c:\n          type: string\n          enum:\n            - a\n            - b\n            - A\n",
			[]string{"11:15 BQ030"}, "9:15"},
		{"BQ030 enum value renamed onto another",
			head + "        c:\n          type: string\n          enum:\n            - a\n            - b\n          go:\n            enum: {a: Same, b: Same}\n",
			[]string{"10:15 BQ030"}, "9:15"},
		{"BQ041 enum value the field rejects",
			head + "        c:\n          type: string\n          maxLength: 1\n          enum:\n            - a\n            - bb\n",
			[]string{"11:15 BQ041"}, ""},
		{"BQ002 enum value of the wrong type",
			head + "        c:\n          type: string\n          enum:\n            - a\n            - 3\n",
			[]string{"10:15 BQ002"}, ""},
		{"BQ002 enum value no value type",
			head + "        c:\n          type: string\n          enum:\n            - a\n            - [b]\n",
			[]string{"10:15 BQ002"}, ""},
		{"BQ024 boolean enum value",
			head + "        c:\n          type: boolean\n          enum:\n            - true\n            - 1\n",
			[]string{"10:15 BQ024"}, ""},
		{"BQ021 enum value beyond the integer",
			head + "        c:\n          type: integer\n          format: int32\n          enum:\n            - 1\n            - 3000000000\n",
			[]string{"11:15 BQ021"}, ""},
		{"BQ023 enum value not finite",
			head + "        c:\n          type: number\n          enum:\n            - 1.5\n            - .inf\n",
			[]string{"10:15 BQ023"}, ""},
		{"BQ040 enum value with a leading zero",
			head + "        c:\n          type: integer\n          minimum: 0\n          maximum: 99\n          enum:\n            - 1\n            - 012\n",
			[]string{"12:15 BQ040"}, ""},
		{"BQ036 invisible character in an enum value",
			head + "        c:\n          type: string\n          enum:\n            - a\n            - \"b\\u202e\"\n",
			[]string{"10:15 BQ036"}, ""},
		{"BQ002 required entry naming no property",
			head + "        c:\n          type: object\n          properties: {a: {type: string}}\n          required:\n            - a\n            - b\n",
			[]string{"11:15 BQ002"}, ""},
		{"BQ002 required entry of the wrong type",
			head + "        c:\n          type: object\n          properties: {a: {type: string}}\n          required:\n            - a\n            - 3\n",
			[]string{"11:15 BQ002"}, ""},
		{"BQ002 consumers entry unknown",
			"version: 1\nconsumers:\n  - go\n  - rust\nmessages: {}\n",
			[]string{"4:5 BQ002"}, ""},
		{"BQ002 lint ignore entry not a rule id",
			"version: 1\nmessages:\n  urn:babel:orders:created:\n    lint:\n      ignore:\n        - BQ032\n        - X1\n      reason: legacy\n    data: {additionalProperties: false}\n",
			[]string{"7:11 BQ002"}, ""},
		{"BQ005 lint ignore entries that silence nothing",
			"version: 1\nlint:\n  ignore:\n    - BQ031\n    - BQ032\n  reason: legacy\nmessages: {}\n",
			[]string{"4:7 BQ005", "5:7 BQ005"}, ""},
		{"BQ005 lint ignore entry that cannot be silenced",
			"version: 1\nmessages:\n  urn:babel:orders:created:\n    lint:\n      ignore:\n        - BQ032\n        - BQ013\n      reason: legacy\n    data: {additionalProperties: false}\n",
			[]string{"7:11 BQ005"}, ""},
	}
	textRe := regexp.MustCompile(`(?m)^r\.yaml:(\d+):(\d+): (?:error|warning) (BQ\d{3}): `)
	githubRe := regexp.MustCompile(`(?m)^::(?:error|warning) file=r\.yaml,line=(\d+),col=(\d+),title=(BQ\d{3})::`)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "r.yaml"), []byte(tc.src), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, format := range []string{"text", "json", "github"} {
				code, out, errOut := runCheckIn(t, dir, "check", "--format", format, "-r", "r.yaml")
				if code != ExitFindings && code != ExitOK || errOut != "" {
					t.Fatalf("--format %s: exit %d, stderr %q", format, code, errOut)
				}
				var got []string
				switch format {
				case "json":
					var ds []jsonDiagnostic
					if err := json.Unmarshal([]byte(out), &ds); err != nil {
						t.Fatalf("--format json: %v\n%s", err, out)
					}
					for _, d := range ds {
						got = append(got, strconv.Itoa(d.Line)+":"+strconv.Itoa(d.Column)+" "+d.Rule)
					}
				default:
					re := textRe
					if format == "github" {
						re = githubRe
					}
					for _, m := range re.FindAllStringSubmatch(out, -1) {
						got = append(got, m[1]+":"+m[2]+" "+m[3])
					}
				}
				if !reflect.DeepEqual(got, tc.want) {
					t.Errorf("--format %s: findings at %q, want %q:\n%s", format, got, tc.want, out)
				}
			}
			if tc.related == "" {
				return
			}
			_, ds, err := registry.LoadFiles(context.Background(), map[string][]byte{"r.yaml": []byte(tc.src)})
			if err != nil || len(ds) == 0 {
				t.Fatalf("LoadFiles: %v, %d diagnostics", err, len(ds))
			}
			var rel []string
			for _, p := range ds[0].Related {
				rel = append(rel, strconv.Itoa(p.Line)+":"+strconv.Itoa(p.Column))
			}
			if !reflect.DeepEqual(rel, []string{tc.related}) {
				t.Errorf("related positions %q, want [%s]", rel, tc.related)
			}
		})
	}
}

// runCheckIn runs bqgen with args in the working directory dir (file names in args and
// in the output are relative to it).
func runCheckIn(t *testing.T, dir string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	for i, a := range args {
		if a == "r.yaml" {
			args[i] = filepath.Join(dir, a)
		}
	}
	code, stdout, stderr = runCheck(t, args...)
	rel := func(s string) string { return strings.ReplaceAll(s, dir+string(filepath.Separator), "") }
	return code, rel(stdout), rel(stderr)
}
