package rt

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// TestRouterMaxBodySize checks the body size limit of Dispatch: DefaultMaxBodySize
// for NewRouter() and the zero Router, WithMaxBodySize(n) to change it, n <= 0 for
// none; the limit is checked before parsing. examples/events hostile_test.go has the
// full hostile-body table on a generated package.
func TestRouterMaxBodySize(t *testing.T) {
	body := func(n int) []byte {
		// Not JSON at all: only the size check can tell these apart.
		return []byte(strings.Repeat(" ", n))
	}
	over := func(err error) bool {
		return errors.Is(err, ErrMalformedEnvelope) && strings.Contains(err.Error(), "over the limit")
	}
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		r    *Router
		n    int
		over bool
	}{
		{"NewRouter at the default", NewRouter(), DefaultMaxBodySize, false},
		{"NewRouter over the default", NewRouter(), DefaultMaxBodySize + 1, true},
		{"zero Router over the default", &Router{}, DefaultMaxBodySize + 1, true},
		{"WithMaxBodySize(16) at 16", NewRouter(WithMaxBodySize(16)), 16, false},
		{"WithMaxBodySize(16) at 17", NewRouter(WithMaxBodySize(16)), 17, true},
		{"WithMaxBodySize(0) removes the limit", NewRouter(WithMaxBodySize(0)), DefaultMaxBodySize + 1, false},
		{"WithMaxBodySize(-5) removes the limit", NewRouter(WithMaxBodySize(-5)), DefaultMaxBodySize + 1, false},
		{"the last option wins", NewRouter(WithMaxBodySize(16), nil, WithMaxBodySize(32)), 20, false},
	} {
		err := tc.r.Dispatch(ctx, body(tc.n))
		if over(err) != tc.over {
			t.Errorf("%s: Dispatch(%d bytes) = %v, want over the limit: %v", tc.name, tc.n, err, tc.over)
		}
		if err == nil || !errors.Is(err, ErrMalformedEnvelope) {
			t.Errorf("%s: Dispatch(%d spaces) = %v, want ErrMalformedEnvelope", tc.name, tc.n, err)
		}
	}
}
