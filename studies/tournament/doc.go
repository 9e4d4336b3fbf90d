// Package tournament plays a round robin among bot settings on one
// variant (every pairing in seat-swapped pairs, all pairings on the same
// seeds) and rates the entrants by a Bradley-Terry (Elo) fit with 95%
// intervals, next to the pairwise score table: how a designer sees how much
// skill matters in a game.
package tournament
