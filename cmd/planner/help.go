package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/pflag"
)

// examples are the example command lines that end each command's --help,
// keyed by the name of the command's flag set. parseFlags adds them to
// the usage, so every command that parses its flags with it has one;
// TestHelpEndsWithAnExample runs each from the top of the repository.
var examples = map[string]string{
	"simulate":          "planner simulate --workload hedgefund --hours 1 --schedulers 3sigma,prio",
	"sweep":             "planner sweep --vary load=1.0,1.4 --schedulers 3sigma,prio --hours 1",
	"workload generate": "planner workload generate --workload mustang --hours 2 -o mustang.jsonl",
	"workload import":   "planner workload import --format swf traces/LANL-CM5-1994-4.1-cln.swf.gz --hours 24 --load 1.4 -o lanl.jsonl",
	"workload stats":    "planner workload stats workloads/testdata/example.jsonl",
	"predict eval":      "planner predict eval --workload hedgefund --hours 2",
	"bench solver":      "planner bench solver --jobs 100 --seeds 1-2 --solvers clp,greedy --timeout 200ms",
	"bench cycle":       "planner bench cycle --pending 100,200 --cycles 1 -o cycle",
}

// versionExample ends `planner version --help`, which has no flag set.
const versionExample = "planner version"

// exampleText is the end of a usage: "Example:" and the command line.
func exampleText(cmd string) string { return "\nExample:\n  " + cmd + "\n" }

// withExample makes fs's usage end with the example of its command, if
// it has one.
func withExample(fs *pflag.FlagSet) {
	ex, ok := examples[fs.Name()]
	if !ok {
		return
	}
	usage := fs.Usage
	fs.Usage = func() {
		if usage != nil {
			usage()
		} else {
			fs.PrintDefaults()
		}
		fmt.Fprint(fs.Output(), exampleText(ex))
	}
}

// listDefaults shows the default of every list flag of fs as the list is
// given, comma-separated: `(default 20,40,60,80)`, not the flag library's
// `[20.000000,40.000000,60.000000,80.000000]`. An empty default stays as
// the library writes it, "[]", which --help leaves out.
func listDefaults(fs *pflag.FlagSet) {
	fs.VisitAll(func(fl *pflag.Flag) {
		if _, ok := fl.Value.(pflag.SliceValue); !ok {
			return
		}
		inner, ok := strings.CutPrefix(fl.DefValue, "[")
		inner, ok2 := strings.CutSuffix(inner, "]")
		if !ok || !ok2 || inner == "" {
			return
		}
		if fl.Value.Type() == "float64Slice" {
			items := strings.Split(inner, ",")
			for i, s := range items {
				if v, err := strconv.ParseFloat(s, 64); err == nil {
					items[i] = strconv.FormatFloat(v, 'g', -1, 64)
				}
			}
			inner = strings.Join(items, ",")
		}
		fl.DefValue = inner
	})
}

// boolValueApart is the error of a true/false flag whose value is given
// as the next argument (`--deterministic false`): the flag library takes
// a bool flag's value only after "=", so it would set the flag to true
// and take "false" for an argument. Arguments after "--" are not flags.
func boolValueApart(fs *pflag.FlagSet, args []string) error {
	for i := 0; i < len(args); i++ {
		a := args[i]
		var fl *pflag.Flag
		switch {
		case a == "--":
			return nil
		case strings.HasPrefix(a, "--"):
			name, _, inline := strings.Cut(a[2:], "=")
			if inline {
				continue
			}
			fl = fs.Lookup(name)
		case len(a) == 2 && a[0] == '-':
			fl = fs.ShorthandLookup(a[1:])
		}
		switch {
		case fl == nil:
		case fl.NoOptDefVal == "":
			i++ // the next argument is the flag's value
		case i+1 < len(args) && (strings.EqualFold(args[i+1], "true") || strings.EqualFold(args[i+1], "false")):
			v := strings.ToLower(args[i+1])
			return fmt.Errorf("--%s: write --%s=%s (a true/false flag takes its value after '=')", fl.Name, fl.Name, v)
		}
	}
	return nil
}
