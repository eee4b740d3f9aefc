package service

import (
	"context"
	"fmt"
	"image/png"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/plannerhq/planner/workloads"
)

// chromium finds Debian's headless browser (the Makefile's deps install
// it), or skips the test.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no chromium on this machine (make deps installs Debian's)")
	return ""
}

// runChromium runs headless Chromium on u with the flags it needs on a
// machine without a network (no background connections) and returns its
// standard output.
func runChromium(t *testing.T, bin, u string, extra ...string) string {
	t.Helper()
	args := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + t.TempDir(), "--virtual-time-budget=3000"}, extra...)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, append(args, u)...)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, errb.String())
	}
	return out.String()
}

// section is the part of html from the element whose opening tag starts
// with open to the first close after it.
func section(t *testing.T, html, open, close string) string {
	t.Helper()
	_, rest, ok := strings.Cut(html, open)
	if !ok {
		t.Fatalf("no %s in the page", open)
	}
	s, _, _ := strings.Cut(rest, close)
	return s
}

func attrs(re *regexp.Regexp, s string, group int) []string {
	var out []string
	for _, m := range re.FindAllStringSubmatch(s, -1) {
		out = append(out, m[group])
	}
	slices.Sort(out)
	return out
}

// TestOperatorPage loads the page in headless Chromium, with the token as
// the password, once it has rendered, and checks its DOM against the API:
// the pending jobs, the runs and planned starts of the Gantt chart, the
// decisions; and that the screenshot shows SLO and best-effort boxes.
func TestOperatorPage(t *testing.T) {
	bin := chromium(t)
	ctx := context.Background()
	cfg := virtualCfg()
	cfg.Token = []byte("page-token-0123456789")
	c4 := workloads.DefaultCluster(32, 4)
	cfg.Cluster = &c4
	ts := startService(t, "", cfg)
	c := ts.c
	// More work than nodes: some starts now, some planned, some waiting.
	for i := range 14 {
		spec := JobSpec{ID: fmt.Sprintf("job-%02d", i), User: fmt.Sprint("u", i%3), Name: "sim", Nodes: ptr(4 + 2*(i%3)), Class: "be"}
		if i%2 == 0 {
			spec.Class, spec.Deadline = "slo", at(float64(1800+600*i))
			spec.Preferred = []string{"r0", "r1"}
		}
		if _, _, err := c.Submit(ctx, spec); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.Clock(ctx, VirtualEpoch); err != nil {
		t.Fatal(err)
	}
	feed, err := c.Decisions(ctx, 0, 0)
	if err != nil || len(feed.Decisions) == 0 {
		t.Fatalf("no decision: %v", err)
	}
	c.Event(ctx, feed.Decisions[0].Job, EventSpec{Type: "started"})
	plan, err := c.Plan(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var pending JobsView
	if _, err := c.Do(ctx, "GET", "/v1/jobs?state=pending", nil, &pending); err != nil {
		t.Fatal(err)
	}

	u, _ := url.Parse(ts.srv.URL + "/")
	u.User = url.UserPassword("operator", string(cfg.Token))
	dom := runChromium(t, bin, u.String(), "--dump-dom")
	if !strings.Contains(dom, `id="gantt"`) {
		t.Fatalf("the page did not render:\n%.2000s", dom)
	}

	var wantPending []string
	for _, j := range pending.Jobs {
		wantPending = append(wantPending, j.ID)
	}
	slices.Sort(wantPending)
	rows := regexp.MustCompile(`<tr data-job="([^"]+)"`)
	if got := attrs(rows, section(t, dom, `<table id="pending"`, `</table>`), 1); !slices.Equal(got, wantPending) {
		t.Errorf("pending rows %v, the API's pending jobs %v", got, wantPending)
	}

	gantt := section(t, dom, `<svg id="gantt"`, `</svg>`)
	bars := regexp.MustCompile(`<rect class="bar (slo|be) (running|planned)" data-job="([^"]+)"`)
	var running, planned []string
	for _, m := range bars.FindAllStringSubmatch(gantt, -1) {
		if m[2] == "running" {
			running = append(running, m[3])
		} else {
			planned = append(planned, m[3])
		}
	}
	slices.Sort(running)
	slices.Sort(planned)
	running, planned = slices.Compact(running), slices.Compact(planned)
	var wantRunning, wantPlanned []string
	for _, r := range plan.Running {
		wantRunning = append(wantRunning, r.Job)
	}
	for _, r := range plan.Planned {
		wantPlanned = append(wantPlanned, r.Job)
	}
	slices.Sort(wantRunning)
	slices.Sort(wantPlanned)
	wantPlanned = slices.Compact(wantPlanned)
	if !slices.Equal(running, wantRunning) || !slices.Equal(planned, wantPlanned) {
		t.Errorf("Gantt runs %v and planned starts %v, the plan's %v and %v", running, planned, wantRunning, wantPlanned)
	}
	if len(wantRunning) == 0 {
		t.Error("nothing runs: the test checks nothing of the chart")
	}
	if got := regexp.MustCompile(`<g class="partition" data-partition="(r\d)"`).FindAllStringSubmatch(gantt, -1); len(got) != 4 {
		t.Errorf("%d partitions in the chart, want 4", len(got))
	}

	seqs := regexp.MustCompile(`<tr data-seq="(\d+)" data-job="([^"]+)" data-action="(start|preempt)"`)
	got := seqs.FindAllStringSubmatch(section(t, dom, `<table id="decisions"`, `</table>`), -1)
	if len(got) != len(feed.Decisions) {
		t.Errorf("%d decisions on the page, %d in the feed", len(got), len(feed.Decisions))
	}
	for _, m := range got {
		found := slices.ContainsFunc(feed.Decisions, func(d DecisionView) bool {
			return fmt.Sprint(d.Seq) == m[1] && d.Job == m[2] && d.Action == m[3]
		})
		if !found {
			t.Errorf("decision %v on the page is not in the feed", m[1:])
		}
	}

	// The screenshot shows the boxes: pixels of the SLO blue and the
	// best-effort orange of the running jobs.
	shot := filepath.Join(t.TempDir(), "page.png")
	runChromium(t, bin, u.String(), "--screenshot="+shot, "--window-size=1400,1400", "--hide-scrollbars")
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	near := func(r, g, b uint32, want [3]uint32) bool {
		d := func(a, b uint32) uint32 {
			if a > b {
				return a - b
			}
			return b - a
		}
		return d(r>>8, want[0]) < 12 && d(g>>8, want[1]) < 12 && d(b>>8, want[2]) < 12
	}
	var blue, orange int
	bounds := img.Bounds()
	for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
		for x := bounds.Min.X; x < bounds.Max.X; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			if near(r, g, b, [3]uint32{0x2b, 0x6c, 0xb0}) {
				blue++
			}
			if near(r, g, b, [3]uint32{0xdd, 0x8a, 0x2b}) {
				orange++
			}
		}
	}
	classes := map[string]bool{}
	for _, r := range plan.Running {
		classes[r.Class] = true
	}
	if (classes["slo"] && blue < 50) || (classes["be"] && orange < 50) {
		t.Errorf("the screenshot has %d SLO-blue and %d best-effort-orange pixels for running classes %v", blue, orange, classes)
	}
	if dir := os.Getenv("PLANNER_PAGE_SHOT"); dir != "" { // to look at it
		b, _ := os.ReadFile(shot)
		os.WriteFile(filepath.Join(dir, "page.png"), b, 0o644)
	}
}
