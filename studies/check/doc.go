// Package check holds a run's results to a variant's expect: bounds, the
// way CI needs it: each bound passes when the metric's 95% interval lies
// within it, fails when the interval lies wholly outside it, and is
// inconclusive otherwise (more games would decide).
package check
