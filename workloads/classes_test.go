package workloads

import (
	"errors"
	"math"
	"reflect"
	"testing"
)

// TestTermsMatchGenerator checks that ClassRules.Terms reproduces the
// deadline, preferred racks and value every generator gives each job, so
// importers and generators share one set of rules.
func TestTermsMatchGenerator(t *testing.T) {
	for _, gen := range Generators() {
		t.Run(gen, func(t *testing.T) {
			p, err := DefaultParams(gen)
			if err != nil {
				t.Fatal(err)
			}
			p.Hours, p.HistoryJobs, p.Seed, p.ValuePerNodeHour = 1, 50, 9, false
			p.SLOShare = 0.5 // the task-level generators' default is best-effort only
			p.SlackPct = []float64{10, 30, 170}
			w, err := Generate(gen, p)
			if err != nil {
				t.Fatal(err)
			}
			r := DefaultClassRules()
			r.SlackPct, r.Seed = p.SlackPct, p.Seed
			r.SLOValue, r.BEValue, r.PreferredFraction = p.SLOValue, p.BEValue, p.PreferredFraction
			racks := len(w.Header.Cluster.PartitionNodes)
			slo := 0
			for _, sec := range [][]Job{w.Jobs, w.History} {
				for _, want := range sec {
					got := want
					got.Deadline, got.Preferred, got.Value = -1, []int{99}, -1
					r.Terms(&got, racks)
					if !reflect.DeepEqual(got, want) {
						t.Fatalf("job %d: Terms gave %+v, generator %+v", want.ID, got, want)
					}
					if want.Class == SLO {
						slo++
					}
				}
			}
			if slo == 0 {
				t.Fatal("no SLO job in the generated workload")
			}
		})
	}
}

func TestAssignClasses(t *testing.T) {
	mk := func(work ...float64) []Job {
		jobs := make([]Job, len(work))
		for i, w := range work {
			jobs[i] = Job{ID: i, Nodes: 1, Runtime: w}
		}
		return jobs
	}
	tests := []struct {
		name  string
		share float64
		work  []float64
		want  []Class
	}{
		{"even mix alternates", 0.5, []float64{10, 10, 10, 10}, []Class{SLO, BestEffort, SLO, BestEffort}},
		{"big job starves its class", 0.5, []float64{100, 10, 10, 10}, []Class{SLO, BestEffort, BestEffort, BestEffort}},
		{"all slo", 1, []float64{1, 2}, []Class{SLO, SLO}},
		{"all be", 0, []float64{1, 2}, []Class{BestEffort, BestEffort}},
		// Targets 1:3: after SLO 10, BE takes jobs until 10/0.25 ≤ be/0.75.
		{"quarter slo", 0.25, []float64{10, 10, 10, 10, 10}, []Class{SLO, BestEffort, BestEffort, BestEffort, SLO}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := DefaultClassRules()
			r.SLOShare = tc.share
			jobs := mk(tc.work...)
			r.AssignClasses(jobs)
			for i, j := range jobs {
				if j.Class != tc.want[i] {
					t.Fatalf("job %d class %v, want %v (all: %v)", i, j.Class, tc.want[i], jobs)
				}
			}
		})
	}
}

// TestClassRulesValidate: a bad rule is refused with a *FieldError naming
// its field (none for valid rules), and matches ErrInvalid.
func TestClassRulesValidate(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(r *ClassRules)
		field  string
	}{
		{"defaults", func(*ClassRules) {}, ""},
		{"share", func(r *ClassRules) { r.SLOShare = 1.1 }, "SLOShare"},
		{"no slack", func(r *ClassRules) { r.SlackPct = nil }, "SlackPct"},
		{"nan slack", func(r *ClassRules) { r.SlackPct = []float64{math.NaN()} }, "SlackPct"},
		{"largest slack", func(r *ClassRules) { r.SlackPct = []float64{MaxSlackPct} }, ""},
		{"huge slack", func(r *ClassRules) { r.SlackPct = []float64{20, 1e308} }, "SlackPct"},
		{"infinite slack", func(r *ClassRules) { r.SlackPct = []float64{math.Inf(1)} }, "SlackPct"},
		{"fraction", func(r *ClassRules) { r.PreferredFraction = 0 }, "PreferredFraction"},
		{"slo value", func(r *ClassRules) { r.SLOValue = math.Inf(1) }, "SLOValue"},
		{"be value", func(r *ClassRules) { r.BEValue = -1 }, "BEValue"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := DefaultClassRules()
			tc.mutate(&r)
			err := r.Validate()
			var fe *FieldError
			switch {
			case tc.field == "" && err != nil:
				t.Fatalf("Validate() = %v, want nil", err)
			case tc.field == "":
			case !errors.As(err, &fe) || fe.Field != tc.field || !errors.Is(err, ErrInvalid):
				t.Fatalf("Validate() = %v, want a FieldError for %s matching ErrInvalid", err, tc.field)
			}
		})
	}
}
