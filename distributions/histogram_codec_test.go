package distributions

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"
)

// sameHistogram reports whether a and b have bit-identical state.
func sameHistogram(a, b *Histogram) bool {
	if a.MaxBins() != b.MaxBins() || a.rule != b.rule || len(a.bins) != len(b.bins) ||
		math.Float64bits(a.count) != math.Float64bits(b.count) ||
		math.Float64bits(a.min) != math.Float64bits(b.min) ||
		math.Float64bits(a.max) != math.Float64bits(b.max) {
		return false
	}
	for i := range a.bins {
		if math.Float64bits(a.bins[i].Centroid) != math.Float64bits(b.bins[i].Centroid) ||
			math.Float64bits(a.bins[i].Count) != math.Float64bits(b.bins[i].Count) {
			return false
		}
	}
	return true
}

func codecFixtures(t *testing.T) map[string]*Histogram {
	t.Helper()
	paper, _ := NewHistogramRule(16, PaperGap)
	weighted := NewHistogram(7)
	r := newRand(4)
	for range 1000 {
		x := LogNormal{Mu: 3, Sigma: 2}.Rand(r)
		_ = paper.Update(x)
		_ = weighted.UpdateWeighted(x, 0.1+r.Float64()) // awkward float counts
	}
	one := NewHistogram(0)
	_ = one.Update(1.0 / 3)
	extreme := NewHistogram(3)
	for _, v := range []float64{0, math.SmallestNonzeroFloat64, math.MaxFloat64, 1e-300, 1e300} {
		_ = extreme.Update(v)
	}
	return map[string]*Histogram{
		"empty":           NewHistogram(0),
		"one value":       one,
		"paper rule":      paper,
		"weighted floats": weighted,
		"80 bins":         histogramOf(t, 5000, 2, bimodal{}.Rand),
		"extreme values":  extreme,
	}
}

func TestHistogramBinaryRoundTrip(t *testing.T) {
	for name, h := range codecFixtures(t) {
		t.Run(name, func(t *testing.T) {
			data, err := h.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			var got Histogram
			if err := got.UnmarshalBinary(data); err != nil {
				t.Fatal(err)
			}
			if !sameHistogram(h, &got) {
				t.Errorf("round trip changed the histogram:\n%+v\n%+v", h, &got)
			}
			again, _ := got.MarshalBinary()
			if !bytes.Equal(data, again) {
				t.Error("re-encoding differs")
			}
			// The decoded histogram keeps working.
			if err := got.Update(5); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestHistogramJSONRoundTrip(t *testing.T) {
	for name, h := range codecFixtures(t) {
		t.Run(name, func(t *testing.T) {
			data, err := h.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			var got Histogram
			if err := got.UnmarshalJSON(data); err != nil {
				t.Fatalf("%v\n%s", err, data)
			}
			if !sameHistogram(h, &got) {
				t.Errorf("round trip changed the histogram:\n%s", data)
			}
		})
	}
}

func TestHistogramUnmarshalBinaryCorrupt(t *testing.T) {
	h := NewHistogram(4)
	for _, v := range []float64{1, 2, 3} {
		_ = h.Update(v)
	}
	good, _ := h.MarshalBinary()
	le := binary.LittleEndian
	mutate := func(f func(b []byte) []byte) []byte { return f(bytes.Clone(good)) }
	putF := func(off int, v float64) []byte {
		return mutate(func(b []byte) []byte { le.PutUint64(b[off:], math.Float64bits(v)); return b })
	}
	bin := func(i int) int { return binaryHeaderSize + binaryBinSize*i }
	tests := []struct {
		name, want string
		data       []byte
	}{
		{"nil", "shorter than", nil},
		{"truncated header", "shorter than", good[:10]},
		{"bad magic", "magic", mutate(func(b []byte) []byte { b[0] = 'X'; return b })},
		{"bad version", "version", mutate(func(b []byte) []byte { b[4] = 9; return b })},
		{"bad rule", "merge rule", mutate(func(b []byte) []byte { b[5] = 7; return b })},
		{"truncated bins", "need", good[:len(good)-1]},
		{"trailing bytes", "need", append(bytes.Clone(good), 0)},
		{"huge bin count", "need", mutate(func(b []byte) []byte { le.PutUint32(b[10:], math.MaxUint32); return b })},
		{"zero max bins", "max_bins", mutate(func(b []byte) []byte { le.PutUint32(b[6:], 0); return b })},
		{"too many bins", "exceed", mutate(func(b []byte) []byte { le.PutUint32(b[6:], 2); return b })},
		{"NaN count", "count", putF(14, math.NaN())},
		{"negative min", "min", putF(22, -1)},
		{"min above max", "min", putF(22, 4)},
		{"infinite max", "max", putF(30, math.Inf(1))},
		{"NaN centroid", "centroid", putF(bin(1), math.NaN())},
		{"centroid outside range", "centroid", putF(bin(2), 3.5)},
		{"unsorted centroids", "not above", putF(bin(2), 1.5)},
		{"duplicate centroids", "not above", putF(bin(1), 1)},
		{"zero bin count", "bin 0 count", putF(bin(0)+8, 0)},
		{"negative bin count", "bin 1 count", putF(bin(1)+8, -1)},
		{"counts do not sum", "sum to", putF(bin(1)+8, 2)},
		{"empty with count", "empty histogram", mutate(func(b []byte) []byte { le.PutUint32(b[10:], 0); return b[:binaryHeaderSize] })},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := h.Clone()
			err := got.UnmarshalBinary(tc.data)
			if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want ErrCorrupt mentioning %q", err, tc.want)
			}
			if !sameHistogram(h, got) {
				t.Error("failed unmarshal modified the histogram")
			}
		})
	}
}

func TestHistogramUnmarshalJSONCorrupt(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"not json", `{`, "unexpected EOF"},
		{"missing rule", `{"max_bins":4,"count":0,"min":0,"max":0,"bins":[]}`, "missing field rule"},
		{"missing bins", `{"rule":"gap","max_bins":4,"count":0,"min":0,"max":0}`, "missing field bins"},
		{"unknown field", `{"rule":"gap","max_bins":4,"count":0,"min":0,"max":0,"bins":[],"x":1}`, "unknown field"},
		{"unknown rule", `{"rule":"best","max_bins":4,"count":0,"min":0,"max":0,"bins":[]}`, "merge rule"},
		{"short bin", `{"rule":"gap","max_bins":4,"count":1,"min":1,"max":1,"bins":[[1]]}`, "bin 0 has 1 numbers"},
		{"long bin", `{"rule":"gap","max_bins":4,"count":1,"min":1,"max":1,"bins":[[1,1,1]]}`, "bin 0 has 3 numbers"},
		{"string number", `{"rule":"gap","max_bins":"4","count":0,"min":0,"max":0,"bins":[]}`, "max_bins"},
		{"count mismatch", `{"rule":"gap","max_bins":4,"count":2,"min":1,"max":1,"bins":[[1,1]]}`, "sum to"},
		{"trailing data", `{"rule":"gap","max_bins":4,"count":0,"min":0,"max":0,"bins":[]} {}`, "trailing"},
		{"huge max bins", `{"rule":"gap","max_bins":99999999999,"count":0,"min":0,"max":0,"bins":[]}`, "max_bins"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var h Histogram
			err := h.UnmarshalJSON([]byte(tc.in))
			if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want ErrCorrupt mentioning %q", err, tc.want)
			}
		})
	}
}

// FuzzHistogramUnmarshalBinary: arbitrary bytes never panic; whatever
// decodes is a valid histogram that re-encodes to the same bytes.
func FuzzHistogramUnmarshalBinary(f *testing.F) {
	for _, h := range codecFixtures(&testing.T{}) {
		data, _ := h.MarshalBinary()
		f.Add(data)
	}
	f.Add([]byte("BTHG"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var h Histogram
		if err := h.UnmarshalBinary(data); err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("error %v does not wrap ErrCorrupt", err)
			}
			return
		}
		again, _ := h.MarshalBinary()
		if !bytes.Equal(again, data) {
			t.Fatal("decoded histogram re-encodes differently")
		}
		checkHistogramInvariants(t, &h)
	})
}

// FuzzHistogramUnmarshalJSON: arbitrary JSON never panics; whatever decodes
// is valid and round-trips.
func FuzzHistogramUnmarshalJSON(f *testing.F) {
	for _, h := range codecFixtures(&testing.T{}) {
		data, _ := h.MarshalJSON()
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var h Histogram
		if err := h.UnmarshalJSON(data); err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("error %v does not wrap ErrCorrupt", err)
			}
			return
		}
		checkHistogramInvariants(t, &h)
		enc, _ := h.MarshalJSON()
		var h2 Histogram
		if err := h2.UnmarshalJSON(enc); err != nil || !sameHistogram(&h, &h2) {
			t.Fatalf("re-decode: %v", err)
		}
	})
}
