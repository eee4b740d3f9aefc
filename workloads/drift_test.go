package workloads

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/stat"
)

// TestDrift: the drift environment mixes SLO and best-effort jobs, thin
// (< 3 tasks) and wide task-level jobs, and its names' runtimes drift:
// the least-squares slope of ln(runtime) on submit hours, over a name's
// history and window jobs, spreads with a standard deviation near the
// model's 0.1 per hour (each slope also carries the name's own runtime
// noise), where google2011-tasks, without a trend, has slopes near 0.
func TestDrift(t *testing.T) {
	slopeSD := func(gen string) float64 {
		w, err := Generate(gen, mustDefault(gen))
		if err != nil {
			t.Fatal(err)
		}
		x, y := map[string][]float64{}, map[string][]float64{}
		for _, js := range [][]Job{w.History, w.Jobs} {
			for _, j := range js {
				n := j.Features.Name
				x[n] = append(x[n], j.Submit/3600)
				y[n] = append(y[n], math.Log(j.Runtime))
			}
		}
		var slopes []float64
		for n := range x {
			if len(x[n]) >= 30 {
				_, b := stat.LinearRegression(x[n], y[n], nil, false)
				slopes = append(slopes, b)
			}
		}
		if len(slopes) < 10 {
			t.Fatalf("%s: %d names of ≥ 30 jobs", gen, len(slopes))
		}
		return stat.StdDev(slopes, nil)
	}
	if sd := slopeSD(GeneratorDrift); sd < 0.07 || sd > 0.14 {
		t.Errorf("drift: slopes' standard deviation %.3f per hour, want ≈ 0.1", sd)
	}
	if sd := slopeSD(GeneratorGoogle2011Tasks); sd > 0.03 {
		t.Errorf("google2011-tasks: slopes' standard deviation %.3f per hour, want ≈ 0", sd)
	}

	w, err := Generate(GeneratorDrift, mustDefault(GeneratorDrift))
	if err != nil {
		t.Fatal(err)
	}
	slo, thin := 0, 0
	for _, j := range w.Jobs {
		if !j.TaskLevel() {
			t.Fatalf("job %d is not task-level", j.ID)
		}
		if j.Class == SLO {
			slo++
		}
		if j.Tasks() < 3 {
			thin++
		}
	}
	n := float64(len(w.Jobs))
	if f := float64(slo) / n; f < 0.3 || f > 0.7 {
		t.Errorf("SLO share %.2f of %d jobs", f, len(w.Jobs))
	}
	if f := float64(thin) / n; f < 0.2 || f > 0.6 {
		t.Errorf("thin share %.2f of %d jobs", f, len(w.Jobs))
	}
}
