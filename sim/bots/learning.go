package bots

import (
	"reflect"
	"strings"

	"playtest/games"
	"playtest/sim/model"
)

// Learning are the parameters of a bot that may judge positions with an
// evaluation learned for the variant (playtest learn) instead of the
// game's hand heuristic, embedded in the parameters of alphabeta, mcts,
// ismcts and greedy (their knobs stand beside the bot's own). The model
// file's path is read by the variant and never hashed: a run's config hash
// covers the model's content (ModelSHA), so a changed model is another run.
type Learning struct {
	Eval        string `yaml:"eval" json:"eval,omitempty" default:"" doc:"the evaluation: hand (the game's heuristic; the default; said outright, it sets aside any model:, as --set players.0.eval=hand over a preset's bots) or learned (the model: file's; alphabeta and greedy in the heuristic's units, so noise, temperature and tempo keep their meaning; mcts and ismcts at cut rollouts and in the implicit minimax by its own chance of winning, eval_scale aside)"`
	Model       string `yaml:"model" json:"-" default:"" doc:"with eval: learned, the model.json playtest learn wrote (a path relative to the variant's file, or preset for the preset's shipped model); the run's config hash covers its content, not its path"`
	ModelStrict bool   `yaml:"model_strict" json:"model_strict,omitempty" default:"false" doc:"refuse a model learned under other rules than the variant's (otherwise it is used, with a model-rules warning)"`
	// ModelSHA is the SHA-256 of the model file's content, set when the
	// variant loads it: what the config hash covers of the model.
	ModelSHA string `yaml:"-" json:"model_sha256,omitempty"`
	learned  *model.Model
}

// ModelUser is implemented by the parameters of a bot that can play a
// learned evaluation (those embedding Learning): the variant loads the
// file ModelFile names (relative to the variant's file), checks it against
// the game and its rules (refusing other rules when StrictModel), and
// hands it over with UseModel with the file's SHA-256.
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
	ModelLabel() string
	SetModelPath(path string)
	learning() *Learning
}

// ModelFile is the model file to load ("" for the hand heuristic).
func (l *Learning) ModelFile() string { return l.Model }

// StrictModel says a model of other rules is refused.
func (l *Learning) StrictModel() bool { return l.ModelStrict }

// UseModel makes the bot judge positions with m, whose file's SHA-256 is
// sha.
func (l *Learning) UseModel(m *model.Model, sha string) { l.learned, l.ModelSHA = m, sha }

// HasModel reports whether the model was loaded.
func (l *Learning) HasModel() bool { return l.learned != nil }

// LearnedModel is the model loaded, nil for none.
func (l *Learning) LearnedModel() *model.Model { return l.learned }

func (l *Learning) learning() *Learning { return l }

// ModelLabel names the model the bot plays, wherever bots are named: its
// file as the variant gives it ("preset", "m/model.json", or nothing when
// read back from a run's summary, which keeps the content's hash alone)
// and the first 8 digits of its content's SHA-256: "preset sha256:1a2b3c4d".
// Two runs whose bots differ only in their model are told apart by it. ""
// for a bot without a model.
func (l *Learning) ModelLabel() string {
	short := strings.TrimPrefix(l.ModelSHA, "sha256:")
	if len(short) > 8 {
		short = short[:8]
	}
	switch {
	case l.Model == "" && short == "":
		return ""
	case short == "":
		return l.Model
	case l.Model == "":
		return "sha256:" + short
	}
	return l.Model + " sha256:" + short
}

// SetModelPath records the model file's path as the variant named it (a
// run's summary keeps it beside the parameters, which leave it out of the
// config hash).
func (l *Learning) SetModelPath(path string) { l.Model = path }

// validate checks eval: and model:; "hand" reads as the default "", so
// both spellings make one run. An explicit eval: hand sets aside the
// model: a preset's bots name (--set players.0.eval=hand plays them on
// the hand heuristic); a model: without eval: learned is refused.
func (l *Learning) validate() error {
	switch l.Eval {
	case "hand":
		l.Eval, l.Model = "", ""
	case "":
		if l.Model != "" {
			return games.KnobErrorf("model", "is read only with eval: learned")
		}
	case "learned":
		if l.Model == "" {
			return games.KnobErrorf("model", "is required with eval: learned: the model.json playtest learn --out wrote")
		}
	default:
		return games.KnobErrorf("eval", "want hand or learned, got %q", l.Eval)
	}
	return nil
}

// WithModel returns the spec playing m (named name, its content hashed
// sha) with eval: learned, its other parameters unchanged: how playtest
// learn's generations give the variant's bots the model before. ok is
// false for a bot that cannot play a model.
func (s Spec) WithModel(m *model.Model, name, sha string) (Spec, bool) {
	c, l, ok := s.withLearning()
	if !ok {
		return s, false
	}
	l.Eval, l.Model = "learned", name
	l.UseModel(m, sha)
	return c, true
}

// WithHand returns the spec judging with the game's hand heuristic, its
// other parameters unchanged (the spec itself for a bot that plays no
// model): where playtest learn's first generation starts.
func (s Spec) WithHand() Spec {
	c, l, ok := s.withLearning()
	if !ok {
		return s
	}
	*l = Learning{}
	return c
}

// withLearning returns a copy of the spec with its parameters copied and
// their Learning, false for a bot that cannot play a model.
func (s Spec) withLearning() (Spec, *Learning, bool) {
	if _, ok := s.Params.(ModelUser); !ok {
		return s, nil, false
	}
	v := reflect.ValueOf(s.Params).Elem()
	c := reflect.New(v.Type())
	c.Elem().Set(v)
	return Spec{Bot: s.Bot, Params: c.Interface().(Params)}, c.Interface().(ModelUser).learning(), true
}

// learnedLead is seat's lead by a learned model, in the hand heuristic's
// units: its logit from seat's view minus the other seat's, over the
// model's hand scale (with the hand weights as the model's, exactly the
// heuristic's Evaluate(seat) − Evaluate(other)), with sc's buffers.
func learnedLead(m *model.Model, s games.State, seat games.Player, sc *model.Scratch) float64 {
	return m.LogitLead(s, seat, sc) / m.HandScale
}
