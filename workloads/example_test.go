package workloads_test

import (
	"bytes"
	"fmt"
	"log"

	"github.com/plannerhq/planner/workloads"
)

// Generate a small Google-like workload, write it as a workload file and
// read it back.
func Example() {
	p := workloads.DefaultGoogleParams()
	p.Nodes, p.Racks = 64, 2 // 2 racks of 32 nodes
	p.Hours = 1
	p.HistoryJobs = 200
	w, err := workloads.GenerateGoogle(p)
	if err != nil {
		log.Fatal(err)
	}
	var file bytes.Buffer
	if err := workloads.Write(&file, w); err != nil {
		log.Fatal(err)
	}
	back, err := workloads.Read(&file)
	if err != nil {
		log.Fatal(err)
	}
	s := workloads.Stats(back)
	fmt.Printf("%s workload, %d nodes in %d racks, window %.0f s, %d history jobs\n",
		back.Header.Generator, back.Header.Cluster.TotalNodes(), len(back.Header.Cluster.PartitionNodes),
		back.Header.WindowS, len(back.History))
	for _, g := range s.ByClass {
		fmt.Printf("%s load %.2f\n", g.Name, g.Load)
	}
	// Output:
	// google workload, 64 nodes in 2 racks, window 3600 s, 200 history jobs
	// slo load 0.70
	// be load 0.70
}

// Read reports the first malformed line.
func ExampleRead() {
	file := `{"version":1,"generator":"hand","seed":0,"cluster":{"partition_nodes":[32,32],"slowdown":1.5},"window_s":3600,"jobs":1,"history_jobs":0}
{"id":0,"submit_s":0,"class":"be","nodes":0,"runtime_s":60,"value":1,"features":{"submit_hour":0,"submit_day":0}}
`
	_, err := workloads.Read(bytes.NewBufferString(file))
	fmt.Println(err)
	// Output:
	// workload line 2: job 0: nodes must be ≥ 1, got 0
}
