//go:build cgo

package svm

/*
#cgo CFLAGS: -I/usr/include/libsvm
#cgo LDFLAGS: -lsvm
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <svm.h>

static void pl_svm_quiet(const char *s) { (void)s; }

// pl_svm_silence routes libsvm's progress output (svm_set_print_string_function
// keeps one process-wide pointer) to a function that prints nothing. Only
// the warning at 10⁷ iterations bypasses it (svm.cpp writes it to stderr).
static void pl_svm_silence(void) { svm_set_print_string_function(pl_svm_quiet); }

// One libsvm training, described and answered in C memory the caller owns.
typedef struct {
	// input
	int l, svm_type, kernel_type, shrinking;
	double gamma, coef0, C, weight1, p, eps, cache_size;
	double *y;
	struct svm_node **x;
	int nt;                  // test vectors whose decision values are wanted
	struct svm_node **tx;
	// output
	const char *err;         // svm_check_parameter's message, or NULL
	int nr_class, nsv, label0;
	int *sv_index;           // l: 0-based rows of x
	double *sv_coef;         // l
	double rho;
	double *dec;             // nt
} pl_svm_job;

// pl_svm_train trains, copies the model out and frees it. The model's SV
// pointers point into the caller's x rows (free_sv = 0), so it is destroyed
// here, before the caller frees them.
static void pl_svm_train(pl_svm_job *j) {
	struct svm_problem prob;
	prob.l = j->l;
	prob.y = j->y;
	prob.x = j->x;
	struct svm_parameter par;
	memset(&par, 0, sizeof par);
	par.svm_type = j->svm_type;
	par.kernel_type = j->kernel_type;
	par.degree = 3;
	par.gamma = j->gamma;
	par.coef0 = j->coef0;
	par.cache_size = j->cache_size;
	par.eps = j->eps;
	par.C = j->C;
	// C of label +1 is C·weight1; svm_destroy_param frees both arrays.
	par.nr_weight = 1;
	par.weight_label = malloc(sizeof(int));
	par.weight = malloc(sizeof(double));
	if (par.weight_label == NULL || par.weight == NULL) {
		svm_destroy_param(&par);
		j->err = "out of C memory";
		return;
	}
	par.weight_label[0] = 1;
	par.weight[0] = j->weight1;
	par.nu = 0.5;
	par.p = j->p;
	par.shrinking = j->shrinking;
	par.probability = 0;
	j->err = svm_check_parameter(&prob, &par);
	if (j->err != NULL) {
		svm_destroy_param(&par);
		return;
	}
	struct svm_model *m = svm_train(&prob, &par);
	j->nr_class = m->nr_class;
	j->nsv = m->l;
	j->label0 = m->label != NULL ? m->label[0] : 0;
	j->rho = m->rho[0];
	for (int i = 0; i < m->l; i++) {
		j->sv_index[i] = m->sv_indices[i] - 1;
		j->sv_coef[i] = m->sv_coef[0][i];
	}
	for (int t = 0; t < j->nt; t++) {
		double d = 0;
		svm_predict_values(m, j->tx[t], &d);
		j->dec[t] = d;
	}
	svm_free_and_destroy_model(&m);
	svm_destroy_param(&par);
}

// pl_flush_stdout writes out C's buffered stdout, for the silence test.
static void pl_flush_stdout(void) { fflush(stdout); }

// pl_malloc_in_use is the number of bytes the C heap holds for the program.
static size_t pl_malloc_in_use(void) {
	struct mallinfo2 mi = mallinfo2();
	return mi.uordblks + mi.hblkhd;
}
*/
import "C"

import (
	"fmt"
	"sync"
	"unsafe"
)

const (
	haveLibsvm     = true
	defaultBackend = LibSVM
)

var silenceOnce sync.Once

// libsvmVersion is the linked library's version, such as 324 for 3.24.
func libsvmVersion() int { return int(C.libsvm_version) }

// cArena owns C allocations and frees them together.
type cArena struct{ ptrs []unsafe.Pointer }

func cAlloc[T any](a *cArena, n int) []T {
	var zero T
	size := C.size_t(max(n, 1)) * C.size_t(unsafe.Sizeof(zero)) // calloc(0) may return NULL
	p := C.calloc(1, size)
	if p == nil {
		panic("svm: out of C memory")
	}
	a.ptrs = append(a.ptrs, p)
	return unsafe.Slice((*T)(p), n)
}

func (a *cArena) free() {
	for _, p := range a.ptrs {
		C.free(p)
	}
	a.ptrs = nil
}

// cNodes copies the rows of ds into libsvm's sparse form: per row its
// nonzero features, 1-based, then an index −1 terminator.
func cNodes(a *cArena, ds *dataset) []*C.struct_svm_node {
	nnz := 0
	for _, v := range ds.x {
		if v != 0 {
			nnz++
		}
	}
	nodes := cAlloc[C.struct_svm_node](a, nnz+ds.n)
	rows := cAlloc[*C.struct_svm_node](a, ds.n)
	at := 0
	for i := range ds.n {
		rows[i] = &nodes[at]
		for k, v := range ds.row(i) {
			if v != 0 {
				nodes[at] = C.struct_svm_node{index: C.int(k + 1), value: C.double(v)}
				at++
			}
		}
		nodes[at] = C.struct_svm_node{index: -1}
		at++
	}
	return rows
}

// solveLibsvm trains the dual of t on ds with targets y through libsvm and,
// for tests, returns libsvm's own decision values (svm_predict_values) on
// the scaled vectors of test. All C memory is freed before it returns.
func solveLibsvm(t task, ds *dataset, y []float64, q Params, test *dataset) (solved, []float64, error) {
	silenceOnce.Do(func() { C.pl_svm_silence() })
	var a cArena
	defer a.free()
	job := &cAlloc[C.pl_svm_job](&a, 1)[0]
	job.l = C.int(ds.n)
	job.svm_type = C.C_SVC
	if t == taskSVR {
		job.svm_type = C.EPSILON_SVR
	}
	switch q.Kernel {
	case Linear:
		job.kernel_type = C.LINEAR
	case RBF:
		job.kernel_type = C.RBF
	default:
		job.kernel_type = C.SIGMOID
	}
	if q.Shrinking {
		job.shrinking = 1
	}
	job.gamma, job.coef0 = C.double(q.Gamma), C.double(q.Coef0)
	job.C, job.p, job.eps = C.double(q.C), C.double(q.Epsilon), C.double(q.Tol)
	job.weight1 = C.double(q.ClassWeight)
	job.cache_size = C.double(q.CacheMB)
	cy := cAlloc[C.double](&a, ds.n)
	for i, v := range y {
		cy[i] = C.double(v)
	}
	job.y = &cy[0]
	job.x = &cNodes(&a, ds)[0]
	var dec []C.double
	if test != nil && test.n > 0 {
		job.nt = C.int(test.n)
		job.tx = &cNodes(&a, test)[0]
		dec = cAlloc[C.double](&a, test.n)
		job.dec = &dec[0]
	}
	svIndex := cAlloc[C.int](&a, ds.n)
	svCoef := cAlloc[C.double](&a, ds.n)
	job.sv_index, job.sv_coef = &svIndex[0], &svCoef[0]

	C.pl_svm_train(job)

	if job.err != nil {
		return solved{}, nil, fmt.Errorf("svm: libsvm: %s", C.GoString(job.err))
	}
	if t == taskSVC && (job.nr_class != 2 || job.label0 != 1) {
		return solved{}, nil, fmt.Errorf("svm: libsvm returned %d classes, first label %d; want 2, +1", int(job.nr_class), int(job.label0))
	}
	s := solved{rho: float64(job.rho)}
	for i := range int(job.nsv) {
		s.sv = append(s.sv, int(svIndex[i]))
		s.coef = append(s.coef, float64(svCoef[i]))
	}
	var out []float64
	for _, v := range dec {
		out = append(out, float64(v))
	}
	return s, out, nil
}

// cFlushStdout flushes C's stdout, for the silence test.
func cFlushStdout() { C.pl_flush_stdout() }

// cMallocInUse is the C heap's bytes in use, for the leak test.
func cMallocInUse() int64 { return int64(C.pl_malloc_in_use()) }
