package solver

import (
	"os"
	"testing"
)

// TestMain lets the test binary double as the solver worker process: the
// process-isolated backends re-execute the running binary (os.Executable),
// which for tests is this binary.
func TestMain(m *testing.M) {
	RunWorkerIfRequested()
	os.Exit(m.Run())
}
