package service

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"fmt"
	"log"
	"mime"
	"net"
	"net/http"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/rs/zerolog"
)

// Handler is the service's HTTP API: every route behind the token check
// (when the service has a token), each measured by route and status.
func (s *Service) Handler() http.Handler {
	mux := http.NewServeMux()
	api := func(pattern string, h apiHandler) { mux.Handle(pattern, s.instrument(pattern, s.serveAPI(h))) }
	api("POST /v1/jobs", s.handleSubmit)
	api("GET /v1/jobs", s.handleJobs)
	api("GET /v1/jobs/{id}", s.handleJob)
	api("POST /v1/jobs/{id}/events", s.handleEvent)
	api("GET /v1/decisions", s.handleDecisions)
	api("GET /v1/plan", s.handlePlan)
	api("GET /v1/cluster", s.handleCluster)
	api("PUT /v1/cluster", s.handlePutCluster)
	api("POST /v1/history", s.handleHistory)
	api("POST /v1/clock", s.handleClock)
	api("GET /v1/info", s.handleInfo)
	api("GET /healthz", s.handleHealth)
	api("GET /readyz", s.handleReady)
	api("/v1/", func(r *http.Request, _ http.ResponseWriter) (int, any, *apiError) {
		return 0, nil, notFound("no route %s %s", r.Method, clip(r.URL.Path))
	})
	mux.Handle("GET /metrics", s.instrument("GET /metrics", promhttp.HandlerFor(s.metrics.reg, promhttp.HandlerOpts{})))
	mux.Handle("GET /{$}", s.instrument("GET /", http.HandlerFunc(s.handlePage)))
	return s.guard(mux)
}

// apiHandler answers one API request: a status and a body to write as
// JSON, or an error.
type apiHandler func(r *http.Request, w http.ResponseWriter) (int, any, *apiError)

func (s *Service) serveAPI(h apiHandler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		code, body, aerr := h(r, w)
		if aerr != nil {
			writeJSON(w, aerr.status, ErrorView{Error: aerr.Error(), Field: aerr.field})
			return
		}
		writeJSON(w, code, body)
	})
}

func writeJSON(w http.ResponseWriter, code int, body any) {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(code)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(body) // a client that went away is not an error of the service
}

// guard checks the token of every request and turns a panic in a handler
// into a 500 and a log line (nothing a client sends can stop the process).
func (s *Service) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.log.Error().Str("panic", fmt.Sprint(v)).Str("method", r.Method).Str("path", r.URL.Path).
					Bytes("stack", debug.Stack()).Msg("a handler panicked")
				writeJSON(w, http.StatusInternalServerError, ErrorView{Error: "internal error (logged)"})
			}
		}()
		if aerr := s.sameSite(r); aerr != nil {
			writeJSON(w, aerr.status, ErrorView{Error: aerr.Error()})
			return
		}
		if !s.authorized(r) {
			if r.URL.Path == "/" {
				// A browser asks for the token as the password of Basic
				// authentication (any user name).
				w.Header().Set("WWW-Authenticate", `Basic realm="planner", charset="UTF-8"`)
			} else {
				w.Header().Set("WWW-Authenticate", `Bearer realm="planner"`)
			}
			writeJSON(w, http.StatusUnauthorized, ErrorView{Error: "unauthorized: send Authorization: Bearer <token>"})
			return
		}
		if aerr := jsonWrite(r); aerr != nil {
			writeJSON(w, aerr.status, ErrorView{Error: aerr.Error()})
			return
		}
		next.ServeHTTP(w, r)
	})
}

// sameSite refuses what a web page of another site can make a browser
// send: a Host that is neither an IP address, localhost nor a name of
// Config.Hosts (a DNS name rebound to this address), and a cross-site
// Origin (a page posting a form or a fetch; "null" for a file:// page).
func (s *Service) sameSite(r *http.Request) *apiError {
	host := r.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	ok := strings.EqualFold(host, "localhost") || net.ParseIP(host) != nil
	for _, h := range s.cfg.Hosts {
		ok = ok || strings.EqualFold(host, h)
	}
	if !ok {
		return &apiError{status: http.StatusMisdirectedRequest,
			msg: fmt.Sprintf("host %q: not an address of this service; use its IP address, localhost, or a name given to serve --allow-host", clip(r.Host))}
	}
	if o := r.Header.Get("Origin"); o != "" && o != "http://"+r.Host && o != "https://"+r.Host {
		return &apiError{status: http.StatusForbidden, msg: fmt.Sprintf("origin %q: requests from another site are refused", clip(o))}
	}
	return nil
}

// jsonWrite refuses a write whose body is not declared JSON: a browser
// sends a form or text/plain across sites without asking, never JSON.
func jsonWrite(r *http.Request) *apiError {
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return nil
	}
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "application/json" {
		return &apiError{status: http.StatusUnsupportedMediaType,
			msg: fmt.Sprintf("Content-Type %q: a write needs Content-Type: application/json", clip(r.Header.Get("Content-Type")))}
	}
	return nil
}

// authorized checks the request's token, "Authorization: Bearer T" or
// Basic authentication with T as the password. The SHA-256 digests of the
// two are compared in constant time, so that neither the token's bytes
// nor its length show in the time of an answer.
func (s *Service) authorized(r *http.Request) bool {
	if s.cfg.Token == nil {
		return true
	}
	var given string
	if h := r.Header.Get("Authorization"); len(h) > 7 && strings.EqualFold(h[:7], "Bearer ") {
		given = h[7:]
	} else if _, pass, ok := r.BasicAuth(); ok {
		given = pass
	} else {
		return false
	}
	a, b := sha256.Sum256([]byte(given)), sha256.Sum256(s.cfg.Token)
	return subtle.ConstantTimeCompare(a[:], b[:]) == 1
}

// statusWriter remembers the status code written.
type statusWriter struct {
	http.ResponseWriter
	code int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.code == 0 {
		w.code = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// instrument measures a route's latency by status code.
func (s *Service) instrument(route string, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t0 := time.Now()
		sw := &statusWriter{ResponseWriter: w}
		h.ServeHTTP(sw, r)
		if sw.code == 0 {
			sw.code = http.StatusOK
		}
		s.metrics.api.WithLabelValues(route, strconv.Itoa(sw.code)).Observe(time.Since(t0).Seconds())
	})
}

// httpErrorLog sends the HTTP server's own messages (bad TLS handshakes,
// broken connections) to the service's log at debug.
func httpErrorLog(l zerolog.Logger) *log.Logger {
	return log.New(writerFunc(func(p []byte) (int, error) {
		l.Debug().Str("from", "http").Msg(strings.TrimSpace(string(p)))
		return len(p), nil
	}), "", 0)
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
