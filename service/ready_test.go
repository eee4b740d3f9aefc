package service

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

// TestReadyNeedsAWritableLog: /readyz says 503 while the file system of
// --data is full, read-only or unreadable, and 200 again once it has room.
func TestReadyNeedsAWritableLog(t *testing.T) {
	ts := startService(t, "", virtualCfg())
	var disk diskSpace
	var diskErr error
	ts.s.statDisk = func(string) (diskSpace, error) { return disk, diskErr }
	for _, tc := range []struct {
		name string
		disk diskSpace
		err  error
		code int
		want string
	}{
		{"room", diskSpace{free: 1 << 30}, nil, http.StatusOK, "ready"},
		{"full", diskSpace{free: 1 << 20}, nil, http.StatusServiceUnavailable, "1 MiB free"},
		{"read-only", diskSpace{free: 1 << 30, readOnly: true}, nil, http.StatusServiceUnavailable, "read-only file system"},
		{"unreadable", diskSpace{}, errors.New("input/output error"), http.StatusServiceUnavailable, "input/output error"},
		{"room again", diskSpace{free: 1 << 30}, nil, http.StatusOK, "ready"},
	} {
		disk, diskErr = tc.disk, tc.err
		resp, body := send(t, ts.srv.URL, "GET", "/readyz", "", nil)
		if resp.StatusCode != tc.code || !strings.Contains(string(body), tc.want) {
			t.Errorf("%s: %d %s, want %d saying %q", tc.name, resp.StatusCode, body, tc.code, tc.want)
		}
	}
}

// TestStartingAndRunningGauges: a decided start counts as starting until
// its started event, then as running.
func TestStartingAndRunningGauges(t *testing.T) {
	cfg := virtualCfg()
	cfg.Scheduler = "prio"
	ts := startService(t, "", cfg)
	ctx := context.Background()
	if _, _, err := ts.c.Submit(ctx, JobSpec{ID: "g1", User: "u", Nodes: ptr(2), Class: "be"}); err != nil {
		t.Fatal(err)
	}
	if _, err := ts.c.Clock(ctx, VirtualEpoch.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	m := ts.s.metrics
	gauges := func() [3]float64 {
		return [3]float64{testutil.ToFloat64(m.pending), testutil.ToFloat64(m.starting), testutil.ToFloat64(m.running)}
	}
	if g := gauges(); g != [3]float64{0, 1, 0} {
		t.Errorf("after the start's decision: pending, starting, running = %v, want 0 1 0", g)
	}
	if _, err := ts.c.Event(ctx, "g1", EventSpec{Type: "started"}); err != nil {
		t.Fatal(err)
	}
	if g := gauges(); g != [3]float64{0, 0, 1} {
		t.Errorf("after the started event: pending, starting, running = %v, want 0 0 1", g)
	}
}
