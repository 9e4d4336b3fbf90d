package model

import (
	"fmt"
	"math"

	"playtest/games"
	"playtest/games/pcg"
)

// MaxHidden bounds a dense network's hidden units (Value keeps them on
// its stack).
const MaxHidden = 256

// Dense is a small fully connected network over a board's cells: each
// cell's state one-hot (an input for each cell and state but state 0,
// usually empty, which the biases stand for), one hidden layer of ReLU
// units, one linear output. A position's value is
// Σ_j Out_j · max(0, InBias_j + Σ_{c: state(c) ≠ 0} In[c, state(c)]_j):
// one row of the first layer added per occupied cell, as NNUE's first
// layer reads its one-hot inputs (here summed anew for each position, not
// updated move by move), so a value costs Hidden additions an occupied
// cell and Hidden multiplications. Unlike an n-tuple network it shares no
// weights under the board's symmetries; a learner shows it the images of
// its positions instead (FitNTuple: a random one at each step). Value and
// Step allocate nothing.
type Dense struct {
	Board  games.CellBoard
	Hidden int
	// In is the first layer, by input: the hidden units' weights of cell
	// c in state s at In[(c·States + s)·Hidden:][:Hidden], 0 for s = 0.
	// InBias are the hidden units' biases, Out their weights in the
	// output.
	In     []float32
	InBias []float32
	Out    []float32
	all    []float32 // In, InBias and Out, one after another
}

// NewDense returns a network over board with hidden units: its first
// layer drawn from rng, uniform with He's variance 2 ⁄ Cells (Cells inputs
// are lit a position), its output weights 0, so that it values every
// position 0 until trained.
func NewDense(board games.CellBoard, hidden int, rng *pcg.Rand) (*Dense, error) {
	if err := board.Check(); err != nil {
		return nil, err
	}
	if hidden < 1 || hidden > MaxHidden {
		return nil, fmt.Errorf("%d hidden units: want 1 to %d", hidden, MaxHidden)
	}
	d := &Dense{Board: board, Hidden: hidden}
	d.slice(make([]float32, (board.Cells()*board.States+2)*hidden))
	if rng != nil {
		half := math.Sqrt(6 / float64(board.Cells())) // uniform on ±half: variance half² ⁄ 3
		for i := range d.In {
			if i/hidden%board.States != 0 {
				d.In[i] = float32((2*rng.Float64() - 1) * half)
			}
		}
	}
	return d, nil
}

// slice makes all the network's weights: In, InBias and Out, windows of
// it.
func (d *Dense) slice(all []float32) {
	in := len(all) - 2*d.Hidden
	d.all = all
	d.In, d.InBias, d.Out = all[:in:in], all[in:in+d.Hidden:in+d.Hidden], all[in+d.Hidden:]
}

// hidden fills h with the hidden units' inputs for cells (before the ReLU).
func (d *Dense) hidden(cells []uint8, h []float32) {
	copy(h, d.InBias)
	stride := d.Board.States * d.Hidden
	for c, s := range cells {
		if s == 0 {
			continue // state 0 lights no input: the biases stand for it
		}
		addRow(h, d.In[c*stride+int(s)*d.Hidden:][:len(h)])
	}
}

// Value is the network's value of cells (a position's, AppendCells).
func (d *Dense) Value(cells []uint8) float64 {
	var buf [MaxHidden]float32
	h := buf[:d.Hidden]
	d.hidden(cells, h)
	var v float32
	for j, x := range h {
		if x > 0 {
			v += x * d.Out[j]
		}
	}
	return float64(v)
}

// Step moves the network by delta times the gradient of its value at
// cells (a gradient step of a log-loss or squared error: delta = rate ·
// (target − prediction)), every weight by the value's derivative in it,
// each layer's from the weights before the step.
func (d *Dense) Step(cells []uint8, delta float64) {
	var buf, gbuf [MaxHidden]float32
	h, g := buf[:d.Hidden], gbuf[:d.Hidden]
	d.hidden(cells, h)
	dl := float32(delta)
	for j, x := range h {
		if x > 0 {
			g[j] = dl * d.Out[j]
			d.Out[j] += dl * x
		}
	}
	for j, x := range g {
		d.InBias[j] += x
	}
	stride := d.Board.States * d.Hidden
	for c, s := range cells {
		if s == 0 {
			continue
		}
		addRow(d.In[c*stride+int(s)*d.Hidden:][:len(g)], g)
	}
}

// addRow adds row to h, of the same length, eight at a time.
func addRow(h, row []float32) {
	row = row[:len(h)]
	j := 0
	for ; j+8 <= len(h); j += 8 {
		a, b := h[j:j+8:j+8], row[j:j+8:j+8]
		a[0] += b[0]
		a[1] += b[1]
		a[2] += b[2]
		a[3] += b[3]
		a[4] += b[4]
		a[5] += b[5]
		a[6] += b[6]
		a[7] += b[7]
	}
	for ; j < len(h); j++ {
		h[j] += row[j]
	}
}

// Clone is a copy of the network that shares nothing with it.
func (d *Dense) Clone() *Dense {
	c := &Dense{Board: d.Board, Hidden: d.Hidden}
	c.slice(append([]float32(nil), d.all...))
	return c
}
