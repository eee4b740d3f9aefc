package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/spf13/pflag"

	"github.com/plannerhq/planner/planner/wing"
	"github.com/plannerhq/planner/workloads/datalake"
)

const wingUsage = `Usage: planner wing profile|simulate [flags]

  profile   profile a data lake's provenance log with Wing: the §2.3 statistics,
            the inferred dependencies against the truth, Fig. 6's convergence
  simulate  play the lake's week 3 under each data-lake scheduler (§6, §7):
            value attained, jobs failed, priority inversions

Run 'planner wing profile --help' or 'planner wing simulate --help' for flags.
`

const wingExample = "planner wing profile --workload datalake --seed 2 --format json"

// runWing is `planner wing`: its subcommands are profile and simulate.
func runWing(args []string, stdout, stderr io.Writer) error {
	switch {
	case len(args) > 0 && isHelp(args[0]):
		fmt.Fprint(stdout, wingUsage)
		return nil
	case len(args) > 0 && args[0] == "profile":
		return runWingProfile(args[1:], stdout)
	case len(args) > 0 && args[0] == "simulate":
		return runWingSimulate(args[1:], stdout)
	}
	return usageError{errors.New("wing: the subcommands are 'wing profile' and 'wing simulate'")}
}

// runWingProfile generates the lake, profiles its log (which is all the
// profiler reads), judges the profile against the lake's truth and
// prints the report.
func runWingProfile(args []string, stdout io.Writer) error {
	fs := pflag.NewFlagSet("wing profile", pflag.ContinueOnError)
	fs.SetOutput(stdout)
	var workload, format string
	var seed uint64
	params := datalake.DefaultParams()
	opts := wing.DefaultOptions()
	fs.StringVar(&workload, "workload", datalake.Generator, "the workload: datalake (the generated data lake of Wing §2)")
	fs.Uint64Var(&seed, "seed", params.Seed, "generator seed")
	fs.Float64Var(&params.Scale, "scale", params.Scale, fmt.Sprintf("size of the lake (1 ≈ 1,900 jobs a day; %g–%g)", float64(datalake.MinScale), float64(datalake.MaxScale)))
	fs.Float64Var(&opts.Threshold, "tr", opts.Threshold, "arrival predictor threshold tr in [0, 1]")
	fs.StringVar(&format, "format", "table", "output: table or json")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: planner wing profile [flags]\n\nGenerates the data lake, profiles the provenance log of its weeks 1–2 with\nWing (single-hop edges, Table 1's classes, the arrival predictor, Algorithm 1\nwith Owl's functions) and prints the §2.3 statistics against the paper's, the\ninferred edges against the generator's truth and the value found per\niteration (Fig. 6).\n\nFlags:")
		fs.PrintDefaults()
		fmt.Fprint(fs.Output(), exampleText(wingExample))
	}
	if err := parseNoArgs(fs, args, "wing profile"); err != nil {
		return err
	}
	switch {
	case workload != datalake.Generator:
		return usageError{fmt.Errorf("--workload: unknown workload %q (wing profile reads %s)", workload, datalake.Generator)}
	case format != "table" && format != "json":
		return usageError{fmt.Errorf("--format: want table or json, got %q", format)}
	case math.IsNaN(params.Scale) || params.Scale < datalake.MinScale || params.Scale > datalake.MaxScale:
		return usageError{fmt.Errorf("--scale: must be in [%g, %g], got %v", float64(datalake.MinScale), float64(datalake.MaxScale), params.Scale)}
	case math.IsNaN(opts.Threshold) || opts.Threshold < 0 || opts.Threshold > 1:
		return usageError{fmt.Errorf("--tr: must be in [0, 1], got %v", opts.Threshold)}
	}
	params.Seed = seed
	lake, err := datalake.Generate(params)
	if err != nil {
		return err
	}
	p, err := wing.Build(lake.Log(), opts)
	if err != nil {
		return err
	}
	r := wing.NewReport(p, params, wing.Evaluate(p, lake))
	if format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	return r.WriteTable(stdout)
}
