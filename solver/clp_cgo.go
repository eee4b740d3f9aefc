//go:build cgo

package solver

/*
#cgo pkg-config: clp
#include <stdlib.h>
#include <string.h>
#include <coin/Clp_C_Interface.h>

// One CLP solve, described and answered in C memory.
typedef struct {
	// input
	int ncols, nrows;
	const int *start, *index;
	const double *value, *collb, *colub, *obj, *rowlb, *rowub;
	int maximize;
	double seconds;   // > 0: time limit in seconds
	int algorithm;    // 0: primal simplex, 1: dual simplex, 2: sifting (no scaling); never presolve
	// output
	double *x;        // ncols primal values
	int status, secondary, primal_infeasibilities, iterations;
	double objective;
} pl_clp_job;

static void pl_clp_solve(pl_clp_job *j) {
	Clp_Simplex *m = Clp_newModel();
	Clp_setLogLevel(m, 0);
	Clp_loadProblem(m, j->ncols, j->nrows, (const CoinBigIndex *)j->start,
		j->index, j->value, j->collb, j->colub, j->obj, j->rowlb, j->rowub);
	Clp_setOptimizationDirection(m, j->maximize ? -1.0 : 1.0);
	if (j->seconds > 0) {
		Clp_setMaximumSeconds(m, j->seconds);
	}
	if (j->algorithm == 1) {
		Clp_dual(m, 0);
	} else if (j->algorithm == 2) {
		// Sifting ("sprint", ClpSolve solve type usePrimalorSprint, primal
		// startup 3): primal simplex on a working set of columns, priced
		// against all of them between rounds.
		Clp_Solve *o = ClpSolve_new();
		ClpSolve_setPresolveType(o, 1, -1); // presolveOff
		ClpSolve_setSolveType(o, 2, -1);
		ClpSolve_setSpecialOption(o, 1, 3, -1);
		Clp_scaling(m, 0);
		Clp_initialSolveWithOptions(m, o);
		ClpSolve_delete(o);
	} else {
		Clp_primal(m, 0);
	}
	j->status = Clp_status(m);
	j->secondary = Clp_secondaryStatus(m);
	j->primal_infeasibilities = Clp_numberPrimalInfeasibilities(m);
	j->iterations = Clp_numberIterations(m);
	j->objective = Clp_getObjValue(m);
	const double *x = Clp_getColSolution(m);
	if (x != NULL && j->ncols > 0) {
		memcpy(j->x, x, sizeof(double) * (size_t)j->ncols);
	}
	Clp_deleteModel(m);
}
*/
import "C"

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"unsafe"
)

// clpMu serialises CLP solves. Separate ClpSimplex objects hold no shared
// state that we know of (CBC's own threaded search runs one per thread), but
// that has not been proven for this build, so the mutex stays until a
// measurement says it costs something. It is separate from cbcMu.
var clpMu sync.Mutex

// errLPUnbounded reports an unbounded LP relaxation.
var errLPUnbounded = errors.New("the LP relaxation (CLP) is unbounded")

// clpVersion returns the version string of the linked CLP library.
func clpVersion() string { return C.GoString(C.Clp_Version()) }

// lpEngine is the worker side of relaxInWorker: relaxCLP, its answer sent
// back as a final frame whose status says what it is (Optimal: an optimal
// LP answer and its objective; Feasible: a primal-feasible point at the
// time limit; Infeasible; NoSolution).
func lpEngine(ctx context.Context, m *Model, s *Settings, _ func([]float64)) (*Result, error) {
	lp, err := relaxCLP(ctx, m, s)
	if err != nil {
		return nil, err
	}
	r := &Result{Status: NoSolution, Bound: math.NaN(), TimeLimited: lp.TimeLimited, X: lp.X}
	switch {
	case lp.Optimal:
		r.Status, r.Objective, r.Bound = Optimal, lp.Objective, lp.Objective
	case lp.Infeasible:
		r.Status = Infeasible
	case lp.X != nil:
		r.Status = Feasible
	}
	return r, nil
}

// relaxCLP solves the LP relaxation of m (integrality dropped, bounds kept)
// with CLP's primal simplex without presolve (SOLVERS.md: 0.19 s on the
// 300-job rack model where the dual simplex took 10.8 s), or by sifting
// when m has many more columns than rows (clpSiftRatio), log level 0.
// Outside Deterministic mode the time limit is s.TimeLimit cut to the
// context's deadline.
//
// Outcomes: Optimal with X and Objective (in the model's sense, a valid
// bound); Infeasible; TimeLimited (CLP status 3, secondary 9 on time), with X
// only when the point reached is primal feasible (not a bound then). An
// unbounded relaxation returns errLPUnbounded; numerical trouble (status 4)
// an error.
func relaxCLP(ctx context.Context, m *Model, s *Settings) (*lpRelaxation, error) {
	if s == nil {
		s = DefaultSettings()
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	alg := clpPrimal
	if len(m.Vars) >= clpSiftRatio*len(m.Rows) {
		alg = clpSift
	}
	return clpSolve(ctx, m, s, alg)
}

// Algorithms of clpSolve.
const (
	clpPrimal = 0 // primal simplex
	clpDual   = 1 // dual simplex
	clpSift   = 2 // sifting: primal simplex on working sets of columns, without scaling
)

// clpSiftRatio: relaxCLP sifts LPs with at least this many columns per
// row. Measured on the rack instances: with the options substituted out
// (14–32 columns a row) sifting without scaling took 25–58 ms where the
// primal simplex took 48–222 ms; on the models as built (5–7 columns a
// row) it was slower than the primal simplex (135 against 76 ms at 100
// jobs, seed 2).
const clpSiftRatio = 10

func clpSolve(ctx context.Context, m *Model, s *Settings, algorithm int) (*lpRelaxation, error) {
	if len(m.Vars) == 0 {
		tr := cgoTrivialSolve(m)
		return &lpRelaxation{X: tr.X, Objective: 0, Optimal: tr.Status == Optimal, Infeasible: tr.Status == Infeasible}, nil
	}
	cm := newCgoModel(m, true)
	defer cm.free()
	job := (*C.pl_clp_job)(C.calloc(1, C.size_t(unsafe.Sizeof(C.pl_clp_job{}))))
	defer C.free(unsafe.Pointer(job))
	xout, xs := cgoAlloc[C.double](cm, cm.ncols)
	job.ncols, job.nrows = C.int(cm.ncols), C.int(cm.nrows)
	job.start, job.index, job.value = cm.start, cm.index, cm.value
	job.collb, job.colub, job.obj = cm.collb, cm.colub, cm.obj
	job.rowlb, job.rowub = cm.rowlb, cm.rowub
	job.x = xout
	job.algorithm = C.int(algorithm)
	if m.Maximize {
		job.maximize = 1
	}
	if !s.Deterministic {
		if limit := cgoTimeLimit(ctx, s); limit > 0 {
			job.seconds = C.double(math.Max(limit.Seconds(), 0.001))
		}
	}

	traceMark("child", "lp-loaded") // the model copied into C memory
	clpMu.Lock()
	C.pl_clp_solve(job)
	clpMu.Unlock()
	traceMark("child", "lp-solved")

	lp := &lpRelaxation{Objective: math.NaN()}
	copyX := func() []float64 {
		x := make([]float64, cm.ncols)
		for j := range x {
			x[j] = float64(xs[j])
		}
		return x
	}
	switch job.status {
	case 0:
		lp.X = copyX()
		lp.Optimal = true
	case 1:
		lp.Infeasible = true
	case 2:
		return lp, errLPUnbounded
	case 3:
		lp.TimeLimited = true
		if job.primal_infeasibilities == 0 {
			lp.X = copyX()
		}
	default:
		return lp, fmt.Errorf("CLP stopped on errors (status %d, secondary %d)", int(job.status), int(job.secondary))
	}
	if lp.X != nil {
		lp.Objective = m.ObjectiveValue(lp.X)
	}
	return lp, nil
}

// cgoLPResult answers a model without integer columns with CLP, as an engine
// does. start, when not nil, is a checked feasible answer kept if CLP does
// worse or finds nothing.
func cgoLPResult(ctx context.Context, m *Model, s *Settings, start []float64, inc func(x []float64)) (*Result, error) {
	lp, err := clpSolve(ctx, m, s, clpPrimal)
	r := &Result{Bound: math.NaN(), Gap: math.NaN()}
	if errors.Is(err, errLPUnbounded) {
		// No status says "unbounded": report that nothing was found.
		err = nil
	}
	if err != nil {
		return nil, err
	}
	r.TimeLimited = lp.TimeLimited
	if lp.X != nil {
		if lp.Optimal {
			r.Bound = lp.Objective
		}
		cgoFinish(m, r, lp.X, lp.Optimal)
	}
	if start != nil && (r.X == nil || cgoBetter(m, m.ObjectiveValue(start), r.Objective)) {
		cgoFinish(m, r, start, false)
	}
	if r.X == nil {
		r.Status = NoSolution
		if lp.Infeasible {
			r.Status = Infeasible
		}
		return r, nil
	}
	if inc != nil {
		inc(append([]float64(nil), r.X...))
	}
	return r, nil
}
