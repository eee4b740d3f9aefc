package plannertest

import (
	"cmp"
	"context"
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/workloads"
)

// Cluster is a recording fake cluster (CONVENTIONS 15): it owns the nodes,
// the pending and running jobs and the clock; Step runs the scheduler for
// one cycle, checks its decision with planner.Decision.Validate (a broken
// rule fails the test), carries it out, reports what it carried out with
// Scheduler.Applied, and advances the clock by one interval, completing
// the jobs whose true runtime has passed (Scheduler.Observe). Every
// decision and completion is recorded.
type Cluster struct {
	T        testing.TB
	S        planner.Scheduler
	Spec     workloads.Cluster
	Free     []int
	Now      float64
	Interval float64
	// Pending holds submitted jobs, some of them possibly submitted in
	// the future (State shows only those submitted by Now).
	Pending []*planner.Pending
	Running []*planner.Running

	// Refuse, when set, is asked about every start before it is carried
	// out: a non-nil error refuses it (as a live cluster may), and the job
	// stays pending. RefuseTask is the same for task starts.
	Refuse     func(planner.Placement) error
	RefuseTask func(planner.TaskPlacement) error

	// done counts the completed tasks of each task-level job; firstStart
	// is the start of its first task.
	done       map[int]int
	firstStart map[int]float64

	// Records. A task-level job is in Completed once its last task
	// completed; Starts counts its task starts.
	Decisions   []*planner.Decision
	Applied     []*planner.ApplyResult
	Completions []planner.Completion
	Completed   map[int]float64 // job → completion time
	Preemptions map[int]int     // job → times preempted
	Starts      map[int]int     // job → times started
}

// New returns a cluster of the given partitions (node counts) with the
// papers' slowdown of 1.5 off a job's preferred partitions, a cycle every
// interval seconds, at time 0.
func New(t testing.TB, s planner.Scheduler, partitions []int, interval float64) *Cluster {
	return &Cluster{T: t, S: s, Interval: interval, Free: slices.Clone(partitions),
		Spec:      workloads.Cluster{PartitionNodes: slices.Clone(partitions), Slowdown: 1.5},
		Completed: map[int]float64{}, Preemptions: map[int]int{}, Starts: map[int]int{}, done: map[int]int{},
		firstStart: map[int]float64{}}
}

// Submit queues jobs; each becomes visible at its Submit time. A
// task-level job is pending with every task waiting.
func (c *Cluster) Submit(jobs ...*workloads.Job) {
	for _, j := range jobs {
		p := &planner.Pending{Job: j}
		if j.TaskLevel() {
			p.Waiting = make([]int, j.Tasks())
			for i := range p.Waiting {
				p.Waiting[i] = i
			}
		}
		c.Pending = append(c.Pending, p)
	}
}

// State is the cluster as the scheduler sees it now.
func (c *Cluster) State() *planner.State {
	var pend []*planner.Pending
	for _, p := range c.Pending {
		if p.Job.Submit <= c.Now {
			pend = append(pend, p)
		}
	}
	return &planner.State{Now: c.Now, Cluster: c.Spec, Free: slices.Clone(c.Free),
		Pending: pend, Running: slices.Clone(c.Running), Interval: c.Interval}
}

// Step runs one cycle at the current time, checks and carries out its
// decision, then advances the clock by one interval, completing jobs on
// the way. It returns the decision.
func (c *Cluster) Step() *planner.Decision {
	c.T.Helper()
	st := c.State()
	d, err := c.S.Schedule(context.Background(), st)
	if err != nil {
		c.T.Fatalf("t=%v: Schedule: %v", c.Now, err)
	}
	if d == nil {
		d = &planner.Decision{}
	}
	c.Decisions = append(c.Decisions, d)
	c.Apply(st, d)
	c.Advance(c.Now + c.Interval)
	return d
}

// Apply checks d against st (the state the scheduler saw), carries it out
// (preemptions, then the starts Refuse lets through) and tells the
// scheduler what was carried out.
func (c *Cluster) Apply(st *planner.State, d *planner.Decision) {
	c.T.Helper()
	if err := d.Validate(st); err != nil {
		c.T.Fatalf("t=%v: %v", c.Now, err)
	}
	res := &planner.ApplyResult{Now: c.Now}
	for _, id := range d.Preempt {
		i := slices.IndexFunc(c.Running, func(r *planner.Running) bool { return r.Job.ID == id })
		r := c.Running[i]
		for p, n := range r.Alloc {
			c.Free[p] += n
		}
		c.Running = slices.Delete(c.Running, i, i+1)
		c.Preemptions[id]++
		c.Pending = append(c.Pending, &planner.Pending{Job: r.Job, Preemptions: c.Preemptions[id]})
		res.Preempted = append(res.Preempted, id)
	}
	for _, pl := range d.Start {
		if c.Refuse != nil {
			if err := c.Refuse(pl); err != nil {
				res.Refused = append(res.Refused, planner.Refusal{JobID: pl.JobID, Err: err})
				continue
			}
		}
		i := slices.IndexFunc(c.Pending, func(p *planner.Pending) bool { return p.Job.ID == pl.JobID })
		j := c.Pending[i].Job
		slowed := false
		for p, a := range pl.Alloc {
			c.Free[p] -= a
			if a > 0 && !j.IsPreferred(p) {
				slowed = true
			}
		}
		c.Pending = slices.Delete(c.Pending, i, i+1)
		c.Running = append(c.Running, &planner.Running{Job: j, Start: c.Now, Alloc: slices.Clone(pl.Alloc), Slowed: slowed})
		c.Starts[j.ID]++
		res.Started = append(res.Started, pl)
	}
	for _, ts := range d.StartTasks {
		if c.startTask(ts) {
			res.StartedTasks = append(res.StartedTasks, ts)
		} else {
			res.Refused = append(res.Refused, planner.Refusal{JobID: ts.JobID, Task: ts.Task, Tasks: true,
				Err: errors.New("refused")})
		}
	}
	c.Applied = append(c.Applied, res)
	c.S.Applied(res)
}

// startTask starts one task of a pending task-level job (a valid start),
// unless RefuseTask refuses it.
func (c *Cluster) startTask(ts planner.TaskPlacement) bool {
	if c.RefuseTask != nil && c.RefuseTask(ts) != nil {
		return false
	}
	i := slices.IndexFunc(c.Pending, func(p *planner.Pending) bool { return p.Job.ID == ts.JobID })
	p := c.Pending[i]
	j := p.Job
	// Copies, not edits: a State handed out earlier keeps what it saw.
	p.Waiting = slices.DeleteFunc(slices.Clone(p.Waiting), func(k int) bool { return k == ts.Task })
	if len(p.Waiting) == 0 {
		c.Pending = slices.Delete(c.Pending, i, i+1)
	}
	k := slices.IndexFunc(c.Running, func(r *planner.Running) bool { return r.Job.ID == ts.JobID })
	var r planner.Running
	if k < 0 {
		first, ok := c.firstStart[j.ID]
		if !ok {
			first = c.Now
			c.firstStart[j.ID] = first
		}
		r = planner.Running{Job: j, Start: first, Alloc: make([]int, len(c.Free)), Done: c.done[j.ID]}
	} else {
		r = *c.Running[k]
	}
	r.Alloc = slices.Clone(r.Alloc)
	r.Alloc[ts.Partition] += j.TaskNodes
	r.Slowed = r.Slowed || !j.IsPreferred(ts.Partition)
	r.Tasks = append(slices.Clone(r.Tasks), planner.RunningTask{Task: ts.Task, Partition: ts.Partition, Start: c.Now})
	slices.SortFunc(r.Tasks, func(a, b planner.RunningTask) int { return cmp.Compare(a.Task, b.Task) })
	if k < 0 {
		c.Running = append(c.Running, &r)
	} else {
		c.Running[k] = &r
	}
	c.Free[ts.Partition] -= j.TaskNodes
	c.Starts[j.ID]++
	return true
}

// Advance completes every running gang job and task whose true runtime
// ends by t, in completion order (ties: the order of Running, then task
// index), telling the scheduler of each, and sets the clock to t.
func (c *Cluster) Advance(t float64) {
	// Running is kept in order of the next end, as the scheduler sees it.
	slices.SortStableFunc(c.Running, func(a, b *planner.Running) int { return cmp.Compare(c.firstEnd(a), c.firstEnd(b)) })
	for {
		ri, ti, e := c.nextEnd()
		if ri < 0 || e > t {
			break
		}
		if ti < 0 {
			c.completeGang(ri, e)
		} else {
			c.completeTask(ri, ti, e)
		}
	}
	c.Now = t
}

// firstEnd is the end of a gang's run, or of a task-level job's first
// task to end.
func (c *Cluster) firstEnd(r *planner.Running) float64 {
	if !r.Job.TaskLevel() {
		return r.Start + c.Spec.RuntimeOn(r.Job, r.Alloc)
	}
	e := math.Inf(1)
	for _, rt := range r.Tasks {
		e = min(e, rt.Start+c.taskRuntime(r.Job, rt))
	}
	return e
}

// nextEnd is the earliest end among the running gangs and tasks: the
// index in Running, the index in its Tasks (−1 for a gang) and the end;
// ri < 0 when nothing runs.
func (c *Cluster) nextEnd() (ri, ti int, end float64) {
	ri, ti = -1, -1
	for i, r := range c.Running {
		if !r.Job.TaskLevel() {
			if e := c.firstEnd(r); ri < 0 || e < end {
				ri, ti, end = i, -1, e
			}
			continue
		}
		for k, rt := range r.Tasks {
			if e := rt.Start + c.taskRuntime(r.Job, rt); ri < 0 || e < end {
				ri, ti, end = i, k, e
			}
		}
	}
	return ri, ti, end
}

// taskRuntime is a task's runtime on its partition.
func (c *Cluster) taskRuntime(j *workloads.Job, rt planner.RunningTask) float64 {
	return j.TaskDurations[rt.Task] * c.Spec.TaskFactor(j, rt.Partition)
}

func (c *Cluster) completeGang(ri int, e float64) {
	r := c.Running[ri]
	c.Running = slices.Delete(c.Running, ri, ri+1)
	for p, n := range r.Alloc {
		c.Free[p] += n
	}
	c.Completed[r.Job.ID] = e
	comp := planner.Completion{Job: r.Job, JobDone: true, Start: r.Start, End: e, Runtime: e - r.Start, Slowed: r.Slowed, Slowdown: 1,
		Speed: c.Spec.SpeedOf(r.Alloc)}
	if r.Slowed {
		comp.Slowdown = c.Spec.Slowdown
	}
	c.Completions = append(c.Completions, comp)
	c.S.Observe(comp)
}

func (c *Cluster) completeTask(ri, ti int, e float64) {
	old := c.Running[ri]
	j, rt := old.Job, old.Tasks[ti]
	r := *old
	r.Tasks = slices.Delete(slices.Clone(old.Tasks), ti, ti+1)
	r.Alloc = slices.Clone(old.Alloc)
	r.Alloc[rt.Partition] -= j.TaskNodes
	r.Done++
	c.done[j.ID] = r.Done
	c.Free[rt.Partition] += j.TaskNodes
	if len(r.Tasks) == 0 {
		c.Running = slices.Delete(c.Running, ri, ri+1)
	} else {
		c.Running[ri] = &r
	}
	done := r.Done == j.Tasks()
	if done {
		c.Completed[j.ID] = e
	}
	alloc := make([]int, len(c.Spec.PartitionNodes))
	alloc[rt.Partition] = j.TaskNodes
	comp := planner.Completion{Job: j, Task: rt.Task, JobDone: done, Start: rt.Start, End: e, Runtime: e - rt.Start,
		Slowed: j.SlowedOn(alloc), Slowdown: 1, Speed: c.Spec.SpeedOf(alloc)}
	if comp.Slowed {
		comp.Slowdown = c.Spec.Slowdown
	}
	c.Completions = append(c.Completions, comp)
	c.S.Observe(comp)
}

// Snapshot copies st deep enough that enacting a decision does not change
// it (planner.State.Clone).
func Snapshot(st *planner.State) *planner.State { return st.Clone() }
