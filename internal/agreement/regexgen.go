package agreement

import "github.com/babelqueue/bqgen/internal/regexgen"

// patternSample is regexgen.Sample: a string the ECMA-262 pattern p matches.
func patternSample(p string, extra int) (string, bool) { return regexgen.Sample(p, extra) }

// patternOverflow is regexgen.Overflow: every repetition extra times over its minimum.
func patternOverflow(p string, extra int) (string, bool) { return regexgen.Overflow(p, extra) }
