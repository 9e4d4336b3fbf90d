package model

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"

	"playtest/games"
)

// Schema is model.json's schema tag.
const Schema = "playtest/model/v1"

// Model is a learned evaluation of one variant's positions.
type Model struct {
	Schema string `json:"schema"`
	Game   string `json:"game"`
	// RulesHash identifies the game and its resolved rules (RulesHash), not
	// the players, games or seed: a model learned under other rules is
	// another model.
	RulesHash string `json:"rules_hash"`
	// Rules are the resolved rules it was learned under, for people.
	Rules json.RawMessage `json:"rules,omitempty"`
	// Features are the feature names, in the order of Weights.
	Features []string  `json:"features"`
	Weights  []float64 `json:"weights"`
	Bias     float64   `json:"bias"`
	// HandScale is K of the hand heuristic's best logistic fit σ(K·hand +
	// b) to the same positions: the learned logit divided by it is in the
	// hand heuristic's units.
	HandScale float64 `json:"hand_scale"`
	// Training says how the model was learned and how well it predicts.
	Training json.RawMessage `json:"training,omitempty"`
}

// RulesHash is the hash a model keeps of its game and resolved rules.
func RulesHash(game string, rules any) string {
	b, err := json.Marshal(rules)
	if err != nil {
		b = []byte(fmt.Sprint(rules))
	}
	h := sha256.Sum256(append([]byte(game+"\n"), b...))
	return "sha256:" + hex.EncodeToString(h[:])
}

// Logit is bias + Σ w_i·f_i for features f in the model's order.
func (m *Model) Logit(f []float64) float64 {
	v := m.Bias
	for i, x := range f {
		v += m.Weights[i] * x
	}
	return v
}

// Probability is σ(Logit(f)): the chance that the seat the features
// describe wins (a draw counting ½).
func (m *Model) Probability(f []float64) float64 { return Sigmoid(m.Logit(f)) }

// Evaluate is the learned value of s for seat in the hand heuristic's
// units (Logit / HandScale), computing the features into buf (which it
// returns for reuse): allocation-free when buf has room.
func (m *Model) Evaluate(s games.FeatureState, seat games.Player, buf []float64) (float64, []float64) {
	buf = s.AppendFeatures(buf[:0], seat)
	return m.Logit(buf) / m.HandScale, buf
}

// Sigmoid is the logistic function, stable for large |x|.
func Sigmoid(x float64) float64 {
	if x >= 0 {
		return 1 / (1 + math.Exp(-x))
	}
	e := math.Exp(x)
	return e / (1 + e)
}

// Check tests that the model fits game g (its features, by name and
// order) and, when strict, that it was learned under rules with the given
// hash: a model of other rules is then refused; without strict the caller
// warns.
func (m *Model) Check(g games.Game, rulesHash string, strict bool) error {
	f, ok := g.(games.Featurer)
	if !ok {
		return fmt.Errorf("%s has no features: it cannot play a learned evaluation", g.Name())
	}
	if m.Game != g.Name() {
		return fmt.Errorf("the model is of %s, not %s", m.Game, g.Name())
	}
	names := make([]string, 0, len(f.Features()))
	for _, x := range f.Features() {
		names = append(names, x.Name)
	}
	if !slices.Equal(names, m.Features) {
		why := "learned by another version of playtest?"
		if m.RulesHash != rulesHash {
			why = "learned under other rules, which describe a position with other features: learn one for these rules"
		}
		return fmt.Errorf("the model's features %v are not %s's %v (%s)", m.Features, g.Name(), names, why)
	}
	if strict && m.RulesHash != rulesHash {
		return &OtherRulesError{Model: m.RulesHash, Rules: rulesHash}
	}
	return nil
}

// OtherRulesError refuses a model learned under other rules (model_strict).
type OtherRulesError struct{ Model, Rules string }

func (e *OtherRulesError) Error() string {
	return fmt.Sprintf("the model was learned under other rules (rules hash %s, these %s)", e.Model, e.Rules)
}

// Write writes the model as indented JSON.
func (m *Model) Write(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(m)
}

// Read reads and checks a model.json: its schema, and weights that are
// finite and as many as its features.
func Read(r io.Reader) (*Model, error) {
	var m Model
	dec := json.NewDecoder(io.LimitReader(r, 64<<20))
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("not a model (%v)", err)
	}
	switch {
	case m.Schema != Schema:
		return nil, fmt.Errorf("schema %q, want %s", m.Schema, Schema)
	case len(m.Weights) != len(m.Features):
		return nil, fmt.Errorf("%d weights for %d features", len(m.Weights), len(m.Features))
	case !(m.HandScale > 0) || math.IsInf(m.HandScale, 0):
		return nil, fmt.Errorf("hand_scale %v: want a positive number", m.HandScale)
	case !finite(m.Bias) || slices.ContainsFunc(m.Weights, func(w float64) bool { return !finite(w) }):
		return nil, errors.New("a weight is not a finite number")
	}
	return &m, nil
}

// Load reads a model file (Read).
func Load(path string) (*Model, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m, err := Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
