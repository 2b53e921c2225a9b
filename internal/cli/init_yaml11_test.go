package cli

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/babelqueue/bqgen/internal/engines"
)

// TestInitStarterReadsAlikeInPyYAML: the starter registry `bqgen init` writes reads
// the same in PyYAML (YAML 1.1) as in yaml.v3 (issue 19, item 4).
func TestInitStarterReadsAlikeInPyYAML(t *testing.T) {
	want := engines.YAMLv3(t, starterRegistry)
	if got := engines.PyYAML(t, []string{string(starterRegistry)}); !reflect.DeepEqual(got[0], want) {
		g, _ := json.Marshal(got[0])
		w, _ := json.Marshal(want)
		t.Errorf("PyYAML reads the starter otherwise:\nyaml.v3: %s\nPyYAML:  %s", w, g)
	}
}
