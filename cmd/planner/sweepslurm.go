package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/plannerhq/planner/experiments"
	"github.com/plannerhq/planner/service/slurm"
)

// slurmPoll is how often the slurm executor looks whether its job
// arrays have ended: a sweep's points take minutes, and a site's
// controller should not answer squeue every second for each waiting
// sweep. A variable for the loopback test.
var slurmPoll = 30 * time.Second

// runOnSlurm computes the sweep's points that are not stored yet on
// Slurm: one job array, each element of which runs this binary with the
// sweep's own command line and --array-points, so that it computes one
// point and stores its runs in --out/points exactly as this process
// would. When the array has ended, every point must be stored; sw.Run
// then only reads them back. Interrupted, it cancels the array.
func (p *sweepPlan) runOnSlurm(ctx context.Context, sw *experiments.Sweep) error {
	missing, err := sw.Missing()
	if err != nil || len(missing) == 0 {
		return err
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("--executor slurm: this binary's path: %w", err)
	}
	wd, err := os.Getwd()
	if err != nil {
		return fmt.Errorf("--executor slurm: %w", err)
	}
	logs, err := filepath.Abs(filepath.Join(p.base.out, "slurm"))
	if err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	if err := os.MkdirAll(logs, 0o755); err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	sl := &slurm.Slurm{Runner: slurm.Exec{}}
	maxSize, err := sl.MaxArraySize(ctx)
	if err != nil {
		return fmt.Errorf("--executor slurm: %w", err)
	}
	// One array per MaxArraySize points: an array's indices stay below it.
	var jobs []int64
	for lo := 0; lo < len(missing); lo += maxSize {
		chunk := missing[lo:min(lo+maxSize, len(missing))]
		pts := make([]string, len(chunk))
		for i, pi := range chunk {
			pts[i] = strconv.Itoa(pi)
		}
		cmd := append([]string{exe, "sweep"}, p.args...)
		cmd = append(cmd, "--array-points", strings.Join(pts, ","))
		job, err := sl.SubmitArray(ctx, slurm.Array{Name: "planner-sweep", Size: len(chunk), Command: cmd, Dir: wd,
			Output: filepath.Join(logs, "%A_%a.out"), Throttle: p.arrayThrottle, CPUsPerTask: p.base.parallel, Args: p.sbatchArgs})
		if err != nil {
			p.cancelArrays(sl, jobs)
			return fmt.Errorf("--executor slurm: %w", err)
		}
		jobs = append(jobs, job)
		p.slurmArray, p.slurmPoints = job, p.slurmPoints+len(chunk)
		if p.Progress != nil {
			fmt.Fprintf(p.stderr, "sweep: %d of %d points submitted to Slurm as job array %d (its output in %s)\n", len(chunk), len(sw.Points), job, logs)
		}
	}
	for _, job := range jobs {
		if err := sl.Wait(ctx, job, slurmPoll); err != nil {
			if ctx.Err() != nil {
				// The finished elements' runs are stored; the others are
				// computed again when the sweep resumes.
				p.cancelArrays(sl, jobs)
				return ctx.Err()
			}
			return fmt.Errorf("--executor slurm: waiting for job array %d: %w", job, err)
		}
	}
	job := jobs[len(jobs)-1]
	still, err := sw.Missing()
	if err != nil {
		return err
	}
	if len(still) > 0 {
		return fmt.Errorf("--executor slurm: %d of the %d elements of job array %d stored no runs (their output: %s); the same command submits them again",
			len(still), len(missing), job, filepath.Join(logs, strconv.FormatInt(job, 10)+"_*.out"))
	}
	return nil
}

// cancelArrays cancels the job arrays jobs (an interrupted sweep).
func (p *sweepPlan) cancelArrays(sl *slurm.Slurm, jobs []int64) {
	cctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, job := range jobs {
		if err := sl.Cancel(cctx, job); err != nil {
			fmt.Fprintf(p.stderr, "sweep: cancelling Slurm job array %d: %v\n", job, err)
		}
	}
}

// arrayIndexVars are the environment variables that give an array
// element its index, one per batch system: Slurm job arrays, Kubernetes
// Indexed Jobs, PBS Pro job arrays and LSF job arrays. LSF counts from 1
// (bsub -J "sweep[1-N]"), the others from 0.
var arrayIndexVars = []string{"SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX", "PBS_ARRAY_INDEX", "LSB_JOBINDEX"}

// arrayIndex is this element's index in --array-points of n points, from
// the first of arrayIndexVars that is set.
func arrayIndex(n int) (int, error) {
	for _, v := range arrayIndexVars {
		val, ok := os.LookupEnv(v)
		if !ok {
			continue
		}
		k, err := strconv.Atoi(val)
		if v == "LSB_JOBINDEX" {
			k--
		}
		if err != nil || k < 0 || k >= n {
			return 0, fmt.Errorf("--array-points: %s is %q, want an index of its %d points (the flag is for the job array of planner sweep --executor slurm, or an indexed job of your own)", v, val, n)
		}
		return k, nil
	}
	return 0, fmt.Errorf("--array-points: no array index: none of %s is set (the flag is for the job array of planner sweep --executor slurm, or an indexed job of your own)", strings.Join(arrayIndexVars, ", "))
}

// runElement is one element of the slurm executor's job array: it
// computes point --array-points[index] of the sweep, the index from
// arrayIndex, and stores its runs.
func (p *sweepPlan) runElement(ctx context.Context, sw *experiments.Sweep) error {
	k, err := arrayIndex(len(p.arrayPoints))
	if err != nil {
		return err
	}
	pi := p.arrayPoints[k]
	if pi >= len(sw.Points) {
		return fmt.Errorf("--array-points: point %d, the sweep has %d", pi, len(sw.Points))
	}
	pt := sw.Points[pi]
	sw.Points = []experiments.SweepPoint{pt}
	_, stats, err := sw.Run(ctx)
	p.Progress.Close()
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return fmt.Errorf("%w: point %s seed %d", errInterrupted, pt.Value, pt.Seed)
		}
		return err
	}
	fmt.Fprintf(p.stderr, "sweep: point %s seed %d: %d runs computed, %d reused\n", pt.Value, pt.Seed, stats.Computed, stats.Reused)
	return nil
}
