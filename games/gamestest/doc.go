// Package gamestest is the conformance suite every game runs, in the manner
// of gonum's graph/testgraph and OpenSpiel's RandomSimTest: seeded random
// games to the end with the game's invariants checked after every decision,
// legal-move sanity, notation round trips, clone and copy independence,
// determinism, zero allocations per ply, and, for games with hidden
// information, determinisation that keeps the observer's view.
//
// A game's test calls Run with a Game (several variants where knobs change
// the rules' shape).
package gamestest
