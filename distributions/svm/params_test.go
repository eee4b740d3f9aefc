package svm

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestEnumsRoundTrip(t *testing.T) {
	for _, k := range []Kernel{RBF, Linear, Sigmoid} {
		if got, err := ParseKernel(k.String()); err != nil || got != k {
			t.Errorf("ParseKernel(%q) = %v, %v", k, got, err)
		}
	}
	for _, s := range []Scaling{ScaleNone, ScaleMinMax, ScaleStandard} {
		if got, err := ParseScaling(s.String()); err != nil || got != s {
			t.Errorf("ParseScaling(%q) = %v, %v", s, got, err)
		}
	}
	for _, b := range []Backend{Auto, LibSVM, SMO} {
		if got, err := ParseBackend(b.String()); err != nil || got != b {
			t.Errorf("ParseBackend(%q) = %v, %v", b, got, err)
		}
	}
	for name, err := range map[string]error{
		"kernel":  func() error { _, e := ParseKernel("poly"); return e }(),
		"scaling": func() error { _, e := ParseScaling("log"); return e }(),
		"backend": func() error { _, e := ParseBackend("liblinear"); return e }(),
	} {
		if err == nil {
			t.Errorf("%s: unknown name accepted", name)
		}
	}
	if Kernel(7).String() != "Kernel(7)" {
		t.Errorf("out-of-range kernel prints %q", Kernel(7))
	}
}

func TestResolve(t *testing.T) {
	mod := func(f func(*Params)) *Params {
		p := DefaultParams()
		f(&p)
		return &p
	}
	tests := []struct {
		name    string
		p       *Params
		wantErr string
		check   func(Params) bool
	}{
		{name: "nil is defaults, gamma 1/d", p: nil, check: func(q Params) bool {
			return q.Kernel == RBF && q.C == 1 && q.Gamma == 0.25 && q.ClassWeight == 1 && q.Epsilon == 0.1 && q.Tol == 1e-3 &&
				q.CacheMB == 100 && q.Shrinking && q.Scaling == ScaleMinMax && q.Backend == defaultBackend
		}},
		{name: "gamma kept", p: mod(func(p *Params) { p.Gamma = 3 }), check: func(q Params) bool { return q.Gamma == 3 }},
		{name: "epsilon 0 allowed", p: mod(func(p *Params) { p.Epsilon = 0 }), check: func(q Params) bool { return q.Epsilon == 0 }},
		{name: "smo kept", p: mod(func(p *Params) { p.Backend = SMO }), check: func(q Params) bool { return q.Backend == SMO }},
		{name: "zero params", p: &Params{}, wantErr: "C must be"},
		{name: "negative C", p: mod(func(p *Params) { p.C = -1 }), wantErr: "C must be"},
		{name: "NaN C", p: mod(func(p *Params) { p.C = math.NaN() }), wantErr: "C must be"},
		{name: "infinite C", p: mod(func(p *Params) { p.C = math.Inf(1) }), wantErr: "C must be"},
		{name: "negative gamma", p: mod(func(p *Params) { p.Gamma = -1 }), wantErr: "gamma"},
		{name: "NaN coef0", p: mod(func(p *Params) { p.Coef0 = math.NaN() }), wantErr: "coef0"},
		{name: "zero class weight", p: mod(func(p *Params) { p.ClassWeight = 0 }), wantErr: "class weight"},
		{name: "negative epsilon", p: mod(func(p *Params) { p.Epsilon = -0.1 }), wantErr: "epsilon"},
		{name: "zero tol", p: mod(func(p *Params) { p.Tol = 0 }), wantErr: "tolerance"},
		{name: "zero cache", p: mod(func(p *Params) { p.CacheMB = 0 }), wantErr: "cache"},
		{name: "bad kernel", p: mod(func(p *Params) { p.Kernel = 9 }), wantErr: "kernel"},
		{name: "bad scaling", p: mod(func(p *Params) { p.Scaling = 9 }), wantErr: "scaling"},
		{name: "bad backend", p: mod(func(p *Params) { p.Backend = 9 }), wantErr: "backend"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			q, err := tc.p.resolve(4)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !tc.check(q) {
				t.Errorf("resolved %+v", q)
			}
		})
	}
}

func TestLibsvmBackendWithoutCgo(t *testing.T) {
	p := DefaultParams()
	p.Backend = LibSVM
	_, err := TrainClassifier([]Vector{{0}, {1}}, []bool{false, true}, &p)
	if haveLibsvm {
		if err != nil {
			t.Fatal(err)
		}
		if v := libsvmVersion(); v < 300 {
			t.Errorf("libsvm version %d, want ≥ 300", v)
		}
		return
	}
	if !errors.Is(err, ErrNeedsCgo) || err.Error() != "svm: needs the cgo build (libsvm)" {
		t.Fatalf("err = %v, want ErrNeedsCgo", err)
	}
}
