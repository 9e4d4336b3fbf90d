package connect4

import (
	"playtest/games"
	"playtest/games/inarow"
)

// MaxSide is the longest side of a board: a board's cells fit one 64-bit
// bitboard.
const MaxSide = inarow.MaxSide

// Rules are the knobs of Connect Four. Every ambiguity of a game's rules page is a
// knob with a default: add one here (a yaml, doc and default tag), check it
// in Validate, use it in New.
type Rules struct {
	Cols int `yaml:"cols" json:"cols" default:"7" doc:"columns of the board (1 to 8)"`
	Rows int `yaml:"rows" json:"rows" default:"6" doc:"rows of the board: how many stones a column holds (1 to 8)"`
	K    int `yaml:"k" json:"k" default:"4" doc:"stones in a row (across, down or diagonally) that win: 2 to 8, and no more than the board's longer side"`
	// PieRule lets seat 1 take over seat 0's first stone.
	PieRule bool `yaml:"pie_rule" json:"pie_rule" default:"false" doc:"after seat 0's first stone, seat 1 may keep (and place its own) or swap: the stone becomes seat 1's and seat 0 moves again"`
}

// DefaultRules returns the rules with every knob at its default.
func DefaultRules() *Rules { return &Rules{Cols: 7, Rows: 6, K: 4} }

// Validate checks every knob and every combination of knobs.
func (r *Rules) Validate() error { return inarow.ValidateBoard(r.Rows, r.Cols, r.K) }

// NewGame builds the game; call it after Validate.
func (r *Rules) NewGame() (games.Game, error) { return New(*r), nil }

// ForSolver returns the rules as playtest solve plays them: a Connect Four game has no
// ending that depends on the history (no move cap, no repetition), so the
// same rules (implements games.SolverRules).
func (r *Rules) ForSolver() games.Rules {
	c := *r
	return &c
}

// MoveCap is the variant's move cap: none.
func (r *Rules) MoveCap() int { return 0 }

// Definition is Connect Four's catalog entry (games/catalog lists it).
var Definition = games.Definition{
	Name:     "connect4",
	Title:    "Connect Four",
	Summary:  "stones dropped into the columns of an upright board, k in a row wins: 7 × 6 is a first-player win; other boards and a pie rule as knobs",
	NewRules: func() games.Rules { return DefaultRules() },
	Metrics:  inarow.Metrics,
}
