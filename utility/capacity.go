package utility

import (
	"fmt"

	"github.com/plannerhq/planner/distributions"
)

// Running is a job that holds nodes now, as the capacity computation sees
// it.
type Running struct {
	// Nodes[r] is the number of nodes the job holds in partition r; its
	// length is the number of partitions.
	Nodes []int
	// Dist is the job's runtime distribution (seconds) on the nodes it
	// holds. A distributions.Piecewise is used exactly, a *Runtime
	// fastest (no copy, no validation); under-estimate handling (3Sigma
	// §4.2) replaces it once the job has Outlived it.
	Dist distributions.Dist
	// Elapsed is how long the job has run, in seconds (≥ 0).
	Elapsed float64
}

// Capacity returns the expected free nodes of every partition at every
// slice time (3Sigma §3.2, §4.3; DESIGN.md "Capacity"):
//
//	C[r,k] = nodes[r] − Σ_i Nodes_i[r] · RRC_i(ts[k], Elapsed_i)
//
// with ts[k] in seconds from now (see RRC). Because RRC(t ≤ 0) = 1, a slice
// time of 0 — normally slice 0 — gives the real free nodes,
// nodes[r] − Σ_i Nodes_i[r]. An outlived job holds its nodes at every
// slice (see RRC). C is not clamped: if the jobs hold more nodes than a
// partition has, C is negative there.
//
// The result is row-major, C[r,k] = out[r·len(ts) + k], written into out
// when it has room, otherwise into a new slice. The cost is
// O(len(segments) + len(ts)) per job plus len(ts) per partition a job holds
// nodes in. It errors, naming the job, on a negative node count, a Nodes
// slice whose length is not len(nodes), or a distribution/elapsed time that
// RRC rejects.
func Capacity(nodes []int, jobs []Running, ts, out []float64) ([]float64, error) {
	nr, nt := len(nodes), len(ts)
	if err := checkTimes(ts); err != nil {
		return nil, err
	}
	asc := ascending(ts)
	out = resize(out, nr*nt)
	for r, n := range nodes {
		if n < 0 {
			return nil, fmt.Errorf("%w: partition %d has %d nodes, want ≥ 0", ErrInvalid, r, n)
		}
		row := out[r*nt : (r+1)*nt]
		for k := range row {
			row[k] = float64(n)
		}
	}
	var stack [256]float64
	var rrc []float64
	if nt <= len(stack) {
		rrc = stack[:nt]
	} else {
		rrc = make([]float64, nt)
	}
	for i := range jobs {
		job := &jobs[i]
		if len(job.Nodes) != nr {
			return nil, fmt.Errorf("%w: running job %d holds nodes in %d partitions, want %d", ErrInvalid, i, len(job.Nodes), nr)
		}
		held := false
		for r, n := range job.Nodes {
			if n < 0 {
				return nil, fmt.Errorf("%w: running job %d holds %d nodes in partition %d, want ≥ 0", ErrInvalid, i, n, r)
			}
			held = held || n > 0
		}
		if !held {
			continue
		}
		nz, err := rrcChecked(job.Dist, job.Elapsed, ts, asc, rrc)
		if err != nil {
			return nil, fmt.Errorf("running job %d: %w", i, err) // err names the package
		}
		for r, n := range job.Nodes {
			if n == 0 {
				continue
			}
			fn := float64(n)
			row := out[r*nt : r*nt+nz]
			for k, v := range rrc[:nz] {
				row[k] -= fn * v
			}
		}
	}
	return out, nil
}
