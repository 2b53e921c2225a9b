package bqrt

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// A hand-written descriptor set with sensitive values at every kind of place:
// a field, a nullable field, a named type marked as a whole, a use of a declared
// type, array items, map values, an enum.

type logAddress struct {
	Line1      string
	PostalCode *string
	Country    string
}

var logAddressDesc = Desc{Kind: KObject, Fields: []Field{
	{Key: "line1", Required: true, Type: Desc{Kind: KString, Flags: FGDPR}},
	{Key: "postal_code", Type: Desc{Kind: KString, Flags: FGDPR}},
	{Key: "country", Required: true, Type: Desc{Kind: KString}},
}}

// logContact is the named type 0, marked sensitive as a whole.
type logContact struct {
	Email string
	Phone string
}

// logNamedDescs: 0 is logContact, marked sensitive as a whole; 1 is logTag,
// marked on one use only.
var logNamedDescs = [...]Desc{
	{Kind: KObject, Flags: FGDPR, Fields: []Field{
		{Key: "email", Required: true, Type: Desc{Kind: KString}},
		{Key: "phone", Required: true, Type: Desc{Kind: KString}},
	}},
	{Kind: KInt64},
}

type logTag int64

type logLine struct {
	SKU   string
	Buyer string
}

var logLineDesc = Desc{Kind: KObject, Fields: []Field{
	{Key: "sku", Required: true, Type: Desc{Kind: KString}},
	{Key: "buyer", Required: true, Type: Desc{Kind: KString, Flags: FGDPR}},
}}

type logOrder struct {
	OrderID  int64
	Name     string
	Card     Nullable[string]
	OldCard  Nullable[string]
	Age      *int32
	Total    Money
	Status   string
	Shipping *logAddress
	Billing  *Nullable[logAddress]
	Contact  logContact
	Lines    []logLine
	Tags     map[string]string
	Emails   []string
	Note     Nullable[string]
	Empty    map[string]string
	ID       UUID
	When     Timestamp
	Ratio    float64
	Gift     bool
	Tag      logTag
	Nick     logTag
}

var logOrderDesc = Desc{Kind: KObject, Fields: []Field{
	{Key: "order_id", Required: true, Type: Desc{Kind: KInt64}},
	{Key: "name", Required: true, Type: Desc{Kind: KString, Flags: FGDPR}},
	{Key: "card", Required: true, Type: Desc{Kind: KString, Flags: FNullable | FGDPR}},
	{Key: "old_card", Required: true, Type: Desc{Kind: KString, Flags: FNullable | FGDPR}},
	{Key: "age", Type: Desc{Kind: KInt32, Flags: FGDPR}},
	{Key: "total", Required: true, Type: Desc{Kind: KMoney, Flags: FGDPR}},
	{Key: "status", Required: true, Type: Desc{Kind: KString, Flags: FGDPR, Enum: []string{"new", "paid"}}},
	{Key: "shipping", Type: Desc{Kind: KDesc, Elem: &logAddressDesc}},
	{Key: "billing", Type: Desc{Kind: KDesc, Flags: FNullable, Elem: &logAddressDesc}},
	{Key: "contact", Required: true, Type: Desc{Kind: KNamed, Ref: 0}},
	{Key: "lines", Required: true, Type: Desc{Kind: KArray, Elem: &logLineDesc}},
	{Key: "tags", Type: Desc{Kind: KMap, Elem: &Desc{Kind: KString, Flags: FGDPR}}},
	{Key: "emails", Type: Desc{Kind: KArray, Flags: FGDPR, Elem: &Desc{Kind: KString}}},
	{Key: "note", Required: true, Type: Desc{Kind: KString, Flags: FNullable}},
	{Key: "empty", Required: true, Type: Desc{Kind: KMap, Elem: &Desc{Kind: KString}}},
	{Key: "id", Required: true, Type: Desc{Kind: KUUID, Flags: FGDPR}},
	{Key: "when", Required: true, Type: Desc{Kind: KTimestamp}},
	{Key: "ratio", Required: true, Type: Desc{Kind: KFloat64}},
	{Key: "gift", Required: true, Type: Desc{Kind: KBool}},
	{Key: "tag", Required: true, Type: Desc{Kind: KNamed, Ref: 1}},
	{Key: "nick", Required: true, Type: Desc{Kind: KNamed, Flags: FGDPR, Ref: 1}},
}}

// The methods exactly as the generated code writes them.
func (x logOrder) LogValue() slog.Value { return LogValue(&x, &logOrderDesc) }
func (x logOrder) String() string       { return String(&x, &logOrderDesc) }
func (*logOrder) schema() *Desc         { return &logOrderDesc }

func withLogNamedTypes(t *testing.T) {
	saved := NamedTypes
	NamedTypes = logNamedDescs[:]
	t.Cleanup(func() { NamedTypes = saved })
}

func sampleLogOrder() logOrder {
	age := int32(42)
	postal := "75001"
	return logOrder{
		OrderID:  7,
		Name:     "Ñandú Pérez",
		Card:     NullableOf("4242"),
		Age:      &age,
		Total:    Money{Amount: 1299, Currency: "EUR"},
		Status:   "paid",
		Shipping: &logAddress{Line1: "Élysée 1", PostalCode: &postal, Country: "FR"},
		Billing:  &Nullable[logAddress]{},
		Contact:  logContact{Email: "ann@example.com", Phone: "+33 1"},
		Lines:    []logLine{{SKU: "A-1", Buyer: "Zoë"}, {SKU: "B-2", Buyer: ""}},
		Tags:     map[string]string{"z": "Ωmega", "a": "alpha"},
		Emails:   []string{"ann@example.com"},
		ID:       "0b6c1c52-6c1e-4b8e-9a57-0c5f2a1f3b11",
		When:     1700000000000,
		Ratio:    0.5,
		Gift:     true,
		Tag:      3,
		Nick:     1234,
	}
}

// secrets are the sensitive values of sampleLogOrder (beyond their first
// character); no rendering may contain one.
var secrets = []string{"Ñandú", "andú", "Pérez", "4242", "242", "42", "1299", "EUR", "Élysée", "lysée", "75001",
	"ann@example.com", "nn@", "+33", "Zoë", "oë", "Ωmega", "mega", "paid", "6c1e", "c52", "1234"}

func noSecrets(t *testing.T, what, s string) {
	t.Helper()
	for _, sec := range secrets {
		if strings.Contains(s, sec) {
			t.Errorf("%s contains the sensitive %q:\n%s", what, sec, s)
		}
	}
}

const wantLogOrderJSON = `{"order_id":7,"name":"Ñ***","card":"4***","old_card":null,"age":"***","total":"***",` +
	`"status":"***","shipping":{"line1":"É***","postal_code":"7***","country":"FR"},"billing":null,` +
	`"contact":"***","lines":[{"sku":"A-1","buyer":"Z***"},{"sku":"B-2","buyer":"***"}],` +
	`"tags":{"a":"a***","z":"Ω***"},"emails":"***","note":null,"empty":{},"id":"0***",` +
	`"when":1700000000000,"ratio":0.5,"gift":true,"tag":3,"nick":"***"}`

func TestLogStringRedacts(t *testing.T) {
	withLogNamedTypes(t)
	x := sampleLogOrder()
	if got := x.String(); got != wantLogOrderJSON {
		t.Errorf("String():\n got %s\nwant %s", got, wantLogOrderJSON)
	}
	// fmt uses String for T and *T, with every verb that prints values.
	for _, f := range []string{"%v", "%+v", "%s"} {
		for _, v := range []any{x, &x} {
			if got := fmt.Sprintf(f, v); got != wantLogOrderJSON {
				t.Errorf("Sprintf(%q, %T) = %s", f, v, got)
			}
		}
	}
	if got := fmt.Sprint(x); got != wantLogOrderJSON {
		t.Errorf("Sprint = %s", got)
	}
	// The unredacted JSON is unchanged (the codec does not look at FGDPR).
	if b, _ := Marshal(&x, &logOrderDesc); !bytes.Contains(b, []byte(`"name":"Ñandú Pérez"`)) {
		t.Errorf("Marshal changed: %s", b)
	}
}

func TestLogValueJSONHandler(t *testing.T) {
	withLogNamedTypes(t)
	x := sampleLogOrder()
	var buf bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{ReplaceAttr: dropTime}))
	log.Info("placed", "order", x)
	want := `{"level":"INFO","msg":"placed","order":{"order_id":7,"name":"Ñ***","card":"4***","old_card":null,` +
		`"age":"***","total":"***","status":"***","shipping":{"line1":"É***","postal_code":"7***","country":"FR"},` +
		`"billing":null,"contact":"***","lines":[{"sku":"A-1","buyer":"Z***"},{"sku":"B-2","buyer":"***"}],` +
		`"tags":{"a":"a***","z":"Ω***"},"emails":"***","note":null,"empty":{},"id":"0***",` +
		`"when":1700000000000,"ratio":0.5,"gift":true,"tag":3,"nick":"***"}}` + "\n"
	if got := buf.String(); got != want {
		t.Errorf("JSON handler:\n got %s\nwant %s", got, want)
	}
	buf.Reset()
	log.Info("placed", "order", &x) // a pointer logs the same
	if got := buf.String(); got != want {
		t.Errorf("JSON handler, pointer:\n got %s\nwant %s", got, want)
	}
}

func TestLogValueTextHandler(t *testing.T) {
	withLogNamedTypes(t)
	x := sampleLogOrder()
	var buf bytes.Buffer
	slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{ReplaceAttr: dropTime})).Info("placed", "order", x)
	want := `level=INFO msg=placed order.order_id=7 order.name=Ñ*** order.card=4*** order.old_card=<nil> ` +
		`order.age=*** order.total=*** order.status=*** order.shipping.line1=É*** order.shipping.postal_code=7*** ` +
		`order.shipping.country=FR order.billing=<nil> order.contact=*** ` +
		`order.lines="[{\"sku\":\"A-1\",\"buyer\":\"Z***\"},{\"sku\":\"B-2\",\"buyer\":\"***\"}]" ` +
		`order.tags.a=a*** order.tags.z=Ω*** order.emails=*** order.note=<nil> order.empty={} order.id=0*** ` +
		`order.when=1700000000000 order.ratio=0.5 order.gift=true order.tag=3 order.nick=***` + "\n"
	if got := buf.String(); got != want {
		t.Errorf("text handler:\n got %s\nwant %s", got, want)
	}
	noSecrets(t, "text handler", buf.String())
}

func TestRedactedString(t *testing.T) {
	str := &Desc{Kind: KString}
	enum := &Desc{Kind: KString, Enum: []string{"a"}}
	for _, c := range []struct {
		t    *Desc
		in   string
		want string
	}{
		{str, "Ñandú", "Ñ***"},
		{str, "😀 smile", "😀***"},
		{str, "a", "a***"},
		{str, "", "***"},
		{str, "\xffabc", "***"},
		{str, "\u2028x", "\u2028***"},
		{enum, "a", "***"},
		{&Desc{Kind: KUUID}, "0b6c1c52-6c1e-4b8e-9a57-0c5f2a1f3b11", "0***"},
		{&Desc{Kind: KInt64Str}, "", "***"},
	} {
		var v any = c.in
		if c.t.Kind == KInt64Str {
			v = int64(5)
		}
		if got := redactedString(c.t, reflect.ValueOf(v)); got != c.want {
			t.Errorf("redactedString(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func dropTime(groups []string, a slog.Attr) slog.Attr {
	if len(groups) == 0 && a.Key == slog.TimeKey {
		return slog.Attr{}
	}
	return a
}

// TestLogJSONHandlerMatchesString: slog's JSON handler writes LogValue exactly as
// String renders the value, escapes included (groups, arrays, map keys).
func TestLogJSONHandlerMatchesString(t *testing.T) {
	withLogNamedTypes(t)
	x := sampleLogOrder()
	odd := "<a&b>\u2028\"\\\t\x01é"
	x.Shipping.Country = odd
	x.Lines[0].SKU = odd
	x.Tags[odd] = odd
	x.Ratio = 1e-7
	var buf bytes.Buffer
	slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{ReplaceAttr: dropTime})).Info("m", "order", x)
	want := `{"level":"INFO","msg":"m","order":` + x.String() + "}\n"
	if got := buf.String(); got != want {
		t.Errorf("JSON handler:\n got %s\nwant %s", got, want)
	}
}

// TestLogInvalidUTF8: a string that is not UTF-8 (which the producer refuses, but a
// log may be asked to show) keeps String, and the array text of LogValue, UTF-8: its
// bytes are written as \xNN (appendQuoted); the JSON handler gets that text as one
// JSON string, since JSON has no \x escape.
func TestLogInvalidUTF8(t *testing.T) {
	withLogNamedTypes(t)
	x := sampleLogOrder()
	x.Shipping.Country = "F\xff"
	x.Lines[0].SKU = "A\xfe"
	x.Tags = map[string]string{"k\xff": "v"}
	want := strings.NewReplacer(`"country":"FR"`, `"country":"F\xff"`, `"sku":"A-1"`, `"sku":"A\xfe"`,
		`"tags":{"a":"a***","z":"Ω***"}`, `"tags":{"k\xff":"v***"}`).Replace(wantLogOrderJSON)
	if got := x.String(); got != want {
		t.Errorf("String():\n got %s\nwant %s", got, want)
	}
	var buf bytes.Buffer
	slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{ReplaceAttr: dropTime})).Info("m", "order", x)
	line := buf.String()
	if !utf8.ValidString(line) || !json.Valid([]byte(line)) {
		t.Errorf("JSON handler wrote a line that is not UTF-8 JSON: %q", line)
	}
	if lines := `"lines":"[{\"sku\":\"A\\xfe\",\"buyer\":\"Z***\"},{\"sku\":\"B-2\",\"buyer\":\"***\"}]"`; !strings.Contains(line, lines) {
		t.Errorf("JSON handler:\n got %s\nwant it to contain %s", line, lines)
	}
	buf.Reset()
	slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{ReplaceAttr: dropTime})).Info("m", "order", x)
	if line := buf.String(); !utf8.ValidString(line) || !strings.Contains(line, `order.lines="[{\"sku\":\"A\\xfe\",`) {
		t.Errorf("text handler: %q", line)
	}
	// Valid text, backslashes included, is still embedded as JSON.
	for _, s := range []string{`[\x]`, `["a\\x"]`, `["\u00ff"]`, `"\\\\x"`} {
		if hasByteEscape(s) != (s == `[\x]`) {
			t.Errorf("hasByteEscape(%s) = %v", s, hasByteEscape(s))
		}
	}
}
