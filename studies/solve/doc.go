// Package solve finds the game-theoretic truth of small perfect-information
// variants, to check the bots' answers against: Run enumerates the whole
// position graph and solves it by retrograde analysis (endless play is a
// draw, as the repetition rule makes it), and Prove, for variants whose
// graph is far too large, proves every forced win within a horizon by a
// depth-bounded search. Games take part by implementing games.Keyer and
// games.SolverRules.
package solve
