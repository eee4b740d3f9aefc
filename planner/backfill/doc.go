// Package backfill is FCFS with EASY backfilling, on requested times
// (backfill) or on 3σPredict's point estimates (backfill-pred): the
// baselines HPC sites run today.
package backfill
