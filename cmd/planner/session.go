package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/rs/zerolog"
	"github.com/spf13/pflag"

	"github.com/plannerhq/planner/experiments"
)

// errInterrupted ends a command stopped by SIGINT or SIGTERM (exit 130,
// as a shell reports a command killed by Ctrl-C).
var errInterrupted = errors.New("interrupted")

// exitInterrupted is the exit status of an interrupted command.
const exitInterrupted = 130

// interruptible returns a context cancelled by the first SIGINT or
// SIGTERM, so that a command can write what has finished and exit; a
// second signal removes the temporary files of writes under way and exits
// at once. stop ends the watch.
func interruptible(stderr io.Writer) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		n := 0
		for {
			select {
			case <-sig:
			case <-done:
				return
			}
			n++
			if n == 1 {
				fmt.Fprintln(stderr, "planner: interrupted: finishing what is under way (interrupt again to quit at once)")
				cancel()
				continue
			}
			experiments.RemoveTempFiles()
			os.Exit(exitInterrupted)
		}
	}()
	return ctx, func() {
		signal.Stop(sig)
		close(done)
		cancel()
	}
}

// wasInterrupted reports whether err is ctx's cancellation.
func wasInterrupted(ctx context.Context, err error) bool {
	return ctx.Err() != nil && errors.Is(err, context.Canceled)
}

// logFlags are --log-level and --log-file.
type logFlags struct {
	level, file string
}

// logLevels are the levels --log-level takes, most quiet first.
var logLevels = []string{"error", "warn", "info", "debug"}

func (l *logFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&l.level, "log-level", "warn", "log level: "+strings.Join(logLevels, ", ")+" (debug: a line per cycle and per decision)")
	fs.StringVar(&l.file, "log-file", "", "write the log as JSON lines to this file (default: standard error, as text)")
}

// validate checks the level.
func (l *logFlags) validate() error {
	for _, v := range logLevels {
		if l.level == v {
			return nil
		}
	}
	return fmt.Errorf("--log-level: want one of %s, got %q", strings.Join(logLevels, ", "), l.level)
}

// open returns the logger the flags ask for and a function that closes
// its file: JSON lines into --log-file, or text on stderr. The file is
// created (or truncated) here, readable by its owner only, so that a
// path that cannot be written fails before any work.
func (l *logFlags) open(stderr io.Writer) (zerolog.Logger, func() error, error) {
	lvl, err := zerolog.ParseLevel(l.level)
	if err != nil {
		return zerolog.Nop(), nil, fmt.Errorf("--log-level: %w", err)
	}
	if l.file == "" {
		w := zerolog.ConsoleWriter{Out: stderr, NoColor: !isTerminal(stderr), TimeFormat: time.TimeOnly}
		return zerolog.New(w).Level(lvl).With().Timestamp().Logger(), func() error { return nil }, nil
	}
	f, err := os.OpenFile(l.file, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return zerolog.Nop(), nil, fmt.Errorf("--log-file: %w", err)
	}
	return zerolog.New(f).Level(lvl).With().Timestamp().Logger(), f.Close, nil
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}

// newProgress is the progress of a batch of simulations on stderr, nil
// when quiet.
func newProgress(stderr io.Writer, label string, quiet bool) *experiments.Progress {
	if quiet {
		return nil
	}
	return experiments.NewProgress(stderr, label, isTerminal(stderr), time.Now)
}

// checkOutDir makes the results directory and checks that files can be
// written into it, so that a bad --out fails before the work, not after.
func checkOutDir(dir string) error {
	if dir == "" {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	f, err := os.CreateTemp(dir, ".planner-write-check-*")
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("--out: %s: cannot write into it: %w", dir, err)
	}
	f.Close()
	return os.Remove(filepath.Clean(f.Name()))
}

// commandLine is the command line of a subcommand, for provenance.
func commandLine(cmd string, args []string) []string {
	return append([]string{"planner", cmd}, args...)
}
