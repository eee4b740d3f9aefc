package datalake

import (
	"fmt"
	"math"
	"strconv"

	"github.com/plannerhq/planner/workloads"
)

// QueueMode is how the cluster is divided among organisations (§6,
// §7.3).
type QueueMode int

const (
	// Hierarchical queues: each organisation has its own, of its nominal
	// share of the cluster, and its jobs run only there.
	Hierarchical QueueMode = iota
	// Global: one cluster-wide queue for every job.
	Global
)

func (m QueueMode) String() string {
	switch m {
	case Hierarchical:
		return "hierarchical"
	case Global:
		return "global"
	}
	return "QueueMode(" + strconv.Itoa(int(m)) + ")"
}

// ParseQueueMode is the inverse of QueueMode.String.
func ParseQueueMode(s string) (QueueMode, error) {
	switch s {
	case "hierarchical":
		return Hierarchical, nil
	case "global":
		return Global, nil
	}
	return 0, fmt.Errorf("unknown queue mode %q (want hierarchical or global)", s)
}

// MarshalText writes the mode's name.
func (m QueueMode) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// Bounds of Layout's capacity, in percent of nominal.
const (
	MinCapacity = 1
	MaxCapacity = 100
)

// Layout is the cluster a driver runs the window on: its queues, each
// with the organisations it serves and its tokens.
type Layout struct {
	Mode QueueMode `json:"mode"`
	// Capacity is the cluster's size in percent of nominal.
	Capacity float64 `json:"capacity_pct"`
	Queues   []Queue `json:"queues"`
}

// Queue is one queue of a Layout.
type Queue struct {
	Name string   `json:"name"`
	Orgs []string `json:"orgs"`
	// Tokens is the queue's capacity; Share its share of the cluster.
	Tokens int     `json:"tokens"`
	Share  float64 `json:"share"`
}

// Layout is the lake's cluster at capacity percent of nominal (--capacity
// P) with queues mode (--queues): hierarchical, each organisation's
// nominal queue (Lake.Queues) × P/100, rounded, at least one token; or
// global, one queue of the nominal total × P/100. Every job fits its
// queue at 20 % and above (the nominal queues hold five of their widest
// gangs); below, a job wider than its queue is an error naming it.
func (l *Lake) Layout(mode QueueMode, capacity float64) (Layout, error) {
	if math.IsNaN(capacity) || capacity < MinCapacity || capacity > MaxCapacity {
		return Layout{}, fmt.Errorf("datalake: capacity must be in [%d, %d] %% of nominal, got %v", MinCapacity, MaxCapacity, capacity)
	}
	lay := Layout{Mode: mode, Capacity: capacity}
	scaled := func(n int) int { return max(1, int(math.Round(float64(n)*capacity/100))) }
	total := 0
	switch mode {
	case Hierarchical:
		for o, q := range l.Queues {
			lay.Queues = append(lay.Queues, Queue{Name: l.Orgs[o].Name, Orgs: []string{l.Orgs[o].Name}, Tokens: scaled(q)})
		}
	case Global:
		nominal := 0
		q := Queue{Name: "global"}
		for o, n := range l.Queues {
			nominal += n
			q.Orgs = append(q.Orgs, l.Orgs[o].Name)
		}
		q.Tokens = scaled(nominal)
		lay.Queues = []Queue{q}
	default:
		return Layout{}, fmt.Errorf("datalake: unknown queue mode %d", int(mode))
	}
	for _, q := range lay.Queues {
		total += q.Tokens
	}
	for i := range lay.Queues {
		lay.Queues[i].Share = float64(lay.Queues[i].Tokens) / float64(total)
	}
	for i := range l.Jobs {
		j := &l.Jobs[i]
		if j.Submit < 0 {
			continue
		}
		if q := lay.Queues[lay.QueueOf(l.Orgs[l.Templates[j.Template].Org].Name)]; j.Width > q.Tokens {
			return Layout{}, fmt.Errorf("datalake: at %v %% capacity job %d needs %d tokens, queue %s has %d", capacity, j.ID, j.Width, q.Name, q.Tokens)
		}
	}
	return lay, nil
}

// QueueOf is the index of the queue serving organisation org (0 for an
// unknown one in a global layout, −1 in a hierarchical one).
func (l Layout) QueueOf(org string) int {
	if l.Mode == Global {
		return 0
	}
	for i, q := range l.Queues {
		if q.Orgs[0] == org {
			return i
		}
	}
	return -1
}

// Tokens is the cluster's total capacity.
func (l Layout) Tokens() int {
	n := 0
	for _, q := range l.Queues {
		n += q.Tokens
	}
	return n
}

// Cluster is the layout's cluster as a workloads.Cluster: one partition
// of all its tokens, no slowdown (the queues are the layout's, not the
// cluster's).
func (l Layout) Cluster() workloads.Cluster {
	return workloads.Cluster{PartitionNodes: []int{l.Tokens()}, Slowdown: 1}
}
