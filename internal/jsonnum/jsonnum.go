// Package jsonnum reads JSON number literals (RFC 8259 §6) as the exact decimals JSON
// Schema compares, in time linear in their length: no big-number arithmetic, so a short
// literal with a huge exponent (1e-999999) costs what its characters cost, where
// math/big builds 10^999999 first (docs/hardening.md, "Round two").
package jsonnum

import (
	"math"
	"math/big"
	"strconv"
	"strings"
)

// Decimal is the exact value of a number literal: ±0.Digits × 10^Exp.
//
// Digits has no leading or trailing zeros; it is "" for zero (and Neg is then false:
// -0 is 0). When the exponent lies beyond ±MaxExp, Exp is ±(MaxExp+1) and BigExp holds
// the exact exponent as a signed decimal.
type Decimal struct {
	Neg    bool
	Digits string
	Exp    int64
	BigExp string
}

// MaxExp is the largest exponent held in Decimal.Exp (10^18 − 1); a larger one is
// kept exactly in Decimal.BigExp.
const MaxExp = 999_999_999_999_999_999

// Parse reads a JSON number literal (-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?).
// ok is false when lit is not one.
func Parse(lit string) (d Decimal, ok bool) {
	i := 0
	if i < len(lit) && lit[i] == '-' {
		d.Neg = true
		i++
	}
	intStart := i
	switch {
	case i < len(lit) && lit[i] == '0':
		i++
	case i < len(lit) && lit[i] >= '1' && lit[i] <= '9':
		for i < len(lit) && isDigit(lit[i]) {
			i++
		}
	default:
		return Decimal{}, false
	}
	intPart := lit[intStart:i]
	frac := ""
	if i < len(lit) && lit[i] == '.' {
		i++
		start := i
		for i < len(lit) && isDigit(lit[i]) {
			i++
		}
		if i == start {
			return Decimal{}, false
		}
		frac = lit[start:i]
	}
	expNeg, expDigits := false, ""
	if i < len(lit) && (lit[i] == 'e' || lit[i] == 'E') {
		i++
		if i < len(lit) && (lit[i] == '+' || lit[i] == '-') {
			expNeg = lit[i] == '-'
			i++
		}
		start := i
		for i < len(lit) && isDigit(lit[i]) {
			i++
		}
		if i == start {
			return Decimal{}, false
		}
		expDigits = strings.TrimLeft(lit[start:i], "0")
	}
	if i != len(lit) {
		return Decimal{}, false
	}

	// The significant digits of intPart+frac, and the exponent of 0.<digits>.
	lead := 0 // leading zeros of intPart+frac
	for lead < len(intPart) && intPart[lead] == '0' {
		lead++
	}
	if lead == len(intPart) {
		z := 0
		for z < len(frac) && frac[z] == '0' {
			z++
		}
		lead += z
	}
	total := len(intPart) + len(frac)
	if lead == total {
		return Decimal{}, true // zero, whatever its sign and exponent
	}
	end := total // one past the last non-zero digit
	for end > lead && digitAt(intPart, frac, end-1) == '0' {
		end--
	}
	switch {
	case end <= len(intPart):
		d.Digits = intPart[lead:end]
	case lead >= len(intPart):
		d.Digits = frac[lead-len(intPart) : end-len(intPart)]
	default:
		d.Digits = intPart[lead:] + frac[:end-len(intPart)]
	}
	adj := int64(len(intPart)) - int64(lead)

	if len(expDigits) <= 18 {
		e, _ := strconv.ParseInt(expDigits, 10, 64) // "" is 0
		if expNeg {
			e = -e
		}
		d.setExp(e + adj)
		return d, true
	}
	d.setBigExp(expNeg, expDigits, adj)
	return d, true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func digitAt(intPart, frac string, i int) byte {
	if i < len(intPart) {
		return intPart[i]
	}
	return frac[i-len(intPart)]
}

func (d *Decimal) setExp(e int64) {
	switch {
	case e > MaxExp:
		d.Exp, d.BigExp = MaxExp+1, strconv.FormatInt(e, 10)
	case e < -MaxExp:
		d.Exp, d.BigExp = -(MaxExp + 1), strconv.FormatInt(e, 10)
	default:
		d.Exp, d.BigExp = e, ""
	}
}

// setBigExp sets the exponent ±mag + adj, where mag (no leading zeros) has at least 19
// digits and |adj| is far smaller, by decimal arithmetic on the string.
func (d *Decimal) setBigExp(neg bool, mag string, adj int64) {
	// ±mag + adj = ±(mag + s·|adj|) with s = +1 when adj has the sign of the exponent.
	add := adj >= 0 != neg
	if adj < 0 {
		adj = -adj
	}
	b := []byte(mag)
	carry := adj
	for i := len(b) - 1; i >= 0 && carry != 0; i-- {
		v := int64(b[i]-'0') + carry%10*sign(add)
		carry /= 10
		switch {
		case v >= 10:
			v -= 10
			carry++
		case v < 0:
			v += 10
			carry++ // a borrow: one more to subtract from the next digit
		}
		b[i] = byte('0' + v)
	}
	if carry != 0 { // only when adding: 99…9 + 1
		b = append([]byte(strconv.FormatInt(carry, 10)), b...)
	}
	s := strings.TrimLeft(string(b), "0")
	if len(s) <= 18 {
		e, _ := strconv.ParseInt(s, 10, 64)
		if neg {
			e = -e
		}
		d.setExp(e)
		return
	}
	if neg {
		d.Exp, d.BigExp = -(MaxExp + 1), "-"+s
	} else {
		d.Exp, d.BigExp = MaxExp+1, s
	}
}

func sign(pos bool) int64 {
	if pos {
		return 1
	}
	return -1
}

// IsZero reports whether d is 0.
func (d Decimal) IsZero() bool { return d.Digits == "" }

// IsInt reports whether d is an integer (1, 1.0 and 1e2 are; 1.5 and 1e-400 are not).
func (d Decimal) IsInt() bool {
	switch {
	case d.IsZero():
		return true
	case d.Exp > MaxExp:
		return true // more digits than any literal holds are needed to reach a fraction
	case d.Exp < 0:
		return false
	}
	return int64(len(d.Digits)) <= d.Exp
}

// Cmp compares d and e exactly: -1 when d < e, 0 when equal, +1 when d > e.
func (d Decimal) Cmp(e Decimal) int {
	ds, es := d.sign(), e.sign()
	if ds != es {
		if ds < es {
			return -1
		}
		return 1
	}
	if ds == 0 {
		return 0
	}
	c := cmpExp(d, e)
	if c == 0 {
		c = strings.Compare(d.Digits, e.Digits)
	}
	return c * ds
}

func (d Decimal) sign() int {
	switch {
	case d.IsZero():
		return 0
	case d.Neg:
		return -1
	}
	return 1
}

// cmpExp compares the exponents of d and e exactly.
func cmpExp(d, e Decimal) int {
	if d.BigExp == "" && e.BigExp == "" || d.Exp != e.Exp {
		switch {
		case d.Exp < e.Exp:
			return -1
		case d.Exp > e.Exp:
			return 1
		}
		return 0
	}
	// Both beyond ±MaxExp on the same side: compare the decimal strings.
	a, b := strings.TrimPrefix(d.BigExp, "-"), strings.TrimPrefix(e.BigExp, "-")
	c := len(a) - len(b)
	if c == 0 {
		c = strings.Compare(a, b)
	}
	switch {
	case c < 0:
		c = -1
	case c > 0:
		c = 1
	}
	if d.Exp < 0 {
		c = -c
	}
	return c
}

// Abs returns |d|.
func (d Decimal) Abs() Decimal { d.Neg = false; return d }

// Int64 returns d as an int64 when it is an integer within the int64 range.
func (d Decimal) Int64() (int64, bool) {
	if !d.IsInt() {
		return 0, false
	}
	if d.IsZero() {
		return 0, true
	}
	if d.Exp > 19 {
		return 0, false
	}
	s := d.Digits + strings.Repeat("0", int(d.Exp)-len(d.Digits))
	if d.Neg {
		s = "-" + s
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}

// overflow is 2^1024 − 2^970, the smallest magnitude that rounds to ±Inf as a float64
// (half an ulp above math.MaxFloat64; the tie rounds to even, away from MaxFloat64's odd
// significand).
var overflow = func() Decimal {
	v := new(big.Int).Lsh(big.NewInt(1), 1024)
	v.Sub(v, new(big.Int).Lsh(big.NewInt(1), 970))
	d, _ := Parse(v.String())
	return d
}()

// MaxFloat64 is math.MaxFloat64 as its shortest decimal, 1.7976931348623157e308.
var MaxFloat64 = func() Decimal {
	d, _ := Parse(strconv.FormatFloat(math.MaxFloat64, 'g', -1, 64))
	return d
}()

// OverflowsFloat64 reports whether d rounds to ±Inf as an IEEE 754 double (round to
// nearest, ties to even): |d| ≥ 2^1024 − 2^970. Such a literal is what RFC 8259 §6
// calls beyond the range of the implementation; the generated decoder rejects it.
func (d Decimal) OverflowsFloat64() bool { return d.Abs().Cmp(overflow) >= 0 }

// String writes d in scientific notation with its exact digits: 0, 1.5e3, -2e-999999.
func (d Decimal) String() string {
	if d.IsZero() {
		return "0"
	}
	var b strings.Builder
	if d.Neg {
		b.WriteByte('-')
	}
	b.WriteString(d.Digits[:1])
	if len(d.Digits) > 1 {
		b.WriteByte('.')
		b.WriteString(d.Digits[1:])
	}
	e := d.expString(-1)
	if e != "0" {
		b.WriteByte('e')
		b.WriteString(e)
	}
	return b.String()
}

// expString returns the exponent plus delta as a decimal string (delta is -1 or 0).
func (d Decimal) expString(delta int64) string {
	if d.BigExp == "" {
		return strconv.FormatInt(d.Exp+delta, 10)
	}
	c := d
	neg := strings.HasPrefix(d.BigExp, "-")
	c.setBigExp(neg, strings.TrimPrefix(d.BigExp, "-"), delta)
	if c.BigExp == "" {
		return strconv.FormatInt(c.Exp, 10)
	}
	return c.BigExp
}

// Floor returns ⌊d⌋ when it is within int64; out is -1 when ⌊d⌋ < math.MinInt64 and +1
// when ⌊d⌋ > math.MaxInt64 (n is then 0).
func (d Decimal) Floor() (n int64, out int) { return d.round(false) }

// Ceil returns ⌈d⌉ when it is within int64; out as for Floor.
func (d Decimal) Ceil() (n int64, out int) { return d.round(true) }

func (d Decimal) round(up bool) (int64, int) {
	side := 1
	if d.Neg {
		side = -1
	}
	if d.IsZero() {
		return 0, 0
	}
	// t = d truncated toward zero, frac = whether anything was cut.
	var t int64
	frac := true
	if d.Exp > 0 {
		if d.Exp > 19 {
			return 0, side
		}
		digits := d.Digits
		if int64(len(digits)) > d.Exp {
			digits = digits[:d.Exp]
		} else {
			digits += strings.Repeat("0", int(d.Exp)-len(digits))
			frac = false
		}
		if d.Neg {
			digits = "-" + digits
		}
		v, err := strconv.ParseInt(digits, 10, 64)
		if err != nil {
			return 0, side
		}
		t = v
	}
	switch {
	case !frac:
		return t, 0
	case up && !d.Neg: // ⌈2.5⌉ = 3
		if t == math.MaxInt64 {
			return 0, 1
		}
		return t + 1, 0
	case !up && d.Neg: // ⌊-2.5⌋ = -3
		if t == math.MinInt64 {
			return 0, -1
		}
		return t - 1, 0
	}
	return t, 0
}

// FromInt64 returns n as a Decimal.
func FromInt64(n int64) Decimal {
	d, _ := Parse(strconv.FormatInt(n, 10))
	return d
}

// RatText writes r, a number read from a decimal literal, exactly: as a plain decimal
// (9223372036854775808, 0.125) while that takes at most 32 characters, else in String's
// scientific notation (1e300, 4.9406564584124654e-324); a fraction with no finite
// decimal is written as one (1/3). A numerator or denominator of more than ratBits bits
// (1e400, 1e-999999), beyond the range of the doubles, is written as an approximation
// to 6 significant digits ("≈1e400"), in time linear in the size of r.
func RatText(r *big.Rat) string {
	if r.Num().BitLen() > ratBits || r.Denom().BitLen() > ratBits {
		return approx(r)
	}
	var text string
	if r.IsInt() {
		text = r.Num().String()
	} else {
		d := new(big.Int).Set(r.Denom())
		count := func(p int64) int {
			n, q, m := 0, new(big.Int), new(big.Int)
			for {
				q.QuoRem(d, big.NewInt(p), m)
				if m.Sign() != 0 {
					return n
				}
				d.Set(q)
				n++
			}
		}
		digits := max(count(2), count(5))
		if d.Cmp(big.NewInt(1)) != 0 {
			return r.RatString() // 1/3: no finite decimal
		}
		text = r.FloatString(digits)
	}
	if len(text) > 32 {
		if d, ok := Parse(text); ok {
			return d.String()
		}
	}
	return text
}

// ratBits bounds the exact path of RatText: every decimal literal within the range of
// the doubles written with up to 36 digits (10^308 takes 1024 bits, the denominator of
// 4.9406564584124654e-324 is 10^340, 1130 bits).
const ratBits = 1200

// approx writes r (not zero: zero has a denominator of 1) to 6 significant digits, from
// its binary exponent and a 64-bit mantissa: r = m × 2^e, so log10|r| = e·log10 2 +
// log10|m|, exact to about 10^-9 for the exponents a big.Rat can hold.
func approx(r *big.Rat) string {
	mant := new(big.Float)
	e := new(big.Float).SetPrec(64).SetRat(r).MantExp(mant)
	m, _ := mant.Float64()
	x := float64(e)*math.Log10(2) + math.Log10(math.Abs(m))
	e10 := math.Floor(x)
	lead := strconv.FormatFloat(math.Pow(10, x-e10), 'f', 5, 64)
	if strings.HasPrefix(lead, "10") { // 9.999996 rounds up
		lead, e10 = "1.00000", e10+1
	}
	lead = strings.TrimRight(strings.TrimRight(lead, "0"), ".")
	sign := ""
	if r.Sign() < 0 {
		sign = "-"
	}
	return "≈" + sign + lead + "e" + strconv.FormatInt(int64(e10), 10)
}
