package slurm

import (
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

// scripted answers each command with the next of its replies and records
// the command lines.
type scripted struct {
	replies []reply
	calls   [][]string
}

type reply struct {
	out string
	err error
}

func (s *scripted) Run(_ context.Context, name string, args ...string) ([]byte, error) {
	s.calls = append(s.calls, append([]string{name}, args...))
	if len(s.replies) == 0 {
		return nil, errors.New("no reply scripted")
	}
	r := s.replies[0]
	s.replies = s.replies[1:]
	return []byte(r.out), r.err
}

func TestSubmitArray(t *testing.T) {
	r := &scripted{replies: []reply{{out: "42;plannertest\n"}}}
	s := &Slurm{Runner: r}
	job, err := s.SubmitArray(context.Background(), Array{Name: "sweep", Size: 3, Command: []string{"/bin/planner", "sweep", "--vary", "load=1,2", "it's"},
		Dir: "/work", Output: "/out/%A_%a.out", Args: []string{"--partition=batch"}})
	if err != nil || job != 42 {
		t.Fatalf("got %d, %v; want 42", job, err)
	}
	call := r.calls[0]
	want := []string{"sbatch", "--parsable", "--array=0-2", "--job-name", "sweep", "--chdir", "/work", "--output", "/out/%A_%a.out", "--partition=batch"}
	if !slices.Equal(call[:len(want)], want) {
		t.Errorf("sbatch options %q, want %q", call[:len(want)], want)
	}
	// The script, then the command as its arguments, quoted by nobody.
	if got := call[len(want)+1:]; !slices.Equal(got, []string{"/bin/planner", "sweep", "--vary", "load=1,2", "it's"}) {
		t.Errorf("script arguments %q", got)
	}
	if _, err := os.Stat(call[len(want)]); !os.IsNotExist(err) {
		t.Errorf("the batch script %s is left behind (%v)", call[len(want)], err)
	}

	for _, tc := range []struct {
		name string
		a    Array
		out  string
		want string
	}{
		{"no elements", Array{Name: "x", Command: []string{"true"}}, "", "job array x: 0 elements, want at least 1"},
		{"no command", Array{Name: "x", Size: 1}, "", "job array x: no command"},
		{"not an id", Array{Name: "x", Size: 1, Command: []string{"true"}}, "Submitted batch job 7", `sbatch printed "Submitted batch job 7", want a job id`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &Slurm{Runner: &scripted{replies: []reply{{out: tc.out}}}}
			if _, err := s.SubmitArray(context.Background(), tc.a); err == nil || err.Error() != tc.want {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

func TestWait(t *testing.T) {
	down := &CommandError{Command: "squeue", Err: errors.New("exit status 1"), Stderr: "slurm_load_jobs error: Unable to contact slurm controller"}
	gone := &CommandError{Command: "squeue", Err: errors.New("exit status 1"), Stderr: "slurm_load_jobs error: Invalid job id specified"}
	for _, tc := range []struct {
		name    string
		replies []reply
		looks   int
		err     bool
	}{
		{"ends", []reply{{out: "7_[2-3]\n7_1\n"}, {out: "7_3\n"}, {out: ""}}, 3, false},
		{"forgotten", []reply{{out: "7_1\n"}, {err: gone}}, 2, false},
		{"controller away a while", []reply{{err: down}, {err: down}, {out: "7_1\n"}, {err: down}, {out: ""}}, 5, false},
		{"controller gone", []reply{{err: down}, {err: down}, {err: down}, {err: down}, {err: down}}, maxCommandErrors, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &scripted{replies: tc.replies}
			err := (&Slurm{Runner: r}).Wait(context.Background(), 7, time.Millisecond)
			if (err != nil) != tc.err || len(r.calls) != tc.looks {
				t.Errorf("%d looks, error %v; want %d looks, error %v", len(r.calls), err, tc.looks, tc.err)
			}
			if got := strings.Join(r.calls[0], " "); got != "squeue --noheader --jobs 7 --format %i" {
				t.Errorf("looks with %q", got)
			}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := (&Slurm{Runner: &scripted{replies: []reply{{out: "7_1\n"}}}}).Wait(ctx, 7, time.Hour); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

func TestSubmitArrayThrottleAndCPUs(t *testing.T) {
	r := &scripted{replies: []reply{{out: "7\n"}}}
	s := &Slurm{Runner: r}
	if _, err := s.SubmitArray(context.Background(), Array{Name: "sweep", Size: 10, Command: []string{"/bin/true"}, Throttle: 2, CPUsPerTask: 4}); err != nil {
		t.Fatal(err)
	}
	want := []string{"sbatch", "--parsable", "--array=0-9%2", "--job-name", "sweep", "--cpus-per-task=4"}
	if got := r.calls[0][:len(want)]; !slices.Equal(got, want) {
		t.Errorf("sbatch options %q, want %q", got, want)
	}
}

func TestMaxArraySize(t *testing.T) {
	for _, tc := range []struct {
		name, config string
		want         int
		err          bool
	}{
		{"set", "Configuration data as of 2024-01-01T00:00:00\nMaxArraySize            = 40\nMaxJobCount = 10000\n", 40, false},
		{"unset", "MaxJobCount = 10000\n", 1001, false},
		{"disabled", "MaxArraySize = 0\n", 0, true},
		{"garbage", "MaxArraySize = lots\n", 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &Slurm{Runner: &scripted{replies: []reply{{out: tc.config}}}}
			got, err := s.MaxArraySize(context.Background())
			if (err != nil) != tc.err || got != tc.want {
				t.Errorf("MaxArraySize = %d, %v; want %d (error %v)", got, err, tc.want, tc.err)
			}
		})
	}
}
