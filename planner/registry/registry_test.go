package registry

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/planner/threesigma"
	"github.com/plannerhq/planner/workloads"
)

// TestTable: every row has a unique name, a summary and a constructor
// that builds a scheduler of that name; the default set is the 3Sigma
// paper's comparison, in its order.
func TestTable(t *testing.T) {
	reg := Default()
	seen := map[string]bool{}
	o := planner.Options{Cluster: workloads.Cluster{PartitionNodes: []int{4}, Slowdown: 1.5}, Deterministic: true}
	for _, p := range reg {
		if seen[p.Name] {
			t.Errorf("%s registered twice", p.Name)
		}
		seen[p.Name] = true
		if p.Summary == "" || p.New == nil {
			t.Errorf("%s: summary %q, constructor set %v", p.Name, p.Summary, p.New != nil)
			continue
		}
		s, err := p.New(o)
		if err != nil {
			t.Errorf("%s: %v", p.Name, err)
			continue
		}
		if s.Name() != p.Name {
			t.Errorf("row %s builds a scheduler named %s", p.Name, s.Name())
		}
	}
	want := []string{"3sigma", "pointperfest", "pointrealest", "3sigma-nodist", "3sigma-nooe", "3sigma-noadapt", "prio"}
	if got := reg.Defaults(); !slices.Equal(got, want) {
		t.Errorf("defaults %v, want %v", got, want)
	}
	for _, v := range threesigma.Variants() {
		if p, _ := reg.Lookup(v); p.Reads&planner.ReadsSolver == 0 {
			t.Errorf("%s does not read the solver settings", v)
		}
	}
	// The planners (3sigma-hybrid too) decide at their cycle, as 3Sigma's
	// does, or as the workload asks when a run sets neither timing nor
	// interval; the heuristics (prio, backfill, GS and SLearn) at every
	// event too.
	short := []workloads.Job{{Class: workloads.SLO, Nodes: 1, Runtime: 100, Deadline: 110}}
	for _, p := range reg {
		planning := slices.Contains(threesigma.Variants(), p.Name) || p.Name == threesigma.Name3SigmaHybrid
		want := planner.OnEvents
		if planning {
			want = planner.OnCycle
		}
		if p.Decisions != want {
			t.Errorf("%s decides %s, want %s", p.Name, p.Decisions, want)
		}
		if planning != (p.TimingFor != nil) {
			t.Errorf("%s derives its timing: %v, want %v", p.Name, p.TimingFor != nil, planning)
			continue
		}
		if planning {
			if tm, why := p.TimingFor(short, time.Minute); tm != planner.OnEvents || why == "" {
				t.Errorf("%s on slack 10 s at a 60 s cycle: %s (%q), want events", p.Name, tm, why)
			}
		}
	}
	if err := reg.Check([]string{"3sigma", "nope"}); !errors.Is(err, planner.ErrUnknownScheduler) {
		t.Errorf("unknown name: %v", err)
	}
	if _, err := reg.New("nope", o); !errors.Is(err, planner.ErrUnknownScheduler) {
		t.Errorf("New of an unknown name: %v", err)
	}
}
