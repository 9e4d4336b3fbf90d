// Package sweep runs variant sweeps: a base variant plus axes over rules
// knobs or bot parameters, crossed (cartesian) or varied together (zipped),
// every variant played on the same seeds (common random numbers). It
// reports each variant's outcomes with intervals and flags seat bias
// corrected for the number of variants (Holm or Benjamini–Hochberg), as a
// table, CSV, JSON, Markdown and plots (a win rate against the knob for one
// axis, a heat map for two).
package sweep
