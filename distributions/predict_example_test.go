package distributions_test

import (
	"fmt"
	"os"

	"github.com/plannerhq/planner/distributions"
)

// 3σPredict learns from completed jobs and hands each new job the runtime
// histogram of its most accurate expert. Here alice's "etl" job always takes
// 300 s while her other jobs vary, so the job-name expert wins.
func ExamplePredictor() {
	p, err := distributions.NewPredictor(nil) // 80 bins, α = 0.6, MinHistory 3
	if err != nil {
		fmt.Println(err)
		return
	}
	etl := distributions.JobAttrs{User: "alice", Name: "etl", SubmitHour: 9, SubmitDay: 1}
	adhoc := distributions.JobAttrs{User: "alice", Name: "adhoc", SubmitHour: 9, SubmitDay: 1}
	for _, x := range []float64{40, 900, 120, 2000, 60} {
		_ = p.Observe(etl.Features(), 300)
		_ = p.Observe(adhoc.Features(), x)
	}

	pr := p.Predict(etl.Features())
	fmt.Printf("source %v, expert %v, NMAE %.2f, estimate %.0f s over %d runtimes\n",
		pr.Source, pr.Expert, pr.NMAE, pr.Estimate, pr.History)
	fmt.Printf("P(T ≤ 300 s) = %.2f\n", pr.Dist.CDF(300))

	// A new user's job falls back to the history of all jobs.
	pr = p.Predict(distributions.JobAttrs{User: "bob", Name: "train"}.Features())
	fmt.Printf("source %v, expert %v over %d runtimes\n", pr.Source, pr.Expert, pr.History)

	// The state survives a restart.
	data, _ := p.MarshalBinary()
	var restored distributions.Predictor
	fmt.Println(restored.UnmarshalBinary(data), restored.Count())
	// Output:
	// source expert, expert name=etl/mean, NMAE 0.00, estimate 300 s over 5 runtimes
	// P(T ≤ 300 s) = 1.00
	// source global, expert global/median over 10 runtimes
	// <nil> 10
}

// The estimate-error profile of Fig. 2(d) of the 3Sigma paper, as printed
// by `planner predict eval`.
func ExampleProfileEstimateErrors() {
	estimates := []float64{100, 150, 200, 50, 0, 120, 104, 196, 56}
	actuals := []float64{100, 100, 100, 100, 100, 100, 100, 100, 100}
	p, err := distributions.ProfileEstimateErrors(estimates, actuals)
	if err != nil {
		fmt.Println(err)
		return
	}
	_ = p.WriteTable(os.Stdout)
	// Output:
	// error      jobs  share
	// < -95%        1  11.1%
	// -90%          0   0.0%
	// -80%          0   0.0%
	// -70%          0   0.0%
	// -60%          0   0.0%
	// -50%          1  11.1%
	// -40%          1  11.1%
	// -30%          0   0.0%
	// -20%          0   0.0%
	// -10%          0   0.0%
	// +0%           2  22.2%
	// +10%          0   0.0%
	// +20%          1  11.1%
	// +30%          0   0.0%
	// +40%          0   0.0%
	// +50%          1  11.1%
	// +60%          0   0.0%
	// +70%          0   0.0%
	// +80%          0   0.0%
	// +90%          0   0.0%
	// ≥ +95%        2  22.2%
	// jobs 9
	// within ±5%: 22.2%, within ±25%: 33.3%, off by 2× or more: 33.3%
	// above +95%: 22.2%, below -55%: 11.1%
}
