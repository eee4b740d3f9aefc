package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/plannerhq/planner/service"
)

// The test binary is the planner binary too: with PLANNER_TEST_MAIN=1 it
// runs main with its arguments (the service tests start `planner serve`
// as a child process, to kill it).
func init() {
	if os.Getenv("PLANNER_TEST_MAIN") == "1" {
		main()
		os.Exit(0)
	}
}

// child is a `planner serve` process.
type child struct {
	cmd *exec.Cmd
	url string
	// token and tokenFile: the token the service generated in --data.
	token, tokenFile string
	done             chan error
	errb             *strings.Builder
}

// startServe starts `planner serve --listen 127.0.0.1:0 ARGS` and waits
// for it to listen.
func startServe(t *testing.T, args ...string) *child {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"serve", "--listen", "127.0.0.1:0"}, args...)...)
	cmd.Env = append(os.Environ(), "PLANNER_TEST_MAIN=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	errb := &strings.Builder{}
	cmd.Stderr = &lockedWriter{w: errb}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &child{cmd: cmd, done: make(chan error, 1), errb: errb}
	line := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		if sc.Scan() {
			line <- sc.Text()
		}
		close(line)
		for sc.Scan() {
		}
		c.done <- cmd.Wait()
	}()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			<-c.done
		}
	})
	select {
	case l, ok := <-line:
		_, rest, found := strings.Cut(l, "listening on ")
		if !ok || !found {
			t.Fatalf("planner serve did not start: %q\n%s", l, errb)
		}
		c.url, _, _ = strings.Cut(rest, " ")
		for i, a := range args {
			if a == "--data" && i+1 < len(args) && !slices.Contains(args, "--no-auth") && !slices.Contains(args, "--token-file") {
				c.tokenFile = filepath.Join(args[i+1], "token")
				b, err := os.ReadFile(c.tokenFile)
				if err != nil {
					t.Fatalf("planner serve wrote no token: %v", err)
				}
				c.token = strings.TrimSpace(string(b))
			}
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("planner serve did not listen within 30 s\n%s", errb)
	}
	return c
}

type lockedWriter struct {
	mu sync.Mutex
	w  *strings.Builder
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// wait waits for the child to exit and returns its exit code.
func (c *child) wait(t *testing.T) int {
	t.Helper()
	select {
	case err := <-c.done:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0
	case <-time.After(60 * time.Second):
		t.Fatal("planner serve did not exit within 60 s")
	}
	return -1
}

// TestServeCrashSafety: jobs and events pour in while cycles run; the
// service is killed with SIGKILL in the middle; restarted on the same
// --data, it holds every job whose submission got a 2xx, with every event
// that got one.
func TestServeCrashSafety(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	args := []string{"--data", dir, "--interval", "1s", "--scheduler", "prio", "--log-level", "warn"}
	c := startServe(t, args...)
	client := service.NewClient(c.url, c.token)
	ctx, cancel := context.WithCancel(context.Background())
	var (
		mu     sync.Mutex
		acked  = map[string][]string{} // job → event types acknowledged with a 2xx, in order
		wg     sync.WaitGroup
		failed int
	)
	record := func(id, ev string) {
		mu.Lock()
		acked[id] = append(acked[id], ev)
		mu.Unlock()
	}
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ctx.Err() == nil; i++ {
				id := fmt.Sprintf("g%d-%d", g, i)
				spec := service.JobSpec{ID: id, User: fmt.Sprint("u", i%5), Nodes: ptrTo(1 + i%8), Class: "be"}
				if _, _, err := client.Submit(ctx, spec); err != nil {
					mu.Lock()
					failed++
					mu.Unlock()
					return // the service is gone
				}
				record(id, "submitted")
				if i%3 == 0 {
					if _, err := client.Event(ctx, id, service.EventSpec{Type: "cancelled"}); err == nil {
						record(id, "cancelled")
					}
				}
			}
		}()
	}
	// The cluster side: acknowledge every start, complete every other.
	wg.Add(1)
	go func() {
		defer wg.Done()
		var after uint64
		for ctx.Err() == nil {
			feed, err := client.Decisions(ctx, after, time.Second)
			if err != nil {
				return
			}
			for _, d := range feed.Decisions {
				after = d.Seq
				if d.Action != "start" {
					continue
				}
				if _, err := client.Event(ctx, d.Job, service.EventSpec{Type: "started"}); err != nil {
					continue
				}
				record(d.Job, "started")
				if d.Seq%2 == 0 {
					if _, err := client.Event(ctx, d.Job, service.EventSpec{Type: "completed", RuntimeS: ptrTo(float64(d.Seq % 50))}); err == nil {
						record(d.Job, "completed")
					}
				}
			}
		}
	}()
	// Kill once enough has been acknowledged (at least 2.5 s of traffic and
	// 50 jobs, one of them started), whatever the machine's load: at most
	// 60 s.
	begin := time.Now()
	for time.Since(begin) < 60*time.Second {
		mu.Lock()
		enough := len(acked) >= 50 && slices.ContainsFunc(slices.Collect(maps.Values(acked)), func(evs []string) bool { return slices.Contains(evs, "started") })
		mu.Unlock()
		if enough && time.Since(begin) >= 2500*time.Millisecond {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := c.cmd.Process.Kill(); err != nil { // SIGKILL, requests in flight
		t.Fatal(err)
	}
	c.wait(t)
	cancel()
	wg.Wait()
	if len(acked) < 50 {
		t.Fatalf("only %d jobs acknowledged before the kill", len(acked))
	}

	c2 := startServe(t, args...)
	client2 := service.NewClient(c2.url, c2.token)
	lost := 0
	for id, evs := range acked {
		job, err := client2.Job(context.Background(), id)
		if err != nil {
			t.Errorf("job %s got a 2xx and is lost: %v", id, err)
			lost++
			continue
		}
		var have []string
		for _, e := range job.Events {
			have = append(have, e.Type)
		}
		for _, ev := range evs {
			if !slices.Contains(have, ev) {
				t.Errorf("job %s: event %s got a 2xx and is lost (has %v)", id, ev, have)
				lost++
			}
		}
		if lost > 10 {
			t.Fatal("too many lost")
		}
	}
	t.Logf("%d jobs acknowledged before SIGKILL, all there after the restart", len(acked))
	c2.cmd.Process.Signal(syscall.SIGTERM)
	if code := c2.wait(t); code != 0 {
		t.Errorf("exit status %d after SIGTERM, want 0\n%s", code, c2.errb)
	}
}

func ptrTo[T any](v T) *T { return &v }

// TestServeSIGTERM: SIGTERM ends the service with status 0 after writing
// its state; a restart has the job and its prediction.
func TestServeSIGTERM(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	args := []string{"--data", dir, "--interval", "1s", "--log-level", "warn"}
	c := startServe(t, args...)
	client := service.NewClient(c.url, c.token)
	job, _, err := client.Submit(context.Background(), service.JobSpec{ID: "x", Nodes: ptrTo(2), Class: "be"})
	if err != nil {
		t.Fatal(err)
	}
	c.cmd.Process.Signal(syscall.SIGTERM)
	if code := c.wait(t); code != 0 {
		t.Fatalf("exit status %d, want 0\n%s", code, c.errb)
	}
	c2 := startServe(t, args...)
	again, err := service.NewClient(c2.url, c2.token).Job(context.Background(), "x")
	if err != nil || again.Submitted != job.Submitted || !reflect.DeepEqual(again.Prediction, job.Prediction) {
		t.Errorf("after the restart: %+v, %v; before %+v", again, err, job)
	}
}

func TestServeFlagErrors(t *testing.T) {
	dir := t.TempDir()
	short := filepath.Join(dir, "short")
	os.WriteFile(short, []byte("abc\n"), 0o600)
	token := func(name, content string, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
		os.Chmod(p, mode)
		return p
	}
	empty := token("empty", " \n", 0o600)
	control := token("control", "abcdefgh\x01ijklmnopq\n", 0o600)
	huge := token("huge", strings.Repeat("a", 5000), 0o600)
	open := token("open", "abcdefghijklmnopq\n", 0o644)
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no data", []string{}, "--data: required"},
		{"short token", []string{"--data", dir, "--token-file", short}, "the token has 3 characters"},
		{"empty token", []string{"--data", dir, "--token-file", empty}, "is empty"},
		{"token with a control character", []string{"--data", dir, "--token-file", control}, "control or non-ASCII character"},
		{"token over 4 KiB", []string{"--data", dir, "--token-file", huge}, "longer than 4096 bytes"},
		{"token readable by others", []string{"--data", dir, "--token-file", open}, "is readable by others (mode 0644)"},
		{"interval 0", []string{"--data", dir, "--interval", "0s"}, "--interval: must be > 0, got 0s"},
		{"no auth on an open address", []string{"--data", dir, "--no-auth", "--listen", "0.0.0.0:7070"}, "--listen: 0.0.0.0:7070 is not a loopback address"},
		{"no auth with a token", []string{"--data", dir, "--no-auth", "--token-file", open}, "--no-auth: a service with --token-file has a token"},
		{"bad clock", []string{"--data", dir, "--clock", "lunar"}, `--clock: unknown clock "lunar"`},
		{"timeout above interval", []string{"--data", dir, "--interval", "2s", "--solver-timeout", "3s"}, "--solver-timeout: 3s is not shorter than --interval 2s"},
		{"true runtimes", []string{"--data", dir, "--scheduler", "pointperfest"}, "plans with the true runtimes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := runCLI(t, append([]string{"serve"}, tc.args...)...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one saying %q", err, tc.want)
			}
		})
	}
}

// TestServeCheck: --check passes a sound database and refuses a damaged
// one with a line naming the file and the record; --recover-to copies
// the records before the damage into a directory that then serves.
func TestServeCheck(t *testing.T) {
	dir := t.TempDir()
	c := startServe(t, "--data", dir, "--interval", "1s", "--clock", "virtual", "--log-level", "warn")
	client := service.NewClient(c.url, c.token)
	ctx := context.Background()
	for i := range 50 {
		if _, _, err := client.Submit(ctx, service.JobSpec{ID: fmt.Sprintf("j%d", i), User: "u", Nodes: ptrTo(1), Class: "be"}); err != nil {
			t.Fatal(err)
		}
	}
	c.cmd.Process.Signal(syscall.SIGTERM)
	if code := c.wait(t); code != 0 {
		t.Fatalf("serve exited %d: %s", code, c.errb)
	}
	out, _, err := runCLI(t, "serve", "--check", "--data", dir)
	if err != nil || !strings.Contains(out, "is sound") || !strings.Contains(out, "50 records, 50 jobs") {
		t.Fatalf("--check of a sound database: %q, %v", out, err)
	}
	path := filepath.Join(dir, "planner.db")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	i := strings.LastIndex(string(b), `"id":"j30"`)
	if i < 0 {
		t.Fatal("job j30 not in the database")
	}
	b[i+7] ^= 1
	os.WriteFile(path, b, 0o600)
	_, _, err = runCLI(t, "serve", "--check", "--data", dir)
	if err == nil || !strings.Contains(err.Error(), path+": log record 31: the database is damaged") || exitCode(err) != 1 {
		t.Fatalf("--check of a damaged database: %v (exit %d)", err, exitCode(err))
	}
	to := filepath.Join(t.TempDir(), "recovered")
	out, _, err = runCLI(t, "serve", "--data", dir, "--recover-to", to)
	if err != nil || !strings.Contains(out, "copied 30 records") || !strings.Contains(out, "records 31 to 50 are lost") {
		t.Fatalf("--recover-to: %q, %v", out, err)
	}
	out, _, err = runCLI(t, "serve", "--check", "--data", to)
	if err != nil || !strings.Contains(out, "30 records, 30 jobs") {
		t.Fatalf("--check of the recovered database: %q, %v", out, err)
	}
}

// TestLogFileMode: --log-file is created readable by its owner only.
func TestLogFileMode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "planner.log")
	l := logFlags{level: "info", file: path}
	_, closeLog, err := l.open(os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	closeLog()
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("--log-file: %v, %v; want mode 0600", fi.Mode(), err)
	}
}

// TestServeDefaultToken: without --token-file the first start generates
// a token into --data (0600) and prints it; a request without it gets
// 401; the next start uses the same token and does not print it; with
// --no-auth the API is open.
func TestServeDefaultToken(t *testing.T) {
	dir := t.TempDir()
	c := startServe(t, "--data", dir, "--interval", "1s", "--clock", "virtual", "--log-level", "warn")
	fi, err := os.Stat(c.tokenFile)
	if err != nil || fi.Mode().Perm() != 0o600 || len(c.token) != 64 {
		t.Fatalf("token file %v, %v, token %q: want 0600 and 64 hex digits", fi.Mode(), err, c.token)
	}
	ctx := context.Background()
	if _, err := service.NewClient(c.url, "").Info(ctx); err == nil || !strings.Contains(err.Error(), "401") {
		t.Errorf("a request without the token: %v, want 401", err)
	}
	if _, err := service.NewClient(c.url, c.token).Info(ctx); err != nil {
		t.Errorf("a request with the token: %v", err)
	}
	c.cmd.Process.Signal(syscall.SIGTERM)
	c.wait(t)
	c2 := startServe(t, "--data", dir, "--interval", "1s", "--clock", "virtual", "--log-level", "warn")
	if c2.token != c.token {
		t.Errorf("the second start changed the token")
	}
	c2.cmd.Process.Signal(syscall.SIGTERM)
	c2.wait(t)
	c3 := startServe(t, "--data", t.TempDir(), "--no-auth", "--interval", "1s", "--clock", "virtual", "--log-level", "warn")
	if _, err := service.NewClient(c3.url, "").Info(ctx); err != nil {
		t.Errorf("--no-auth: %v", err)
	}
}
