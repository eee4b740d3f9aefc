package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/pflag"

	"github.com/plannerhq/planner/planner/wing"
	"github.com/plannerhq/planner/workloads/datalake"
)

const wingSimExample = "planner wing simulate --capacity 20,40,60 --queues hierarchical --seeds 1,2,3"

// wingSimRun is one (capacity, seed) run of one scheduler in the report.
type wingSimRun struct {
	Seed uint64 `json:"seed"`
	wing.LakeResult
}

// wingSimMean is the mean over seeds of one (capacity, scheduler).
type wingSimMean struct {
	Scheduler          string  `json:"scheduler"`
	Capacity           float64 `json:"capacity_pct"`
	Queues             string  `json:"queues"`
	Seeds              int     `json:"seeds"`
	ValueAttained      float64 `json:"value_attained"`
	JobsFailed         float64 `json:"jobs_failed"`
	JobsFailedShare    float64 `json:"jobs_failed_share"`
	PriorityInversions float64 `json:"priority_inversions"`
}

// runWingSimulate is `planner wing simulate`: each scheduler on each
// seed's lake window at each capacity, and the means over seeds.
func runWingSimulate(args []string, stdout io.Writer) error {
	fs := pflag.NewFlagSet("wing simulate", pflag.ContinueOnError)
	fs.SetOutput(stdout)
	params := datalake.DefaultParams()
	var seeds, caps, scheds, queues, format string
	var names []string
	for _, p := range wing.LakePolicies {
		names = append(names, p.Name)
	}
	fs.StringVar(&seeds, "seeds", "1", "generator seeds, comma-separated")
	fs.Float64Var(&params.Scale, "scale", params.Scale, fmt.Sprintf("size of the lake (%g–%g)", float64(datalake.MinScale), float64(datalake.MaxScale)))
	fs.StringVar(&caps, "capacity", "100", "cluster and queue capacity in percent of nominal, comma-separated")
	fs.StringVar(&queues, "queues", "hierarchical", "queues: hierarchical (one per organisation) or global")
	fs.StringVar(&scheds, "schedulers", strings.Join(names, ","), "data-lake schedulers, comma-separated")
	fs.StringVar(&format, "format", "table", "output: table or json")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: planner wing simulate [flags]\n\nGenerates each seed's data lake, profiles weeks 1–2 and plays week 3 under\n§6's semantics (hard inputs missing at submission fail the job and its\ndependents, polling jobs wait for their inputs, a job attains the downloads\nmade after it completes) with gang scheduling in the queues, for each\nscheduler and capacity.\n\nFlags:")
		fs.PrintDefaults()
		fmt.Fprint(fs.Output(), exampleText(wingSimExample))
	}
	if err := parseNoArgs(fs, args, "wing simulate"); err != nil {
		return err
	}
	mode, err := datalake.ParseQueueMode(queues)
	if err != nil {
		return usageError{fmt.Errorf("--queues: %v", err)}
	}
	if format != "table" && format != "json" {
		return usageError{fmt.Errorf("--format: want table or json, got %q", format)}
	}
	if math.IsNaN(params.Scale) || params.Scale < datalake.MinScale || params.Scale > datalake.MaxScale {
		return usageError{fmt.Errorf("--scale: must be in [%g, %g], got %v", float64(datalake.MinScale), float64(datalake.MaxScale), params.Scale)}
	}
	var seedList []uint64
	for _, s := range strings.Split(seeds, ",") {
		v, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
		if err != nil {
			return usageError{fmt.Errorf("--seeds: %q is not a seed", s)}
		}
		seedList = append(seedList, v)
	}
	var capList []float64
	for _, s := range strings.Split(caps, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil || math.IsNaN(v) || v < datalake.MinCapacity || v > datalake.MaxCapacity {
			return usageError{fmt.Errorf("--capacity: %q is not a percentage in [%d, %d]", s, datalake.MinCapacity, datalake.MaxCapacity)}
		}
		capList = append(capList, v)
	}
	schedList := strings.Split(scheds, ",")
	for _, n := range schedList {
		if err := wing.CheckLakePolicy(n); err != nil {
			return usageError{fmt.Errorf("--schedulers: %v", err)}
		}
	}
	var runs []wingSimRun
	for _, seed := range seedList {
		params.Seed = seed
		lake, err := datalake.Generate(params)
		if err != nil {
			return err
		}
		p, err := wing.Build(lake.Log(), wing.DefaultOptions())
		if err != nil {
			return err
		}
		for _, c := range capList {
			rs, err := wing.RunLake(lake, p, mode, c, schedList)
			if err != nil {
				return err
			}
			for _, r := range rs {
				runs = append(runs, wingSimRun{Seed: seed, LakeResult: r})
			}
		}
	}
	var means []wingSimMean
	for _, c := range capList {
		for _, n := range schedList {
			m := wingSimMean{Scheduler: n, Capacity: c, Queues: mode.String()}
			for _, r := range runs {
				if r.Capacity == c && r.Scheduler == n {
					m.Seeds++
					m.ValueAttained += r.ValueAttained
					m.JobsFailed += float64(r.JobsFailed)
					m.JobsFailedShare += r.JobsFailedShare
					m.PriorityInversions += float64(r.PriorityInversions)
				}
			}
			k := float64(m.Seeds)
			m.ValueAttained, m.JobsFailed, m.JobsFailedShare, m.PriorityInversions = m.ValueAttained/k, m.JobsFailed/k, m.JobsFailedShare/k, m.PriorityInversions/k
			means = append(means, m)
		}
	}
	if format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			Runs  []wingSimRun  `json:"runs"`
			Means []wingSimMean `json:"means"`
		}{runs, means})
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "queues\tcapacity_pct\tscheduler\tseeds\tvalue_attained\tjobs_failed\tjobs_failed_share\tpriority_inversions\n")
	for _, m := range means {
		fmt.Fprintf(tw, "%s\t%g\t%s\t%d\t%.4f\t%.1f\t%.4f\t%.1f\n", m.Queues, m.Capacity, m.Scheduler, m.Seeds, m.ValueAttained, m.JobsFailed, m.JobsFailedShare, m.PriorityInversions)
	}
	return tw.Flush()
}
