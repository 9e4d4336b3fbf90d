// Package rundiff compares two saved runs (their summary.json): how each
// headline figure moved, with the significance of the change, so a CI job
// can show what a rule change did.
package rundiff
