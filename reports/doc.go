// Package reports turns finished games into what users read: an
// Aggregator folds sim.Records into a Summary as games finish (memory does
// not grow with the number of games), which is written as summary.json
// (schema playtest/summary/v1) or drawn as a terminal table.
//
// Everything in a Summary except Timing depends only on the records, which
// the runner delivers in game-index order: the same config and seed give
// byte-identical JSON apart from "timing", whatever the number of workers.
package reports
