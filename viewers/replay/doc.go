// Package replay re-plays one game of a run and draws the board after each
// move: from the moves a run directory recorded (--records full), or from
// the variant, the seed and the game's index alone, since every game of a
// run can be played again exactly.
package replay
