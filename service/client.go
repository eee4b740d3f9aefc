package service

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Client is a client of the service's API, for the programs that drive it
// (planner replay, the load benchmark, a bridge to a cluster manager).
type Client struct {
	// Base is the service's URL, e.g. http://127.0.0.1:7070.
	Base string
	// Token, when not empty, is sent as "Authorization: Bearer".
	Token string
	HTTP  *http.Client
}

// NewClient returns a client of the service at base.
func NewClient(base, token string) *Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = 256 // one service: keep a connection per concurrent request
	return &Client{Base: strings.TrimRight(base, "/"), Token: token,
		HTTP: &http.Client{Timeout: maxWait + 30*time.Second, Transport: tr}}
}

// APIError is an answer of the service other than success.
type APIError struct {
	Status int
	ErrorView
}

func (e *APIError) Error() string {
	return fmt.Sprintf("%d %s: %s", e.Status, http.StatusText(e.Status), e.ErrorView.Error)
}

// Do sends one request (body encoded as JSON when not nil) and decodes a
// successful answer into out (when not nil). It returns the status code.
func (c *Client) Do(ctx context.Context, method, path string, body, out any) (int, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return 0, err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.Base+path, rd)
	if err != nil {
		return 0, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return resp.StatusCode, fmt.Errorf("%s %s: reading the answer: %w", method, path, err)
	}
	if resp.StatusCode/100 != 2 {
		e := &APIError{Status: resp.StatusCode}
		if json.Unmarshal(data, &e.ErrorView) != nil || e.ErrorView.Error == "" {
			e.ErrorView.Error = strings.TrimSpace(string(data))
		}
		return resp.StatusCode, fmt.Errorf("%s %s: %w", method, path, e)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			return resp.StatusCode, fmt.Errorf("%s %s: decoding the answer: %w", method, path, err)
		}
	}
	return resp.StatusCode, nil
}

// Submit submits a job; created is false for an idempotent re-submit.
func (c *Client) Submit(ctx context.Context, spec JobSpec) (job *JobView, created bool, err error) {
	job = &JobView{}
	code, err := c.Do(ctx, http.MethodPost, "/v1/jobs", spec, job)
	return job, code == http.StatusCreated, err
}

// Event reports an event of job id.
func (c *Client) Event(ctx context.Context, id string, e EventSpec) (*JobView, error) {
	job := &JobView{}
	_, err := c.Do(ctx, http.MethodPost, "/v1/jobs/"+url.PathEscape(id)+"/events", e, job)
	return job, err
}

// Job returns job id.
func (c *Client) Job(ctx context.Context, id string) (*JobView, error) {
	job := &JobView{}
	_, err := c.Do(ctx, http.MethodGet, "/v1/jobs/"+url.PathEscape(id), nil, job)
	return job, err
}

// Decisions returns the decisions after sequence number after, waiting up
// to wait for one when there is none.
func (c *Client) Decisions(ctx context.Context, after uint64, wait time.Duration) (*DecisionsView, error) {
	out := &DecisionsView{}
	q := "/v1/decisions?after=" + strconv.FormatUint(after, 10)
	if wait > 0 {
		q += "&wait=" + wait.String()
	}
	_, err := c.Do(ctx, http.MethodGet, q, nil, out)
	return out, err
}

// Clock moves a virtual clock to t and returns the cycles that ran.
func (c *Client) Clock(ctx context.Context, t time.Time) (*ClockView, error) {
	out := &ClockView{}
	_, err := c.Do(ctx, http.MethodPost, "/v1/clock", ClockSpec{Now: t.Format(time.RFC3339Nano)}, out)
	return out, err
}

// History sends completed runs for the predictor.
func (c *Client) History(ctx context.Context, h HistorySpec) error {
	_, err := c.Do(ctx, http.MethodPost, "/v1/history", h, nil)
	return err
}

// Info returns how the service runs.
func (c *Client) Info(ctx context.Context) (*InfoView, error) {
	out := &InfoView{}
	_, err := c.Do(ctx, http.MethodGet, "/v1/info", nil, out)
	return out, err
}

// Plan returns the plan ahead.
func (c *Client) Plan(ctx context.Context) (*PlanView, error) {
	out := &PlanView{}
	_, err := c.Do(ctx, http.MethodGet, "/v1/plan", nil, out)
	return out, err
}

// PutCluster reports capacity changes.
func (c *Client) PutCluster(ctx context.Context, spec ClusterSpec) (*ClusterView, error) {
	out := &ClusterView{}
	_, err := c.Do(ctx, http.MethodPut, "/v1/cluster", spec, out)
	return out, err
}
