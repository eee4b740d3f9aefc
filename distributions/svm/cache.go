package svm

// rowCache keeps kernel rows K(x_r, ·) of a training set of l vectors, as
// float32 as libsvm's Cache does, and evicts the least recently used row
// when its budget is spent. It holds at least two rows, the pair an SMO step
// works on.
type rowCache struct {
	l       int
	compute func(r int, dst []float32)
	rows    [][]float32
	// A circular doubly linked list of the cached rows, most recent first;
	// index l is the head.
	prev, next []int
	capRows    int
	used       int
}

func newRowCache(l int, mib float64, compute func(r int, dst []float32)) *rowCache {
	capRows := int(mib * (1 << 20) / (4 * float64(max(l, 1))))
	capRows = min(max(capRows, 2), l)
	c := &rowCache{
		l: l, compute: compute, rows: make([][]float32, l),
		prev: make([]int, l+1), next: make([]int, l+1), capRows: capRows,
	}
	c.prev[l], c.next[l] = l, l
	return c
}

func (c *rowCache) unlink(r int) {
	c.next[c.prev[r]] = c.next[r]
	c.prev[c.next[r]] = c.prev[r]
}

func (c *rowCache) pushFront(r int) {
	h := c.l
	c.next[r], c.prev[r] = c.next[h], h
	c.prev[c.next[h]] = r
	c.next[h] = r
}

// get returns row r; it stays valid until the next get.
func (c *rowCache) get(r int) []float32 {
	if row := c.rows[r]; row != nil {
		c.unlink(r)
		c.pushFront(r)
		return row
	}
	var buf []float32
	if c.used < c.capRows {
		buf = make([]float32, c.l)
		c.used++
	} else {
		victim := c.prev[c.l]
		buf = c.rows[victim]
		c.rows[victim] = nil
		c.unlink(victim)
	}
	c.compute(r, buf)
	c.rows[r] = buf
	c.pushFront(r)
	return buf
}
