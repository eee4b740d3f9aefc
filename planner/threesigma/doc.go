// Package threesigma is the 3σSched planning cycle (3Sigma §3, §4.2,
// §4.3): runtime distributions → placement options with expected utility →
// a MILP solved under a time limit → the starts of slice 0, with a priority
// fallback; and its variants (3sigma, 3sigma-nodist, 3sigma-nooe,
// 3sigma-noadapt, pointperfest, pointrealest). One file per stage:
// capacity, options, valuation, model, solve, decode, fallback.
package threesigma
