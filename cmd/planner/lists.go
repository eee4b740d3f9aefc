package main

// firstDuplicate is the first element of xs that an earlier one equals;
// ok is false when all differ. A list flag naming a scheduler, a solver or
// an instance size twice would run it twice.
func firstDuplicate[T comparable](xs []T) (dup T, ok bool) {
	seen := make(map[T]bool, len(xs))
	for _, x := range xs {
		if seen[x] {
			return x, true
		}
		seen[x] = true
	}
	return dup, false
}
