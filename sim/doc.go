// Package sim is the batch runner: it plays the games of a Job on worker
// goroutines and hands each finished game's Record to a sink, in game-index
// order, so that everything computed from the records is the same whatever
// the number of workers.
//
// # Seeding
//
// Every random stream is derived from the run seed by hashing (SplitMix64):
// the chance stream of game i from (seed, deal index), where the deal index
// is i's pair with Pairs on (both games of a pair see the same deal) and i
// otherwise; the stream of the bot in seat s of game i from (seed, i, s).
// Game i can thus be replayed alone, and no stream depends on scheduling.
//
// # Pairs
//
// With Pairs, games 2k and 2k+1 form pair k: same deal, the players' seats
// swapped (player 0 sits in seat 0 in game 2k and in seat 1 in game 2k+1),
// as engine testers do to cancel the first-move advantage out of a
// comparison of bots.
//
// # What bots see
//
// Bots are handed the game's state itself, which is all there is to see in
// the perfect-information games played so far. Games with hidden
// information implement games.Determinizer; bots that search them must only
// use the view of their own seat.
//
// # Failed games
//
// A game whose engine or bot panics, that reaches a position with no legal
// move before its end, or whose bot chooses an illegal move, is handed to
// the sink with Record.Err set (its index, seed, deal, moves so far) and the
// run goes on; such a game has no result and reports leave it out.
//
// # Slices and replays
//
// Job.Sliced with Job.From and Job.To play a slice of a run's games (a shard, or the rest
// of an interrupted run); Replay plays one game alone. Either way each game
// is the one the whole run plays.
//
// # Memory
//
// Workers own their states, move buffers and bots and share nothing
// mutable. Records are handed to the sink in order through a reorder window
// of a few games per worker: a worker does not start a game more than that
// far ahead of the oldest unfinished one, so memory does not grow with the
// number of games.
package sim
