package validate

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/babelqueue/bqgen/internal/cputime"
	"github.com/babelqueue/bqgen/internal/emit/jsonschema/fixture"
)

// split cuts in into messages with a splitter reading r in pieces of one byte (so that
// every message crosses buffer refills) and returns "LINE:BODY" for each.
func split(in string, max int) []string {
	s := newSplitter(iotest.OneByteReader(strings.NewReader(in)), max)
	var out []string
	for s.skipSpace() {
		msg, line, size := s.next()
		if msg == nil {
			out = append(out, fmt.Sprintf("%d:<%d bytes>", line, size))
			continue
		}
		out = append(out, fmt.Sprintf("%d:%s", line, msg))
	}
	return out
}

func TestSplitter(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, in string
		want     []string
	}{
		{"JSON lines", "{\"a\":1}\n{\"b\":[2,{}]}\n", []string{"1:{\"a\":1}", "2:{\"b\":[2,{}]}"}},
		{"CRLF and blank lines", "{}\r\n\r\n\r\n[]\r\n", []string{"1:{}", "4:[]"}},
		{"pretty values", "{\n  \"a\": {\n    \"b\": 1\n  }\n}\n{\n  \"c\": [\n    {}\n  ]\n}", []string{"1:{\n  \"a\": {\n    \"b\": 1\n  }\n}", "6:{\n  \"c\": [\n    {}\n  ]\n}"}},
		{"values on one line", `{} [] "s" 1 -2.5e3 true null`, []string{"1:{}", "1:[]", `1:"s"`, "1:1", "1:-2.5e3", "1:true", "1:null"}},
		{"brackets and quotes in strings", `{"a":"}]{[\"\\"}` + "\n" + `{"b":"x"}`, []string{`1:{"a":"}]{[\"\\"}`, `2:{"b":"x"}`}},
		{"truncated line", "{\"a\": [1, 2\n{\"b\": 1}\n[\n", []string{"1:{\"a\": [1, 2\n", "2:{\"b\": 1}", "3:[\n"}},
		{"raw newline in a string", "{\"a\": \"x\n\"}\n{}", []string{"1:{\"a\": \"x\n", "2:\"}\n", "3:{}"}},
		{"stray closers", "}]{},:1", []string{"1:}", "1:]", "1:{}", "1:,", "1::", "1:1"}},
		{"scalar garbage", "NaN {\"a\":1}x", []string{"1:NaN", "1:{\"a\":1}", "1:x"}},
		{"unclosed at the end", "{\"a\": {\"b\": ", []string{"1:{\"a\": {\"b\": "}},
		{"too large", "{\"a\":\"0123456789012345678901234567890123456789012345678901234567890\"}\n{}\n" + `"` + strings.Repeat("x", 70) + `"` + "\n[1]", []string{"1:<69 bytes>", "2:{}", "3:<72 bytes>", "4:[1]"}},
	} {
		if got := split(c.in, 64); strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}

// envelopes writes n copies of the valid fixture envelope as JSON lines, each padded
// with an unknown top-level key to size bytes; every 7th is invalid (meta.ts).
type envelopes struct {
	n, i int
	good []byte
	bad  []byte
	cur  []byte
}

func newEnvelopes(n, size int) *envelopes {
	pad := func(body []byte) []byte {
		head := bytes.TrimSuffix(body, []byte("}"))
		fill := size - len(head) - len(`,"padding":""}`+"\n")
		return []byte(fmt.Sprintf(`%s,"padding":"%s"}`+"\n", head, strings.Repeat("p", max(fill, 0))))
	}
	return &envelopes{n: n, good: pad([]byte(fixture.BaseEnvelope)), bad: pad(fixture.Mutate(fixture.BaseEnvelope, "meta.ts", "1"))}
}

func (e *envelopes) Read(p []byte) (int, error) {
	if len(e.cur) == 0 {
		if e.i == e.n {
			return 0, io.EOF
		}
		e.i++
		e.cur = e.good
		if e.i%7 == 0 {
			e.cur = e.bad
		}
	}
	n := copy(p, e.cur)
	e.cur = e.cur[n:]
	return n, nil
}

// TestStreamPastTheLimit: a stream far larger than the per-message limit is read to its
// end, a message over the limit is one malformed problem and the next ones are checked
// (issue 13, item 10: a 73 MB stream used to stop at message 7,446).
func TestStreamPastTheLimit(t *testing.T) {
	v := newValidator(t)
	const n = 2000
	in := io.MultiReader(newEnvelopes(n/2, 1000), strings.NewReader(`{"job": "`+strings.Repeat("j", 5000)+`"}`+"\n"), newEnvelopes(n/2, 1000))
	var last Message
	var bigs []string
	res, err := Files(v, []string{"-"}, Options{MaxMessage: 4096}, in, func(m Message) error {
		last = m
		if len(m.Problems) == 1 && m.Problems[0].Kind == Malformed {
			bigs = append(bigs, fmt.Sprintf("%d %s", m.Index, m.Problems[0]))
		}
		return nil
	}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	invalid := 2*(n/2/7) + 1
	if res != (Result{Valid: n - 2*(n/2/7), Invalid: invalid}) || last.Index != n+1 || last.Line != n+1 {
		t.Errorf("result %+v, last message %d at line %d", res, last.Index, last.Line)
	}
	if want := fmt.Sprintf("%d $: malformed: message of 5011 bytes is larger than the limit of 4096 bytes", n/2+1); len(bigs) != 1 || bigs[0] != want {
		t.Errorf("over the limit: %q, want %q", bigs, want)
	}
}

// TestStreamPastMaxBody: the same with the default limit, on a stream of 72 MiB (more
// than MaxBody) of 64 KiB messages.
func TestStreamPastMaxBody(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 72 MiB")
	}
	v := newValidator(t)
	const n = 72 * 16
	count := 0
	res, err := Files(v, []string{"-"}, Options{}, newEnvelopes(n, 64<<10), func(m Message) error { count++; return nil }, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if count != n || res.Valid+res.Invalid != n || res.Invalid != n/7 {
		t.Errorf("%d messages reported, result %+v, want %d", count, res, n)
	}
}

// BenchmarkStream validates JSON lines of small envelopes (each 300 bytes, every 7th
// invalid), 10^5 and 10^6 of them: ns/msg must stay flat (issue 13, item 10; it was
// quadratic, 50 s for 200,000 lines).
func BenchmarkStream(b *testing.B) {
	v := newValidator(b)
	for _, n := range []int{100_000, 1_000_000} {
		b.Run(fmt.Sprintf("lines=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(n) * 300)
			cpu0, _ := cputime.Process()
			for b.Loop() {
				res, err := Files(v, []string{"-"}, Options{}, newEnvelopes(n, 300), func(Message) error { return nil }, io.Discard)
				if err != nil || res.Valid+res.Invalid != n {
					b.Fatal(err, res)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/msg")
			// CPU time (user + system, this process, the GC included) is what a shared
			// machine's load does not inflate.
			cpu1, _ := cputime.Process()
			b.ReportMetric(float64(cpu1-cpu0)/float64(b.N)/float64(n), "cpu-ns/msg")
		})
	}
}
