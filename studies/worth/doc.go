// Package worth measures what a mechanic is worth by restricted play
// (Jaffe et al. 2012, "Evaluating competitive game balance with restricted
// play"): for each restriction — one the game names (never swap under the
// pie rule, never play a 4-card, a goal stacked without choosing its
// order) or a regular expression over the move notation — the variant's
// first player plays against itself held to the restriction, at the same
// budget, in seat-swapped pairs on the same deals for every restriction.
// What the restricted player loses is the mechanic's worth, in points of
// score per game and in Elo, with 95% intervals over the pairs, and per
// seat (a pie swap is seat 1's alone).
package worth
