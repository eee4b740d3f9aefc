//go:build cgo

package solver

/*
#cgo pkg-config: cbc
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <coin/Cbc_C_Interface.h>
#include <coin/Clp_C_Interface.h>

// One CBC solve, described and answered in C memory.
typedef struct {
	// input
	int ncols, nrows;
	const int *start, *index;
	const double *value, *collb, *colub, *obj, *rowlb, *rowub;
	const char *isint;
	int maximize;
	double seconds;        // > 0: elapsed-time limit in seconds
	int maxnodes;          // >= 0: branch-and-bound node limit
	int threads;           // > 1: threads
	double ratiogap;       // > 0: relative gap
	const double *startx;  // NULL, or a warm start (ncols values)
	// output
	double *x;             // ncols: the best solution when has_solution
	int has_solution, proven_optimal, proven_infeasible, seconds_reached;
	int nodes_reached, abandoned, unbounded, status, secondary, nodes;
	double bound;
} pl_cbc_job;

static void pl_cbc_param_num(Cbc_Model *m, const char *name, double v) {
	char buf[64];
	snprintf(buf, sizeof buf, "%.17g", v);
	Cbc_setParameter(m, name, buf);
}

static void pl_cbc_solve(pl_cbc_job *j) {
	Cbc_Model *m = Cbc_newModel();
	Cbc_loadProblem(m, j->ncols, j->nrows, (const CoinBigIndex *)j->start,
		j->index, j->value, j->collb, j->colub, j->obj, j->rowlb, j->rowub);
	int nint = 0;
	for (int c = 0; c < j->ncols; c++) {
		if (j->isint[c]) {
			Cbc_setInteger(m, c);
			nint++;
		}
	}
	Cbc_setObjSense(m, j->maximize ? -1.0 : 1.0);
	Cbc_setLogLevel(m, 0);
	Cbc_setParameter(m, "logLevel", "0");
	Cbc_setParameter(m, "slogLevel", "0");
	if (j->seconds > 0) {
		Cbc_setParameter(m, "timeMode", "elapsed");
		Cbc_setMaximumSeconds(m, j->seconds);
		pl_cbc_param_num(m, "seconds", j->seconds);
	}
	if (j->maxnodes >= 0) {
		Cbc_setMaximumNodes(m, j->maxnodes);
		pl_cbc_param_num(m, "maxNodes", j->maxnodes);
	}
	if (j->threads > 1) {
		pl_cbc_param_num(m, "threads", j->threads);
	}
	if (j->ratiogap > 0) {
		Cbc_setAllowableFractionGap(m, j->ratiogap);
		pl_cbc_param_num(m, "ratioGap", j->ratiogap);
	}
	if (j->startx != NULL && nint > 0) {
		// A MIP start is rejected ("Illegal index") once preprocessing has
		// renumbered the columns: switch it off whenever a start is given.
		Cbc_setParameter(m, "preprocess", "off");
		int *idx = malloc(sizeof(int) * nint);
		double *val = malloc(sizeof(double) * nint);
		int k = 0;
		for (int c = 0; c < j->ncols; c++) {
			if (j->isint[c]) {
				idx[k] = c;
				val[k] = j->startx[c];
				k++;
			}
		}
		Cbc_setMIPStartI(m, nint, idx, val);
		free(idx);
		free(val);
	}
	j->status = Cbc_solve(m);
	j->secondary = Cbc_secondaryStatus(m);
	const double *best = Cbc_bestSolution(m);
	if (best != NULL) {
		memcpy(j->x, best, sizeof(double) * (size_t)j->ncols);
		j->has_solution = 1;
	}
	j->proven_optimal = Cbc_isProvenOptimal(m);
	j->proven_infeasible = Cbc_isProvenInfeasible(m);
	j->seconds_reached = Cbc_isSecondsLimitReached(m);
	j->nodes_reached = Cbc_isNodeLimitReached(m);
	j->abandoned = Cbc_isAbandoned(m);
	j->unbounded = Cbc_isContinuousUnbounded(m);
	j->bound = Cbc_getBestPossibleObjValue(m);
	j->nodes = Cbc_getNodeCount(m);
	Cbc_deleteModel(m);
}
// Reads an LP (lp != 0) or MPS file into a new CBC model and solves it
// with default settings; for checking exports.
typedef struct {
	int read_status, ncols, nrows, nint, has_solution, proven_optimal, proven_infeasible;
	double objective, sense;
} pl_cbc_file;

static void pl_cbc_solve_file(const char *path, int lp, pl_cbc_file *out) {
	if (!lp) {
		// Cbc_readMps asserts that the read succeeded (SIGABRT otherwise):
		// read with CLP's reader first, which returns its status.
		Clp_Simplex *probe = Clp_newModel();
		Clp_setLogLevel(probe, 0);
		int rc = Clp_readMps(probe, path, 1, 0);
		int rows = Clp_numberRows(probe);
		Clp_deleteModel(probe);
		if (rc != 0) {
			out->read_status = rc;
			return;
		}
		if (rows == 0) {
			out->read_status = -1000;
			return;
		}
	}
	Cbc_Model *m = Cbc_newModel();
	Cbc_setLogLevel(m, 0);
	out->read_status = lp ? Cbc_readLp(m, path) : Cbc_readMps(m, path);
	if (out->read_status != 0) {
		Cbc_deleteModel(m);
		return;
	}
	out->ncols = Cbc_getNumCols(m);
	out->nrows = Cbc_getNumRows(m);
	out->nint = Cbc_getNumIntegers(m);
	out->sense = Cbc_getObjSense(m);
	Cbc_setParameter(m, "logLevel", "0");
	Cbc_setParameter(m, "slogLevel", "0");
	Cbc_solve(m);
	out->proven_optimal = Cbc_isProvenOptimal(m);
	out->proven_infeasible = Cbc_isProvenInfeasible(m);
	out->has_solution = out->nint > 0 ? Cbc_bestSolution(m) != NULL : out->proven_optimal;
	out->objective = Cbc_getObjValue(m);
	Cbc_deleteModel(m);
}
*/
import "C"

import (
	"context"
	"fmt"
	"math"
	"sync"
	"time"
	"unsafe"
)

// cbcMu serialises every call into CBC: CbcMain1, which Cbc_solve runs, keeps
// state in statics and is not re-entrant (concurrent solves lost solutions
// and mis-parsed parameters, SOLVERS.md).
var cbcMu sync.Mutex

const (
	// cbcDefaultNodeLimit is the node limit of a deterministic CBC solve when
	// Settings.WorkLimit is zero.
	cbcDefaultNodeLimit = 1000
	// cbcMaxMargin caps the margin taken off the time limit handed to CBC:
	// CBC gets TimeLimit − min(TimeLimit/10, 50 ms), leaving room for
	// loading, copying the answer out and the overrun of its clock checks.
	// CBC still overruns on models whose root LP or preprocessing is slow:
	// those phases do not look at the clock. The hard bound is the worker
	// process that is killed at the deadline.
	cbcMaxMargin = 50 * time.Millisecond
	// cbcMinSeconds is the smallest limit handed to CBC.
	cbcMinSeconds = 0.005
)

// cbcVersion returns the version string of the linked CBC library.
func cbcVersion() string { return C.GoString(C.Cbc_getVersion()) }

// cbcEngine solves m with CBC's branch and cut.
//
// Time: outside Deterministic mode CBC gets the wall-clock limit
// (timeMode=elapsed) of TimeLimit (or the context's deadline) minus
// min(TimeLimit/10, 50 ms). In Deterministic mode no clock is set: the solve
// is bounded by a node limit (s.WorkLimit, default cbcDefaultNodeLimit) on one
// thread, and the caller's TimeLimit guard is the worker process.
//
// Incumbents: the CBC 2.10 C interface has no incumbent callback (only a
// message callback without the solution, and a cut callback), so inc gets a
// feasible warm start at once and CBC's final answer at the end.
//
// Status: judged by whether CBC holds a best solution (its flags can claim
// "infeasible" or "optimal" after a time-out in preprocessing):
// Optimal = a solution that passes CheckFeasible and proven optimal (within
// RelGap) with no limit reached; Feasible = a checked solution otherwise;
// Infeasible = no solution, proven infeasible, no limit reached and the solve
// finished well inside its time budget; NoSolution otherwise. A model without
// integer columns is solved as an LP by CLP (CBC's C interface would run an
// LP without any time limit).
func cbcEngine(ctx context.Context, m *Model, s *Settings, inc func(x []float64)) (*Result, error) {
	r, _, err := cbcSolve(ctx, m, s, inc)
	return r, err
}

// cbcRaw is what CBC itself reported about a solve, before our judgement.
type cbcRaw struct {
	Ran                             bool // CBC ran (false: trivial or pure-LP path)
	HasSolution                     bool // Cbc_bestSolution was not NULL
	Objective                       float64
	ProvenOptimal, ProvenInfeasible bool
	SecondsReached, NodesReached    bool
	Status, Secondary               int
	Seconds                         float64 // the limit handed to CBC; 0: none
	Wall                            time.Duration
}

func cbcSolve(ctx context.Context, m *Model, s *Settings, inc func(x []float64)) (*Result, *cbcRaw, error) {
	raw := &cbcRaw{}
	if s == nil {
		s = DefaultSettings()
	}
	if err := m.Validate(); err != nil {
		return nil, raw, err
	}
	if err := ctx.Err(); err != nil {
		return nil, raw, err
	}
	if len(m.Vars) == 0 {
		return cgoTrivialResult(m, inc), raw, nil
	}
	start := cgoFeasibleStart(m, s)
	if start != nil && inc != nil {
		inc(append([]float64(nil), start...))
	}

	cm := newCgoModel(m, false)
	defer cm.free()
	if cm.nint == 0 {
		r, err := cgoLPResult(ctx, m, s, start, inc)
		return r, raw, err
	}

	job := (*C.pl_cbc_job)(C.calloc(1, C.size_t(unsafe.Sizeof(C.pl_cbc_job{}))))
	defer C.free(unsafe.Pointer(job))
	xout, xs := cgoAlloc[C.double](cm, cm.ncols)
	job.ncols, job.nrows = C.int(cm.ncols), C.int(cm.nrows)
	job.start, job.index, job.value = cm.start, cm.index, cm.value
	job.collb, job.colub, job.obj = cm.collb, cm.colub, cm.obj
	job.rowlb, job.rowub, job.isint = cm.rowlb, cm.rowub, cm.isint
	job.x = xout
	if m.Maximize {
		job.maximize = 1
	}
	job.maxnodes = -1
	var seconds float64
	if s.Deterministic {
		n := s.WorkLimit
		if n <= 0 {
			n = cbcDefaultNodeLimit
		}
		job.maxnodes = C.int(min(n, math.MaxInt32))
		job.threads = 1
	} else {
		if limit := cgoTimeLimit(ctx, s); limit > 0 {
			margin := min(limit/10, cbcMaxMargin)
			seconds = math.Max((limit - margin).Seconds(), cbcMinSeconds)
			job.seconds = C.double(seconds)
		}
		if s.WorkLimit > 0 {
			job.maxnodes = C.int(min(s.WorkLimit, math.MaxInt32))
		}
		job.threads = C.int(max(s.Threads, 1))
	}
	if s.RelGap > 0 {
		job.ratiogap = C.double(s.RelGap)
	}
	if len(s.Start) == cm.ncols {
		sx, sxs := cgoAlloc[C.double](cm, cm.ncols)
		for j, v := range s.Start {
			sxs[j] = C.double(v)
		}
		job.startx = sx
	}

	cbcMu.Lock()
	t0 := wallNow()
	C.pl_cbc_solve(job)
	wall := wallSince(t0)
	cbcMu.Unlock()

	*raw = cbcRaw{
		Ran: true, HasSolution: job.has_solution != 0,
		ProvenOptimal: job.proven_optimal != 0, ProvenInfeasible: job.proven_infeasible != 0,
		SecondsReached: job.seconds_reached != 0, NodesReached: job.nodes_reached != 0,
		Status: int(job.status), Secondary: int(job.secondary), Seconds: seconds, Wall: wall,
		Objective: math.NaN(),
	}
	r := &Result{Bound: math.NaN(), Gap: math.NaN(), Nodes: int64(job.nodes)}
	if b := float64(job.bound); math.Abs(b) < 1e40 {
		r.Bound = b
	}
	limitHit := job.seconds_reached != 0 || job.nodes_reached != 0 ||
		job.status == 1 || (seconds > 0 && wall.Seconds() >= seconds)
	r.TimeLimited = limitHit
	if job.has_solution != 0 {
		x := make([]float64, cm.ncols)
		for j := range x {
			x[j] = float64(xs[j])
		}
		raw.Objective = m.ObjectiveValue(x)
		optimal := job.proven_optimal != 0 && job.status == 0 && !limitHit
		if cgoFinish(m, r, x, optimal) {
			if optimal {
				r.TimeLimited = false
			}
		}
	}
	if r.X != nil && !math.IsNaN(r.Bound) {
		// Keep the bound on the right side of the answer (CBC's bound may
		// sit a tolerance inside it, or refer to a cut-off solution).
		if m.Maximize {
			r.Bound = math.Max(r.Bound, r.Objective)
		} else {
			r.Bound = math.Min(r.Bound, r.Objective)
		}
		r.Gap = cgoGap(r.Objective, r.Bound)
	}
	// A feasible warm start that CBC did not beat (or lost) is still an answer.
	if start != nil && (r.X == nil || cgoBetter(m, m.ObjectiveValue(start), r.Objective)) {
		bound := r.Bound
		*r = Result{Bound: bound, Gap: math.NaN(), Nodes: r.Nodes, TimeLimited: r.TimeLimited}
		cgoFinish(m, r, start, false)
	}
	if r.X == nil {
		r.Status = NoSolution
		if job.proven_infeasible != 0 && !limitHit && job.status == 0 &&
			(seconds == 0 || wall.Seconds() < 0.9*seconds) {
			r.Status = Infeasible
			r.TimeLimited = false
			r.Bound = math.NaN()
		}
		r.Gap = math.NaN()
		return r, raw, nil
	}
	if inc != nil {
		inc(append([]float64(nil), r.X...))
	}
	return r, raw, nil
}

// cbcFileAnswer is what CBC found in a model file.
type cbcFileAnswer struct {
	Cols, Rows, Integers int
	Maximize             bool
	Optimal, Infeasible  bool
	Objective            float64 // in the file's sense; valid when Optimal
}

// cbcSolveFile reads an LP (CPLEX format) or MPS file with CBC's readers and
// solves it with CBC's defaults (no time limit): a check of the exports.
func cbcSolveFile(path string, lpFormat bool) (*cbcFileAnswer, error) {
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	var out C.pl_cbc_file
	lp := C.int(0)
	if lpFormat {
		lp = 1
	}
	cbcMu.Lock()
	C.pl_cbc_solve_file(cpath, lp, &out)
	cbcMu.Unlock()
	if out.read_status != 0 {
		return nil, fmt.Errorf("cbc: reading %s failed (%d)", path, int(out.read_status))
	}
	return &cbcFileAnswer{
		Cols: int(out.ncols), Rows: int(out.nrows), Integers: int(out.nint),
		Maximize:   out.sense < 0,
		Optimal:    out.has_solution != 0 && out.proven_optimal != 0,
		Infeasible: out.has_solution == 0 && out.proven_infeasible != 0,
		Objective:  float64(out.objective),
	}, nil
}
