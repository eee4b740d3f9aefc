package slearn

// Adaptive sampling (SLearn §5.1.2, Fig. 3): the share of a wide job's
// tasks sampled as pilots, in percent, chosen from 1–5% by the normalised
// JCT (JCT / mean task runtime) the recent jobs sampled at each share had.
const (
	// WindowJobs is T: the score of a share is the mean normalised JCT of
	// the last T jobs sampled at it, and the warm-up is 3T jobs.
	WindowJobs = 100
	// The warm-up shares: the first T wide jobs at 3%, the next T at 2%,
	// the next T at 4%.
	warm1, warm2, warm3 = 3, 2, 4
	// lowShare and highShare are tried when going from 3% to 2% (4%)
	// improved the normalised JCT by more than the margin.
	lowShare, highShare = 1, 5
	// margin: a share beats 3% when its score is below 3%'s / 1.1.
	margin = 1.1
)

// sampler is Fig. 3's state: how many wide jobs asked, and per share the
// normalised JCTs of its last WindowJobs completed jobs.
type sampler struct {
	t      int
	asked  int
	scores map[int]*ring // share (%) → recent normalised JCTs
}

func newSampler(t int) *sampler { return &sampler{t: t, scores: map[int]*ring{}} }

// next is the share (percent) of the next wide job (GetCurrentSamplingPercentage).
func (s *sampler) next() int {
	s.asked++
	switch {
	case s.asked <= s.t:
		return warm1
	case s.asked <= 2*s.t:
		return warm2
	case s.asked <= 3*s.t:
		return warm3
	}
	best, bestScore, ok := s.min()
	if !ok {
		return warm1 // no job completed yet
	}
	three, has3 := s.score(3)
	switch {
	case best == 2 && has3 && margin*bestScore < three:
		return lowShare
	case best == 4 && has3 && three > margin*bestScore:
		return highShare
	}
	return best
}

// done records a completed job's normalised JCT under its share
// (UpdateScoreOnJobCompletion).
func (s *sampler) done(share int, normalised float64) {
	r := s.scores[share]
	if r == nil {
		r = &ring{cap: s.t}
		s.scores[share] = r
	}
	r.add(normalised)
}

// score is the mean of a share's recent normalised JCTs.
func (s *sampler) score(share int) (float64, bool) {
	r := s.scores[share]
	if r == nil || len(r.x) == 0 {
		return 0, false
	}
	sum := 0.0
	for _, v := range r.x {
		sum += v
	}
	return sum / float64(len(r.x)), true
}

// min is the share with the lowest score (ties: the lower share).
func (s *sampler) min() (share int, score float64, ok bool) {
	for sh := lowShare; sh <= highShare; sh++ {
		if v, has := s.score(sh); has && (!ok || v < score) {
			share, score, ok = sh, v, true
		}
	}
	return share, score, ok
}

// ring keeps the last cap values.
type ring struct {
	cap  int
	x    []float64
	next int
}

func (r *ring) add(v float64) {
	if len(r.x) < r.cap {
		r.x = append(r.x, v)
		return
	}
	r.x[r.next] = v
	r.next = (r.next + 1) % r.cap
}
