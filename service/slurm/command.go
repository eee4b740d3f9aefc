package slurm

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// Runner runs one of Slurm's commands and returns its standard output.
// An error names the command and says what it printed on standard error.
type Runner interface {
	Run(ctx context.Context, name string, args ...string) ([]byte, error)
}

// Exec runs Slurm's commands as processes, found on PATH.
type Exec struct {
	// Conf, when set, is the slurm.conf the commands read (SLURM_CONF);
	// otherwise they read Slurm's default.
	Conf string
	// Env is added to the commands' environment.
	Env []string
}

// Run runs name with args.
func (e Exec) Run(ctx context.Context, name string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = os.Environ()
	if e.Conf != "" {
		cmd.Env = append(cmd.Env, "SLURM_CONF="+e.Conf)
	}
	cmd.Env = append(cmd.Env, e.Env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return out, commandError(name, args, err, stderr.String())
	}
	return out, nil
}

// CommandError is a Slurm command that failed: the command line, how it
// ended and the first line it printed on standard error.
type CommandError struct {
	Command string
	Err     error
	Stderr  string
}

func (e *CommandError) Error() string {
	if e.Stderr == "" {
		return fmt.Sprintf("%s: %v", e.Command, e.Err)
	}
	return fmt.Sprintf("%s: %v: %s", e.Command, e.Err, e.Stderr)
}

func (e *CommandError) Unwrap() error { return e.Err }

// commandError makes the error of a failed command; a missing command
// says how to get Slurm's tools.
func commandError(name string, args []string, err error, stderr string) error {
	line := name
	if len(args) > 0 {
		line += " " + strings.Join(args, " ")
	}
	if errors.Is(err, exec.ErrNotFound) {
		return &CommandError{Command: line, Err: fmt.Errorf("%w (install Slurm's client commands)", err)}
	}
	first, _, _ := strings.Cut(strings.TrimSpace(stderr), "\n")
	return &CommandError{Command: line, Err: err, Stderr: strings.TrimSpace(first)}
}
