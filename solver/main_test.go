package solver

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"testing"
	"time"
)

// ReturnSlack is how far past its limit (or its cancellation) a solve may
// return in the tests: enough for a loaded 2-core machine that starts child
// processes slowly and runs several test binaries at once. The tests assert
// what a solve must never break — it returns, with an answer or a clear
// status, and a worker still running at the deadline is killed — not how
// close to the limit it returns: the design bound, limit + 50 ms, is a
// measurement (BenchmarkWallLimitHardInstance, `make bench`). Each solve
// the tests bound this way would run for minutes, or hang, if its limit
// were not enforced.
const ReturnSlack = 5 * time.Second

// TestMain lets the test binary double as the solver worker process: the
// process-isolated backends re-execute the running binary (os.Executable),
// which for tests is this binary. With hogEnv set it is a CPU hog instead
// (StartCPUHogForTest).
func TestMain(m *testing.M) {
	if n, err := strconv.Atoi(os.Getenv(hogEnv)); err == nil && n > 0 {
		hog(n)
	}
	RunWorkerIfRequested()
	os.Exit(m.Run())
}

// hogEnv makes the test binary spin that many goroutines until it is
// killed, or until its standard input closes (its parent is gone).
const hogEnv = "PLANNER_SOLVER_TEST_CPU_HOG"

func hog(n int) {
	runtime.GOMAXPROCS(n)
	for range n {
		go func() {
			x := uint64(1)
			for {
				x = x*6364136223846793005 + 1442695040888963407
				if x == 0 {
					fmt.Print("")
				}
			}
		}()
	}
	io.Copy(io.Discard, os.Stdin)
	os.Exit(0)
}

// StartCPUHogForTest starts a child process that keeps n threads busy
// (2 × the cores: the solves compete for them with the hog) and returns
// the function that kills it.
func StartCPUHogForTest(t testing.TB, n int) (stop func()) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), hogEnv+"="+strconv.Itoa(n))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return func() {
		stdin.Close()
		cmd.Process.Kill()
		cmd.Wait()
	}
}
