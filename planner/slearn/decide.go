package slearn

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/planner/gs"
	"github.com/plannerhq/planner/workloads"
)

// DecideShare is the share of a wide job's tasks (percent) Decide runs as
// pilots: the first share of Fig. 3's warm-up, since a cycle without
// memory has no completed jobs to adapt it by.
const DecideShare = warm1

// Learned tells Decide the mean task runtime (seconds, on preferred
// nodes of speed 1) a scheduler learned from a job's own completed tasks;
// ok is false while it has learned none.
type Learned func(job *workloads.Job) (mean float64, ok bool)

// Decide is one SLearn cycle without memory, for a scheduler that needs
// SLearn's decision in one cycle only (a planner's fallback): thin jobs
// (fewer than thinLimit tasks) and gang jobs in GS's highest queue; a
// wide job whose mean task runtime learned says is known in the queue of
// its size; any other wide job's pilots (Pilots: DecideShare percent of
// its tasks, drawn from seed and the job's id, so that every cycle picks
// the same) in the sampling queue, and its other waiting tasks on the
// nodes no queue wants (work conservation). Running jobs' nodes count for
// the queue they would be in now. Jobs keep the state's order within a
// queue (submit time, then id): without memory of when a job entered its
// queue, that is first in, first out by arrival.
func Decide(st *planner.State, cfg gs.Config, thinLimit int, seed uint64, learned Learned) *planner.Decision {
	queueOf := func(j *workloads.Job) (q int, sampling bool) {
		if !j.TaskLevel() || j.Tasks() < thinLimit {
			return 0, false
		}
		if mean, ok := learned(j); ok {
			return cfg.QueueOf(mean * float64(j.Nodes)), false
		}
		return SamplingQueue, true
	}
	var items, spare []gs.Item
	for _, p := range st.Pending {
		q, sampling := queueOf(p.Job)
		if !sampling {
			items = append(items, gs.Item{P: p, Queue: q, Tasks: p.Waiting})
			continue
		}
		pilots, held := split(p.Waiting, Pilots(p.Job, DecideShare, seed))
		if len(pilots) > 0 {
			items = append(items, gs.Item{P: p, Queue: q, Tasks: pilots})
		}
		if len(held) > 0 {
			spare = append(spare, gs.Item{P: p, Tasks: held})
		}
	}
	used := make([]float64, cfg.Queues)
	for _, r := range st.Running {
		q, _ := queueOf(r.Job)
		used[min(q, cfg.Queues-1)] += float64(nodesOf(r))
	}
	return gs.Plan(st, cfg, items, used, spare)
}

// PilotCount is how many pilots a job of n tasks gets at share percent:
// share·n/100 rounded, at least one.
func PilotCount(n, share int) int {
	return max(1, int(math.Round(float64(share)*float64(n)/100)))
}

// Pilots are the pilot tasks of a task-level job at share percent,
// ascending: PilotCount of them drawn at random, from a source seeded by
// seed and the job's id, so that the same job always gets the same.
func Pilots(job *workloads.Job, share int, seed uint64) []int {
	n := job.Tasks()
	rng := rand.New(rand.NewPCG(seed^pilotStream, uint64(job.ID)))
	p := rng.Perm(n)[:PilotCount(n, share)]
	slices.Sort(p)
	return p
}
