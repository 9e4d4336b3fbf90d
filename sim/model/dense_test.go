package model

import (
	"math"
	"testing"

	"playtest/games"
	"playtest/games/pcg"
)

// randomDense is a dense network over board with every weight drawn from
// rng, its output weights too.
func randomDense(t testing.TB, board games.CellBoard, hidden int, rng *pcg.Rand) *Dense {
	t.Helper()
	d, err := NewDense(board, hidden, rng)
	if err != nil {
		t.Fatal(err)
	}
	for j := range d.Out {
		d.Out[j] = float32(rng.Float64()*2 - 1)
		d.InBias[j] = float32(rng.Float64() - 0.5)
	}
	return d
}

// TestDenseStepFollowsTheGradient (issue 56): a small Step moves the value
// by delta times the squared norm of its gradient, the gradient taken by
// finite differences of every weight, so Step's back-propagation is the
// value's derivative.
func TestDenseStepFollowsTheGradient(t *testing.T) {
	_, board := boardOf(t, "mnk", nil)
	rng := pcg.New(1, 2)
	d := randomDense(t, board, 6, rng)
	for trial := range 5 {
		cells := randomCells(rng, board)
		v := d.Value(cells)
		// ‖∇v‖² by finite differences: v is linear in each weight but the
		// first layer's through a ReLU, kinked only at 0.
		norm := 0.0
		const eps = 1e-3
		for i := range d.all {
			w := d.all[i]
			d.all[i] = w + eps
			up := d.Value(cells)
			d.all[i] = w - eps
			down := d.Value(cells)
			d.all[i] = w
			g := (up - down) / (2 * eps)
			norm += g * g
		}
		c := d.Clone()
		const delta = 1e-5
		c.Step(cells, delta)
		if got := (c.Value(cells) - v) / delta; math.Abs(got-norm) > 1e-2*norm+1e-3 {
			t.Errorf("trial %d: a step of %g moved the value by %g times it, the gradient's squared norm is %g", trial, delta, got, norm)
		}
		if v2 := d.Value(cells); v2 != v {
			t.Fatalf("Clone shares weights: the original moved from %g to %g", v, v2)
		}
	}
}

// TestDenseLearnsASyntheticValue (issue 56): on positions whose value is
// known (lineScore: three in a row, which no single cell's state shows),
// a dense network of 64 units fitted by stochastic gradient descent
// predicts held-out positions within an RMSE of 0.2 (0.154 measured) of values that
// spread over about ±2, where the best sum of single cells' terms (a
// network of no hidden layer) misses by more than 0.35.
func TestDenseLearnsASyntheticValue(t *testing.T) {
	_, board := boardOf(t, "mnk", nil)
	rng := pcg.New(5, 6)
	d, err := NewDense(board, 64, rng)
	if err != nil {
		t.Fatal(err)
	}
	// The linear fit: one weight per cell and state (a tuple of one cell
	// each, no symmetries shared).
	flat := board
	flat.Symmetries = board.Symmetries[:1]
	single := make([][]int, board.Cells())
	for c := range single {
		single[c] = []int{c}
	}
	lin, err := NewNTuple(flat, single)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 200000 {
		cells := randomCells(rng, board)
		y := lineScore(cells)
		rate := 0.01
		if i > 150000 {
			rate = 0.002
		}
		d.Step(cells, rate*(y-d.Value(cells)))
		lin.Update(cells, 0.01/9*(y-lin.Value(cells)))
	}
	var se, seLin, spread float64
	const held = 4000
	for range held {
		cells := randomCells(rng, board)
		y := lineScore(cells)
		se += (y - d.Value(cells)) * (y - d.Value(cells))
		seLin += (y - lin.Value(cells)) * (y - lin.Value(cells))
		spread += y * y
	}
	rmse, rmseLin := math.Sqrt(se/held), math.Sqrt(seLin/held)
	t.Logf("held-out RMSE %.3f, single cells' %.3f, values' RMS %.2f", rmse, rmseLin, math.Sqrt(spread/held))
	if rmse > 0.2 || rmseLin < 0.35 {
		t.Errorf("held-out RMSE %.3f (want at most 0.2), single cells' %.3f (want above 0.35)", rmse, rmseLin)
	}
}

// TestDenseAllocatesNothing: a position's value and a step allocate
// nothing; NewDense refuses hidden units out of bounds.
func TestDenseAllocatesNothing(t *testing.T) {
	g, board := boardOf(t, "connect4", nil)
	d := randomDense(t, board, 64, pcg.New(9, 9))
	s := g.NewState()
	cells := s.(games.CellState).AppendCells(make([]uint8, 0, board.Cells()), games.Seat0)
	if allocs := testing.AllocsPerRun(100, func() {
		cells = s.(games.CellState).AppendCells(cells[:0], games.Seat0)
		d.Step(cells, 0.001*(1-d.Value(cells)))
	}); allocs != 0 {
		t.Errorf("%.0f allocations a position", allocs)
	}
	for _, bad := range []int{0, -1, MaxHidden + 1} {
		if _, err := NewDense(board, bad, nil); err == nil {
			t.Errorf("%d hidden units accepted", bad)
		}
	}
}

// BenchmarkDenseValue: one position's value, 32 hidden units over
// Stacktics' default board and Connect Four 7 × 6.
func BenchmarkDenseValue(b *testing.B) {
	for _, name := range []string{"stacktics", "connect4"} {
		b.Run(name, func(b *testing.B) {
			g, board := boardOf(b, name, nil)
			d := randomDense(b, board, 32, pcg.New(1, 1))
			cells := g.NewState().(games.CellState).AppendCells(nil, games.Seat0)
			b.ReportAllocs()
			sum := 0.0
			for b.Loop() {
				sum += d.Value(cells)
			}
			_ = sum
		})
	}
}

// TestDenseModelRoundTrip (issue 56): a dense model written to model.json
// (schema v2, kind dense) reads back to the same values, from the mover's
// view and negated for the other seat; a model of another board, game or
// rules, and a damaged one, are handled as the other kinds are.
func TestDenseModelRoundTrip(t *testing.T) {
	g, board := boardOf(t, "connect4", nil)
	rng := pcg.New(11, 12)
	hash := RulesHash(g.Name(), "rules")
	d := randomDense(t, board, 8, rng)
	m := NewDenseModel(g.Name(), d, 0.125, 2)
	m.RulesHash = hash
	text, back := writeAndRead(t, m, g)
	s := g.NewState()
	for range 10 {
		moves := s.LegalMoves(nil)
		s.Apply(moves[rng.IntN(len(moves))])
	}
	var sc, sc2 Scratch
	mover := s.CurrentPlayer()
	for _, seat := range []games.Player{games.Seat0, games.Seat1} {
		want := 0.125 + d.Value(s.(games.CellState).AppendCells(nil, mover))
		if seat != mover {
			want = -want
		}
		if got := back.StateLogit(s, seat, &sc); math.Abs(got-want) > 1e-6 || math.Abs(back.Evaluate(s, seat, &sc2)-want/2) > 1e-6 {
			t.Errorf("%v: logit %v, want %v", seat, got, want)
		}
		if got := back.LogitLead(s, seat, &sc); math.Abs(got-2*want) > 1e-6 {
			t.Errorf("%v: lead %v, want %v", seat, got, 2*want)
		}
	}
	if allocs := testing.AllocsPerRun(100, func() { back.Evaluate(s, games.Seat1, &sc) }); allocs != 0 {
		t.Errorf("Evaluate allocates %.1f times", allocs)
	}
	if back.DenseNet() == nil || back.Net() != nil {
		t.Error("the model read back is not a dense network")
	}
	refusesOthers(t, back, g, hash, text, []damage{
		{`"playtest/model/v2"`, `"playtest/model/v1"`, "schema"},
		{`"kind": "dense"`, `"kind": "deep"`, "kind"},
		{`"kind": "dense"`, `"kind": "ntuple"`, "dense: in a model of kind ntuple"},
		{`"hidden": 8`, `"hidden": 0`, "hidden units"},
		{`"hidden": 8`, `"hidden": 7`, "dense.sparse_weights"},
		{`"sparse_weights": "`, `"sparse_weights": "AAAA`, "sparse_weights"},
		{`"dense": {`, `"ntuple": {"rows": 1}, "dense": {`, "ntuple: in a model of kind dense"},
		// A size no board has is refused, not allocated.
		{`"rows": 6`, `"rows": 2000000000`, "want 1 to 256 cells"},
	})
}
