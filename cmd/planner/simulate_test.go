package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/plannerhq/planner/workloads"
)

// small is a quick Google-like setting: 32 nodes, one hour.
var small = []string{"simulate", "--nodes", "32", "--hours", "1", "--load", "1.2", "--quiet"}

func simArgs(extra ...string) []string { return append(append([]string{}, small...), extra...) }

func TestSimulateJSON(t *testing.T) {
	out, _, err := runCLI(t, simArgs("--schedulers", "prio,prio-nopreempt", "--format", "json")...)
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Config map[string]any
		Runs   []struct {
			Scheduler, Workload string
			Seed                uint64
			Params              map[string]any
			Metrics             map[string]*float64
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v in\n%s", err, out)
	}
	if rep.Config["workload"] != "google" || rep.Config["nodes"] != 32.0 || rep.Config["interval"] != "1m0s" {
		t.Errorf("config %v", rep.Config)
	}
	if _, ok := rep.Config["parallel"]; ok {
		t.Error("config carries --parallel (results must not depend on it)")
	}
	if len(rep.Runs) != 2 || rep.Runs[0].Scheduler != "prio" || rep.Runs[1].Scheduler != "prio-nopreempt" {
		t.Fatalf("runs %+v", rep.Runs)
	}
	for _, r := range rep.Runs {
		if r.Workload != "google" || r.Seed != 1 || r.Params["nodes"] != 32.0 {
			t.Errorf("run %+v", r)
		}
		for _, name := range []string{"slo_miss_rate", "goodput_machine_hours", "slo_goodput_machine_hours",
			"be_goodput_machine_hours", "be_latency_mean_s", "jct_mean_s", "jct_p50_s", "jct_p99_s", "utilization",
			"solver_time_limited", "fallbacks"} {
			if v, ok := r.Metrics[name]; !ok || v == nil {
				t.Errorf("%s: metric %s missing", r.Scheduler, name)
			}
		}
	}
}

func TestSimulateBackfill(t *testing.T) {
	out, _, err := runCLI(t, simArgs("--schedulers", "backfill,backfill-pred", "--format", "json")...)
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Runs []struct {
			Scheduler string
			Metrics   map[string]float64
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v in\n%s", err, out)
	}
	if len(rep.Runs) != 2 || rep.Runs[0].Scheduler != "backfill" || rep.Runs[1].Scheduler != "backfill-pred" {
		t.Fatalf("runs %+v", rep.Runs)
	}
	for _, r := range rep.Runs {
		if m := r.Metrics; m["preemptions"] != 0 || m["completed_jobs"] == 0 || !(m["utilization"] > 0) {
			t.Errorf("%s: metrics %v", r.Scheduler, m)
		}
	}
}

// TestSimulateDecide: prio decides on events unless --decisions says
// otherwise; 3sigma derives its timing from the workload unless
// --decisions or --interval is given (the Google-like history's SLO jobs
// have less slack than a 60 s cycle: events). Each run's params say how
// it decided, and why when derived; the config carries --decisions only
// when it was given.
func TestSimulateDecide(t *testing.T) {
	for _, tc := range []struct {
		name      string
		scheduler string
		args      []string
		want      string
		derived   bool
	}{
		{"prio by default", "prio", nil, "events", false},
		{"prio, policy", "prio", []string{"--decisions", "policy"}, "events", false},
		{"prio, cycle", "prio", []string{"--decisions", "cycle"}, "cycle", false},
		{"prio, events", "prio", []string{"--decisions", "events"}, "events", false},
		{"prio, an interval", "prio", []string{"--interval", "60s"}, "events", false},
		{"3sigma by default: derived", "3sigma", nil, "events", true},
		{"3sigma, policy: derived", "3sigma", []string{"--decisions", "policy"}, "events", true},
		{"3sigma, an interval: its cycle", "3sigma", []string{"--interval", "60s"}, "cycle", false},
		{"3sigma, cycle", "3sigma", []string{"--decisions", "cycle"}, "cycle", false},
		{"3sigma, events", "3sigma", []string{"--decisions", "events"}, "events", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, _, err := runCLI(t, append(simArgs("--schedulers", tc.scheduler, "--format", "json"), tc.args...)...)
			if err != nil {
				t.Fatal(err)
			}
			var rep struct {
				Config map[string]any
				Runs   []struct{ Params map[string]any }
			}
			if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Runs) != 1 {
				t.Fatalf("%v in\n%s", err, out)
			}
			p := rep.Runs[0].Params
			if got := p["decisions"]; got != tc.want {
				t.Errorf("the run decided %v, want %s", got, tc.want)
			}
			why, _ := p["decisions_reason"].(string)
			if tc.derived != (why != "") || tc.derived && !strings.HasPrefix(why, tc.want+": a 60 s cycle alone would miss") {
				t.Errorf("decisions_reason %q (derived: want %v)", why, tc.derived)
			}
			given := ""
			if len(tc.args) == 2 && tc.args[0] == "--decisions" && tc.args[1] != "policy" {
				given = tc.args[1]
			}
			if got, ok := rep.Config["decisions"]; ok != (given != "") || ok && got != given {
				t.Errorf("config decisions %v (set %v), want %q", got, ok, given)
			}
		})
	}
}

// TestSimulateDerivedTable: the table marks a derived timing and says why
// under it.
func TestSimulateDerivedTable(t *testing.T) {
	out, _, err := runCLI(t, simArgs("--schedulers", "3sigma,prio")...)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, " events* ") || !strings.Contains(out, "\n* derived from the workload: events: a 60 s cycle alone would miss ") {
		t.Errorf("no derived timing in the table:\n%s", out)
	}
}

func TestSimulateDeterministic(t *testing.T) {
	a, _, err := runCLI(t, simArgs("--schedulers", "prio,prio-nopreempt", "--format", "json", "--parallel", "1")...)
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := runCLI(t, simArgs("--schedulers", "prio,prio-nopreempt", "--format", "json", "--parallel", "2")...)
	if err != nil {
		t.Fatal(err)
	}
	if a != b {
		t.Error("JSON differs between --parallel 1 and 2")
	}
	c, _, err := runCLI(t, simArgs("--schedulers", "prio", "--format", "json", "--seed", "2")...)
	if err != nil {
		t.Fatal(err)
	}
	if c == a {
		t.Error("another seed gave the same JSON")
	}
}

func TestSimulateOutDirAndFormats(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "res")
	out, _, err := runCLI(t, simArgs("--schedulers", "prio", "--out", dir)...)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "SLO miss %") || !strings.Contains(out, "prio") {
		t.Errorf("table:\n%s", out)
	}
	for _, f := range []string{"results.json", "jobs.csv", "chart.png", "timeseries.png", "timeseries-prio.csv", "gantt-prio.png"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	fh, err := os.Open(filepath.Join(dir, "jobs.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	rows, err := csv.NewReader(fh).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	// The contract's columns, then those of the wait, slowdown and fairness
	// metrics, the miss cause, then those of task-level jobs.
	if got := strings.Join(rows[0], ","); got != "scheduler,job_id,class,submit_s,deadline_s,nodes,runtime_s,partition,start_s,end_s,completed,met_deadline,preemptions,user,wait_s,bounded_slowdown,miss,tasks,task_work_node_s,source_id,meta" {
		t.Errorf("jobs.csv header %s", got)
	}
	out, _, err = runCLI(t, simArgs("--schedulers", "prio", "--format", "csv")...)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out, "scheduler,workload,seed,slo_miss_rate,") {
		t.Errorf("csv:\n%s", out)
	}
}

func TestSimulateWorkloadFileAndConfig(t *testing.T) {
	dir := t.TempDir()
	p := workloads.DefaultGoogleParams()
	p.Nodes, p.Racks, p.Hours, p.Load, p.HistoryJobs = 16, 4, 0.5, 1, 50
	w, err := workloads.GenerateGoogle(p)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := workloads.Write(&b, w); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "w.jsonl")
	if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "cfg.json")
	if err := os.WriteFile(cfg, []byte(`{"workload": "`+file+`", "schedulers": ["prio", "prio-nopreempt"], "interval": "30s", "format": "json", "quiet": true}`), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err := runCLI(t, "simulate", "--config", cfg, "--schedulers", "prio")
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Config map[string]any
		Runs   []struct {
			Scheduler, Workload string
			Params              map[string]any
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v in\n%s", err, out)
	}
	if rep.Config["interval"] != "30s" {
		t.Errorf("interval from the config file not applied: %v", rep.Config)
	}
	if len(rep.Runs) != 1 || rep.Runs[0].Scheduler != "prio" {
		t.Errorf("the command line should override the file's schedulers: %+v", rep.Runs)
	}
	if rep.Runs[0].Workload != "w.jsonl" || rep.Runs[0].Params["nodes"] != 16.0 || rep.Runs[0].Params["jobs"] != float64(len(w.Jobs)) {
		t.Errorf("run %+v", rep.Runs[0])
	}
}

func TestSimulateBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.jsonl")
	if err := os.WriteFile(bad, []byte("{\"version\": 1}\nnot json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	badCfg := filepath.Join(dir, "cfg.json")
	if err := os.WriteFile(badCfg, []byte(`{"nodez": 3}`), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		args  []string
		want  string
		usage bool
	}{
		{"unknown scheduler", simArgs("--schedulers", "prio,lifo"), `unknown scheduler "lifo"`, true},
		{"negative load", simArgs("--load", "-1"), "--load: must be > 0", true},
		{"zero nodes", simArgs("--nodes", "0"), "--nodes", true},
		{"unknown format", simArgs("--format", "xml"), "--format", true},
		{"negative slack", simArgs("--slack", "20,-5"), "--slack", true},
		{"huge slack", simArgs("--slack", "1e308"), "--slack: must be in [0, 1e+06] percent", true},
		{"huge cluster", simArgs("--workload", "mustang", "--nodes", "1000000000"), "--nodes: must be ≤ 134217728 (16777216 per rack × 8 racks), got 1000000000", true},
		{"zero interval", simArgs("--interval", "0s"), "--interval", true},
		{"sub-second interval", simArgs("--interval", "1ns"), "--interval: must be ≥ 1s, got 1ns", true},
		{"too many jobs to generate", simArgs("--hours", "1e5"), "more than 2000000", true},
		{"window too long to generate", simArgs("--hours", "1e9"), "--hours: must be ≤ 277777.8 (a window of at most 1e+09 s), got 1e+09", true},
		{"bad duration", simArgs("--interval", "soon"), "interval", true},
		{"unknown solver", simArgs("--solver", "magic"), "--solver", true},
		{"zero parallel", simArgs("--parallel", "0"), "--parallel", true},
		{"extra argument", simArgs("now"), "unexpected argument", true},
		{"missing file", simArgs("--workload", filepath.Join(dir, "nope.jsonl")), "--workload", true},
		{"malformed file", simArgs("--workload", bad), "--workload " + bad, false},
		{"unknown config key", simArgs("--config", badCfg), `unknown setting "nodez"`, true},
		{"missing config", simArgs("--config", filepath.Join(dir, "none.json")), "--config", true},
		{"out is a file", simArgs("--out", bad), "--out: mkdir " + bad, false},
		{"huge solver timeout", simArgs("--solver-timeout", "1000h"), "--solver-timeout: must be in [0, 1h0m0s]", true},
		{"unknown fallback", simArgs("--schedulers", "3sigma", "--fallback", "lifo"), `--fallback: want one of gs, slearn, prio, got "lifo"`, true},
		{"fail rate above 1", simArgs("--schedulers", "3sigma", "--solver-fail-rate", "1.5"), "--solver-fail-rate: must be in [0, 1], got 1.5", true},
		{"unknown decision timing", simArgs("--decisions", "often"), `--decisions: want policy, cycle or events, got "often"`, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := runCLI(t, tc.args...)
			if err == nil {
				t.Fatal("accepted")
			}
			if msg := err.Error(); !strings.Contains(msg, tc.want) || strings.Contains(msg, "\n") {
				t.Errorf("error %q, want one line containing %q", msg, tc.want)
			}
			if code := exitCode(err); (code == 2) != tc.usage || code == 0 {
				t.Errorf("exit code %d (usage error: %v)", code, tc.usage)
			}
		})
	}
}

// TestSimulateEnvironments runs the HedgeFund- and Mustang-like generators
// through simulate: the run names the workload, and the generator's
// parameters (hours, load, slack) are the flags'.
func TestSimulateEnvironments(t *testing.T) {
	for _, gen := range []string{"hedgefund", "mustang"} {
		out, _, err := runCLI(t, simArgs("--workload", gen, "--schedulers", "prio", "--hours", "0.5", "--slack", "50", "--format", "json")...)
		if err != nil {
			t.Fatalf("%s: %v", gen, err)
		}
		var rep struct {
			Runs []struct {
				Workload string
				Params   map[string]any
			}
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Runs) != 1 {
			t.Fatalf("%s: %v in\n%s", gen, err, out)
		}
		r := rep.Runs[0]
		if r.Workload != gen || r.Params["hours"] != 0.5 || r.Params["load"] != 1.2 || fmt.Sprint(r.Params["slack"]) != "[50]" {
			t.Errorf("%s: run %+v", gen, r)
		}
	}
}

// TestSimulateOutCheckedFirst: a --out that cannot be a directory fails
// before the simulation runs (no progress on stderr).
func TestSimulateOutCheckedFirst(t *testing.T) {
	file := filepath.Join(t.TempDir(), "afile")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	args := append(simArgs("--out", file), "--quiet=false")
	_, stderr, err := runCLI(t, args...)
	if err == nil || !strings.Contains(err.Error(), "--out") {
		t.Fatalf("error %v, want one naming --out", err)
	}
	if strings.Contains(stderr, "simulate:") {
		t.Errorf("the simulation ran before --out was checked:\n%s", stderr)
	}
}

// TestIntervalWithinWindow: an --interval longer than the workload's
// window (no cycle while jobs arrive: every SLO "missed") is a usage error
// naming --interval, for a generator's --hours and for a file's window
// (naming --hours instead when --interval was not given); one as long as
// the window is accepted. A sweep checks every point before
// it runs any.
func TestIntervalWithinWindow(t *testing.T) {
	file := tinyWorkloadFile(t) // a 30-minute window
	tests := []struct {
		name string
		args []string
		want string // "" means accepted
	}{
		{"generator", []string{"simulate", "--nodes", "16", "--hours", "0.5", "--interval", "6h"}, "--interval: 6h0m0s is longer than the simulated window (--hours 0.5: 30m0s)"},
		{"generator, interval one second over", []string{"simulate", "--nodes", "16", "--hours", "0.5", "--interval", "1801s"}, "--interval: 30m1s is longer than the simulated window (--hours 0.5: 30m0s)"},
		{"generator, interval not given", []string{"simulate", "--nodes", "16", "--hours", "0.01"}, "--hours: 0.01 (36s) is shorter than the scheduling interval (--interval, default 1m0s)"},
		{"generator, default interval given", []string{"simulate", "--nodes", "16", "--hours", "0.01", "--interval", "1m"}, "--interval: 1m0s is longer than the simulated window (--hours 0.01: 36s)"},
		{"generator, interval as long as the window", []string{"simulate", "--nodes", "16", "--hours", "0.5", "--interval", "30m"}, ""},
		{"file", []string{"simulate", "--workload", file, "--interval", "6h"}, "--interval: 6h0m0s is longer than the window of the workload file w.jsonl (30m0s)"},
		{"file, interval as long as the window", []string{"simulate", "--workload", file, "--interval", "30m"}, ""},
		{"sweep of the interval", []string{"sweep", "--nodes", "16", "--hours", "0.5", "--vary", "interval=1m,6h"}, "--vary interval=6h: --interval: 6h0m0s is longer than the simulated window (--hours 0.5: 30m0s)"},
		{"sweep of the hours", []string{"sweep", "--nodes", "16", "--interval", "10m", "--vary", "hours=0.1,1"}, "--vary hours=0.1: --interval: 10m0s is longer than the simulated window (--hours 0.1: 6m0s)"},
		{"sweep, interval not given", []string{"sweep", "--nodes", "16", "--hours", "0.01", "--vary", "load=1,2"}, "--hours: 0.01 (36s) is shorter than the scheduling interval (--interval, default 1m0s)"},
		{"sweep of the hours, interval not given", []string{"sweep", "--nodes", "16", "--vary", "hours=1,0.01"}, "--vary hours=0.01: --hours: 0.01 (36s) is shorter than the scheduling interval (--interval, default 1m0s)"},
		{"sweep of intervals within a short window", []string{"sweep", "--nodes", "16", "--hours", "0.01", "--vary", "interval=10s,20s"}, ""},
		{"sweep of intervals, one past a short window", []string{"sweep", "--nodes", "16", "--hours", "0.01", "--vary", "interval=10s,2m"}, "--vary interval=2m: --interval: 2m0s is longer than the simulated window (--hours 0.01: 36s)"},
		{"sweep of the interval on a file", []string{"sweep", "--workload", file, "--vary", "interval=1m,45m"}, "--interval: 45m0s is longer than the window of the workload file w.jsonl (30m0s)"},
		{"sweep of a generator and a file", []string{"sweep", "--nodes", "16", "--hours", "1", "--interval", "45m", "--vary", "workload=google," + file}, "--interval: 45m0s is longer than the window of the workload file w.jsonl (30m0s)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var built atomic.Int64
			_, err := runCounting(t, &built, append(tc.args, "--schedulers", "prio", "--quiet")...)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			checkUsageError(t, err, tc.want)
			if built.Load() != 0 {
				t.Errorf("%d runs built before the error", built.Load())
			}
		})
	}
}

// TestConfigErrorsNameTheFile: a value a --config file set and a check
// refuses is told under the file and its key, in simulate and sweep, with
// the exit status of the check; a value given on the command line (which
// wins over the file) is told under its flag.
func TestConfigErrorsNameTheFile(t *testing.T) {
	dir := t.TempDir()
	config := func(name, body string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	zeroHours := config("zero-hours.json", `{"hours": 0}`)
	longInterval := config("long-interval.json", `{"interval": "2h", "hours": 1}`)
	oneHour := config("one-hour.json", `{"hours": 1}`)
	aFile := config("a-file", "")
	outIsFile := config("out.json", `{"out": "`+aFile+`"}`)
	dirWorkload := config("dir-workload.json", `{"workload": "`+dir+`"}`)
	oneLoad := config("one-load.json", `{"load": 1.2}`)
	tests := []struct {
		name  string
		args  []string
		want  string
		usage bool
	}{
		{"simulate, range", []string{"simulate", "--quiet", "--config", zeroHours}, "--config " + zeroHours + ": hours: must be > 0, got 0", true},
		{"simulate, the command line wins", []string{"simulate", "--quiet", "--config", zeroHours, "--hours", "-1"}, "--hours: must be > 0, got -1", true},
		{"simulate, interval", []string{"simulate", "--quiet", "--nodes", "16", "--config", longInterval}, "--config " + longInterval + ": interval: 2h0m0s is longer than the simulated window (--hours 1: 1h0m0s)", true},
		{"simulate, out", []string{"simulate", "--quiet", "--nodes", "16", "--hours", "0.1", "--schedulers", "prio", "--config", outIsFile}, "--config " + outIsFile + ": out: mkdir " + aFile + ": not a directory", false},
		{"sweep, range", []string{"sweep", "--quiet", "--config", zeroHours, "--vary", "load=1,2"}, "--config " + zeroHours + ": hours: must be > 0, got 0", true},
		{"sweep, interval", []string{"sweep", "--quiet", "--nodes", "16", "--config", longInterval, "--vary", "load=1,2"}, "--config " + longInterval + ": interval: 2h0m0s is longer than the simulated window (--hours 1: 1h0m0s)", true},
		{"simulate, a path", []string{"simulate", "--quiet", "--config", dirWorkload}, "--config " + dirWorkload + ": workload " + dir + ": is a directory, want a workload file or a generator (google, hedgefund, mustang, 2sigma, google2011-tasks, google2019-tasks, drift, 2sigma-dag, scalability-N)", false},
		{"sweep, a study's flag set", []string{"sweep", "--quiet", "--config", oneLoad, "--study", "load"}, "--study load varies --load, which is also set by --config " + oneLoad, true},
		{"sweep, varied and set", []string{"sweep", "--quiet", "--config", oneHour, "--vary", "hours=0.5,1"}, "--vary: --hours is both varied and set by --config " + oneHour, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := runCLI(t, tc.args...)
			if tc.usage {
				checkUsageError(t, err, tc.want)
				return
			}
			if err == nil || err.Error() != tc.want || exitCode(err) != 1 {
				t.Fatalf("error %v (exit %d), want %q, exit 1", err, exitCode(err), tc.want)
			}
		})
	}
}

// TestSimulateHorizonResolved: without --horizon the planners' horizon is
// derived from the workload's history (threesigma.HorizonFor), and every
// run reports the horizon resolved in params.horizon_s.
func TestSimulateHorizonResolved(t *testing.T) {
	// Half the history's work lies in a job of 5 h: the horizon is 5 h.
	file := filepath.Join(t.TempDir(), "long.jsonl")
	text := `{"version":1,"generator":"hand","seed":0,"cluster":{"partition_nodes":[4],"slowdown":1.5},"window_s":3600,"jobs":1,"history_jobs":2}
{"id":0,"submit_s":-40000,"class":"be","nodes":4,"runtime_s":18000,"value":1,"features":{"name":"sim"},"history":true}
{"id":1,"submit_s":-20000,"class":"be","nodes":1,"runtime_s":600,"value":1,"features":{"name":"etl"},"history":true}
{"id":2,"submit_s":60,"class":"be","nodes":2,"runtime_s":300,"value":1,"features":{"name":"etl"}}
`
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want float64
	}{
		{"from the history", []string{"simulate", "--quiet", "--workload", file, "--schedulers", "prio"}, 18000},
		{"given", []string{"simulate", "--quiet", "--workload", file, "--schedulers", "3sigma", "--horizon", "90m"}, 5400},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, _, err := runCLI(t, append(tc.args, "--format", "json")...)
			if err != nil {
				t.Fatal(err)
			}
			var rep struct {
				Runs []struct{ Params map[string]any }
			}
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatalf("%v in\n%s", err, out)
			}
			for _, r := range rep.Runs {
				if r.Params["horizon_s"] != tc.want {
					t.Errorf("horizon_s %v, want %v", r.Params["horizon_s"], tc.want)
				}
			}
		})
	}
}

// TestSimulateTasks: a task-level generator runs on the GS family, every
// second unless --interval is given, and the JSON has the task metrics and
// the speedups of slearn.
func TestSimulateTasks(t *testing.T) {
	out, _, err := runCLI(t, "simulate", "--workload", "google2011-tasks", "--hours", "1", "--schedulers", "slearn,fifo",
		"--parallel", "1", "-q", "--format", "json")
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Config struct {
			Nodes    int    `json:"nodes"`
			Interval string `json:"interval"`
		} `json:"config"`
		Runs []struct {
			Metrics map[string]*float64 `json:"metrics"`
		} `json:"runs"`
		Speedups []struct {
			Baseline string  `json:"baseline"`
			Mean     float64 `json:"jct_mean_speedup"`
		} `json:"speedups"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Config.Nodes != 150 || rep.Config.Interval != "1s" || len(rep.Runs) != 2 || rep.Runs[0].Metrics["nwt_mean"] == nil ||
		len(rep.Speedups) != 1 || rep.Speedups[0].Baseline != "fifo" || !(rep.Speedups[0].Mean > 0) {
		t.Errorf("report %+v", rep)
	}
}
