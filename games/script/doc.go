// Package script plays games whose rules are a Starlark script
// (go.starlark.net: Python-like, deterministic and hermetic): a variant
// names one with game: ./mygame.star, and every command plays it like a
// built-in game. The script declares its knobs (KNOBS, checked by
// check(knobs)) and defines start(knobs), turn(state), moves(state),
// play(state, move) and result(state), and optionally chance(state),
// notation(state, move), draw(state), evaluate(state, seat), FEATURES with
// features(state, seat), key(state) and determinize(state, seat, rng).
// States are frozen values: play returns a new one.
//
// Every call runs under a step budget (MaxSteps) and the memory bounds
// guard.go describes; a script's failure is an *Error naming the file,
// the call and the script's traceback, which stops a run (exit 2).
// docs/scripted-rules.md is the designer's guide.
package script
