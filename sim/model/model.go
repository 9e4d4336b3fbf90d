package model

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"

	"playtest/games"
	"playtest/internal/printable"
	"playtest/internal/strictjson"
)

// Schema is model.json's schema tag: v1 for a logistic model over the
// game's features, SchemaV2 for the other kinds (v2 reads v1).
const Schema = "playtest/model/v1"

// SchemaV2 tags a model of another kind than the logistic (Kind).
const SchemaV2 = "playtest/model/v2"

// KindNTuple is the kind of an n-tuple network over the game's cells.
const KindNTuple = "ntuple"

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
	// Kind is the model's form: "" a logistic over the game's features
	// (Features, Weights), KindNTuple an n-tuple network over its cells
	// (NTuple) or KindDense a dense one (Dense), its logit from the
	// mover's view Bias + the network's value, plus, where it has
	// Features and Weights (a base: the logistic it was learned on top
	// of), Σw·f over the mover's features: one seat's features a
	// position.
	Kind   string      `json:"kind,omitempty"`
	NTuple *NTupleSpec `json:"ntuple,omitempty"`
	Dense  *DenseSpec  `json:"dense,omitempty"`

	// BaseOf is the kind of the network a model is the logistic base of
	// (Base), "" for a model as read or learned.
	BaseOf string `json:"-"`

	net   *NTuple // NTuple's network, built by Validate
	dense *Dense  // Dense's network, built by Validate
}

// cellNetwork is a network over a position's cells: an n-tuple network or
// a dense one.
type cellNetwork interface {
	Value(cells []uint8) float64
}

// network is the model's network over the cells, nil for a logistic
// model.
func (m *Model) network() cellNetwork {
	switch {
	case m.net != nil:
		return m.net
	case m.dense != nil:
		return m.dense
	}
	return nil
}

// Scratch holds the buffers a model evaluates positions with, for one
// goroutine: the features, or the cells.
type Scratch struct {
	Features []float64
	Cells    []uint8
}

// StateLogit is the model's logit of s from seat's view (its chance that
// seat wins, a draw counting ½), of any kind: allocation-free once sc's
// buffers have grown. An n-tuple network rates the position from its
// mover's view, and the other seat's logit is the negation of the mover's;
// in a game with hidden information, from seat's own view (MoverView).
func (m *Model) StateLogit(s games.State, seat games.Player, sc *Scratch) float64 {
	if net := m.network(); net != nil {
		view, negate := MoverView(s, seat)
		sc.Cells = s.(games.CellState).AppendCells(sc.Cells[:0], view)
		v := net.Value(sc.Cells)
		if len(m.Weights) > 0 {
			// The base: the logistic's weights over the mover's features.
			sc.Features = s.(games.FeatureState).AppendFeatures(sc.Features[:0], view)
			v += m.Logit(sc.Features)
		} else {
			v += m.Bias
		}
		if negate {
			return -v
		}
		return v
	}
	sc.Features = s.(games.FeatureState).AppendFeatures(sc.Features[:0], seat)
	return m.Logit(sc.Features)
}

// LogitLead is seat's logit less the other seat's, StateLogit's of both:
// one evaluation for a network (the other's logit is the
// negation of the mover's) where nothing is hidden, two for a logistic
// model or a game with hidden information, in one pass over the
// position where the game gives both seats' features at once
// (games.FeaturePairState).
func (m *Model) LogitLead(s games.State, seat games.Player, sc *Scratch) float64 {
	if _, hidden := s.(games.Determinizer); m.network() != nil && !hidden {
		return 2 * m.StateLogit(s, seat, sc)
	}
	if fp, ok := s.(games.FeaturePairState); ok {
		// Both seats' features in one pass: the same logits.
		sc.Features = fp.AppendFeaturePair(sc.Features[:0], seat)
		n := len(sc.Features) / 2
		return m.Logit(sc.Features[:n]) - m.Logit(sc.Features[n:])
	}
	return m.StateLogit(s, seat, sc) - m.StateLogit(s, seat.Opponent(), sc)
}

// LazyLogitLead is LogitLead where a search needs only to know whether it
// lies within (lo, hi): for a network over a logistic base in a game
// without hidden information, the base's lead alone where that lies more
// than margin outside the window, the network left unread (exact false);
// otherwise LogitLead's value, bit for bit (exact true).
func (m *Model) LazyLogitLead(s games.State, seat games.Player, sc *Scratch, lo, hi, margin float64) (lead float64, exact bool) {
	net := m.network()
	if _, hidden := s.(games.Determinizer); net == nil || hidden || len(m.Weights) == 0 {
		return m.LogitLead(s, seat, sc), true
	}
	view, negate := MoverView(s, seat)
	sc.Features = s.(games.FeatureState).AppendFeatures(sc.Features[:0], view)
	base := m.Logit(sc.Features)
	sign := 2.0
	if negate {
		sign = -2
	}
	if lead = sign * base; lead-margin >= hi || lead+margin <= lo {
		return lead, false
	}
	sc.Cells = s.(games.CellState).AppendCells(sc.Cells[:0], view)
	return sign * (net.Value(sc.Cells) + base), true
}

// Net is an n-tuple model's network (nil for a logistic model).
func (m *Model) Net() *NTuple { return m.net }

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
// units (StateLogit / HandScale).
func (m *Model) Evaluate(s games.State, seat games.Player, sc *Scratch) float64 {
	return m.StateLogit(s, seat, sc) / m.HandScale
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
	if m.Kind == KindNTuple || m.Kind == KindDense {
		if len(m.Features) > 0 {
			if err := m.checkFeatures(g, rulesHash); err != nil {
				return err
			}
		}
		return m.checkBoard(g, rulesHash, strict)
	}
	if err := m.checkFeatures(g, rulesHash); err != nil {
		return err
	}
	if strict && m.RulesHash != rulesHash {
		return &OtherRulesError{Model: m.RulesHash, Rules: rulesHash}
	}
	return nil
}

// checkFeatures checks that the model's features are game g's, by name
// and order.
func (m *Model) checkFeatures(g games.Game, rulesHash string) error {
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
			why = "learned under other rules, which describe a position with other features: learn one for these rules with playtest learn, or play the hand heuristic with eval: hand (--set players.N.eval=hand)"
		}
		return fmt.Errorf("the model's features %s are not %s's %s (%s)", list(m.Features), g.Name(), list(names), why)
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

// Bounds a model's numbers must keep: a learned logit is a sum of weights
// times features of a few hundred at most, and the hand heuristic's scale
// is that of its values; anything past these is a damaged or hand-made
// file whose evaluations would overflow.
const (
	MaxWeight    = 1e6
	MinHandScale = 1e-6
	MaxHandScale = 1e6
	MaxFeatures  = 4096
)

// Read reads and checks a model.json (Validate): strict JSON (no key twice,
// nothing after the model), read up to 64 MiB.
func Read(r io.Reader) (*Model, error) {
	b, err := io.ReadAll(io.LimitReader(r, 64<<20+1))
	if err != nil {
		return nil, err
	}
	if len(b) > 64<<20 {
		return nil, errors.New("larger than 64 MiB: not a model")
	}
	var m Model
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("not a model (%s)", printable.Cut(err.Error(), 300))
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("not a model (data after the JSON value)")
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	// Only a model of bounded size reaches the check of keys given twice.
	if err := strictjson.Check(b); err != nil {
		return nil, fmt.Errorf("not a model (%s)", printable.Cut(err.Error(), 300))
	}
	return &m, nil
}

// Validate checks a model read back: its schema, a game and rules hash of
// the right form, one finite weight of at most MaxWeight for each of at
// most MaxFeatures distinct named features, a bias within the same bound
// and a hand scale from MinHandScale to MaxHandScale. The error names the
// field.
func (m *Model) Validate() error {
	switch {
	case m.Kind == "" && m.Schema != Schema:
		return fmt.Errorf("schema %q, want %s", printable.Cut(m.Schema, 80), Schema)
	case m.Kind != "" && m.Schema != SchemaV2:
		return fmt.Errorf("schema %q of a model of kind %q, want %s", printable.Cut(m.Schema, 80), printable.Cut(m.Kind, 40), SchemaV2)
	case m.Game == "" || len(m.Game) > 100 || printable.OneLine(m.Game) != m.Game:
		return fmt.Errorf("game %q: want a game's name", printable.Cut(m.Game, 100))
	case !validHash(m.RulesHash):
		return fmt.Errorf("rules_hash %q: want sha256: and 64 hexadecimal digits", printable.Cut(m.RulesHash, 100))
	}
	return m.CheckWeights()
}

// CheckWeights checks a model's numbers, as Validate does, without its
// game and rules hash (a model kept while learning has neither yet).
func (m *Model) CheckWeights() error {
	switch m.Kind {
	case "":
	case KindNTuple, KindDense:
		if len(m.Features) > 0 || len(m.Weights) > 0 {
			if err := m.checkLinear(); err != nil {
				return err
			}
		}
		if m.Kind == KindDense {
			if m.NTuple != nil {
				return fmt.Errorf("ntuple: in a model of kind %s", KindDense)
			}
			return m.checkDense()
		}
		if m.Dense != nil {
			return fmt.Errorf("dense: in a model of kind %s", KindNTuple)
		}
		return m.checkNTuple()
	default:
		return fmt.Errorf("kind %q: want %s, %s, or none for a logistic model", printable.Cut(m.Kind, 40), KindNTuple, KindDense)
	}
	return m.checkLinear()
}

// checkLinear checks a logistic's numbers: its features and weights, bias
// and hand scale.
func (m *Model) checkLinear() error {
	switch {
	case len(m.Features) == 0 || len(m.Features) > MaxFeatures:
		return fmt.Errorf("features: %d of them, want 1 to %d", len(m.Features), MaxFeatures)
	case len(m.Weights) != len(m.Features):
		return fmt.Errorf("weights: %d for %d features", len(m.Weights), len(m.Features))
	}
	if err := m.checkScales(); err != nil {
		return err
	}
	seen := make(map[string]bool, len(m.Features))
	for i, name := range m.Features {
		if name == "" || len(name) > 100 || printable.OneLine(name) != name || seen[name] {
			return fmt.Errorf("features[%d] %q: want a distinct feature name", i, printable.Cut(name, 100))
		}
		seen[name] = true
		if !within(m.Weights[i], MaxWeight) {
			return fmt.Errorf("weights[%d] (%s) %v: want a number from −%g to %g", i, name, m.Weights[i], MaxWeight, MaxWeight)
		}
	}
	return nil
}

// checkScales checks the numbers every kind has: a bias within MaxWeight
// and a hand scale from MinHandScale to MaxHandScale.
func (m *Model) checkScales() error {
	switch {
	case !within(m.Bias, MaxWeight):
		return fmt.Errorf("bias %v: want a number from −%g to %g", m.Bias, MaxWeight, MaxWeight)
	case !(m.HandScale >= MinHandScale && m.HandScale <= MaxHandScale):
		return fmt.Errorf("hand_scale %v: want a number from %g to %g", m.HandScale, MinHandScale, MaxHandScale)
	}
	return nil
}

// within reports whether x is a finite number of magnitude at most most.
func within(x, most float64) bool { return x >= -most && x <= most }

// validHash reports whether h is "sha256:" and 64 hexadecimal digits.
func validHash(h string) bool {
	hexPart, ok := strings.CutPrefix(h, "sha256:")
	if !ok || len(hexPart) != 64 {
		return false
	}
	_, err := hex.DecodeString(hexPart)
	return err == nil
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

// list shows names as a message quotes them: the first few, and how many
// more.
func list(names []string) string {
	const most = 8
	if len(names) <= most {
		return fmt.Sprint(names)
	}
	return fmt.Sprintf("%v … (%d in all)", names[:most], len(names))
}
