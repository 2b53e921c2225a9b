package validate

import (
	"encoding/json"
	"math"
	"math/big"
	"slices"
	"strconv"
	"unicode/utf8"

	js "github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/babelqueue/bqgen/internal/emit/golang/rt/bqrt"
	"github.com/babelqueue/bqgen/internal/model"
)

// The ranks of the problems at one path, in the catalogue's order (bqrt's
// problems.go): only the first is reported, as the generated code reports it.
const (
	rankType = iota
	rankLength
	rankFormat
	rankEnum
	rankPattern
	rankOther
)

// ranked is one problem with its rank among those at its path.
type ranked struct {
	Problem
	rank int
	// unique: a uniqueItems problem, which the generated code does not report when an
	// item has a problem of rankType (it did not decode)
	unique bool
}

// node is what the registry says about the value at one instance location: its
// schema (resolved, nil when the location leaves the schema), the money value it is
// a part of ("amount" or "currency", else ""), and its value.
type node struct {
	schema *model.Schema
	part   string
	value  any
	// lit is a number's literal as written (abbreviated), exact its exact value in the
	// shortest notation (numbers.value); "" for a value that is not a number.
	lit, exact string
	// raw is the number in the prepared tree (prepareNumbers: the literal, or a stand-in
	// on the same side of every constant), f its double as the decoder reads the
	// literal (ok false beyond the doubles)
	raw string
	f   float64
	fok bool
}

// leafProblems turns one leaf error of jsonschema/v6 about the value at n (at path)
// into the problems the generated code reports there, worded by the catalogue (bqrt's
// Problem functions); got is the number as written when the value is one. A
// required or unknown key is a problem at the key's own path (child gives it). No
// problem is returned for an error the generated code has no counterpart for at this
// path (the null branch of a nullable reference).
func leafProblems(e *js.ValidationError, n node, path string, child func(key string) string) []ranked {
	got := n.exact
	one := func(rank int, msg string) []ranked {
		return []ranked{{Problem: Problem{Path: path, Kind: InvalidData, Message: msg}, rank: rank}}
	}
	if _, isNum := n.value.(json.Number); isNum && integerLike(n) && !fitsInt(n) {
		return one(rankType, intProblem(n)) // the generated code does not decode it
	}
	s, _ := n.value.(string)
	switch k := e.ErrorKind.(type) {
	case *kind.Type:
		if len(k.Want) == 1 && k.Want[0] == "null" {
			return nil // the null branch of a nullable reference: the other says why
		}
		if _, isNum := n.value.(json.Number); isNum && integerLike(n) {
			return one(rankType, intProblem(n))
		}
		return one(rankType, bqrt.ProblemMismatch(wantKind(n, k.Want), jsonKind(n.value)))
	case *kind.Required:
		out := make([]ranked, len(k.Missing))
		for i, key := range k.Missing {
			out[i] = ranked{Problem: Problem{Path: child(key), Kind: InvalidData, Message: bqrt.ProblemRequired}}
		}
		return out
	case *kind.AdditionalProperties:
		out := make([]ranked, len(k.Properties))
		for i, key := range k.Properties {
			out[i] = ranked{Problem: Problem{Path: child(key), Kind: InvalidData, Message: bqrt.ProblemAdditional}}
		}
		return out
	case *kind.MinLength:
		return one(rankLength, bqrt.ProblemLength(k.Got, k.Want, -1))
	case *kind.MaxLength:
		return one(rankLength, bqrt.ProblemLength(k.Got, -1, k.Want))
	case *kind.Format, *kind.Pattern, *kind.Not:
		return one(stringProblem(n, s))
	case *kind.Enum:
		if n.schema != nil && n.schema.Kind == model.Integer && n.schema.Encoding == "string" {
			return one(intStringProblem(n, s))
		}
		if _, isStr := n.value.(string); isStr && n.schema != nil && n.schema.Kind == model.String {
			if rank, msg := lengthOrFormat(n, s); msg != "" {
				return one(rank, msg)
			}
		}
		if rank, msg, ok := boundFirst(n); ok {
			return one(rank, msg)
		}
		return one(rankEnum, bqrt.ProblemEnum(valueText(n), enumTexts(n.schema)))
	case *kind.Minimum:
		return one(boundProblem(n, got, k.Want, true, false))
	case *kind.ExclusiveMinimum:
		return one(boundProblem(n, got, k.Want, true, true))
	case *kind.Maximum:
		return one(boundProblem(n, got, k.Want, false, false))
	case *kind.ExclusiveMaximum:
		return one(boundProblem(n, got, k.Want, false, true))
	case *kind.MinItems:
		return one(rankLength, bqrt.ProblemItems(k.Got, k.Want, -1))
	case *kind.MaxItems:
		return one(rankLength, bqrt.ProblemItems(k.Got, -1, k.Want))
	case *kind.UniqueItems:
		r := one(rankFormat, bqrt.ProblemUnique(k.Duplicates[0], k.Duplicates[1]))
		r[0].unique = true
		return r
	case *kind.FalseSchema:
		return one(rankType, "not allowed")
	}
	out := e.BasicOutput()
	if out.Error != nil {
		return one(rankOther, out.Error.String())
	}
	return one(rankOther, "breaks its schema")
}

// integerLike reports whether the value at n must be an integer (an integer, a
// timestamp, the amount of money).
func integerLike(n node) bool {
	if n.part == "amount" {
		return true
	}
	return n.schema != nil && (n.schema.Kind == model.Integer && n.schema.Encoding == "" || n.schema.Kind == model.Timestamp)
}

// fitsInt reports whether the number at n (which must be an integer) is one within
// the range of its Go type (int64, or int32 for IntFormat int32).
func fitsInt(n node) bool {
	i, verdict := bqrt.ExactInt64(n.lit)
	return verdict == bqrt.IntOK && (n.schema == nil || n.schema.IntFormat != "int32" || i == int64(int32(i)))
}

// intProblem is the problem of the number got where an integer is required: not an
// integer, or beyond the range of its Go type.
func intProblem(n node) string {
	got := n.lit
	typ := "int64"
	if n.schema != nil && n.schema.IntFormat == "int32" {
		typ = "int32"
	}
	if i, verdict := bqrt.ExactInt64(got); verdict == bqrt.IntOutOfRange || verdict == bqrt.IntOK && typ == "int32" && i != int64(int32(i)) {
		return bqrt.ProblemIntRange(got, typ)
	}
	return bqrt.ProblemNotInteger(got)
}

// wantKind names the JSON type the value at n must have, as the generated code names
// it; want is the schema's list (null left out) when the registry does not say.
func wantKind(n node, want []string) string {
	switch {
	case n.part == "amount":
		return "integer"
	case n.part == "currency":
		return "string"
	case n.schema != nil:
		switch n.schema.Kind {
		case model.String, model.UUID:
			return "string"
		case model.Integer:
			if n.schema.Encoding == "string" {
				return "string"
			}
			return "integer"
		case model.Timestamp:
			return "integer"
		case model.Number:
			return "number"
		case model.Boolean:
			return "boolean"
		case model.Object, model.Money, model.Map:
			return "object"
		case model.Array:
			return "array"
		}
	}
	for _, w := range want {
		if w != "null" {
			return w
		}
	}
	return "null"
}

// stringProblem is the problem of the string s at n that breaks a format, a pattern
// or the final-newline guard of the emitted schema: the uuid form, the currency code,
// an integer carried as a string, the format (with its narrowing), or else the
// registry's pattern as written.
func stringProblem(n node, s string) (int, string) {
	switch {
	case n.part == "currency":
		return rankFormat, bqrt.ProblemCurrency(s)
	case n.schema == nil:
		return rankOther, "breaks its schema"
	case n.schema.Kind == model.UUID:
		return rankFormat, bqrt.ProblemUUID(s)
	case n.schema.Kind == model.Integer:
		return intStringProblem(n, s)
	}
	if rank, msg := lengthOrFormat(n, s); msg != "" {
		return rank, msg
	}
	if len(n.schema.Enum) > 0 && !slices.Contains(n.schema.Enum, any(s)) {
		return rankEnum, bqrt.ProblemEnum(valueText(n), enumTexts(n.schema)) // the enum before the pattern
	}
	return rankPattern, bqrt.ProblemPattern(n.schema.Pattern)
}

// lengthOrFormat is the problem of the string s at n (a string schema) that breaks its
// length or its format, "" when it breaks neither. The generated code checks the
// length first, then the format, then the enum and the pattern, and jsonschema/v6 may
// report only a later one of a string that breaks several (the format, or the enum,
// beside a maxLength): the first comes first here too.
func lengthOrFormat(n node, s string) (int, string) {
	if n.schema.MinLength != nil || n.schema.MaxLength != nil {
		lo, hi := -1, -1
		if n.schema.MinLength != nil {
			lo = int(*n.schema.MinLength)
		}
		if n.schema.MaxLength != nil {
			hi = int(*n.schema.MaxLength)
		}
		if msg := bqrt.ProblemLength(utf8.RuneCountInString(s), lo, hi); msg != "" {
			return rankLength, msg
		}
	}
	if n.schema.Format != "" {
		if msg := bqrt.ProblemFormat(n.schema.Format, s); msg != "" {
			return rankFormat, msg
		}
	}
	return 0, ""
}

// boundFirst is the problem of the number at n beyond one of its schema's bounds, in
// the generated code's order (minimum, exclusiveMinimum, maximum, exclusiveMaximum),
// for an error jsonschema/v6 reported by a later keyword (enum); ok false when the
// number is within every bound.
func boundFirst(n node) (rank int, msg string, ok bool) {
	if n.schema == nil || n.raw == "" {
		return 0, "", false
	}
	v, okv := new(big.Rat).SetString(n.raw)
	if !okv {
		return 0, "", false
	}
	for _, b := range []struct {
		bound       *model.Bound
		isMin, excl bool
	}{{n.schema.Minimum, true, false}, {n.schema.ExclusiveMinimum, true, true}, {n.schema.Maximum, false, false}, {n.schema.ExclusiveMaximum, false, true}} {
		if b.bound == nil {
			continue
		}
		w := new(big.Rat)
		if b.bound.IsInt {
			w.SetInt64(b.bound.I)
		} else if w.SetFloat64(b.bound.F) == nil {
			continue
		}
		c := v.Cmp(w)
		if b.isMin && (c < 0 || b.excl && c == 0) || !b.isMin && (c > 0 || b.excl && c == 0) {
			r, m := boundProblem(n, n.exact, w, b.isMin, b.excl)
			return r, m, true
		}
	}
	return 0, "", false
}

// boundProblem is the problem of the number got at n beyond the bound want: the range
// of a timestamp or of a money amount, the range of the Go type, or the registry's
// bound.
func boundProblem(n node, got string, want *big.Rat, isMin, excl bool) (int, string) {
	rank := rankLength // a minimum comes before a maximum
	if !isMin {
		rank = rankFormat
	}
	i, verdict := bqrt.ExactInt64(n.lit)
	switch {
	case n.part == "amount" && verdict == bqrt.IntOK:
		return rankLength, bqrt.ProblemAmount(i)
	case n.schema != nil && n.schema.Kind == model.Timestamp && verdict == bqrt.IntOK:
		return rankLength, bqrt.ProblemTimestamp(i)
	}
	w := want.RatString()
	if integerLike(n) || n.part == "amount" {
		if want.IsInt() {
			w = want.Num().String()
		}
	} else if f, _ := want.Float64(); !math.IsInf(f, 0) {
		w = bqrt.FormatNumber(f)
	}
	return rank, bqrt.ProblemBound(numberText(n, want), w, isMin, excl)
}

// numberText writes the number at n as the generated code does in a bound problem: the
// shortest decimal of its double, or as written when that double is the bound's (the
// exact comparison then decided).
func numberText(n node, want *big.Rat) string {
	if w, _ := want.Float64(); n.fok && n.f == w {
		if r, ok := new(big.Rat).SetString(n.raw); ok && r.Cmp(want) != 0 {
			return n.lit // the double is the bound's, the value is not: the literal decided
		}
	}
	return decoded(n)
}

// decoded writes the number at n as the generated code holds it: in a field that must
// be an integer its decimal, in any other the shortest decimal of its double.
func decoded(n node) string {
	if !integerLike(n) && n.fok {
		return bqrt.FormatNumber(n.f)
	}
	return bqrt.ProblemNumber(n.exact)
}

// intStringProblem is the problem of the string s at n, an integer carried as a JSON
// string, as the generated code judges it: decoded first (canonical form, int64, int32),
// then its minimum, maximum and enum, which the emitted schema states as a pattern.
func intStringProblem(n node, s string) (int, string) {
	i, ok := bqrt.CanonicalInt(s)
	switch {
	case !ok:
		return rankType, bqrt.ProblemIntString(s)
	case n.schema.IntFormat == "int32" && i != int64(int32(i)):
		return rankType, bqrt.ProblemInt32String
	}
	got := strconv.FormatInt(i, 10)
	for _, b := range []struct {
		bound       *model.Bound
		isMin, excl bool
	}{{n.schema.Minimum, true, false}, {n.schema.ExclusiveMinimum, true, true}, {n.schema.Maximum, false, false}, {n.schema.ExclusiveMaximum, false, true}} {
		if b.bound == nil {
			continue
		}
		w := b.bound.I
		if b.isMin && (i < w || b.excl && i == w) || !b.isMin && (i > w || b.excl && i == w) {
			rank := rankLength
			if !b.isMin {
				rank = rankFormat
			}
			return rank, bqrt.ProblemBound(got, strconv.FormatInt(w, 10), b.isMin, b.excl)
		}
	}
	in := n.schema.Enum == nil
	for _, v := range n.schema.Enum {
		in = in || v == any(i)
	}
	if !in {
		return rankEnum, bqrt.ProblemEnum(got, enumTexts(n.schema))
	}
	return rankOther, "breaks its schema"
}

// valueText is the JSON text of the scalar value at n as ProblemEnum quotes it.
func valueText(n node) string {
	switch v := n.value.(type) {
	case string:
		return bqrt.EnumText(v)
	case bool:
		return bqrt.EnumText(v)
	case json.Number:
		return decoded(n)
	case nil:
		return "null"
	}
	return jsonKind(n.value)
}

// enumTexts are the JSON texts of the enum values of s.
func enumTexts(s *model.Schema) []string {
	if s == nil {
		return nil
	}
	out := make([]string, len(s.Enum))
	for i, v := range s.Enum {
		out[i] = bqrt.EnumText(v)
	}
	return out
}
