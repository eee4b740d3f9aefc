// Package utility owns the valuation math of the planner: utility curves
// (SLO step, best-effort linear decay, the over-estimate extension) and the
// exact expected utility and expected (remaining) resource consumption of a
// job under a piecewise-uniform runtime distribution (3Sigma §3, §4.2).
package utility
