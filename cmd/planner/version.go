package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/plannerhq/planner/solver"
)

// version is the release of this build; `-ldflags "-X main.version=…"` overrides it.
var version = "0.1.0-dev"

func runVersion(out io.Writer) error {
	// Built whole and written once, so that a failed write is reported.
	w := &strings.Builder{}
	rev := ""
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				rev = " (" + s.Value[:12] + ")"
			}
		}
	}
	fmt.Fprintf(w, "planner %s%s %s %s/%s\n", version, rev, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	libs := solver.LibraryVersions()
	fmt.Fprintln(w, "solver backends:")
	for _, name := range solver.Backends() {
		lib := "pure Go"
		switch name {
		case solver.CBCName, solver.LPSolveName:
			lib = libs[name]
		case solver.CLPName:
			lib = "greedy + " + libs[solver.CLPName] + " LP relaxation + rounding and repair"
		}
		def := ""
		if name == solver.DefaultName {
			def = " (default)"
		}
		fmt.Fprintf(w, "  %-10s %s%s\n", name, lib, def)
	}
	_, err := io.WriteString(out, w.String())
	return err
}
