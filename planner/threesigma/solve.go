package threesigma

import (
	"fmt"
	"time"

	"github.com/plannerhq/planner/solver"
)

// deterministicGuard is the wall-clock guard of a deterministic solve when
// Config.SolveTimeout is not set: far above any deterministic solve of the
// planner's models, so it only stops a runaway one.
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
			// The guard stays far above the timeout, so that a loaded
			// machine does not change the answer.
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
	if err := c.failOnPurpose(); err != nil {
		return err
	}
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
