package service

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/plannerhq/planner/workloads"
)

// BenchmarkSubmit is the cost of one accepted submission through the HTTP
// API on loopback, from the request to the durable write and the answer,
// with b.N clients' requests in flight (RunParallel): the group commit
// shares one disk sync among the requests that wait together.
func BenchmarkSubmit(b *testing.B) {
	c := workloads.DefaultCluster(256, 8)
	cfg := Config{Clock: ClockVirtual, Interval: 10 * time.Second, Scheduler: "prio", Cluster: &c}
	ts := startService(b, "", cfg)
	ctx := context.Background()
	var n atomic.Int64
	b.SetParallelism(16)
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			id := n.Add(1)
			spec := JobSpec{ID: fmt.Sprint("b", id), User: fmt.Sprint("u", id%20), Name: fmt.Sprint("n", id%50), Nodes: ptr(1 + int(id%8)), Class: "be"}
			if _, _, err := ts.c.Submit(ctx, spec); err != nil {
				b.Fatal(err)
			}
		}
	})
}
