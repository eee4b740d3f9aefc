package utility

// Double-double arithmetic: a value is hi + lo with |lo| ≤ ulp(hi)/2, about
// 106 bits. Used only for the prefix sums of Runtime, where differences of
// large sums must not cancel away small runs of segments.

// twoSum returns s = fl(a + b) and the exact rounding error e: a + b = s + e.
func twoSum(a, b float64) (s, e float64) {
	s = a + b
	bb := s - a
	e = (a - (s - bb)) + (b - bb)
	return s, e
}

// ddAdd returns (ah + al) + (bh + bl) in double-double.
func ddAdd(ah, al, bh, bl float64) (hi, lo float64) {
	s, e := twoSum(ah, bh)
	e += al + bl
	hi = s + e
	lo = e - (hi - s)
	return hi, lo
}
