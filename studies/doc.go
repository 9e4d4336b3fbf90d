// Package studies is the wing of studies: commands that play many runs and
// judge them together. study keeps any study as a directory of run
// directories (study.json: resume, shards, merge); sweep, compare,
// tournament, skill and tune are the studies; check holds one run to a
// variant's expect: bounds, solve finds a small variant's exact answer and
// learn fits a variant's evaluation from its games.
//
// Layer: a study may import internal, games, sim, variants, configs,
// reports, runs and other studies; nothing below imports a study, and the
// viewers' wing does not either (cmd/layers_test.go).
package studies
