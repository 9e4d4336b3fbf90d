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
	// Weights holds every weight; Sparse, written instead where it is
	// shorter (most entries of a network learned from games are never
	// read, and stay 0), only the runs of weights that are not 0 (a
	// network of zeros is written whole): each a little-endian uint32 of
	// the zeros skipped before it, a uint32 of its length, and its
	// float32s, in base64.
	Weights string `json:"weights,omitempty"`
	Sparse  string `json:"sparse_weights,omitempty"`
}

// MaxTuples bounds an n-tuple model's tuples.
const MaxTuples = 1000

// NewNTupleModel wraps a network as a model of game (its rules hash set by
// the caller), its logit Bias + the network's value.
func NewNTupleModel(game string, n *NTuple, bias, handScale float64) *Model {
	m := &Model{Schema: SchemaV2, Game: game, Kind: KindNTuple, Bias: bias, HandScale: handScale, net: n}
	m.NTuple = &NTupleSpec{Rows: n.Board.Rows, Cols: n.Board.Cols, States: n.Board.States, Symmetries: len(n.Board.Symmetries), Tuples: n.Tuples}
	m.NTuple.Weights, m.NTuple.Sparse = writeWeights(n.Weights)
	return m
}

// writeWeights writes weights as model.json keeps a network's: every one
// (whole), or, where it is shorter, only the runs that are not 0
// (sparse), the other string empty; readWeights reads them back.
func writeWeights(weights [][]float32) (whole, sparse string) {
	var all, runs []byte
	var run []float32
	skipped := 0
	flush := func() {
		if len(run) > 0 {
			runs = binary.LittleEndian.AppendUint32(runs, uint32(skipped))
			runs = binary.LittleEndian.AppendUint32(runs, uint32(len(run)))
			for _, x := range run {
				runs = binary.LittleEndian.AppendUint32(runs, math.Float32bits(x))
			}
			run, skipped = run[:0], 0
		}
	}
	for _, w := range weights {
		for _, x := range w {
			all = binary.LittleEndian.AppendUint32(all, math.Float32bits(x))
			if x == 0 {
				flush()
				skipped++
			} else {
				run = append(run, x)
			}
		}
	}
	flush()
	if len(runs) > 0 && len(runs) < len(all) {
		return "", base64.StdEncoding.EncodeToString(runs)
	}
	return base64.StdEncoding.EncodeToString(all), ""
}

// WithBase returns the network's model m (an n-tuple or dense network) on
// top of the logistic model base: base's features and weights join m's
// logit (Σw·f over the mover's features, Model.Kind; m's bias stands for
// base's), and m takes base's hand scale, so that with a network of zeros
// and base's bias it rates the mover as base does.
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
	return &Model{Schema: Schema, Game: m.Game, RulesHash: m.RulesHash, Rules: m.Rules, Features: m.Features, Weights: m.Weights, Bias: m.Bias, HandScale: m.HandScale, BaseOf: m.Kind}
}

// BoardError refuses a network for a game whose board of cells is not the
// one it was learned on: its tables read cells by their place, so on
// another board they mean nothing (its logistic base, over the game's
// features, may still judge: Base).
type BoardError struct{ msg string }

func (e *BoardError) Error() string { return e.msg }

// checkNTuple checks an n-tuple model's numbers and builds its network on
// a board of its size without symmetries (checkBoard rebuilds it with the
// game's).
func (m *Model) checkNTuple() error {
	spec := m.NTuple
	switch {
	case spec == nil:
		return fmt.Errorf("ntuple: missing from a model of kind %s", KindNTuple)
	case m.checkScales() != nil:
		return m.checkScales()
	case len(spec.Tuples) == 0 || len(spec.Tuples) > MaxTuples:
		return fmt.Errorf("ntuple.tuples: %d of them, want 1 to %d", len(spec.Tuples), MaxTuples)
	case spec.Symmetries < 1 || spec.Symmetries > 64:
		return fmt.Errorf("ntuple.symmetries %d: want 1 to 64", spec.Symmetries)
	}
	return m.buildNet(plainBoard(spec.Rows, spec.Cols, spec.States))
}

// maxBoardCells is the most cells a board has (games.CellBoard.Check).
const maxBoardCells = 256

// plainBoard is a board of rows × cols cells of states states with no
// symmetry but the identity: a network's as model.json gives it, before
// the game's symmetries are known. A size no board has (which
// CellBoard.Check refuses) gets no identity: rows × cols may be huge.
func plainBoard(rows, cols, states int) games.CellBoard {
	if rows < 1 || cols < 1 || rows > maxBoardCells || cols > maxBoardCells || rows*cols > maxBoardCells {
		return games.CellBoard{Rows: rows, Cols: cols, States: states}
	}
	identity := make([]int, rows*cols)
	for c := range identity {
		identity[c] = c
	}
	return games.CellBoard{Rows: rows, Cols: cols, States: states, Symmetries: [][]int{identity}}
}

// buildNet builds the network on board from the spec's tuples and weights.
func (m *Model) buildNet(board games.CellBoard) error {
	spec := m.NTuple
	n, err := NewNTuple(board, spec.Tuples)
	if err != nil {
		return fmt.Errorf("ntuple: %v", err)
	}
	if err := readWeights("ntuple", spec.Weights, spec.Sparse, n.flat); err != nil {
		return err
	}
	m.net = n
	return nil
}

// readWeights reads a network's weights, written whole or sparse (exactly
// one of them; the fields of model.json's object named kind), into flat,
// every one a number within MaxWeight.
func readWeights(kind, whole, sparse string, flat []float32) error {
	field, text := kind+".weights", whole
	if sparse != "" {
		field, text = kind+".sparse_weights", sparse
	}
	if (whole == "") == (sparse == "") {
		return fmt.Errorf("%s: want weights or sparse_weights, one of them", kind)
	}
	raw, err := base64.StdEncoding.DecodeString(text)
	if err != nil {
		return fmt.Errorf("%s: not base64 (%v)", field, err)
	}
	word := func() uint32 {
		x := binary.LittleEndian.Uint32(raw)
		raw = raw[4:]
		return x
	}
	weight := func(at int) error {
		x := math.Float32frombits(word())
		if !within(float64(x), MaxWeight) {
			return fmt.Errorf("%s: %v is not a number from −%g to %g", field, x, MaxWeight, MaxWeight)
		}
		flat[at] = x
		return nil
	}
	if sparse == "" {
		if len(raw) != 4*len(flat) {
			return fmt.Errorf("%s: %d bytes for %d weights", field, len(raw), len(flat))
		}
		for at := range flat {
			if err := weight(at); err != nil {
				return err
			}
		}
		return nil
	}
	at := 0
	for len(raw) > 0 {
		if len(raw) < 8 {
			return fmt.Errorf("%s: a run cut short", field)
		}
		skip, count := int(word()), int(word())
		if count < 1 || skip > len(flat)-at || count > len(flat)-at-skip || len(raw) < 4*count {
			return fmt.Errorf("%s: a run of %d weights after %d zeros at weight %d does not fit %d weights", field, count, skip, at, len(flat))
		}
		at += skip
		for range count {
			if err := weight(at); err != nil {
				return err
			}
			at++
		}
	}
	return nil
}

// checkBoard checks a network's model against game g: its board's size
// and states (and, for an n-tuple network, its symmetries), then the
// rules hash as Check does; an n-tuple network then reads the game's
// symmetries.
func (m *Model) checkBoard(g games.Game, rulesHash string, strict bool) error {
	b, ok := g.(games.Boarder)
	if !ok {
		return fmt.Errorf("%s has no board of cells: it cannot play a model of kind %s", g.Name(), m.Kind)
	}
	if m.Game != g.Name() {
		return fmt.Errorf("the model is of %s, not %s", m.Game, g.Name())
	}
	board := b.CellBoard()
	if spec := m.Dense; spec != nil {
		if board.Rows != spec.Rows || board.Cols != spec.Cols || board.States != spec.States {
			return &BoardError{fmt.Sprintf("the model reads a %d × %d board of %d states, and these rules give %d × %d, %d states (learn one for these rules)",
				spec.Rows, spec.Cols, spec.States, board.Rows, board.Cols, board.States)}
		}
	} else if spec := m.NTuple; board.Rows != spec.Rows || board.Cols != spec.Cols || board.States != spec.States || len(board.Symmetries) != spec.Symmetries {
		return &BoardError{fmt.Sprintf("the model reads a %d × %d board of %d states with %d symmetries, and these rules give %d × %d, %d states, %d symmetries (learn one for these rules)",
			spec.Rows, spec.Cols, spec.States, spec.Symmetries, board.Rows, board.Cols, board.States, len(board.Symmetries))}
	}
	if strict && m.RulesHash != rulesHash {
		return &OtherRulesError{Model: m.RulesHash, Rules: rulesHash}
	}
	if m.net != nil && !slices.EqualFunc(m.net.Board.Symmetries, board.Symmetries, slices.Equal) {
		return m.buildNet(board)
	}
	return nil
}
