package threesigma

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/plannerhq/planner/distributions"
	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/utility"
	"github.com/plannerhq/planner/workloads"
)

// capacity is stage 1: partition groups, under-estimate extensions, the
// keep-variables' data and C[g,k] (3Sigma §3.2, §4.2; DESIGN.md step 1).
func (c *cycle) capacity() error {
	st := c.st
	c.groupPartitions()
	nk := len(c.checks)
	ng := len(c.parts)

	var fixed []utility.Running
	for _, r := range st.Running {
		info := c.s.info(r.Job, c.id, st.Now)
		// The run's own factor: its slowdown when slowed, over the speed
		// of the slowest partition it holds (exact: its nodes are known).
		f := 1.0
		if r.Slowed {
			f = st.Cluster.Slowdown
		}
		if r.Job.TaskLevel() {
			f *= c.s.longest(r.Job, len(r.Tasks))
		}
		rt := info.runtimeAt(f / st.Cluster.SpeedOf(r.Alloc))
		elapsed := math.Max(0, st.Now-r.Start)
		var pd distributions.Piecewise = rt
		if end, ok := c.s.extend(r, rt.Max(), elapsed, c.interval); ok {
			pd = pointDist(end)
		}
		d := utility.Running{Nodes: make([]int, ng), Elapsed: elapsed, Dist: pd}
		for p, n := range r.Alloc {
			d.Nodes[c.groupOf[p]] += n
		}
		if r.Job.Class != workloads.BestEffort || c.s.cfg.NoPreempt || r.Job.TaskLevel() {
			fixed = append(fixed, d)
			continue
		}
		rrc, err := utility.RRC(d.Dist, elapsed, c.checkT, nil)
		if err != nil {
			return fmt.Errorf("running job %d: %w", r.Job.ID, err)
		}
		v, err := c.remainingUtility(r, pd, elapsed)
		if err != nil {
			return fmt.Errorf("running job %d: %w", r.Job.ID, err)
		}
		c.keeps = append(c.keeps, keep{run: r, nodes: d.Nodes, rrc: rrc, value: v, z: -1})
	}

	c.fixed = fixed
	var err error
	c.C, err = utility.Capacity(c.gNodes, fixed, c.checkT, make([]float64, ng*nk))
	if err != nil {
		return err
	}
	// Slice 0 is exact: the real free nodes, plus what preemptible jobs hold
	// (their keep-variables take it back in the rows).
	for g := range ng {
		free := 0
		for _, p := range c.parts[g] {
			free += st.Free[p]
		}
		for i := range c.keeps {
			free += c.keeps[i].nodes[g]
		}
		c.C[g*nk] = float64(free)
		for k := 0; k < nk; k++ {
			if v := c.C[g*nk+k]; !(v > 0) {
				c.C[g*nk+k] = 0
			}
		}
	}
	return nil
}

// extend applies the under-estimate rule of 3Sigma §4.2 to a running job
// whose elapsed time has reached max, the largest runtime its distribution
// allows: its expected runtime becomes max + 1 cycle, and each time the
// job outlives that too, it grows by 2, 4, 8, … more cycles (exp-inc). ok is
// false (and nothing is remembered) while the job is within its
// distribution.
func (s *ThreeSigma) extend(r *planner.Running, max, elapsed, cycleLen float64) (end float64, ok bool) {
	e := s.ext[r.Job.ID]
	if e != nil && e.start != r.Start {
		e = nil // a new run (the job was preempted and restarted)
		delete(s.ext, r.Job.ID)
	}
	if e == nil {
		if elapsed < max {
			return 0, false
		}
		e = &extension{start: r.Start, end: max + cycleLen, n: 1}
		s.ext[r.Job.ID] = e
	}
	for elapsed >= e.end {
		e.end += math.Ldexp(cycleLen, e.n)
		e.n++
	}
	return e.end, true
}

// remainingUtility is a running best-effort job's keep value given that
// it has run for elapsed seconds: its expected utility E[U(start + T) |
// T > elapsed], plus the value of the work it would lose if preempted,
//
//	LostWork · V · elapsed / E[T | T > elapsed],
//
// its value V times the share of its expected runtime already done.
// Without that term a job at its utility's floor is worth as much running
// as any pending job of the same floor, and the plan swaps one for the
// other from cycle to cycle, throwing the work away each time; with it,
// preempting pays only for a start worth more than the work lost.
//
// Both conditional expectations come from the job's prepared runtime,
// without building T | T > elapsed (a cycle values every running
// best-effort job; see conditionalMoments).
func (c *cycle) remainingUtility(r *planner.Running, d distributions.Piecewise, elapsed float64) (float64, error) {
	curve, err := c.beCurve(r.Job)
	if err != nil {
		return 0, err
	}
	v, m, err := conditionalMoments(d, curve, r.Start, elapsed)
	if err != nil {
		return 0, err
	}
	if m > 0 && elapsed > 0 {
		v += c.s.cfg.LostWork * math.Max(r.Job.Value, 0) * math.Min(1, elapsed/m)
	}
	if v > 0 {
		return v, nil
	}
	return 0, nil
}

// conditionalMoments returns, for a job started at start that has run
// for e seconds, E[U(start + T) | T > e] and E[T | T > e] (seconds):
//
//	E[U(start + T) | T > e] = E[U_e(start + T)] / S(e),  U_e = U·1{x > start + e},
//	E[T | T > e]            = E[R_e(T)] / S(e),          R_e(t) = t·1{t > e},
//
// with S(e) = P(T > e), each expectation exact over the piecewise-uniform
// density of d (utility.Runtime.ExpectedUtility with a curve that is zero
// up to e and then U, or the ramp t). This is what d conditioned on
// T > e (distributions.Conditional) gives, without a new distribution.
// S(e) = 0 (the job outlived d) wraps distributions.ErrBeyondSupport.
func conditionalMoments(d distributions.Piecewise, u utility.Curve, start, e float64) (eu, mean float64, err error) {
	rt, ok := d.(*utility.Runtime)
	if !ok {
		if rt, err = utility.NewRuntime(d); err != nil {
			return 0, 0, err
		}
	}
	s0 := rt.Survival(e)
	if !(s0 > 0) || !(e >= 0) {
		return 0, 0, fmt.Errorf("%w: P(T > %v) = %v (max %v)", distributions.ErrBeyondSupport, e, s0, rt.Max())
	}
	out := make([]float64, 1)
	if !u.IsZero() {
		masked, err := maskedBefore(u, start+e)
		if err != nil {
			return 0, 0, err
		}
		eu = rt.ExpectedUtility(masked, []float64{start}, out)[0] / s0
	}
	top := rt.Max()
	ramp, err := utility.NewCurve(utility.Knot{X: e, Left: 0, Right: e}, utility.Knot{X: math.Max(top, math.Nextafter(e, math.Inf(1))), Left: top, Right: top})
	if err != nil {
		return 0, 0, err
	}
	mean = rt.ExpectedUtility(ramp, []float64{0}, out)[0] / s0
	return eu, mean, nil
}

// maskedBefore is u·1{x > x0}: zero up to x0 (a completion at x0 counts
// as not after it), u after, through a knot at x0 whose right limit is
// u's.
func maskedBefore(u utility.Curve, x0 float64) (utility.Curve, error) {
	ks := u.Knots()
	right := u.At(x0)
	rest := ks[:0]
	for _, k := range ks {
		switch {
		case k.X == x0:
			right = k.Right
		case k.X > x0:
			rest = append(rest, k)
		}
	}
	return utility.NewCurve(append([]utility.Knot{{X: x0, Left: 0, Right: right}}, rest...)...)
}

// groupPartitions groups partitions by their speed and their membership in
// every pending job's preferred set: within a group every job is
// indifferent, so the plan needs one pool per group, not per partition
// (DESIGN.md "Aggregating identical nodes"). Partitions of different
// speeds are never merged: a job runs at another pace on each. Groups are
// numbered by their first partition.
func (c *cycle) groupPartitions() {
	np := len(c.st.Cluster.PartitionNodes)
	sig := make([]strings.Builder, np)
	seen := map[string]bool{}
	for _, p := range c.st.Pending {
		pref := p.Job.Preferred
		if len(pref) == 0 || len(pref) >= np {
			continue
		}
		key := fmt.Sprint(pref)
		if seen[key] {
			continue
		}
		seen[key] = true
		in := make([]bool, np)
		for _, r := range pref {
			if r >= 0 && r < np {
				in[r] = true
			}
		}
		for r := range np {
			if in[r] {
				sig[r].WriteByte('1')
			} else {
				sig[r].WriteByte('0')
			}
		}
	}
	c.groupOf = make([]int, np)
	index := map[string]int{}
	for r := range np {
		k := sig[r].String()
		if !c.st.Cluster.Uniform() {
			k += "|" + strconv.FormatFloat(c.st.Cluster.Speed(r), 'g', -1, 64)
		}
		g, ok := index[k]
		if !ok {
			g = len(c.parts)
			index[k] = g
			c.parts = append(c.parts, nil)
			c.gNodes = append(c.gNodes, 0)
			c.gSpeed = append(c.gSpeed, c.st.Cluster.Speed(r))
		}
		c.groupOf[r] = g
		c.parts[g] = append(c.parts[g], r)
		c.gNodes[g] += c.st.Cluster.PartitionNodes[r]
	}
}

// prefGroups returns the groups of a job's preferred partitions, ascending;
// nil when every partition is preferred.
func (c *cycle) prefGroups(j *workloads.Job) []int {
	np := len(c.groupOf)
	if len(j.Preferred) == 0 || len(j.Preferred) >= np {
		return nil
	}
	var gs []int
	for _, r := range j.Preferred {
		if r >= 0 && r < np {
			gs = append(gs, c.groupOf[r])
		}
	}
	slices.Sort(gs)
	return slices.Compact(gs)
}
