package bots

import (
	"playtest/games"
	"playtest/sim/model"
)

// ModelUser is implemented by the parameters of a bot that can judge
// positions with an evaluation learned for the variant (playtest learn)
// instead of the game's hand heuristic: the variant loads the file
// ModelFile names (relative to the variant's file), checks it against the
// game and its rules (refusing other rules when StrictModel), and hands it
// over with UseModel with the file's SHA-256, which the run's config hash
// covers instead of the path.
type ModelUser interface {
	ModelFile() string
	StrictModel() bool
	UseModel(m *model.Model, sha string)
	// HasModel reports whether a model was handed over: a bot whose
	// model file was never loaded refuses to play (Spec.New) rather than
	// fall back to the hand heuristic unnoticed.
	HasModel() bool
	// LearnedModel is the model handed over (nil for none).
	LearnedModel() *model.Model
	// WithModel returns a copy of the parameters playing m (named name,
	// with content hash sha) with eval: learned: how playtest learn's
	// generations give the variant's bots the model before.
	WithModel(m *model.Model, name, sha string) Params
}

// validateEval checks a bot's eval: and model: parameters; "hand" reads
// as the default "", so both spellings make one run.
func validateEval(eval *string, modelFile string) error {
	switch *eval {
	case "", "hand":
		*eval = ""
		if modelFile != "" {
			return games.KnobErrorf("model", "is read only with eval: learned")
		}
	case "learned":
		if modelFile == "" {
			return games.KnobErrorf("model", "is required with eval: learned: the model.json playtest learn --out wrote")
		}
	default:
		return games.KnobErrorf("eval", "want hand or learned, got %q", *eval)
	}
	return nil
}

// learnedLead is seat's lead by a learned model, in the hand heuristic's
// units: its logit from seat's view minus the other seat's, over the
// model's hand scale (with the hand weights as the model's, exactly the
// heuristic's Evaluate(seat) − Evaluate(other)). buf is the features'
// buffer, returned for reuse.
func learnedLead(m *model.Model, s games.State, seat games.Player, buf []float64) (float64, []float64) {
	fs := s.(games.FeatureState)
	var mine, theirs float64
	mine, buf = m.Evaluate(fs, seat, buf)
	theirs, buf = m.Evaluate(fs, seat.Opponent(), buf)
	return mine - theirs, buf
}
