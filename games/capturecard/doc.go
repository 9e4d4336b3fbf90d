// Package capturecard implements Capture the Card (Rachel Zomerfeld, an
// unfinished design) as specified in rules/capture-the-card.md: the 20
// court cards dealt as a 5×4 board, a deck of the 2–9 and Jokers driving
// each turn's action (Enter with an 8 or 9, Lock with a 2, Shift with a 5,
// or Move with any card), and a win for a piece on each court card of one
// suit, or a loss for holding all four corners.
//
// Every knob of the spec is a field of Rules: pieces, max_on_board,
// jokers, joker_turns, through (jump | replace), elimination (corner-entry
// | pass-through), all_corners_loses, max_turns.
//
// # Decisions
//
// The layout is dealt by chance one square at a time, corners first (four
// corners of one suit are dealt again: a uniformly random layout among the
// allowed ones). A turn is a sequence of decisions by one player: play a
// saved Joker or not (only offered to a player holding one), the draw
// (chance, weighted by the deck's counts; a Joker is kept and the player
// draws again; an empty deck takes the shuffled discard pile), then the
// action: an Enter, a Lock, a Shift, the first step of a Move, or stop
// (a Move of zero steps). A Move goes on step by step, each step a
// decision, until the player stops or no step is left. The checks (all
// corners first, then a complete suit) run after the action.
//
// # Readings of the spec
//
// See docs/rules/capturecard.md: the checks run once the whole action is
// over (so a Move may pass through all four corners), a played Joker's
// protection starts at once and counts the opponent's turns down, a second
// Joker restarts it, and max_turns counts both players' turns.
//
// Nothing is hidden but the deck's order, which is never stored: the game
// has no Determinize.
//
// # Representation
//
// Each seat's pieces, its Smalls and Mediums, and each suit's cards are
// card sets (bits of a uint32). A decision's moves are found as sets too
// (choices: the cards an Enter may use, the pieces a Lock may grow, each
// piece's Shift and step directions, read off a table of the 3×3 block of
// cards around it), which LegalMoves lists and PickMove counts; the chance
// outcomes are drawn from the deck's counts by PickChance.
package capturecard
