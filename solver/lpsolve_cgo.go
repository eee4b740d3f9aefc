//go:build cgo

package solver

/*
#cgo CFLAGS: -I/usr/include/lpsolve
#cgo LDFLAGS: -llpsolve55 -lcolamd -lm -ldl
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <lp_lib.h>

// One lp_solve solve, described and answered in C memory. The abort and
// message callbacks run on the solving thread and touch only this struct.
typedef struct {
	// input
	int ncols, nrows;
	const int *start, *index;
	const double *value, *collb, *colub, *obj, *rowlb, *rowub;
	const char *isint;
	int maximize;
	double deadline;        // CLOCK_MONOTONIC seconds; 0: none
	long long maxnodes;     // >= 0: branch-and-bound node limit
	double mipgap;          // > 0: relative MIP gap
	// control and progress (shared with the polling goroutine)
	volatile int cancel;    // set by Go when the context is done
	int stop_time, stop_nodes, stop_cancel;
	pthread_mutex_t mu;
	long long incumbents;   // improved solutions copied into incx
	double *incx;           // ncols
	// output
	double *x;              // ncols
	int ret, has_solution, built;
	long long nodes;
	double bound;           // root LP bound, or ±1e30 when none
} pl_lps_job;

static double pl_lps_now(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int __WINAPI pl_lps_abort(lprec *lp, void *h) {
	pl_lps_job *j = (pl_lps_job *)h;
	if (__atomic_load_n(&j->cancel, __ATOMIC_RELAXED)) {
		j->stop_cancel = 1;
		return TRUE;
	}
	if (j->deadline > 0 && pl_lps_now() >= j->deadline) {
		j->stop_time = 1;
		return TRUE;
	}
	if (j->maxnodes >= 0 && (long long)get_total_nodes(lp) >= j->maxnodes) {
		j->stop_nodes = 1;
		return TRUE;
	}
	return FALSE;
}

static void __WINAPI pl_lps_msg(lprec *lp, void *h, int msg) {
	pl_lps_job *j = (pl_lps_job *)h;
	if (msg != MSG_MILPFEASIBLE && msg != MSG_MILPBETTER) {
		return;
	}
	// best_solution holds the improved solution: [0] objective, [1..rows]
	// rows, [rows+1..] columns (no presolve, so columns are not renumbered).
	if (lp->best_solution == NULL) {
		return;
	}
	pthread_mutex_lock(&j->mu);
	memcpy(j->incx, lp->best_solution + 1 + j->nrows, sizeof(double) * (size_t)j->ncols);
	j->incumbents++;
	pthread_mutex_unlock(&j->mu);
}

// pl_lps_take copies the latest incumbent into out when it is newer than
// *seen, and returns 1 then.
static int pl_lps_take(pl_lps_job *j, long long *seen, double *out) {
	int got = 0;
	pthread_mutex_lock(&j->mu);
	if (j->incumbents > *seen) {
		memcpy(out, j->incx, sizeof(double) * (size_t)j->ncols);
		*seen = j->incumbents;
		got = 1;
	}
	pthread_mutex_unlock(&j->mu);
	return got;
}

static void pl_lps_cancel(pl_lps_job *j) { __atomic_store_n(&j->cancel, 1, __ATOMIC_RELAXED); }
static void pl_lps_init(pl_lps_job *j) { pthread_mutex_init(&j->mu, NULL); }
static void pl_lps_destroy(pl_lps_job *j) { pthread_mutex_destroy(&j->mu); }

static double pl_lps_inf(double v, double inf) {
	if (v >= inf) return inf;
	if (v <= -inf) return -inf;
	return v;
}

static void pl_lps_solve(pl_lps_job *j) {
	j->bound = 1e30; // none until the root LP is solved
	lprec *lp = make_lp(j->nrows, 0);
	if (lp == NULL) {
		j->ret = NOMEMORY;
		return;
	}
	set_verbose(lp, NEUTRAL);
	double inf = get_infinite(lp);
	int ok = 1;
	// Columns one by one: row 0 is the objective, rows are 1-based.
	int maxlen = 1;
	for (int c = 0; c < j->ncols; c++) {
		int len = j->start[c + 1] - j->start[c] + 1;
		if (len > maxlen) maxlen = len;
	}
	REAL *col = malloc(sizeof(REAL) * (size_t)maxlen);
	int *rowno = malloc(sizeof(int) * (size_t)maxlen);
	ok = col != NULL && rowno != NULL;
	for (int c = 0; ok && c < j->ncols; c++) {
		int n = 0;
		col[n] = j->obj[c];
		rowno[n] = 0;
		n++;
		for (int k = j->start[c]; k < j->start[c + 1]; k++) {
			col[n] = j->value[k];
			rowno[n] = j->index[k] + 1;
			n++;
		}
		ok = add_columnex(lp, n, col, rowno);
		// Building a large model takes a while (0.14 s for 1.1M nonzeros):
		// honour the limits here too.
		if ((c & 255) == 255 && pl_lps_abort(lp, j)) {
			free(col);
			free(rowno);
			delete_lp(lp);
			j->ret = USERABORT;
			return;
		}
	}
	free(col);
	free(rowno);
	for (int r = 0; ok && r < j->nrows; r++) {
		double lo = pl_lps_inf(j->rowlb[r], inf), hi = pl_lps_inf(j->rowub[r], inf);
		if (lo == hi) {
			ok = set_constr_type(lp, r + 1, EQ) && set_rh(lp, r + 1, hi);
		} else if (lo <= -inf) {
			ok = set_constr_type(lp, r + 1, LE) && set_rh(lp, r + 1, hi);
		} else if (hi >= inf) {
			ok = set_constr_type(lp, r + 1, GE) && set_rh(lp, r + 1, lo);
		} else {
			ok = set_constr_type(lp, r + 1, GE) && set_rh(lp, r + 1, lo) &&
				set_rh_range(lp, r + 1, hi - lo);
		}
	}
	for (int c = 0; ok && c < j->ncols; c++) {
		double lo = pl_lps_inf(j->collb[c], inf), hi = pl_lps_inf(j->colub[c], inf);
		if (lo <= -inf && hi >= inf) {
			ok = set_unbounded(lp, c + 1);
		} else {
			ok = set_bounds(lp, c + 1, lo, hi);
		}
		if (ok && j->isint[c]) {
			ok = set_int(lp, c + 1, TRUE);
		}
	}
	if (!ok) {
		j->ret = NOMEMORY;
		delete_lp(lp);
		return;
	}
	j->built = 1;
	if (j->maximize) {
		set_maxim(lp);
	} else {
		set_minim(lp);
	}
	if (j->mipgap > 0) {
		set_mip_gap(lp, FALSE, j->mipgap);
	}
	put_abortfunc(lp, pl_lps_abort, j);
	put_msgfunc(lp, pl_lps_msg, j, MSG_MILPFEASIBLE | MSG_MILPBETTER);
	j->ret = solve(lp);
	j->nodes = (long long)get_total_nodes(lp);
	j->bound = lp->bb_limitOF;
	switch (j->ret) {
	case OPTIMAL:
	case PRESOLVED:
	case SUBOPTIMAL:
		j->has_solution = 1;
		break;
	case USERABORT:
	case TIMEOUT:
	case NUMFAILURE:
	case DEGENERATE:
		j->has_solution = lp->bb_improvements > 0 || lp->solutioncount > 0;
		break;
	}
	if (j->has_solution) {
		REAL *v = NULL;
		if (get_ptr_variables(lp, &v) && v != NULL) {
			memcpy(j->x, v, sizeof(double) * (size_t)j->ncols);
		} else {
			j->has_solution = 0;
		}
	}
	delete_lp(lp);
}

// Reads a free MPS file and solves it with lp_solve's defaults; for
// checking exports. Returns the solve code, or -100 when reading failed.
static int pl_lps_solve_file(char *path, int *ncols, int *nrows, int *nint, int *maxim, double *objective) {
	lprec *lp = read_freeMPS(path, NEUTRAL);
	if (lp == NULL) {
		return -100;
	}
	set_verbose(lp, NEUTRAL);
	*ncols = get_Ncolumns(lp);
	*nrows = get_Nrows(lp);
	*nint = 0;
	for (int c = 1; c <= *ncols; c++) {
		if (is_int(lp, c)) (*nint)++;
	}
	*maxim = is_maxim(lp);
	int ret = solve(lp);
	*objective = get_objective(lp);
	delete_lp(lp);
	return ret;
}

static void pl_lps_version(int *maj, int *min, int *rel, int *build) {
	lp_solve_version(maj, min, rel, build);
}
*/
import "C"

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sync"
	"time"
	"unsafe"
)

const (
	// lpsolveDefaultNodeLimit is the node limit of a deterministic lp_solve
	// solve when Settings.WorkLimit is zero.
	lpsolveDefaultNodeLimit = 5000
	// lpsolveMaxMargin caps the margin taken off the time limit: the abort
	// callback fires at TimeLimit − min(TimeLimit/20, 10 ms).
	lpsolveMaxMargin = 10 * time.Millisecond
	// lpsolvePoll is how often the incumbent buffer is polled during a solve.
	lpsolvePoll = 5 * time.Millisecond
)

// lpsolveVersion returns the version of the linked lp_solve library.
func lpsolveVersion() string {
	var a, b, c, d C.int
	C.pl_lps_version(&a, &b, &c, &d)
	return fmt.Sprintf("%d.%d.%d.%d", a, b, c, d)
}

// lpsolveInfinity is lp_solve's default infinity (get_infinite): a column
// value that large is no number of an answer.
const lpsolveInfinity = 1e30

// lpsolveEngine solves m with lp_solve 5.5's branch and bound (no presolve,
// default scaling and branching, log level NEUTRAL: it prints nothing).
//
// Limits: lp_solve's own timeout counts whole seconds, so the limit is an
// abort callback in C that compares CLOCK_MONOTONIC with a deadline of
// TimeLimit (cut to the context's deadline) − min(TimeLimit/20, 10 ms), and
// that also stops after WorkLimit branch-and-bound nodes (get_total_nodes) or
// when the context is cancelled. In Deterministic mode the node limit (default
// lpsolveDefaultNodeLimit) is the limit that decides the answer; the clock
// stays armed at the full TimeLimit only as a guard against a runaway solve
// (lp_solve has no time-dependent decisions, so an unreached guard cannot
// change the answer), and a solve it stops is reported TimeLimited.
//
// Incumbents: a message callback (MSG_MILPFEASIBLE, MSG_MILPBETTER) copies
// each improved solution into a C buffer that a goroutine polls every 5 ms;
// each one that passes CheckFeasible goes to inc. A feasible warm start is
// reported at once and kept as the answer if lp_solve does not beat it
// (lp_solve 5.5 has no MIP start).
//
// Return codes: 0 OPTIMAL → Optimal; 1 SUBOPTIMAL → Feasible (TimeLimited);
// 2 INFEASIBLE → Infeasible unless our callback stopped the solve;
// 3 UNBOUNDED, or an answer with a column at lpsolveInfinity → NoSolution;
// 6 USERABORT and 7 TIMEOUT → Feasible with the best improved solution,
// else NoSolution, TimeLimited; 4 DEGENERATE, 5 NUMFAILURE → the improved
// solution if any, else an error; −2 NOMEMORY → an error. Every answer is
// snapped and checked; one that fails is dropped.
func lpsolveEngine(ctx context.Context, m *Model, s *Settings, inc func(x []float64)) (*Result, error) {
	if s == nil {
		s = DefaultSettings()
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(m.Vars) == 0 {
		return cgoTrivialResult(m, inc), nil
	}
	start := cgoFeasibleStart(m, s)
	best := math.NaN() // objective of the best answer reported through inc
	report := func(x []float64) {
		if inc == nil {
			return
		}
		if !math.IsNaN(best) && !cgoBetter(m, m.ObjectiveValue(x), best) {
			return
		}
		best = m.ObjectiveValue(x)
		inc(append([]float64(nil), x...))
	}
	if start != nil {
		report(start)
	}

	cm := newCgoModel(m, false)
	defer cm.free()
	job := (*C.pl_lps_job)(C.calloc(1, C.size_t(unsafe.Sizeof(C.pl_lps_job{}))))
	defer C.free(unsafe.Pointer(job))
	C.pl_lps_init(job)
	defer C.pl_lps_destroy(job)
	xout, xs := cgoAlloc[C.double](cm, cm.ncols)
	incx, _ := cgoAlloc[C.double](cm, cm.ncols)
	pollx, polls := cgoAlloc[C.double](cm, cm.ncols)
	job.ncols, job.nrows = C.int(cm.ncols), C.int(cm.nrows)
	job.start, job.index, job.value = cm.start, cm.index, cm.value
	job.collb, job.colub, job.obj = cm.collb, cm.colub, cm.obj
	job.rowlb, job.rowub, job.isint = cm.rowlb, cm.rowub, cm.isint
	job.x, job.incx = xout, incx
	if m.Maximize {
		job.maximize = 1
	}
	job.maxnodes = -1
	if s.WorkLimit > 0 {
		job.maxnodes = C.longlong(s.WorkLimit)
	} else if s.Deterministic {
		job.maxnodes = lpsolveDefaultNodeLimit
	}
	if limit := cgoTimeLimit(ctx, s); limit > 0 {
		if !s.Deterministic {
			limit -= min(limit/20, lpsolveMaxMargin)
		}
		now := float64(C.pl_lps_now())
		job.deadline = C.double(now + limit.Seconds())
	}
	if s.RelGap > 0 {
		job.mipgap = C.double(s.RelGap)
	}

	// Poll incumbents and watch the context while the solve runs.
	var seen C.longlong
	take := func() {
		if C.pl_lps_take(job, &seen, pollx) == 0 {
			return
		}
		x := make([]float64, cm.ncols)
		for j := range x {
			x[j] = float64(polls[j])
		}
		m.Snap(x)
		if m.CheckFeasible(x) == nil {
			report(x)
		}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(lpsolvePoll)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				C.pl_lps_cancel(job)
				<-done
				return
			case <-tick.C:
				take()
			}
		}
	}()
	C.pl_lps_solve(job)
	close(done)
	wg.Wait()
	take()

	ret := int(job.ret)
	stopped := job.stop_time != 0 || job.stop_nodes != 0 || job.stop_cancel != 0
	r := &Result{Bound: math.NaN(), Gap: math.NaN(), Nodes: int64(job.nodes)}
	r.TimeLimited = stopped || ret == C.SUBOPTIMAL || ret == C.USERABORT || ret == C.TIMEOUT
	var x []float64
	if job.has_solution != 0 {
		x = make([]float64, cm.ncols)
		for j := range x {
			x[j] = float64(xs[j])
		}
		if slices.ContainsFunc(x, func(v float64) bool { return math.Abs(v) >= lpsolveInfinity }) {
			// lp_solve 5.5 calls an LP that is unbounded in a column
			// without an upper bound "optimal" at its infinity: no answer.
			x, ret = nil, C.UNBOUNDED
		}
	}
	if b := float64(job.bound); math.Abs(b) < 1e29 && ret != C.INFEASIBLE && ret != C.UNBOUNDED {
		r.Bound = b
	}
	if x != nil {
		optimal := ret == C.OPTIMAL && !stopped
		cgoFinish(m, r, x, optimal)
		if optimal && r.X != nil {
			r.TimeLimited = false
		}
	}
	if start != nil && (r.X == nil || cgoBetter(m, m.ObjectiveValue(start), r.Objective)) {
		cgoFinish(m, r, start, false)
	}
	if r.X != nil && !math.IsNaN(r.Bound) {
		if m.Maximize {
			r.Bound = math.Max(r.Bound, r.Objective)
		} else {
			r.Bound = math.Min(r.Bound, r.Objective)
		}
		r.Gap = cgoGap(r.Objective, r.Bound)
	}
	if r.X != nil {
		report(r.X)
		return r, nil
	}
	r.Status, r.Gap = NoSolution, math.NaN()
	switch {
	case ret == C.INFEASIBLE && !stopped:
		r.Status, r.TimeLimited, r.Bound = Infeasible, false, math.NaN()
	case ret == C.NOMEMORY || ret == C.NUMFAILURE || ret == C.DEGENERATE || ret > C.PRESOLVED:
		if job.built == 0 {
			return nil, fmt.Errorf("lpsolve: building the model failed")
		}
		return nil, fmt.Errorf("lpsolve: solve failed with code %d", ret)
	}
	return r, nil
}

// lpsolveFileAnswer is what lp_solve found in a model file.
type lpsolveFileAnswer struct {
	Cols, Rows, Integers int
	Maximize             bool
	Code                 int     // solve's return code
	Objective            float64 // valid when Code is 0 (OPTIMAL)
}

// lpsolveSolveFile reads a free MPS file with lp_solve's reader and solves
// it with lp_solve's defaults (no time limit): a check of the exports.
func lpsolveSolveFile(path string) (*lpsolveFileAnswer, error) {
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	var nc, nr, ni, mx C.int
	var obj C.double
	code := C.pl_lps_solve_file(cpath, &nc, &nr, &ni, &mx, &obj)
	if code == -100 {
		return nil, fmt.Errorf("lpsolve: reading %s failed", path)
	}
	return &lpsolveFileAnswer{Cols: int(nc), Rows: int(nr), Integers: int(ni), Maximize: mx != 0,
		Code: int(code), Objective: float64(obj)}, nil
}
