// Package compare plays two variants on the same seeds and compares them
// game by game: the paired difference of seat 0's score (or another
// per-game metric) with its interval, and optionally a sequential test
// (GSPRT on pentanomial pairs, as fishtest and fastchess run it) that stops
// as soon as the evidence decides between two hypotheses.
package compare
