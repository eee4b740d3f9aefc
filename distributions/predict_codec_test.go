package distributions

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// predictJobs returns n jobs' features and runtimes from a seeded source:
// a few users, names and hours, lognormal runtimes whose median depends on
// the job name.
func predictJobs(seed uint64, n int) ([][]Feature, []float64) {
	r := rand.New(rand.NewPCG(seed, 99))
	fss := make([][]Feature, n)
	xs := make([]float64, n)
	for i := range n {
		name := r.IntN(12)
		a := JobAttrs{
			User:       "user" + strconv.Itoa(r.IntN(6)),
			Name:       "job" + strconv.Itoa(name),
			App:        "app" + strconv.Itoa(name%3),
			SubmitHour: r.IntN(24),
			SubmitDay:  r.IntN(7),
			Resources:  "nodes=" + strconv.Itoa(1<<r.IntN(4)),
		}
		fss[i] = a.Features()
		xs[i] = math.Round(60*float64(name+1)*math.Exp(0.5*r.NormFloat64())*100) / 100
	}
	return fss, xs
}

func buildPredictor(t testing.TB, cfg *PredictorConfig, fss [][]Feature, xs []float64) *Predictor {
	t.Helper()
	p := newTestPredictor(t, cfg)
	for i := range fss {
		if err := p.Observe(fss[i], xs[i]); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

func mustMarshalPredictor(t testing.TB, p *Predictor) []byte {
	t.Helper()
	b, err := p.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// samePrediction compares two predictions exactly, distributions by their
// segments.
func samePrediction(a, b Prediction) bool {
	if a.Source != b.Source || a.Expert != b.Expert || a.History != b.History ||
		math.Float64bits(a.Estimate) != math.Float64bits(b.Estimate) || math.Float64bits(a.NMAE) != math.Float64bits(b.NMAE) {
		return false
	}
	if (a.Dist == nil) != (b.Dist == nil) {
		return false
	}
	if a.Dist == nil {
		return true
	}
	sa, sb := a.Dist.Segments(), b.Dist.Segments()
	if len(sa) != len(sb) {
		return false
	}
	for i := range sa {
		if sa[i] != sb[i] {
			return false
		}
	}
	return true
}

func TestPredictorBinaryRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		cfg  *PredictorConfig
		n    int
	}{
		{"empty", nil, 0},
		{"one job", nil, 1},
		{"partial rings", &PredictorConfig{MedianWindow: 7, RecentWindow: 3}, 40},
		{"wrapped rings, merged bins", &PredictorConfig{MaxBins: 16, MedianWindow: 5, RecentWindow: 2, Alpha: 0.3, MinHistory: 4}, 3000},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fss, xs := predictJobs(3, tc.n+500)
			p := buildPredictor(t, tc.cfg, fss[:tc.n], xs[:tc.n])
			data := mustMarshalPredictor(t, p)

			var q Predictor
			if err := q.UnmarshalBinary(data); err != nil {
				t.Fatal(err)
			}
			if again := mustMarshalPredictor(t, &q); !bytes.Equal(again, data) {
				t.Fatal("re-encoding the decoded predictor changed the bytes")
			}
			if q.Config() != p.Config() || q.Len() != p.Len() || q.Count() != p.Count() {
				t.Fatalf("decoded config %+v len %d count %d, want %+v %d %d", q.Config(), q.Len(), q.Count(), p.Config(), p.Len(), p.Count())
			}
			// Both must predict and keep learning identically.
			for i := tc.n; i < len(fss); i++ {
				if a, b := p.Predict(fss[i]), q.Predict(fss[i]); !samePrediction(a, b) {
					t.Fatalf("job %d: prediction %+v, decoded %+v", i, a, b)
				}
				if err := p.Observe(fss[i], xs[i]); err != nil {
					t.Fatal(err)
				}
				if err := q.Observe(fss[i], xs[i]); err != nil {
					t.Fatal(err)
				}
			}
			if !bytes.Equal(mustMarshalPredictor(t, p), mustMarshalPredictor(t, &q)) {
				t.Fatal("original and decoded predictors diverged")
			}
		})
	}
}

// The encoding must not depend on map order or on the order of a job's
// features.
func TestPredictorBinaryDeterministic(t *testing.T) {
	fss, xs := predictJobs(5, 500)
	p := buildPredictor(t, nil, fss, xs)
	rev := make([][]Feature, len(fss))
	for i, fs := range fss {
		r := make([]Feature, len(fs))
		for j := range fs {
			r[j] = fs[len(fs)-1-j]
		}
		rev[i] = r
	}
	q := buildPredictor(t, nil, rev, xs)
	a := mustMarshalPredictor(t, p)
	for range 5 {
		if !bytes.Equal(a, mustMarshalPredictor(t, p)) || !bytes.Equal(a, mustMarshalPredictor(t, q)) {
			t.Fatal("encodings differ")
		}
	}
}

func TestPredictorUnmarshalCorrupt(t *testing.T) {
	fss, xs := predictJobs(11, 30)
	good := mustMarshalPredictor(t, buildPredictor(t, &PredictorConfig{MedianWindow: 4, RecentWindow: 2}, fss, xs))
	le := binary.LittleEndian
	edit := func(f func(b []byte) []byte) []byte { return f(bytes.Clone(good)) }
	const cfgEnd = 5 + 16 + 8 // magic, version, 4 × uint32, alpha
	tests := []struct {
		name string
		data []byte
	}{
		{"nil", nil},
		{"bad magic", edit(func(b []byte) []byte { b[0] = 'X'; return b })},
		{"bad version", edit(func(b []byte) []byte { b[4] = 9; return b })},
		{"zero MaxBins", edit(func(b []byte) []byte { le.PutUint32(b[5:], 0); return b })},
		{"RecentWindow above MedianWindow", edit(func(b []byte) []byte { le.PutUint32(b[13:], 5); return b })},
		{"NaN alpha", edit(func(b []byte) []byte { le.PutUint64(b[21:], math.Float64bits(math.NaN())); return b })},
		{"global count off", edit(func(b []byte) []byte { le.PutUint64(b[cfgEnd:], 31); return b })},
		{"negative global sum", edit(func(b []byte) []byte {
			le.PutUint64(b[cfgEnd+8:], math.Float64bits(-1))
			return b
		})},
		{"trailing byte", append(bytes.Clone(good), 0)},
		{"huge feature count", func() []byte {
			p := newTestPredictor(t, nil)
			observeAll(t, p, nil, 5)
			b := mustMarshalPredictor(t, p) // ends with the feature count, 0
			le.PutUint32(b[len(b)-4:], math.MaxUint32)
			return b
		}()},
		{"global count zeroed", func() []byte {
			p := newTestPredictor(t, nil)
			observeAll(t, p, []Feature{pfeat("a", "v")}, 5)
			b := mustMarshalPredictor(t, p)
			le.PutUint64(b[cfgEnd:], 0) // global count 0 < feature count 1
			return b
		}()},
	}
	for cut := 0; cut < len(good); cut += max(1, len(good)/97) {
		tests = append(tests, struct {
			name string
			data []byte
		}{"truncated at " + strconv.Itoa(cut), good[:cut]})
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := newTestPredictor(t, nil)
			observeAll(t, p, []Feature{pfeat(KindUser, "keep")}, 1, 2, 3)
			before := mustMarshalPredictor(t, p)
			err := p.UnmarshalBinary(tc.data)
			if !errors.Is(err, ErrCorruptPredictor) {
				t.Fatalf("error %v, want ErrCorruptPredictor", err)
			}
			if !bytes.Equal(mustMarshalPredictor(t, p), before) {
				t.Fatal("failed decode changed the predictor")
			}
		})
	}
}

// Features out of order or repeated are rejected: the encoding is canonical.
func TestPredictorUnmarshalUnsortedKeys(t *testing.T) {
	// One job with features a=v and b=v: the encoding is the prefix (config,
	// global state, count 2) then two entries of equal length.
	p := newTestPredictor(t, nil)
	observeAll(t, p, []Feature{pfeat("a", "v"), pfeat("b", "v")}, 5)
	good := mustMarshalPredictor(t, p)
	bare := newTestPredictor(t, nil)
	observeAll(t, bare, nil, 5)
	prefixLen := len(mustMarshalPredictor(t, bare)) // same global state, count 0
	entryLen := (len(good) - prefixLen) / 2
	prefix, ea, eb := good[:prefixLen], good[prefixLen:prefixLen+entryLen], good[prefixLen+entryLen:]
	for _, tc := range []struct {
		name   string
		first  []byte
		second []byte
		ok     bool
	}{
		{"ascending", ea, eb, true},
		{"descending", eb, ea, false},
		{"duplicate", ea, ea, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := append(append(bytes.Clone(prefix), tc.first...), tc.second...)
			var q Predictor
			err := q.UnmarshalBinary(data)
			if tc.ok && err != nil {
				t.Fatal(err)
			}
			if !tc.ok && !errors.Is(err, ErrCorruptPredictor) {
				t.Fatalf("error %v, want ErrCorruptPredictor", err)
			}
		})
	}
}

func FuzzPredictorUnmarshalBinary(f *testing.F) {
	for _, n := range []int{0, 1, 4, 25} {
		fss, xs := predictJobs(uint64(n), n)
		p := buildPredictor(f, &PredictorConfig{MaxBins: 8, MedianWindow: 4, RecentWindow: 2}, fss, xs)
		f.Add(mustMarshalPredictor(f, p))
	}
	f.Add([]byte("3SPR\x01"))
	probe := JobAttrs{User: "user1", Name: "job2", App: "app2", SubmitHour: 3, SubmitDay: 2, Resources: "nodes=2"}.Features()
	f.Fuzz(func(t *testing.T, data []byte) {
		var p Predictor
		if err := p.UnmarshalBinary(data); err != nil {
			if !errors.Is(err, ErrCorruptPredictor) {
				t.Fatalf("error %v does not wrap ErrCorruptPredictor", err)
			}
			return
		}
		// Accepted input is canonical and usable.
		if again := mustMarshalPredictor(t, &p); !bytes.Equal(again, data) {
			t.Fatal("accepted encoding is not canonical")
		}
		for _, x := range []float64{0, 1, 1e6} {
			pr := p.Predict(probe)
			if pr.Source != SourceNone && (pr.Dist == nil || math.IsNaN(pr.Estimate) || math.IsInf(pr.Estimate, 0)) {
				t.Fatalf("prediction %+v", pr)
			}
			if err := p.Observe(probe, x); err != nil {
				t.Fatal(err)
			}
		}
	})
}
