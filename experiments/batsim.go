package experiments

import (
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// BatsimJobsHeader is the header of jobs-<scheduler>.batsim.csv: the
// columns of the jobs file Batsim writes (its _jobs.csv) and evalys's
// JobSet.from_csv reads, in Batsim's order.
var BatsimJobsHeader = []string{"job_id", "workload_name", "submission_time", "requested_number_of_resources",
	"requested_time", "success", "final_state", "starting_time", "execution_time", "finish_time",
	"waiting_time", "turnaround_time", "stretch", "allocated_resources", "consumed_energy"}

// Batsim's final states of a job (its JobState names).
const (
	batsimCompleted = "COMPLETED_SUCCESSFULLY"
	batsimKilled    = "COMPLETED_KILLED"
	batsimRejected  = "REJECTED"
)

// WriteBatsimJobs writes one run's jobs in Batsim's jobs-file shape, one
// row per job by id (times in seconds from the workload's start):
//
//	requested_time = Job.Requested, −1 when unknown (Batsim's "no walltime");
//	waiting_time   = starting_time − submission_time;
//	execution_time = finish_time − starting_time;
//	turnaround_time = finish_time − submission_time;
//	stretch        = turnaround_time / execution_time (Batsim's definition);
//	allocated_resources = the final run's nodes as intervals "a-b c" (the
//	                 node rows of the Gantt chart, ganttRows: partition r
//	                 owns nodes base[r] … base[r]+PartitionNodes[r]−1).
//
// A completed job has success 1 and final_state COMPLETED_SUCCESSFULLY; a
// job that started but did not complete, success 0 and COMPLETED_KILLED;
// one that never started, success 0, REJECTED and empty time columns.
// A gang job's intervals hold exactly requested_number_of_resources nodes;
// a task-level job's are the union of its tasks' nodes (its tasks may
// reuse a node, so they may hold fewer). consumed_energy is empty: the
// simulator has no energy model. workload is the run's workload name.
func WriteBatsimJobs(w io.Writer, workload string, res *SimResult) error {
	rows, _, err := ganttRows(res)
	if err != nil {
		return fmt.Errorf("batsim jobs: %w", err)
	}
	nodes := make(map[int][]int, len(res.Jobs)) // the final run's (a task job's runs') nodes
	for i, run := range res.Runs {
		if !run.Preempted {
			nodes[run.JobID] = append(nodes[run.JobID], rows[i]...)
		}
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(BatsimJobsHeader); err != nil {
		return err
	}
	for i := range res.Jobs {
		j := &res.Jobs[i]
		req := "-1"
		if j.Requested > 0 {
			req = csvFloat(j.Requested)
		}
		row := []string{strconv.Itoa(j.JobID), workload, csvFloat(j.Submit), strconv.Itoa(j.Nodes), req,
			"0", batsimRejected, "", "", "", "", "", "", "", ""}
		if j.Started || j.Completed {
			row[6] = batsimKilled
			row[7], row[10] = csvFloat(j.Start), csvFloat(j.Start-j.Submit)
			n := nodes[j.JobID]
			slices.Sort(n)
			row[13] = nodeIntervals(slices.Compact(n))
		}
		if j.Completed {
			exec, turn := j.End-j.Start, j.End-j.Submit
			row[5], row[6] = "1", batsimCompleted
			row[8], row[9], row[11] = csvFloat(exec), csvFloat(j.End), csvFloat(turn)
			if exec > 0 {
				row[12] = csvFloat(turn / exec)
			}
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// nodeIntervals writes ascending distinct node indices as Batsim's
// interval set: blocks of consecutive nodes "a-b" (a lone node "a"),
// separated by spaces, e.g. "0-31 64-95".
func nodeIntervals(nodes []int) string {
	var b strings.Builder
	for i, blk := range rowBlocks(nodes) {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.Itoa(blk[0]))
		if blk[1]-1 > blk[0] {
			b.WriteByte('-')
			b.WriteString(strconv.Itoa(blk[1] - 1))
		}
	}
	return b.String()
}
