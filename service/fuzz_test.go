package service

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// FuzzHandlers sends every route of the API any body, job id and query:
// whatever a client sends, the answer is never a 5xx and the process does
// not crash. route picks the route (of routes), id replaces the job id of
// its path, query is appended to it. The corpus is in testdata/fuzz.
func FuzzHandlers(f *testing.F) {
	for i, r := range routes {
		f.Add(uint8(i), "r1", "", []byte(r.body))
	}
	f.Add(uint8(0), "", "", []byte(`{"id":"x","nodes":1e400,"class":"be"}`))
	f.Add(uint8(0), "", "", []byte(`{"id":"x","nodes":2,"class":"slo","deadline":"9999-12-31T23:59:59Z","submitted":"0001-01-01T00:00:00Z"}`))
	f.Add(uint8(3), "r1", "", []byte(`{"type":"completed","time":"1970-01-03T00:00:00Z"}`))
	f.Add(uint8(4), "", "after=18446744073709551615&wait=50ms&limit=0", []byte(nil))
	f.Add(uint8(7), "", "", []byte(`{"partitions":[{"name":"r0","nodes":0,"drained":0,"lost":0}]}`))
	f.Add(uint8(9), "", "", []byte(`{"now":"2500-01-01T00:00:00Z"}`))
	f.Add(uint8(1), "", "state=pending&limit=99999999999999999999", []byte(nil))

	cfg := virtualCfg()
	cfg.Scheduler = "prio"
	cfg.Interval = time.Hour
	cfg.Hosts = []string{"planner"}
	ts := startService(f, "", cfg)
	h := ts.s.Handler()
	f.Fuzz(func(t *testing.T, route uint8, id, query string, body []byte) {
		r := routes[int(route)%len(routes)]
		path := r.path
		if strings.Contains(path, "/r1") {
			path = strings.Replace(path, "r1", id, 1)
		}
		if query != "" {
			sep := "?"
			if strings.Contains(path, "?") {
				sep = "&"
			}
			path += sep + query
		}
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		req, err := http.NewRequestWithContext(ctx, r.method, "http://planner"+path, bytes.NewReader(body))
		if err != nil {
			t.Skip("not a request a client can send")
		}
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code >= 500 {
			t.Fatalf("%s %s %q: %d %s", r.method, path, body, w.Code, w.Body)
		}
	})
}
