package wing

import (
	"testing"

	"github.com/plannerhq/planner/workloads/datalake"
)

// BenchmarkBuild profiles the default lake's log (seed 1, scale 1).
func BenchmarkBuild(b *testing.B) {
	l, err := datalake.Generate(datalake.DefaultParams())
	if err != nil {
		b.Fatal(err)
	}
	g := l.Log()
	b.ResetTimer()
	for b.Loop() {
		if _, err := Build(g, DefaultOptions()); err != nil {
			b.Fatal(err)
		}
	}
}
