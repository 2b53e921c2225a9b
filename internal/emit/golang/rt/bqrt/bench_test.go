package bqrt

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// Benchmarks of the runtime (compare a change with benchstat against its parent
// commit).

// BenchmarkDispatch, BenchmarkEncode, BenchmarkValidate and BenchmarkMarshal are the
// hot paths on the sample message: consume, produce, Validate and MarshalJSON.
func BenchmarkDispatch(b *testing.B) {
	r := newRouter()
	handle(r, sampleURN, func(context.Context, Message[sampleOrder]) error { return nil })
	body := []byte(sampleEnvelope)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if err := r.Dispatch(context.Background(), body); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkProtected is the cost of PII protection on the sample message, two of
// whose values (note, lines[].sku) are protected with a test cipher (base64, no
// cryptography): compare with BenchmarkEncode and BenchmarkDispatch.
func BenchmarkProtected(b *testing.B) {
	paths := []string{"lines[].sku", "note"}
	h, x := sampleHeader(), sampleData()
	b.Run("Encode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Encode(h, &x, &sampleOrderDesc, paths, hexCipher{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Dispatch", func(b *testing.B) {
		body, err := Encode(h, &x, &sampleOrderDesc, paths, hexCipher{})
		if err != nil {
			b.Fatal(err)
		}
		r := newRouter()
		r.SetCipher(hexCipher{})
		r.Register(sampleURN, func(_ context.Context, env *Envelope) error {
			var m Message[sampleOrder]
			return env.Fill(&m.Data, &sampleOrderDesc, paths)
		})
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			if err := r.Dispatch(context.Background(), body); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkEncode(b *testing.B) {
	h, x := sampleHeader(), sampleData()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Encode(h, &x, &sampleOrderDesc, nil, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkValidate(b *testing.B) {
	x := sampleData()
	b.ReportAllocs()
	for b.Loop() {
		if err := x.Validate(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMarshal(b *testing.B) {
	x := sampleData()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Marshal(&x, &sampleOrderDesc); err != nil {
			b.Fatal(err)
		}
	}
}

// longLiteralBody is the sample envelope with the value of one member replaced by a
// literal of about size bytes: kind integer is 1. followed by zeros in order_id (the
// integer 1), integer-exp is 1, zeros and e-<zeros> in order_id (1 again, with every
// digit before the point), number is 0.25 followed by zeros in ratio, unknown is a
// number with as many digits in an unknown envelope key, and string (the baseline) a
// string of as many bytes in an unknown envelope key.
func longLiteralBody(kind string, size int) []byte {
	zeros := strings.Repeat("0", size)
	var old, new string
	switch kind {
	case "integer":
		old, new = `"order_id":1042`, `"order_id":1.`+zeros
	case "integer-exp":
		old, new = `"order_id":1042`, `"order_id":1`+zeros+"e-"+strconv.Itoa(size)
	case "number":
		old, new = `"ratio":0.25`, `"ratio":0.25`+zeros
	case "unknown":
		old, new = `"attempts":0`, `"attempts":0,"x":1`+zeros+"e-"+strconv.Itoa(size)
	case "string":
		old, new = `"attempts":0`, `"attempts":0,"x":"`+zeros+`"`
	}
	return []byte(strings.Replace(sampleEnvelope, old, new, 1))
}

var longLiteralKinds = []string{"string", "integer", "integer-exp", "number", "unknown"}

// BenchmarkLongLiteral: Router.Dispatch of an envelope carrying one number literal of
// 10 KB to 1 MB (issue 16, item 4). The cost per byte (MB/s, ns/B) must stay flat as
// the literal grows, and close to the string baseline: linear in the body.
func BenchmarkLongLiteral(b *testing.B) {
	r := newRouter()
	handle(r, sampleURN, func(context.Context, Message[sampleOrder]) error { return nil })
	for _, kind := range longLiteralKinds {
		for _, size := range []int{10_000, 100_000, 1_000_000} {
			body := longLiteralBody(kind, size)
			b.Run(fmt.Sprintf("kind=%s/size=%dKB", kind, size/1000), func(b *testing.B) {
				b.SetBytes(int64(len(body)))
				for b.Loop() {
					if err := r.Dispatch(context.Background(), body); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(body)), "ns/B")
			})
		}
	}
}
