package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"

	"github.com/spf13/pflag"
)

// profileFlags are --cpuprofile and --memprofile: profiles of the whole
// command in the format `go tool pprof` reads.
type profileFlags struct {
	cpu, mem string
}

func (p *profileFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&p.cpu, "cpuprofile", "", "write a CPU profile of the whole command to this `file` (go tool pprof)")
	fs.StringVar(&p.mem, "memprofile", "", "write a heap profile to this `file` at the end (allocations over the run and what is still in use; go tool pprof)")
}

// start creates the profile files, so that a path that cannot be written
// fails before any work, and starts the CPU profile. stop ends the CPU
// profile and writes the heap profile; it reports the first error.
func (p *profileFlags) start() (stop func() error, err error) {
	var cpu, mem *os.File
	if p.cpu != "" {
		if cpu, err = os.Create(p.cpu); err != nil {
			return nil, fmt.Errorf("--cpuprofile: %w", err)
		}
		if err := pprof.StartCPUProfile(cpu); err != nil {
			cpu.Close()
			return nil, fmt.Errorf("--cpuprofile %s: %w", p.cpu, err)
		}
	}
	if p.mem != "" {
		if mem, err = os.Create(p.mem); err != nil {
			if cpu != nil {
				pprof.StopCPUProfile()
				cpu.Close()
			}
			return nil, fmt.Errorf("--memprofile: %w", err)
		}
	}
	return func() error {
		var first error
		if cpu != nil {
			pprof.StopCPUProfile()
			if err := cpu.Close(); err != nil {
				first = fmt.Errorf("--cpuprofile %s: %w", p.cpu, err)
			}
		}
		if mem != nil {
			runtime.GC() // the in-use figures as of the end
			err := pprof.Lookup("allocs").WriteTo(mem, 0)
			if cerr := mem.Close(); err == nil {
				err = cerr
			}
			if err != nil && first == nil {
				first = fmt.Errorf("--memprofile %s: %w", p.mem, err)
			}
		}
		return first
	}, nil
}
