// Package stacks implements Fred Horn's STACKS as specified in
// rules/stacks.md: 24 identical pieces on the white squares of a 7×7 board;
// each turn a player plays a card from a hand of two and moves any stack
// exactly that many steps along its axis (Red horizontally, Green
// vertically), scoring the height of the stack it forms, or a penalty when
// no stacking move exists. The game ends when every card is played.
//
// Every knob of the spec is a field of Rules: cards, hand_size,
// max_height, must_stack_scope, blocking, open_hands, four_card_moves
// (Variant 2's backward moves), diagonal, and match (Variant 1).
//
// # Decisions
//
// A turn is one decision: a card value and a move (source and
// destination), or a card value without a move. Two equal cards, or two
// paths to one square, are one decision. Draws are chance outcomes weighted
// by what is left in the drawing seat's stock: this is the same as
// shuffling the stock at setup, and it leaves no hidden order to
// re-sample. For perft, FixDeal fixes both stocks' order instead.
//
// # Match play
//
// With match, one State is a whole match: games follow each other with the
// totals carried over, and the result is the match's (reason match-target).
// Players keep their colour; seat 0 is Red, who starts the first game, and
// the loser of each game starts the next (loser_starts). The spec lets a
// match with equal totals at the target play on, so a match can in
// principle last forever: match.max_games ends it as a draw (reason
// max-games, counted as stalled). With loser_starts false the first move
// alternates. Plies count turns over the whole match.
//
// # Readings of the spec
//
// Card values are 1 to 4 (the spec defines moves and penalties for those).
// Without four_card_moves a 4-card has no move (four steps do not fit on
// the board) and scores −4. See docs/rules/stacks.md.
//
// # Representation
//
// White squares are numbered 0..23, so a set of squares is a uint32. Every
// path of every card value from every square is precomputed per seat with
// the squares it passes over, so move generation is a few bitboard
// operations per stack.
package stacks
