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

// slurmPoll is how often the slurm executor looks whether its job array
// has ended.
const slurmPoll = time.Second

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
	pts := make([]string, len(missing))
	for i, pi := range missing {
		pts[i] = strconv.Itoa(pi)
	}
	cmd := append([]string{exe, "sweep"}, p.args...)
	cmd = append(cmd, "--array-points", strings.Join(pts, ","))
	sl := &slurm.Slurm{Runner: slurm.Exec{}}
	job, err := sl.SubmitArray(ctx, slurm.Array{Name: "planner-sweep", Size: len(missing), Command: cmd, Dir: wd,
		Output: filepath.Join(logs, "%A_%a.out"), Args: p.sbatchArgs})
	if err != nil {
		return fmt.Errorf("--executor slurm: %w", err)
	}
	p.slurmArray, p.slurmPoints = job, len(missing)
	if p.Progress != nil {
		fmt.Fprintf(p.stderr, "sweep: %d of %d points submitted to Slurm as job array %d (its output in %s)\n", len(missing), len(sw.Points), job, logs)
	}
	if err := sl.Wait(ctx, job, slurmPoll); err != nil {
		if ctx.Err() != nil {
			// The finished elements' runs are stored; the others are
			// computed again when the sweep resumes.
			cctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			if cerr := sl.Cancel(cctx, job); cerr != nil {
				fmt.Fprintf(p.stderr, "sweep: cancelling Slurm job array %d: %v\n", job, cerr)
			}
			return ctx.Err()
		}
		return fmt.Errorf("--executor slurm: waiting for job array %d: %w", job, err)
	}
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

// runElement is one element of the slurm executor's job array: it
// computes point --array-points[SLURM_ARRAY_TASK_ID] of the sweep and
// stores its runs.
func (p *sweepPlan) runElement(ctx context.Context, sw *experiments.Sweep) error {
	task := os.Getenv("SLURM_ARRAY_TASK_ID")
	k, err := strconv.Atoi(task)
	if err != nil || k < 0 || k >= len(p.arrayPoints) {
		return fmt.Errorf("--array-points: SLURM_ARRAY_TASK_ID is %q, want an index of its %d points (the flag is for the job array of planner sweep --executor slurm)", task, len(p.arrayPoints))
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
