package datalake

import (
	"bytes"
	"cmp"
	"encoding/json"
	"math"
	"slices"
	"testing"
)

func TestGenerateIsDeterministic(t *testing.T) {
	p := Params{Seed: 5, Scale: 0.5}
	a, err := Generate(p)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Generate(p)
	if err != nil {
		t.Fatal(err)
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if !bytes.Equal(ja, jb) {
		t.Fatal("the same params gave two different lakes")
	}
	c, err := Generate(Params{Seed: 6, Scale: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	if jc, _ := json.Marshal(c); bytes.Equal(ja, jc) {
		t.Fatal("two seeds gave the same lake")
	}
}

func TestParamsValidate(t *testing.T) {
	for _, s := range []float64{0, 0.1, 9, math.NaN()} {
		if _, err := Generate(Params{Seed: 1, Scale: s}); err == nil {
			t.Errorf("scale %v accepted", s)
		}
	}
}

// TestRealWorldSemantics checks the real world against §6's rules: hard
// and polling inputs written before submission, soft ones before the
// start and within the lookback, failures only for a missing hard input,
// polling jobs 1–14 minutes after their last input, and every queue
// within its tokens at all times.
func TestRealWorldSemantics(t *testing.T) {
	l := lake(t, 1)
	pollingSeen := 0
	for i := range l.Jobs {
		j := &l.Jobs[i]
		tp := &l.Templates[j.Template]
		if j.ID != i {
			t.Fatalf("job %d has id %d", i, j.ID)
		}
		if j.Status == FailedMissingInput {
			if len(j.Inputs) != 1 || !j.Inputs[0].Missing || j.Inputs[0].Kind != Hard {
				t.Fatalf("failed job %d: inputs %+v, want one missing hard input", j.ID, j.Inputs)
			}
			if w := j.Inputs[0].Writer; w >= 0 && l.Jobs[w].Status == Completed && l.Jobs[w].End <= j.Submit {
				t.Fatalf("job %d failed though its input's writer %d ended at %v before its submit %v", j.ID, w, l.Jobs[w].End, j.Submit)
			}
			continue
		}
		if j.Start < j.Submit || math.Abs(j.End-j.Start-j.Runtime) > 1e-6 {
			t.Fatalf("job %d: submit %v start %v end %v runtime %v", j.ID, j.Submit, j.Start, j.End, j.Runtime)
		}
		last := math.Inf(-1)
		for _, in := range j.Inputs {
			if in.Missing {
				t.Fatalf("completed job %d has a missing input", j.ID)
			}
			if in.Writer < 0 {
				if in.Written != WorldStart {
					t.Fatalf("job %d: bootstrap input written at %v", j.ID, in.Written)
				}
				continue
			}
			w := &l.Jobs[in.Writer]
			if w.Status != Completed || w.End != in.Written {
				t.Fatalf("job %d: input %s from job %d that ended %v (%v), recorded %v", j.ID, in.File, w.ID, w.End, w.Status, in.Written)
			}
			if !slices.ContainsFunc(w.Outputs, func(o Output) bool { return o.File == in.File }) {
				t.Fatalf("job %d reads %s, which job %d does not write", j.ID, in.File, w.ID)
			}
			switch in.Kind {
			case Hard, PollingDep:
				if in.Written > j.Submit {
					t.Fatalf("job %d: %v input written at %v after its submit %v", j.ID, in.Kind, in.Written, j.Submit)
				}
			case Soft:
				if in.Written >= j.Start {
					t.Fatalf("job %d: soft input written at %v, not before its start %v", j.ID, in.Written, j.Start)
				}
			}
			if in.Kind == PollingDep {
				last = max(last, in.Written)
			}
		}
		if tp.Kind == Polling {
			pollingSeen++
			if d := j.Submit - last; d < 60 || d > 14*60 || math.Abs(d-j.PollDelay) > 1e-6 {
				t.Fatalf("polling job %d submitted %v s after its last input (poll delay %v)", j.ID, d, j.PollDelay)
			}
		}
		for _, o := range j.Outputs {
			for _, d := range o.Downloads {
				if d <= j.End || d > j.End+ValueWindow {
					t.Fatalf("job %d ended %v: download at %v", j.ID, j.End, d)
				}
			}
		}
	}
	if pollingSeen == 0 {
		t.Fatal("no polling jobs")
	}
	// queues within their tokens
	type step struct {
		at    float64
		delta int
	}
	byOrg := map[int][]step{}
	for i := range l.Jobs {
		j := &l.Jobs[i]
		if j.Status == Completed {
			o := l.Templates[j.Template].Org
			byOrg[o] = append(byOrg[o], step{j.Start, j.Width}, step{j.End, -j.Width})
		}
	}
	for o, s := range byOrg {
		slices.SortFunc(s, func(a, b step) int { return cmp.Or(cmp.Compare(a.at, b.at), cmp.Compare(a.delta, b.delta)) })
		level := 0
		for _, e := range s {
			level += e.delta
			if level > l.Queues[o] {
				t.Fatalf("queue %s holds %d tokens at %v, capacity %d", l.Orgs[o].Name, level, e.at, l.Queues[o])
			}
		}
	}
}

// TestHardInputsAreConstant checks Table 1's hard rule on the truth: a
// periodic template reads the same number of outputs of a hard upstream
// every time.
func TestHardInputsAreConstant(t *testing.T) {
	l := lake(t, 2)
	counts := map[[2]int]map[int]bool{}
	for i := range l.Jobs {
		j := &l.Jobs[i]
		tp := &l.Templates[j.Template]
		if j.Status != Completed || !tp.Kind.Periodic() || j.Submit < HistoryStart {
			continue
		}
		n := map[int]int{}
		for _, in := range j.Inputs {
			if in.Kind == Hard && in.Writer >= 0 {
				n[l.Jobs[in.Writer].Template]++
			}
		}
		for u, c := range n {
			k := [2]int{j.Template, u}
			if counts[k] == nil {
				counts[k] = map[int]bool{}
			}
			counts[k][c] = true
		}
	}
	if len(counts) == 0 {
		t.Fatal("no hard inputs")
	}
	for k, c := range counts {
		if len(c) != 1 {
			t.Errorf("template %d reads %v outputs of %d", k[0], c, k[1])
		}
	}
}

func TestRealWorldCompletes(t *testing.T) {
	for _, seed := range seeds {
		l := lake(t, seed)
		failed := 0
		for i := range l.Jobs {
			if l.Jobs[i].Status != Completed {
				failed++
			}
		}
		if share := float64(failed) / float64(len(l.Jobs)); share > 0.01 {
			t.Errorf("seed %d: %.2f %% of jobs failed in the real world, want ≤ 1 %%", seed, 100*share)
		}
	}
}

// TestPriorityModel checks the documented model: a recurring job runs at
// its template's priority or one level off it; an ad-hoc job at its
// template's; all in 1…9.
func TestPriorityModel(t *testing.T) {
	l := lake(t, 1)
	for i := range l.Jobs {
		j := &l.Jobs[i]
		tp := &l.Templates[j.Template]
		d := j.Priority - tp.Priority
		if j.Priority < 1 || j.Priority > 9 || d < -1 || d > 1 || (!tp.Kind.Recurring() && d != 0) {
			t.Fatalf("job %d of a %v template of priority %d has priority %d", j.ID, tp.Kind, tp.Priority, j.Priority)
		}
	}
}

// TestLogHoldsNoTruth checks that the log is the history only: jobs that
// ended before the window, reads and writes that match the lake, and
// downloads and uploads before time 0.
func TestLogHoldsNoTruth(t *testing.T) {
	l := lake(t, 1)
	g := l.Log()
	if g.Start != WorldStart || g.End != 0 {
		t.Fatalf("log spans [%v, %v)", g.Start, g.End)
	}
	n := 0
	for i := range l.Jobs {
		if l.Jobs[i].End < 0 {
			n++
		}
	}
	if len(g.Jobs) != n {
		t.Fatalf("log has %d jobs, the history %d", len(g.Jobs), n)
	}
	for _, r := range g.Jobs {
		j := &l.Jobs[r.ID]
		if r.End >= 0 || r.Submit != j.Submit || r.Priority != j.Priority {
			t.Fatalf("log job %d does not match the lake", r.ID)
		}
		if r.Status != Completed && (len(r.Reads) > 0 || len(r.Writes) > 0 || r.ComputeHours != 0) {
			t.Fatalf("failed job %d has reads, writes or compute-hours", r.ID)
		}
	}
	for _, ops := range [][]Op{g.Downloads, g.Uploads} {
		if !slices.IsSortedFunc(ops, func(a, b Op) int { return cmp.Compare(a.Time, b.Time) }) {
			t.Fatal("operations not in time order")
		}
		for _, o := range ops {
			if o.Time >= 0 {
				t.Fatalf("operation at %v in the log", o.Time)
			}
		}
	}
	if len(g.Downloads) == 0 || len(g.Uploads) == 0 {
		t.Fatal("no downloads or uploads in the log")
	}
}

func TestWindowJobsAndTruth(t *testing.T) {
	l := lake(t, 1)
	jobs := l.WindowJobs()
	tr := l.Truth()
	if len(jobs) == 0 || len(jobs) != len(tr.Jobs) {
		t.Fatalf("%d window jobs, %d truths", len(jobs), len(tr.Jobs))
	}
	for i := range jobs {
		j, jt, lj := &jobs[i], &tr.Jobs[i], &l.Jobs[jobs[i].ID]
		if j.ID != jt.ID || j.Submit < 0 || j.Submit >= Week || j.Value != float64(lj.Priority) || j.Nodes != lj.Width {
			t.Fatalf("window job %d: %+v vs truth %d", i, j, jt.ID)
		}
		if j.Features.Name != jt.Template || j.Features.App != jt.Org {
			t.Fatalf("window job %d names %s/%s, truth %s/%s", j.ID, j.Features.Name, j.Features.App, jt.Template, jt.Org)
		}
	}
	for _, e := range tr.Edges() {
		if l.Jobs[e[0]].Submit < 0 || l.Jobs[e[1]].Submit < 0 {
			t.Fatalf("edge %v leaves the window", e)
		}
	}
	w, err := l.Workload()
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Jobs) != len(jobs) || len(w.History) == 0 {
		t.Fatalf("workload: %d jobs, %d history", len(w.Jobs), len(w.History))
	}
}

func TestLayout(t *testing.T) {
	l := lake(t, 1)
	nominal := 0
	for _, q := range l.Queues {
		nominal += q
	}
	tests := []struct {
		name   string
		mode   QueueMode
		pct    float64
		queues int
		tokens int
	}{
		{"hierarchical nominal", Hierarchical, 100, len(l.Orgs), nominal},
		{"global 60", Global, 60, 1, int(math.Round(0.6 * float64(nominal)))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lay, err := l.Layout(tt.mode, tt.pct)
			if err != nil {
				t.Fatal(err)
			}
			if len(lay.Queues) != tt.queues || lay.Tokens() != tt.tokens {
				t.Errorf("%d queues of %d tokens, want %d of %d", len(lay.Queues), lay.Tokens(), tt.queues, tt.tokens)
			}
			share := 0.0
			for _, q := range lay.Queues {
				share += q.Share
			}
			if math.Abs(share-1) > 1e-9 {
				t.Errorf("shares sum to %v", share)
			}
		})
	}
	for _, pct := range []float64{20, 40} {
		lay, err := l.Layout(Hierarchical, pct)
		if err != nil {
			t.Fatalf("at %v %%: %v", pct, err)
		}
		for o := range l.Orgs {
			if want := max(1, int(math.Round(float64(l.Queues[o])*pct/100))); lay.Queues[o].Tokens != want {
				t.Errorf("at %v %% queue %d has %d tokens, want %d", pct, o, lay.Queues[o].Tokens, want)
			}
		}
	}
	for _, pct := range []float64{0, -5, 150, math.NaN()} {
		if _, err := l.Layout(Global, pct); err == nil {
			t.Errorf("capacity %v accepted", pct)
		}
	}
}

func TestEnumsRoundTrip(t *testing.T) {
	for k := Hourly; k <= AdHoc; k++ {
		if got, err := ParseKind(k.String()); err != nil || got != k {
			t.Errorf("kind %v: %v, %v", k, got, err)
		}
	}
	for k := Hard; k <= Soft; k++ {
		if got, err := ParseDepKind(k.String()); err != nil || got != k {
			t.Errorf("dependency kind %v: %v, %v", k, got, err)
		}
	}
	for _, m := range []QueueMode{Hierarchical, Global} {
		if got, err := ParseQueueMode(m.String()); err != nil || got != m {
			t.Errorf("queue mode %v: %v, %v", m, got, err)
		}
	}
	for _, s := range []Status{Completed, FailedMissingInput} {
		if got, err := ParseStatus(s.String()); err != nil || got != s {
			t.Errorf("status %v: %v, %v", s, got, err)
		}
	}
	if _, err := ParseQueueMode("flat"); err == nil {
		t.Error("ParseQueueMode accepted flat")
	}
}

func TestFiles(t *testing.T) {
	l := lake(t, 1)
	files := l.Files()
	if !slices.IsSortedFunc(files, func(a, b File) int { return cmp.Compare(a.Name, b.Name) }) {
		t.Fatal("files not sorted by name")
	}
	byName := map[string]File{}
	for _, f := range files {
		byName[f.Name] = f
		if !slices.IsSortedFunc(f.Writes, func(a, b Write) int { return cmp.Compare(a.Time, b.Time) }) {
			t.Fatalf("%s: writes out of order", f.Name)
		}
	}
	// every input of a completed job names a write of its file by its writer
	for i := range l.Jobs {
		j := &l.Jobs[i]
		if j.Status != Completed {
			continue
		}
		for _, in := range j.Inputs {
			if in.Writer < 0 {
				continue
			}
			if !slices.Contains(byName[in.File].Writes, Write{Job: in.Writer, Time: in.Written}) {
				t.Fatalf("job %d reads %s written by %d at %v: no such write", j.ID, in.File, in.Writer, in.Written)
			}
		}
	}
}
