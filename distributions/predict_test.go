package distributions

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// predictTol is the tolerance for hand-computed NMAEs and estimates: a few
// float64 additions and divisions, so 1e-12 relative is ample.
const predictTol = 1e-12

func newTestPredictor(t testing.TB, cfg *PredictorConfig) *Predictor {
	t.Helper()
	p, err := NewPredictor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// observeAll feeds runtimes, each as a job with features fs.
func observeAll(t testing.TB, p *Predictor, fs []Feature, runtimes ...float64) {
	t.Helper()
	for _, x := range runtimes {
		if err := p.Observe(fs, x); err != nil {
			t.Fatal(err)
		}
	}
}

func predictClose(a, b float64) bool { return math.Abs(a-b) <= predictTol*math.Max(1, math.Abs(b)) }

func pfeat(kind, value string) Feature { return Feature{Kind: kind, Value: value} }

// TestPredictNMAEHandComputed checks every estimator's NMAE and estimate on
// runtimes 10, 20, 40, 30 (default config, α = 0.6) against this hand
// computation, where each row is the estimates before the runtime arrives:
//
//	x    mean    median  ewma   recent  |  |err| mean, median, ewma, recent
//	10   –       –       –      –       |  (not scored)
//	20   10      10      10     10      |  10, 10, 10, 10
//	40   15      15      16     15      |  25, 25, 24, 25
//	30   70/3    20      30.4   70/3    |  20/3, 10, 0.4, 20/3
//
// Σ actual scored = 90, so NMAE = (125/3)/90, 45/90, 34.4/90, (125/3)/90;
// EWMA wins with estimate 0.6·30 + 0.4·30.4 = 30.16.
func TestPredictNMAEHandComputed(t *testing.T) {
	p := newTestPredictor(t, nil)
	f := pfeat(KindUser, "alice")
	observeAll(t, p, []Feature{f}, 10, 20, 40, 30)
	s := p.states[f]
	want := []struct {
		e        Estimator
		nmae     float64
		estimate float64
	}{
		{EstMean, 125.0 / 3 / 90, 25},
		{EstMedian, 45.0 / 90, 25},
		{EstEWMA, 34.4 / 90, 30.16},
		{EstRecentMean, 125.0 / 3 / 90, 25},
	}
	for _, w := range want {
		t.Run(w.e.String(), func(t *testing.T) {
			if got := s.nmae(w.e); !predictClose(got, w.nmae) {
				t.Errorf("NMAE = %v, want %v", got, w.nmae)
			}
			if got := s.estimate(w.e, &p.cfg); !predictClose(got, w.estimate) {
				t.Errorf("estimate = %v, want %v", got, w.estimate)
			}
		})
	}
	pr := p.Predict([]Feature{f})
	if pr.Source != SourceExpert || pr.Expert != (Expert{f, EstEWMA}) || !predictClose(pr.NMAE, 34.4/90) ||
		!predictClose(pr.Estimate, 30.16) || pr.History != 4 {
		t.Fatalf("Predict = %+v, want expert %v with NMAE %v, estimate 30.16, history 4", pr, Expert{f, EstEWMA}, 34.4/90)
	}
}

// TestPredictEstimatorWindows checks the ring-based estimators once the
// ring has wrapped (MedianWindow 3, RecentWindow 2).
func TestPredictEstimatorWindows(t *testing.T) {
	cfg := &PredictorConfig{MedianWindow: 3, RecentWindow: 2, Alpha: 0.5}
	tests := []struct {
		name                           string
		runtimes                       []float64
		mean, median, ewma, recentMean float64
	}{
		{"one", []float64{8}, 8, 8, 8, 8},
		{"two", []float64{8, 4}, 6, 6, 6, 6},
		{"full", []float64{8, 4, 100}, 112.0 / 3, 8, 53, 52},
		{"wrapped once", []float64{8, 4, 100, 2}, 28.5, 4, 27.5, 51},
		{"wrapped twice", []float64{8, 4, 100, 2, 6, 7, 1}, 128.0 / 7, 6, 6.4375, 4},
		{"ramp", []float64{1, 2, 3, 4, 5, 6}, 3.5, 5, 5.03125, 5.5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := newTestPredictor(t, cfg)
			f := pfeat(KindName, "job")
			observeAll(t, p, []Feature{f}, tc.runtimes...)
			s := p.states[f]
			for e, want := range []float64{tc.mean, tc.median, tc.ewma, tc.recentMean} {
				if got := s.estimate(Estimator(e), &p.cfg); !predictClose(got, want) {
					t.Errorf("%v = %v, want %v", Estimator(e), got, want)
				}
			}
		})
	}
}

func TestPredictChoosesExpert(t *testing.T) {
	user, etl, adhoc := pfeat(KindUser, "alice"), pfeat(KindName, "etl"), pfeat(KindName, "adhoc")
	r := rand.New(rand.NewPCG(7, 7))

	t.Run("constant feature beats noisy one", func(t *testing.T) {
		p := newTestPredictor(t, nil)
		for range 50 {
			observeAll(t, p, []Feature{user, etl}, 300)
			observeAll(t, p, []Feature{user, adhoc}, 10+990*r.Float64())
		}
		for _, fs := range [][]Feature{{user, etl}, {etl, user}} {
			pr := p.Predict(fs)
			if pr.Source != SourceExpert || pr.Expert.Feature != etl || pr.NMAE != 0 || pr.Estimate != 300 {
				t.Fatalf("Predict(%v) = %+v, want the etl expert with NMAE 0 and estimate 300", fs, pr)
			}
			if pr.Dist.Mean() != 300 || pr.Dist.CDF(299.9) != 0 || pr.Dist.CDF(300) != 1 {
				t.Fatalf("etl distribution is not a point mass at 300: %v", pr.Dist.(*PiecewiseUniform).Segments())
			}
		}
		// Estimator order breaks the four-way tie at NMAE 0.
		if got := p.Predict([]Feature{etl}).Expert.Estimator; got != EstMean {
			t.Fatalf("tie among estimators chose %v, want mean", got)
		}
	})

	t.Run("EWMA wins on a drifting series", func(t *testing.T) {
		// A ramp x_i = 100 + 10·i: at steady state EWMA lags by
		// s(1−α)/α, so its error is s/α ≈ 16.7 s, against 3s = 30 s for
		// the mean of the last 5, ~10s for the median of 20, and a
		// growing error for the mean.
		p := newTestPredictor(t, nil)
		f := pfeat(KindApp, "sim")
		for i := range 60 {
			observeAll(t, p, []Feature{f}, 100+10*float64(i))
		}
		pr := p.Predict([]Feature{f})
		if pr.Expert.Estimator != EstEWMA {
			t.Fatalf("drift chose %v (NMAE %v), want ewma", pr.Expert, pr.NMAE)
		}
		s := p.states[f]
		for e := range Estimator(numEstimators) {
			if e != EstEWMA && !(s.nmae(e) > pr.NMAE) {
				t.Errorf("%v NMAE %v not above ewma's %v", e, s.nmae(e), pr.NMAE)
			}
		}
	})

	t.Run("ties go to more history, then feature order", func(t *testing.T) {
		p := newTestPredictor(t, nil)
		a, b, c := pfeat(KindUser, "bob"), pfeat(KindHour, "3"), pfeat(KindDay, "1")
		observeAll(t, p, []Feature{a, b, c}, 60, 60, 60)
		observeAll(t, p, []Feature{a}, 60) // a has 4 runtimes, b and c have 3
		for _, fs := range [][]Feature{{a, b, c}, {c, b, a}, {b, a, c}} {
			if got := p.Predict(fs).Expert.Feature; got != a {
				t.Errorf("Predict(%v) chose %v, want %v (more history)", fs, got, a)
			}
		}
		for _, fs := range [][]Feature{{b, c}, {c, b}} {
			if got := p.Predict(fs).Expert.Feature; got != c { // "day" < "hour"
				t.Errorf("Predict(%v) chose %v, want %v (feature order)", fs, got, c)
			}
		}
	})
}

func TestPredictFallback(t *testing.T) {
	f, g := pfeat(KindUser, "carol"), pfeat(KindUser, "dave")
	p := newTestPredictor(t, nil)

	pr := p.Predict([]Feature{f})
	if pr.Source != SourceNone || pr.Dist != nil || !math.IsNaN(pr.Estimate) || !math.IsNaN(pr.NMAE) {
		t.Fatalf("empty predictor: %+v, want SourceNone", pr)
	}

	observeAll(t, p, []Feature{g}, 100)
	pr = p.Predict([]Feature{f})
	if pr.Source != SourceGlobal || pr.Estimate != 100 || pr.History != 1 || !math.IsNaN(pr.NMAE) || pr.Expert.Feature != (Feature{}) {
		t.Fatalf("one global runtime: %+v, want SourceGlobal estimate 100, NMAE NaN", pr)
	}

	observeAll(t, p, []Feature{f}, 10, 10) // below MinHistory = 3
	pr = p.Predict([]Feature{f})
	if pr.Source != SourceGlobal || pr.History != 3 || pr.Expert.String() != "global/"+pr.Expert.Estimator.String() {
		t.Fatalf("two runtimes: %+v, want the global fallback over 3 runtimes", pr)
	}
	observeAll(t, p, []Feature{f}, 10)
	if pr = p.Predict([]Feature{f}); pr.Source != SourceExpert || pr.Expert.Feature != f || pr.Estimate != 10 {
		t.Fatalf("three runtimes: %+v, want carol's expert", pr)
	}
	if got := p.Predict([]Feature{pfeat(KindUser, "nobody")}); got.Source != SourceGlobal {
		t.Fatalf("unknown feature: %+v, want SourceGlobal", got)
	}
}

func TestPredictSnapshotImmutable(t *testing.T) {
	p := newTestPredictor(t, nil)
	f := []Feature{pfeat(KindName, "render")}
	observeAll(t, p, f, 50, 70, 90, 110)
	before := p.Predict(f)
	segs := before.Dist.Segments()
	probes := []float64{0, 50, 60, 80, 100, 110, 1000}
	cdf := make([]float64, len(probes))
	for i, x := range probes {
		cdf[i] = before.Dist.CDF(x)
	}
	for i := range 200 {
		observeAll(t, p, f, 1000+float64(i))
	}
	if got := before.Dist.Segments(); !slices.Equal(got, segs) {
		t.Fatalf("segments changed after observations:\n%v\n%v", got, segs)
	}
	for i, x := range probes {
		if got := before.Dist.CDF(x); got != cdf[i] {
			t.Fatalf("CDF(%v) changed from %v to %v", x, cdf[i], got)
		}
	}
	// Mutating the returned segments must not reach the snapshot either.
	before.Dist.Segments()[0].Mass = 42
	if before.Dist.Segments()[0].Mass == 42 {
		t.Fatal("Segments exposes the snapshot's storage")
	}
	after := p.Predict(f)
	if after.History != 204 || after.Dist.Max() != 1199 {
		t.Fatalf("new prediction %+v (max %v) does not include the new runtimes", after, after.Dist.Max())
	}
	if again := p.Predict(f); again.Dist != after.Dist {
		t.Fatal("unchanged feature value rebuilt its snapshot")
	}
}

func TestPredictObserveInvalid(t *testing.T) {
	tests := []struct {
		name    string
		fs      []Feature
		runtime float64
	}{
		{"negative", nil, -1},
		{"NaN", nil, math.NaN()},
		{"+Inf", nil, math.Inf(1)},
		{"too long", nil, 2 * MaxPredictRuntime},
		{"empty kind", []Feature{pfeat(KindUser, "a"), {Value: "x"}}, 5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := newTestPredictor(t, nil)
			if err := p.Observe(tc.fs, tc.runtime); !errors.Is(err, ErrInvalid) {
				t.Fatalf("Observe error %v, want ErrInvalid", err)
			}
			if p.Count() != 0 || p.Len() != 0 {
				t.Fatal("rejected observation changed the predictor")
			}
		})
	}
}

func TestPredictDuplicateFeatureCountsOnce(t *testing.T) {
	p := newTestPredictor(t, nil)
	f := pfeat(KindUser, "erin")
	observeAll(t, p, []Feature{f, f, f}, 5)
	if n := p.states[f].n; n != 1 {
		t.Fatalf("feature repeated 3 times observed %d times", n)
	}
}

func TestPredictorConfig(t *testing.T) {
	p := newTestPredictor(t, nil)
	want := PredictorConfig{MaxBins: 80, MedianWindow: 20, RecentWindow: 5, Alpha: 0.6, MinHistory: 3}
	if got := p.Config(); got != want {
		t.Fatalf("defaults %+v, want %+v", got, want)
	}
	bad := []PredictorConfig{
		{MaxBins: -1},
		{MedianWindow: maxWindow + 1},
		{MedianWindow: 4, RecentWindow: 5},
		{Alpha: 1.5},
		{Alpha: math.NaN()},
		{MinHistory: 1},
	}
	for _, c := range bad {
		if _, err := NewPredictor(&c); !errors.Is(err, ErrInvalid) {
			t.Errorf("NewPredictor(%+v) error %v, want ErrInvalid", c, err)
		}
	}
	if got := newTestPredictor(t, &PredictorConfig{MedianWindow: 3}).Config().RecentWindow; got != 3 {
		t.Errorf("RecentWindow default with MedianWindow 3 = %d, want 3", got)
	}
}

func TestPredictEnums(t *testing.T) {
	for e := range Estimator(numEstimators) {
		if got, err := ParseEstimator(e.String()); err != nil || got != e {
			t.Errorf("ParseEstimator(%q) = %v, %v", e.String(), got, err)
		}
	}
	for s := range Source(3) {
		if got, err := ParseSource(s.String()); err != nil || got != s {
			t.Errorf("ParseSource(%q) = %v, %v", s.String(), got, err)
		}
	}
	if _, err := ParseEstimator("mode"); !errors.Is(err, ErrInvalid) {
		t.Errorf("ParseEstimator(mode) error %v", err)
	}
	if _, err := ParseSource("oracle"); !errors.Is(err, ErrInvalid) {
		t.Errorf("ParseSource(oracle) error %v", err)
	}
}

func TestPredictFeatures(t *testing.T) {
	tests := []struct {
		name  string
		attrs JobAttrs
		want  []string
	}{
		{"all", JobAttrs{User: "u", Name: "n", App: "a", SubmitHour: 0, SubmitDay: 6, Resources: "nodes=4"},
			[]string{"user=u", "name=n", "app=a", "hour=0", "day=6", "resources=nodes=4", "user+name=u|n", "user+hour=u|0", "name+resources=n|nodes=4"}},
		{"unknowns dropped", JobAttrs{Name: "n", SubmitHour: -1, SubmitDay: 7},
			[]string{"name=n"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, f := range tc.attrs.Features() {
				got = append(got, f.String())
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("Features() = %q, want %q", got, tc.want)
			}
		})
	}
	a := Combine(pfeat("x", `p|q`), pfeat("y", "r"))
	b := Combine(pfeat("x", "p"), pfeat("y", `q|r`))
	c := Combine(pfeat("x", `p\`), pfeat("y", `|q`))
	if a == b || a == c || b == c {
		t.Fatalf("Combine collides: %v, %v, %v", a, b, c)
	}
	if a.Kind != "x+y" || a.Value != `p\|q|r` {
		t.Fatalf("Combine = %v", a)
	}
	if Combine() != (Feature{}) {
		t.Fatal("Combine() not zero")
	}
}

// TestPredictMedianBruteForce checks the incremental median against a sort
// of the last MedianWindow runtimes, with many repeated values.
func TestPredictMedianBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, window := range []int{1, 2, 5, 20} {
		p := newTestPredictor(t, &PredictorConfig{MedianWindow: window, RecentWindow: 1})
		f := pfeat(KindName, "m")
		var all []float64
		for i := range 300 {
			x := float64(r.IntN(7)) * 10
			observeAll(t, p, []Feature{f}, x)
			all = append(all, x)
			last := slices.Clone(all[max(0, len(all)-window):])
			slices.Sort(last)
			k := len(last)
			want := last[k/2]
			if k%2 == 0 {
				want = (last[k/2-1] + last[k/2]) / 2
			}
			if got := p.states[f].median(); got != want {
				t.Fatalf("window %d, step %d: median %v, want %v", window, i, got, want)
			}
		}
	}
}

// TestPredictConcurrent exercises Observe, Predict and MarshalBinary from
// several goroutines; run with -race.
func TestPredictConcurrent(t *testing.T) {
	fss, xs := predictJobs(21, 400)
	p := newTestPredictor(t, nil)
	done := make(chan struct{})
	for w := range 4 {
		go func() {
			defer func() { done <- struct{}{} }()
			for i := w; i < len(fss); i += 4 {
				if err := p.Observe(fss[i], xs[i]); err != nil {
					t.Error(err)
					return
				}
				if pr := p.Predict(fss[(i+1)%len(fss)]); pr.Source == SourceNone {
					t.Error("no prediction after an observation")
					return
				}
				if i%50 == 0 {
					if _, err := p.MarshalBinary(); err != nil {
						t.Error(err)
						return
					}
				}
			}
		}()
	}
	for range 4 {
		<-done
	}
	if p.Count() != uint64(len(fss)) {
		t.Fatalf("count %d, want %d", p.Count(), len(fss))
	}
}

func TestPredictZeroValue(t *testing.T) {
	var p Predictor
	if pr := p.Predict(nil); pr.Source != SourceNone {
		t.Fatalf("zero predictor predicted %+v", pr)
	}
	observeAll(t, &p, []Feature{pfeat(KindUser, "z")}, 1, 2, 3)
	q := newTestPredictor(t, nil)
	observeAll(t, q, []Feature{pfeat(KindUser, "z")}, 1, 2, 3)
	if !samePrediction(p.Predict([]Feature{pfeat(KindUser, "z")}), q.Predict([]Feature{pfeat(KindUser, "z")})) {
		t.Fatal("zero value differs from NewPredictor(nil)")
	}
}
