package model

import "fmt"

// KindDense is the kind of a small fully connected network over the
// game's cells (Dense).
const KindDense = "dense"

// DenseSpec is a dense model's network as model.json keeps it: the board
// it reads (its size and states), its hidden units, and its weights (In,
// then InBias, then Out) as little-endian float32s in base64, written as
// an n-tuple network's are.
type DenseSpec struct {
	Rows    int    `json:"rows"`
	Cols    int    `json:"cols"`
	States  int    `json:"states"`
	Hidden  int    `json:"hidden"`
	Weights string `json:"weights,omitempty"`
	Sparse  string `json:"sparse_weights,omitempty"`
}

// NewDenseModel wraps a dense network as a model of game (its rules hash
// set by the caller), its logit Bias + the network's value.
func NewDenseModel(game string, d *Dense, bias, handScale float64) *Model {
	m := &Model{Schema: SchemaV2, Game: game, Kind: KindDense, Bias: bias, HandScale: handScale, dense: d}
	m.Dense = &DenseSpec{Rows: d.Board.Rows, Cols: d.Board.Cols, States: d.Board.States, Hidden: d.Hidden}
	m.Dense.Weights, m.Dense.Sparse = writeWeights([][]float32{d.all})
	return m
}

// DenseNet is a dense model's network (nil for another kind).
func (m *Model) DenseNet() *Dense { return m.dense }

// checkDense checks a dense model's numbers and builds its network.
func (m *Model) checkDense() error {
	spec := m.Dense
	switch {
	case spec == nil:
		return fmt.Errorf("dense: missing from a model of kind %s", KindDense)
	}
	if err := m.checkScales(); err != nil {
		return err
	}
	d, err := NewDense(plainBoard(spec.Rows, spec.Cols, spec.States), spec.Hidden, nil)
	if err != nil {
		return fmt.Errorf("dense: %v", err)
	}
	if err := readWeights("dense", spec.Weights, spec.Sparse, d.all); err != nil {
		return err
	}
	m.dense = d
	return nil
}
