package service

import (
	"context"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/plannerhq/planner/experiments"
	"github.com/plannerhq/planner/planner"
	"github.com/plannerhq/planner/planner/registry"
	"github.com/plannerhq/planner/workloads"
)

// smallWorkload is a Google-like hour on 32 nodes in 4 racks: a few dozen
// jobs, SLO and best effort, with history.
func smallWorkload(t testing.TB) (experiments.Input, workloads.Cluster) {
	t.Helper()
	p := workloads.DefaultGoogleParams()
	p.Nodes, p.Racks, p.Hours, p.Seed = 32, 4, 1, 3
	w, err := workloads.GenerateGoogle(p)
	if err != nil {
		t.Fatal(err)
	}
	c := w.Header.Cluster
	return experiments.Input{Name: "google-small", Cluster: c, Jobs: w.Jobs, History: w.History, Window: w.Header.WindowS}, c
}

// simDecisions plays in through the scheduler s in the simulator and
// returns each cycle's time and decision (starts and preemptions).
func simDecisions(t testing.TB, in experiments.Input, s planner.Scheduler, interval float64) ([]RemoteCycle, *experiments.SimResult) {
	t.Helper()
	s.Train(slices.Clone(in.History))
	sim, err := experiments.NewSim(in, experiments.SimConfig{Interval: interval}, s)
	if err != nil {
		t.Fatal(err)
	}
	var out []RemoteCycle
	for !sim.Done() {
		st, d, err := sim.Step(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if st != nil {
			out = append(out, RemoteCycle{Now: st.Now, Decision: &planner.Decision{Start: d.Start, Preempt: d.Preempt}})
		}
	}
	return out, sim.Result()
}

// TestReplayEquivalence: a workload replayed against the service on the
// virtual clock gets, cycle by cycle, the decisions the simulator's own
// scheduler makes, and the same outcome for every job: the service drives
// the simulator's planner, it is not a second one.
func TestReplayEquivalence(t *testing.T) {
	in, cluster := smallWorkload(t)
	for _, name := range []string{"3sigma", "prio"} {
		t.Run(name, func(t *testing.T) {
			cfg := virtualCfg()
			cfg.Scheduler = name
			cfg.Cluster = &cluster
			ts := startService(t, "", cfg)
			opts := planner.Options{Cluster: cluster, Interval: time.Minute, Deterministic: true, Seed: 1}
			want, wantRes := simDecisions(t, in, mustNew(t, name, opts), 60)

			remote, err := NewRemote(context.Background(), ts.c, cluster)
			if err != nil {
				t.Fatal(err)
			}
			got, gotRes := simDecisions(t, in, remote, 60)
			if err := remote.Finish(context.Background()); err != nil {
				t.Fatal(err)
			}
			if remote.FeatureMismatches != 0 {
				t.Errorf("%d jobs' features differ on the service", remote.FeatureMismatches)
			}
			if len(got) != len(want) {
				t.Fatalf("%d cycles replayed, %d simulated", len(got), len(want))
			}
			starts := 0
			for i := range want {
				w, g := want[i], got[i]
				if w.Now != g.Now || !reflect.DeepEqual(norm(w.Decision), norm(g.Decision)) {
					t.Fatalf("cycle %d at %g s: simulator %+v, service %+v (at %g s)", i, w.Now, *w.Decision, *g.Decision, g.Now)
				}
				starts += len(w.Decision.Start)
			}
			if !reflect.DeepEqual(wantRes.Jobs, gotRes.Jobs) {
				t.Error("the jobs' outcomes differ")
			}
			if w, g := untimed(wantRes.Metrics()), untimed(gotRes.Metrics()); w != g {
				t.Errorf("metrics differ:\nsimulator %+v\nreplay    %+v", w, g)
			}
			t.Logf("%d jobs, %d cycles, %d starts: the same decisions", len(in.Jobs), len(want), starts)
		})
	}
}

// untimed is m without its wall-clock measurements, which differ between
// any two runs.
func untimed(m experiments.Metrics) experiments.Metrics {
	m.CycleMsP50, m.CycleMsP90, m.CycleMsP99, m.CycleMsMax = 0, 0, 0, 0
	m.SolverMsP50, m.SolverMsP90, m.SolverMsP99, m.SolverMsMax = 0, 0, 0, 0
	return m
}

// norm is a decision's starts and preemptions with nil for empty.
func norm(d *planner.Decision) planner.Decision {
	n := planner.Decision{}
	if len(d.Start) > 0 {
		n.Start = d.Start
	}
	if len(d.Preempt) > 0 {
		n.Preempt = d.Preempt
	}
	return n
}

func mustNew(t testing.TB, name string, o planner.Options) planner.Scheduler {
	t.Helper()
	s, err := registry.Default().New(name, o)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
