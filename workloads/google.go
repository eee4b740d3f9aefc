package workloads

import "fmt"

// GeneratorGoogle is the Header.Generator of GenerateGoogle's workloads.
const GeneratorGoogle = "google"

// googleModel is the Google-trace-like environment of 3Sigma §5 (E2E):
// mostly recurring jobs of many users in four runtime classes, with
// well-predictable names (lognormal σ 0.05–0.25), 10% of jobs from
// variable names (σ 0.4–0.8), a 2.5% outlier mode, and gang sizes that vary
// by halving or doubling 15% of the time each. Its difficulty defaults give
// 8–12% of jobs off by a factor of two or more under 3σPredict, as 3Sigma
// §2.1 reports for the Google trace.
var googleModel = envModel{
	name: GeneratorGoogle,
	difficulty: func(p *Params) {
		p.Drift = 0.1
		p.OutlierShare, p.OutlierMin, p.OutlierMax = 0.025, 2.5, 8
		p.VariableShare = 0.10
	},
	classes: []runtimeClass{
		{kind: "short", share: 0.46, names: 40, medLo: 60, medHi: 720, gangAlpha: 0.9, gangMax: 1024},
		{kind: "medium", share: 0.30, names: 30, medLo: 720, medHi: 2100, gangAlpha: 1.0, gangMax: 1024},
		{kind: "long", share: 0.18, names: 20, medLo: 2100, medHi: 6000, gangAlpha: 1.2, gangMax: 512},
		{kind: "very-long", share: 0.06, names: 10, medLo: 6000, medHi: 14400, gangAlpha: 1.5, gangMax: 256},
	},
	nameZipf:      0.9,
	userZipf:      1.0,
	appZipf:       1.0,
	numUsers:      24,
	numApps:       10,
	stableSigma:   [2]float64{0.05, 0.25},
	variableSigma: [2]float64{0.4, 0.8},
	halve:         0.15,
	double:        0.15,
}

// DefaultGoogleParams are DefaultParams(GeneratorGoogle): the E2E defaults
// of 3Sigma §5 with drift 0.1, 2.5% outliers by 2.5–8× and 10% variable
// jobs.
func DefaultGoogleParams() Params { return mustDefault(GeneratorGoogle) }

// GenerateGoogle is Generate(GeneratorGoogle, p): a Google-trace-like E2E
// workload following 3Sigma §5.
func GenerateGoogle(p Params) (*Workload, error) { return Generate(GeneratorGoogle, p) }

// GoogleParamsOf decodes the parameters a GenerateGoogle workload's header
// records, so the workload can be regenerated or described.
func GoogleParamsOf(h *Header) (Params, error) {
	if h.Generator != GeneratorGoogle {
		return Params{}, fmt.Errorf("workload generator is %q, not %q: %w", h.Generator, GeneratorGoogle, ErrInvalid)
	}
	_, p, err := ParamsOf(h)
	return p, err
}
