package registry

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// synthetic returns a registry of n messages with a few fields each.
func synthetic(n int) []byte {
	var b strings.Builder
	b.WriteString("version: 1\nconsumers: [go]\nmessages:\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "  urn:babel:ctx%d:thing%d.created:\n    summary: Thing %d was created.\n    data:\n      required: [id, name]\n      properties:\n", i%50, i, i)
		b.WriteString("        id: {type: integer, minimum: 1}\n        name: {type: string, maxLength: 100}\n        price: {type: money}\n        created_at: {type: timestamp}\n        tags: {type: array, items: {type: string}}\n")
	}
	return []byte(b.String())
}

func BenchmarkLoad(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		src := synthetic(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				_, ds, err := LoadFiles(context.Background(), map[string][]byte{"r.yaml": src})
				if err != nil || ds.HasErrors() {
					b.Fatal(err, ds)
				}
			}
		})
	}
}
