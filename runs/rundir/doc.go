// Package rundir runs a decoded variant end to end: it builds the game,
// plays the job on the batch runner and folds the records into a summary,
// and keeps a run in its directory (the log through runlog, games.csv,
// example games, reports): resume, shards and merge. Commands (run, check,
// merge, replay) and the studies call it rather than wiring the runner
// themselves.
package rundir
