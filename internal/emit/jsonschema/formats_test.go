package jsonschema

import (
	"strings"
	"testing"

	"github.com/babelqueue/bqgen/internal/model"
	"github.com/babelqueue/bqgen/internal/ordjson"
)

// TestFormatNarrowingEmitted: every asserted format gets its narrowing pattern, in
// "pattern" or, beside the registry's own pattern, in allOf; email gets maxLength 254
// unless the registry's is smaller.
func TestFormatNarrowingEmitted(t *testing.T) {
	n := func(v int64) *int64 { return &v }
	q := func(s string) string { return string(must(ordjson.Marshal(s))) }
	for _, tt := range []struct {
		s    model.Schema
		want string
	}{
		{model.Schema{Kind: model.String, Format: "email"}, `"maxLength":254,"pattern":` + q(EmailPattern)},
		{model.Schema{Kind: model.String, Format: "email", MaxLength: n(100)}, `"maxLength":100,"pattern":` + q(EmailPattern)},
		{model.Schema{Kind: model.String, Format: "email", MaxLength: n(320)}, `"maxLength":254,"pattern":` + q(EmailPattern)},
		{model.Schema{Kind: model.String, Format: "uri", Pattern: "^https:"}, `"pattern":"^https:","allOf":[{"pattern":` + q(URIPattern) + `}]`},
		{model.Schema{Kind: model.String, Format: "date-time"}, `"pattern":` + q(DateTimePattern)},
		{model.Schema{Kind: model.String, Format: "uuid"}, `"pattern":` + q(UUIDFormatPattern)},
		{model.Schema{Kind: model.String, Format: "hostname"}, ``},
	} {
		g := newGen(nil, false)
		got := strings.Join(strings.Fields(string(must(ordjson.Marshal(g.node(&tt.s))))), "")
		if !strings.Contains(got, strings.Join(strings.Fields(tt.want), "")) || (tt.want == "" && strings.Contains(got, "pattern")) {
			t.Errorf("%+v:\n got %s\nwant …%s…", tt.s, got, tt.want)
		}
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
