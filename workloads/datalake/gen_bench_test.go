package datalake

import "testing"

// BenchmarkGenerate measures drawing the default lake (seed 1, scale 1):
// the template graph, three runs of the real world and the downloads.
func BenchmarkGenerate(b *testing.B) {
	for b.Loop() {
		if _, err := Generate(DefaultParams()); err != nil {
			b.Fatal(err)
		}
	}
}
