package solver

import (
	"os"
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
// which for tests is this binary.
func TestMain(m *testing.M) {
	RunWorkerIfRequested()
	os.Exit(m.Run())
}
