package bots

import (
	"playtest/games"
	"playtest/games/pcg"
)

// Inference is an opponent model for the bots that sample what their seat
// cannot see (alphabeta with worlds:, ismcts): where the game gives
// evidence of its hidden part in the seats' own moves (games.Inferrer,
// Capstone's goals), each world samples it weighed by exp(infer ×
// evidence), infer learned from self-play (playtest learn --kind
// opponent). Embedded in the parameters of alphabeta, mcts and ismcts.
type Inference struct {
	Infer float64 `yaml:"infer" json:"infer,omitempty" default:"0" doc:"an opponent model in games with hidden information whose seats' moves show it (Capstone: where a seat puts its pieces shows its goal): each world a decision samples (alphabeta with worlds:, ismcts) weighs what the seat cannot see by exp(infer × its evidence), so goals the other seat's moves fit are sampled more often; learn it with playtest learn --kind opponent; 0: the draw's own chances; other games and bots ignore it"`
}

// maxInfer bounds infer:: beyond it, one piece of evidence outweighs any
// prior by more than e^20.
const maxInfer = 20

func (p *Inference) validate() error {
	if !(p.Infer >= 0 && p.Infer <= maxInfer) {
		return games.KnobErrorf("infer", "must be between 0 and %d, got %g", maxInfer, p.Infer)
	}
	return nil
}

// belief prepares the re-sampling of what seat cannot see in s for one
// decision's worlds (reusing reuse's memory): the game's belief weighed at
// infer where it gives one (games.Inferrer) and infer is above 0, else
// nil, for determinize.
func (p *Inference) belief(s games.State, seat games.Player, reuse games.Belief) games.Belief {
	if in, ok := s.(games.Inferrer); ok && p.Infer > 0 {
		return in.Belief(seat, p.Infer, reuse)
	}
	return nil
}

// determinize re-samples in place what seat cannot see in s, a copy of the
// position the decision is at (a games.Determinizer): from the belief
// when the decision has one (belief), else as the game's Determinize.
func (p *Inference) determinize(b games.Belief, s games.State, seat games.Player, rng *pcg.Rand) {
	if b != nil {
		b.Determinize(s, rng)
		return
	}
	s.(games.Determinizer).Determinize(seat, rng)
}
