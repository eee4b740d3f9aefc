package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/plannerhq/planner/planner"
)

// Some flags act only with other settings: the generator flags only when
// --workload names a generator, the widths of the synthetic estimates only
// with --synthetic, the solver and estimate flags only when a scheduler of
// --schedulers reads them (readFlags). Such a flag given explicitly (on the
// command line or in a --config file) where it does nothing is a usage
// error: ignoring it would report results of settings other than the ones
// asked for.

// generatorFlags are the workload flags only a generator reads, with what
// a workload file fixes in their place.
var generatorFlags = []struct{ name, fileSets string }{
	{"nodes", "the cluster"},
	{"racks", "the cluster"},
	{"cluster", "the cluster"},
	{"hours", "the window"},
	{"load", "the arrivals"},
	{"slack", "the deadlines"},
}

// generatorFlagNames are the names of generatorFlags.
func generatorFlagNames() []string {
	names := make([]string, len(generatorFlags))
	for i, g := range generatorFlags {
		names[i] = g.name
	}
	return names
}

// syntheticFlags shape the synthetic estimates of --synthetic.
var syntheticFlags = []string{"synthetic-shift", "synthetic-cov"}

// schedulerFlagNames are the flags of readFlags, which only some
// schedulers read.
func schedulerFlagNames() []string {
	var names []string
	for _, g := range readFlags {
		names = append(names, g.flags...)
	}
	return names
}

// notReadReason says why no scheduler of schedulers reads the flag name,
// or "" when one does or the flag is not in readFlags. A scheduler that is
// not in reg is taken to read every flag.
func notReadReason(name string, schedulers []string, reg planner.Registry) string {
	for _, g := range readFlags {
		if !slices.Contains(g.flags, name) {
			continue
		}
		for _, s := range schedulers {
			if p, ok := reg.Lookup(s); !ok || p.Reads&g.group != 0 {
				return ""
			}
		}
		return g.unread + " (" + strings.Join(schedulers, ", ") + ")"
	}
	return ""
}

// unusedReason says why the flag name has no effect with w's workload, or
// "" when it has one (or is not a workload flag). --seed is asked about
// only by the commands that use it for nothing but a generator.
func (w *workloadFlags) unusedReason(name string) string {
	if w.generated() {
		return ""
	}
	for _, g := range generatorFlags {
		if g.name == name {
			return "not used with --workload (the workload file sets " + g.fileSets + ")"
		}
	}
	if name == "seed" {
		return "not used with --workload (it seeds a generator)"
	}
	return ""
}

// unusedReason says why the flag name has no effect with the settings of
// f, or "" when it has one.
func (f *simulateFlags) unusedReason(name string) string {
	if slices.Contains(syntheticFlags, name) && !f.synthetic {
		return "has no effect without --synthetic"
	}
	if why := notReadReason(name, f.schedulers, f.reg); why != "" {
		return why
	}
	return f.workloadFlags.unusedReason(name)
}

// givenFlags are the flags of fs given on the command line or in a
// --config file, each with how an error names it ("--nodes"; inConfig
// names the file of a --config setting).
func givenFlags(fs *pflag.FlagSet) map[string]string {
	given := map[string]string{}
	fs.VisitAll(func(fl *pflag.Flag) {
		if fl.Changed {
			given[fl.Name] = "--" + fl.Name
		}
	})
	return given
}

// checkUsed returns an error naming the first of names that was given
// (a key of given, whose value names it) but has no effect (reason(name)
// is not empty).
func checkUsed(given map[string]string, names []string, reason func(string) string) error {
	for _, n := range names {
		as, ok := given[n]
		if !ok {
			continue
		}
		if why := reason(n); why != "" {
			return fmt.Errorf("%s: %s", as, why)
		}
	}
	return nil
}
