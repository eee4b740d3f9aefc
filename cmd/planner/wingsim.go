package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/plannerhq/planner/experiments"
	"github.com/plannerhq/planner/planner/wing"
	"github.com/plannerhq/planner/workloads/datalake"
)

const wingSimExample = "planner wing simulate --capacity 20,40,60 --queues hierarchical --seeds 1,2,3"

// runWingSimulate is `planner wing simulate`: each scheduler on each
// seed's lake window at each capacity, and the means over seeds.
func runWingSimulate(args []string, stdout io.Writer) error {
	fs := pflag.NewFlagSet("wing simulate", pflag.ContinueOnError)
	fs.SetOutput(stdout)
	params := datalake.DefaultParams()
	var seeds, caps, scheds, queues, format, out string
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
	fs.StringVar(&out, "out", "", "also write sweep.json, sweep.csv and the plots value.svg and failed.svg (Figs. 10, 12) into this directory")
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
	var runs []wing.LakeRun
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
				runs = append(runs, wing.LakeRun{Seed: seed, LakeResult: r})
			}
		}
	}
	sw := wing.NewLakeSweep(runs, capList, schedList)
	if out != "" {
		if err := writeWingSweep(out, sw); err != nil {
			return err
		}
	}
	if format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(sw)
	}
	return sw.WriteTable(stdout)
}

// writeWingSweep writes the sweep into dir: sweep.json (every run and the
// means), sweep.csv (the means) and the plots value.svg and failed.svg.
func writeWingSweep(dir string, sw *wing.LakeSweep) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	files := []struct {
		name  string
		write func(io.Writer) error
	}{
		{"sweep.json", func(w io.Writer) error {
			enc := json.NewEncoder(w)
			enc.SetIndent("", "  ")
			return enc.Encode(sw)
		}},
		{"sweep.csv", sw.WriteCSV},
		{"value.svg", func(w io.Writer) error { return sw.WritePlot(w, "value_attained") }},
		{"failed.svg", func(w io.Writer) error { return sw.WritePlot(w, "jobs_failed_share") }},
	}
	for _, f := range files {
		if err := experiments.WriteFileAtomic(filepath.Join(dir, f.name), f.write); err != nil {
			return err
		}
	}
	return nil
}
