package threesigma

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/planner/estimate"
	"github.com/plannerhq/planner/planner/slearn"
	"github.com/plannerhq/planner/workloads"
)

// Task-level jobs in the planning cycle. The plan packs gangs, so a
// task-level job's waiting tasks are planned as one gang of their nodes
// (at most the cluster's: a wider job runs in waves, its first wave
// planned now) whose runtime is that of the longest of them (the job's
// estimate of its mean task runtime × longest): all of them start together when the plan starts the gang, each task on its
// own task_nodes nodes of one partition of the gang's allocation. Its
// running tasks hold their nodes as a running job that is never
// preempted (tasks are not), while its waiting tasks are planned as the
// gang: a job's pilots (the hybrid's) delay the rest of it for nothing.

// gangView is the pending job the planning stages see for p: p itself
// for a gang job; for a task-level job, a copy of it as a gang of its
// waiting tasks (nil without any).
func (c *cycle) gangView(p *planner.Pending) *planner.Pending {
	j := p.Job
	if !j.TaskLevel() {
		return p
	}
	if len(p.Waiting) == 0 {
		return nil
	}
	g := *j
	g.TaskNodes, g.TaskDurations = 0, nil
	g.Nodes = min(len(p.Waiting)*j.TaskNodes, c.st.Cluster.TotalNodes()/j.TaskNodes*j.TaskNodes)
	if g.Nodes <= 0 {
		return nil
	}
	v := *p
	v.Job, v.Waiting = &g, nil
	c.tasks[j.ID] = p
	return &v
}

// taskStarts turns the gang starts of task-level jobs in d into the
// starts of their waiting tasks, in task order, on the partitions of the
// gang's allocation (task_nodes nodes each).
func (c *cycle) taskStarts(d *planner.Decision) {
	keep := d.Start[:0]
	for _, pl := range d.Start {
		p := c.tasks[pl.JobID]
		if p == nil {
			keep = append(keep, pl)
			continue
		}
		tn := p.Job.TaskNodes
		w := 0
		for r, n := range pl.Alloc {
			for ; n >= tn && w < len(p.Waiting); n -= tn {
				d.StartTasks = append(d.StartTasks, planner.TaskPlacement{JobID: pl.JobID, Task: p.Waiting[w], Partition: r})
				w++
			}
		}
	}
	d.Start = keep
}

// runningJobs is the set of jobs with a running task or run in st.
func runningJobs(st *planner.State) map[int]bool {
	m := make(map[int]bool, len(st.Running))
	for _, r := range st.Running {
		m[r.Job.ID] = true
	}
	return m
}

// placeTask is a partition with room for one task of job (task_nodes free
// nodes): of a job with preferred partitions, the first of them with
// room (a pilot slowed elsewhere would slow the job's end, and with it
// its deadline); of another, the most free. ok is false when none has
// room.
func placeTask(job *workloads.Job, free []int) (int, bool) {
	for _, r := range job.Preferred {
		if r >= 0 && r < len(free) && free[r] >= job.TaskNodes {
			return r, true
		}
	}
	if len(job.Preferred) > 0 {
		return 0, false
	}
	best := -1
	for r, f := range free {
		if f >= job.TaskNodes && (best < 0 || f > free[best]) {
			best = r
		}
	}
	return best, best >= 0
}

// samplePilots starts, ahead of the plan, the waiting pilots of the wide
// task-level jobs the hybrid samples (SLO jobs by deadline, then
// best-effort jobs by submit time), each where placeTask finds room, and
// returns those starts and the state the plan sees: st with the nodes
// they take no longer free and the tasks they start no longer waiting. A
// job enters sampling when first seen pending with no task started; the
// plan meanwhile plans its other tasks by its prior.
func (s *ThreeSigma) samplePilots(st *planner.State) ([]planner.TaskPlacement, *planner.State) {
	pend := slices.Clone(st.Pending)
	slices.SortStableFunc(pend, planner.ComparePrio)
	running := runningJobs(st)
	var starts []planner.TaskPlacement
	var free []int
	for _, p := range pend {
		j := p.Job
		if !j.TaskLevel() || j.Tasks() < s.pilots.thinLimit || s.sampled[j.ID] {
			continue
		}
		set := s.sampling[j.ID]
		if set == nil {
			if running[j.ID] || len(p.Waiting) < j.Tasks() {
				s.sampled[j.ID] = true // already under way: nothing to sample
				continue
			}
			set = &pilotSet{tasks: slearn.Pilots(j, s.pilots.share, s.cfg.Seed)}
			s.sampling[j.ID] = set
		}
		for _, k := range set.tasks {
			if _, waiting := slices.BinarySearch(p.Waiting, k); !waiting {
				continue
			}
			if free == nil {
				free = slices.Clone(st.Free)
			}
			r, ok := placeTask(j, free)
			if !ok {
				break
			}
			free[r] -= j.TaskNodes
			starts = append(starts, planner.TaskPlacement{JobID: j.ID, Task: k, Partition: r})
		}
	}
	if len(starts) == 0 {
		return nil, st
	}
	cp := st.Clone()
	cp.Free = free
	started := make(map[[2]int]bool, len(starts))
	for _, t := range starts {
		started[[2]int{t.JobID, t.Task}] = true
	}
	cp.Pending = slices.DeleteFunc(cp.Pending, func(p *planner.Pending) bool {
		p.Waiting = slices.DeleteFunc(p.Waiting, func(k int) bool { return started[[2]int{p.Job.ID, k}] })
		return p.Job.TaskLevel() && len(p.Waiting) == 0
	})
	return starts, cp
}

// pilotSet is the pilot tasks of a job being sampled, ascending.
type pilotSet struct {
	tasks []int
}

// pilotConfig is how the hybrid samples: jobs of at least thinLimit
// tasks run share percent of them (at least one) as pilots.
type pilotConfig struct {
	thinLimit, share int
}

// sampledDone records a completed task of a job being sampled: when its
// last pilot completes, the job is planned from then on, its estimate
// made again from the pilots (the estimate a running pilot made is
// dropped).
func (s *ThreeSigma) sampledDone(job *workloads.Job) {
	set := s.sampling[job.ID]
	if set == nil {
		return
	}
	if smp := s.done[job.ID]; smp != nil && smp.N >= len(set.tasks) {
		delete(s.sampling, job.ID)
		s.sampled[job.ID] = true
		delete(s.jobs, job.ID)
	}
}

// longest is the factor from a task-level job's mean task runtime to the
// typical longest of k of its tasks, which a gang of them runs until:
// exp(s·z_k), s² the within-job log variance of task durations
// (estimate.Spread.For: the history's pooled with the job's own completed
// tasks) and z_k = Φ⁻¹((k − 0.375)/(k + 0.25)), Blom's approximation of
// the expected largest of k standard normals (within 5%, and 0.5%
// from k = 20 on); 1 for k ≤ 1 and for a gang
// job.
func (s *ThreeSigma) longest(job *workloads.Job, k int) float64 {
	if !job.TaskLevel() || k <= 1 {
		return 1
	}
	var own estimate.Sample
	if smp := s.done[job.ID]; smp != nil {
		own = *smp
	}
	z := distuv.UnitNormal.Quantile((float64(k) - 0.375) / (float64(k) + 0.25))
	return math.Exp(math.Sqrt(s.spread.For(own)) * z)
}
