// Package estimate owns the runtime knowledge policies plan with: the
// Estimator seam (a distribution and a point estimate per job), the
// history-based predictor 3σPredict behind it, and the perfect and
// synthetic estimates of the 3Sigma sensitivity studies.
package estimate
