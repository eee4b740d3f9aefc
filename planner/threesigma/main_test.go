package threesigma

import (
	"os"
	"testing"

	"github.com/plannerhq/planner/solver"
)

// TestMain lets the test binary double as the solver worker process.
func TestMain(m *testing.M) {
	solver.RunWorkerIfRequested()
	os.Exit(m.Run())
}
