package bots

import (
	"playtest/games"
	"playtest/games/pcg"
	"playtest/sim/model"
)

// GreedyParams are the parameters of the greedy bot.
type GreedyParams struct {
	Epsilon float64 `yaml:"epsilon" json:"epsilon" default:"0" doc:"probability of playing a uniformly random move instead (0 to 1)"`
	// Eval, Model and ModelStrict choose a learned evaluation (ModelUser).
	Eval        string `yaml:"eval" json:"eval,omitempty" default:"" doc:"the evaluation one ply ahead: hand (the game's heuristic; the default) or learned (the model: file's)"`
	Model       string `yaml:"model" json:"-" default:"" doc:"with eval: learned, the model.json playtest learn wrote (a path relative to the variant's file, or preset for the preset's shipped model); the run's config hash covers its content, not its path"`
	ModelStrict bool   `yaml:"model_strict" json:"model_strict,omitempty" default:"false" doc:"refuse a model learned under other rules than the variant's (otherwise it is used)"`
	// ModelSHA is the SHA-256 of the model file's content, set when the
	// variant loads it: what the config hash covers of the model.
	ModelSHA string `yaml:"-" json:"model_sha256,omitempty"`
	learned  *model.Model
}

// Validate checks epsilon and the evaluation.
func (p *GreedyParams) Validate() error {
	if p.Epsilon < 0 || p.Epsilon > 1 {
		return games.KnobErrorf("epsilon", "must be between 0 and 1, got %g", p.Epsilon)
	}
	return validateEval(&p.Eval, p.Model)
}

// ModelFile is the model file to load ("" for the hand heuristic).
func (p *GreedyParams) ModelFile() string { return p.Model }

// StrictModel says a model of other rules is refused.
func (p *GreedyParams) StrictModel() bool { return p.ModelStrict }

// UseModel makes the bot judge positions with m (ModelUser).
func (p *GreedyParams) UseModel(m *model.Model, sha string) { p.learned, p.ModelSHA = m, sha }

// HasModel reports whether the model was loaded (ModelUser).
func (p *GreedyParams) HasModel() bool { return p.learned != nil }

// LearnedModel is the model loaded, nil for none (ModelUser).
func (p *GreedyParams) LearnedModel() *model.Model { return p.learned }

// WithModel returns a copy playing m with eval: learned (ModelUser).
func (p *GreedyParams) WithModel(m *model.Model, name, sha string) Params {
	c := *p
	c.Eval, c.Model = "learned", name
	c.UseModel(m, sha)
	return &c
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
	features []float64 // the learned evaluation's buffer
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
	var v float64
	v, b.features = m.Evaluate(s.(games.FeatureState), b.seat, b.features)
	return v
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
