// Package study keeps a study (a sweep, a tournament, a skill ladder fixed
// in advance or a comparison without a sequential test) as a directory of ordinary run directories,
// one per unit of work, with a manifest, study.json, that says what the
// study is, which runs make it, how each run's variant is built and which
// shard of every run the directory plays. A study resumes run by run, and
// the shard directories of a study merge, run by run, into the study one
// process would have written.
package study
