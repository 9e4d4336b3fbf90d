package bots

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"playtest/games"
)

// Bot chooses moves for one seat of one game at a time.
type Bot interface {
	// Reset prepares the bot for a new game in which it plays seat and
	// draws all its randomness from rng.
	Reset(seat games.Player, rng *rand.Rand)
	// Choose returns one of legal, the legal moves of s, whose current
	// player is the bot's seat. It must not modify s (search bots copy it
	// into their own scratch states).
	Choose(s games.State, legal []games.Move) games.Move
}

// Params are a bot's parameters: a pointer to a struct with yaml, doc and
// default tags.
type Params interface {
	// Validate checks the parameters; errors are *games.KnobError naming
	// the parameter.
	Validate() error
}

// Definition describes one kind of bot.
type Definition struct {
	Name    string
	Summary string
	// NewParams returns the parameters at their defaults.
	NewParams func() Params
	// New creates a bot for a game; it is called once per worker.
	New func(g games.Game, p Params) Bot
}

// Spec is a bot kind with validated parameters, as a variant's players:
// entry names it.
type Spec struct {
	Bot    string `json:"bot"`
	Params Params `json:"params"`
}

// String describes the spec for tables: the bot's name.
func (s Spec) String() string { return s.Bot }

// New creates the bot a spec describes.
func (s Spec) New(g games.Game) (Bot, error) {
	d, err := Lookup(s.Bot)
	if err != nil {
		return nil, err
	}
	return d.New(g, s.Params), nil
}

// All lists the bots, in the order `playtest games` shows them.
var All = []Definition{
	{
		Name:      "random",
		Summary:   "plays a uniformly random legal move",
		NewParams: func() Params { return &NoParams{} },
		New:       func(games.Game, Params) Bot { return &Random{} },
	},
	{
		Name:      "greedy",
		Summary:   "one-ply lookahead: plays the move whose result the game's heuristic rates best (ties at random)",
		NewParams: func() Params { return &GreedyParams{} },
		New:       func(g games.Game, p Params) Bot { return NewGreedy(g, *p.(*GreedyParams)) },
	},
	{
		Name:      "mcts",
		Summary:   "UCT Monte Carlo tree search, open loop (chance sampled each iteration); budget in iterations",
		NewParams: func() Params { return DefaultMCTSParams() },
		New:       func(_ games.Game, p Params) Bot { return NewMCTS(*p.(*MCTSParams), false) },
	},
	{
		Name:      "ismcts",
		Summary:   "information-set MCTS: each iteration re-samples what the bot's seat cannot see (hidden goals, hands)",
		NewParams: func() Params { return DefaultMCTSParams() },
		New:       func(_ games.Game, p Params) Bot { return NewMCTS(*p.(*MCTSParams), true) },
	},
	{
		Name:      "alphabeta",
		Summary:   "iterative-deepening alpha-beta with a transposition table, for games without hidden information; budget in nodes",
		NewParams: func() Params { return DefaultAlphaBetaParams() },
		New:       func(_ games.Game, p Params) Bot { return NewAlphaBeta(*p.(*AlphaBetaParams)) },
	},
}

// Lookup returns a bot's definition by name.
func Lookup(name string) (Definition, error) {
	for _, d := range All {
		if d.Name == name {
			return d, nil
		}
	}
	return Definition{}, fmt.Errorf("unknown bot %q (known: %s)", name, strings.Join(Names(), ", "))
}

// Names lists the bots' names.
func Names() []string {
	out := make([]string, len(All))
	for i, d := range All {
		out[i] = d.Name
	}
	return out
}

// NoParams are the parameters of a bot that has none.
type NoParams struct{}

// Validate accepts the empty parameter set.
func (*NoParams) Validate() error { return nil }

// Random plays uniformly random legal moves.
type Random struct{ rng *rand.Rand }

// Reset starts a new game.
func (b *Random) Reset(_ games.Player, rng *rand.Rand) { b.rng = rng }

// Choose picks a legal move uniformly at random.
func (b *Random) Choose(_ games.State, legal []games.Move) games.Move {
	return legal[b.rng.IntN(len(legal))]
}
