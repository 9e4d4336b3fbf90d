// Package skill climbs a variant's skill ladder: it plays the variant at a
// ladder of search budgets, every rung on the same seeds, measures the
// strength each rung gains over the one below head to head, and says
// whether the balance answer has converged, is drifting, or is undecided
// as the bots get stronger (after Ludii's Skill Trace, with intervals).
package skill
