package slurm

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// Array is a job array to submit (sbatch --array=0-N): each element runs
// the same command, and tells it its index in SLURM_ARRAY_TASK_ID.
type Array struct {
	// Name is the jobs' name; Size the element count (≥ 1).
	Name string
	Size int
	// Command is the program and its arguments, run without a shell.
	Command []string
	// Dir is the elements' working directory; Output the file of their
	// output, in sbatch's patterns (%A the array's id, %a the index).
	Dir, Output string
	// Throttle, when > 0, is how many elements may run at once (sbatch
	// --array=0-N%Throttle).
	Throttle int
	// CPUsPerTask, when > 0, is each element's CPUs (--cpus-per-task).
	CPUsPerTask int
	// Args are more sbatch options, e.g. --partition=batch.
	Args []string
}

// batchScript runs its arguments: the element's command reaches it as
// sbatch's script arguments, so nothing in it is read by a shell.
const batchScript = "#!/bin/sh\nexec \"$@\"\n"

// SubmitArray submits a job array and returns its id. The elements run in
// the environment of the submitting process (sbatch's default).
func (s *Slurm) SubmitArray(ctx context.Context, a Array) (int64, error) {
	if a.Size < 1 {
		return 0, fmt.Errorf("job array %s: %d elements, want at least 1", a.Name, a.Size)
	}
	if len(a.Command) == 0 {
		return 0, fmt.Errorf("job array %s: no command", a.Name)
	}
	// Slurm keeps a copy of the script from the submission on.
	f, err := os.CreateTemp("", "planner-array-*.sh")
	if err != nil {
		return 0, fmt.Errorf("job array %s: %w", a.Name, err)
	}
	defer os.Remove(f.Name())
	if _, err := f.WriteString(batchScript); err != nil {
		f.Close()
		return 0, fmt.Errorf("job array %s: %w", a.Name, err)
	}
	if err := f.Close(); err != nil {
		return 0, fmt.Errorf("job array %s: %w", a.Name, err)
	}
	spec := "--array=0-" + strconv.Itoa(a.Size-1)
	if a.Throttle > 0 {
		spec += "%" + strconv.Itoa(a.Throttle)
	}
	args := []string{"--parsable", spec, "--job-name", a.Name}
	if a.CPUsPerTask > 0 {
		args = append(args, "--cpus-per-task="+strconv.Itoa(a.CPUsPerTask))
	}
	if a.Dir != "" {
		args = append(args, "--chdir", a.Dir)
	}
	if a.Output != "" {
		args = append(args, "--output", a.Output)
	}
	args = append(args, a.Args...)
	args = append(args, f.Name())
	args = append(args, a.Command...)
	out, err := s.Runner.Run(ctx, "sbatch", args...)
	if err != nil {
		return 0, err
	}
	// --parsable prints "ID" or "ID;CLUSTER".
	first, _, _ := strings.Cut(strings.TrimSpace(string(out)), ";")
	job, err := strconv.ParseInt(first, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("sbatch printed %q, want a job id", strings.TrimSpace(string(out)))
	}
	return job, nil
}

// Wait waits until no element of job is pending or running, looking every
// poll. Slurm's controller briefly unreachable is waited out; an error
// maxCommandErrors looks in a row is returned, as is ctx's.
func (s *Slurm) Wait(ctx context.Context, job int64, poll time.Duration) error {
	failed := 0
	for {
		out, err := s.Runner.Run(ctx, "squeue", "--noheader", "--jobs", id(job), "--format", "%i")
		switch {
		case err == nil && strings.TrimSpace(string(out)) == "":
			return nil
		case err != nil && ctx.Err() != nil:
			return ctx.Err()
		case err != nil && forgotten(err):
			return nil // ended long enough ago that Slurm forgot it
		case err != nil:
			if failed++; failed >= maxCommandErrors {
				return err
			}
		default:
			failed = 0
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(poll):
		}
	}
}

// forgotten reports whether a command failed because Slurm no longer
// knows the job.
func forgotten(err error) bool {
	var ce *CommandError
	return errors.As(err, &ce) && strings.Contains(ce.Stderr, "Invalid job id")
}

// MaxArraySize is the controller's MaxArraySize (`scontrol show config`):
// an array's indices must be below it, so an array holds at most that
// many elements. Slurm's default, 1001, when the configuration does not
// say.
func (s *Slurm) MaxArraySize(ctx context.Context) (int, error) {
	out, err := s.Runner.Run(ctx, "scontrol", "show", "config")
	if err != nil {
		return 0, err
	}
	return parseMaxArraySize(string(out))
}

// defaultMaxArraySize is Slurm's MaxArraySize when slurm.conf sets none.
const defaultMaxArraySize = 1001

// parseMaxArraySize reads "MaxArraySize = N" from scontrol show config.
func parseMaxArraySize(config string) (int, error) {
	for _, line := range strings.Split(config, "\n") {
		k, v, ok := strings.Cut(line, "=")
		if !ok || strings.TrimSpace(k) != "MaxArraySize" {
			continue
		}
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 1 {
			return 0, fmt.Errorf("scontrol show config: MaxArraySize %q is not a positive count", strings.TrimSpace(v))
		}
		return n, nil
	}
	return defaultMaxArraySize, nil
}
