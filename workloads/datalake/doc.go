// Package datalake generates a data lake to schedule (Wing §2, §6):
// organisations with hierarchical queues, recurring and ad-hoc job
// templates whose jobs read each other's outputs, the real world those
// jobs ran in, the provenance log of its history (Log) and, for the
// window to schedule, the jobs' submission records (WindowJobs) and the
// truth a simulator needs (Truth).
//
// # The lake
//
// Organisations have users; users own templates. Recurring templates
// come in workflows: a periodic root (hourly, or daily at a time of the
// night) that reads an external stream or another workflow's output,
// then members that read one or two earlier members and sometimes
// another workflow's output. A member is polling (submitted when its
// inputs appear) or periodic (submitted on the clock after the time its
// inputs are due). An hourly workflow ends in a daily roll-up of its
// last member's 24 outputs; some daily members read their own previous
// output. A quarter of the workflows are private: nothing outside reads
// them and they read nothing outside. Aperiodic templates (1.5–8 jobs a
// day, at random) read workflows' outputs, some followed by a polling
// template. Ad-hoc scripts (about 540 a day at scale 1, in business
// hours) read the latest outputs of up to three recurring templates and
// sometimes their user's previous script's; a fifth are run twice.
//
// Every job writes its own partition (template/instance); snapshot
// templates also overwrite template/latest. A job's gang width is its
// minimum parallelism, the tokens it holds for its runtime.
//
// Dependencies (Table 1, §6.3):
//   - hard: the job expects particular outputs at submission — a
//     periodic job those of the upstream due (n·Period + Bound) within its
//     own period before it, the same number every time; an aperiodic or
//     faster job the latest due; an ad-hoc job the latest written — and
//     fails without them;
//   - polling: instance n waits for instance n of each input;
//   - soft: the job reads what the upstream wrote within a lookback of
//     (k + f) upstream periods (f in [0.3, 0.7], so the count varies)
//     and never fails for it.
//
// Users plan by Bound: an upstream instance is expected done by its slot
// plus its median runtime × e^{2.58σ} plus ten minutes of queueing,
// chained through polling inputs. At nominal capacity this holds for
// nearly every job; at lower capacity queueing breaks it, and hard
// dependents fail.
//
// # User priorities
//
// Priorities are 1–9, higher first, and never read value. A user has a
// level, their organisation's habitual level plus −1…+2. A recurring
// template copies the priority of one of its upstream templates with
// probability 0.55 (script inheritance, §2.2), else takes its user's
// level ±1; then downstream priorities are nudged (set equal to, or one
// above, a producer's) until 21 % of recurring templates are read by a
// recurring template of higher priority (Observation 2). A recurring job
// runs at its template's priority, or one level off it (40 % of jobs,
// half each way: a user adjusting one run). An ad-hoc script's priority
// is its user's level −2…+2.
//
// # Value
//
// A job's job-local value is the downloads of its outputs within a week
// of its completion (§6.3). Jobs are ranked by a latent score — their
// template's popularity plus job noise — within their week, and the job
// of rank r of N gets Poisson(0.2·N/r) downloads: Zipfian with s = 1.
// Download times follow the completion by an exponential delay of the
// template's mean, truncated to the week.
//
// # The real world
//
// One simulation plays all jobs from the lead-in to the end of week 3
// (sim.go): every organisation's queue at its nominal size, jobs ordered
// by user priority within the queue (the Cosmos default), each started
// as soon as its gang fits (greedy list scheduling). Hard inputs are
// resolved at submission, soft ones at the start; a job reads at start
// and writes at end. The nominal queues are sized on the demand of a run
// with unbounded queues: an organisation's 99th percentile of tokens
// held, over 1.2, and at least five of its widest gangs (gangs are
// capped to fit), so every job fits its queue at 20 % capacity. At
// nominal capacity nearly every job completes, as in §7; at a fraction
// of it queueing makes hard dependents fail and downloads go unmet
// (TestCapacityCalibration).
//
// Times are seconds from the start of week 3, the window: [0, Week).
// Weeks 1–2 are the history, [−2 Week, 0), after a three-day lead-in.
// Everything is drawn from Params.Seed.
package datalake
