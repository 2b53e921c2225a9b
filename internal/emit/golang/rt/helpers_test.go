package rt

import "context"

// The generic helpers the tests use, written the way the generated code calls
// the runtime for one message type.

func newMessage[T any](urn, defaultQueue string, data T, opts []Option) (*Message[T], error) {
	m := &Message[T]{Data: data}
	t, err := schemaOf(&m.Data)
	if err != nil {
		return nil, err
	}
	if err := initMessage(m, t, urn, defaultQueue, opts); err != nil {
		return nil, err
	}
	return m, nil
}

func publish[T any](ctx context.Context, p Publisher, m *Message[T]) (string, error) {
	return publishMessage(ctx, p, m, nil)
}

func decodeMessage[T any](body []byte, urn string) (*Message[T], error) {
	m := new(Message[T])
	t, err := schemaOf(&m.Data)
	if err != nil {
		return nil, err
	}
	if err := decodeMessageInto(body, urn, m, t); err != nil {
		return nil, err
	}
	return m, nil
}

func decodeData[T any](b []byte, dst *T) error {
	t, err := schemaOf(dst)
	if err != nil {
		return err
	}
	return unmarshalAny(b, dst, t)
}

func handle[T any](r *Router, urn string, fn func(context.Context, Message[T]) error) {
	r.register(urn, func(ctx context.Context, env *envelope) error {
		var m Message[T]
		t, err := schemaOf(&m.Data)
		if err != nil {
			return err
		}
		if err := env.fill(&m, t); err != nil {
			return err
		}
		return fn(ctx, m)
	})
}
