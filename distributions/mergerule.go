package distributions

import "fmt"

// MergeRule chooses which adjacent pair of bins a Histogram merges when it
// has one bin too many (see Histogram).
type MergeRule uint8

const (
	// WeightedGap merges the pair minimising (p_{i+1} − p_i)·(m_i + m_{i+1})².
	// It is the default (the zero value).
	WeightedGap MergeRule = iota
	// PaperGap merges the pair with the closest centroids, exactly as in
	// Ben-Haim & Tom-Tov's Algorithm 1.
	PaperGap
)

// String returns "weighted-gap" or "gap".
func (r MergeRule) String() string {
	switch r {
	case WeightedGap:
		return "weighted-gap"
	case PaperGap:
		return "gap"
	}
	return fmt.Sprintf("MergeRule(%d)", uint8(r))
}

// ParseMergeRule parses the String form of a MergeRule.
func ParseMergeRule(s string) (MergeRule, error) {
	switch s {
	case "weighted-gap":
		return WeightedGap, nil
	case "gap":
		return PaperGap, nil
	}
	return 0, fmt.Errorf("%w: unknown histogram merge rule %q (want weighted-gap or gap)", ErrInvalid, s)
}

func (r MergeRule) valid() bool { return r <= PaperGap }
