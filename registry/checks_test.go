package registry

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestNameTokens(t *testing.T) {
	t.Parallel()
	for in, want := range map[string][]string{
		"total":          {"total"},
		"unit_price":     {"unit", "price"},
		"unitPrice":      {"unit", "price"},
		"unit-price":     {"unit", "price"},
		"HTTPStatusCode": {"http", "status", "code"},
		"priceEUR":       {"price", "eur"},
		"vat20":          {"vat", "20"},
		"createdAt":      {"created", "at"},
		"subtotal":       {"subtotal"},
	} {
		if got := nameTokens(in); !reflect.DeepEqual(got, want) {
			t.Errorf("nameTokens(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestMoneyAndTimeNames(t *testing.T) {
	t.Parallel()
	money := map[string]bool{
		"total": true, "unitPrice": true, "shipping-fee": true, "tax": true, "refund_amount": true,
		"priceEUR": true, "salary": true, "cents": true, "subtotal": true,
		"tax_rate": false, "discount_percent": false, "total_weight": false, "totally": false,
		"priceless": false, "format": false, "fx_rate": false, "score": false,
	}
	for name, want := range money {
		if got := moneyWord(nameTokens(name)) != ""; got != want {
			t.Errorf("money(%q) = %v, want %v", name, got, want)
		}
	}
	times := map[string]bool{
		"placed_at": true, "createdAt": true, "start_time": true, "event_ts": true, "timestamp": true,
		"format": false, "flat": false, "attempts": false, "at_risk": false, "time_zone": false,
	}
	for name, want := range times {
		if got := isTimeName(nameTokens(name)); got != want {
			t.Errorf("isTimeName(%q) = %v, want %v", name, got, want)
		}
	}
	flags := map[string]bool{"is_gift": true, "hasStock": true, "can_retry": true, "is": false, "island": false, "retries": false}
	for name, want := range flags {
		if got := isFlagName(nameTokens(name)); got != want {
			t.Errorf("isFlagName(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestURNShapes(t *testing.T) {
	t.Parallel()
	payload := map[string]string{
		"urn:babel:orders:1042":                                 "1042",
		"urn:babel:orders:created.1042":                         "1042",
		"urn:babel:orders:6f1c9a2e-3b4d-4e5f-8a9b-0c1d2e3f4a5b": "6f1c9a2e-3b4d-4e5f-8a9b-0c1d2e3f4a5b",
		"urn:babel:orders:6f1c9a2e3b4d4e5f8a9b0c1d2e3f4a5b":     "6f1c9a2e3b4d4e5f8a9b0c1d2e3f4a5b",
		"urn:babel:orders:5f2b8c9e1a3d.shipped":                 "5f2b8c9e1a3d",
		"urn:babel:orders:created":                              "",
		"urn:babel:orders:created.v2":                           "",
		"urn:babel:payments:3ds.verified":                       "",
		"urn:babel:media:thumbnail.generate":                    "",
		"urn:babel:2024:created":                                "",
		"urn:babel:orders:deadbeefcafe":                         "",
	}
	for urn, want := range payload {
		if got, _ := payloadSegment(urn); got != want {
			t.Errorf("payloadSegment(%q) = %q, want %q", urn, got, want)
		}
	}
	class := map[string]bool{
		`App\Jobs\ProcessOrder`: true, "com.example.OrderCreated": true, "Orders::Created": true, "OrderCreated": true,
		"urn:babel:orders:created": false, "orders.created": false, "urn:Babel:Orders": false,
	}
	for s, want := range class {
		if got := isClassName(s); got != want {
			t.Errorf("isClassName(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestBadRune(t *testing.T) {
	t.Parallel()
	for s, want := range map[string]rune{
		"plain": 0, "tab\there": 0, "new\nline": 0, "é ü 日本": 0, "\u200f rlm": 0,
		"cr\r": '\r', "nul\x00": 0x00, "esc\x1b": 0x1b, "del\x7f": 0x7f, "c1\u0085": 0x85,
		"\u202a": 0x202a, "\u202e": 0x202e, "\u2066": 0x2066, "\u2069": 0x2069, "bom\ufeff": 0xfeff,
	} {
		r, ok := badRune(s)
		if ok != (want != 0 || s == "nul\x00") || (ok && r != want) {
			t.Errorf("badRune(%q) = %U, %v; want %U", s, r, ok, want)
		}
	}
}

// TestSplitValidation: validating a large registry message by message gives exactly
// the diagnostics of validating it whole.
func TestSplitValidation(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("version: 1\nconsumers: [go, rust]\ntypes:\n  address: {type: object}\n  Money2: {type: strin}\nbogus: 1\nmessages:\n")
	bad := []string{
		"    data: {properties: {a: {type: string, maxLenght: 3}}}\n",
		"    kind: evnt\n    data: {}\n",
		"    summary: [1]\n",
		"    data: {properties: {a: {type: string, default: x}}}\n",
		"    lint: {ignore: [X1], reason: \" \"}\n    data: {}\n",
		"    data: {properties: {a: {type: integer, enum: []}}}\n",
		"    data: {properties: {a: {type: array, items: {type: object, properties: {b: {tpye: string}}}}}}\n",
		"    data: {required: [a, a]}\n",
	}
	for i := 0; i < splitMin*2; i++ {
		fmt.Fprintf(&b, "  urn:babel:ctx:m%d:\n", i)
		if i%9 < len(bad) {
			b.WriteString(bad[i%9])
		} else {
			b.WriteString("    data: {properties: {a: {type: integer}}}\n")
		}
	}
	root, pd := parseFile("r.yaml", []byte(b.String()))
	if root == nil || len(pd) > 0 {
		t.Fatal(pd)
	}
	whole, err := validateFormatSplit(root, false, &fieldMemo{})
	if err != nil {
		t.Fatal(err)
	}
	// validateFormatSplit takes out what the errors are about (isolate): a fresh tree.
	root, _ = parseFile("r.yaml", []byte(b.String()))
	split, err := validateFormatSplit(root, true, &fieldMemo{})
	if err != nil {
		t.Fatal(err)
	}
	whole.Sort()
	split.Sort()
	if len(whole) < splitMin {
		t.Fatalf("only %d diagnostics", len(whole))
	}
	if !reflect.DeepEqual(whole, split) {
		for i := 0; i < len(whole) || i < len(split); i++ {
			var w, s string
			if i < len(whole) {
				w = whole[i].String()
			}
			if i < len(split) {
				s = split[i].String()
			}
			if w != s {
				t.Errorf("first difference at %d:\nwhole %s\nsplit %s", i, w, s)
				break
			}
		}
	}
}
