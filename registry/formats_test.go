package registry

import (
	"reflect"
	"testing"

	emitjs "github.com/babelqueue/bqgen/internal/emit/jsonschema"
)

// TestFormatPatternsMatchEmitter: the registry checks examples against the same
// format narrowing the emitted schemas carry.
func TestFormatPatternsMatchEmitter(t *testing.T) {
	t.Parallel()
	if !reflect.DeepEqual(formatPatterns, emitjs.FormatPatterns) {
		t.Errorf("registry/formats.go differs from internal/emit/jsonschema FormatPatterns:\n got %q\nwant %q", formatPatterns, emitjs.FormatPatterns)
	}
	if emailMaxLength != emitjs.EmailMaxLength {
		t.Errorf("emailMaxLength = %d, want %d", emailMaxLength, emitjs.EmailMaxLength)
	}
}
