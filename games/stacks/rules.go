package stacks

import (
	"playtest/games"
)

// Values of the must_stack_scope knob.
const (
	ScopeCard = "card"
	ScopeHand = "hand"
)

// Values of the diagonal knob.
const (
	DiagonalStraight = "straight"
	DiagonalZigzag   = "zigzag"
)

// Limits of the engine: states are fixed arrays, so a clone is a copy.
const (
	// MaxValue is the highest card value: the spec defines moves and
	// penalties for 1- to 4-cards.
	MaxValue = 4
	// MaxCards is the most cards in one player's stock.
	MaxCards = 48
	// MaxHand is the largest hand.
	MaxHand = 8
	// Pieces is the number of pieces, one per white square at the start.
	Pieces = 24
	// MaxGames bounds match.max_games.
	MaxGames = 10000
)

// Cards is a stock: how many cards of each value a player has.
type Cards struct {
	Ones   int `yaml:"1" json:"1" default:"4" doc:"1-cards in each stock"`
	Twos   int `yaml:"2" json:"2" default:"5" doc:"2-cards in each stock"`
	Threes int `yaml:"3" json:"3" default:"3" doc:"3-cards in each stock"`
	Fours  int `yaml:"4" json:"4" default:"0" doc:"4-cards in each stock (Variant 2 adds two)"`
}

// count returns the number of cards of value v (1 to MaxValue).
func (c *Cards) count(v int) int {
	return [...]int{0, c.Ones, c.Twos, c.Threes, c.Fours}[v]
}

// Total is the number of cards in the stock.
func (c *Cards) Total() int { return c.Ones + c.Twos + c.Threes + c.Fours }

// Match holds Variant 1's knobs: games are repeated, scores carried over,
// until a player's running total reaches Target.
type Match struct {
	Target      *int   `yaml:"target" json:"target" default:"100" doc:"running total that ends the match (the higher total wins; equal totals play on)"`
	LoserStarts *bool  `yaml:"loser_starts" json:"loser_starts" default:"true" doc:"true: the loser of a game moves first in the next (after a draw, the player who moved second); false: the first move alternates"`
	MaxGames    *int   `yaml:"max_games" json:"max_games" default:"100" doc:"a match still undecided after this many games is a draw (reason max-games, counted as stalled)"`
	End         string `yaml:"end" json:"end" default:"after-game" doc:"after-game: totals are checked against the target when a game ends; immediately: the match ends the moment a player's running total (finished games plus the game in progress) reaches the target"`
}

// Values of match.end.
const (
	MatchEndAfterGame   = "after-game"
	MatchEndImmediately = "immediately"
)

// Rules are the knobs of STACKS (see stacks.md). The defaults are the base
// game; the match and fourcards presets change them.
type Rules struct {
	Cards          *Cards `yaml:"cards" json:"cards" default:"{1: 4, 2: 5, 3: 3}" doc:"each player's stock, card value (1 to 4) → count; values left out have no cards"`
	HandSize       int    `yaml:"hand_size" json:"hand_size" default:"2" doc:"cards in hand (1 to 8, at most the stock)"`
	MaxHeight      int    `yaml:"max_height" json:"max_height" default:"6" doc:"tallest stack that may be formed (2 to 24); a stack this tall never moves again"`
	MustStackScope string `yaml:"must_stack_scope" json:"must_stack_scope" default:"card" doc:"card: the duty to stack and the penalties are judged for the chosen card; hand: a card that can stack must be chosen when one in hand can"`
	Blocking       bool   `yaml:"blocking" json:"blocking" default:"false" doc:"false: a move jumps over whatever lies between; true: every white square passed over must be empty"`
	OpenHands      bool   `yaml:"open_hands" json:"open_hands" default:"false" doc:"hands are public (stock order stays hidden)"`
	FourCardMoves  bool   `yaml:"four_card_moves" json:"four_card_moves" default:"false" doc:"Variant 2's backward moves: 4-cards always, 2- and 3-cards after the player's first 4-card"`
	Diagonal       string `yaml:"diagonal" json:"diagonal" default:"straight" doc:"backward moves' diagonal part: straight, every step to the same side; zigzag, each step chooses its side"`
	Match          *Match `yaml:"match" json:"match,omitempty" default:"absent (single games)" doc:"Variant 1 match play: {target, loser_starts, max_games, end}"`
}

// DefaultRules returns the base game's rules.
func DefaultRules() *Rules {
	return &Rules{HandSize: 2, MaxHeight: 6, MustStackScope: ScopeCard, Diagonal: DiagonalStraight}
}

// Definition is the catalog entry of STACKS.
var Definition = games.Definition{
	Name:     "stacks",
	Title:    "STACKS",
	Summary:  "Fred Horn's card-driven stacking on a 7×7 board; match play and 4-cards as knobs",
	NewRules: func() games.Rules { return DefaultRules() },
	Metrics: []games.MetricDoc{
		{Name: "score.seat*", Doc: "seat N's final score (in a match, its running total)"},
		{Name: "margin", Doc: "seat 0's score minus seat 1's"},
		{Name: "turns.stack.seat*", Doc: "share of seat N's turns that stacked (scoring the new height)"},
		{Name: "turns.minus1.seat*", Doc: "share of seat N's turns that moved a single piece to an empty square (−1)"},
		{Name: "turns.minus2.seat*", Doc: "share of seat N's turns that moved a stack to an empty square (−2)"},
		{Name: "turns.minus3.seat*", Doc: "share of seat N's turns that made a backward move to an empty square (−3, four_card_moves)"},
		{Name: "turns.minus4.seat*", Doc: "share of seat N's turns with no move at all (−4; a 4-card with four_card_moves scores −5 instead)"},
		{Name: "turns.minus5.seat*", Doc: "share of seat N's turns with a 4-card and no move at all (−5, four_card_moves)"},
		{Name: "games", Doc: "games in the match (match play)"},
		{Name: "match.cut_short", Doc: "the match ended during a game (match.end immediately)"},
		{Name: "game.starter_wins", Doc: "the game's first mover won it (per game of a match with a winner: ties left out)"},
		{Name: "game.seat0_wins", Doc: "seat 0 won the game (per game of a match with a winner: ties left out)"},
		{Name: "game.tie", Doc: "the game was tied (per game of a match)"},
	},
}

// Validate checks every knob and fills in the defaults of cards and match.
func (r *Rules) Validate() error {
	if r.Cards == nil {
		r.Cards = &Cards{Ones: 4, Twos: 5, Threes: 3}
	}
	for v := 1; v <= MaxValue; v++ {
		if n := r.Cards.count(v); n < 0 || n > MaxCards {
			return games.KnobErrorf("cards."+string(rune('0'+v)), "must be between 0 and %d, got %d", MaxCards, n)
		}
	}
	total := r.Cards.Total()
	if total < 1 || total > MaxCards {
		return games.KnobErrorf("cards", "a stock must hold between 1 and %d cards, got %d", MaxCards, total)
	}
	if r.HandSize < 1 || r.HandSize > min(MaxHand, total) {
		return games.KnobErrorf("hand_size", "must be between 1 and %d (the hand limit, or the stock of %d), got %d", min(MaxHand, total), total, r.HandSize)
	}
	if r.MaxHeight < 2 || r.MaxHeight > Pieces {
		return games.KnobErrorf("max_height", "must be between 2 and %d, got %d", Pieces, r.MaxHeight)
	}
	switch r.MustStackScope {
	case ScopeCard, ScopeHand:
	default:
		return games.KnobErrorf("must_stack_scope", "must be %q or %q, got %q", ScopeCard, ScopeHand, r.MustStackScope)
	}
	switch r.Diagonal {
	case DiagonalStraight, DiagonalZigzag:
	default:
		return games.KnobErrorf("diagonal", "must be %q or %q, got %q", DiagonalStraight, DiagonalZigzag, r.Diagonal)
	}
	if m := r.Match; m != nil {
		if m.Target == nil {
			m.Target = new(100)
		}
		if m.LoserStarts == nil {
			m.LoserStarts = new(true)
		}
		if m.MaxGames == nil {
			m.MaxGames = new(100)
		}
		if m.End == "" {
			m.End = MatchEndAfterGame
		}
		if m.End != MatchEndAfterGame && m.End != MatchEndImmediately {
			return games.KnobErrorf("match.end", "must be %q or %q, got %q", MatchEndAfterGame, MatchEndImmediately, m.End)
		}
		if *m.Target < 1 || *m.Target > 1000000 {
			return games.KnobErrorf("match.target", "must be between 1 and 1000000, got %d", *m.Target)
		}
		if *m.MaxGames < 1 || *m.MaxGames > MaxGames {
			return games.KnobErrorf("match.max_games", "must be between 1 and %d, got %d", MaxGames, *m.MaxGames)
		}
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
