package wing

import (
	"cmp"
	"slices"

	"github.com/plannerhq/planner/workloads/datalake"
)

// Edge is a single-hop dependency: job Down read an output of job Up
// (indices into the log's jobs).
type Edge struct {
	Up, Down int
}

// write is one write of a file: by log job job (−1 for an upload) at at.
type write struct {
	at  float64
	job int
}

// fileWrites indexes every write of the log by file, each file's writes
// in time order (a job writes when it ends).
func fileWrites(g *datalake.Log) map[string][]write {
	ws := map[string][]write{}
	for _, u := range g.Uploads {
		ws[u.File] = append(ws[u.File], write{u.Time, -1})
	}
	for i := range g.Jobs {
		j := &g.Jobs[i]
		for _, f := range j.Writes {
			ws[f] = append(ws[f], write{j.End, i})
		}
	}
	for f, l := range ws {
		slices.SortStableFunc(l, func(a, b write) int { return cmp.Compare(a.at, b.at) })
		ws[f] = l
	}
	return ws
}

// lastWriter is the write of file f that a read at time at sees: the
// latest strictly before at (R/W correctness, last writer wins), if it is
// at most window older (time windowing); ok false when there is none.
func lastWriter(ws map[string][]write, f string, at, window float64) (write, bool) {
	l := ws[f]
	i, _ := slices.BinarySearchFunc(l, at, func(w write, t float64) int {
		if w.at < t {
			return -1
		}
		return 1
	})
	if i == 0 || at-l[i-1].at > window {
		return write{}, false
	}
	return l[i-1], true
}

// InferEdges derives the single-hop dependencies of §4.2 from the log: a
// self-join of its reads on its writes where a read at a job's start
// depends on the last write of the file strictly before it, written at
// most window (T, 30 days) earlier. A read of an upload, or of a file
// the job wrote itself, is no dependency. Each (Up, Down) pair appears
// once, ordered by Down then Up.
func InferEdges(g *datalake.Log, window float64) []Edge {
	ws := fileWrites(g)
	var out []Edge
	for i := range g.Jobs {
		j := &g.Jobs[i]
		var ups []int
		for _, f := range j.Reads {
			w, ok := lastWriter(ws, f, j.Start, window)
			if ok && w.job >= 0 && w.job != i {
				ups = append(ups, w.job)
			}
		}
		slices.Sort(ups)
		for _, u := range slices.Compact(ups) {
			out = append(out, Edge{Up: u, Down: i})
		}
	}
	return out
}

// LocalValues attributes the log's downloads to jobs as §6 counts value:
// a download of a file at t credits the file's last writer before t when
// it comes within valueWindow of that job's end. It returns each log
// job's job-local value.
func LocalValues(g *datalake.Log, valueWindow float64) []float64 {
	ws := fileWrites(g)
	out := make([]float64, len(g.Jobs))
	for _, d := range g.Downloads {
		w, ok := lastWriter(ws, d.File, d.Time, valueWindow)
		if ok && w.job >= 0 {
			out[w.job]++
		}
	}
	return out
}
