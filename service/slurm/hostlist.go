package slurm

import (
	"fmt"
	"strconv"
	"strings"
)

// maxHostlist bounds the names one hostlist expands to: larger lists are
// refused rather than allocated (a cluster of a million nodes fits).
const maxHostlist = 1 << 20

// ExpandHostlist returns the node names of a Slurm hostlist expression in
// its order: comma-separated entries, each a name with bracketed ranges
// ("n[1-3,7]", "rack[1-2]-n[01-04]"; a range keeps the width of its first
// bound, so "n[08-10]" is n08, n09, n10). The empty string is the empty
// list. A malformed expression is an error quoting it.
func ExpandHostlist(s string) ([]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []string
	depth, start := 0, 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) {
			switch s[i] {
			case '[':
				depth++
				if depth > 1 {
					return nil, fmt.Errorf("hostlist %q: nested '['", s)
				}
				continue
			case ']':
				depth--
				if depth < 0 {
					return nil, fmt.Errorf("hostlist %q: ']' without '['", s)
				}
				continue
			case ',':
				if depth > 0 {
					continue
				}
			default:
				continue
			}
		}
		if depth != 0 {
			return nil, fmt.Errorf("hostlist %q: '[' without ']'", s)
		}
		entry := strings.TrimSpace(s[start:i])
		start = i + 1
		if entry == "" {
			return nil, fmt.Errorf("hostlist %q: empty entry", s)
		}
		names, err := expandEntry(entry, maxHostlist-len(out))
		if err != nil {
			return nil, fmt.Errorf("hostlist %q: %w", s, err)
		}
		out = append(out, names...)
	}
	return out, nil
}

// expandEntry expands one entry (no top-level comma) into at most limit
// names.
func expandEntry(entry string, limit int) ([]string, error) {
	open := strings.IndexByte(entry, '[')
	if open < 0 {
		return []string{entry}, nil
	}
	end := strings.IndexByte(entry, ']')
	prefix, ranges, rest := entry[:open], entry[open+1:end], entry[end+1:]
	var items []string
	for _, r := range strings.Split(ranges, ",") {
		lo, hi, isRange := strings.Cut(r, "-")
		if !isRange {
			hi = lo
		}
		a, err1 := strconv.ParseUint(lo, 10, 32)
		b, err2 := strconv.ParseUint(hi, 10, 32)
		if err1 != nil || err2 != nil || lo == "" || hi == "" {
			return nil, fmt.Errorf("range %q: want N or N-M with whole numbers", r)
		}
		if b < a {
			return nil, fmt.Errorf("range %q: its end is below its start", r)
		}
		if int(b-a) >= limit-len(items) {
			return nil, fmt.Errorf("more than %d names", maxHostlist)
		}
		for v := a; v <= b; v++ {
			n := strconv.FormatUint(v, 10)
			if pad := len(lo) - len(n); pad > 0 {
				n = strings.Repeat("0", pad) + n
			}
			items = append(items, n)
		}
	}
	tails, err := expandEntry(rest, limit)
	if err != nil {
		return nil, err
	}
	if len(items)*len(tails) > limit {
		return nil, fmt.Errorf("more than %d names", maxHostlist)
	}
	out := make([]string, 0, len(items)*len(tails))
	for _, it := range items {
		for _, t := range tails {
			out = append(out, prefix+it+t)
		}
	}
	return out, nil
}
