package experiments

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/plannerhq/planner/workloads"
)

// WriteScheduleSWF writes one run's schedule in the Standard Workload
// Format of the Parallel Workloads Archive: a ";" header (version, the
// scheduler, MaxNodes and MaxProcs the cluster's nodes, the queues, the
// users), then one line of 18 fields per job by id:
//
//	1 job number = job id + 1 (SWF counts from 1)   2 submit time (s)
//	3 wait = start − submit (s)                       4 run time = end − start (s)
//	5 allocated processors = nodes                    6, 7 −1 (no CPU or memory record)
//	8 requested processors = nodes                    9 requested time (s), −1 unknown
//	10 −1                                             11 status: 1 completed, 0 started
//	                                                     and not completed, 5 never started
//	12 user number (1… in the order of the sorted user names; −1 unknown)
//	13, 14 −1    15 queue: 1 SLO, 2 best effort    16, 17, 18 −1
//
// Times are written in the shortest form that reads back exactly, so a
// re-import gives jobs.csv's waits to the bit. A job that never started
// has wait and run time −1; one that did not complete, run time −1.
func WriteScheduleSWF(w io.Writer, scheduler, workload string, res *SimResult) error {
	users := map[string]int{}
	var names []string
	for i := range res.Jobs {
		if u := res.Jobs[i].User; u != "" {
			if _, ok := users[u]; !ok {
				users[u] = 0
				names = append(names, u)
			}
		}
	}
	slices.Sort(names)
	for i, u := range names {
		users[u] = i + 1
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "; Version: 2.2\n; Computer: planner simulation\n; Installation: scheduler %s, workload %s\n",
		swfHeaderValue(scheduler), swfHeaderValue(workload))
	fmt.Fprintf(bw, "; Note: the simulated schedule; job number = planner job id + 1, times in seconds from the workload's start\n")
	fmt.Fprintf(bw, "; MaxJobs: %d\n; MaxRecords: %d\n; UnixStartTime: 0\n; TimeZoneString: UTC\n", len(res.Jobs), len(res.Jobs))
	fmt.Fprintf(bw, "; MaxNodes: %d\n; MaxProcs: %d\n", res.Nodes, res.Nodes)
	fmt.Fprintf(bw, "; MaxQueues: 2\n; Queue: 1 slo (SLO jobs, with a deadline)\n; Queue: 2 be (best-effort jobs)\n")
	for i, u := range names {
		fmt.Fprintf(bw, "; Note: user %d is %s\n", i+1, swfHeaderValue(u))
	}
	f := make([]string, 18)
	for i := range res.Jobs {
		j := &res.Jobs[i]
		for k := range f {
			f[k] = "-1"
		}
		f[0] = strconv.Itoa(j.JobID + 1)
		f[1] = csvFloat(j.Submit)
		f[4], f[7] = strconv.Itoa(j.Nodes), strconv.Itoa(j.Nodes)
		if j.Requested > 0 {
			f[8] = csvFloat(j.Requested)
		}
		f[10] = "5"
		if wait, ok := j.Wait(); ok {
			f[2], f[10] = csvFloat(wait), "0"
		}
		if j.Completed {
			f[3], f[10] = csvFloat(j.End-j.Start), "1"
		}
		if u, ok := users[j.User]; ok {
			f[11] = strconv.Itoa(u)
		}
		f[14] = "1"
		if j.Class == workloads.BestEffort {
			f[14] = "2"
		}
		bw.WriteString(strings.Join(f, " "))
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// swfHeaderValue is s on one header line: line ends become spaces.
func swfHeaderValue(s string) string {
	return strings.NewReplacer("\n", " ", "\r", " ").Replace(s)
}
