package registry

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/babelqueue/bqgen/internal/cputime"
	"github.com/babelqueue/bqgen/internal/ecmare"
)

// worstAcceptedPattern is the costliest pattern BQ056 accepts: unanchored, every one
// of its MaxPatternProgram (256) instructions or fewer can be live on a long value.
const worstAcceptedPattern = `.{0,126}x`

// TestPatternProgramLimit: BQ056 flags a program of more than MaxPatternProgram
// instructions, and worstAcceptedPattern is just within it (issue 20, item 11).
func TestPatternProgramLimit(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		p     string
		insts int
	}{{worstAcceptedPattern, 255}, {`.{0,127}x`, 257}, {`\S{1,64}@\S{1,255}\.\S{2,63}`, 764}, {`.{0,1000}x`, 2003}, {`^.{1,50}$`, 103}, {`^[A-Z]{2}$`, 6}} {
		re2, err := ecmare.Translate(c.p)
		if err != nil {
			t.Fatal(err)
		}
		if got := programSize(re2); got != c.insts {
			t.Errorf("programSize(%s) = %d, want %d", c.p, got, c.insts)
		}
		src := fmt.Sprintf("version: 1\nmessages:\n  urn:babel:orders:created:\n    summary: s\n    data:\n      properties:\n        f: {type: string, pattern: %q}\n", c.p)
		_, ds, err := LoadFiles(context.Background(), map[string][]byte{"f.yaml": []byte(src)})
		if err != nil {
			t.Fatal(err)
		}
		flagged := false
		for _, d := range ds {
			if d.Rule == RulePatternCost {
				flagged = true
				want := fmt.Sprintf(`pattern of field "f" compiles to a program of %d instructions (the limit is 256)`, c.insts)
				if !strings.HasPrefix(d.Message, want) {
					t.Errorf("%s: %q, want it to start %q", c.p, d.Message, want)
				}
			}
		}
		if want := c.insts > MaxPatternProgram; flagged != want {
			t.Errorf("%s (%d instructions): BQ056 %v, want %v (%v)", c.p, c.insts, flagged, want, ds)
		}
	}
}

// BenchmarkWorstAcceptedPattern is the cost per byte of the costliest pattern BQ056
// accepts on a 1 MiB value, against a baseline in the same run: `^[a-z]*$`, the plain
// scan Go's regexp makes of a one-class pattern.
func BenchmarkWorstAcceptedPattern(b *testing.B) {
	s := strings.Repeat("a", 1<<20)
	for _, c := range []struct{ name, p string }{{"worst", worstAcceptedPattern}, {"baseline", `^[a-z]*$`}} {
		re := regexp.MustCompile(ecmare.MustCompile(c.p).String())
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(s)))
			for b.Loop() {
				re.MatchString(s)
			}
		})
	}
}

// aliasRegistry is a registry with n fields that use one costly pattern through a YAML
// alias and n fields with distinct patterns.
func aliasRegistry(n int) []byte {
	var b strings.Builder
	b.WriteString("version: 1\nmessages:\n  urn:babel:orders:created:\n    summary: s\n    data:\n      properties:\n")
	fmt.Fprintf(&b, "        f0: {type: string, pattern: &p %q}\n", strings.Repeat(`(?:a|b|c)?`, 300)+`\p{Cn}\p{Alphabetic}`)
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "        f%d: {type: string, pattern: *p}\n", i)
		fmt.Fprintf(&b, "        g%d: {type: string, pattern: \"^[a-z]{1,3}-%d[\\\\p{Cn}]$\"}\n", i, i)
	}
	return []byte(b.String())
}

// TestPatternCheckLinear: check's cost grows linearly with the uses of a pattern and
// the number of distinct patterns (issue 20, item 12: one pattern aliased by 100
// fields took 108 s, each use translating and analysing it again). Doubling the
// registry at most triples the CPU time (best of 5), and 400 uses take under 2 s of it.
func TestPatternCheckLinear(t *testing.T) {
	// The process's CPU time is measured (no other test of the package runs meanwhile:
	// this one is not parallel), the two sizes alternately, each keeping its best of 5
	// runs: a quadratic cost would give 4 times as long, a linear one 2. Wall time
	// carried the load of other processes (ratios of 3.1 on a linear cost).
	srcs := [2][]byte{aliasRegistry(200), aliasRegistry(400)}
	best := [2]time.Duration{time.Hour, time.Hour}
	for range 5 {
		for i, src := range srcs {
			start := cpuNow()
			_, ds, err := LoadFiles(context.Background(), map[string][]byte{"f.yaml": src})
			if err != nil || len(ds) == 0 {
				t.Fatalf("size %d: %v, %d diagnostics", i, err, len(ds))
			}
			best[i] = min(best[i], cpuNow()-start)
		}
	}
	t1, t2 := best[0], best[1]
	if t2 > 3*t1 || t2 > 2*time.Second {
		t.Errorf("200 uses: %v, 400 uses: %v of CPU; want at most 3 times as much, under 2 s", t1, t2)
	}
	t.Logf("200 uses %v, 400 uses %v of CPU", t1, t2)
}

// BenchmarkPatternAliases is check on aliasRegistry of 200 and 400 uses.
func BenchmarkPatternAliases(b *testing.B) {
	for _, n := range []int{200, 400} {
		src := aliasRegistry(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				LoadFiles(context.Background(), map[string][]byte{"f.yaml": src})
			}
		})
	}
}

// TestPatternTranslationBounds: a pattern whose translation is above ecmare.MaxRE2Size
// is a BQ057 error, and so is the pattern that takes the registry's distinct patterns
// past MaxRE2Total; a 12 KB registry of such patterns is refused within seconds
// (0.4 s on an idle machine) (issue 20, item 12: `generate` took 6.2 s and wrote a 22.5 MB orders.go).
func TestPatternTranslationBounds(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("version: 1\nmessages:\n  urn:babel:orders:created:\n    summary: s\n    data:\n      properties:\n")
	b.WriteString("        big: {type: string, pattern: \"\\\\p{Cn}\\\\p{Cn}\\\\p{Cn}\\\\p{Cn}\"}\n")
	for i := 0; b.Len() < 12<<10; i++ {
		fmt.Fprintf(&b, "        f%d: {type: string, pattern: \"%d\\\\p{Cn}\\\\p{Cn}\"}\n", i, i)
	}
	start := time.Now()
	_, ds, err := LoadFiles(context.Background(), map[string][]byte{"f.yaml": []byte(b.String())})
	elapsed := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	var msgs []string
	for _, d := range ds {
		if d.Rule == RulePatternSize {
			msgs = append(msgs, d.Message)
		}
	}
	if len(msgs) != 2 || msgs[0] != `pattern of field "big" translates to more than 32768 bytes of RE2 (Go's regexp), the limit` ||
		msgs[1] != `pattern of field "f51" takes the registry's patterns past 1048576 bytes of RE2 (Go's regexp) in all, the limit (this one: 20188 bytes)` {
		t.Errorf("BQ057 findings %d: %q", len(msgs), msgs)
	}
	if elapsed > 5*time.Second {
		t.Errorf("check took %v", elapsed)
	}
}

// cpuNow is the process's CPU time so far (internal/cputime; where it is not known,
// the wall time since the test binary started).
func cpuNow() time.Duration {
	d, _ := cputime.Process()
	return d
}
