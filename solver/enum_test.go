package solver

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// Exhaustive checks of the engines on small MILPs: every answer must be
// feasible and never better than the optimum found by enumeration; exact
// engines must find it (enum_cgo_test.go).

// enumCase is a small MILP with its exhaustive answer.
type enumCase struct {
	name     string
	m        *Model
	feasible bool
	opt      float64 // optimum objective when feasible
}

// enumSeed seeds the case generator; the cases are the same on every run.
const enumSeed = 20240611

// enumTol is the relative tolerance when comparing objectives to the
// enumerated optimum.
const enumTol = 1e-6

// enumCases returns n seeded random small MILPs (at most 16 binaries, and
// integer columns with small ranges), of four shapes: rack-formulation
// models (options linked to per-rack counts), multi-row knapsacks, general
// models with ≤, ≥ and = rows of mixed signs (some infeasible), and models
// built to be infeasible.
func enumCases(n int) []enumCase {
	rng := rand.New(rand.NewPCG(enumSeed, 1))
	var cs []enumCase
	for i := range n {
		var m *Model
		var kind string
		switch i % 4 {
		case 0:
			kind, m = "rack", enumRack(rng)
		case 1:
			kind, m = "knapsack", enumKnapsack(rng)
		case 2:
			kind, m = "general", enumGeneral(rng)
		default:
			kind, m = "infeasible", enumInfeasible(rng)
		}
		m.Name = fmt.Sprintf("%s-%d", kind, i)
		feasible, opt := bruteForce(m)
		cs = append(cs, enumCase{name: m.Name, m: m, feasible: feasible, opt: opt})
	}
	return cs
}

// enumRack is a tiny rack formulation: 2–4 jobs with 1–3 options each, 2–3
// racks, 2–3 slices, counts y[j,o,r] ∈ [0, min(k, rack)] linked by
// Σ_r y − k·x = 0, demand rows, capacity rows with expected-usage
// coefficients ≤ 1.
func enumRack(rng *rand.Rand) *Model {
	m := &Model{Maximize: true}
	racks, slices := 2+rng.IntN(2), 2+rng.IntN(2)
	capIdx := make([][]int, racks*slices)
	capCoef := make([][]float64, racks*slices)
	jobs := 2 + rng.IntN(3)
	for j := 0; j < jobs; j++ {
		k := 1 + rng.IntN(4)
		var demand []int
		for o := 0; o < 1+rng.IntN(3) && len(m.Vars) < 60; o++ {
			start := rng.IntN(slices)
			x := m.AddVar("", Binary, 0, 1, float64(k)*(1+rng.Float64()*3)/float64(1+start))
			idx, coef := []int{}, []float64{}
			for r := 0; r < racks; r++ {
				if rng.IntN(4) == 0 && r > 0 {
					continue // not an allowed rack
				}
				y := m.AddVar("", Integer, 0, float64(min(k, 3)), 0)
				idx, coef = append(idx, y), append(coef, 1)
				for t := start; t < slices; t++ {
					u := 1.0
					if t > start {
						u = math.Round(rng.Float64()*100) / 100
					}
					if u > 0 {
						capIdx[r*slices+t] = append(capIdx[r*slices+t], y)
						capCoef[r*slices+t] = append(capCoef[r*slices+t], u)
					}
				}
			}
			m.AddRow("", append(idx, x), append(coef, -float64(k)), EQ, 0)
			demand = append(demand, x)
		}
		ones := make([]float64, len(demand))
		for i := range ones {
			ones[i] = 1
		}
		m.AddRow("", demand, ones, LE, 1)
	}
	for i := range capIdx {
		if len(capIdx[i]) > 0 {
			m.AddRow("", capIdx[i], capCoef[i], LE, float64(rng.IntN(5))+math.Round(rng.Float64()*10)/10)
		}
	}
	return m
}

// enumKnapsack has 6–16 binaries and 1–4 packing rows; some objective
// coefficients are negative, and half the models minimise.
func enumKnapsack(rng *rand.Rand) *Model {
	m := &Model{Maximize: rng.IntN(2) == 0}
	n := 6 + rng.IntN(11)
	for j := 0; j < n; j++ {
		c := math.Round((rng.Float64()*10-2)*10) / 10
		if !m.Maximize {
			c = -c
		}
		m.AddVar("", Binary, 0, 1, c)
	}
	for range 1 + rng.IntN(4) {
		var idx []int
		var coef []float64
		total := 0.0
		for j := 0; j < n; j++ {
			if rng.IntN(3) > 0 {
				a := float64(1 + rng.IntN(9))
				idx, coef = append(idx, j), append(coef, a)
				total += a
			}
		}
		m.AddRow("", idx, coef, LE, math.Floor(total*(0.2+0.5*rng.Float64())))
	}
	return m
}

// enumGeneral has up to 10 binaries and 0–3 integers in small ranges
// (some negative), and 2–5 rows of random sense and mixed signs whose
// right-hand sides come from a random point, so most are feasible; one in
// four has a right-hand side nudged, which may make it infeasible.
func enumGeneral(rng *rand.Rand) *Model {
	m := &Model{Maximize: rng.IntN(2) == 0}
	nb, ni := 2+rng.IntN(9), rng.IntN(4)
	point := make([]float64, 0, nb+ni)
	for range nb {
		m.AddVar("", Binary, 0, 1, float64(rng.IntN(11)-5))
		point = append(point, float64(rng.IntN(2)))
	}
	for range ni {
		lo := float64(rng.IntN(3) - 2)
		hi := lo + float64(1+rng.IntN(4))
		m.AddVar("", Integer, lo, hi, float64(rng.IntN(11)-5))
		point = append(point, lo+float64(rng.IntN(int(hi-lo)+1)))
	}
	n := len(m.Vars)
	for range 2 + rng.IntN(4) {
		var idx []int
		var coef []float64
		lhs := 0.0
		for j := 0; j < n; j++ {
			if rng.IntN(2) == 0 {
				a := float64(rng.IntN(9) - 4)
				if a == 0 {
					a = 1
				}
				idx, coef = append(idx, j), append(coef, a)
				lhs += a * point[j]
			}
		}
		if len(idx) == 0 {
			continue
		}
		sense := Sense(rng.IntN(3))
		rhs := lhs
		switch sense {
		case LE:
			rhs += float64(rng.IntN(3))
		case GE:
			rhs -= float64(rng.IntN(3))
		}
		if rng.IntN(4) == 0 {
			rhs += float64(rng.IntN(5) - 2)
		}
		m.AddRow("", idx, coef, sense, rhs)
	}
	return m
}

// enumInfeasible contradicts itself: either a covering row no point within
// the bounds meets, or two rows that no 0/1 point meets together although
// each alone can be met (so a bound argument does not see it).
func enumInfeasible(rng *rand.Rand) *Model {
	m := &Model{Maximize: true}
	n := 3 + rng.IntN(8)
	idx := make([]int, n)
	ones := make([]float64, n)
	for j := 0; j < n; j++ {
		idx[j] = m.AddVar("", Binary, 0, 1, float64(rng.IntN(5)))
		ones[j] = 1
	}
	if rng.IntN(2) == 0 {
		m.AddRow("", idx, ones, GE, float64(n+1))
		return m
	}
	// Σ x = 1 with an even/odd conflict: 2·Σ x_even + 2·Σ x_odd... simpler:
	// x0 + x1 ≥ 1 and x0 + x1 ≤ 0.5 over binaries.
	m.AddRow("", []int{0, 1}, []float64{1, 1}, GE, 1)
	m.AddRow("", []int{0, 1}, []float64{2, 2}, LE, 1)
	return m
}

// bruteForce enumerates every integer point of m (binaries and integer
// columns with finite bounds; m must have no continuous column) with
// row-bound pruning, and returns whether one is feasible and the optimum.
func bruteForce(m *Model) (bool, float64) {
	n := len(m.Vars)
	lo, hi := make([]float64, n), make([]float64, n)
	for j, v := range m.Vars {
		if v.Kind == Continuous {
			panic("bruteForce: continuous column")
		}
		lo[j], hi[j] = math.Ceil(v.Lower-IntTol), math.Floor(v.Upper+IntTol)
		if v.Kind == Binary {
			lo[j], hi[j] = math.Max(lo[j], 0), math.Min(hi[j], 1)
		}
	}
	type entry struct {
		row  int
		coef float64
	}
	cols := make([][]entry, n)
	for i, r := range m.Rows {
		for k, j := range r.Index {
			cols[j] = append(cols[j], entry{i, r.Coef[k]})
		}
	}
	// restMin/restMax[i][j]: the least/most the columns ≥ j add to row i.
	restMin := make([][]float64, len(m.Rows))
	restMax := make([][]float64, len(m.Rows))
	for i := range m.Rows {
		restMin[i] = make([]float64, n+1)
		restMax[i] = make([]float64, n+1)
	}
	for j := n - 1; j >= 0; j-- {
		for i := range m.Rows {
			restMin[i][j], restMax[i][j] = restMin[i][j+1], restMax[i][j+1]
		}
		for _, e := range cols[j] {
			a, b := e.coef*lo[j], e.coef*hi[j]
			restMin[e.row][j] += math.Min(a, b)
			restMax[e.row][j] += math.Max(a, b)
		}
	}
	act := make([]float64, len(m.Rows))
	x := make([]float64, n)
	found, best := false, 0.0
	const tol = 1e-9
	var dfs func(j int)
	dfs = func(j int) {
		for i, r := range m.Rows {
			lmin, lmax := act[i]+restMin[i][j], act[i]+restMax[i][j]
			if (r.Sense != GE && lmin > r.RHS+tol) || (r.Sense != LE && lmax < r.RHS-tol) {
				return
			}
		}
		if j == n {
			v := m.ObjectiveValue(x)
			if !found || (m.Maximize && v > best) || (!m.Maximize && v < best) {
				found, best = true, v
			}
			return
		}
		for v := lo[j]; v <= hi[j]; v++ {
			x[j] = v
			for _, e := range cols[j] {
				act[e.row] += e.coef * v
			}
			dfs(j + 1)
			for _, e := range cols[j] {
				act[e.row] -= e.coef * v
			}
		}
		x[j] = 0
	}
	dfs(0)
	return found, best
}

// notBetter reports whether obj is not better than the optimum opt.
func notBetter(m *Model, obj, opt float64) bool {
	tol := enumTol * math.Max(1, math.Abs(opt))
	if m.Maximize {
		return obj <= opt+tol
	}
	return obj >= opt-tol
}

// sameObjective reports whether obj equals opt within enumTol (relative).
func sameObjective(obj, opt float64) bool {
	return math.Abs(obj-opt) <= enumTol*math.Max(1, math.Abs(opt))
}

// checkEnumAnswer checks an engine's result against the enumeration:
// answers feasible and never better than the optimum; no answer, and no
// status claiming one, for an infeasible model. exact demands the optimum.
func checkEnumAnswer(t *testing.T, c enumCase, name string, res *Result, exact bool) {
	t.Helper()
	m := c.m
	if res.X != nil {
		x := append([]float64(nil), res.X...)
		m.Snap(x)
		if err := m.CheckFeasible(x); err != nil {
			t.Errorf("%s on %s: infeasible answer: %v", name, c.name, err)
			return
		}
		if !c.feasible {
			t.Errorf("%s on %s: answer %v for an infeasible model", name, c.name, x)
			return
		}
		obj := m.ObjectiveValue(x)
		if !notBetter(m, obj, c.opt) {
			t.Errorf("%s on %s: objective %v better than the optimum %v", name, c.name, obj, c.opt)
		}
		if exact && !sameObjective(obj, c.opt) {
			t.Errorf("%s on %s: objective %v, optimum %v", name, c.name, obj, c.opt)
		}
		return
	}
	switch {
	case !c.feasible && res.Status != Infeasible && res.Status != NoSolution:
		t.Errorf("%s on %s: status %s for an infeasible model", name, c.name, res.Status)
	case c.feasible && exact:
		t.Errorf("%s on %s: status %s, no answer; optimum %v", name, c.name, res.Status, c.opt)
	case c.feasible && res.Status == Infeasible:
		t.Errorf("%s on %s: claims infeasible, but %v is reachable", name, c.name, c.opt)
	}
}

// enumSettings: deterministic, so failures reproduce.
func enumSettings() *Settings {
	s := DefaultSettings()
	s.Deterministic = true
	s.WorkLimit = 2000
	return s
}

func TestEnumGreedy(t *testing.T) {
	cases := enumCases(100)
	feasible, answered, optimal := 0, 0, 0
	for _, c := range cases {
		res, err := GreedySolver{}.Solve(context.Background(), c.m, enumSettings())
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		checkEnumAnswer(t, c, GreedyName, res, false)
		if c.feasible {
			feasible++
			if res.X != nil {
				answered++
			}
			if res.X != nil && sameObjective(res.Objective, c.opt) {
				optimal++
			}
		}
		if !math.IsNaN(res.Bound) {
			t.Errorf("%s: greedy reports bound %v", c.name, res.Bound)
		}
	}
	t.Logf("greedy: an answer on %d and the optimum on %d of %d feasible cases (of %d)", answered, optimal, feasible, len(cases))
	if feasible < 40 {
		t.Errorf("only %d feasible cases: the generator drifted", feasible)
	}
}

func TestEnumCasesStable(t *testing.T) {
	a, b := enumCases(20), enumCases(20)
	for i := range a {
		if a[i].feasible != b[i].feasible || a[i].opt != b[i].opt || len(a[i].m.Vars) != len(b[i].m.Vars) {
			t.Fatalf("case %d differs between runs", i)
		}
		bins := 0
		for _, v := range a[i].m.Vars {
			if v.Kind == Binary {
				bins++
			}
		}
		if bins > 16 {
			t.Fatalf("%s has %d binaries", a[i].name, bins)
		}
	}
}

// TestGreedyDegenerate covers models with nothing to decide.
func TestGreedyDegenerate(t *testing.T) {
	tests := []struct {
		name   string
		m      *Model
		status Status
		obj    float64
	}{
		{"empty", &Model{}, Feasible, 0},
		{"row without columns, met", &Model{Rows: []Row{{Sense: LE, RHS: 1}}}, Feasible, 0},
		{"row without columns, unmet", &Model{Rows: []Row{{Sense: GE, RHS: 1}}}, Infeasible, 0},
		{"fixed columns", func() *Model {
			m := &Model{Maximize: true}
			m.AddVar("a", Integer, 2, 2, 3)
			m.AddVar("b", Binary, 0, 1, 0)
			return m
		}(), Feasible, 6},
		{"zero objective", func() *Model {
			m := &Model{}
			a := m.AddVar("a", Binary, 0, 1, 0)
			m.AddRow("", []int{a}, []float64{1}, GE, 1)
			return m
		}(), Feasible, 0},
		{"unbounded continuous column", func() *Model {
			m := &Model{Maximize: true}
			a := m.AddVar("a", Continuous, 0, math.Inf(1), 1)
			b := m.AddVar("b", Binary, 0, 1, 1)
			m.AddRow("", []int{a, b}, []float64{1, -1}, GE, 0)
			return m
		}(), Feasible, math.NaN()},
		{"single item does not fit", func() *Model {
			m := &Model{Maximize: true}
			x := m.AddVar("x", Binary, 0, 1, 5)
			y := m.AddVar("y", Integer, 0, 4, 0)
			m.AddRow("", []int{y, x}, []float64{1, -3}, EQ, 0)
			m.AddRow("", []int{y}, []float64{1}, LE, 2)
			return m
		}(), Feasible, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := GreedySolver{}.Solve(context.Background(), tc.m, enumSettings())
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != tc.status {
				t.Fatalf("status %s, want %s", res.Status, tc.status)
			}
			if tc.status == Feasible && !math.IsNaN(tc.obj) && res.Objective != tc.obj {
				t.Fatalf("objective %v, want %v", res.Objective, tc.obj)
			}
		})
	}
}

func TestGreedyInvalidModel(t *testing.T) {
	m := &Model{}
	m.AddVar("a", Integer, 0, math.NaN(), 1)
	if _, err := (GreedySolver{}).Solve(context.Background(), m, nil); err == nil {
		t.Fatal("no error for a NaN bound")
	}
}
