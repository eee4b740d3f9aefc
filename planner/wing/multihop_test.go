package wing

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// randomDAG draws a DAG on n jobs (0…n−1 in topological order, upstream
// first): each job depends on each earlier one with probability p.
func randomDAG(rng *rand.Rand, n int, p float64) []Edge {
	var edges []Edge
	for d := range n {
		for u := range d {
			if rng.Float64() < p {
				edges = append(edges, Edge{Up: u, Down: d})
			}
		}
	}
	return edges
}

// bruteForce enumerates every path of the DAG: for each pair (job,
// depOn), Σ over paths from depOn down to job of Π over the path's edges
// of 1/N(edge's downstream job).
func bruteForce(n int, edges []Edge) map[[2]int]float64 {
	ups := make([][]int, n)
	for _, e := range edges {
		ups[e.Down] = append(ups[e.Down], e.Up)
	}
	out := map[[2]int]float64{}
	var walk func(job, at int, w float64)
	walk = func(job, at int, w float64) {
		for _, u := range ups[at] {
			x := w / float64(len(ups[at]))
			out[[2]int{job, u}] += x
			walk(job, u, x)
		}
	}
	for j := range n {
		walk(j, j, 1)
	}
	return out
}

// longestPath is the DAG's diameter in edges.
func longestPath(n int, edges []Edge) int {
	depth := make([]int, n)
	best := 0
	for d := range n { // topological: ups come first
		for _, e := range edges {
			if e.Down == d {
				depth[d] = max(depth[d], depth[e.Up]+1)
			}
		}
		best = max(best, depth[d])
	}
	return best
}

// TestMultiHopMatchesBruteForce is acceptance 2: Algorithm 1 with Owl's
// functions equals path enumeration on 200 random DAGs of at most 12
// jobs, conserves value and stops within ⌈log₂ diameter⌉ + 1
// iterations.
func TestMultiHopMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(36, 2))
	for c := range 200 {
		n := 1 + rng.IntN(12)
		edges := randomDAG(rng, n, 0.1+0.6*rng.Float64())
		t.Run(fmt.Sprintf("dag%03d", c), func(t *testing.T) {
			rows, iters := MultiHop(edges, Owl, nil, nil)
			want := bruteForce(n, edges)
			if len(rows) != len(want) {
				t.Fatalf("%d pairs, brute force %d", len(rows), len(want))
			}
			for _, r := range rows {
				w := want[[2]int{r.Job, r.DepOn}]
				if math.Abs(r.Wt-w) > 1e-9*math.Abs(w) {
					t.Fatalf("pair (%d, %d): %v, brute force %v", r.Job, r.DepOn, r.Wt, w)
				}
			}
			local := make([]float64, n)
			total := 0.0
			for i := range local {
				local[i] = float64(1 + rng.IntN(100))
				total += local[i]
			}
			agg := Downstream(local, rows)
			hasUp := make([]bool, n)
			for _, e := range edges {
				hasUp[e.Down] = true
			}
			sources := 0.0
			for i := range n {
				if !hasUp[i] {
					sources += agg[i]
				}
			}
			if math.Abs(sources-total) > 1e-9*total {
				t.Errorf("value not conserved: sources hold %v of %v", sources, total)
			}
			if L := longestPath(n, edges); L == 0 {
				if iters != 0 {
					t.Errorf("%d iterations without edges", iters)
				}
			} else if bound := int(math.Ceil(math.Log2(float64(L)))) + 1; iters > bound {
				t.Errorf("diameter %d: %d iterations, bound %d", L, iters, bound)
			}
		})
	}
}

// TestMultiHopIterations checks the iteration count on chains of every
// length up to 40: ⌊log₂ L⌋ + 1, within the bound ⌈log₂ L⌉ + 1.
func TestMultiHopIterations(t *testing.T) {
	for L := 1; L <= 40; L++ {
		var edges []Edge
		for i := range L {
			edges = append(edges, Edge{Up: i, Down: i + 1})
		}
		_, iters := MultiHop(edges, Owl, nil, nil)
		want := int(math.Floor(math.Log2(float64(L)))) + 1
		if iters != want || iters > int(math.Ceil(math.Log2(float64(L))))+1 {
			t.Errorf("chain of %d edges: %d iterations, want %d", L, iters, want)
		}
	}
}

// TestMultiHopBagSemantics is the case a set reading of Algorithm 1 gets
// wrong: x reads y and z, z reads y, so (x, y) has weight 1/2 by the
// edge and 1/2 through z, two equal (x, y, 0.5) tuples whose set union
// would keep one.
func TestMultiHopBagSemantics(t *testing.T) {
	const x, y, z = 2, 0, 1
	rows, _ := MultiHop([]Edge{{Up: y, Down: x}, {Up: z, Down: x}, {Up: y, Down: z}}, Owl, nil, nil)
	for _, r := range rows {
		if r.Job == x && r.DepOn == y && r.Wt != 1 {
			t.Fatalf("(x, y) weighs %v, want 1/2 + 1/2", r.Wt)
		}
	}
}

// TestMultiHopWindow checks that pruning while iterating with a
// monotone keep equals filtering the unpruned result.
func TestMultiHopWindow(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for c := range 50 {
		n := 2 + rng.IntN(12)
		edges := randomDAG(rng, n, 0.5)
		start, end := make([]float64, n), make([]float64, n)
		for i := range n {
			start[i] = float64(i) * 10
			for _, e := range edges {
				if e.Down == i {
					start[i] = max(start[i], end[e.Up]+rng.Float64())
				}
			}
			end[i] = start[i] + 1 + 5*rng.Float64()
		}
		omega := 10 + 30*rng.Float64()
		keep := func(job, depOn int) bool { return start[job]-end[depOn] <= omega }
		pruned, _ := MultiHop(edges, Owl, keep, nil)
		all, _ := MultiHop(edges, Owl, nil, nil)
		var filtered []Row
		for _, r := range all {
			if keep(r.Job, r.DepOn) {
				filtered = append(filtered, r)
			}
		}
		if len(pruned) != len(filtered) {
			t.Fatalf("dag %d: %d pruned pairs, %d filtered", c, len(pruned), len(filtered))
		}
		for i := range pruned {
			if pruned[i].Job != filtered[i].Job || pruned[i].DepOn != filtered[i].DepOn || math.Abs(pruned[i].Wt-filtered[i].Wt) > 1e-12 {
				t.Fatalf("dag %d: row %v pruned, %v filtered", c, pruned[i], filtered[i])
			}
		}
	}
}

// TestFig5Aggregation is Fig. 5's tree: B and C read A, D and E read C;
// A's aggregate value is the sum of all five.
func TestFig5Aggregation(t *testing.T) {
	const a, b, c, d, e = 0, 1, 2, 3, 4
	edges := []Edge{{Up: a, Down: b}, {Up: a, Down: c}, {Up: c, Down: d}, {Up: c, Down: e}}
	local := []float64{1, 2, 3, 4, 5}
	rows, iters := MultiHop(edges, Owl, nil, nil)
	agg := Downstream(local, rows)
	want := []float64{15, 2, 12, 4, 5}
	for i := range want {
		if agg[i] != want[i] {
			t.Errorf("agg[%c] = %v, want %v", 'A'+i, agg[i], want[i])
		}
	}
	if iters != 2 {
		t.Errorf("%d iterations on a diameter of 2, want 2", iters)
	}
}
