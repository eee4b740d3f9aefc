package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/plannerhq/planner/planner/registry"
	"github.com/plannerhq/planner/service"
	"github.com/plannerhq/planner/solver"
)

func init() {
	examples["serve"] = "planner serve --listen 127.0.0.1:7070 --data /var/lib/planner --cluster examples/cluster-rc256.yaml"
	examples["replay"] = "planner replay --workload w.jsonl --service http://127.0.0.1:7070"
}

// serveFlags are the settings of `planner serve`.
type serveFlags struct {
	listen, data, cluster, tokenFile string
	scheduler, solver, clock         string
	interval, solverTimeout, horizon time.Duration
	snapshotEvery                    time.Duration
	seed                             uint64
	maxPending                       int
	deterministic                    bool
	check, noAuth                    bool
	recoverTo                        string
	allowHosts                       []string
	log                              logFlags
}

const serveUsage = `Usage: planner serve --data DIR [flags]

Runs the planning cycle as a service in front of a cluster manager: every
--interval it plans the pending jobs with --scheduler (the simulator's
policies) and publishes the starts and preemptions to enact. Clients use
the HTTP/JSON API (docs/service.md "Run it as a service"): POST /v1/jobs,
POST /v1/jobs/{id}/events, GET /v1/decisions, GET /v1/plan,
PUT /v1/cluster, GET /metrics, GET /healthz, GET /readyz, and the
operator page at /. Everything it accepts is written to its database
under --data before it answers; a restart resumes from it. SIGTERM (or
Ctrl-C) finishes the cycle in flight, answers the requests under way and
exits 0.

Every request must carry "Authorization: Bearer TOKEN" (the page: the
token as the password). The token is --token-file's or, by default, the
one the first start generates into --data/token (0600) and prints; only
on a loopback --listen may --no-auth serve without one. Writes must be
Content-Type: application/json, and requests from a web page of another
site (Origin) or for another host name (Host) are refused.

Flags:`

func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := pflag.NewFlagSet("serve", pflag.ContinueOnError)
	fs.SetOutput(stdout)
	f := &serveFlags{}
	fs.StringVar(&f.listen, "listen", "127.0.0.1:7070", "`address` to listen on (host:port; port 0 picks a free one)")
	fs.StringVar(&f.data, "data", "", "`directory` of the service's database (created if missing; required)")
	fs.StringVar(&f.cluster, "cluster", "", "cluster `FILE` (JSON or YAML) of a new --data directory (default 256 nodes in 8 racks); later starts use the stored one")
	fs.StringVar(&f.tokenFile, "token-file", "", "`file` holding the bearer token every request must carry (at least 16 characters; default: --data's token file, generated at the first start)")
	fs.BoolVar(&f.noAuth, "no-auth", false, "serve without a token (a loopback --listen only): every local user can then submit jobs")
	fs.StringSliceVar(&f.allowHosts, "allow-host", nil, "host `names` a request's Host may give besides IP addresses, localhost and this machine's name")
	fs.StringVar(&f.scheduler, "scheduler", service.DefaultScheduler, "the policy (registered: "+strings.Join(registry.Default().Names(), ", ")+")")
	fs.StringVar(&f.solver, "solver", "", "MILP backend of the planning policies (default "+solver.DefaultName+")")
	fs.DurationVar(&f.interval, "interval", service.DefaultInterval, "time between cycles")
	fs.DurationVar(&f.solverTimeout, "solver-timeout", 0, "time limit of one solve (0: 75% of --interval)")
	fs.DurationVar(&f.horizon, "horizon", 0, "plan-ahead horizon (0: the policy's default)")
	decimalVar(fs, &f.maxPending, "max-pending", service.DefaultMaxPending, "pending jobs one cycle plans at most, by priority (0: all)")
	decimalVar(fs, &f.seed, "seed", 1, "seed of the policy's randomness")
	fs.BoolVar(&f.deterministic, "deterministic", false, "bound solves by work instead of the clock (the same input gives the same decisions; for tests and replay)")
	fs.StringVar(&f.clock, "clock", "wall", "wall, or virtual: a test clock that moves only by POST /v1/clock (planner replay)")
	fs.DurationVar(&f.snapshotEvery, "snapshot-every", service.DefaultSnapshotEvery, "rewrite the predictor's snapshot at most this often (the log keeps what it learnt since)")
	fs.BoolVar(&f.check, "check", false, "verify the database in --data (every record's checksum) and exit, without serving or changing it")
	fs.StringVar(&f.recoverTo, "recover-to", "", "copy what is readable of a damaged database in --data into the new `directory`, and exit")
	f.log.register(fs)
	if fl := fs.Lookup("log-level"); fl != nil {
		fl.DefValue, f.log.level = "info", "info" // a service logs its decisions
	}
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), serveUsage)
		fs.PrintDefaults()
	}
	if err := parseNoArgs(fs, args, "serve"); err != nil {
		return err
	}
	cfg, err := f.config()
	if err != nil {
		return usageError{err}
	}
	if f.check || f.recoverTo != "" {
		return checkData(stdout, f.data, f.recoverTo)
	}
	if f.cluster != "" {
		c, err := readCluster(f.cluster)
		if err != nil {
			return usageError{err}
		}
		cfg.Cluster = c
	}
	var newToken bool
	switch {
	case f.tokenFile != "" && f.noAuth:
		return usageError{errors.New("--no-auth: a service with --token-file has a token")}
	case f.tokenFile != "":
		if cfg.Token, err = readToken(f.tokenFile); err != nil {
			return usageError{err}
		}
	case !f.noAuth:
		f.tokenFile = filepath.Join(f.data, tokenFileName)
		if cfg.Token, newToken, err = dataToken(f.data); err != nil {
			return usageError{err}
		}
	}
	if err := checkListen(f.listen, cfg.Token != nil); err != nil {
		return usageError{err}
	}
	cfg.Hosts = append(f.allowHosts, machineNames(f.listen)...)
	log, closeLog, err := f.log.open(stderr)
	if err != nil {
		return err
	}
	defer closeLog()
	cfg.Log = log
	svc, err := service.Open(cfg)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", f.listen)
	if err != nil {
		svc.Close()
		return fmt.Errorf("--listen: %w", err)
	}
	warnSolverFallback(stderr, f.solver)
	fmt.Fprintf(stdout, "planner serve: listening on http://%s (scheduler %s, clock %s, data %s)\n", ln.Addr(), cfg.Scheduler, cfg.Clock, cfg.DataDir)
	switch {
	case newToken:
		fmt.Fprintf(stdout, "planner serve: generated the token %s into %s; clients send it as \"Authorization: Bearer TOKEN\" (--token-file %s)\n", cfg.Token, f.tokenFile, f.tokenFile)
	case cfg.Token != nil:
		fmt.Fprintf(stdout, "planner serve: clients need the token of %s (--token-file %s)\n", f.tokenFile, f.tokenFile)
	}
	return svc.Run(ctx, ln)
}

// config checks the flags and makes the service's configuration.
func (f *serveFlags) config() (service.Config, error) {
	if err := f.log.validate(); err != nil {
		return service.Config{}, err
	}
	if strings.TrimSpace(f.data) == "" {
		return service.Config{}, errors.New("--data: required: the directory of the service's database")
	}
	clock, err := service.ParseClockMode(f.clock)
	if err != nil {
		return service.Config{}, fmt.Errorf("--clock: %w", err)
	}
	switch {
	case f.interval <= 0:
		return service.Config{}, fmt.Errorf("--interval: must be > 0, got %s", f.interval)
	case f.maxPending < 0:
		return service.Config{}, fmt.Errorf("--max-pending: must be ≥ 0, got %d", f.maxPending)
	case f.solverTimeout > maxSolveLimit:
		return service.Config{}, fmt.Errorf("--solver-timeout: must be at most %s, got %s", maxSolveLimit, f.solverTimeout)
	case f.snapshotEvery < 0:
		return service.Config{}, fmt.Errorf("--snapshot-every: must be ≥ 0, got %s", f.snapshotEvery)
	}
	maxPending := f.maxPending
	if maxPending == 0 {
		maxPending = -1 // the service's "all"
	}
	snap := f.snapshotEvery
	if snap == 0 {
		snap = -1 // after every cycle that learnt something
	}
	return service.Config{DataDir: f.data, Interval: f.interval, Scheduler: f.scheduler, Solver: f.solver,
		SolverTimeout: f.solverTimeout, Horizon: f.horizon, Deterministic: f.deterministic, Seed: f.seed,
		MaxPending: maxPending, Clock: clock, SnapshotEvery: snap, Version: buildVersion()}, nil
}

// checkData is serve --check and --recover-to: it verifies the database
// in dir, or copies what is readable of it into to.
func checkData(stdout io.Writer, dir, to string) error {
	if to != "" {
		copied, seen, err := service.Recover(dir, to, time.Now())
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "planner serve: copied %d records into %s", copied, to)
		if seen > 0 {
			fmt.Fprintf(stdout, "; records %d to %d are lost", copied+1, seen)
		}
		fmt.Fprintf(stdout, "\nplanner serve: check it with --check --data %s, then serve it with --data %s\n", to, to)
		return nil
	}
	rep, err := service.Check(dir)
	if err != nil {
		return err
	}
	if rep.Warning != "" {
		fmt.Fprintf(stdout, "planner serve: warning: %s\n", rep.Warning)
	}
	fmt.Fprintf(stdout, "planner serve: %s is sound: %d bytes, %d records, %d jobs, predictor snapshot at record %d\n",
		rep.Path, rep.Bytes, rep.Records, rep.Jobs, rep.Snapshot)
	return nil
}

// Bounds of a token: 16 characters of a random token are 80 bits or
// more; a file of more than 4 KiB is not a token.
const (
	minTokenLen = 16
	maxTokenLen = 4 << 10
)

// readToken reads the token of --token-file: its content without the
// surrounding white space. The file must be readable by its owner only.
func readToken(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, flagPathError("--token-file", path, err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil {
		return nil, flagPathError("--token-file", path, err)
	} else if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("--token-file: %s is not a regular file", path)
	} else if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return nil, fmt.Errorf("--token-file: %s is readable by others (mode %04o); make it the owner's alone: chmod 600 %s", path, perm, path)
	}
	b, err := io.ReadAll(io.LimitReader(f, maxTokenLen+2))
	if err != nil {
		return nil, flagPathError("--token-file", path, err)
	}
	tok := strings.TrimSpace(string(b))
	switch {
	case tok == "":
		return nil, fmt.Errorf("--token-file: %s is empty; put a token of at least %d characters in it", path, minTokenLen)
	case len(tok) > maxTokenLen:
		return nil, fmt.Errorf("--token-file: %s: the token is longer than %d bytes", path, maxTokenLen)
	case len(tok) < minTokenLen:
		return nil, fmt.Errorf("--token-file: %s: the token has %d characters, want at least %d", path, len(tok), minTokenLen)
	case strings.ContainsAny(tok, " \t\r\n"):
		return nil, fmt.Errorf("--token-file: %s: the token holds white space; put the token alone in the file", path)
	case !printableASCII(tok):
		return nil, fmt.Errorf("--token-file: %s: the token holds a control or non-ASCII character; use printable ASCII", path)
	}
	return []byte(tok), nil
}

// printableASCII reports whether s is made of the characters ! to ~ (a
// token travels in an HTTP header).
func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '!' || s[i] > '~' {
			return false
		}
	}
	return true
}

// tokenFileName is the token a service generates in --data.
const tokenFileName = "token"

// dataToken returns the token of dir's token file, generating it (256
// random bits in hex, 0600) when there is none; created says that it
// was.
func dataToken(dir string) (tok []byte, created bool, err error) {
	path := filepath.Join(dir, tokenFileName)
	if _, err := os.Stat(path); err == nil {
		tok, err := readToken(path)
		return tok, false, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, false, fmt.Errorf("--data: %w", err)
	}
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, false, fmt.Errorf("generating a token: %w", err)
	}
	tok = []byte(hex.EncodeToString(b[:]))
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, false, fmt.Errorf("--data: writing the token: %w", err)
	}
	if _, err := f.Write(append(tok, '\n')); err != nil {
		f.Close()
		return nil, false, fmt.Errorf("--data: writing the token: %w", err)
	}
	if err := f.Close(); err != nil {
		return nil, false, fmt.Errorf("--data: writing the token: %w", err)
	}
	return tok, true, nil
}

// machineNames are the host names a request may give for a service on
// listen: the machine's name and a name in --listen.
func machineNames(listen string) []string {
	var names []string
	if h, err := os.Hostname(); err == nil {
		names = append(names, h)
		if short, _, ok := strings.Cut(h, "."); ok {
			names = append(names, short)
		}
	}
	if host, _, err := net.SplitHostPort(listen); err == nil && host != "" && net.ParseIP(host) == nil {
		names = append(names, host)
	}
	return names
}

// clientToken is the bearer token a client command sends: the content
// of --token-file, or none without one.
func clientToken(path string) (string, error) {
	if path == "" {
		return "", nil
	}
	t, err := readToken(path)
	if err != nil {
		return "", usageError{err}
	}
	return string(t), nil
}

// checkListen refuses an address other than loopback without a token:
// anyone who reaches the port could submit jobs and report events.
func checkListen(addr string, token bool) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--listen: %q: want host:port, e.g. 127.0.0.1:7070", addr)
	}
	if token || host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("--listen: %s is not a loopback address; give --token-file too, so that only holders of the token can use the service", addr)
}
