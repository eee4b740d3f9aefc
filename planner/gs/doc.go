// Package gs is the generic scheduler GS of SLearn §5.1.1: N priority
// queues by estimated job size, FIFO within a queue, weighted sharing of
// nodes across queues; and the policies of §5.1.3 that run inside it,
// each a way of estimating sizes (3σPredict's estimates, their median,
// the true runtime, attained service, none). Plan is the allocation of
// one cycle, Decide a whole cycle from a State and a size estimate, for
// any scheduler that needs GS's decision (SLearn, a fallback).
package gs
