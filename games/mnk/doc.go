// Package mnk plays m,n,k-games, added through make new-game as
// docs/new-game.md's worked example and as one of the tool's calibration
// games (docs/known-answers.md): two players take turns placing a stone on
// an empty cell of a rows × cols board, and the first with k stones in a
// row — across, down or diagonally — wins; a full board is a draw.
// Tic-tac-toe is 3,3,3. With the pie rule, after the first stone the
// second player may keep its seat or take that stone over (swap), after
// which the first player moves again.
package mnk
