package bqrt

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// The one-pass decoder (stream.go) against the reference it replaces: parse the whole
// body into a tree (parseJSON), check the envelope on the tree, then decode the data
// tree (decodeTree). Both must give the same error text, byte for byte, and the same
// message.

// streamKinds is a type with every descriptor kind the stream decoder has a fast
// path for, and the shapes around them (pointers, Nullable, slices, maps).
type streamKinds struct {
	S   string
	I32 *int32
	F   *float64
	B   *bool
	NS  *Nullable[string]
	NO  Nullable[streamInner]
	IS  *int64
	I3S *int32
	M   map[string]int64
	MS  map[string]string
	MN  map[string]Nullable[string]
	AA  [][]int64
	U   *UUID
	O   *streamInner
	E   *sampleStatus
}

type streamInner struct {
	A Money
	T *Timestamp
}

var streamInnerDesc = Desc{Kind: KObject, Flags: FChecked | FClosed, Fields: []Field{
	{Key: "a", Required: true, Type: Desc{Kind: KMoney, Flags: FChecked}},
	{Key: "t", Type: Desc{Kind: KTimestamp, Flags: FChecked}},
}}

var streamStatusDesc = Desc{Kind: KString, Flags: FChecked, Enum: []string{"new", "paid"}}

var streamKindsDesc = Desc{Kind: KObject, Flags: FChecked, Fields: []Field{
	{Key: "s", Required: true, Type: Desc{Kind: KString, Flags: FChecked | FMin | FMax, Lo: 2, Hi: 4}},
	{Key: "i32", Type: Desc{Kind: KInt32, Flags: FChecked | FMax, Hi: 100}},
	{Key: "f", Type: Desc{Kind: KFloat64, Flags: FChecked | FFMax, FHi: 1.5}},
	{Key: "b", Type: Desc{Kind: KBool}},
	{Key: "ns", Type: Desc{Kind: KString, Flags: FNullable | FChecked, Pattern: &streamPattern}},
	{Key: "no", Type: Desc{Kind: KDesc, Flags: FNullable | FChecked, Elem: &streamInnerDesc}},
	{Key: "is", Type: Desc{Kind: KInt64Str}},
	{Key: "i3s", Type: Desc{Kind: KInt32Str}},
	{Key: "m", Type: Desc{Kind: KMap, Flags: FChecked, Elem: &Desc{Kind: KInt64, Flags: FChecked | FMin, Lo: 0}}},
	{Key: "ms", Type: Desc{Kind: KMap, Flags: FChecked, Elem: &Desc{Kind: KString, Flags: FChecked | FMax, Hi: 3}}},
	{Key: "mn", Type: Desc{Kind: KMap, Flags: FChecked, Elem: &Desc{Kind: KString, Flags: FNullable | FChecked | FMax, Hi: 3}}},
	{Key: "aa", Type: Desc{Kind: KArray, Flags: FChecked | FMax, Hi: 3, Elem: &Desc{Kind: KArray, Flags: FUnique | FChecked, Elem: &Desc{Kind: KInt64}}}},
	{Key: "u", Type: Desc{Kind: KUUID, Flags: FChecked}},
	{Key: "o", Type: Desc{Kind: KDesc, Flags: FChecked, Elem: &streamInnerDesc}},
	{Key: "e", Type: Desc{Kind: KDesc, Flags: FChecked, Elem: &streamStatusDesc}},
}}

var streamPattern = regexp.MustCompile(`^[a-z]{1,3}-[0-9]{2}$`)

func (*streamKinds) schema() *Desc { return &streamKindsDesc }

// decodeTree decodes and validates the tree j into v: the data path as it was
// (and the tree decoder, which the stream decoder falls back to, on its own).
func decodeTree(j *jsonValue, t *Desc, v reflect.Value) error {
	var d decoder
	decodeValue(&d, t, v, j)
	return validateDecoded(&d, t, v)
}

// refUnmarshal is Unmarshal as it was: the whole tree first.
func refUnmarshal(b []byte, x any, t *Desc) error {
	j, err := parseJSON(b)
	if err != nil {
		return ValidationErrors{{Path: "$", Message: syntaxMessage(err)}}
	}
	dst := reflect.ValueOf(x).Elem()
	tmp := reflect.New(dst.Type()).Elem()
	if err := decodeTree(j, t, tmp); err != nil {
		return err
	}
	dst.Set(tmp)
	return nil
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// checkUnmarshalAgrees compares Unmarshal with refUnmarshal on b for both sample
// types.
func checkUnmarshalAgrees(t *testing.T, b []byte) {
	t.Helper()
	for _, pair := range []struct{ got, want any }{
		{new(sampleOrder), new(sampleOrder)},
		{new(streamKinds), new(streamKinds)},
	} {
		desc := pair.got.(described).schema()
		gotErr := Unmarshal(b, pair.got, desc)
		wantErr := refUnmarshal(b, pair.want, desc)
		if errText(gotErr) != errText(wantErr) {
			t.Fatalf("%T: unmarshal(%q)\ngot  %v\nwant %v", pair.got, b, gotErr, wantErr)
		}
		if gotErr != nil && !errors.Is(gotErr, ErrInvalidData) {
			t.Fatalf("%T: unmarshal(%q) = %v, not ErrInvalidData", pair.got, b, gotErr)
		}
		if !reflect.DeepEqual(pair.got, pair.want) {
			t.Fatalf("%T: unmarshal(%q)\ngot  %+v\nwant %+v", pair.got, b, pair.got, pair.want)
		}
	}
}

// streamInputs are data blocks for both sample types: valid ones, every kind of
// type error, syntax errors inside values the stream decoder reads itself.
var streamInputs = []string{
	sampleDataJSON,
	`{"s":"ab"}`,
	` {"s":"abc","i32":7,"f":1.25,"b":true,"ns":"ab-12","no":{"a":{"amount":1,"currency":"EUR"},"t":5},"is":"-12","i3s":"7",` +
		`"m":{"x":1,"y":2},"ms":{"k":"v","\u006b2":"w"},"mn":{"a":null,"b":"xy"},"aa":[[1,2],[],[3]],"u":"0b6f2a9e-3c1d-4e5f-8a7b-9c0d1e2f3a4b",` +
		`"o":{"t":1,"a":{"currency":"USD","amount":-0.0e3}},"e":"paid"} `,
	`{"s":"abc","no":null,"ns":null,"m":{},"ms":{},"mn":{},"aa":[]}`,
	`{ "s" : "abcd" , "i32" : 1.0e1 , "b" : false , "o" : { "a" : { "amount" : 1 , "currency" : "EUR" } } }`,
	// type errors, in document order, then missing keys
	`{"s":1,"i32":"1","f":"x","b":0,"ns":1,"no":[],"is":1,"i3s":"99999999999","m":[],"ms":{"a":1,"b":null},"mn":{"a":1},"aa":[[1.5],{}],"u":2,"o":{"x":1},"e":3}`,
	`{"i32":2147483648,"is":"01","i3s":"-0","m":{"a":-1.5},"o":{"a":{"amount":1.5,"currency":1,"x":2}}}`,
	`{"s":"a","i32":101,"f":1.5000000000000000001,"ns":"AB-12","mn":{"a":"long"},"aa":[[1,1],[2],[3],[4]],"u":"X","e":"void"}`,
	`{"s":"abc","f":1.4999999999999999999,"o":{"a":{"amount":1,"currency":"EUR"},"t":8640000000000001}}`,
	`{"s":"ǅǅǅǅ"}`, `{"s":"ǅǅǅǅǅ"}`, `{"s":"é"}`,
	`{"s":"abc","no":{"a":{"amount":1,"currency":"EUR","amount":2}}}`,
	`{"s":"abc","o":{"a":{"amount":1,"currency":"EUR"},"a":1}}`,
	`{"s":"abc","o":{"a":{"currency":"EUR","currency":"USD"}}}`, `{"s":"abc","o":{"a":{"amount":1,"amount":2}}}`,
	`{"s":"abc","o":{"a":{"amount":1}}}`, `{"s":"abc","o":{"a":{}}}`, `{"s":"abc","o":{"a":{"amount":1,"currency":"EUR",}}}`,
	`{"s":"abc","o":{"a":{"amount":1 "currency":"EUR"}}}`, `{"s":"abc","o":{"a":{"amount" 1}}}`, `{"s":"abc","o":{"a":{1:2}}}`,
	// syntax errors inside values read by the stream decoder
	`{"s":"a` + "\xff" + `b"}`, `{"s":"\ud800"}`, `{"s":"abc","i32":1e400}`, `{"s":"abc","i32":-}`, `{"s":"abc","b":tru}`,
	`{"s":"abc","ns":nul}`, `{"s":"abc","m":{"a":1,"a":2}}`, `{"s":"abc","ms":{"a":"1","\u0061":"2"}}`,
	`{"s":"abc","aa":[[1,]]}`, `{"s":"abc","aa":[[1] [2]]}`, `{"s":"abc","o":{"a":{"amount":1,"currency":"EUR"}`,
	`{"s":"abc","s":"abd"}`, `{"s":"abc",}`, `{"s":"abc" "b":true}`, `{"s" "abc"}`, `{"s":"abc"} x`, `{"s":"abc"`,
	`{"s":"abc","x":[1,{"y":2,"y":3}]}`, `{"s":"abc","x":"` + "\x01" + `"}`, `{"s":"abc","m":{"a":1}`, `{"s":"abc","ms":{"a":"b"`,
	`{"s":"abc","o":` + strings.Repeat("[", 200) + strings.Repeat("]", 200) + `}`,
	`{"s":"abc","aa":[` + strings.Repeat("[", 130) + strings.Repeat("]", 130) + `]}`,
	`{"ratio":1e-400,"lines":[{"sku":"AB","quantity":1,"extra":[1,2]}],"tags":{"a":"1","b":2}}`,
	`{"order_id":1,"total":{"amount":1,"currency":"EUR"},"discount":7,"lines":[{"sku":"A1","quantity":1},{"quantity":2,"sku":"A1"}],"placed_at":1,"status":"paid"}`,
	`[]`, `"x"`, `null`, `1`, ``, ` `, `{`, `{"a":1,"a":2}`, strings.Repeat("[", 129) + strings.Repeat("]", 129),
}

func TestStreamMatchesTree(t *testing.T) {
	t.Parallel()
	for _, in := range streamInputs {
		checkUnmarshalAgrees(t, []byte(in))
	}
}

func FuzzStreamMatchesTree(f *testing.F) {
	for _, in := range streamInputs {
		f.Add([]byte(in))
	}
	for _, tc := range hostileNumberCases {
		f.Add([]byte(tc.data))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		checkUnmarshalAgrees(t, b)
	})
}

// TestStreamValues pins values the stream decoder writes, beyond agreeing with the
// tree decoder: pointers and Nullable for present, null and absent fields; a
// non-nil empty slice and map for [] and {}.
func TestStreamValues(t *testing.T) {
	t.Parallel()
	var x streamKinds
	in := `{"s":"abc","ns":null,"no":null,"mn":{"a":null,"b":"xy"},"ms":{},"aa":[[],[7]],"f":-0.5,"i3s":"-3"}`
	if err := Unmarshal([]byte(in), &x, &streamKindsDesc); err != nil {
		t.Fatal(err)
	}
	f, i3 := -0.5, int32(-3)
	want := streamKinds{
		S: "abc", NS: &Nullable[string]{}, NO: Nullable[streamInner]{},
		MN: map[string]Nullable[string]{"a": {}, "b": {Value: "xy", Valid: true}},
		MS: map[string]string{}, AA: [][]int64{{}, {7}}, F: &f, I3S: &i3,
	}
	if !reflect.DeepEqual(x, want) {
		t.Fatalf("got  %+v\nwant %+v", x, want)
	}
	if x.MS == nil || x.AA[0] == nil || x.M != nil || x.I32 != nil {
		t.Fatalf("{} and [] must be non-nil, absent nil: %+v", x)
	}
}

// refDispatch is Router.Dispatch as it was, for a router with the sampleOrder handler
// only: the error text and the message handed to the handler.
func refDispatch(body []byte) (string, *Message[sampleOrder]) {
	root, err := parseJSON(body)
	if err != nil {
		return err.Error(), nil
	}
	env := &Envelope{}
	if err := env.check(root); err != nil {
		return err.Error(), nil
	}
	if env.hdr.URN != sampleURN {
		return fmt.Errorf("%w: no handler for %q", ErrUnknownURN, env.hdr.URN).Error(), nil
	}
	m := &Message[sampleOrder]{Header: env.hdr}
	if err := decodeTree(member(root.obj, "data"), &sampleOrderDesc, reflect.ValueOf(&m.Data).Elem()); err != nil {
		return env.hdr.URN + ": " + err.Error(), nil
	}
	return "", m
}

// checkDispatchAgrees compares Router.Dispatch and decodeMessageInto with
// refDispatch on body.
func checkDispatchAgrees(t *testing.T, body []byte) {
	t.Helper()
	wantErr, wantMsg := refDispatch(body)
	var got *Message[sampleOrder]
	r := newRouter()
	handle(r, sampleURN, func(_ context.Context, m Message[sampleOrder]) error {
		got = &m
		return nil
	})
	gotErr := errText(r.Dispatch(context.Background(), body))
	if gotErr != wantErr {
		t.Fatalf("Dispatch(%q)\ngot  %s\nwant %s", body, gotErr, wantErr)
	}
	if !reflect.DeepEqual(got, wantMsg) {
		t.Fatalf("Dispatch(%q) handed\n%+v\nwant\n%+v", body, got, wantMsg)
	}
	// decodeMessageInto: the same, except that another URN is "got …, want …" and a
	// data error is not prefixed with the URN.
	m, err := decodeMessage[sampleOrder](body, sampleURN)
	switch {
	case wantMsg != nil:
		if err != nil || !reflect.DeepEqual(m, wantMsg) {
			t.Fatalf("decodeMessage(%q) = %+v, %v; want %+v", body, m, err, wantMsg)
		}
	case strings.HasPrefix(wantErr, ErrUnknownURN.Error()):
		if !errors.Is(err, ErrUnknownURN) {
			t.Fatalf("decodeMessage(%q) = %v, want ErrUnknownURN", body, err)
		}
	default:
		if want := strings.TrimPrefix(wantErr, sampleURN+": "); errText(err) != want {
			t.Fatalf("decodeMessage(%q)\ngot  %v\nwant %s", body, err, want)
		}
	}
}

// envelopeInputs are bodies for checkDispatchAgrees: every member order (job first
// takes the one-pass path, anything else the two-pass one), syntax errors in and
// after data together with envelope faults and unknown URNs, the urn alias.
func envelopeInputs() []string {
	meta := `"meta":{"id":"` + testID + `","queue":"orders","lang":"go","schema_version":1,"created_at":1700000000123}`
	job := `"job":"` + sampleURN + `"`
	trace := `"trace_id":"` + testTrace + `"`
	data := `"data":` + sampleDataJSON
	badData := `"data":{"order_id":"x","lines":[{"sku":"a"` + "\xff" + `"}]}`
	invalidData := `"data":{"order_id":0,"total":{"amount":1,"currency":"EUR"},"discount":null,"lines":[{"sku":"A1","quantity":1}],"placed_at":1,"status":"new","x":1}`
	obj := func(members ...string) string { return "{" + strings.Join(members, ",") + "}" }
	return []string{
		sampleEnvelope,
		obj(job, trace, data, meta, `"attempts":3`),
		obj(trace, job, data, meta),
		obj(data, meta, trace, job),
		obj(`"urn":"`+sampleURN+`"`, trace, data, meta),
		obj(job, `"urn":"other"`, trace, data, meta),
		obj(`"job":"urn:babel:orders:created"`, trace, invalidData, meta),
		obj(job, trace, invalidData, `"meta":{"schema_version":2}`),
		obj(job, trace, badData, `"meta":{"schema_version":2}`),
		obj(job, trace, badData, meta),
		obj(job, trace, data, meta, `"x":tru`),
		obj(job, trace, invalidData, meta, `"x":tru`),
		obj(job, trace, data, meta, `"job":"again"`),
		obj(job, trace, `"data":[]`, meta),
		obj(job, trace, `"data":{"order_id":1}`, meta, `"attempts":-1`),
		obj(job, trace, meta),
		obj(job, `"trace_id":" "`, data, meta),
		obj(`"job":"urn:babel:other:thing"`, trace, data, meta),
		obj(`"job":"urn:babel:other:thing"`, trace, badData, meta),
		obj(`"job":"urn:babel:orders:cr\u0065ated"`, trace, data, meta),
		obj(`"job":""`, trace, data, meta),
		obj(`"job":"`+sampleURN+"\xff"+`"`, trace, data, meta),
		obj(job, trace, data, meta, `"dead_letter":{"reason":"poison","error":null,"exception":"E","failed_at":1,"original_queue":"q","attempts":2,"lang":"php"}`),
		obj(job, trace, data, meta, `"dead_letter":{"reason":"poison"}`),
		obj(job, trace, data, meta) + " ",
		" " + obj(job, trace, data, meta),
		obj(job, trace, data, meta) + "}",
		obj(job, trace, data),
		`{"job":"` + sampleURN + `"`,
		`{"job":"` + sampleURN,
		`{"job":"`,
		`[]`,
		``,
	}
}

func TestDispatchMatchesTree(t *testing.T) {
	t.Parallel()
	for _, in := range envelopeInputs() {
		checkDispatchAgrees(t, []byte(in))
	}
	for _, in := range streamInputs { // as data, in the one-pass and the two-pass order
		checkDispatchAgrees(t, []byte(envelopeWith(`"data":`+sampleDataJSON, `"data":`+in)))
		checkDispatchAgrees(t, []byte(`{"trace_id":"`+testTrace+`","data":`+in+`,"job":"`+sampleURN+`","meta":{"schema_version":1}}`))
	}
}

func FuzzDispatchMatchesTree(f *testing.F) {
	for _, in := range envelopeInputs() {
		f.Add([]byte(in))
	}
	for _, tc := range hostileNumberCases {
		f.Add([]byte(envelopeWith(`"data":`+sampleDataJSON, `"data":`+tc.data)))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		checkDispatchAgrees(t, b)
	})
}

func TestLeadingJob(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want string
		ok   bool
	}{
		{`{"job":"urn:a","data":{}}`, "urn:a", true},
		{`{"job":"","data":{}}`, "", true},
		{`{"job":"urn:\u0061"}`, "", false},
		{`{"job":"urn:a`, "", false},
		{`{ "job":"urn:a"}`, "", false},
		{`{"urn":"urn:a"}`, "", false},
		{`{"job":1}`, "", false},
		{`{"job":"`, "", false},
		{``, "", false},
	}
	for _, tt := range tests {
		got, ok := leadingJob([]byte(tt.in))
		if string(got) != tt.want || ok != tt.ok {
			t.Errorf("leadingJob(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestCompileSimple(t *testing.T) {
	t.Parallel()
	tests := []struct {
		expr string
		ok   bool
	}{
		{`^[A-Z]{2}$`, true},
		{`^[A-Z0-9-]{3,32}$`, true},
		{`^INV-[0-9]{6}$`, true},
		{`^[a-z]+-[0-9]*$`, true},
		{`^$`, true},
		{`^é?x$`, true},
		{`^[a-z]{1,3}[a-z]$`, false}, // varies, then overlaps
		{`^a*a$`, false},
		{`^[a-z]{2}(-[A-Z]{2})?$`, false}, // a group
		{`[A-Z]{2}`, false},               // unanchored
		{`^[A-Z]{2}`, false},
		{`^(?i)ab$`, false},
		{`^a|b$`, false},
		{`^.$`, false},
		{`^a*?$`, false},
		{`^(?m)a$`, false},
	}
	for _, tt := range tests {
		if got := compileSimple(tt.expr).ok; got != tt.ok {
			t.Errorf("compileSimple(%q).ok = %v, want %v", tt.expr, got, tt.ok)
		}
	}
}

// TestMatchPatternAgreesWithRegexp compares matchPattern with regexp on patterns
// simple and not, and strings around their edges (lengths, classes, invalid UTF-8).
func TestMatchPatternAgreesWithRegexp(t *testing.T) {
	t.Parallel()
	exprs := []string{
		`^[A-Z]{2}$`, `^[A-Z0-9-]{3,32}$`, `^INV-[0-9]{6}$`, `^[a-z]+-[0-9]*$`, `^$`, `^é?x$`, `^[0-9]{4}$`,
		`^[^a-z]{2,}$`, `^[\x{FFFD}]$`, `^[a-z]{1,3}[a-z]$`, `^[a-z]{2}(-[A-Z]{2})?$`, `[A-Z]{2}`, `^\d{0}$`,
		`^[a-zA-Z]{1,2}\.[0-9]?$`, `^\p{Lu}{2}$`,
	}
	strs := []string{
		"", "A", "AB", "ABC", "ab", "A1", "ABC-123", "AB-", strings.Repeat("A", 32), strings.Repeat("A", 33),
		"INV-123456", "INV-12345", "INV-1234567", "inv-123456", "ab-", "ab-12", "-12", "x", "éx", "ééx", "1234", "123",
		"12345", "\xff", "\xff\xfe", "AB\n", "\nAB", "abcd", "abc", "a.1", "ab.", "Ab.9", "ÀÉ", "ÀÉÎ", "é", "1é",
	}
	for _, expr := range exprs {
		re := regexp.MustCompile(expr)
		for _, s := range strs {
			if got, want := matchPattern(re, s), re.MatchString(s); got != want {
				t.Errorf("matchPattern(%q, %q) = %v, want %v", expr, s, got, want)
			}
		}
	}
}

func TestMapValid(t *testing.T) {
	t.Parallel()
	short := &Desc{Kind: KString, Flags: FChecked | FMax, Hi: 2}
	nonNeg := &Desc{Kind: KInt64, Flags: FChecked | FMin, Lo: 0}
	tests := []struct {
		name string
		t    *Desc
		m    any
		want bool
	}{
		{"strings ok", short, map[string]string{"a": "x", "b": "yz"}, true},
		{"string too long", short, map[string]string{"a": "x", "b": "xyz"}, false},
		{"named strings", short, map[string]sampleStatus{"a": "x"}, true},
		{"named string too long", short, map[string]sampleStatus{"a": "xyz"}, false},
		{"ints ok", nonNeg, map[string]int64{"a": 0, "b": 9}, true},
		{"negative int", nonNeg, map[string]int64{"a": 0, "b": -1}, false},
	}
	for _, tt := range tests {
		var d decoder
		if got := mapValid(&d, tt.t, reflect.ValueOf(tt.m)); got != tt.want {
			t.Errorf("%s: mapValid = %v, want %v", tt.name, got, tt.want)
		}
	}
	d := decoder{ties: map[string]numberTie{"$.x": {sign: 1}}}
	if mapValid(&d, nonNeg, reflect.ValueOf(map[string]int64{"a": 1})) {
		t.Error("mapValid with recorded ties = true, want false (the paths decide)")
	}
}

// TestDispatchPooledEnvelopes keeps the messages of many dispatches, on both paths
// (job first or not), from several goroutines, and checks them afterwards: nothing
// a handler receives may live in a recycled envelope.
func TestDispatchPooledEnvelopes(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	got := map[int64]Message[sampleOrder]{}
	r := newRouter()
	handle(r, sampleURN, func(_ context.Context, m Message[sampleOrder]) error {
		mu.Lock()
		got[m.Data.OrderID] = m
		mu.Unlock()
		return nil
	})
	body := func(i int) string {
		data := strings.Replace(sampleDataJSON, `"order_id":1042`, `"order_id":`+strconv.Itoa(i), 1)
		data = strings.Replace(data, `"é<&>"`, `"n`+strconv.Itoa(i%100)+`"`, 1)
		env := envelopeWith(`"data":`+sampleDataJSON, `"data":`+data)
		if i%2 == 1 { // job last: the two-pass path
			env = strings.Replace(env, `"job":"`+sampleURN+`",`, "", 1)
			env = strings.TrimSuffix(env, "}") + `,"job":"` + sampleURN + `"}`
		}
		return env
	}
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 1 + g; i <= 400; i += 4 {
				if err := r.Dispatch(context.Background(), []byte(body(i))); err != nil {
					t.Error(err)
				}
				// an invalid body between two valid ones, to recycle a dirty envelope
				if err := r.Dispatch(context.Background(), []byte(`{"job":"`+sampleURN+`","data":{"x":1}}`)); !errors.Is(err, ErrMalformedEnvelope) {
					t.Errorf("invalid body: %v", err)
				}
			}
		}()
	}
	wg.Wait()
	if len(got) != 400 {
		t.Fatalf("%d messages, want 400", len(got))
	}
	for i := 1; i <= 400; i++ {
		m := got[int64(i)]
		if want := "n" + strconv.Itoa(i%100); m.Data.Note == nil || *m.Data.Note != want || m.TraceID != testTrace ||
			m.URN != sampleURN || m.Meta.ID != testID || m.Data.Lines[0].SKU != "SKU-1" || m.Data.Tags["b"] != "2" {
			t.Fatalf("message %d: %+v", i, m)
		}
	}
}

// TestDispatchHandlerErrorBeforeFill: a handler that fails before it decodes (one
// pass, so the body is not parsed yet) is still reported with the URN.
func TestDispatchHandlerErrorBeforeFill(t *testing.T) {
	t.Parallel()
	boom := errors.New("boom")
	r := newRouter()
	r.Register(sampleURN, func(context.Context, *Envelope) error { return boom })
	err := r.Dispatch(context.Background(), []byte(sampleEnvelope))
	if !errors.Is(err, boom) || err.Error() != sampleURN+": boom" {
		t.Fatalf("Dispatch = %v, want %s: boom", err, sampleURN)
	}
}

// TestExactInt64Plain pins the plain-integer fast path of exactInt64 (up to 18
// digits without strconv) at its edges.
func TestExactInt64Plain(t *testing.T) {
	t.Parallel()
	tests := []struct {
		lit     string
		want    int64
		verdict intVerdict
	}{
		{"0", 0, intOK},
		{"-0", 0, intOK},
		{"7", 7, intOK},
		{"-7", -7, intOK},
		{"999999999999999999", 999999999999999999, intOK},     // 18 digits
		{"-999999999999999999", -999999999999999999, intOK},   // 18 digits
		{"1000000000000000000", 1000000000000000000, intOK},   // 19: strconv
		{"9223372036854775807", 9223372036854775807, intOK},   // 19: strconv
		{"-9223372036854775808", -9223372036854775808, intOK}, // 19: strconv
		{"9223372036854775808", 0, intOutOfRange},
		{"99999999999999999999", 0, intOutOfRange},
		{"", 0, intOutOfRange},
		{"-", 0, intOutOfRange},
	}
	for _, tt := range tests {
		n, v := exactInt64(tt.lit)
		if n != tt.want || v != tt.verdict {
			t.Errorf("exactInt64(%q) = %d, %d; want %d, %d", tt.lit, n, v, tt.want, tt.verdict)
		}
	}
	for i := int64(-100000); i <= 100000; i += 7 {
		lit := strconv.FormatInt(i*999983, 10)
		if n, v := exactInt64(lit); n != i*999983 || v != intOK {
			t.Fatalf("exactInt64(%q) = %d, %d", lit, n, v)
		}
	}
}
