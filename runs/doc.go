// Package runs is the wing of one run and its directory: rundir plays a
// variant into a directory (resume, merge, example games), runlog is the
// directory's durable log and rundiff compares two saved runs.
//
// Layer: a run may import internal, games, sim, variants, configs and
// reports; studies, viewers and cmd build on runs, never the other way
// (cmd/layers_test.go).
package runs
