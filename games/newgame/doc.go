// Command newgame writes a new game from playtest's template: a compiling
// package games/NAME (rules with knobs and validation, state, notation,
// text and SVG drawing, heuristic and features, invariants, restrictions,
// exact keys for solve, and its tests: the conformance suite, perft, rules),
// a preset configs/NAME/NAME.yaml, and the game's line in games/catalog.
// It is run from the source tree, as make new-game NAME=demo does (which
// then builds playtest and learns the preset's model): an installed binary
// has no sources to add a game to. docs/new-game.md is the walk-through.
//
//	go run ./games/newgame -name demo [-root DIR]
package main
