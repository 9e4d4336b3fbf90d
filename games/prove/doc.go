// Package prove is playtest's one prover: an alpha-beta search over
// scores that count the decisions to the end, for every question a proof
// answers — a game's exact value (playtest solve --search), every forced
// win within a horizon (solve --depth), and a variant's broken rules (a
// forced win in a few decisions, for reports and checks).
//
// Its techniques are the game-independent ones of the strong solvers
// (Pons's "Solving Connect Four", Tromp's Fhourstones, the chess
// programs): a transposition table of lower and upper bounds with a
// two-tier replacement policy, null-window searches, enhanced
// transposition cutoffs, and move ordering by the table's best move. A
// game may add hooks (games.WinFinder, SafeMover, ThreatOrderer,
// PackedKeyer): a cheap win-in-one test, the moves that do not lose at
// once, ordering by threats, and exact 64-bit keys. Nothing game-specific
// is in the search, and the conformance suite checks the hooks.
package prove
