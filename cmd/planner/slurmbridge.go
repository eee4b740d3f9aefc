package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/plannerhq/planner/service"
	"github.com/plannerhq/planner/service/slurm"
)

func init() {
	examples["slurm-bridge"] = "planner slurm-bridge --planner http://127.0.0.1:7070 --slurm-conf /etc/slurm/slurm.conf"
}

// slurmBridgeFlags are the settings of `planner slurm-bridge`.
type slurmBridgeFlags struct {
	url, tokenFile, slurmConf, idPrefix string
	partitions                          []string
	poll                                time.Duration
	log                                 logFlags
}

const slurmBridgeUsage = `Usage: planner slurm-bridge [--planner URL] [flags]

Puts a running planner serve in front of a Slurm cluster (docs/service.md "Run it
in front of Slurm"). Users submit their jobs to Slurm held (sbatch
--hold); the bridge submits each to the planner with its user, name,
partition, node count and time limit, and its deadline, value and
preferred partitions from the job's comment (--comment "deadline=+45m
value=5 preferred=r0"; deadline=RFC3339 also, or sbatch --deadline): a
job with a deadline is an SLO job, any other best effort. It enacts the
planner's decisions with Slurm's commands: a start places the job on
exactly its node count of the decided partitions (scontrol update
NodeList) and releases it; a preemption requeues it held. It reports
starts, completions with their runtimes (which the planner's predictor
learns), failures and drained or lost nodes.

The planner's partitions are Slurm nodes: those whose features (slurm.conf
NodeName=... Features=r0) name them, or else the nodes in slurm.conf's
order, as many per partition as the planner's cluster gives it. The
bridge keeps no state: restarted, it carries on where it stopped.
SIGTERM (or Ctrl-C) stops it; it exits 0.

Flags:`

func runSlurmBridge(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := pflag.NewFlagSet("slurm-bridge", pflag.ContinueOnError)
	fs.SetOutput(stdout)
	f := &slurmBridgeFlags{}
	fs.StringVar(&f.url, "planner", "http://127.0.0.1:7070", "the planner service's `URL`")
	fs.StringVar(&f.tokenFile, "token-file", "", "`file` holding the planner's bearer token")
	fs.StringVar(&f.slurmConf, "slurm-conf", "", "Slurm's configuration `file` (default: SLURM_CONF, or Slurm's own default)")
	fs.StringSliceVar(&f.partitions, "partitions", nil, "the Slurm `partitions` whose held jobs and nodes the planner schedules (default: all)")
	fs.StringVar(&f.idPrefix, "id-prefix", slurm.DefaultIDPrefix, "prefix of the planner's id of a Slurm job (job 42 is slurm-42)")
	fs.DurationVar(&f.poll, "poll", slurm.DefaultPoll, "time between two looks at Slurm")
	f.log.register(fs)
	if fl := fs.Lookup("log-level"); fl != nil {
		fl.DefValue, f.log.level = "info", "info" // a line per enactment and event
	}
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), slurmBridgeUsage)
		fs.PrintDefaults()
	}
	if err := parseNoArgs(fs, args, "slurm-bridge"); err != nil {
		return err
	}
	if err := f.validate(); err != nil {
		return usageError{err}
	}
	token, err := clientToken(f.tokenFile)
	if err != nil {
		return err
	}
	log, closeLog, err := f.log.open(stderr)
	if err != nil {
		return err
	}
	defer closeLog()
	b, err := slurm.New(ctx, slurm.Config{Slurm: &slurm.Slurm{Runner: slurm.Exec{Conf: f.slurmConf}},
		Planner: service.NewClient(f.url, token), Partitions: f.partitions, IDPrefix: f.idPrefix, Poll: f.poll, Log: log})
	if err != nil {
		return fmt.Errorf("slurm-bridge: %w", err)
	}
	fmt.Fprintf(stdout, "planner slurm-bridge: %s in front of Slurm (%s)\n", f.url, b.Nodes())
	return b.Run(ctx)
}

// validate checks the flags.
func (f *slurmBridgeFlags) validate() error {
	if err := f.log.validate(); err != nil {
		return err
	}
	if !strings.HasPrefix(f.url, "http://") && !strings.HasPrefix(f.url, "https://") {
		return fmt.Errorf("--planner: want the service's URL, e.g. http://127.0.0.1:7070, got %q", f.url)
	}
	if f.poll < 100*time.Millisecond {
		return fmt.Errorf("--poll: must be ≥ 100ms, got %s", f.poll)
	}
	if strings.TrimSpace(f.idPrefix) == "" {
		return errors.New("--id-prefix: must not be empty: it keeps the bridge off jobs other clients submitted")
	}
	for _, p := range f.partitions {
		if p == "" {
			return errors.New("--partitions: empty partition name")
		}
	}
	return nil
}
