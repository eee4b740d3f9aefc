package datalake

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// builder draws the lake's organisations, users and recurring templates.
type builder struct {
	rng       *rand.Rand
	scale     float64
	orgs      []Org
	users     []User
	orgWeight []float64
	userW     [][]float64 // per org, weights of its users (Zipf)
	templates []Template
	// readers counts each template's reading templates (preferential
	// attachment: popular data attracts more readers).
	readers []int
	// shared marks templates of shared workflows (others may read them);
	// sharedIDs lists them in order.
	shared    []bool
	sharedIDs []int
	// scripts counts each user's templates, for their names.
	scripts []int
	streams int
	// The structural choices, drawn so their shares stay within one
	// choice of the knobs (quota).
	hourlyQ, privateQ, sourceQ, crossQ, hardCrossQ, selfQ quota
	pollingQ                                              [2]quota // hourly, daily members
	crossOrgQ, adhocCrossOrgQ                             quota
}

// quota draws yes-or-no choices whose count of yes stays within one of
// target × choices: the n-th is yes with probability
// clamp(target·n − yeses so far, 0, 1). It keeps a share of a few dozen
// choices (hourly workflows, polling members) at its knob for every
// seed, where independent draws would spread it by several points.
type quota struct {
	target float64
	n, yes int
}

func newQuota(target float64) quota { return quota{target: target} }

func (q *quota) draw(rng *rand.Rand) bool {
	q.n++
	ok := rng.Float64() < clamp(q.target*float64(q.n)-float64(q.yes), 0, 1)
	if ok {
		q.yes++
	}
	return ok
}

func newBuilder(rng *rand.Rand, scale float64) *builder {
	b := &builder{rng: rng, scale: scale}
	nOrgs := max(3, int(math.Round(orgsAtScale1*scale)))
	for o := range nOrgs {
		org := Org{Name: fmt.Sprintf("org%02d", o), Base: 3 + rng.IntN(4)}
		n := minUsersPerOrg + rng.IntN(maxUsersPerOrg-minUsersPerOrg+1)
		w := make([]float64, n)
		for k := range n {
			u := len(b.users)
			org.Users = append(org.Users, u)
			lvl := clampInt(org.Base+rng.IntN(4)-1, 1, 9)
			b.users = append(b.users, User{Name: fmt.Sprintf("u%03d", u), Org: o, Level: lvl})
			w[k] = 1 / math.Pow(float64(k+1), 0.8)
		}
		b.orgs = append(b.orgs, org)
		b.orgWeight = append(b.orgWeight, 1/math.Pow(float64(o+1), 0.5))
		b.userW = append(b.userW, w)
	}
	b.scripts = make([]int, len(b.users))
	b.hourlyQ, b.privateQ, b.sourceQ = newQuota(pHourlyWorkflow), newQuota(pPrivate), newQuota(pSourceRoot)
	b.crossQ, b.hardCrossQ, b.selfQ = newQuota(pCrossMember), newQuota(pHardCross), newQuota(pSelf)
	b.pollingQ = [2]quota{newQuota(pPolling), newQuota(pPolling)}
	b.crossOrgQ, b.adhocCrossOrgQ = newQuota(pCrossOrg), newQuota(pAdhocCrossOrg)
	return b
}

// build draws the workflows and the aperiodic templates, then the
// priorities.
func (b *builder) build() {
	nWF := max(4, int(math.Round(workflowsAtScale1*b.scale)))
	for w := range nWF {
		b.workflow(w)
	}
	nAper := max(2, int(math.Round(aperiodicAtScale1*b.scale)))
	for range nAper {
		b.aperiodic()
	}
	b.assignPriorities()
	b.calibrateInversions(pInvertible)
}

func (b *builder) pickOrg() int { return pickWeighted(b.rng, b.orgWeight) }

func (b *builder) pickUser(org int) int {
	return b.orgs[org].Users[pickWeighted(b.rng, b.userW[org])]
}

// newTemplate adds a template of kind k owned by user, with its runtime,
// width, value and download model drawn for the kind; cadence is the
// period its runtimes are drawn for (Hour, Day, or 0 for aperiodic).
func (b *builder) newTemplate(k Kind, user, workflow int, cadence float64) *Template {
	rng := b.rng
	t := Template{
		ID:       len(b.templates),
		Org:      b.users[user].Org,
		User:     user,
		Kind:     k,
		Workflow: workflow,
		Source:   -1,
	}
	b.scripts[user]++
	t.Name = fmt.Sprintf("%s/s%03d", b.users[user].Name, b.scripts[user])
	t.Sigma = 0.15 + 0.3*rng.Float64()
	var delayLo, delayHi float64
	switch {
	case k == AdHoc:
		t.Runtime = clamp(lognormal(rng, 10*60, 0.8), 60, 3*Hour)
		t.Width = clampInt(int(math.Round(lognormal(rng, 2, 0.6))), 1, 8)
		t.Popularity = rng.NormFloat64()*popSigma - adhocValueShift
		delayLo, delayHi = 0.2*Hour, 2*Hour
	case cadence == Hour:
		t.Runtime = clamp(lognormal(rng, 12*60, 0.5), 2*60, 40*60)
		delayLo, delayHi = 0.5*Hour, 3*Hour
	case cadence == Day:
		t.Runtime = clamp(lognormal(rng, 50*60, 0.7), 5*60, 6*Hour)
		delayLo, delayHi = 2*Hour, 12*Hour
	default:
		t.Runtime = clamp(lognormal(rng, 30*60, 0.6), 2*60, 4*Hour)
		delayLo, delayHi = 1*Hour, 8*Hour
	}
	if k != AdHoc {
		t.Width = clampInt(int(math.Round(lognormal(rng, 4, 0.6))), 1, 24)
		t.Popularity = rng.NormFloat64() * popSigma
		t.Snapshot = rng.Float64() < pSnapshot
	}
	t.DownloadDelay = delayLo + (delayHi-delayLo)*rng.Float64()
	b.templates = append(b.templates, t)
	b.readers = append(b.readers, 0)
	b.shared = append(b.shared, false)
	return &b.templates[len(b.templates)-1]
}

// runBound is the runtime users plan with: median × e^{zPlan·σ} plus the
// queue margin.
func runBound(t *Template) float64 {
	return t.Runtime*math.Exp(zPlan*t.Sigma) + queueMargin
}

// workflow draws workflow w: a periodic root, then members each reading
// one or two earlier members, triggered by their inputs (polling) or on
// the clock after their inputs' bound (periodic), some also reading
// other workflows' outputs; an hourly workflow ends in a daily roll-up
// of its last member, and a private daily workflow's root reads its own
// previous output.
func (b *builder) workflow(w int) {
	rng := b.rng
	org := b.pickOrg()
	owner := b.pickUser(org)
	hourly := b.hourlyQ.draw(rng)
	private := b.privateQ.draw(rng)
	kind, period := Daily, Day
	size := 2 + rng.IntN(5)
	if hourly {
		kind, period = Hourly, Hour
		size = 5 + b.hourlyQ.yes%3 // 5, 6, 7 in turn
	}
	var members []int
	root := b.newTemplate(kind, owner, w, period)
	root.Period = period
	if hourly {
		root.Offset = 60 * float64(rng.IntN(10))
	} else {
		root.Offset = 60 * float64(rng.IntN(8*60))
	}
	rootID := root.ID
	if private || hourly || b.sourceQ.draw(rng) {
		root.Source = b.streams
		b.streams++
	} else if !b.crossInput(rootID, false, period) {
		root.Source = b.streams
		b.streams++
	}
	b.fixBound(rootID)
	members = append(members, rootID)
	for i := 1; i < size; i++ {
		user := owner
		if rng.Float64() < 0.2 {
			user = b.pickUser(org)
		}
		q := &b.pollingQ[1]
		if hourly {
			q = &b.pollingQ[0]
		}
		polling := q.draw(rng)
		k := kind
		if polling {
			k = Polling
		}
		t := b.newTemplate(k, user, w, period)
		t.Period = period
		id := t.ID
		dk := Hard
		if polling {
			dk = PollingDep
		}
		ups := []int{members[len(members)-1]}
		if len(members) > 1 && rng.Float64() < pSecondIntra {
			if o := members[rng.IntN(len(members)-1)]; o != ups[0] {
				ups = append(ups, o)
			}
		}
		for _, u := range ups {
			b.addDep(id, Dep{Upstream: u, Kind: dk})
		}
		if !private && b.crossQ.draw(rng) {
			b.crossInput(id, polling, period)
		}
		if !polling && kind == Daily && b.selfQ.draw(rng) {
			b.templates[id].Deps = append(b.templates[id].Deps, Dep{Upstream: id, Kind: Hard})
		}
		if !polling {
			b.templates[id].Offset = b.periodicOffset(id, period)
		}
		b.fixBound(id)
		members = append(members, id)
	}
	if private && !hourly {
		// a private daily workflow is incremental: its root reads its own
		// previous output, which links its days into one component
		b.templates[rootID].Deps = append(b.templates[rootID].Deps, Dep{Upstream: rootID, Kind: Hard})
	}
	if hourly {
		last := members[len(members)-1]
		t := b.newTemplate(Daily, owner, w, Day)
		t.Period = Day
		t.Offset = 60 * float64(30+rng.IntN(150))
		id := t.ID
		b.addDep(id, Dep{Upstream: last, Kind: Hard})
		b.fixBound(id)
		members = append(members, id)
	}
	for _, m := range members {
		if !private {
			b.shared[m] = true
			b.sharedIDs = append(b.sharedIDs, m)
		}
	}
}

// crossInput gives template id an input from another shared workflow:
// a polling input from a template of the same period for a polling
// template; a hard or a soft input for a periodic one. It reports
// whether it found an upstream.
func (b *builder) crossInput(id int, polling bool, period float64) bool {
	rng := b.rng
	me := &b.templates[id]
	crossOrg := b.crossOrgQ.draw(rng)
	u := b.pickUpstream(me.Org, crossOrg, me.Workflow, func(t *Template) bool {
		if polling {
			return t.Period == period && t.Kind != AdHoc
		}
		return t.Period > 0
	})
	if u < 0 {
		return false
	}
	switch {
	case polling:
		b.addDep(id, Dep{Upstream: u, Kind: PollingDep})
	case b.hardCrossQ.draw(rng):
		b.addDep(id, Dep{Upstream: u, Kind: Hard})
	default:
		b.addDep(id, Dep{Upstream: u, Kind: Soft, Lookback: b.lookback(u)})
	}
	return true
}

// pickUpstream picks a template of a shared workflow other than
// workflow that ok accepts, from another organisation than org when
// crossOrg (else from org), weighted by 1 + 2·readers; it falls back to
// the other side when one side has none, and returns −1 when there is
// none at all.
func (b *builder) pickUpstream(org int, crossOrg bool, workflow int, ok func(*Template) bool) int {
	for _, side := range []bool{crossOrg, !crossOrg} {
		var ids []int
		var w []float64
		for _, i := range b.sharedIDs {
			t := &b.templates[i]
			if t.Workflow == workflow || (t.Org != org) != side || !ok(t) {
				continue
			}
			ids = append(ids, i)
			w = append(w, 1+2*float64(b.readers[i]))
		}
		if len(ids) > 0 {
			return ids[pickWeighted(b.rng, w)]
		}
	}
	return -1
}

func (b *builder) addDep(id int, d Dep) {
	b.templates[id].Deps = append(b.templates[id].Deps, d)
	if d.Upstream != id {
		b.readers[d.Upstream]++
	}
}

// lookback draws a soft input's window on upstream u: (k + f) of its
// periods (k = 1…3 hours, or 1 day), f uniform in [0.3, 0.7], so that
// the number of outputs a job reads varies (Table 1's hard rule does not
// hold for it); for an aperiodic upstream, (2 + f) mean inter-arrivals,
// at most two days.
func (b *builder) lookback(u int) float64 {
	t := &b.templates[u]
	f := 0.3 + 0.4*b.rng.Float64()
	switch {
	case t.Period == Hour:
		return (float64(1+b.rng.IntN(3)) + f) * Hour
	case t.Period == Day:
		return (1 + f) * Day
	}
	return min((2+f)/t.Rate, 2*Day)
}

// periodicOffset is a periodic member's submission time in its period:
// a few minutes (hourly) or up to two hours (daily) after the latest
// bound of its hard inputs of the same cadence, in whole minutes.
func (b *builder) periodicOffset(id int, period float64) float64 {
	t := &b.templates[id]
	after := 0.0
	for _, d := range t.Deps {
		u := &b.templates[d.Upstream]
		if d.Kind == Hard && d.Upstream != id && u.Period == period {
			after = max(after, u.Bound)
		}
	}
	slack := 2*60 + 28*60*b.rng.Float64()
	if period == Day {
		slack = 10*60 + 110*60*b.rng.Float64()
	}
	return math.Ceil((after+slack)/60) * 60
}

// fixBound sets Bound: a periodic template's instance completes by its
// offset plus its runtime bound; a polling template's by the latest
// bound of its inputs plus the polling window plus its runtime bound; an
// aperiodic template's job by its runtime bound after submission.
func (b *builder) fixBound(id int) {
	t := &b.templates[id]
	switch t.Kind {
	case Hourly, Daily:
		t.Bound = t.Offset + runBound(t)
	case Polling:
		in := 0.0
		for _, d := range t.Deps {
			in = max(in, b.templates[d.Upstream].Bound)
		}
		t.Bound = in + PollWindow + runBound(t)
	default:
		t.Bound = runBound(t)
	}
}

// aperiodic draws an aperiodic template: 1.5–8 submissions a day, one to
// three inputs from shared workflows (hard: the latest output due by
// its bound; or soft), and sometimes a polling follower that runs after
// each of its jobs.
func (b *builder) aperiodic() {
	rng := b.rng
	org := b.pickOrg()
	t := b.newTemplate(Aperiodic, b.pickUser(org), -1, 0)
	t.Rate = (1.5 + 6.5*rng.Float64()) / Day
	id := t.ID
	n := 1 + rng.IntN(3)
	seen := map[int]bool{}
	for range n {
		u := b.pickUpstream(org, b.crossOrgQ.draw(rng), -1, func(t *Template) bool { return t.Period > 0 })
		if u < 0 || seen[u] {
			continue
		}
		seen[u] = true
		if rng.Float64() < pHardAperiodic {
			b.addDep(id, Dep{Upstream: u, Kind: Hard})
		} else {
			b.addDep(id, Dep{Upstream: u, Kind: Soft, Lookback: b.lookback(u)})
		}
	}
	b.fixBound(id)
	if rng.Float64() < pAperiodicFollower {
		f := b.newTemplate(Polling, b.templates[id].User, -1, 0)
		fid := f.ID
		b.addDep(fid, Dep{Upstream: id, Kind: PollingDep})
		b.fixBound(fid)
	}
}

// assignPriorities sets every recurring template's priority by the
// model of the package doc: with probability pInherit a template with
// upstream templates copies the priority of one of them (script
// inheritance); otherwise it takes its user's level plus −1, 0 or +1.
// Priorities are 1…9, higher first. The model never reads value.
func (b *builder) assignPriorities() {
	for i := range b.templates {
		t := &b.templates[i]
		var ups []int
		for _, d := range t.Deps {
			if d.Upstream != i {
				ups = append(ups, d.Upstream)
			}
		}
		if len(ups) > 0 && b.rng.Float64() < pInherit {
			t.Priority = b.templates[ups[b.rng.IntN(len(ups))]].Priority
			continue
		}
		t.Priority = clampInt(b.users[t.User].Level+b.rng.IntN(3)-1, 1, 9)
	}
}

// calibrateInversions nudges downstream priorities until the share of
// recurring templates read by a recurring template of higher priority
// (invertible, Observation 2) is target, give or take one template:
// while too many are invertible it lowers, for a random invertible
// template, every higher reader to its priority (the reader's owner
// copied the producer's setting); while too few, it raises a random
// reader of a random non-invertible template to one above it. It reads
// only the templates' graph and priorities, never their value.
func (b *builder) calibrateInversions(target float64) {
	ts := b.templates
	var rec []int
	down := make([][]int, len(ts))
	for d := range ts {
		if !ts[d].Kind.Recurring() {
			continue
		}
		rec = append(rec, d)
		for _, dep := range ts[d].Deps {
			if u := dep.Upstream; u != d && ts[u].Kind.Recurring() && !slices.Contains(down[u], d) {
				down[u] = append(down[u], d)
			}
		}
	}
	inverted := func(u int) bool {
		return slices.ContainsFunc(down[u], func(d int) bool { return ts[d].Priority > ts[u].Priority })
	}
	want := int(math.Round(target * float64(len(rec))))
	for range 50 * len(rec) {
		var inv, flat []int
		for _, u := range rec {
			switch {
			case inverted(u):
				inv = append(inv, u)
			case len(down[u]) > 0 && ts[u].Priority < 9:
				flat = append(flat, u)
			}
		}
		switch {
		case abs(len(inv)-want) <= 1:
			return
		case len(inv) > want:
			u := inv[b.rng.IntN(len(inv))]
			for _, d := range down[u] {
				ts[d].Priority = min(ts[d].Priority, ts[u].Priority)
			}
		case len(flat) > 0:
			u := flat[b.rng.IntN(len(flat))]
			d := down[u][b.rng.IntN(len(down[u]))]
			ts[d].Priority = ts[u].Priority + 1
		default:
			return
		}
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// adhocTemplate adds an ad-hoc script of user: it reads k recurring
// outputs (k drawn from adhocInputs; own organisation's or, with
// pAdhocCrossOrg, another's, weighted by readers) and, with pAdhocChain,
// the user's previous script's output (prev, −1 for none). Its priority
// is the user's level plus −2…+2.
func (b *builder) adhocTemplate(user, prev int) int {
	rng := b.rng
	t := b.newTemplate(AdHoc, user, -1, 0)
	id := t.ID
	org := t.Org
	k := pickWeighted(rng, adhocInputs[:])
	seen := map[int]bool{}
	for range k {
		u := b.pickUpstream(org, b.adhocCrossOrgQ.draw(rng), -2, func(t *Template) bool { return t.Kind.Recurring() && t.Rate == 0 && t.Period > 0 })
		if u < 0 || seen[u] {
			continue
		}
		seen[u] = true
		b.addDep(id, Dep{Upstream: u, Kind: Hard})
	}
	if prev >= 0 && rng.Float64() < pAdhocChain {
		b.addDep(id, Dep{Upstream: prev, Kind: Hard})
	}
	b.templates[id].Priority = clampInt(b.users[user].Level+rng.IntN(5)-2, 1, 9)
	return id
}

func pickWeighted(rng *rand.Rand, w []float64) int {
	s := 0.0
	for _, x := range w {
		s += x
	}
	r := rng.Float64() * s
	for i, x := range w {
		r -= x
		if r < 0 {
			return i
		}
	}
	return len(w) - 1
}

func lognormal(rng *rand.Rand, median, sigma float64) float64 {
	return median * math.Exp(sigma*rng.NormFloat64())
}

func clamp(x, lo, hi float64) float64 { return math.Max(lo, math.Min(hi, x)) }

func clampInt(x, lo, hi int) int { return max(lo, min(hi, x)) }
