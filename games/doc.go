// Package games defines the contract every game in playtest implements.
//
// The shape follows OpenSpiel: a Game is the immutable rule set of one
// variant (rules plus knob values) and is safe to share between goroutines; a
// State is one game in progress and belongs to one goroutine. Moves are plain
// integers whose meaning is private to each game; legal moves are appended to
// a caller-owned buffer (buf = s.LegalMoves(buf[:0])) so that move generation
// allocates nothing. Chance is a player (Chance) whose outcomes carry integer
// weights, so probabilities are exact and a game record is just its moves.
//
// Optional interfaces add what only some games have: Determinizer for hidden
// information, Sided for games whose seats command named sides (armies,
// colours) that a pie rule can exchange, Heuristic for a documented static
// evaluation used by the greedy bot and by search, and Metrics for
// game-specific figures that reports aggregate without knowing the game.
//
// Package gamestest holds the conformance suite every game runs; package
// catalog is the explicit list of games.
package games
