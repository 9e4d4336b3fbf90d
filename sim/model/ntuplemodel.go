package model

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"math"
	"slices"

	"playtest/games"
)

// NTupleSpec is an n-tuple model's network as model.json keeps it: the
// board it reads (games.CellBoard: its size, states and how many
// symmetries it shares weights under), the tuples, and every tuple's
// table, one after another, as little-endian float32s in base64.
type NTupleSpec struct {
	Rows       int     `json:"rows"`
	Cols       int     `json:"cols"`
	States     int     `json:"states"`
	Symmetries int     `json:"symmetries"`
	Tuples     [][]int `json:"tuples"`
	Weights    string  `json:"weights"`
}

// MaxTuples bounds an n-tuple model's tuples.
const MaxTuples = 1000

// NewNTupleModel wraps a network as a model of game (its rules hash set by
// the caller), its logit Bias + the network's value.
func NewNTupleModel(game string, n *NTuple, bias, handScale float64) *Model {
	m := &Model{Schema: SchemaV2, Game: game, Kind: KindNTuple, Bias: bias, HandScale: handScale, net: n}
	var raw []byte
	for _, w := range n.Weights {
		for _, x := range w {
			raw = binary.LittleEndian.AppendUint32(raw, math.Float32bits(x))
		}
	}
	m.NTuple = &NTupleSpec{Rows: n.Board.Rows, Cols: n.Board.Cols, States: n.Board.States, Symmetries: len(n.Board.Symmetries),
		Tuples: n.Tuples, Weights: base64.StdEncoding.EncodeToString(raw)}
	return m
}

// WithBase returns the n-tuple model m on top of the logistic model base:
// base's features and weights join m's logit (Σw·f over the mover's
// features, Model.Kind; m's bias stands for base's), and m takes base's
// hand scale, so that with a network of zeros and base's bias it rates the
// mover as base does.
func (m *Model) WithBase(base *Model) *Model {
	c := *m
	c.Features, c.Weights, c.HandScale = slices.Clone(base.Features), slices.Clone(base.Weights), base.HandScale
	return &c
}

// Base is the logistic model an n-tuple model was learned on top of (its
// features and weights, with its bias), nil where it has none; a logistic
// model is its own base.
func (m *Model) Base() *Model {
	switch {
	case m.Kind == "":
		return m
	case len(m.Weights) == 0:
		return nil
	}
	return &Model{Schema: Schema, Game: m.Game, RulesHash: m.RulesHash, Rules: m.Rules, Features: m.Features, Weights: m.Weights, Bias: m.Bias, HandScale: m.HandScale}
}

// checkNTuple checks an n-tuple model's numbers and builds its network on
// a board of its size without symmetries (checkBoard rebuilds it with the
// game's).
func (m *Model) checkNTuple() error {
	spec := m.NTuple
	switch {
	case spec == nil:
		return fmt.Errorf("ntuple: missing from a model of kind %s", KindNTuple)
	case !within(m.Bias, MaxWeight):
		return fmt.Errorf("bias %v: want a number from −%g to %g", m.Bias, MaxWeight, MaxWeight)
	case !(m.HandScale >= MinHandScale && m.HandScale <= MaxHandScale):
		return fmt.Errorf("hand_scale %v: want a number from %g to %g", m.HandScale, MinHandScale, MaxHandScale)
	case len(spec.Tuples) == 0 || len(spec.Tuples) > MaxTuples:
		return fmt.Errorf("ntuple.tuples: %d of them, want 1 to %d", len(spec.Tuples), MaxTuples)
	case spec.Symmetries < 1 || spec.Symmetries > 64:
		return fmt.Errorf("ntuple.symmetries %d: want 1 to 64", spec.Symmetries)
	}
	board := games.CellBoard{Rows: spec.Rows, Cols: spec.Cols, States: spec.States}
	identity := make([]int, max(0, spec.Rows*spec.Cols))
	for c := range identity {
		identity[c] = c
	}
	board.Symmetries = [][]int{identity}
	return m.buildNet(board)
}

// buildNet builds the network on board from the spec's tuples and weights.
func (m *Model) buildNet(board games.CellBoard) error {
	spec := m.NTuple
	n, err := NewNTuple(board, spec.Tuples)
	if err != nil {
		return fmt.Errorf("ntuple: %v", err)
	}
	raw, err := base64.StdEncoding.DecodeString(spec.Weights)
	if err != nil {
		return fmt.Errorf("ntuple.weights: not base64 (%v)", err)
	}
	total := 0
	for _, w := range n.Weights {
		total += len(w)
	}
	if len(raw) != 4*total {
		return fmt.Errorf("ntuple.weights: %d bytes for %d weights", len(raw), total)
	}
	for _, w := range n.Weights {
		for i := range w {
			x := math.Float32frombits(binary.LittleEndian.Uint32(raw))
			raw = raw[4:]
			if !within(float64(x), MaxWeight) {
				return fmt.Errorf("ntuple.weights: %v is not a number from −%g to %g", x, MaxWeight, MaxWeight)
			}
			w[i] = x
		}
	}
	m.net = n
	return nil
}

// checkBoard checks an n-tuple model against game g: its board's size,
// states and symmetries, then the rules hash as Check does; the network
// then reads the game's symmetries.
func (m *Model) checkBoard(g games.Game, rulesHash string, strict bool) error {
	b, ok := g.(games.Boarder)
	if !ok {
		return fmt.Errorf("%s has no board of cells: it cannot play an n-tuple model", g.Name())
	}
	if m.Game != g.Name() {
		return fmt.Errorf("the model is of %s, not %s", m.Game, g.Name())
	}
	board, spec := b.CellBoard(), m.NTuple
	if board.Rows != spec.Rows || board.Cols != spec.Cols || board.States != spec.States || len(board.Symmetries) != spec.Symmetries {
		return fmt.Errorf("the model reads a %d × %d board of %d states with %d symmetries, and these rules give %d × %d, %d states, %d symmetries (learn one for these rules)",
			spec.Rows, spec.Cols, spec.States, spec.Symmetries, board.Rows, board.Cols, board.States, len(board.Symmetries))
	}
	if strict && m.RulesHash != rulesHash {
		return &OtherRulesError{Model: m.RulesHash, Rules: rulesHash}
	}
	if !slices.EqualFunc(m.net.Board.Symmetries, board.Symmetries, slices.Equal) {
		return m.buildNet(board)
	}
	return nil
}
