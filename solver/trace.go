package solver

import (
	"fmt"
	"os"
)

// TraceEnv, when set to 1, makes a solve print a timestamped mark at each
// stage (analysis, constructions, worker start-up, model transfer, LP,
// verification) on standard error: "solver-trace <who> <stage>
// <Unix ns> <processor ns>", who being "parent" or "child". It is for measuring where a
// time-limited solve spends its budget; nothing is printed by default.
const TraceEnv = "PLANNER_SOLVER_TRACE"

var traceOn = os.Getenv(TraceEnv) == "1"

// traceMark prints one trace line when tracing is on, with the processor
// time the process has used so far (user + system, ns) as a last field.
func traceMark(who, stage string) {
	if traceOn {
		fmt.Fprintf(os.Stderr, "solver-trace %s %s %d %d\n", who, stage, wallNow().UnixNano(), processCPU().Nanoseconds())
	}
}
