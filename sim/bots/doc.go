// Package bots holds the players of playtest and their registry.
//
// A Bot is created once per worker and player (so it can own and reuse its
// memory: scratch states, move buffers, later search arenas) and Reset at the
// start of each game with its seat and its own random stream, derived by the
// runner from (run seed, game index, seat). Bots never read the clock: their
// budgets are counted in iterations, so runs are reproducible.
//
// Each bot's parameters are a struct whose fields carry `yaml`, `doc` and
// `default` tags, decoded strictly from the players: list of a variant file.
//
// Bots now: random (uniform legal move) and greedy (one-ply lookahead on the
// game's Heuristic).
package bots
