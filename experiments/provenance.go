package experiments

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/plannerhq/planner/solver"
)

// Provenance says what produced a result, so that a number in a paper can
// be traced to the code and the command behind it: the planner's version
// and VCS revision (with whether the tree had uncommitted changes), the Go
// and solver library versions, a hash of the executable, the command line
// (the resolved settings are the report's "config" beside it), when it
// started, how long it took and on what CPU.
type Provenance struct {
	Version string `json:"planner_version"`
	// Revision and Modified are the VCS revision the binary was built
	// from and whether its tree had changes; empty and false when the
	// build recorded none (go run, go test).
	Revision     string `json:"vcs_revision,omitempty"`
	RevisionTime string `json:"vcs_time,omitempty"`
	Modified     bool   `json:"vcs_modified"`
	GoVersion    string `json:"go_version"`
	// Executable is the SHA-256 (first 16 bytes, hex) of the running
	// binary: the code that computed the result, whatever its tree.
	Executable string `json:"executable_sha256,omitempty"`
	// SolverLibraries maps each C solver library compiled in to its version.
	SolverLibraries map[string]string `json:"solver_libraries"`
	Command         []string          `json:"command"`
	// Start is the wall-clock start (RFC 3339, UTC); WallS the wall time
	// in seconds, once known.
	Start string  `json:"start"`
	WallS float64 `json:"wall_s"`
	Host  Host    `json:"host"`
}

// Host is the machine a result was computed on.
type Host struct {
	CPU  string `json:"cpu"`
	CPUs int    `json:"cpus"`
	OS   string `json:"os"`
	Arch string `json:"arch"`
}

// NewProvenance describes this process: planner version version, the
// command line args (os.Args), started at start.
func NewProvenance(version string, args []string, start time.Time) *Provenance {
	p := &Provenance{Version: version, GoVersion: runtime.Version(), Executable: ExecutableHash(),
		SolverLibraries: solver.LibraryVersions(), Command: args, Start: start.UTC().Format(time.RFC3339),
		Host: Host{CPU: cpuModel(), CPUs: runtime.NumCPU(), OS: runtime.GOOS, Arch: runtime.GOARCH}}
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				p.Revision = s.Value
			case "vcs.time":
				p.RevisionTime = s.Value
			case "vcs.modified":
				p.Modified = s.Value == "true"
			}
		}
	}
	return p
}

// Finish records the wall time since Start, given the time now.
func (p *Provenance) Finish(now time.Time) {
	if p == nil {
		return
	}
	if t, err := time.Parse(time.RFC3339, p.Start); err == nil {
		p.WallS = now.Sub(t).Round(time.Millisecond).Seconds()
	}
}

var (
	executableOnce sync.Once
	executableHash string
)

// ExecutableHash is the SHA-256 (first 16 bytes, hex) of the running
// executable, computed once; "" when it cannot be read. A sweep keys its
// stored runs with it, so that runs computed by other code are never
// reused, whether or not the tree was committed.
func ExecutableHash() string {
	executableOnce.Do(func() {
		path, err := os.Executable()
		if err != nil {
			return
		}
		f, err := os.Open(path)
		if err != nil {
			return
		}
		defer f.Close()
		h := sha256.New()
		if _, err := io.Copy(h, f); err != nil {
			return
		}
		executableHash = hex.EncodeToString(h.Sum(nil)[:16])
	})
	return executableHash
}

// cpuModel is the CPU's model name as the OS reports it, or the
// architecture when it does not.
func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return runtime.GOARCH
}
