package capturecard

import "playtest/games"

// Values of the through knob.
const (
	ThroughJump    = "jump"
	ThroughReplace = "replace"
)

// Values of the elimination knob: which rule the source's "only if all four
// corners are occupied, may you use the rule on eliminating pieces"
// restricts.
const (
	EliminationCornerEntry = "corner-entry"
	EliminationPassThrough = "pass-through"
)

// Pieces is a player's reserve at the start, per size.
type Pieces struct {
	Small  int `yaml:"small" json:"small" default:"5" doc:"Small pieces (0 to 20)"`
	Medium int `yaml:"medium" json:"medium" default:"5" doc:"Medium pieces (0 to 20)"`
	Large  int `yaml:"large" json:"large" default:"5" doc:"Large pieces (0 to 20)"`
}

// Rules are the knobs of Capture the Card (see capture-the-card.md).
type Rules struct {
	Pieces          Pieces `yaml:"pieces" json:"pieces" default:"{small: 5, medium: 5, large: 5}" doc:"each player's reserve: {small, medium, large} (0 to 20 each; keys left out keep their default)"`
	MaxOnBoard      int    `yaml:"max_on_board" json:"max_on_board" default:"6" doc:"most pieces a player may have on the board (5 to 20: a suit is won with 5 pieces on the board)"`
	Jokers          int    `yaml:"jokers" json:"jokers" default:"2" doc:"Jokers in the draw deck (0 to 20)"`
	JokerTurns      int    `yaml:"joker_turns" json:"joker_turns" default:"2" doc:"opponent turns a played Joker protects the player's pieces for (1 to 100)"`
	Through         string `yaml:"through" json:"through" default:"jump" doc:"passing an opponent piece: jump (continue to the empty card beyond, knocking off a Small or shrinking a Medium) or replace (take a Small's card; shrink a Medium and stay)"`
	Elimination     string `yaml:"elimination" json:"elimination" default:"corner-entry" doc:"what needs all four corners occupied: corner-entry, entering (8 or 9) on a corner held by an opponent's Small or Medium, knocking it off (passing through is always allowed); pass-through, knocking off or shrinking by passing through in a Move (entering needs an empty corner)"`
	AllCornersLoses bool   `yaml:"all_corners_loses" json:"all_corners_loses" default:"true" doc:"a player who occupies all four corners loses"`
	MaxTurns        int    `yaml:"max_turns" json:"max_turns" default:"400" doc:"a game still going after this many turns is a draw (reason max-turns, counted as stalled)"`
}

// DefaultRules returns the spec's defaults.
func DefaultRules() *Rules {
	return &Rules{
		Pieces: Pieces{Small: 5, Medium: 5, Large: 5}, MaxOnBoard: 6, Jokers: 2, JokerTurns: 2,
		Through: ThroughJump, Elimination: EliminationCornerEntry, AllCornersLoses: true, MaxTurns: 400,
	}
}

// Definition is the catalog entry of Capture the Card.
var Definition = games.Definition{
	Name:     "capturecard",
	Title:    "Capture the Card",
	Summary:  "Rachel Zomerfeld's unfinished design: drawn cards drive pyramid moves on a 5×4 layout of court cards",
	NewRules: func() games.Rules { return DefaultRules() },
	Metrics: []games.MetricDoc{
		{Name: "suit_complete.seat*", Doc: "seat N won by a piece on each card of one suit"},
		{Name: "all_corners.seat*", Doc: "seat N lost by holding all four corners (all_corners_loses)"},
		{Name: "turns", Doc: "turns played by both seats"},
		{Name: "jokers_played", Doc: "Jokers played by both seats"},
		{Name: "knocked_off", Doc: "pieces knocked off the board, both seats"},
		{Name: "knocked_off.seat*", Doc: "seat N's pieces knocked off the board"},
		{Name: "shrunk", Doc: "Mediums shrunk to Smalls by a passing Medium"},
	},
}

// Limits of the engine: states are fixed arrays.
const (
	maxPerSize  = Cards
	maxJokers   = 20
	maxMaxTurns = 100000
)

// Validate checks every knob.
func (r *Rules) Validate() error {
	checks := []struct {
		knob      string
		v, lo, hi int
	}{
		{"pieces.small", r.Pieces.Small, 0, maxPerSize},
		{"pieces.medium", r.Pieces.Medium, 0, maxPerSize},
		{"pieces.large", r.Pieces.Large, 0, maxPerSize},
		{"max_on_board", r.MaxOnBoard, 1, Cards},
		{"jokers", r.Jokers, 0, maxJokers},
		{"joker_turns", r.JokerTurns, 1, 100},
		{"max_turns", r.MaxTurns, 1, maxMaxTurns},
	}
	for _, c := range checks {
		if c.v < c.lo || c.v > c.hi {
			return games.KnobErrorf(c.knob, "must be between %d and %d, got %d", c.lo, c.hi, c.v)
		}
	}
	if r.Pieces.Small+r.Pieces.Medium == 0 {
		return games.KnobErrorf("pieces", "a player needs a Small or a Medium to enter the board")
	}
	// A suit is won with a piece on each of its Ranks cards, so a player
	// must be able to have that many on the board at once (Larges get
	// there by locking a Small or Medium that entered).
	if r.MaxOnBoard < Ranks {
		return games.KnobErrorf("max_on_board", "must be at least %d, got %d: a player wins with a piece on each of a suit's %d cards (10, J, Q, K, A), so with fewer on the board no one can ever win",
			Ranks, r.MaxOnBoard, Ranks)
	}
	if n := r.Pieces.Small + r.Pieces.Medium + r.Pieces.Large; n < Ranks {
		return games.KnobErrorf("pieces", "a player has %d pieces in all: a player wins with a piece on each of a suit's %d cards (10, J, Q, K, A), so with fewer than %d no one can ever win",
			n, Ranks, Ranks)
	}
	switch r.Through {
	case ThroughJump, ThroughReplace:
	default:
		return games.KnobErrorf("through", "must be %q or %q, got %q", ThroughJump, ThroughReplace, r.Through)
	}
	switch r.Elimination {
	case EliminationCornerEntry, EliminationPassThrough:
	default:
		return games.KnobErrorf("elimination", "must be %q or %q, got %q", EliminationCornerEntry, EliminationPassThrough, r.Elimination)
	}
	return nil
}

// NewGame builds the game; it validates the rules first.
func (r *Rules) NewGame() (games.Game, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	return New(*r), nil
}
