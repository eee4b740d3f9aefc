package distributions

import (
	"errors"
	"math"
	"testing"
)

func TestScaleShiftHand(t *testing.T) {
	u := Uniform{Lo: 10, Hi: 30}
	sc, err := Scale(u, 1.5)
	if err != nil {
		t.Fatal(err)
	}
	sh, err := Shift(u, 5)
	if err != nil {
		t.Fatal(err)
	}
	ln := LogNormal{Mu: 4, Sigma: 1}
	scl, _ := Scale(ln, 2)
	shl, _ := Shift(ln, 60)
	tests := []struct {
		name      string
		got, want float64
	}{
		// 1.5·U[10,30] = U[15,45].
		{"scaled uniform CDF(30)", sc.CDF(30), 0.5},
		{"scaled uniform Mean", sc.Mean(), 30},
		{"scaled uniform Max", sc.Max(), 45},
		{"scaled uniform Quantile(0.25)", sc.Quantile(0.25), 22.5},
		// U[10,30] + 5 = U[15,35].
		{"shifted uniform CDF(20)", sh.CDF(20), 0.25},
		{"shifted uniform Mean", sh.Mean(), 25},
		{"shifted uniform Survival(35)", sh.Survival(35), 0},
		// 2·LN(4,1) = LN(4+ln2, 1).
		{"scaled lognormal CDF", scl.CDF(100), LogNormal{Mu: 4 + math.Ln2, Sigma: 1}.CDF(100)},
		{"scaled lognormal Mean", scl.Mean(), 2 * math.Exp(4.5)},
		{"shifted lognormal CDF", shl.CDF(160), ln.CDF(100)},
		{"shifted lognormal Quantile", shl.Quantile(0.5), 60 + math.Exp(4)},
		{"shifted lognormal Mean", shl.Mean(), 60 + math.Exp(4.5)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if relErr(tc.got, tc.want) > 1e-12 {
				t.Errorf("got %v, want %v", tc.got, tc.want)
			}
		})
	}
	if _, ok := sc.(*PiecewiseUniform); !ok {
		t.Errorf("Scale of a Piecewise is %T, want *PiecewiseUniform", sc)
	}
	if _, ok := sh.(Piecewise); !ok {
		t.Errorf("Shift of a Piecewise is %T, want Piecewise", sh)
	}
	if _, ok := scl.(Scaled); !ok {
		t.Errorf("Scale of a lognormal is %T, want Scaled", scl)
	}
	for _, tc := range []struct {
		name string
		err  error
	}{
		{"zero factor", func() error { _, err := Scale(u, 0); return err }()},
		{"NaN factor", func() error { _, err := Scale(u, math.NaN()); return err }()},
		{"inf factor", func() error { _, err := Scale(u, math.Inf(1)); return err }()},
		{"shift below zero", func() error { _, err := Shift(u, -11); return err }()},
		{"shift lognormal below zero", func() error { _, err := Shift(ln, -1); return err }()},
		{"NaN shift", func() error { _, err := Shift(u, math.NaN()); return err }()},
		{"overflowing scale", func() error { _, err := Scale(Point{V: 1e300}, 1e10); return err }()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !errors.Is(tc.err, ErrInvalid) {
				t.Errorf("err = %v, want ErrInvalid", tc.err)
			}
		})
	}
	// Remaining time: Shift(Conditional(d, e), −e) starts exactly at 0.
	c, _ := Conditional(u, 20)
	rem, err := Shift(c, -20)
	if err != nil || rem.Quantile(0) != 0 || rem.Mean() != 5 {
		t.Errorf("remaining time of U[10,30] after 20 s: %v, err %v", rem, err)
	}
}

func TestConditionalHand(t *testing.T) {
	u := Uniform{Lo: 0, Hi: 100}
	emp := mustEmpirical(t, 10, 20, 20, 40)
	h := NewHistogram(4)
	for _, v := range []float64{0, 10, 10, 30} {
		_ = h.Update(v)
	}
	ln := LogNormal{Mu: 4, Sigma: 1}
	nrm := Normal{Mu: 100, Sigma: 20}
	cu, _ := Conditional(u, 60)
	ce, _ := Conditional(emp, 20)
	ce0, _ := Conditional(emp, 15)
	ch, _ := Conditional(h, 10)
	cl, _ := Conditional(ln, 100)
	cn, _ := Conditional(nrm, 120)
	// E[T | T > e] for a lognormal: e^{μ+σ²/2}·Φ((μ+σ²−ln e)/σ)/Q((ln e−μ)/σ).
	lnWant := math.Exp(4.5) * stdPhi((5-math.Log(100))/1) / stdQ(math.Log(100)-4)
	// Truncated-normal tail mean: μ + σ·φ(z)/Q(z), z = (e−μ)/σ = 1.
	nWant := 100 + 20*stdPdf(1)/stdQ(1)
	tests := []struct {
		name      string
		got, want float64
	}{
		{"uniform: U[60,100] CDF(80)", cu.CDF(80), 0.5},
		{"uniform: mean", cu.Mean(), 80},
		{"uniform: CDF below elapsed", cu.CDF(59), 0},
		{"empirical: only 40 remains", ce.Quantile(0.01), 40},
		{"empirical: mean", ce.Mean(), 40},
		{"empirical after 15: P(T=20)", ce0.CDF(20), 2.0 / 3},
		{"empirical after 15: mean", ce0.Mean(), 80.0 / 3},
		// Histogram segments above 10: [10,20] 0.25, [20,30] 0.125, {30} 0.125.
		{"histogram: CDF(20)", ch.CDF(20), 0.5},
		{"histogram: mean", ch.Mean(), (0.25*15 + 0.125*25 + 0.125*30) / 0.5},
		{"lognormal: RRC(200, 100)", cl.Survival(200), ln.Survival(200) / ln.Survival(100)},
		{"lognormal: mean", cl.Mean(), lnWant},
		{"lognormal: quantile 0 is elapsed", cl.Quantile(0), 100},
		{"normal: mean", cn.Mean(), nWant},
		{"normal: CDF", cn.CDF(140), 1 - nrm.Survival(140)/nrm.Survival(120)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if relErr(tc.got, tc.want) > 1e-12 {
				t.Errorf("got %v, want %v", tc.got, tc.want)
			}
		})
	}
	for _, d := range []Dist{cu, ce, ch} {
		if _, ok := d.(Piecewise); !ok {
			t.Errorf("Conditional of a Piecewise is %T", d)
		}
	}
	// Conditioning twice is conditioning once on the later time.
	cc, _ := Conditional(cl, 150)
	cl150, _ := Conditional(ln, 150)
	if relErr(cc.Mean(), cl150.Mean()) > 1e-12 || relErr(cc.CDF(300), cl150.CDF(300)) > 1e-12 {
		t.Errorf("nested conditional: mean %v vs %v", cc.Mean(), cl150.Mean())
	}
	beyond := []struct {
		name    string
		d       Dist
		elapsed float64
	}{
		{"uniform at max", u, 100},
		{"point at its value", Point{V: 5}, 5},
		{"empirical past max", emp, 41},
		{"histogram at max", h, 30},
		{"normal far out", nrm, 1e6},
	}
	for _, tc := range beyond {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Conditional(tc.d, tc.elapsed); !errors.Is(err, ErrBeyondSupport) {
				t.Errorf("err = %v, want ErrBeyondSupport", err)
			}
		})
	}
	if _, err := Conditional(NewHistogram(0), 5); !errors.Is(err, ErrEmpty) {
		t.Errorf("Conditional(empty histogram) err = %v, want ErrEmpty", err)
	}
	for _, e := range []float64{-1, math.NaN(), math.Inf(1)} {
		if _, err := Conditional(u, e); !errors.Is(err, ErrInvalid) {
			t.Errorf("Conditional(u, %v) err = %v, want ErrInvalid", e, err)
		}
	}
}

func TestDiscretize(t *testing.T) {
	ln := LogNormal{Mu: 5, Sigma: 1}
	tests := []struct {
		name    string
		d       Dist
		n       int
		ksMax   float64 // ≤ 1/n: quantile-spaced segments interpolate the CDF between exact knots
		meanRel float64
	}{
		{"lognormal 64", ln, 64, 1.0 / 64, 0.01},
		{"lognormal 256", ln, 256, 1.0 / 256, 0.002},
		{"normal 32", Normal{Mu: 300, Sigma: 60}, 32, 1.0 / 32, 0.01},
		{"conditional lognormal", &Conditioned{d: ln, elapsed: 200, s0: ln.Survival(200)}, 64, 1.0 / 64, 0.01},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Discretize(tc.d, tc.n)
			if err != nil {
				t.Fatal(err)
			}
			checkSegments(t, p)
			if p.Len() != tc.n {
				t.Errorf("%d segments, want %d", p.Len(), tc.n)
			}
			// Knots are exact: CDF(x_i) = i/n.
			segs := p.Segments()
			for i, s := range segs[:len(segs)-1] {
				if want := float64(i+1) / float64(tc.n); math.Abs(tc.d.CDF(s.Hi)-want) > 1e-9 {
					t.Errorf("knot %d at %v: true CDF %v, want %v", i, s.Hi, tc.d.CDF(s.Hi), want)
				}
			}
			if k := ks(p.CDF, tc.d.CDF, ksPoints(0, p.Max()*1.5, p)); k > tc.ksMax {
				t.Errorf("KS = %v > %v", k, tc.ksMax)
			}
			if r := relErr(p.Mean(), tc.d.Mean()); r > tc.meanRel {
				t.Errorf("mean %v vs %v (rel %v)", p.Mean(), tc.d.Mean(), r)
			}
		})
	}
	// Bounded and piecewise inputs.
	h := histogramOf(t, 1000, 3, ln.Rand)
	p, err := Discretize(h, 10)
	if err != nil || p.Len() != len(h.Segments()) {
		t.Errorf("Discretize(histogram) should keep its segments: %v", err)
	}
	sc := Scaled{D: Uniform{Lo: 0, Hi: 10}, Factor: 2} // bounded, not Piecewise
	p, err = Discretize(sc, 4)
	if err != nil || p.Max() != 20 || p.CDF(5) != 0.25 {
		t.Errorf("bounded: max %v CDF(5) %v err %v", p.Max(), p.CDF(5), err)
	}
	p, err = Discretize(Scaled{D: Point{V: 3}, Factor: 2}, 8) // an atom
	if err != nil || p.Len() != 1 || p.Segments()[0] != (Segment{6, 6, 1}) {
		t.Errorf("atom: %v err %v", p.Segments(), err)
	}
	if _, err := Discretize(ln, 0); !errors.Is(err, ErrInvalid) {
		t.Errorf("n = 0: err %v", err)
	}
}
