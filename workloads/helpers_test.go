package workloads

import (
	"bytes"
	"testing"
)

// jobBuilder builds test jobs: newJob(1).at(10).nodes(4).slo(100).job().
type jobBuilder struct{ j Job }

func newJob(id int) *jobBuilder {
	return &jobBuilder{j: Job{ID: id, Class: BestEffort, Nodes: 1, Runtime: 60, Value: 1}}
}

func (b *jobBuilder) at(submit float64) *jobBuilder { b.j.Submit = submit; return b }
func (b *jobBuilder) nodes(n int) *jobBuilder       { b.j.Nodes = n; return b }
func (b *jobBuilder) runtime(s float64) *jobBuilder { b.j.Runtime = s; return b }
func (b *jobBuilder) kind(k string) *jobBuilder     { b.j.Kind = k; return b }
func (b *jobBuilder) prefer(r ...int) *jobBuilder   { b.j.Preferred = r; return b }
func (b *jobBuilder) slo(deadline float64) *jobBuilder {
	b.j.Class, b.j.Deadline = SLO, deadline
	return b
}
func (b *jobBuilder) job() Job { return b.j }

// smallWorkload is a valid hand-made workload: 2 racks of 4 nodes, a
// 1-hour window, one history job and three window jobs.
func smallWorkload() *Workload {
	return &Workload{
		Header: Header{
			Version:   FormatVersion,
			Generator: "test",
			Seed:      7,
			Cluster:   Cluster{PartitionNodes: []int{4, 4}, Slowdown: 1.5},
			WindowS:   3600,
		},
		History: []Job{newJob(10).at(-100).runtime(50).job()},
		Jobs: []Job{
			newJob(0).at(0).nodes(2).runtime(600).slo(900).prefer(1).kind("short").job(),
			newJob(1).at(30).nodes(8).runtime(1200).kind("long").job(),
			newJob(2).at(30).nodes(1).runtime(60).kind("short").job(),
		},
	}
}

// encode writes w and fails the test on error.
func encode(t testing.TB, w *Workload) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, w); err != nil {
		t.Fatalf("Write: %v", err)
	}
	return buf.Bytes()
}

// generate runs GenerateGoogle and fails the test on error.
func generate(t testing.TB, p Params) *Workload {
	t.Helper()
	return generateEnv(t, GeneratorGoogle, p)
}

// generateEnv runs Generate and fails the test on error.
func generateEnv(t testing.TB, generator string, p Params) *Workload {
	t.Helper()
	w, err := Generate(generator, p)
	if err != nil {
		t.Fatalf("Generate(%s): %v", generator, err)
	}
	return w
}

// defaults is DefaultParams(generator), failing the test on error.
func defaults(t testing.TB, generator string) Params {
	t.Helper()
	p, err := DefaultParams(generator)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func nan() float64 { var z float64; return z / z }
