package distributions

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
)

// Predictor binary layout (little endian), version 1:
//
//	magic "3SPR", version byte 1
//	config: uint32 MaxBins, MedianWindow, RecentWindow, MinHistory; float64 Alpha
//	global state
//	uint32 number of feature values m
//	m × (uint32 len, Kind bytes, uint32 len, Value bytes, state), sorted by
//	    Kind then Value, no duplicates
//
// state:
//
//	uint64 n; float64 sum, ewma, scored; 4 × float64 absErr (Estimator order)
//	uint32 k = min(n, MedianWindow), k × float64 ring runtimes, oldest first
//	uint32 len, the histogram's MarshalBinary bytes
//
// Floats are raw IEEE-754 bits, so a round trip is bit-identical, and keys
// are sorted, so equal predictors encode to equal bytes. The cached
// snapshots are not stored; they are rebuilt on demand.
const (
	predictMagic   = "3SPR"
	predictVersion = 1
)

// ErrCorruptPredictor is wrapped by every Predictor.UnmarshalBinary error;
// the message names the offending field.
var ErrCorruptPredictor = errors.New("distributions: corrupt predictor encoding")

// MarshalBinary encodes the predictor losslessly and deterministically (see
// the layout above).
func (p *Predictor) MarshalBinary() ([]byte, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.init()
	keys := make([]Feature, 0, len(p.states))
	for f := range p.states {
		keys = append(keys, f)
	}
	slices.SortFunc(keys, Feature.compare)

	buf := make([]byte, 0, 64+len(keys)*(96+8*p.cfg.MedianWindow+16*p.cfg.MaxBins))
	buf = append(buf, predictMagic...)
	buf = append(buf, predictVersion)
	le := binary.LittleEndian
	buf = le.AppendUint32(buf, uint32(p.cfg.MaxBins))
	buf = le.AppendUint32(buf, uint32(p.cfg.MedianWindow))
	buf = le.AppendUint32(buf, uint32(p.cfg.RecentWindow))
	buf = le.AppendUint32(buf, uint32(p.cfg.MinHistory))
	buf = le.AppendUint64(buf, math.Float64bits(p.cfg.Alpha))
	var err error
	if buf, err = p.global.appendBinary(buf); err != nil {
		return nil, err
	}
	buf = le.AppendUint32(buf, uint32(len(keys)))
	for _, f := range keys {
		buf = appendPredictString(buf, f.Kind)
		buf = appendPredictString(buf, f.Value)
		if buf, err = p.states[f].appendBinary(buf); err != nil {
			return nil, err
		}
	}
	return buf, nil
}

func appendPredictString(buf []byte, s string) []byte {
	buf = binary.LittleEndian.AppendUint32(buf, uint32(len(s)))
	return append(buf, s...)
}

func (s *featureState) appendBinary(buf []byte) ([]byte, error) {
	le := binary.LittleEndian
	buf = le.AppendUint64(buf, s.n)
	for _, v := range []float64{s.sum, s.ewma, s.scored, s.absErr[0], s.absErr[1], s.absErr[2], s.absErr[3]} {
		buf = le.AppendUint64(buf, math.Float64bits(v))
	}
	k := s.filled()
	buf = le.AppendUint32(buf, uint32(k))
	start := 0
	if k == s.window {
		start = s.head // the oldest runtime of a full ring
	}
	for i := range k {
		buf = le.AppendUint64(buf, math.Float64bits(s.ring[(start+i)%k]))
	}
	h, err := s.hist.MarshalBinary()
	if err != nil {
		return nil, fmt.Errorf("distributions: encoding predictor histogram: %w", err)
	}
	buf = le.AppendUint32(buf, uint32(len(h)))
	return append(buf, h...), nil
}

// predictDecoder reads the layout, remembering the first error.
type predictDecoder struct {
	data []byte
	off  int
	err  error
}

func (d *predictDecoder) fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("%w: "+format, append([]any{ErrCorruptPredictor}, args...)...)
	}
}

func (d *predictDecoder) take(n int, what string) []byte {
	if d.err != nil {
		return nil
	}
	if n < 0 || n > len(d.data)-d.off {
		d.fail("%s at byte %d needs %d bytes, %d left", what, d.off, n, len(d.data)-d.off)
		return nil
	}
	b := d.data[d.off : d.off+n]
	d.off += n
	return b
}

func (d *predictDecoder) u32(what string) uint32 {
	if b := d.take(4, what); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (d *predictDecoder) u64(what string) uint64 {
	if b := d.take(8, what); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

// f64 reads a float64 that must be finite and ≥ 0.
func (d *predictDecoder) f64(what string) float64 {
	v := math.Float64frombits(d.u64(what))
	if d.err == nil && !finiteNonNeg(v) {
		d.fail("%s is %v, want a finite number ≥ 0", what, v)
	}
	return v
}

func (d *predictDecoder) str(what string) string {
	n := d.u32(what + " length")
	return string(d.take(int(min(n, math.MaxInt32)), what))
}

// UnmarshalBinary replaces p with the predictor encoded in data. It checks
// every invariant Observe and Predict rely on; on error (wrapping
// ErrCorruptPredictor) p is unchanged.
func (p *Predictor) UnmarshalBinary(data []byte) error {
	d := &predictDecoder{data: data}
	if string(d.take(len(predictMagic), "magic")) != predictMagic && d.err == nil {
		d.fail("bad magic %q", data[:len(predictMagic)])
	}
	if v := d.take(1, "version"); d.err == nil && v[0] != predictVersion {
		d.fail("unsupported version %d", v[0])
	}
	raw := PredictorConfig{
		MaxBins:      int(d.u32("MaxBins")),
		MedianWindow: int(d.u32("MedianWindow")),
		RecentWindow: int(d.u32("RecentWindow")),
		MinHistory:   int(d.u32("MinHistory")),
		Alpha:        math.Float64frombits(d.u64("Alpha")),
	}
	if d.err != nil {
		return d.err
	}
	cfg, err := raw.withDefaults()
	if err == nil && cfg != raw {
		err = errors.New("zero field")
	}
	if err != nil {
		return fmt.Errorf("%w: config %+v: %v", ErrCorruptPredictor, raw, err)
	}
	global := d.state(&cfg, "global")
	if d.err == nil && global.n > MaxCount {
		d.fail("global count %d exceeds %v", global.n, float64(MaxCount))
	}
	m := d.u32("feature count")
	states := make(map[Feature]*featureState, min(m, 1024))
	var prev Feature
	for i := range m {
		if d.err != nil {
			break
		}
		f := Feature{Kind: d.str("feature kind"), Value: d.str("feature value")}
		if d.err != nil {
			break
		}
		if f.Kind == "" {
			d.fail("feature %d has an empty kind", i)
			break
		}
		if i > 0 && !prev.less(f) {
			d.fail("feature %d %q not after %q", i, f.String(), prev.String())
			break
		}
		s := d.state(&cfg, f.String())
		if d.err == nil && (s.n == 0 || s.n > global.n) {
			d.fail("feature %q count %d outside [1, global count %d]", f.String(), s.n, global.n)
		}
		states[f], prev = s, f
	}
	if d.err == nil && d.off != len(data) {
		d.fail("%d trailing bytes", len(data)-d.off)
	}
	if d.err != nil {
		return d.err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cfg, p.global, p.states = cfg, global, states
	return nil
}

// state decodes one feature state and checks its invariants.
func (d *predictDecoder) state(cfg *PredictorConfig, name string) *featureState {
	s := newFeatureState(cfg)
	s.n = d.u64(name + " count")
	s.sum = d.f64(name + " sum")
	s.ewma = d.f64(name + " ewma")
	s.scored = d.f64(name + " scored sum")
	for e := range Estimator(numEstimators) {
		s.absErr[e] = d.f64(name + " " + e.String() + " error")
	}
	k := d.u32(name + " ring length")
	if d.err == nil && uint64(k) != min(s.n, uint64(cfg.MedianWindow)) {
		d.fail("%s ring holds %d runtimes, want min(count %d, MedianWindow %d)", name, k, s.n, cfg.MedianWindow)
	}
	if d.err == nil && 8*int(k) > len(d.data)-d.off {
		d.fail("%s ring of %d runtimes needs %d bytes, %d left", name, k, 8*int(k), len(d.data)-d.off)
	}
	if d.err == nil {
		s.ring = make([]float64, 0, k)
		s.sorted = make([]float64, 0, k)
	}
	for i := 0; i < int(k) && d.err == nil; i++ {
		v := d.f64(name + " ring runtime")
		if d.err == nil && v > MaxPredictRuntime {
			d.fail("%s ring runtime %v exceeds %v", name, v, MaxPredictRuntime)
		}
		s.ring = append(s.ring, v)
		s.sorted = sortedInsert(s.sorted, v)
	}
	s.head = int(k) % cfg.MedianWindow
	hb := d.take(int(min(d.u32(name+" histogram length"), math.MaxInt32)), name+" histogram")
	if d.err != nil {
		return s
	}
	if err := s.hist.UnmarshalBinary(hb); err != nil {
		d.err = fmt.Errorf("%w: %s histogram: %w", ErrCorruptPredictor, name, err)
		return s
	}
	switch {
	case s.hist.MaxBins() != cfg.MaxBins || s.hist.Rule() != WeightedGap:
		d.fail("%s histogram has %d bins of rule %v, want %d of %v", name, s.hist.MaxBins(), s.hist.Rule(), cfg.MaxBins, WeightedGap)
	case s.n > MaxCount || s.hist.Count() != float64(s.n):
		d.fail("%s histogram count %v differs from count %d", name, s.hist.Count(), s.n)
	case s.n > 0 && s.hist.Max() > MaxPredictRuntime:
		d.fail("%s histogram max %v exceeds %v", name, s.hist.Max(), MaxPredictRuntime)
	case s.ewma > MaxPredictRuntime || max(s.sum, s.scored) > float64(s.n)*MaxPredictRuntime:
		d.fail("%s sums (ewma %v, sum %v, scored %v) exceed what %d runtimes ≤ %v s give", name, s.ewma, s.sum, s.scored, s.n, MaxPredictRuntime)
	case slices.Max(s.absErr[:]) > float64(s.n)*MaxPredictRuntime:
		d.fail("%s errors %v exceed what %d runtimes ≤ %v s give", name, s.absErr, s.n, MaxPredictRuntime)
	case s.n == 0 && (s.sum != 0 || s.ewma != 0 || s.scored != 0 || s.absErr != [numEstimators]float64{}):
		d.fail("%s is empty but has non-zero sums", name)
	}
	return s
}
