package planner

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/plannerhq/planner/solver"
)

// deterministicGuard is the wall-clock guard of a deterministic solve when
// Config.SolveTimeout is not set: far above any work-limited solve, so it
// only stops a runaway one.
const deterministicGuard = 10 * time.Second

// guardFactor: with Config.SolveTimeout set, a deterministic solve's guard
// is this many timeouts (at least deterministicGuard).
const guardFactor = 10

// lateGrace is how far past its limit a wall-clock solve may answer and
// still be used: the solver's own bound (limit + 50 ms), but never more than
// the limit itself, so that a tiny limit is honoured. A later answer is
// discarded and the fallback decides: the cycle must end on time.
const lateGrace = 50 * time.Millisecond

// settings returns the solve limits of this cycle (Config.Mode).
func (c *cycle) settings() *solver.Settings {
	cfg := &c.s.cfg
	wall := cfg.SolveTimeout
	if wall <= 0 {
		wall = time.Duration(cfg.SolveFraction * c.interval * float64(time.Second))
	}
	s := &solver.Settings{TimeLimit: wall, Threads: 1, RelGap: 1e-6}
	if cfg.Mode == SolveDeterministic {
		s.Deterministic = true
		s.WorkLimit = cfg.WorkLimit
		s.TimeLimit = max(wall, deterministicGuard)
		if cfg.SolveTimeout > 0 {
			// The work limit (WorkLimitFor) keeps the solve near its
			// timeout on the reference cycle; the guard stays far above,
			// so that a loaded machine does not change the answer.
			s.TimeLimit = max(deterministicGuard, guardFactor*cfg.SolveTimeout)
		}
	}
	return s
}

// solve is stage 5: the solver under the cycle's limit (3Sigma §4.3: the best
// answer within 75% of the interval). An answer is usable when it has a
// feasible X; anything else (no solution, infeasible, an error or a crashed
// worker) leaves the cycle to the fallback.
func (c *cycle) solve() error {
	t0 := c.s.wall()
	set := c.settings()
	c.limit = set.TimeLimit
	res, err := c.s.solver.Solve(c.ctx, c.m, set)
	c.solveWall = c.s.wall().Sub(t0)
	c.res = res
	if err != nil {
		return fmt.Errorf("solve: %w", err)
	}
	if !set.Deterministic && c.solveWall > set.TimeLimit+min(set.TimeLimit, lateGrace) {
		return fmt.Errorf("solve: answer after %v, limit %v: too late to use", c.solveWall, set.TimeLimit)
	}
	if res == nil || (res.Status != solver.Feasible && res.Status != solver.Optimal) || len(res.X) != len(c.m.Vars) {
		return fmt.Errorf("solve: %w (status %v)", solver.ErrNoSolution, statusOf(res))
	}
	c.solved = true
	return nil
}

func statusOf(r *solver.Result) string {
	if r == nil {
		return "none"
	}
	return r.Status.String()
}

// decode is stage 6: what the answer says to do now. Keep-variables at 0
// preempt their best-effort jobs; options with s = 0 start on real
// partitions: each group's count goes to the group's partitions, most free
// first. The rest of the plan is not enacted (it is re-planned next cycle).
// A start that does not fit the free nodes (only possible through rounding)
// is repaired within its allowed set, or skipped.
func (c *cycle) decode() error {
	x := c.res.X
	dec := &Decision{}
	free := slices.Clone(c.st.Free)
	for i := range c.keeps {
		kp := &c.keeps[i]
		if x[kp.z] < 0.5 {
			dec.Preempt = append(dec.Preempt, kp.run.Job.ID)
			for p, n := range kp.run.Alloc {
				free[p] += n
			}
		}
	}
	slices.Sort(dec.Preempt)
	for _, pj := range c.jobs {
		pj.info.hasPlan = false
	}
	for _, o := range c.opts {
		if x[o.x] > 0.5 {
			info := c.jobs[o.job].info
			info.planned, info.hasPlan = c.abs+int64(o.start), true
		}
	}
	for _, o := range c.opts {
		if o.start != 0 || x[o.x] < 0.5 {
			continue
		}
		pj := c.jobs[o.job]
		set := &pj.sets[o.set]
		k := pj.p.Job.Nodes
		want := make([]int, len(c.parts))
		n := 0
		if o.y == nil {
			want[set.groups[0]] = k
			n = k
		} else {
			for gi, y := range o.y {
				if y >= 0 {
					v := int(math.Round(x[y]))
					want[set.groups[gi]] = v
					n += v
				}
			}
		}
		alloc := make([]int, len(free))
		ok := n == k
		for g := 0; ok && g < len(want); g++ {
			ok = c.takeFrom(c.parts[g], want[g], free, alloc)
		}
		if !ok {
			// Repair: any nodes of the allowed set, most free partition first.
			for p, v := range alloc {
				free[p] += v
				alloc[p] = 0
			}
			var ps []int
			for _, g := range set.groups {
				ps = append(ps, c.parts[g]...)
			}
			if !c.takeFrom(ps, k, free, alloc) {
				for p, v := range alloc {
					free[p] += v
				}
				continue
			}
		}
		dec.Start = append(dec.Start, Placement{JobID: pj.p.Job.ID, Alloc: alloc})
	}
	c.dec = dec
	return nil
}

// takeFrom takes n nodes from the partitions ps, most free first (ties to
// the lower index), moving them from free to alloc. It reports whether n
// nodes were found; on false the partial take stays in alloc.
func (c *cycle) takeFrom(ps []int, n int, free, alloc []int) bool {
	if n == 0 {
		return true
	}
	order := slices.Clone(ps)
	slices.SortStableFunc(order, func(a, b int) int {
		if v := cmp.Compare(free[b], free[a]); v != 0 {
			return v
		}
		return cmp.Compare(a, b)
	})
	for _, p := range order {
		t := min(n, free[p])
		if t <= 0 {
			continue
		}
		free[p] -= t
		alloc[p] += t
		n -= t
		if n == 0 {
			return true
		}
	}
	return false
}
