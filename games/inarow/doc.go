// Package inarow is what the games of k stones in a row share: the board's
// tables (the lines of k cells as bitboards, Zobrist keys), the position
// (each seat's stones, the result, the hash, an optional pie rule) with its
// keys and invariants, the open-lines heuristic and its features, and the
// drawings. The m,n,k-games place a stone on any empty cell and Connect
// Four drops it into a column; each embeds Position in its state and adds
// its moves, notation and rules.
package inarow
