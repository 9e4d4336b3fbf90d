// Package rundir runs a decoded variant end to end: it builds the game,
// plays the job on the batch runner and folds the records into a summary.
// Commands (run now; sweep, compare and check later) call it rather than
// wiring the runner themselves.
package rundir
