package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"
	"text/tabwriter"

	"github.com/plannerhq/planner/solver"
)

// version is the release of this build; `-ldflags "-X main.version=…"` overrides it.
var version = "0.1.0-dev"

// devVersion is version's value when no -X flag set it.
const devVersion = "0.1.0-dev"

// buildVersion is the version this binary reports: the -X flag's when one
// set it; else the main module's version the go command recorded (`go
// install github.com/plannerhq/planner/cmd/planner@v0.2.0` records
// v0.2.0; a build in a checkout, a pseudo-version of its commit, or
// "(devel)"), without its "v"; else devVersion.
func buildVersion() string {
	info, _ := debug.ReadBuildInfo()
	return versionFrom(version, info)
}

// versionFrom is buildVersion's rule for the linked-in version v and the
// build info (nil when there is none).
func versionFrom(v string, info *debug.BuildInfo) string {
	if v != devVersion || info == nil {
		return v
	}
	switch mv := info.Main.Version; mv {
	case "", "(devel)":
		return v
	default:
		return strings.TrimPrefix(mv, "v")
	}
}

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
	fmt.Fprintf(w, "planner %s%s %s %s/%s\n", buildVersion(), rev, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	fmt.Fprintln(w, "solver backends:")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, b := range solver.BackendTable() {
		lib := b.Library
		if lib == "" {
			lib = "pure Go"
		}
		def := ""
		if b.Name == solver.DefaultName {
			def = " (default)"
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s%s\n", b.Name, lib, b.Placement, b.Engine, def)
	}
	tw.Flush()
	_, err := io.WriteString(out, w.String())
	return err
}
