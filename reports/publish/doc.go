// Package publish turns a run directory (summary.json and games.csv) into
// the reports a designer reads and CI archives: report.md, a self-contained
// report.html, and plots/ with each figure as SVG and PNG. It reads only
// saved results, so `playtest report DIR` rebuilds them without replaying
// a game.
package publish
