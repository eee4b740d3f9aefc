package workloads

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// ClassRules are the generators' rules for a job's service class and terms
// (3Sigma §5): which jobs are SLO jobs, their deadlines, preferred racks and
// values. Trace importers apply them to real jobs so that imported and
// generated workloads are comparable.
type ClassRules struct {
	// SLOShare is the part of the offered node-seconds that SLO jobs carry.
	SLOShare float64 `json:"slo_share"`
	// SlackPct is the set deadline slacks are drawn from, uniformly, in
	// percent: deadline = submit + runtime · (1 + slack/100).
	SlackPct []float64 `json:"slack_pct"`
	// PreferredFraction of the racks (rounded to whole racks, at least one)
	// is the random preferred set of each SLO job; BE jobs prefer all.
	PreferredFraction float64 `json:"preferred_fraction"`
	// SLOValue and BEValue are the constant values of SLO and BE jobs.
	SLOValue float64 `json:"slo_value"`
	BEValue  float64 `json:"be_value"`
	Seed     uint64  `json:"seed"`
}

// DefaultClassRules are the rules of DefaultGoogleParams: an even SLO/BE
// mix, slack {20,40,60,80}%, 6 of 8 racks preferred, values 1000 and 100.
func DefaultClassRules() ClassRules {
	p := DefaultGoogleParams()
	return p.ClassRules()
}

// ClassRules are the class and terms rules of a generator's parameters.
func (p *Params) ClassRules() ClassRules {
	return ClassRules{
		SLOShare:          p.SLOShare,
		SlackPct:          slices.Clone(p.SlackPct),
		PreferredFraction: p.PreferredFraction,
		SLOValue:          p.SLOValue,
		BEValue:           p.BEValue,
		Seed:              p.Seed,
	}
}

// MaxSlackPct bounds deadline slacks (percent): a deadline at most 10⁴
// runtimes after submit, so deadlines stay finite.
const MaxSlackPct = 1e6

// Validate reports the first bad rule; the error wraps a *FieldError
// naming the ClassRules field, and ErrInvalid.
func (r *ClassRules) Validate() error { return r.validate("class rules") }

// validate is Validate with the errors prefixed by what.
func (r *ClassRules) validate(what string) error {
	bad := func(field, name, format string, args ...any) error {
		return fmt.Errorf("%s: %w: %w", what, BadField(field, name, format, args...), ErrInvalid)
	}
	switch {
	case !(r.SLOShare >= 0 && r.SLOShare <= 1):
		return bad("SLOShare", "slo share", "must be in [0, 1], got %v", r.SLOShare)
	case len(r.SlackPct) == 0:
		return bad("SlackPct", "slack set", "is empty")
	case !(r.PreferredFraction > 0 && r.PreferredFraction <= 1):
		return bad("PreferredFraction", "preferred fraction", "must be in (0, 1], got %v", r.PreferredFraction)
	case !(r.SLOValue >= 0 && r.SLOValue <= MaxValue):
		return bad("SLOValue", "slo value", "must be in [0, %g], got %v", float64(MaxValue), r.SLOValue)
	case !(r.BEValue >= 0 && r.BEValue <= MaxValue):
		return bad("BEValue", "be value", "must be in [0, %g], got %v", float64(MaxValue), r.BEValue)
	}
	for _, s := range r.SlackPct {
		if !(s >= 0 && s <= MaxSlackPct) {
			return bad("SlackPct", "slack", "must be in [0, %g] percent, got %v", float64(MaxSlackPct), s)
		}
	}
	return nil
}

// AssignClasses sets the class of each job, in order, so that SLO jobs carry
// SLOShare of the offered work w = nodes · runtime (node-seconds): each job
// goes to the class further below its target relative to the target,
// SLO on ties — the rule Generate's window applies as it draws jobs
// (without its redraws, since real jobs cannot be redrawn). No randomness.
func (r *ClassRules) AssignClasses(jobs []Job) {
	target := [2]float64{SLO: r.SLOShare, BestEffort: 1 - r.SLOShare}
	var work [2]float64
	for i := range jobs {
		c := SLO
		switch {
		case target[SLO] <= 0:
			c = BestEffort
		case target[BestEffort] <= 0:
		case work[BestEffort]/target[BestEffort] < work[SLO]/target[SLO]:
			c = BestEffort
		}
		jobs[i].Class = c
		work[c] += float64(jobs[i].Nodes) * jobs[i].Runtime
	}
}

// Terms sets j's value and, for an SLO job, its deadline and preferred
// racks among racks partitions, exactly as Generate does for a job
// of the same id, class, submit and runtime (with ValuePerNodeHour off):
// the draws come from the job's own stream PCG(Seed, 2³² | ID), slack first
// (uniform over SlackPct), then the preferred set (a random
// round(PreferredFraction · racks) ≥ 1 of the racks, ascending; none, i.e.
// all preferred, when that is every rack). deadline = submit + runtime ·
// (1 + slack/100), rounded to the millisecond and at least 1 ms after
// submit. A best-effort job gets BEValue, no deadline and no preference.
func (r *ClassRules) Terms(j *Job, racks int) {
	rng := rand.New(rand.NewPCG(r.Seed, 1<<32|uint64(j.ID)))
	j.Value, j.Deadline, j.Preferred = r.BEValue, 0, nil
	if j.Class != SLO {
		return
	}
	j.Value = r.SLOValue
	slack := r.SlackPct[rng.IntN(len(r.SlackPct))]
	j.Deadline = RoundMS(j.Submit + j.Runtime*(1+slack/100))
	if j.Deadline <= j.Submit {
		j.Deadline = j.Submit + 0.001
	}
	k := max(1, int(math.Round(r.PreferredFraction*float64(racks))))
	if k < racks {
		j.Preferred = rng.Perm(racks)[:k]
		slices.Sort(j.Preferred)
	}
}
