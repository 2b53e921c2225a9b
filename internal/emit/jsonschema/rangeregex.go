package jsonschema

import (
	"math"
	"strconv"
	"strings"
	"sync"
)

// IntRangePattern returns an anchored regular expression that matches exactly the
// canonical decimal forms -?(0|[1-9][0-9]*) of the integers in [lo, hi] (docs/decisions.md#integers-carried-as-strings):
// no '+', no leading zeros, no spaces, never "-0". It uses only syntax that RE2 (Go,
// santhosh-tekuri/jsonschema) and ECMA-262 (ajv, with or without the u flag) read
// the same way: ^, $, (?:…), |, [0-9]-style classes and {m,n}. lo > hi yields "".
func IntRangePattern(lo, hi int64) string {
	key := [2]int64{lo, hi}
	if p, ok := rangePatterns.Load(key); ok {
		return p.(string)
	}
	p := intRangePattern(lo, hi)
	rangePatterns.Store(key, p)
	return p
}

// rangePatterns memoises IntRangePattern by its bounds: a registry repeats a few
// ranges over thousands of fields, and every URN's schema is written three times.
// Safe for the concurrent builds of Files.
var rangePatterns sync.Map // [2]int64 → string

func intRangePattern(lo, hi int64) string {
	if lo > hi {
		return ""
	}
	var alts []string
	if lo < 0 {
		// Magnitudes of the negative part: [max(1, -hi), -lo], computed in uint64 so
		// that -MinInt64 fits.
		negHi := uint64(-(lo + 1)) + 1 // |lo|
		negLo := uint64(1)
		if hi < 0 {
			negLo = uint64(-(hi + 1)) + 1 // |hi|
		}
		alts = append(alts, "-"+group(uintRange(negLo, negHi)))
	}
	if hi >= 0 {
		l := uint64(0)
		if lo > 0 {
			l = uint64(lo)
		}
		alts = append(alts, uintRange(l, uint64(hi))...)
	}
	return "^" + group(alts) + "$"
}

// group joins alternatives as (?:a|b), or returns the single alternative bare when it
// needs no group.
func group(alts []string) string {
	if len(alts) == 1 && !strings.Contains(alts[0], "|") {
		return alts[0]
	}
	return "(?:" + strings.Join(alts, "|") + ")"
}

// uintRange returns alternatives matching the canonical decimal forms of [lo, hi].
func uintRange(lo, hi uint64) []string {
	var alts []string
	if lo == 0 {
		alts = append(alts, "0")
		if hi == 0 {
			return alts
		}
		lo = 1
	}
	// Split by number of digits. Whole digit lengths [10^(n-1), 10^n-1] in a row are
	// merged into one [1-9][0-9]{a,b}.
	fullFrom := 0 // first digit length of a pending run of whole lengths
	fullTo := 0
	flush := func() {
		if fullFrom == 0 {
			return
		}
		alts = append(alts, "[1-9]"+rep(fullFrom-1, fullTo-1))
		fullFrom, fullTo = 0, 0
	}
	for n := digits(lo); n <= digits(hi); n++ {
		first := pow10(n - 1)
		last := uint64(math.MaxUint64)
		if n < 20 {
			last = pow10(n) - 1
		}
		a, b := max(lo, first), min(hi, last)
		if a == first && b == last {
			if fullFrom == 0 {
				fullFrom = n
			}
			fullTo = n
			continue
		}
		flush()
		alts = append(alts, sameLength(strconv.FormatUint(a, 10), strconv.FormatUint(b, 10))...)
	}
	flush()
	return alts
}

// sameLength returns alternatives matching every digit string of len(a) between a
// and b inclusive (a <= b, same length; leading zeros allowed, as for suffixes).
func sameLength(a, b string) []string {
	if a == b {
		return []string{a}
	}
	i := 0
	for a[i] == b[i] {
		i++
	}
	prefix := a[:i]
	rest := len(a) - i - 1
	da, db := a[i], b[i]
	aLow := allOf(a[i+1:], '0')  // a's suffix is the smallest possible
	bHigh := allOf(b[i+1:], '9') // b's suffix is the largest possible
	var alts []string
	lo, hi := da, db
	if !aLow {
		for _, s := range sameLength(a[i+1:], strings.Repeat("9", rest)) {
			alts = append(alts, prefix+string(da)+s)
		}
		lo = da + 1
	}
	if !bHigh {
		hi = db - 1
	}
	if lo <= hi {
		alts = append(alts, prefix+class(lo, hi)+rep(rest, rest))
	}
	if !bHigh {
		for _, s := range sameLength(strings.Repeat("0", rest), b[i+1:]) {
			alts = append(alts, prefix+string(db)+s)
		}
	}
	return alts
}

func allOf(s string, c byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != c {
			return false
		}
	}
	return true
}

// class is a digit class [lo-hi], or the digit itself.
func class(lo, hi byte) string {
	switch {
	case lo == hi:
		return string(lo)
	case hi == lo+1:
		return "[" + string(lo) + string(hi) + "]"
	default:
		return "[" + string(lo) + "-" + string(hi) + "]"
	}
}

// rep is [0-9] repeated between m and n times.
func rep(m, n int) string {
	switch {
	case n == 0:
		return ""
	case m == n && m == 1:
		return "[0-9]"
	case m == n:
		return "[0-9]{" + strconv.Itoa(m) + "}"
	default:
		return "[0-9]{" + strconv.Itoa(m) + "," + strconv.Itoa(n) + "}"
	}
}

func digits(v uint64) int { return len(strconv.FormatUint(v, 10)) }

func pow10(n int) uint64 {
	p := uint64(1)
	for ; n > 0; n-- {
		p *= 10
	}
	return p
}
