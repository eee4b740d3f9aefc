package distributions

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
)

// Binary layout (little endian), version 1:
//
//	[0:4]   magic "BTHG"
//	[4]     version = 1
//	[5]     merge rule (0 weighted-gap, 1 gap)
//	[6:10]  uint32 max bins
//	[10:14] uint32 number of bins n
//	[14:22] float64 count, [22:30] min, [30:38] max (IEEE-754 bits)
//	then n × (float64 centroid, float64 count)
//
// Floats are stored as raw bits, so a round trip is bit-identical.
const (
	binaryMagic      = "BTHG"
	binaryVersion    = 1
	binaryHeaderSize = 38
	binaryBinSize    = 16
)

// countTolerance is the relative slack allowed between the stored total
// count and the sum of the bin counts. With integer weights both are exact;
// with fractional weights (UpdateWeighted) the running total and the
// bin-by-bin sums round differently, by at most a few ulps per addition.
const countTolerance = 1e-9

// ErrCorrupt is wrapped by every unmarshalling error. Match it with
// errors.Is; the message names the offending field.
var ErrCorrupt = errors.New("distributions: corrupt histogram encoding")

// MarshalBinary encodes the histogram losslessly (see the layout above).
func (h *Histogram) MarshalBinary() ([]byte, error) {
	buf := make([]byte, binaryHeaderSize+binaryBinSize*len(h.bins))
	copy(buf, binaryMagic)
	buf[4] = binaryVersion
	buf[5] = byte(h.rule)
	le := binary.LittleEndian
	le.PutUint32(buf[6:], uint32(h.MaxBins()))
	le.PutUint32(buf[10:], uint32(len(h.bins)))
	le.PutUint64(buf[14:], math.Float64bits(h.count))
	le.PutUint64(buf[22:], math.Float64bits(h.min))
	le.PutUint64(buf[30:], math.Float64bits(h.max))
	off := binaryHeaderSize
	for _, b := range h.bins {
		le.PutUint64(buf[off:], math.Float64bits(b.Centroid))
		le.PutUint64(buf[off+8:], math.Float64bits(b.Count))
		off += binaryBinSize
	}
	return buf, nil
}

// UnmarshalBinary replaces h with the histogram encoded in data. On error
// (wrapping ErrCorrupt) h is unchanged.
func (h *Histogram) UnmarshalBinary(data []byte) error {
	if len(data) < binaryHeaderSize {
		return fmt.Errorf("%w: %d bytes is shorter than the %d-byte header", ErrCorrupt, len(data), binaryHeaderSize)
	}
	if string(data[:4]) != binaryMagic {
		return fmt.Errorf("%w: bad magic %q", ErrCorrupt, data[:4])
	}
	if data[4] != binaryVersion {
		return fmt.Errorf("%w: unsupported version %d", ErrCorrupt, data[4])
	}
	le := binary.LittleEndian
	rule := MergeRule(data[5])
	maxBins := le.Uint32(data[6:])
	n := le.Uint32(data[10:])
	if want := uint64(binaryHeaderSize) + uint64(binaryBinSize)*uint64(n); uint64(len(data)) != want {
		return fmt.Errorf("%w: %d bins need %d bytes, got %d", ErrCorrupt, n, want, len(data))
	}
	bins := make([]Bin, n)
	off := binaryHeaderSize
	for i := range bins {
		bins[i] = Bin{
			Centroid: math.Float64frombits(le.Uint64(data[off:])),
			Count:    math.Float64frombits(le.Uint64(data[off+8:])),
		}
		off += binaryBinSize
	}
	return h.restore(rule, int64(maxBins), bins,
		math.Float64frombits(le.Uint64(data[14:])),
		math.Float64frombits(le.Uint64(data[22:])),
		math.Float64frombits(le.Uint64(data[30:])))
}

// histogramJSON is the JSON form: {"rule", "max_bins", "count", "min",
// "max", "bins": [[centroid, count], …]}, rule as in MergeRule.String. Go's encoding/json writes float64 in the
// shortest form that parses back to the same bits, so the round trip is
// exact.
type histogramJSON struct {
	Rule    *string      `json:"rule"`
	MaxBins *int64       `json:"max_bins"`
	Count   *float64     `json:"count"`
	Min     *float64     `json:"min"`
	Max     *float64     `json:"max"`
	Bins    *[][]float64 `json:"bins"`
}

// MarshalJSON encodes the histogram losslessly.
func (h *Histogram) MarshalJSON() ([]byte, error) {
	mb := int64(h.MaxBins())
	bins := make([][]float64, len(h.bins))
	for i, b := range h.bins {
		bins[i] = []float64{b.Centroid, b.Count}
	}
	count, lo, hi := h.count, h.min, h.max
	rule := h.rule.String()
	return json.Marshal(histogramJSON{Rule: &rule, MaxBins: &mb, Count: &count, Min: &lo, Max: &hi, Bins: &bins})
}

// UnmarshalJSON replaces h with the histogram encoded in data. Every field
// is required and unknown fields are rejected. On error (wrapping
// ErrCorrupt) h is unchanged.
func (h *Histogram) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var v histogramJSON
	if err := dec.Decode(&v); err != nil {
		return fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	if dec.More() {
		return fmt.Errorf("%w: trailing data after the histogram object", ErrCorrupt)
	}
	switch {
	case v.Rule == nil:
		return fmt.Errorf("%w: missing field rule", ErrCorrupt)
	case v.MaxBins == nil:
		return fmt.Errorf("%w: missing field max_bins", ErrCorrupt)
	case v.Count == nil:
		return fmt.Errorf("%w: missing field count", ErrCorrupt)
	case v.Min == nil:
		return fmt.Errorf("%w: missing field min", ErrCorrupt)
	case v.Max == nil:
		return fmt.Errorf("%w: missing field max", ErrCorrupt)
	case v.Bins == nil:
		return fmt.Errorf("%w: missing field bins", ErrCorrupt)
	}
	bins := make([]Bin, len(*v.Bins))
	for i, b := range *v.Bins {
		if len(b) != 2 {
			return fmt.Errorf("%w: bin %d has %d numbers, want [centroid, count]", ErrCorrupt, i, len(b))
		}
		bins[i] = Bin{Centroid: b[0], Count: b[1]}
	}
	rule, err := ParseMergeRule(*v.Rule)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	return h.restore(rule, *v.MaxBins, bins, *v.Count, *v.Min, *v.Max)
}

// restore validates a decoded state and installs it. It checks every
// invariant the query methods rely on, so no decoded histogram can make
// them misbehave.
func (h *Histogram) restore(rule MergeRule, maxBins int64, bins []Bin, count, lo, hi float64) error {
	if !rule.valid() {
		return fmt.Errorf("%w: unknown merge rule %d", ErrCorrupt, rule)
	}
	if maxBins < 1 || maxBins > maxBinsLimit {
		return fmt.Errorf("%w: max_bins %d outside [1, %d]", ErrCorrupt, maxBins, maxBinsLimit)
	}
	if int64(len(bins)) > maxBins {
		return fmt.Errorf("%w: %d bins exceed max_bins %d", ErrCorrupt, len(bins), maxBins)
	}
	inexact := false
	if len(bins) == 0 {
		if count != 0 || lo != 0 || hi != 0 {
			return fmt.Errorf("%w: empty histogram must have count, min and max 0, got %v, %v, %v", ErrCorrupt, count, lo, hi)
		}
	} else {
		if !(count >= MinWeight && count <= MaxCount) {
			return fmt.Errorf("%w: count %v outside [%v, %v]", ErrCorrupt, count, MinWeight, float64(MaxCount))
		}
		if !finiteNonNeg(lo) || !finiteNonNeg(hi) || lo > hi {
			return fmt.Errorf("%w: min %v and max %v must be finite with 0 ≤ min ≤ max", ErrCorrupt, lo, hi)
		}
		sum := 0.0
		for i, b := range bins {
			if !(b.Count >= MinWeight && b.Count <= MaxCount) {
				return fmt.Errorf("%w: bin %d count %v outside [%v, %v]", ErrCorrupt, i, b.Count, MinWeight, float64(MaxCount))
			}
			if !(b.Centroid >= lo && b.Centroid <= hi) {
				return fmt.Errorf("%w: bin %d centroid %v outside [min %v, max %v]", ErrCorrupt, i, b.Centroid, lo, hi)
			}
			if i > 0 && !(b.Centroid > bins[i-1].Centroid) {
				return fmt.Errorf("%w: bin %d centroid %v not above bin %d centroid %v", ErrCorrupt, i, b.Centroid, i-1, bins[i-1].Centroid)
			}
			sum += b.Count
			if b.Count != math.Trunc(b.Count) {
				inexact = true
			}
		}
		if !(math.Abs(sum-count) <= countTolerance*count) {
			return fmt.Errorf("%w: bin counts sum to %v but count is %v", ErrCorrupt, sum, count)
		}
		inexact = inexact || sum != count
		// The extremes are values that were added, so they lie in the first
		// and last bins' supports; min ≤ p_1 and p_B ≤ max follow from the
		// range check above.
	}
	h.rule = rule
	h.inexact = inexact
	h.maxBins = int(maxBins)
	h.bins = bins
	h.rebuildCosts()
	h.count, h.min, h.max = count, lo, hi
	return nil
}
