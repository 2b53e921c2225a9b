package registry

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// TestDuplicateKeyPastSmallSet: a mapping's keys are looked up in a slice up to
// smallKeySet keys and in a map past it (keySet); a duplicate is found either way,
// with the position of the first key.
func TestDuplicateKeyPastSmallSet(t *testing.T) {
	var b strings.Builder
	b.WriteString("version: 1\nmessages:\n  urn:babel:orders:created:\n    data:\n      properties:\n")
	for i := range 2 * smallKeySet {
		fmt.Fprintf(&b, "        f%d: {type: string}\n", i)
	}
	b.WriteString("        f1: {type: string}\n")                   // a duplicate of a key of the slice
	fmt.Fprintf(&b, "        f%d: {type: string}\n", smallKeySet+3) // of a key of the map
	_, ds, err := LoadFiles(context.Background(), map[string][]byte{"r.yaml": []byte(b.String())})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range ds {
		got = append(got, d.String())
	}
	want := []string{
		fmt.Sprintf(`r.yaml:%d:9: error BQ001: duplicate key "f1" (first defined at r.yaml:7:9)`, 6+2*smallKeySet),
		fmt.Sprintf(`r.yaml:%d:9: error BQ001: duplicate key "f%d" (first defined at r.yaml:%d:9)`, 7+2*smallKeySet, smallKeySet+3, 9+smallKeySet),
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
