package capstone

import (
	"playtest/games"
)

// Values of the capstones knob.
const (
	CapstonesPerColor = "per-color"
	CapstonesNeutral  = "neutral"
)

// Values of the goal_order knob.
const (
	GoalOrderRandom = "random"
	GoalOrderBot    = "bot"
)

// Values of the perfect_match knob.
const (
	PerfectWholeGoal = "whole-goal"
	PerfectTop       = "top"
)

// Limits of the engine: states are fixed arrays, so a clone is a copy.
const (
	MaxColors        = 8
	MaxStacksPerSize = 8
	MaxStacks        = 2 * MaxStacksPerSize
	MaxHeight        = 8
	MaxGoal          = 8
	MaxCapstones     = MaxStacks
	maxPerColor      = 60
)

// Rules are the knobs of Capstone and ThreeStone (see capstone.md). The
// defaults are Capstone's; the threestone preset changes them.
type Rules struct {
	Colors           int    `yaml:"colors" json:"colors" default:"4" doc:"number of piece colours (1 to 8)"`
	StacksPerSize    int    `yaml:"stacks_per_size" json:"stacks_per_size" default:"5" doc:"stacks of Large pieces, and separately of Medium pieces (1 to 8)"`
	StackHeight      int    `yaml:"stack_height" json:"stack_height" default:"4" doc:"most non-capstone pieces one stack may hold (1 to 8)"`
	PiecesPerColor   int    `yaml:"pieces_per_color" json:"pieces_per_color" default:"5" doc:"Medium pieces of each colour in the stash, and Large likewise"`
	BagPerColor      int    `yaml:"bag_per_color" json:"bag_per_color" default:"4" doc:"Small pieces of each colour in the bag (goal-stack draws)"`
	GoalSize         int    `yaml:"goal_size" json:"goal_size" default:"4" doc:"pieces in a goal stack (1 to 8)"`
	GoalMaxPerColor  int    `yaml:"goal_max_per_color" json:"goal_max_per_color" default:"2" doc:"most pieces of one colour a goal stack may hold (a draw with more is redrawn)"`
	Capstones        string `yaml:"capstones" json:"capstones" default:"per-color" doc:"per-color: one Small per colour, tied to it; neutral: neutral_capstones uncoloured Smalls"`
	NeutralCapstones int    `yaml:"neutral_capstones" json:"neutral_capstones" default:"2" doc:"number of neutral capstones (used with capstones: neutral)"`
	PerfectBonus     int    `yaml:"perfect_bonus" json:"perfect_bonus" default:"3" doc:"extra points for a stack that matches a goal stack exactly"`
	GoalOrder        string `yaml:"goal_order" json:"goal_order" default:"random" doc:"random: drawn Smalls are stacked in a uniformly random order; bot: the seat's bot chooses the order"`
	PerfectMatch     string `yaml:"perfect_match" json:"perfect_match" default:"whole-goal" doc:"when goal_size differs from stack_height: whole-goal: a stack is perfect only if it equals the whole goal (never, when the sizes differ); top: a full stack is perfect when the top min(goal_size, stack_height) positions all match"`
}

// DefaultRules returns Capstone's rules.
func DefaultRules() *Rules {
	return &Rules{
		Colors: 4, StacksPerSize: 5, StackHeight: 4, PiecesPerColor: 5, BagPerColor: 4,
		GoalSize: 4, GoalMaxPerColor: 2, Capstones: CapstonesPerColor, NeutralCapstones: 2,
		PerfectBonus: 3, GoalOrder: GoalOrderRandom, PerfectMatch: PerfectWholeGoal,
	}
}

// Definition is the catalog entry of Capstone (and ThreeStone, a preset).
var Definition = games.Definition{
	Name:     "capstone",
	Title:    "Capstone / ThreeStone",
	Summary:  "Jeremiah Wittevrongel's stack building to match a secret goal stack; ThreeStone is a preset",
	NewRules: func() games.Rules { return DefaultRules() },
	Metrics: []games.MetricDoc{
		{Name: "score.seat*", Doc: "seat N's final score: a point per matching position of its goal in each full stack, plus perfect_bonus per perfect stack"},
		{Name: "margin", Doc: "seat 0's score minus seat 1's"},
		{Name: "perfect.seat*", Doc: "full stacks that perfectly match seat N's goal"},
		{Name: "perfect_matches", Doc: "perfect stacks of both seats"},
		{Name: "full_stacks", Doc: "stacks holding stack_height pieces at the end (the source claims at least 6 in Capstone, 4 in ThreeStone)"},
	},
}

// Capstones returns the number of capstones in play.
func (r *Rules) capstoneCount() int {
	if r.Capstones == CapstonesNeutral {
		return r.NeutralCapstones
	}
	return r.Colors
}

// Validate checks every knob and that the game can be set up.
func (r *Rules) Validate() error {
	checks := []struct {
		knob      string
		v, lo, hi int
	}{
		{"colors", r.Colors, 1, MaxColors},
		{"stacks_per_size", r.StacksPerSize, 1, MaxStacksPerSize},
		{"stack_height", r.StackHeight, 1, MaxHeight},
		{"pieces_per_color", r.PiecesPerColor, 1, maxPerColor},
		{"bag_per_color", r.BagPerColor, 1, maxPerColor},
		{"goal_size", r.GoalSize, 1, MaxGoal},
		{"goal_max_per_color", r.GoalMaxPerColor, 1, MaxGoal},
		{"perfect_bonus", r.PerfectBonus, 0, 1000},
	}
	for _, c := range checks {
		if c.v < c.lo || c.v > c.hi {
			return games.KnobErrorf(c.knob, "must be between %d and %d, got %d", c.lo, c.hi, c.v)
		}
	}
	switch r.Capstones {
	case CapstonesPerColor:
	case CapstonesNeutral:
		if r.NeutralCapstones < 1 || r.NeutralCapstones > 2*r.StacksPerSize {
			return games.KnobErrorf("neutral_capstones", "must be between 1 and the number of stacks (%d), got %d", 2*r.StacksPerSize, r.NeutralCapstones)
		}
	default:
		return games.KnobErrorf("capstones", "must be %q or %q, got %q", CapstonesPerColor, CapstonesNeutral, r.Capstones)
	}
	switch r.GoalOrder {
	case GoalOrderRandom, GoalOrderBot:
	default:
		return games.KnobErrorf("goal_order", "must be %q or %q, got %q", GoalOrderRandom, GoalOrderBot, r.GoalOrder)
	}
	switch r.PerfectMatch {
	case PerfectWholeGoal, PerfectTop:
	default:
		return games.KnobErrorf("perfect_match", "must be %q or %q, got %q", PerfectWholeGoal, PerfectTop, r.PerfectMatch)
	}
	if r.Colors*r.BagPerColor < 2*r.GoalSize {
		return games.KnobErrorf("bag_per_color", "a bag of %d × %d Smalls cannot fill two goal stacks of %d", r.Colors, r.BagPerColor, r.GoalSize)
	}
	if r.Colors*min(r.BagPerColor, r.GoalMaxPerColor) < r.GoalSize {
		return games.KnobErrorf("goal_max_per_color", "no goal stack of %d can be drawn with at most %d of each of %d colours (%d in the bag)",
			r.GoalSize, r.GoalMaxPerColor, r.Colors, r.BagPerColor)
	}
	if !r.secondGoalAlwaysPossible() {
		return games.KnobErrorf("bag_per_color", "after some legal first goal stack, the bag cannot give a legal second one")
	}
	return nil
}

// secondGoalAlwaysPossible checks that whatever legal goal the first player
// draws, the rest of the bag still holds a legal goal.
func (r *Rules) secondGoalAlwaysPossible() bool {
	ok := true
	var counts [MaxColors]int
	var walk func(color, left int)
	walk = func(color, left int) {
		if !ok {
			return
		}
		if left == 0 {
			room := 0
			for c := range r.Colors {
				room += min(r.BagPerColor-counts[c], r.GoalMaxPerColor)
			}
			ok = room >= r.GoalSize
			return
		}
		if color == r.Colors {
			return
		}
		for n := 0; n <= min(left, r.GoalMaxPerColor, r.BagPerColor); n++ {
			counts[color] = n
			walk(color+1, left-n)
		}
		counts[color] = 0
	}
	walk(0, r.GoalSize)
	return ok
}

// NewGame builds the game; the rules must have passed Validate.
func (r *Rules) NewGame() (games.Game, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	return New(*r), nil
}
