// Package slurm puts the planner service in front of a Slurm cluster: a
// bridge (Bridge) that submits the jobs users hold in Slurm to the
// service, enacts the service's decisions with Slurm's own commands
// (placement on exactly the nodes the plan chose, release, requeue) and
// reports what Slurm did (starts, completions with their measured
// runtimes, failures) as events; and the job arrays a sweep runs its
// points in (SubmitArray, Wait).
//
// It is a client of the service's HTTP API and of Slurm's command-line
// tools (squeue, sinfo, scontrol, sbatch, sacct, scancel), run through a
// Runner so that tests can stand in for Slurm; nothing in package
// service knows Slurm.
package slurm
