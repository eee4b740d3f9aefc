package slearn

import (
	"github.com/plannerhq/planner/planner/estimate"
	"github.com/plannerhq/planner/planner/gs"
	"github.com/plannerhq/planner/workloads"
)

// NameDAG is SLearn for DAG jobs (SLearn §6, NewDAG).
const NameDAG = "slearn-dag"

// dagScaler is what SLearn-DAG adds to SLearn (§6): a history prediction
// d_h of every stage — 3σPredict's distribution brought to a point as
// 3sigma-gs and 3sigma-dag do (gs.InversePoint) — and, per DAG, the ratio
// d_s/d_h of its first stage, d_s the first stage's pilots' mean.
type dagScaler struct {
	hist estimate.Estimator
	// root[id] is the first stage of job id's DAG; first[root] its first
	// stage's d_s and d_h, once its pilots have all completed.
	root  map[int]int
	first map[int]firstStage
}

// firstStage are a DAG's first stage's sampled (d_s) and predicted (d_h)
// mean task runtimes (seconds).
type firstStage struct{ sampled, predicted float64 }

// NewDAG is SLearn-DAG (§6): a DAG's first stage is sampled as SLearn
// samples any job (a thin one goes to the highest queue), and its
// history prediction d_h is kept; every later stage, released when the
// stage before it completes, is not sampled but goes straight to the
// queue of its history prediction × d_s/d_h of its DAG's first stage (× 1
// when the first stage was not sampled), so that the DAG's later stages
// are corrected for how far history is off for this DAG, without the
// delay of sampling them. The history predictor is a fresh 3σPredict (nil
// p) or p, taught the history and each completed job's mean task runtime.
func NewDAG(cfg gs.Config, thinLimit int, seed uint64, p estimate.RuntimePredictor) (*SLearn, error) {
	s, err := New(cfg, thinLimit, seed)
	if err != nil {
		return nil, err
	}
	if p == nil {
		if p, err = estimate.NewSigma(); err != nil {
			return nil, err
		}
	}
	s.name = NameDAG
	s.dag = &dagScaler{hist: &estimate.FromPredictor{P: p}, root: map[int]int{}, first: map[int]firstStage{}}
	return s, nil
}

// predict is the history prediction d_h of a job's mean task runtime
// (seconds; estimate.DefaultRuntime when the predictor fails).
func (d *dagScaler) predict(jb *workloads.Job) float64 {
	if e, err := d.hist.Estimate(jb); err == nil {
		return gs.InversePoint(e)
	}
	return estimate.DefaultRuntime
}

// rootOf records and returns the first stage of jb's DAG (jb itself when
// it waits for no stage, or for one SLearn never saw).
func (d *dagScaler) rootOf(jb *workloads.Job) (root int, later bool) {
	root = jb.ID
	if p, ok := jb.Predecessor(); ok {
		root, later = p, true
		if r, seen := d.root[p]; seen {
			root = r
		}
	}
	d.root[jb.ID] = root
	return root, later
}

// Scaled is SLearn-DAG's estimate of a later stage: its history
// prediction × the first stage's sampled / predicted mean task runtime
// (× 1 when either is not positive).
func Scaled(later, sampled, predicted float64) float64 {
	if sampled > 0 && predicted > 0 {
		return later * sampled / predicted
	}
	return later
}
