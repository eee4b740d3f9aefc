package main

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/plannerhq/planner/planner/threesigma"
	"github.com/plannerhq/planner/service"
	"github.com/plannerhq/planner/workloads"
)

// TestReplayMatchesSimulate: `planner replay` of a small workload against
// a service on the virtual clock prints the report `planner simulate`
// prints for the service's scheduler and seed (runs, metrics, every job's
// fate through the same decisions).
func TestReplayMatchesSimulate(t *testing.T) {
	dir := t.TempDir()
	w := filepath.Join(dir, "w.jsonl")
	if _, _, err := runCLI(t, "workload", "generate", "--workload", "google", "--nodes", "32", "--racks", "4",
		"--hours", "1", "--seed", "2", "-o", w); err != nil {
		t.Fatal(err)
	}
	file, err := os.Open(w)
	if err != nil {
		t.Fatal(err)
	}
	wl, err := workloads.Read(file)
	file.Close()
	if err != nil {
		t.Fatal(err)
	}
	cluster := wl.Header.Cluster
	svc, err := service.Open(service.Config{DataDir: filepath.Join(dir, "data"), Cluster: &cluster, Clock: service.ClockVirtual,
		Interval: time.Minute, Deterministic: true, Seed: 2, Scheduler: "3sigma",
		Horizon: threesigma.HorizonFor(wl.History, time.Minute)}) // as simulate derives it
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(svc.Handler())
	defer func() {
		srv.Close()
		svc.Close()
	}()
	replayed, stderr, err := runCLI(t, "replay", "--workload", w, "--service", srv.URL, "--seed", "2", "--format", "json", "-q")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if strings.Contains(stderr, "warning") {
		t.Errorf("replay warned: %s", stderr)
	}
	simulated, _, err := runCLI(t, "simulate", "--workload", w, "--schedulers", "3sigma", "--seed", "2",
		"--interval", "60s", "--format", "json", "-q")
	if err != nil {
		t.Fatal(err)
	}
	type run struct {
		Scheduler string          `json:"scheduler"`
		Seed      uint64          `json:"seed"`
		Metrics   json.RawMessage `json:"metrics"`
	}
	var a, b struct{ Runs []run }
	if err := json.Unmarshal([]byte(replayed), &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(simulated), &b); err != nil {
		t.Fatal(err)
	}
	if len(a.Runs) != 1 || !reflect.DeepEqual(a.Runs, b.Runs) {
		t.Fatalf("replay:\n%s\nsimulate:\n%s", replayed, simulated)
	}
	t.Logf("replay = simulate: %d metrics bytes alike", len(a.Runs[0].Metrics))
}

func TestReplayFlagErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no service", []string{}, "--service: required"},
		{"not a URL", []string{"--service", "localhost:7070"}, `--service: "localhost:7070": want an http://`},
		{"bad format", []string{"--service", "http://127.0.0.1:1", "--format", "xml"}, "--format: want table, json or csv"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := runCLI(t, append([]string{"replay"}, tc.args...)...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one saying %q", err, tc.want)
			}
		})
	}
}
