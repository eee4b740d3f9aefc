package datalake

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
)

// Lake is a generated data lake: its organisations, users, templates and
// every job of the lead-in and the three weeks with what became of it in
// the real world. The log (Log), the window's submissions (WindowJobs)
// and the simulator's truth (Truth) are views of it.
type Lake struct {
	Params    Params     `json:"params"`
	Orgs      []Org      `json:"orgs"`
	Users     []User     `json:"users"`
	Templates []Template `json:"templates"`
	// Jobs are sorted by submission; a job's ID is its index.
	Jobs []Job `json:"jobs"`
	// Uploads are the external streams' partitions, written by ingestion
	// (no job), in time order.
	Uploads []Op `json:"uploads"`
	// Queues[o] is organisation o's nominal queue in tokens.
	Queues []int `json:"queues"`
}

// Op is an operation on a file outside any job: an upload or a download.
type Op struct {
	File string  `json:"file"`
	Time float64 `json:"time_s"`
}

// Generate draws a lake: the organisations and templates (builder), the
// jobs' arrivals, a sizing run on unbounded queues whose demand sizes
// each queue (queueSizes), the real-world run on those queues, and the
// downloads (assignValue).
func Generate(p Params) (*Lake, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(p.Seed, 0xda7a1a4e))
	b := newBuilder(rng, p.Scale)
	b.build()
	first := map[int]int{}
	arr := periodicArrivals(p.Seed, b.templates, first)
	arr = append(arr, aperiodicArrivals(rng, b.templates)...)
	arr = append(arr, b.adhocArrivals()...)
	slices.SortFunc(arr, func(a, b arrival) int {
		return cmp.Or(cmp.Compare(a.submit, b.submit), cmp.Compare(a.template, b.template), cmp.Compare(a.instance, b.instance))
	})
	ts := b.templates
	// Size the queues on the demand of unbounded queues: first cap each
	// organisation's gangs so its nominal queue holds minQueueWidths of
	// them, then size the queues on the capped demand.
	p99 := demandP99(newSim(p.Seed, ts, len(b.orgs), nil).run(arr), ts, len(b.orgs))
	capWidths(ts, p99)
	p99 = demandP99(newSim(p.Seed, ts, len(b.orgs), nil).run(arr), ts, len(b.orgs))
	queues := queueSizes(p99, ts)
	jobs := newSim(p.Seed, ts, len(b.orgs), queues).run(arr)
	if len(jobs) == 0 {
		return nil, errNoJobs
	}
	l := &Lake{Params: p, Orgs: b.orgs, Users: b.users, Templates: ts, Jobs: renumber(jobs), Queues: queues}
	l.Uploads = uploads(p.Seed, b.streams)
	l.assignValue(rng)
	return l, nil
}

// renumber sorts jobs by submission (then template, then instance) and
// makes each job's ID its index, the inputs' writers following.
func renumber(jobs []Job) []Job {
	slices.SortFunc(jobs, func(a, b Job) int {
		return cmp.Or(cmp.Compare(a.Submit, b.Submit), cmp.Compare(a.Template, b.Template), cmp.Compare(a.Instance, b.Instance))
	})
	ids := make([]int, len(jobs))
	for i := range jobs {
		ids[jobs[i].ID] = i
	}
	for i := range jobs {
		jobs[i].ID = i
		for k := range jobs[i].Inputs {
			if w := jobs[i].Inputs[k].Writer; w >= 0 {
				jobs[i].Inputs[k].Writer = ids[w]
			}
		}
	}
	return jobs
}

// demandP99 is each organisation's time-weighted 99th percentile of
// demand (tokens its running jobs hold) over the lake's span in a run on
// unbounded queues, where every job starts at submission.
func demandP99(jobs []Job, ts []Template, nOrgs int) []int {
	type step struct {
		at    float64
		delta int
	}
	steps := make([][]step, nOrgs)
	for i := range jobs {
		j := &jobs[i]
		if j.Status != Completed {
			continue
		}
		o := ts[j.Template].Org
		steps[o] = append(steps[o], step{j.Start, j.Width}, step{j.End, -j.Width})
	}
	out := make([]int, nOrgs)
	for o := range steps {
		s := steps[o]
		slices.SortFunc(s, func(a, b step) int { return cmp.Or(cmp.Compare(a.at, b.at), cmp.Compare(a.delta, b.delta)) })
		at := map[int]float64{} // time spent at each demand level
		level, prev := 0, WorldStart
		for _, e := range s {
			if e.at >= WindowEnd {
				break
			}
			if e.at > prev {
				at[level] += e.at - prev
				prev = e.at
			}
			level += e.delta
		}
		at[level] += WindowEnd - prev
		levels := make([]int, 0, len(at))
		total := 0.0
		for l, d := range at {
			levels = append(levels, l)
			total += d
		}
		slices.Sort(levels)
		acc := 0.0
		for _, l := range levels {
			acc += at[l]
			out[o] = l
			if acc >= 0.99*total {
				break
			}
		}
	}
	return out
}

// capWidths caps every template's gang at its organisation's p99 demand
// / queueUtilisation / minQueueWidths (at least 1): an organisation
// whose jobs seldom overlap runs narrow jobs, and every job fits its
// queue at 1/minQueueWidths of nominal capacity.
func capWidths(ts []Template, p99 []int) {
	for i := range ts {
		c := max(1, int(float64(p99[ts[i].Org])/queueUtilisation/minQueueWidths))
		ts[i].Width = min(ts[i].Width, c)
	}
}

// queueSizes sizes each organisation's nominal queue: its p99 demand
// divided by queueUtilisation, and at least minQueueWidths of its widest
// gang (so every job fits its queue at 20 % capacity).
func queueSizes(p99 []int, ts []Template) []int {
	widest := make([]int, len(p99))
	for i := range ts {
		widest[ts[i].Org] = max(widest[ts[i].Org], ts[i].Width)
	}
	out := make([]int, len(p99))
	for o := range out {
		out[o] = max(int(math.Ceil(float64(p99[o])/queueUtilisation)), minQueueWidths*widest[o], 1)
	}
	return out
}

// uploads lists every external stream's hourly partitions over the
// lake's span, each uploaded in the first five minutes of its hour.
func uploads(seed uint64, streams int) []Op {
	var out []Op
	for k := range streams {
		for h := int(math.Ceil(WorldStart / Hour)); float64(h)*Hour < WindowEnd; h++ {
			at := float64(h)*Hour + 300*instanceRand(seed, -2-k, h).Float64()
			out = append(out, Op{File: streamFile(k, h), Time: at})
		}
	}
	slices.SortFunc(out, func(a, b Op) int { return cmp.Or(cmp.Compare(a.Time, b.Time), cmp.Compare(a.File, b.File)) })
	return out
}

// Files lists every file the lake's jobs and uploads wrote in the real
// world, by name, each with its writes in time order: partitions are
// written once, "latest" files once per run of their template.
func (l *Lake) Files() []File {
	byName := map[string][]Write{}
	for _, u := range l.Uploads {
		byName[u.File] = append(byName[u.File], Write{Job: -1, Time: u.Time})
	}
	for i := range l.Jobs {
		j := &l.Jobs[i]
		if j.Status != Completed {
			continue
		}
		for _, o := range j.Outputs {
			byName[o.File] = append(byName[o.File], Write{Job: j.ID, Time: j.End})
		}
	}
	out := make([]File, 0, len(byName))
	for n, ws := range byName {
		slices.SortStableFunc(ws, func(a, b Write) int { return cmp.Or(cmp.Compare(a.Time, b.Time), cmp.Compare(a.Job, b.Job)) })
		out = append(out, File{Name: n, Writes: ws})
	}
	slices.SortFunc(out, func(a, b File) int { return cmp.Compare(a.Name, b.Name) })
	return out
}
