package instances

import (
	"bytes"
	"encoding/binary"
	"math"
	"strings"
	"testing"

	"github.com/plannerhq/planner/solver"
)

// modelBytes is a canonical byte encoding of every field of m.
func modelBytes(m *solver.Model) []byte {
	var b bytes.Buffer
	w := func(v any) { _ = binary.Write(&b, binary.LittleEndian, v) }
	b.WriteString(m.Name)
	w(m.Maximize)
	for _, v := range m.Vars {
		b.WriteString(v.Name)
		w(int64(v.Kind))
		w(v.Lower)
		w(v.Upper)
		w(v.Obj)
	}
	for _, r := range m.Rows {
		b.WriteString(r.Name)
		for _, j := range r.Index {
			w(int64(j))
		}
		w(r.Coef)
		w(int64(r.Sense))
		w(r.RHS)
	}
	return b.Bytes()
}

func TestGenerateDeterministic(t *testing.T) {
	p := DefaultParams()
	p.Jobs = 60
	a, err := Generate(p)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Generate(p)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(modelBytes(a.Model), modelBytes(b.Model)) {
		t.Fatal("same seed gave different models")
	}
	p.Seed++
	c, err := Generate(p)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(modelBytes(a.Model), modelBytes(c.Model)) {
		t.Fatal("different seeds gave the same model")
	}
}

func TestParamsValidate(t *testing.T) {
	tests := []struct {
		name string
		edit func(*Params)
		want string
	}{
		{"jobs", func(p *Params) { p.Jobs = 0 }, "Jobs"},
		{"racks", func(p *Params) { p.Racks = -1 }, "Racks"},
		{"rack nodes", func(p *Params) { p.RackNodes = 0 }, "RackNodes"},
		{"slices", func(p *Params) { p.Slices = 0 }, "Slices"},
		{"starts", func(p *Params) { p.Starts = 0 }, "Starts"},
		{"starts beyond horizon", func(p *Params) { p.Starts = 8 }, "beyond the 60 slices"},
		{"starts past an int's shift", func(p *Params) { p.Starts = 100 }, "beyond the 60 slices"},
		{"busy", func(p *Params) { p.BusyFraction = 1.5 }, "BusyFraction"},
		{"busy NaN", func(p *Params) { p.BusyFraction = math.NaN() }, "BusyFraction"},
		{"too large", func(p *Params) { p.Jobs = 1 << 22 }, "too large a model"},
		{"too many entries", func(p *Params) { p.Slices = 1 << 30 }, "slices is too large a model"},
		{"too large a cluster", func(p *Params) { p.Jobs, p.RackNodes = 1, 1<<30 }, "too large a cluster"},
		{"products past int64", func(p *Params) { p.Jobs, p.Racks = math.MaxInt/2, math.MaxInt/2 }, "too large"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := DefaultParams()
			tc.edit(&p)
			if _, err := Generate(p); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one naming %q", err, tc.want)
			}
		})
	}
}

func TestGenerateShape(t *testing.T) {
	for _, jobs := range []int{100, 300} {
		p := DefaultParams()
		p.Jobs = jobs
		in, err := Generate(p)
		if err != nil {
			t.Fatal(err)
		}
		m := in.Model
		if err := m.Validate(); err != nil {
			t.Fatal(err)
		}
		bins, ints := 0, 0
		for _, v := range m.Vars {
			switch v.Kind {
			case solver.Binary:
				bins++
			case solver.Integer:
				ints++
			}
		}
		large := 0
		for _, j := range in.Jobs {
			if j.Nodes > 32 {
				large++
			}
		}
		t.Logf("%d jobs (%d large): %d binaries, %d integers, %d rows, %d nonzeros", jobs, large, bins, ints, len(m.Rows), m.NumNonzeros())
		if bins < 8*jobs || bins > 14*jobs || len(m.Rows) < jobs+p.Racks*p.Slices || m.NumNonzeros() < 500*jobs {
			t.Errorf("size outside the SOLVERS.md ballpark")
		}
		// The all-zero plan is feasible; every option's columns are consistent.
		if err := m.CheckFeasible(make([]float64, len(m.Vars))); err != nil {
			t.Fatal(err)
		}
		for oi, o := range in.Options {
			if m.Vars[o.X].Obj != o.Utility || o.Utility <= 0 || len(o.Y) != len(o.Racks) || in.Jobs[o.Job].Options == nil {
				t.Fatalf("option %d inconsistent: %+v", oi, o)
			}
		}
		for r := range in.Capacity {
			for tt, c := range in.Capacity[r] {
				if c < 0 || c > float64(p.RackNodes) || (tt > 0 && c < in.Capacity[r][tt-1]-1e-9) {
					t.Fatalf("C[%d][%d] = %v", r, tt, c)
				}
			}
		}
	}
}

func TestUtilityClosedForm(t *testing.T) {
	// BE expected utility against a midpoint-rule integral of the density.
	job := Job{Class: BestEffort, Value: 10, Deadline: 30, Runtime: Runtime{Mu: math.Log(8), Sigma: 0.6}}
	for _, s := range []float64{0, 4, 16, 29} {
		got := utilityOf(&job, job.Runtime, s)
		want, n := 0.0, 200000
		hi := 200.0
		for i := 0; i < n; i++ {
			a, b := hi*float64(i)/float64(n), hi*float64(i+1)/float64(n)
			mid := (a + b) / 2
			p := job.Runtime.CDF(b) - job.Runtime.CDF(a)
			want += p * job.Value * math.Max(0, 1-(s+mid)/job.Deadline)
		}
		if math.Abs(got-want) > 1e-6*job.Value {
			t.Errorf("s=%v: got %v, want %v", s, got, want)
		}
	}
}
