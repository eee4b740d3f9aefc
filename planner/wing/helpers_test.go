package wing

import (
	"fmt"
	"sync"
	"testing"

	"github.com/plannerhq/planner/workloads/datalake"
)

// profiled caches a lake and its profile per seed (scale 1).
var profiled sync.Map

type lakeProfile struct {
	once sync.Once
	l    *datalake.Lake
	p    *Profile
	err  error
}

func profileOf(t testing.TB, seed uint64) (*datalake.Lake, *Profile) {
	t.Helper()
	v, _ := profiled.LoadOrStore(seed, &lakeProfile{})
	o := v.(*lakeProfile)
	o.once.Do(func() {
		o.l, o.err = datalake.Generate(datalake.Params{Seed: seed, Scale: 1})
		if o.err == nil {
			o.p, o.err = Build(o.l.Log(), DefaultOptions())
		}
	})
	if o.err != nil {
		t.Fatal(o.err)
	}
	return o.l, o.p
}

var seeds = []uint64{1, 2, 3}

// tspec is a daily template of a hand-made log: its jobs run every day
// at offset for runtime, reading the same day's outputs of reads (or an
// upload when it reads none) and downloaded downloads times.
type tspec struct {
	name      string
	org       string
	offset    float64
	runtime   float64
	reads     []string
	downloads int
	priority  int
}

// dailyLog is a log of the templates' jobs every day of the lead-in and
// the two weeks before 0.
func dailyLog(specs []tspec) *datalake.Log {
	g := &datalake.Log{Start: datalake.WorldStart, End: 0}
	for day := int(datalake.WorldStart / datalake.Day); day < 0; day++ {
		base := float64(day) * datalake.Day
		g.Uploads = append(g.Uploads, datalake.Op{File: fmt.Sprintf("ext/%d", day), Time: base})
		for _, s := range specs {
			j := datalake.LogJob{
				ID: len(g.Jobs), Template: s.name, User: "u-" + s.name, Org: s.org, Priority: s.priority,
				Submit: base + s.offset, Start: base + s.offset, End: base + s.offset + s.runtime,
				ComputeHours: s.runtime / datalake.Hour, Writes: []string{fmt.Sprintf("%s/%d", s.name, day)},
			}
			for _, r := range s.reads {
				j.Reads = append(j.Reads, fmt.Sprintf("%s/%d", r, day))
			}
			if len(s.reads) == 0 {
				j.Reads = []string{fmt.Sprintf("ext/%d", day)}
			}
			for k := range s.downloads {
				g.Downloads = append(g.Downloads, datalake.Op{File: j.Writes[0], Time: j.End + 60*float64(k+1)})
			}
			g.Jobs = append(g.Jobs, j)
		}
	}
	sortOps(g.Downloads)
	return g
}
