// Package plots draws a run's figures with gonum/plot: seat outcomes with
// their intervals, the game length and score margin histograms, and the
// game-specific rates. Each figure is saved as SVG and PNG.
package plots
