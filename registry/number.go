package registry

import (
	"encoding/json"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// Every number of a registry — bounds, enum values, examples, at any depth — is read
// by readNumber, once, when the YAML tree is built: the tree then holds only integers
// of at most MaxNumberLength digits and shortest decimals of doubles, which every later
// step (the format schema, bounds, enums, examples) reads in bounded time.

// numClass is what readNumber found.
type numClass int

const (
	// numExact: an integer, or a decimal a double holds exactly; num is the value.
	numExact numClass = iota
	// numInfinite: beyond the largest double (BQ023).
	numInfinite
	// numInexact: a double reads another value (double), e.g. 1e-400 as 0 (BQ023).
	numInexact
	// numMalformed: not a decimal literal.
	numMalformed
)

// decimal is a decimal literal reduced to its value: (-1)^neg × digits × 10^exp, with
// digits free of leading and trailing zeros ("" for zero).
type decimal struct {
	neg    bool
	digits string
	exp    int64
}

// maxExpDigitsValue caps the exponent read from a literal: beyond it the value is
// infinite or zero whatever the digits (a literal has at most MaxFileSize of them),
// and the cap keeps the arithmetic below within int64.
const maxExpDigitsValue = 1e15

// parseDecimal splits s, a literal of the form [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
// (YAML 1.2 core schema floats and integers, JSON numbers), into its decimal value. It
// looks at each character once: no power of ten is ever built.
func parseDecimal(s string) (decimal, bool) {
	var d decimal
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		d.neg = s[i] == '-'
		i++
	}
	is := i
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	intPart := s[is:i]
	frac := ""
	if i < len(s) && s[i] == '.' {
		i++
		fs := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		frac = s[fs:i]
	}
	if intPart == "" && frac == "" {
		return d, false
	}
	var e int64
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		neg := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			neg = s[i] == '-'
			i++
		}
		es := i
		for i < len(s) && isDigit(s[i]) {
			if e < maxExpDigitsValue {
				e = e*10 + int64(s[i]-'0')
			}
			i++
		}
		if i == es {
			return d, false
		}
		if neg {
			e = -e
		}
	}
	if i != len(s) {
		return d, false
	}
	// The significant digits run from the first non-zero digit of intPart+frac to the
	// last non-zero one; read them without joining the two parts unless both hold some.
	lead := func(x string) int {
		n := 0
		for n < len(x) && x[n] == '0' {
			n++
		}
		return n
	}
	trail := func(x string) int {
		n := 0
		for n < len(x) && x[len(x)-1-n] == '0' {
			n++
		}
		return n
	}
	exp := e - int64(len(frac))
	switch {
	case lead(intPart) == len(intPart): // the integer part is zero: only frac counts
		f := frac[lead(frac):]
		t := trail(f)
		d.digits, d.exp = f[:len(f)-t], exp+int64(t)
	case trail(frac) == len(frac): // no fraction digits count
		in := intPart[lead(intPart):]
		t := trail(in)
		d.digits, d.exp = in[:len(in)-t], e+int64(t)
	default:
		in := intPart[lead(intPart):]
		f := frac[:len(frac)-trail(frac)]
		d.digits, d.exp = in+f, e-int64(len(f))
	}
	if d.digits == "" {
		d.exp = 0
	}
	return d, true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// magnitude is the decimal exponent m with 10^(m-1) <= |d| < 10^m (d not zero).
func (d decimal) magnitude() int64 { return int64(len(d.digits)) + d.exp }

// readNumber reads the decimal literal s exactly, in time linear in its length and
// independent of the size of its exponent (issue 16: big.Rat builds 5^999999 for
// 1e999999 before the value is found infinite). It returns the value as a JSON number
// (an integer's digits, or the shortest decimal of the double) and its class; for
// numInexact, double is the value a double reads instead.
func readNumber(s string) (num json.Number, double string, class numClass) {
	d, ok := parseDecimal(s)
	if !ok {
		return "", "", numMalformed
	}
	if d.digits == "" {
		return "0", "", numExact
	}
	sign := ""
	if d.neg {
		sign = "-"
	}
	m := d.magnitude()
	switch {
	case m > 309: // |d| >= 1e309 > the largest double, 1.7976931348623157e308
		return "", "", numInfinite
	case m <= -324: // |d| < 1e-324, below half the smallest double (4.9e-324): read as 0
		return "", sign + "0", numInexact
	}
	// From here |exp| <= 309 + 324 + len(digits): the arithmetic is bounded by the
	// literal's length.
	f := d.float64()
	if math.IsInf(f, 0) {
		return "", "", numInfinite
	}
	if d.exp >= 0 { // an integer, kept exactly whether or not a double holds it
		return json.Number(sign + d.digits + strings.Repeat("0", int(d.exp))), "", numExact
	}
	shortest := strconv.FormatFloat(f, 'g', -1, 64)
	if back, _ := parseDecimal(shortest); back != d {
		// 1e-400 reads as 0 and 0.1000000000000000000001 as 0.1: every validator
		// compares against the double, so the registry must say what they enforce.
		return "", shortest, numInexact
	}
	return json.Number(shortest), "", numExact
}

// float64 is the double nearest to d (|d| within 1e-324 … 1e309).
func (d decimal) float64() float64 {
	sign := ""
	if d.neg {
		sign = "-"
	}
	if len(d.digits) <= 800 {
		// strconv.ParseFloat rounds correctly up to 800 digits; past that it keeps 800
		// and misplaces the decimal point of a literal without one (5 and 1,000 zeros
		// e-990 reads as 5e-191).
		f, _ := strconv.ParseFloat(sign+d.digits+"e"+strconv.FormatInt(d.exp, 10), 64)
		return f
	}
	r := new(big.Rat).SetInt(bigDigits(d.digits))
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(abs64(d.exp)), nil)
	if d.exp >= 0 {
		r.Mul(r, new(big.Rat).SetInt(p))
	} else {
		r.Quo(r, new(big.Rat).SetInt(p))
	}
	if d.neg {
		r.Neg(r)
	}
	f, _ := r.Float64()
	return f
}

func bigDigits(s string) *big.Int {
	i, _ := new(big.Int).SetString(s, 10)
	return i
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}
