// Package stats holds the statistics playtest reports: confidence
// intervals for rates, and exact quantiles of integer distributions kept as
// histograms (so memory depends on the range of values, not on the number
// of games).
package stats
