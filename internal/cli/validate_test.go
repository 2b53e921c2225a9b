package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestValidateFormats: validate --format text|json|github, like check and diff (issue
// 13, item 12), over a file with one valid envelope and a stream with two invalid
// messages.
func TestValidateFormats(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good, stream := filepath.Join(dir, "good.json"), filepath.Join(dir, "dlq.jsonl")
	body, err := os.ReadFile("../../examples/events/testdata/envelopes/dead_lettered.json")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(good, body, 0o644)
	os.WriteFile(stream, []byte("\n{\"job\":\"urn:babel:orders:created\",\"trace_id\":\" \",\"attempts\":0}\n{\"a\":1e400,\n"), 0o644)
	args := []string{"validate", "-r", exampleRegistry, good, stream}

	code, out, errOut := run(t, append(args, "--format", "text")...)
	want := good + ": valid\n" +
		stream + ":2: $: envelope: missing meta\n" +
		stream + ":2: $.trace_id: envelope: trace_id is blank\n" +
		stream + ":2: $: envelope: missing data\n" +
		stream + ":3: $: malformed: at byte 12: unexpected end of input, expected a string key\n" +
		"2 inputs, 3 messages: 1 valid, 2 invalid\n"
	if code != ExitFindings || out != want || errOut != "" {
		t.Errorf("text: exit %d\n%s%s\nwant:\n%s", code, out, errOut, want)
	}

	code, out, _ = run(t, append(args, "--format", "json")...)
	var got []jsonMessage
	if err := json.Unmarshal([]byte(out), &got); code != ExitFindings || err != nil {
		t.Fatalf("json: exit %d, %v\n%s", code, err, out)
	}
	wantJSON := []jsonMessage{
		{Input: good, Message: 1, Line: 1, Valid: true, Problems: []jsonProblem{}},
		{Input: stream, Message: 1, Line: 2, Problems: []jsonProblem{{"$", "envelope", "missing meta"}, {"$.trace_id", "envelope", "trace_id is blank"}, {"$", "envelope", "missing data"}}},
		{Input: stream, Message: 2, Line: 3, Problems: []jsonProblem{{"$", "malformed", "at byte 12: unexpected end of input, expected a string key"}}},
	}
	if g, w := mustJSON(t, got), mustJSON(t, wantJSON); g != w {
		t.Errorf("json:\n%s\nwant:\n%s", g, w)
	}
	if !strings.HasPrefix(out, "[\n  {\n    \"input\": ") || !strings.HasSuffix(out, "\n  }\n]\n") {
		t.Errorf("json layout:\n%s", out)
	}

	code, out, _ = run(t, append(args, "--format", "github")...)
	wantGH := "::error file=" + ghProp(stream) + ",line=2,title=envelope::message 1: $: missing meta\n" +
		"::error file=" + ghProp(stream) + ",line=2,title=envelope::message 1: $.trace_id: trace_id is blank\n" +
		"::error file=" + ghProp(stream) + ",line=2,title=envelope::message 1: $: missing data\n" +
		"::error file=" + ghProp(stream) + ",line=3,title=malformed::message 2: $: at byte 12: unexpected end of input, expected a string key\n"
	if code != ExitFindings || out != wantGH {
		t.Errorf("github: exit %d\n%s\nwant:\n%s", code, out, wantGH)
	}

	// Standard input has no file in an annotation; no message at all is an empty array.
	var stdout, stderr bytes.Buffer
	if code := Run(context.Background(), []string{"validate", "-r", exampleRegistry, "--format", "github", "-"}, strings.NewReader("[]"), &stdout, &stderr); code != ExitFindings ||
		stdout.String() != "::error title=envelope::$: the envelope must be a JSON object, got array\n" {
		t.Errorf("github on stdin: exit %d %q %q", code, stdout.String(), stderr.String())
	}
	if code, out, _ := run(t, "validate", "-r", exampleRegistry, "--format", "json", filepath.Join(dir, "missing.json")); code != ExitError || out != "[]\n" {
		t.Errorf("json, nothing read: exit %d %q", code, out)
	}
	if code, _, errOut := run(t, "validate", "-r", exampleRegistry, "--format", "xml", good); code != ExitError || !strings.Contains(errOut, "--format must be text, json or github") {
		t.Errorf("--format xml: exit %d %s", code, errOut)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
