// Package connect4 plays Connect Four and its relatives, added through
// make new-game (from the m,n,k-game, docs/new-game.md) as one of the
// tool's calibration games (docs/known-answers.md): two players drop
// stones into the columns of an upright board of rows × cols, a stone
// falling to the lowest empty cell of its column, and the first with k in
// a row — across, down or diagonally — wins; a full board is a draw. The
// standard game is 7 columns, 6 rows, 4 in a row, a first-player win
// (Allen 1988; Allis 1988). With the pie rule, after the first stone the
// second player may keep its seat or take that stone over (swap), after
// which the first player moves again.
package connect4
