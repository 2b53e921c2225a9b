package rt

import (
	"context"
	"regexp"

	"github.com/babelqueue/bqgen/internal/emit/golang/rt/bqrt"
)

// The generic helpers the tests use: the internals of New, Publish, Decode and
// Handle, with the URN and default queue given by the test.

func newMessage[T any](urn, defaultQueue string, data T, opts []Option) (*Message[T], error) {
	m := &Message[T]{Data: data}
	t, _, err := describe(&m.Data)
	if err != nil {
		return nil, err
	}
	if err := initMessage(m, &m.Data, &m.cipher, urn, defaultQueue, t, opts); err != nil {
		return nil, err
	}
	return m, nil
}

func publish[T any](ctx context.Context, p Publisher, m *Message[T]) (string, error) {
	return publishMessage(ctx, p, m, &m.Data, m.cipher)
}

func decodeMessage[T any](body []byte, urn string, opts ...Option) (*Message[T], error) {
	m := new(Message[T])
	t, pii, err := describe(&m.Data)
	if err != nil {
		return nil, err
	}
	if err := decodeInto(body, urn, m, &m.Data, &m.cipher, t, pii, collect(opts).cipher); err != nil {
		return nil, err
	}
	return m, nil
}

func decodeData[T any](b []byte, dst *T) error {
	t, _, err := describe(dst)
	if err != nil {
		return err
	}
	return bqrt.Unmarshal(b, dst, t)
}

func handle[T any](r *Router, urn string, fn func(context.Context, Message[T]) error) {
	r.r.Register(urn, func(ctx context.Context, env *bqrt.Envelope) (err error) {
		defer recovered(&err)
		var m Message[T]
		t, pii, err := describe(&m.Data)
		if err != nil {
			return err
		}
		if err := fill(env, &m, &m.Data, &m.cipher, t, pii); err != nil {
			return err
		}
		return fn(ctx, m)
	})
}

var canonicalUUID = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

func isCanonicalUUID(s string) bool { return canonicalUUID.MatchString(s) }
