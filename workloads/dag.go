package workloads

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
)

// GeneratorTwoSigmaDAG is the 2Sigma-like task environment made of DAG
// jobs (SLearn §6, GTrace19-DAG's construction): consecutive jobs of the
// 2sigma workload, 2–5 at a time, become the stages of one DAG.
const GeneratorTwoSigmaDAG = "2sigma-dag"

// DAG sizes, in stages (SLearn §6: drawn uniformly from 2–5).
const (
	MinDAGStages = 2
	MaxDAGStages = 5
)

// twoSigmaDAGModel is twoSigmaModel whose jobs are then chained into DAGs.
var twoSigmaDAGModel = func() envModel {
	m := twoSigmaModel
	m.name, m.dags = GeneratorTwoSigmaDAG, true
	return m
}()

// FormDAGs chains jobs (one section of a workload, sorted by submit) into
// DAG jobs as SLearn §6 builds GTrace19-DAG: in submit order, the next
// k jobs, k uniform in [MinDAGStages, MaxDAGStages] (fewer at the end),
// are the stages of one DAG in that order; every later stage takes the
// first stage's job name and user (its application, size and runtimes
// stay its own), waits for the stage before it (Job.After) and carries
// the first stage's submit time as its placeholder submit. Jobs are
// numbered firstID, firstID+1, … in their order, then re-sorted by
// submit (stable, so a stage follows its predecessor) and renumbered in
// that order, After following. Generate forms DAGs before it sets
// deadlines and submit-time features, so an SLO stage's deadline counts
// from its DAG's arrival.
func FormDAGs(rng *rand.Rand, jobs []Job, firstID int) {
	for i := range jobs {
		jobs[i].ID = firstID + i
	}
	for i := 0; i < len(jobs); {
		k := min(len(jobs)-i, MinDAGStages+rng.IntN(MaxDAGStages-MinDAGStages+1))
		root := &jobs[i]
		for s := i + 1; s < i+k; s++ {
			j := &jobs[s]
			prev := jobs[s-1].ID
			j.After = &prev
			j.Submit = root.Submit
			j.Features.Name, j.Features.User = root.Features.Name, root.Features.User
		}
		i += k
	}
	slices.SortStableFunc(jobs, func(a, b Job) int { return cmp.Compare(a.Submit, b.Submit) })
	ids := make(map[int]int, len(jobs))
	for i := range jobs {
		ids[jobs[i].ID] = firstID + i
		jobs[i].ID = firstID + i
	}
	for i := range jobs {
		if p, ok := jobs[i].Predecessor(); ok {
			np := ids[p]
			jobs[i].After = &np
		}
	}
}

// DAGRoots maps the id of each job of jobs to the id of the first stage
// of its DAG, following After (a job that waits for none is its own
// root). A predecessor not among jobs, or a cycle, is an error naming the
// job.
func DAGRoots(jobs []Job) (map[int]int, error) {
	known := make(map[int]bool, len(jobs))
	for i := range jobs {
		known[jobs[i].ID] = true
	}
	pred := make(map[int]int)
	for i := range jobs {
		if p, ok := jobs[i].Predecessor(); ok {
			if !known[p] {
				return nil, fmt.Errorf("job %d: after names job %d, which is not in the workload", jobs[i].ID, p)
			}
			pred[jobs[i].ID] = p
		}
	}
	roots := make(map[int]int, len(jobs))
	var path []int
	for i := range jobs {
		id := jobs[i].ID
		path = path[:0]
		root := id
		for {
			if r, ok := roots[root]; ok {
				root = r
				break
			}
			p, ok := pred[root]
			if !ok {
				break
			}
			if len(path) >= len(jobs) {
				return nil, fmt.Errorf("job %d: its chain of predecessors (after) has a cycle", id)
			}
			path = append(path, root)
			root = p
		}
		roots[id] = root
		for _, k := range path {
			roots[k] = root
		}
	}
	return roots, nil
}
