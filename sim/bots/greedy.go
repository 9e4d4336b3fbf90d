package bots

import (
	"playtest/games"
	"playtest/games/pcg"
	"playtest/sim/model"
)

// GreedyParams are the parameters of the greedy bot.
type GreedyParams struct {
	Epsilon float64 `yaml:"epsilon" json:"epsilon" default:"0" doc:"probability of playing a uniformly random move instead (0 to 1)"`
	// Learning chooses a learned evaluation (eval:, model:, model_strict:).
	Learning
	// Restricted holds the player to a restriction (restrict:).
	Restricted
}

// Validate checks epsilon and the evaluation.
func (p *GreedyParams) Validate() error {
	if p.Epsilon < 0 || p.Epsilon > 1 {
		return games.KnobErrorf("epsilon", "must be between 0 and 1, got %g", p.Epsilon)
	}
	if err := p.Restricted.validate(); err != nil {
		return err
	}
	return p.Learning.validate()
}

// Greedy looks one decision ahead: it applies each legal move to a scratch
// copy of the state and plays the one whose result the game's Heuristic
// rates best for its seat, breaking ties uniformly at random. For games
// without a Heuristic it knows only finished games: a win beats anything, a
// loss is worst. It reuses one scratch state for all its decisions.
type Greedy struct {
	params   GreedyParams
	seat     games.Player
	rng      *pcg.Rand
	scratch  games.State
	learnBuf model.Scratch // the learned evaluation's buffers
}

// NewGreedy returns a greedy bot.
func NewGreedy(_ games.Game, p GreedyParams) *Greedy { return &Greedy{params: p} }

// Reset starts a new game.
func (b *Greedy) Reset(seat games.Player, rng *pcg.Rand) { b.seat, b.rng = seat, rng }

// Choose plays the best move one ply ahead.
func (b *Greedy) Choose(s games.State, legal []games.Move) games.Move {
	if b.params.Epsilon > 0 && b.rng.Float64() < b.params.Epsilon {
		return legal[b.rng.IntN(len(legal))]
	}
	if b.scratch == nil {
		b.scratch = s.Clone()
	}
	best, ties := legal[0], 0
	bestScore := 0.0
	for _, m := range legal {
		b.scratch.CopyFrom(s)
		b.scratch.Apply(m)
		score := b.score(b.scratch)
		switch {
		case ties == 0 || score > bestScore:
			best, bestScore, ties = m, score, 1
		case score == bestScore:
			ties++
			if b.rng.IntN(ties) == 0 {
				best = m
			}
		}
	}
	return best
}

// score rates a position one ply ahead for the bot's seat: with a learned
// model its value (a finished game by its result, above any position),
// else evaluate's.
func (b *Greedy) score(s games.State) float64 {
	m := b.params.learned
	switch {
	case m == nil:
		return evaluate(s, b.seat)
	case s.IsTerminal():
		return winValue * s.Result().ValueFor(b.seat)
	}
	return m.Evaluate(s, b.seat, &b.learnBuf)
}

// evaluate scores s for seat with the game's heuristic, or with the result
// alone when the game has none.
func evaluate(s games.State, seat games.Player) float64 {
	if h, ok := s.(games.Heuristic); ok {
		return h.Evaluate(seat)
	}
	if !s.IsTerminal() {
		return 0
	}
	return s.Result().ValueFor(seat)
}
