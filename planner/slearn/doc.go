// Package slearn is SLearn (SLearn §5.1.2): runtimes learned in space, by
// sampling a few pilot tasks of each wide job, inside the generic
// scheduler GS (package gs), with the adaptive sampling ratio of Fig. 3.
package slearn
