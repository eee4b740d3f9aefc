package service

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"
)

// crash stops a service as a killed process would: no snapshot, no
// flush beyond what the journal committed.
func (ts *testService) crash() {
	ts.srv.Close()
	s := ts.s
	s.closeOnce.Do(func() {
		close(s.stopJournal)
		<-s.journalDone
		s.store.close()
	})
}

// TestRestartSamePredictions: a service restarted on its --data has the
// same jobs with the same predictions, and its predictor predicts as
// before: from its snapshot, from the log alone after a crash, and from
// a snapshot followed by log records.
func TestRestartSamePredictions(t *testing.T) {
	for _, tc := range []struct {
		name     string
		snapshot time.Duration
		crash    bool
	}{
		{"snapshot at close", time.Hour, false},
		{"log alone after a crash", time.Hour, true},
		{"snapshot then log after a crash", -1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			cfg := virtualCfg()
			cfg.Scheduler = "prio"
			cfg.SnapshotEvery = tc.snapshot
			ts := startService(t, "", cfg)
			c := ts.c
			hist := HistorySpec{}
			for i := range 20 {
				hist.Jobs = append(hist.Jobs, HistoryJob{User: fmt.Sprint("u", i%3), Name: "sim", RuntimeS: ptr(float64(100 + 37*i))})
			}
			if err := c.History(ctx, hist); err != nil {
				t.Fatal(err)
			}
			for i := range 6 {
				id := fmt.Sprint("j", i)
				if _, _, err := c.Submit(ctx, JobSpec{ID: id, User: fmt.Sprint("u", i%3), Name: "sim", Nodes: ptr(2), Class: "be"}); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := c.Clock(ctx, VirtualEpoch); err != nil {
				t.Fatal(err)
			}
			for i := range 3 { // three completions after the cycle's snapshot point
				id := fmt.Sprint("j", i)
				c.Event(ctx, id, EventSpec{Type: "started"})
				if _, err := c.Event(ctx, id, EventSpec{Type: "completed", RuntimeS: ptr(float64(500 + i))}); err != nil {
					t.Fatal(err)
				}
			}
			if tc.snapshot < 0 { // a cycle writes a snapshot; one more completion after it
				c.Clock(ctx, VirtualEpoch.Add(time.Minute))
				c.Event(ctx, "j3", EventSpec{Type: "started"})
				c.Event(ctx, "j3", EventSpec{Type: "completed", RuntimeS: ptr(77.0)})
			}
			probe, _, err := c.Submit(ctx, JobSpec{ID: "probe", User: "u1", Name: "sim", Nodes: ptr(2), Class: "be"})
			if err != nil {
				t.Fatal(err)
			}
			before := jobsOf(t, c)
			ts.s.mu.RLock()
			enc, _ := ts.s.st.pred.P.MarshalBinary()
			ts.s.mu.RUnlock()
			if tc.crash {
				ts.crash()
			} else {
				ts.stop()
			}

			ts2 := startService(t, ts.dir, cfg)
			if after := jobsOf(t, ts2.c); after != before {
				t.Errorf("jobs before the restart:\n%s\nafter:\n%s", before, after)
			}
			enc2, _ := ts2.s.st.pred.P.MarshalBinary()
			if !bytes.Equal(enc, enc2) {
				t.Error("the restored predictor differs from the one before the restart")
			}
			// A retry of a submission made before the restart is idempotent.
			if _, created, err := ts2.c.Submit(ctx, JobSpec{ID: "j4", User: "u1", Name: "sim", Nodes: ptr(2), Class: "be"}); err != nil || created {
				t.Errorf("re-submitting j4 after the restart: created %v, %v", created, err)
			}
			again, _, err := ts2.c.Submit(ctx, JobSpec{ID: "probe2", User: "u1", Name: "sim", Nodes: ptr(2), Class: "be"})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(again.Prediction, probe.Prediction) {
				t.Errorf("prediction before the restart %+v, after %+v", probe.Prediction, again.Prediction)
			}
		})
	}
}

// jobsOf is every job of the service as JSON.
func jobsOf(t *testing.T, c *Client) string {
	t.Helper()
	var v JobsView
	if _, err := c.Do(context.Background(), http.MethodGet, "/v1/jobs", nil, &v); err != nil {
		t.Fatal(err)
	}
	b, _ := json.MarshalIndent(v, "", " ")
	return string(b)
}

// routes are every route of the API, with a valid request each.
var routes = []struct {
	method, path, body string
}{
	{"POST", "/v1/jobs", `{"id":"r1","nodes":2,"class":"be"}`},
	{"GET", "/v1/jobs", ""},
	{"GET", "/v1/jobs/r1", ""},
	{"POST", "/v1/jobs/r1/events", `{"type":"cancelled"}`},
	{"GET", "/v1/decisions?after=0", ""},
	{"GET", "/v1/plan", ""},
	{"GET", "/v1/cluster", ""},
	{"PUT", "/v1/cluster", `{"partitions":[{"name":"r0","drained":1}]}`},
	{"POST", "/v1/history", `{"jobs":[{"user":"a","runtime_s":5}]}`},
	{"POST", "/v1/clock", `{"now":"1970-01-04T00:00:00Z"}`},
	{"GET", "/v1/info", ""},
	{"GET", "/metrics", ""},
	{"GET", "/healthz", ""},
	{"GET", "/readyz", ""},
	{"GET", "/", ""},
}

func send(t testing.TB, base, method, path, body string, header map[string]string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, base+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if method != http.MethodGet {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, b
}

// TestToken: with a token, every route answers 401 without it or with
// another one, and works with it (Bearer, or Basic with the token as the
// password).
func TestToken(t *testing.T) {
	cfg := virtualCfg()
	cfg.Token = []byte("s3cret-token-0123456789")
	ts := startService(t, "", cfg)
	base := ts.srv.URL
	for _, r := range routes {
		for _, h := range []map[string]string{nil, {"Authorization": "Bearer wrong-token-0123456789"},
			{"Authorization": "Bearer "}, {"Authorization": "s3cret-token-0123456789"}} {
			resp, body := send(t, base, r.method, r.path, r.body, h)
			if resp.StatusCode != http.StatusUnauthorized || resp.Header.Get("WWW-Authenticate") == "" {
				t.Errorf("%s %s with %v: %d %s, want 401 with WWW-Authenticate", r.method, r.path, h, resp.StatusCode, body)
			}
		}
	}
	for _, r := range routes {
		resp, body := send(t, base, r.method, r.path, r.body, map[string]string{"Authorization": "Bearer s3cret-token-0123456789"})
		if resp.StatusCode/100 != 2 {
			t.Errorf("%s %s with the token: %d %s", r.method, r.path, resp.StatusCode, body)
		}
	}
	req, _ := http.NewRequest("GET", base+"/", nil)
	req.SetBasicAuth("operator", "s3cret-token-0123456789")
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != 200 {
		t.Errorf("the page with Basic authentication: %v %v", resp.StatusCode, err)
	}
	resp.Body.Close()
}

// TestBrowserRefused: what a web page of another site can make a
// browser send is refused before it reaches a handler: a write that is
// not declared JSON (a form, text/plain), a cross-site or file:// Origin,
// and a Host that is a name other than localhost (DNS rebinding); the
// same request from a client (JSON, no Origin, an address) succeeds.
func TestBrowserRefused(t *testing.T) {
	ts := startService(t, "", virtualCfg())
	base := ts.srv.URL
	host := strings.TrimPrefix(base, "http://")
	_, port, _ := strings.Cut(host, ":")
	job := `{"id":"b1","nodes":4,"class":"be"}`
	for _, tc := range []struct {
		name   string
		header map[string]string
		code   int
	}{
		{"a form", map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, http.StatusUnsupportedMediaType},
		{"text/plain", map[string]string{"Content-Type": "text/plain"}, http.StatusUnsupportedMediaType},
		{"no Content-Type", map[string]string{"Content-Type": ""}, http.StatusUnsupportedMediaType},
		{"a file:// page", map[string]string{"Origin": "null"}, http.StatusForbidden},
		{"another site", map[string]string{"Origin": "http://evil.example"}, http.StatusForbidden},
		{"another port", map[string]string{"Origin": "http://127.0.0.1:1"}, http.StatusForbidden},
		{"a rebound name", map[string]string{"Host": "evil.example:" + port}, http.StatusMisdirectedRequest},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest("POST", base+"/v1/jobs", strings.NewReader(job))
			req.Header.Set("Content-Type", "application/json")
			for k, v := range tc.header {
				if k == "Host" {
					req.Host = v
				} else {
					req.Header.Set(k, v)
				}
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tc.code {
				t.Errorf("%d %s, want %d", resp.StatusCode, b, tc.code)
			}
		})
	}
	if len(ts.s.st.order) != 0 {
		t.Fatalf("a refused request made %d jobs", len(ts.s.st.order))
	}
	for _, h := range []map[string]string{nil, {"Origin": base, "Content-Type": "application/json; charset=utf-8"}} {
		if resp, b := send(t, base, "POST", "/v1/jobs", job, h); resp.StatusCode/100 != 2 {
			t.Errorf("a client's submission with %v: %d %s", h, resp.StatusCode, b)
		}
	}
	req, _ := http.NewRequest("GET", base+"/v1/info", nil)
	req.Host = "localhost:" + port
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 200 {
		t.Errorf("Host localhost: %v, %v", resp.Status, err)
	} else {
		resp.Body.Close()
	}
}

// TestOverLimitRefusedUnread: a body whose Content-Length is over the
// limit is refused before it is read: a client that asks Expect:
// 100-continue gets the 413 without sending it, and a negative zero in
// an exponent or a string is no negative zero.
func TestOverLimitRefusedUnread(t *testing.T) {
	ts := startService(t, "", virtualCfg())
	body := &countingReader{n: maxHistoryBody + 1}
	req, _ := http.NewRequest("POST", ts.srv.URL+"/v1/history", body)
	req.ContentLength = body.n
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Expect", "100-continue")
	tr := &http.Transport{ExpectContinueTimeout: time.Minute}
	defer tr.CloseIdleConnections()
	resp, err := (&http.Client{Transport: tr}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge || body.read != 0 {
		t.Errorf("%d after %d bytes sent, want 413 after none", resp.StatusCode, body.read)
	}
	for _, ok := range []string{`{"v":1e-0}`, `{"v":"-0"}`, `{"v":-0.5}`, `{"v":-10}`, `{"v":"\\"}`} {
		if at := negativeZero([]byte(ok)); at >= 0 {
			t.Errorf("%s: a negative zero at %d", ok, at)
		}
	}
}

// countingReader is a body of n bytes of 'x' that counts what was read.
type countingReader struct{ n, read int64 }

func (r *countingReader) Read(p []byte) (int, error) {
	if r.read >= r.n {
		return 0, io.EOF
	}
	k := min(int64(len(p)), r.n-r.read)
	for i := range k {
		p[i] = 'x'
	}
	r.read += k
	return int(k), nil
}

// TestMalformedBodies: a body that is not what the API takes gets a 400
// whose JSON error names the field.
func TestMalformedBodies(t *testing.T) {
	ts := startService(t, "", virtualCfg())
	base := ts.srv.URL
	send(t, base, "POST", "/v1/jobs", `{"id":"ok","nodes":2,"class":"be"}`, nil)
	for _, tc := range []struct {
		name, method, path, body string
		status                   int
		field                    string
	}{
		{"empty body", "POST", "/v1/jobs", ``, 400, ""},
		{"not JSON", "POST", "/v1/jobs", `{"id":`, 400, ""},
		{"an array", "POST", "/v1/jobs", `[1]`, 400, ""},
		{"two values", "POST", "/v1/jobs", `{"id":"a","nodes":1,"class":"be"} {}`, 400, ""},
		{"unknown field", "POST", "/v1/jobs", `{"id":"a","nodes":1,"class":"be","gpus":4}`, 400, "gpus"},
		{"nodes a string", "POST", "/v1/jobs", `{"id":"a","nodes":"4","class":"be"}`, 400, "nodes"},
		{"nodes a fraction", "POST", "/v1/jobs", `{"id":"a","nodes":1.5,"class":"be"}`, 400, "nodes"},
		{"negative nodes", "POST", "/v1/jobs", `{"id":"a","nodes":-3,"class":"be"}`, 400, "nodes"},
		{"no nodes", "POST", "/v1/jobs", `{"id":"a","class":"be"}`, 400, "nodes"},
		{"too many nodes", "POST", "/v1/jobs", `{"id":"a","nodes":17,"class":"be"}`, 400, "nodes"},
		{"no id", "POST", "/v1/jobs", `{"nodes":1,"class":"be"}`, 400, "id"},
		{"id with a slash", "POST", "/v1/jobs", `{"id":"a/b","nodes":1,"class":"be"}`, 400, "id"},
		{"bad class", "POST", "/v1/jobs", `{"id":"a","nodes":1,"class":"gold"}`, 400, "class"},
		{"SLO without deadline", "POST", "/v1/jobs", `{"id":"a","nodes":1,"class":"slo"}`, 400, "deadline"},
		{"deadline not a time", "POST", "/v1/jobs", `{"id":"a","nodes":1,"class":"slo","deadline":"tomorrow"}`, 400, "deadline"},
		{"past deadline", "POST", "/v1/jobs", `{"id":"a","nodes":1,"class":"slo","submitted":"1970-01-04T01:00:00Z","deadline":"1970-01-04T00:30:00Z"}`, 400, "deadline"},
		{"BE with deadline", "POST", "/v1/jobs", `{"id":"a","nodes":1,"class":"be","deadline":"1970-01-05T00:00:00Z"}`, 400, "deadline"},
		{"negative value", "POST", "/v1/jobs", `{"id":"a","nodes":1,"class":"be","value":-1}`, 400, "value"},
		{"unknown partition", "POST", "/v1/jobs", `{"id":"a","nodes":1,"class":"be","preferred":["r9"]}`, 400, "preferred[0]"},
		{"partition twice", "POST", "/v1/jobs", `{"id":"a","nodes":1,"class":"be","preferred":["r0","r0"]}`, 400, "preferred[1]"},
		{"invalid UTF-8", "POST", "/v1/jobs", "{\"id\":\"a\",\"nodes\":1,\"class\":\"be\",\"user\":\"an\xe1\"}", 400, ""},
		{"negative zero", "POST", "/v1/jobs", `{"id":"a","nodes":-0,"class":"be"}`, 400, ""},
		{"negative zero fraction", "POST", "/v1/jobs", `{"id":"a","nodes":1,"class":"be","value":-0.0e3}`, 400, ""},
		{"over the limit", "POST", "/v1/jobs", `{"id":"a","nodes":1,"class":"be","name":"` + strings.Repeat("x", maxBody) + `"}`, 413, ""},
		{"control character", "POST", "/v1/jobs", `{"id":"a","nodes":1,"class":"be","user":"a\u0007"}`, 400, "user"},
		{"zero time limit", "POST", "/v1/jobs", `{"id":"a","nodes":1,"class":"be","time_limit_s":0}`, 400, "time_limit_s"},
		{"huge body", "POST", "/v1/jobs", `{"id":"a","user":"` + strings.Repeat("x", maxBody) + `"}`, 413, ""},
		{"event type", "POST", "/v1/jobs/ok/events", `{"type":"exploded"}`, 400, "type"},
		{"event time", "POST", "/v1/jobs/ok/events", `{"type":"cancelled","time":"noon"}`, 400, "time"},
		{"runtime of a start", "POST", "/v1/jobs/ok/events", `{"type":"started","runtime_s":3}`, 400, "runtime_s"},
		{"negative runtime", "POST", "/v1/jobs/ok/events", `{"type":"completed","runtime_s":-3}`, 400, "runtime_s"},
		{"runtime a string", "POST", "/v1/jobs/ok/events", `{"type":"completed","runtime_s":"3"}`, 400, "runtime_s"},
		{"no partitions", "PUT", "/v1/cluster", `{}`, 400, "partitions"},
		{"unknown partition name", "PUT", "/v1/cluster", `{"partitions":[{"name":"x"}]}`, 400, "partitions[0].name"},
		{"negative drained", "PUT", "/v1/cluster", `{"partitions":[{"name":"r1","drained":-2}]}`, 400, "partitions[0].drained"},
		{"more lost than nodes", "PUT", "/v1/cluster", `{"partitions":[{"name":"r0"},{"name":"r1","lost":9}]}`, 400, "partitions[1].lost"},
		{"nodes a string", "PUT", "/v1/cluster", `{"partitions":[{"name":"r1","nodes":"8"}]}`, 400, "partitions.nodes"},
		{"history without runtime", "POST", "/v1/history", `{"jobs":[{"user":"a"}]}`, 400, "jobs[0].runtime_s"},
		{"history negative nodes", "POST", "/v1/history", `{"jobs":[{"runtime_s":1,"nodes":-1}]}`, 400, "jobs[0].nodes"},
		{"clock without now", "POST", "/v1/clock", `{}`, 400, "now"},
		{"clock backwards", "POST", "/v1/clock", `{"now":"1960-01-01T00:00:00Z"}`, 400, "now"},
		{"after not a number", "GET", "/v1/decisions?after=-1", ``, 400, "after"},
		{"wait too long", "GET", "/v1/decisions?wait=1h", ``, 400, "wait"},
		{"unknown state", "GET", "/v1/jobs?state=sleeping", ``, 400, "state"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := send(t, base, tc.method, tc.path, tc.body, nil)
			var e ErrorView
			if err := json.Unmarshal(body, &e); err != nil || resp.StatusCode != tc.status || e.Field != tc.field || e.Error == "" {
				t.Fatalf("%d %s, want %d naming field %q", resp.StatusCode, body, tc.status, tc.field)
			}
			if tc.field != "" && !strings.HasPrefix(e.Error, tc.field+": ") {
				t.Errorf("error %q does not start with the field", e.Error)
			}
		})
	}
}
