package service

import (
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/plannerhq/planner/workloads"
)

// ClockMode is where the service's time comes from.
type ClockMode int

const (
	// ClockWall: the wall clock; a cycle runs at every interval boundary.
	ClockWall ClockMode = iota
	// ClockVirtual: a test clock that moves only when a client says so
	// (POST /v1/clock), running the cycles it passes. planner replay plays
	// a workload against it.
	ClockVirtual
)

var clockModeNames = [...]string{"wall", "virtual"}

// String returns "wall" or "virtual".
func (m ClockMode) String() string {
	if m < 0 || int(m) >= len(clockModeNames) {
		return fmt.Sprintf("ClockMode(%d)", int(m))
	}
	return clockModeNames[m]
}

// ParseClockMode is the inverse of String.
func ParseClockMode(s string) (ClockMode, error) {
	for i, n := range clockModeNames {
		if n == s {
			return ClockMode(i), nil
		}
	}
	return 0, fmt.Errorf("unknown clock %q (want wall or virtual)", s)
}

// VirtualEpoch is time 0 of the virtual clock: a Sunday midnight UTC, so
// that the submit hour and weekday of VirtualEpoch + s seconds are
// workloads.SubmitHourDay(s), those of a workload file's time axis.
var VirtualEpoch = time.Date(1970, 1, 4, 0, 0, 0, 0, time.UTC)

// timeline maps instants to the seconds since an epoch that the planner
// contract counts in (planner.State.Now), and back.
type timeline struct {
	epoch time.Time
	mode  ClockMode
	loc   *time.Location // of the submit hour and weekday on the wall clock
}

// seconds is t in seconds since the epoch: nanoseconds / 10⁹, one
// correctly rounded division, so that an instant written from a time of
// whole milliseconds reads back as the same float64.
func (tl timeline) seconds(t time.Time) float64 {
	return float64(t.Sub(tl.epoch).Nanoseconds()) / 1e9
}

// instant is the time s seconds after the epoch, to the nanosecond.
func (tl timeline) instant(s float64) time.Time {
	return tl.epoch.Add(time.Duration(math.Round(s * 1e9)))
}

// format writes s seconds after the epoch as RFC 3339 with nanoseconds.
func (tl timeline) format(s float64) string {
	return tl.instant(s).Format(time.RFC3339Nano)
}

// hourDay is the submit hour (0–23) and weekday (0 = Sunday) of a job
// submitted at s: on the virtual clock those of the workload time axis
// (workloads.SubmitHourDay), on the wall clock those of the local time.
func (tl timeline) hourDay(s float64) (hour, day int) {
	if tl.mode == ClockVirtual {
		return workloads.SubmitHourDay(s)
	}
	t := tl.instant(s).In(tl.loc)
	return t.Hour(), int(t.Weekday())
}

// clock is the service's time in seconds since the epoch.
type clock interface {
	now() float64
}

// wallClock reads the wall clock.
type wallClock struct {
	tl   timeline
	wall func() time.Time
}

func (c wallClock) now() float64 { return c.tl.seconds(c.wall()) }

// virtualClock is moved by set only.
type virtualClock struct {
	mu sync.Mutex
	t  float64
}

func (c *virtualClock) now() float64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *virtualClock) set(t float64) {
	c.mu.Lock()
	c.t = t
	c.mu.Unlock()
}
