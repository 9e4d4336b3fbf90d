// Package runlog is the durable log of a run directory: manifest.json (what
// the run is: the variant's text and overrides, its shard, its records
// mode), games.jsonl (one JSON line per finished game, appended in index
// order as games end) and errors.jsonl (one line per failed game). A run
// interrupted anywhere (Ctrl-C, kill -9, power loss) leaves a log whose
// complete lines are a prefix of its games; Scan finds that prefix, cuts
// off any torn tail, and replays it, so the run resumes where it stopped
// and ends with the same summary as an uninterrupted run. Shards of one
// run merge by index into the log of a single run.
//
// The lines are JSON as encoding/json writes and reads it; for speed (a
// run of fast games spends much of its time on its log) games.jsonl's
// lines are written by a hand-written encoder with the same bytes and read
// back by a small parser for that format, with encoding/json for any
// other line (linejson.go).
package runlog
