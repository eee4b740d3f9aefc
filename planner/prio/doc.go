// Package prio is the strict-priority baseline of 3Sigma Table 1 (prio,
// prio-nopreempt): no runtime knowledge, SLO jobs before best-effort jobs.
package prio
