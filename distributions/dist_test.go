package distributions

import (
	"errors"
	"math"
	"testing"
)

func mustPW(t *testing.T, segs ...Segment) *PiecewiseUniform {
	t.Helper()
	p, err := NewPiecewiseUniform(segs)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func mustEmpirical(t *testing.T, xs ...float64) *Empirical {
	t.Helper()
	e, err := NewEmpirical(xs)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestDistContract runs the generic checks on one member of every family.
func TestDistContract(t *testing.T) {
	h := NewHistogram(DefaultMaxBins)
	r := newRand(3)
	for range 5000 {
		_ = h.Update(LogNormal{Mu: 5, Sigma: 0.8}.Rand(r))
	}
	snap, _ := h.Snapshot()
	cond, err := Conditional(LogNormal{Mu: 5, Sigma: 0.8}, 200)
	if err != nil {
		t.Fatal(err)
	}
	condN, err := Conditional(Normal{Mu: 100, Sigma: 30}, 120)
	if err != nil {
		t.Fatal(err)
	}
	disc, err := Discretize(LogNormal{Mu: 5, Sigma: 0.8}, 64)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		d    Dist
	}{
		{"uniform", Uniform{Lo: 10, Hi: 70}},
		{"point", Point{V: 42}},
		{"normal", Normal{Mu: 100, Sigma: 30}},
		{"normal heavily truncated", Normal{Mu: -20, Sigma: 30}},
		{"lognormal", LogNormal{Mu: 5, Sigma: 0.8}},
		{"lognormal wide", LogNormal{Mu: 3, Sigma: 2}},
		{"empirical", mustEmpirical(t, 3, 1, 4, 1, 5, 9, 2, 6)},
		{"piecewise mixed", mustPW(t, Segment{0, 0, 0.1}, Segment{0, 10, 0.3}, Segment{10, 10, 0.2}, Segment{20, 50, 0.4})},
		{"histogram", h},
		{"histogram snapshot", snap},
		{"scaled lognormal", Scaled{D: LogNormal{Mu: 5, Sigma: 0.8}, Factor: 1.5}},
		{"shifted normal", Shifted{D: Normal{Mu: 100, Sigma: 30}, Offset: 7}},
		{"conditional lognormal", cond},
		{"conditional normal", condN},
		{"discretized lognormal", disc},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { checkDist(t, tc.d, uint64(i)+1) })
	}
}

func TestUniformClosedForm(t *testing.T) {
	u := Uniform{Lo: 10, Hi: 30}
	tests := []struct {
		name      string
		got, want float64
	}{
		{"CDF below", u.CDF(5), 0},
		{"CDF mid", u.CDF(15), 0.25},
		{"CDF above", u.CDF(31), 1},
		{"Survival mid", u.Survival(25), 0.25},
		{"Quantile", u.Quantile(0.75), 25},
		{"Mean", u.Mean(), 20},
		{"Max", u.Max(), 30},
		{"degenerate CDF at point", Uniform{Lo: 5, Hi: 5}.CDF(5), 1},
		{"degenerate CDF below point", Uniform{Lo: 5, Hi: 5}.CDF(4.999), 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if math.Abs(tc.got-tc.want) > exactTol {
				t.Errorf("got %v, want %v", tc.got, tc.want)
			}
		})
	}
	if _, err := NewUniform(5, 1); !errors.Is(err, ErrInvalid) {
		t.Errorf("NewUniform(5, 1) error = %v, want ErrInvalid", err)
	}
}

func TestNormalClosedForm(t *testing.T) {
	// Far from 0 the truncation is invisible: the textbook N(mu, sigma²).
	n := Normal{Mu: 1000, Sigma: 100}
	if got := n.CDF(1100); math.Abs(got-0.8413447460685429) > 1e-12 {
		t.Errorf("CDF(mu+sigma) = %v, want Φ(1)", got)
	}
	if got := n.Quantile(0.975); math.Abs(got-1195.9963984540054) > 1e-6 {
		t.Errorf("Quantile(0.975) = %v", got)
	}
	if got := n.Mean(); math.Abs(got-1000) > 1e-9 {
		t.Errorf("Mean = %v, want 1000", got)
	}
	// Mu = 0: the half-normal, F(t) = 2Φ(t/σ) − 1, E = σ√(2/π).
	h := Normal{Mu: 0, Sigma: 10}
	if got, want := h.CDF(10), 2*0.8413447460685429-1; math.Abs(got-want) > 1e-12 {
		t.Errorf("half-normal CDF(σ) = %v, want %v", got, want)
	}
	if got, want := h.Mean(), 10*math.Sqrt(2/math.Pi); math.Abs(got-want) > 1e-12 {
		t.Errorf("half-normal mean = %v, want %v", got, want)
	}
	if got := h.CDF(-1); got != 0 {
		t.Errorf("CDF(-1) = %v, want 0: no mass below 0", got)
	}
	// Upper-tail precision: S(mu + 10σ) = Q(10) ≈ 7.62e-24, not 0.
	if got := n.Survival(2000); math.Abs(got-7.619853024160527e-24)/7.6e-24 > 1e-9 {
		t.Errorf("Survival(mu+10σ) = %v, want Q(10)", got)
	}
	for _, tc := range []struct {
		name      string
		mu, sigma float64
	}{
		{"zero sigma", 1, 0}, {"negative sigma", 1, -1}, {"NaN mu", math.NaN(), 1},
		{"inf sigma", 1, math.Inf(1)}, {"mean far below 0", -31, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := NewNormal(tc.mu, tc.sigma); !errors.Is(err, ErrInvalid) {
				t.Errorf("err = %v, want ErrInvalid", err)
			}
		})
	}
}

func TestLogNormalClosedForm(t *testing.T) {
	l := LogNormal{Mu: math.Log(600), Sigma: 0.5}
	if got := l.Quantile(0.5); math.Abs(got-600) > 1e-9 {
		t.Errorf("median = %v, want 600", got)
	}
	if got := l.CDF(600 * math.E * math.E); math.Abs(got-0.9999683287581669) > 1e-12 {
		t.Errorf("CDF(median·e²) = %v, want Φ(2/σ) = Φ(4)", got)
	}
	if got, want := l.Mean(), 600*math.Exp(0.125); math.Abs(got-want) > 1e-9 {
		t.Errorf("Mean = %v, want %v", got, want)
	}
	m, err := NewLogNormalFromMoments(300, 150)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Mean(); math.Abs(got-300) > 1e-9 {
		t.Errorf("from moments: mean = %v, want 300", got)
	}
	if v := (math.Exp(m.Sigma*m.Sigma) - 1) * m.Mean() * m.Mean(); math.Abs(math.Sqrt(v)-150) > 1e-9 {
		t.Errorf("from moments: sd = %v, want 150", math.Sqrt(v))
	}
	if _, err := NewLogNormal(0, 0); !errors.Is(err, ErrInvalid) {
		t.Errorf("NewLogNormal(0, 0) err = %v", err)
	}
}

func TestEmpirical(t *testing.T) {
	e := mustEmpirical(t, 3, 1, 3, 7)
	if e.N() != 4 {
		t.Errorf("N = %d", e.N())
	}
	want := []Segment{{1, 1, 0.25}, {3, 3, 0.5}, {7, 7, 0.25}}
	got := e.Segments()
	if len(got) != len(want) {
		t.Fatalf("segments %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("segment %d = %v, want %v", i, got[i], want[i])
		}
	}
	cases := []struct {
		name      string
		got, want float64
	}{
		{"CDF just below 3", e.CDF(2.999), 0.25},
		{"CDF at 3", e.CDF(3), 0.75},
		{"Survival at 3", e.Survival(3), 0.25},
		{"Quantile 0.25", e.Quantile(0.25), 1},
		{"Quantile 0.26", e.Quantile(0.26), 3},
		{"Quantile 1", e.Quantile(1), 7},
		{"Mean", e.Mean(), 3.5},
		{"Max", e.Max(), 7},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if math.Abs(tc.got-tc.want) > exactTol {
				t.Errorf("got %v, want %v", tc.got, tc.want)
			}
		})
	}
	for _, bad := range [][]float64{nil, {1, math.NaN()}, {-1}, {math.Inf(1)}} {
		if _, err := NewEmpirical(bad); !errors.Is(err, ErrInvalid) {
			t.Errorf("NewEmpirical(%v) err = %v, want ErrInvalid", bad, err)
		}
	}
}

func TestNewPiecewiseUniformRejects(t *testing.T) {
	tests := []struct {
		name string
		segs []Segment
	}{
		{"empty", nil},
		{"zero mass", []Segment{{0, 1, 0}}},
		{"negative mass", []Segment{{0, 1, -1}, {1, 2, 2}}},
		{"NaN bound", []Segment{{math.NaN(), 1, 1}}},
		{"negative bound", []Segment{{-1, 1, 1}}},
		{"inverted", []Segment{{2, 1, 1}}},
		{"overlap", []Segment{{0, 2, 0.5}, {1, 3, 0.5}}},
		{"point inside segment", []Segment{{0, 2, 0.5}, {1, 1, 0.5}}},
		{"infinite mass", []Segment{{0, 1, math.Inf(1)}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := NewPiecewiseUniform(tc.segs); !errors.Is(err, ErrInvalid) {
				t.Errorf("err = %v, want ErrInvalid", err)
			}
		})
	}
	p := mustPW(t, Segment{0, 1, 2}, Segment{1, 1, 1}, Segment{1, 1, 1}, Segment{2, 3, 0})
	if got := p.Segments(); len(got) != 2 || got[0] != (Segment{0, 1, 0.5}) || got[1] != (Segment{1, 1, 0.5}) {
		t.Errorf("normalised segments = %v", got)
	}
}
