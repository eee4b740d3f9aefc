package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/plannerhq/planner/service"
	"github.com/plannerhq/planner/service/slurm/slurmtest"
)

func TestSlurmBridgeFlagErrors(t *testing.T) {
	short := filepath.Join(t.TempDir(), "short")
	os.WriteFile(short, []byte("abc\n"), 0o600)
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"not a URL", []string{"--planner", "127.0.0.1:7070"}, `--planner: want the service's URL, e.g. http://127.0.0.1:7070, got "127.0.0.1:7070"`},
		{"poll too short", []string{"--poll", "1ms"}, "--poll: must be ≥ 100ms, got 1ms"},
		{"empty prefix", []string{"--id-prefix", ""}, "--id-prefix: must not be empty"},
		{"empty partition", []string{"--partitions", "debug,"}, "--partitions: empty partition name"},
		{"short token", []string{"--token-file", short}, "the token has 3 characters"},
		{"argument", []string{"now"}, `slurm-bridge: unexpected argument "now"`},
		{"bad level", []string{"--log-level", "loud"}, "--log-level"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := runCLI(t, append([]string{"slurm-bridge"}, tc.args...)...)
			if err == nil || !strings.Contains(err.Error(), tc.want) || exitCode(err) != 2 {
				t.Fatalf("error %v (exit %d), want a usage error saying %q", err, exitCode(err), tc.want)
			}
		})
	}
	_, _, err := runCLI(t, "slurm-bridge", "--planner", "http://127.0.0.1:1")
	if err == nil || !strings.HasPrefix(err.Error(), "slurm-bridge: the planner: ") {
		t.Errorf("no planner: %v", err)
	}
}

// TestSlurmBridgeCommand: the commands of README "Run it in front of
// Slurm" on a real Slurm on loopback (four nodes in slurm.conf's order,
// the planner's two partitions of two): planner serve, planner
// slurm-bridge, a held SLO job that runs on the planner's decision and
// whose completion the planner learns; SIGTERM's context ends the bridge
// with no error.
func TestSlurmBridgeCommand(t *testing.T) {
	cl := slurmtest.Start(t, slurmtest.Options{Nodes: 4})
	cluster := filepath.Join(t.TempDir(), "cluster.yaml")
	if err := os.WriteFile(cluster, []byte("name: loopback\npartitions:\n  - {name: r0, nodes: 2}\n  - {name: r1, nodes: 2}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	svc := startServe(t, "--data", filepath.Join(t.TempDir(), "data"), "--cluster", cluster, "--interval", "1s", "--log-level", "warn")
	ctx, cancel := context.WithCancel(context.Background())
	var out, errb bytes.Buffer
	done := make(chan error, 1)
	go func() {
		done <- runContext(ctx, []string{"slurm-bridge", "--planner", svc.url, "--token-file", svc.tokenFile, "--slurm-conf", cl.Conf, "--poll", "250ms", "--log-level", "warn"}, &out, &errb)
	}()
	stopped := false
	stop := func() error {
		if stopped {
			return nil
		}
		stopped = true
		cancel()
		return <-done
	}
	t.Cleanup(func() { stop() })

	id := cl.Submit(t, "--hold", "--nodes", "2", "--time", "1", "--job-name", "hello", "--comment", "deadline=+2m value=5", "--wrap", "sleep 1")
	client := service.NewClient(svc.url, svc.token)
	key := "slurm-" + strconv.FormatInt(id, 10)
	deadline := time.Now().Add(90 * time.Second)
	var v *service.JobView
	for {
		var err error
		v, err = client.Job(context.Background(), key)
		if err == nil && v.State == "completed" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("job %s is not completed in the planner after 90 s: %+v, %v; the bridge said:\n%s%s", key, v, err, out.String(), errb.String())
		}
		time.Sleep(250 * time.Millisecond)
	}
	if v.Class != "slo" || v.RuntimeS == nil || *v.RuntimeS < 1 {
		t.Errorf("the planner has %+v; want an SLO job with its measured runtime", v)
	}
	if err := stop(); err != nil {
		t.Errorf("the bridge stopped with %v", err)
	}
	if want := "planner slurm-bridge: " + svc.url + " in front of Slurm (r0=n1,n2 r1=n3,n4 (by order))\n"; out.String() != want {
		t.Errorf("the bridge printed %q, want %q", out.String(), want)
	}
}
