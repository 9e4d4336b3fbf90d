// Package capstone implements Capstone (Jeremiah Wittevrongel) and, with
// other knob values, ThreeStone, as specified in rules/capstone.md: players
// build ten (or six) stacks of Medium and Large pieces, moving capstones to
// block stacks, each trying to make full stacks match a secret goal stack
// drawn from a bag.
//
// # Decisions
//
// The setup is chance: seat 1 draws its goal first, one Small at a time
// (outcomes weighted by what is left in the bag); a draw holding more than
// goal_max_per_color of one colour goes back to the bag and is redrawn;
// then seat 0 draws from what is left, and moves first. With goal_order
// random the order of the draw is the goal's order (drawing one at a time
// makes it a uniformly random order); with goal_order bot the drawer then
// picks its goal's pieces top first.
//
// A turn is up to three decisions of the player to move: place (a colour
// and a stack), then move a top piece or stop (skipped when no move
// exists), then, after a move, the capstone step. Neutral capstones in the
// stash are one choice. The game ends when a turn starts without a legal
// placement, and is scored as the spec says (full stacks only, top to
// bottom, perfect_bonus, tiebreak on perfect stacks, else a tie).
//
// # Readings of the spec
//
// When goal_size and stack_height differ, a full stack is compared with a
// goal over the top min(goal_size, stack_height) positions, and is perfect
// when all of them match. See docs/rules/capstone.md.
//
// # Hidden information
//
// Determinize re-samples the other goal (see determinize.go), exactly,
// whichever seat observes. ObservationString shows what a seat sees.
//
// # Notation
//
// See notation.go: "r@L2 L2>L4 ^L1>M3" is a turn that places red on L2,
// moves L2's top onto L4 and moves the capstone on L1 onto M3.
package capstone
