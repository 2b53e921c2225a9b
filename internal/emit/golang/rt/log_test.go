package rt

import (
	"bytes"
	"fmt"
	"log/slog"
	"reflect"
	"strings"
	"testing"
)

// A hand-written descriptor set with sensitive values at every kind of place:
// a field, a nullable field, a named type marked as a whole, a use of a declared
// type, array items, map values, an enum.

type logAddress struct {
	Line1      string
	PostalCode *string
	Country    string
}

var logAddressDesc = typeDesc{kind: kObject, fields: []fieldDesc{
	{key: "line1", required: true, typ: typeDesc{kind: kString, flags: fGDPR}},
	{key: "postal_code", typ: typeDesc{kind: kString, flags: fGDPR}},
	{key: "country", required: true, typ: typeDesc{kind: kString}},
}}

// logContact is the named type 0, marked sensitive as a whole.
type logContact struct {
	Email string
	Phone string
}

// logNamedDescs: 0 is logContact, marked sensitive as a whole; 1 is logTag,
// marked on one use only.
var logNamedDescs = [...]typeDesc{
	{kind: kObject, flags: fGDPR, fields: []fieldDesc{
		{key: "email", required: true, typ: typeDesc{kind: kString}},
		{key: "phone", required: true, typ: typeDesc{kind: kString}},
	}},
	{kind: kInt64},
}

type logTag int64

type logLine struct {
	SKU   string
	Buyer string
}

var logLineDesc = typeDesc{kind: kObject, fields: []fieldDesc{
	{key: "sku", required: true, typ: typeDesc{kind: kString}},
	{key: "buyer", required: true, typ: typeDesc{kind: kString, flags: fGDPR}},
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

var logOrderDesc = typeDesc{kind: kObject, fields: []fieldDesc{
	{key: "order_id", required: true, typ: typeDesc{kind: kInt64}},
	{key: "name", required: true, typ: typeDesc{kind: kString, flags: fGDPR}},
	{key: "card", required: true, typ: typeDesc{kind: kString, flags: fNullable | fGDPR}},
	{key: "old_card", required: true, typ: typeDesc{kind: kString, flags: fNullable | fGDPR}},
	{key: "age", typ: typeDesc{kind: kInt32, flags: fGDPR}},
	{key: "total", required: true, typ: typeDesc{kind: kMoney, flags: fGDPR}},
	{key: "status", required: true, typ: typeDesc{kind: kString, flags: fGDPR, enum: []string{"new", "paid"}}},
	{key: "shipping", typ: typeDesc{kind: kDesc, elem: &logAddressDesc}},
	{key: "billing", typ: typeDesc{kind: kDesc, flags: fNullable, elem: &logAddressDesc}},
	{key: "contact", required: true, typ: typeDesc{kind: kNamed, ref: 0}},
	{key: "lines", required: true, typ: typeDesc{kind: kArray, elem: &logLineDesc}},
	{key: "tags", typ: typeDesc{kind: kMap, elem: &typeDesc{kind: kString, flags: fGDPR}}},
	{key: "emails", typ: typeDesc{kind: kArray, flags: fGDPR, elem: &typeDesc{kind: kString}}},
	{key: "note", required: true, typ: typeDesc{kind: kString, flags: fNullable}},
	{key: "empty", required: true, typ: typeDesc{kind: kMap, elem: &typeDesc{kind: kString}}},
	{key: "id", required: true, typ: typeDesc{kind: kUUID, flags: fGDPR}},
	{key: "when", required: true, typ: typeDesc{kind: kTimestamp}},
	{key: "ratio", required: true, typ: typeDesc{kind: kFloat64}},
	{key: "gift", required: true, typ: typeDesc{kind: kBool}},
	{key: "tag", required: true, typ: typeDesc{kind: kNamed, ref: 1}},
	{key: "nick", required: true, typ: typeDesc{kind: kNamed, flags: fGDPR, ref: 1}},
}}

// The methods exactly as the generated code writes them.
func (x logOrder) LogValue() slog.Value { return logValueAny(&x, &logOrderDesc) }
func (x logOrder) String() string       { return stringAny(&x, &logOrderDesc) }
func (*logOrder) schema() *typeDesc     { return &logOrderDesc }

func withLogNamedTypes(t *testing.T) {
	saved := namedTypes
	namedTypes = logNamedDescs[:]
	t.Cleanup(func() { namedTypes = saved })
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
	// The unredacted JSON is unchanged (the codec does not look at fGDPR).
	if b, _ := marshalAny(&x, &logOrderDesc); !bytes.Contains(b, []byte(`"name":"Ñandú Pérez"`)) {
		t.Errorf("marshalAny changed: %s", b)
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

func TestLogMessage(t *testing.T) {
	withLogNamedTypes(t)
	errText := "handler failed"
	m := &Message[logOrder]{
		URN: "urn:babel:orders:created", TraceID: "4f1c", Data: sampleLogOrder(), Attempts: 2,
		Meta:       Meta{ID: "m-1", Queue: "orders", Lang: "go", SchemaVersion: 1, CreatedAt: 1700000000001},
		DeadLetter: &DeadLetter{Reason: ReasonFailed, Error: &errText, FailedAt: 1700000000002, OriginalQueue: "orders", Attempts: 3},
	}
	var buf bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{ReplaceAttr: dropTime}))
	log.Info("got", "msg", *m)
	want := `{"level":"INFO","msg":"got","msg":{"job":"urn:babel:orders:created","trace_id":"4f1c","data":` +
		wantLogOrderJSON + `,"meta":{"id":"m-1","queue":"orders","lang":"go","schema_version":1,` +
		`"created_at":1700000000001},"attempts":2,"dead_letter":{"reason":"failed","error":"handler failed",` +
		`"exception":null,"failed_at":1700000000002,"original_queue":"orders","attempts":3}}}` + "\n"
	if got := buf.String(); got != want {
		t.Errorf("message:\n got %s\nwant %s", got, want)
	}
	buf.Reset()
	log.Info("got", "msg", m)
	if got := buf.String(); got != want {
		t.Errorf("*message:\n got %s\nwant %s", got, want)
	}
	// fmt prints Data with its String method (without the dead_letter pointer,
	// whose address could contain a digit sequence of the secrets).
	m.DeadLetter = nil
	for _, f := range []string{"%v", "%+v"} {
		noSecrets(t, "Sprintf "+f, fmt.Sprintf(f, m))
		noSecrets(t, "Sprintf "+f, fmt.Sprintf(f, *m))
	}
}

func TestRedactedString(t *testing.T) {
	str := &typeDesc{kind: kString}
	enum := &typeDesc{kind: kString, enum: []string{"a"}}
	for _, c := range []struct {
		t    *typeDesc
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
		{&typeDesc{kind: kUUID}, "0b6c1c52-6c1e-4b8e-9a57-0c5f2a1f3b11", "0***"},
		{&typeDesc{kind: kInt64Str}, "", "***"},
	} {
		var v any = c.in
		if c.t.kind == kInt64Str {
			v = int64(5)
		}
		if got := redactedString(c.t, reflect.ValueOf(v)); got != c.want {
			t.Errorf("redactedString(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestLogNoDescriptor(t *testing.T) {
	// A Message of a type that is not generated logs its data as slog would.
	m := Message[int]{URN: "u", TraceID: "t", Data: 5, Meta: Meta{SchemaVersion: 1}}
	var buf bytes.Buffer
	slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{ReplaceAttr: dropTime})).Info("x", "m", m)
	want := `{"level":"INFO","msg":"x","m":{"job":"u","trace_id":"t","data":5,"meta":{"id":"","queue":"","lang":"",` +
		`"schema_version":1,"created_at":0},"attempts":0}}` + "\n"
	if got := buf.String(); got != want {
		t.Errorf("got %s\nwant %s", got, want)
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
