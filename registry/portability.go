package registry

import (
	"fmt"
	"strings"

	"github.com/babelqueue/bqgen/internal/ecmare"
	"github.com/babelqueue/bqgen/internal/model"
)

// Pattern portability (BQ060, BQ061, BQ062; docs/patterns.md, "Patterns every engine
// reads alike").
//
// The emitted schemas carry each pattern in the form ECMA-262, Go's regexp, Python's
// re and PCRE2 (PHP) read alike (ecmare's Pattern.Portable), with a sibling schema
// ruling out a final newline where that keeps the ECMA-262 meaning. What no rewrite
// can carry is a warning, reported only when `consumers:` lists a language whose
// validators use the engine that reads it otherwise (python: re; php: PCRE2):
//
//   - BQ060: `$` where Python and PCRE2 accept strings ending in a newline that
//     ECMA-262 rejects, and the pattern accepts other strings ending in a newline;
//   - BQ061: \b or \B, which Python and PCRE2 (u flag) test against Unicode word
//     characters;
//   - BQ062: a Unicode property escape too large to expand into ranges, which Python's
//     re cannot read.

// portabilityRule maps the kinds of ecmare.PortIssue to the rule ids.
var portabilityRule = map[string]string{
	"dollar":   RulePatternDollar,
	"boundary": RulePatternBoundary,
	"property": RulePatternProperty,
}

// consumerEngine maps the engines of ecmare.PortIssue to the consumers that use them.
var consumerEngine = map[string]string{ecmare.EnginePython: "python", ecmare.EnginePHP: "php"}

// checkPortability reports the portability findings of string schema s (what names
// it, pos is where its findings point unless its pattern keyword has a position).
func (l *loader) checkPortability(s *model.Schema, what string, pos model.Pos) {
	if s.Pattern == "" || !l.certain(s, "pattern") || (!l.reg.HasConsumer("python") && !l.reg.HasConsumer("php")) {
		return
	}
	res, err := ecmare.PortableCached(s.Pattern)
	if err != nil {
		return // BQ035
	}
	if p, ok := s.KeyPos("pattern"); ok {
		pos = p
	}
	reported := map[string]bool{}
	for _, is := range res.Issues {
		rule := portabilityRule[is.Rule]
		if reported[rule] {
			continue // the first construct of each kind stands for the others
		}
		var who []string
		for _, e := range is.Engines {
			if c := consumerEngine[e]; l.reg.HasConsumer(c) {
				who = append(who, c)
			}
		}
		if len(who) == 0 {
			continue
		}
		reported[rule] = true
		l.report(pos, rule,
			fmt.Sprintf("pattern of %s uses %s at character %d, which %s; declared consumers reading it otherwise: %s",
				what, is.Construct, charIndex(s.Pattern, is.Offset), is.Reason, strings.Join(who, ", ")),
			is.Hint)
	}
}
