package stacktics

import (
	"slices"

	"playtest/games"
)

// Board is the board's size; Cols is the edge facing the players.
type Board struct {
	Rows int `yaml:"rows" json:"rows" default:"by size: 4, 5, 6, 6" doc:"rows, from army A's home row (0) to army B's"`
	Cols int `yaml:"cols" json:"cols" default:"by size: 4, 5, 6, 7" doc:"columns: the edge facing the players"`
}

// Values of the win_threshold knob.
const (
	ThresholdHalf         = "half"
	ThresholdMoreThanHalf = "more-than-half"
)

// Values of the no_moves knob.
const (
	NoMovesLoss = "loss"
	NoMovesDraw = "draw"
)

// Limits of the engine. The board is stored in fixed arrays (a clone is a
// struct copy), so it is at most MaxRows × MaxCols; a stack's counts of each
// size are 4-bit fields, which bounds size.
const (
	MaxRows = 8
	MaxCols = 8
	MaxSize = 8
	// MaxSquares is the number of squares of the largest board.
	MaxSquares = MaxRows * MaxCols
)

// Rules are the knobs of Stacktics (see stacktics.md). Fields left nil take
// defaults that depend on size when Validate runs.
type Rules struct {
	Size         int    `yaml:"size" json:"size" default:"3" doc:"trees per player: 2 to 8, as the board allows"`
	Board        *Board `yaml:"board" json:"board" default:"by size: 2→4×4, 3→5×5, 4→6×6, 5→6 rows × 7 cols; required for larger sizes" doc:"{rows, cols}; cols is the edge facing the players; at most 8×8"`
	StartColumns []int  `yaml:"start_columns" json:"start_columns" default:"the home-row squares that are not corners (needs cols − 2 = size)" doc:"columns of each home row that get a tree (0-based, one per tree)"`
	LoadedRange  *int   `yaml:"loaded_range" json:"loaded_range" default:"2 for size ≤ 3, 3 for size ≥ 4" doc:"most squares a loaded stack moves"`
	PieRule      *bool  `yaml:"pie_rule" json:"pie_rule" default:"true for size 2, false otherwise" doc:"seat 1 may swap armies after the first move (keep/swap decision)"`
	WinThreshold string `yaml:"win_threshold" json:"win_threshold" default:"half" doc:"half: win on capturing ≥ 3×size pips; more-than-half: on > 3×size pips"`
	NoMoves      string `yaml:"no_moves" json:"no_moves" default:"loss" doc:"a player with no legal move on their turn: loss or draw"`
	MaxPlies     int    `yaml:"max_plies" json:"max_plies" default:"300" doc:"the game is drawn (reason max-plies) after this many moves"`
	Repetition   int    `yaml:"repetition" json:"repetition" default:"3" doc:"draw (reason repetition) when a position, same side to move, occurs this many times; 0 disables"`
}

// maxMaxPlies is the largest move cap.
const maxMaxPlies = 1_000_000

// DefaultRules returns the rules with every independent knob at its default.
func DefaultRules() *Rules {
	return &Rules{
		Size:         3,
		WinThreshold: ThresholdHalf,
		NoMoves:      NoMovesLoss,
		MaxPlies:     300,
		Repetition:   3,
	}
}

// Definition is the catalog entry of Stacktics.
var Definition = games.Definition{
	Name:     "stacktics",
	Title:    "Stacktics",
	Summary:  "Adam Norberg's stacking chess-like battle of Icehouse trees; capture half the enemy force",
	NewRules: func() games.Rules { return DefaultRules() },
	Metrics: []games.MetricDoc{
		{Name: "captures", Doc: "captures in the game"},
		{Name: games.MetricPieSwap, Doc: "seat 1 swapped armies after the first move (pie rule)"},
		{Name: games.MetricPieKeepSeat1Wins, Doc: "seat 1 won after keeping its army (decisive games: draws left out)"},
		{Name: games.MetricPieSwapSeat1Wins, Doc: "seat 1 won after swapping armies (decisive games: draws left out)"},
		{Name: "first_capture.capturer_wins", Doc: "the army that made the first capture won (\"the first unmatched capture often confers a devastating advantage\"; decisive games: draws left out)"},
		{Name: "first_capture_large.victim_wins", Doc: "the army that lost a Large in the first capture won (\"has probably lost the game\"; decisive games: draws left out)"},
		{Name: MetricLargeLoserWins, Doc: "the army whose first three pips lost were a Large won against one that lost a Small and a Medium (below 50%: \"losing a large is worse\"; decisive games: draws left out)"},
	},
}

func defaultBoard(size int) (Board, bool) {
	switch size {
	case 2:
		return Board{4, 4}, true
	case 3:
		return Board{5, 5}, true
	case 4:
		return Board{6, 6}, true
	case 5:
		return Board{6, 7}, true
	}
	return Board{}, false
}

// Validate checks the knobs and resolves the size-dependent defaults.
func (r *Rules) Validate() error {
	if r.Size < 2 || r.Size > MaxSize {
		return games.KnobErrorf("size", "must be between 2 and %d, got %d", MaxSize, r.Size)
	}
	if r.Board == nil {
		b, ok := defaultBoard(r.Size)
		if !ok {
			return games.KnobErrorf("board", "has no default for size %d: set {rows, cols}", r.Size)
		}
		r.Board = &b
	}
	if r.Board.Rows < 2 || r.Board.Rows > MaxRows {
		return games.KnobErrorf("board.rows", "must be between 2 and %d, got %d", MaxRows, r.Board.Rows)
	}
	if r.Board.Cols < 2 || r.Board.Cols > MaxCols {
		return games.KnobErrorf("board.cols", "must be between 2 and %d, got %d", MaxCols, r.Board.Cols)
	}
	if r.Size > r.Board.Cols {
		return games.KnobErrorf("board", "a home row of %d columns cannot hold %d trees", r.Board.Cols, r.Size)
	}
	if r.StartColumns == nil {
		if r.Board.Cols-2 != r.Size {
			return games.KnobErrorf("start_columns", "is required when cols − 2 ≠ size (cols %d, size %d)", r.Board.Cols, r.Size)
		}
		for c := 1; c <= r.Size; c++ {
			r.StartColumns = append(r.StartColumns, c)
		}
	}
	if len(r.StartColumns) != r.Size {
		return games.KnobErrorf("start_columns", "lists %d columns but size is %d (one tree per column)", len(r.StartColumns), r.Size)
	}
	seen := make([]bool, r.Board.Cols)
	for _, c := range r.StartColumns {
		if c < 0 || c >= r.Board.Cols {
			return games.KnobErrorf("start_columns", "column %d is off the board (0 to %d)", c, r.Board.Cols-1)
		}
		if seen[c] {
			return games.KnobErrorf("start_columns", "column %d is listed twice", c)
		}
		seen[c] = true
	}
	slices.Sort(r.StartColumns)
	if r.LoadedRange == nil {
		lr := 2
		if r.Size >= 4 {
			lr = 3
		}
		r.LoadedRange = &lr
	}
	if *r.LoadedRange < 1 {
		return games.KnobErrorf("loaded_range", "must be at least 1, got %d", *r.LoadedRange)
	}
	if r.PieRule == nil {
		pie := r.Size == 2
		r.PieRule = &pie
	}
	switch r.WinThreshold {
	case ThresholdHalf, ThresholdMoreThanHalf:
	default:
		return games.KnobErrorf("win_threshold", "must be %q or %q, got %q", ThresholdHalf, ThresholdMoreThanHalf, r.WinThreshold)
	}
	switch r.NoMoves {
	case NoMovesLoss, NoMovesDraw:
	default:
		return games.KnobErrorf("no_moves", "must be %q or %q, got %q", NoMovesLoss, NoMovesDraw, r.NoMoves)
	}
	if r.MaxPlies < 1 || r.MaxPlies > maxMaxPlies {
		return games.KnobErrorf("max_plies", "must be between 1 and %d, got %d", maxMaxPlies, r.MaxPlies)
	}
	if r.Repetition < 0 || r.Repetition == 1 {
		return games.KnobErrorf("repetition", "must be 0 (off) or at least 2, got %d", r.Repetition)
	}
	return nil
}

// ForSolver returns a copy of the rules without the repetition rule and
// with the largest move cap, for the exact solver (see games.SolverRules).
func (r *Rules) ForSolver() games.Rules {
	c := *r
	c.Repetition, c.MaxPlies = 0, maxMaxPlies
	return &c
}

// MoveCap returns max_plies (games.SolverRules).
func (r *Rules) MoveCap() int { return r.MaxPlies }

// NewGame builds the game; the rules must have passed Validate.
func (r *Rules) NewGame() (games.Game, error) {
	if r.Board == nil || r.LoadedRange == nil || r.PieRule == nil {
		if err := r.Validate(); err != nil {
			return nil, err
		}
	}
	return New(*r), nil
}
