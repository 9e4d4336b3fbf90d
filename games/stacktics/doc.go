// Package stacktics implements Stacktics (Adam B. Norberg, 2007) as
// specified in rules/stacktics.md: two armies of Icehouse trees on a small
// board; a move takes a unit (a base piece and everything above it) whose
// shape follows the base's size (Small bishop, Medium rook, Large queen) and
// whose range follows its load; a single piece leaving a stack of two or more
// captures a whole enemy stack; capturing half the enemy force (3 × size
// pips) wins.
//
// Every knob of the spec is a field of Rules: size, board, start_columns,
// loaded_range, pie_rule, win_threshold, no_moves, max_plies, repetition.
//
// # Representation
//
// A legal stack is always Larges, then Mediums, then Smalls from the bottom
// up (a unit may only enter an own stack whose top is at least as large as
// its base), so a square is stored as the counts of each size plus an owner
// bit, in 16 bits. A unit is named by the height of its base. Squares are
// numbered row×8 + col on every board (at most 8×8), so the board is a fixed
// array with bitboards of occupancy per army and of the top and bottom piece
// sizes, and a clone is a struct copy plus the repetition history, whose
// memory CopyFrom reuses.
//
// Move generation takes each stack's slider attacks from magic bitboard
// tables (magic.go; squares off the board act as blockers), limits them to
// each unit's reach and filters them by what the unit may enter; a table of
// stack shapes (groupShape) says how far the bases of each size go, so
// counting the moves (the heuristic's mobility, PickMove) does not branch
// on a stack's shape. RandomMove draws a uniform legal move without
// listing the moves, by rejection sampling over each unit's on-board line
// squares (see its comment); the conformance suite checks its uniformity
// with a chi-square test. The no-legal-move check after every move is a
// few bitboard shifts in almost every position.
//
// # Decisions and seats
//
// Seat 0 commands army A (row 0, moves first). With pie_rule, seat 1's first
// decision is "keep" (play army B) or "swap" (take army A; seat 0 then plays
// B's reply). The swap is not a move: it does not count toward max_plies.
// SideOf reports which army a seat commands.
//
// # End of the game, in order, after each move
//
//  1. a capture that reaches the threshold wins (capture-threshold);
//  2. with repetition > 0, the position (board and army to move) has now
//     occurred that many times since the last capture: draw (repetition);
//  3. max_plies moves have been played: draw (max-plies);
//  4. the player to move (after the pie decision, if one is due) has no
//     legal move: loss or draw per no_moves (no-legal-move).
//
// Positions can only repeat between captures (a capture removes pieces for
// good), so the repetition history restarts at each capture.
//
// # Notation
//
// Moves are written <from><unit><sep><to> (see notation.go), e.g. "b1LMS-b2",
// "c1MS-c3", "d1Sxb3", and the pie decisions "keep" and "swap". Positions
// have a one-line notation used by tests ("b1=ALMS c5=BS turn=B").
//
// # Heuristic
//
// Evaluate is material plus mobility: captured pips difference plus 0.05 per
// legal move of difference (see Evaluate). The greedy bot plays the move
// that maximises it one ply ahead.
package stacktics
