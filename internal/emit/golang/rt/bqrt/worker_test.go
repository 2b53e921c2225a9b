package bqrt

import (
	"reflect"
	"testing"
)

// TestLayout: where a retry's attempts and a dead_letter block go, every other byte
// kept; what is not one strict JSON object has no layout.
func TestLayout(t *testing.T) {
	dl := &DeadLetter{Reason: "poison", FailedAt: 5, OriginalQueue: "q", Attempts: 1, Lang: "go"}
	const block = `{"reason":"poison","error":null,"exception":null,"failed_at":5,"original_queue":"q","attempts":1,"lang":"go"}`
	for _, tc := range []struct {
		body, attempts, dead string
		n                    int
	}{
		{`{"job":"a","attempts":2}`, `{"job":"a","attempts":3}`, `{"job":"a","attempts":2,"dead_letter":` + block + `}`, 2},
		{` { "attempts" : 7 , "x" : [1] } `, ` { "attempts" : 8 , "x" : [1] } `, ` { "attempts" : 7 , "x" : [1] ,"dead_letter":` + block + `} `, 7},
		{`{"job":"a"}`, `{"job":"a","attempts":1}`, `{"job":"a","dead_letter":` + block + `}`, 0},
		{`{}`, `{"attempts":1}`, `{"dead_letter":` + block + `}`, 0},
		{`{"dead_letter":{"reason":"failed"},"attempts":"x"}`, `{"dead_letter":{"reason":"failed"},"attempts":1}`, `{"dead_letter":` + block + `,"attempts":"x"}`, 0},
		{`{"attempts":-1,"data":{"s":"\u00e9"}}`, `{"attempts":1,"data":{"s":"\u00e9"}}`, `{"attempts":-1,"data":{"s":"\u00e9"},"dead_letter":` + block + `}`, 0},
	} {
		l, ok := LayoutOf([]byte(tc.body))
		if !ok {
			t.Errorf("LayoutOf(%s): not an object", tc.body)
			continue
		}
		if got := string(l.WithAttempts([]byte(tc.body), l.Attempts+1)); got != tc.attempts {
			t.Errorf("WithAttempts(%s) = %s, want %s", tc.body, got, tc.attempts)
		}
		if got := string(l.WithDeadLetter([]byte(tc.body), dl)); got != tc.dead {
			t.Errorf("WithDeadLetter(%s) = %s, want %s", tc.body, got, tc.dead)
		}
	}
	for _, body := range []string{"not json {", `[1]`, `"s"`, `{"a":1,"a":2}`, `{"a":1} x`, "{\"a\":\"\xff\"}", `{"a":`, ``} {
		if _, ok := LayoutOf([]byte(body)); ok {
			t.Errorf("LayoutOf(%q) has a layout", body)
		}
	}
	l, _ := LayoutOf([]byte(`{"urn":"u","trace_id":"t","meta":{"id":"i","queue":"q"},"attempts":4}`))
	if l.URN != "u" || l.TraceID != "t" || l.ID != "i" || l.Queue != "q" || l.Attempts != 4 {
		t.Errorf("layout %+v", l)
	}
}

// TestScrub: the sensitive texts of a value, and their redaction in an error text.
func TestScrub(t *testing.T) {
	type rec struct {
		Name  string
		Email string
		Age   int64
		Tags  []string
	}
	desc := &Desc{Kind: KObject, Fields: []Field{
		{Key: "name", Required: true, Type: Desc{Kind: KString}},
		{Key: "email", Required: true, Type: Desc{Kind: KString, Flags: FGDPR}},
		{Key: "age", Required: true, Type: Desc{Kind: KInt64, Flags: FGDPR}},
		{Key: "tags", Required: true, Type: Desc{Kind: KArray, Flags: FGDPR, Elem: &Desc{Kind: KString}}},
	}}
	v := rec{Name: "Ada", Email: "ada@example.com", Age: 36, Tags: []string{"x", "Ñandú", "ada"}}
	texts := SensitiveTexts(&v, desc)
	if want := []string{"ada@example.com", "Ñandú", "ada", "36"}; !reflect.DeepEqual(texts, want) {
		t.Errorf("SensitiveTexts = %q, want %q", texts, want)
	}
	got := Scrub("Ada: no mail to ada@example.com (age 36, tag Ñandú), x", texts)
	if want := "Ada: no mail to a*** (age 3***, tag Ñ***), x"; got != want {
		t.Errorf("Scrub = %q, want %q", got, want)
	}
}
