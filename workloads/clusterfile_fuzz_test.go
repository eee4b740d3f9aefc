package workloads

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// FuzzParseCluster checks that ParseCluster never panics, that every
// refusal is a one-line *ClusterError, and that whatever it accepts is a
// valid cluster whose Spec, written as JSON, reads back as the same
// cluster. The seed corpus is in testdata/fuzz/FuzzParseCluster.
func FuzzParseCluster(f *testing.F) {
	f.Add([]byte(`{"partitions": [{"nodes": 4}]}`), false)
	f.Add([]byte("partitions:\n  - {name: a, nodes: 2, speed: 2}\n"), true)
	f.Fuzz(func(t *testing.T, data []byte, isYAML bool) {
		format := ClusterJSON
		if isYAML {
			format = ClusterYAML
		}
		c, err := ParseCluster(data, format)
		if err != nil {
			var ce *ClusterError
			if !errors.As(err, &ce) || !errors.Is(err, ErrInvalid) {
				t.Fatalf("error %v is not a *ClusterError", err)
			}
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("error %q is not one line", err)
			}
			return
		}
		if err := c.Validate(); err != nil {
			t.Fatalf("accepted an invalid cluster: %v", err)
		}
		b, err := json.Marshal(c.Spec())
		if err != nil {
			t.Fatal(err)
		}
		back, err := ParseCluster(b, ClusterJSON)
		if err != nil {
			t.Fatalf("the spec %s does not read back: %v", b, err)
		}
		if !reflect.DeepEqual(back, c) {
			t.Fatalf("the spec %s reads back as %+v, want %+v", b, back, c)
		}
	})
}
