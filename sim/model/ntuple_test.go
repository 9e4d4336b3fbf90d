package model

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"playtest/games"
	"playtest/games/catalog"
	"playtest/games/connect4"
	"playtest/games/pcg"
)

// boardOf is the cell board of a catalog game with its default rules
// changed by set.
func boardOf(t testing.TB, name string, set func(games.Rules)) (games.Game, games.CellBoard) {
	t.Helper()
	def, err := catalog.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	r := def.NewRules()
	if set != nil {
		set(r)
	}
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	g, err := r.NewGame()
	if err != nil {
		t.Fatal(err)
	}
	return g, g.(games.Boarder).CellBoard()
}

func randomCells(rng *pcg.Rand, b games.CellBoard) []uint8 {
	cells := make([]uint8, b.Cells())
	for c := range cells {
		cells[c] = uint8(rng.IntN(b.States))
	}
	return cells
}

// randomWeights sets every weight of n to a draw from [−1, 1).
func randomWeights(n *NTuple, rng *pcg.Rand) {
	for _, w := range n.Weights {
		for i := range w {
			w[i] = float32(rng.Float64()*2 - 1)
		}
	}
}

// TestNTupleSharesAcrossSymmetries (issue 56): with weights shared under
// the board's symmetries, every image of a position has its value.
func TestNTupleSharesAcrossSymmetries(t *testing.T) {
	for _, name := range []string{"mnk", "connect4"} {
		_, board := boardOf(t, name, nil)
		rng := pcg.New(3, 4)
		n, err := NewNTuple(board, SnakeTuples(board, 12, 4, rng))
		if err != nil {
			t.Fatal(err)
		}
		randomWeights(n, rng)
		for range 200 {
			cells := randomCells(rng, board)
			v := n.Value(cells)
			for k, sym := range board.Symmetries {
				img := make([]uint8, len(cells))
				for c, x := range cells {
					img[sym[c]] = x
				}
				if got := n.Value(img); math.Abs(got-v) > 1e-4 {
					t.Fatalf("%s: symmetry %d's image has value %g, the position %g", name, k, got, v)
				}
			}
		}
		if len(board.Symmetries) < 2 {
			t.Errorf("%s: no symmetry to share across", name)
		}
	}
}

// TestNTupleValueReadsEveryImage: Value, whose usual tuple lengths are
// unrolled, is the sum over the tuples and the board's symmetries of each
// image's entry Σ_k state(cell_k)·States^k, for tuples of 1 to 5 cells and
// of mixed lengths.
func TestNTupleValueReadsEveryImage(t *testing.T) {
	for _, name := range []string{"stacktics", "connect4"} {
		_, board := boardOf(t, name, nil)
		rng := pcg.New(5, 6)
		var sets [][][]int
		for length := 1; length <= 5; length++ {
			sets = append(sets, SnakeTuples(board, 7, length, rng))
		}
		sets = append(sets, append(SnakeTuples(board, 3, 3, rng), SnakeTuples(board, 3, 4, rng)...))
		for _, tuples := range sets {
			n, err := NewNTuple(board, tuples)
			if err != nil {
				t.Fatal(err)
			}
			randomWeights(n, rng)
			for range 50 {
				cells := randomCells(rng, board)
				want := 0.0
				for ti, tuple := range tuples {
					for _, sym := range board.Symmetries {
						idx, place := 0, 1
						for _, c := range tuple {
							idx += int(cells[sym[c]]) * place
							place *= board.States
						}
						want += float64(n.Weights[ti][idx])
					}
				}
				if got := n.Value(cells); math.Abs(got-want) > 1e-4 {
					t.Fatalf("%s, tuples of %d cells: Value %g, the entries sum to %g", name, len(tuples[len(tuples)-1]), got, want)
				}
			}
		}
	}
}

// lineScore is a synthetic value of a 3 × 3 position, the same under the
// square's symmetries: over its eight lines, +1 for three of seat 1's
// cells (state 1), −1 for three of state 2, ±0.3 for two and an empty.
func lineScore(cells []uint8) float64 {
	lines := [][3]int{{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6}, {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}}
	v := 0.0
	for _, l := range lines {
		var n [3]int
		for _, c := range l {
			n[cells[c]]++
		}
		switch {
		case n[1] == 3:
			v++
		case n[2] == 3:
			v--
		case n[1] == 2 && n[0] == 1:
			v += 0.3
		case n[2] == 2 && n[0] == 1:
			v -= 0.3
		}
	}
	return v
}

// TestNTupleLearnsASyntheticValue (issue 56): on positions whose value is
// known (lineScore), a network of three tuples (a side, the middle row, a
// diagonal: under the square's symmetries, every line) fitted by
// stochastic gradient descent predicts held-out positions within an RMSE
// of 0.02 (the values spread over about ±2).
func TestNTupleLearnsASyntheticValue(t *testing.T) {
	_, board := boardOf(t, "mnk", nil)
	if board.Rows != 3 || board.Cols != 3 || len(board.Symmetries) != 8 {
		t.Fatalf("the default m,n,k board is %d × %d with %d symmetries", board.Rows, board.Cols, len(board.Symmetries))
	}
	n, err := NewNTuple(board, [][]int{{0, 1, 2}, {3, 4, 5}, {0, 4, 8}})
	if err != nil {
		t.Fatal(err)
	}
	rng := pcg.New(5, 6)
	rate := 0.5 / float64(n.Reads())
	for range 40000 {
		cells := randomCells(rng, board)
		n.Update(cells, rate*(lineScore(cells)-n.Value(cells)))
	}
	var se, spread float64
	const held = 2000
	for range held {
		cells := randomCells(rng, board)
		d := lineScore(cells) - n.Value(cells)
		se += d * d
		spread += lineScore(cells) * lineScore(cells)
	}
	rmse := math.Sqrt(se / held)
	if rmse > 0.02 {
		t.Errorf("held-out RMSE %.4f (values' RMS %.2f)", rmse, math.Sqrt(spread/held))
	}
}

// TestNTupleLearnsARandomWalkByTD (issue 56): temporal-difference learning
// through Value and Update finds the values of Sutton's random walk (a
// token on 5 cells steps left or right at random; the right end wins):
// cell i's value is i/6, each learned within 0.05.
func TestNTupleLearnsARandomWalkByTD(t *testing.T) {
	board := games.CellBoard{Rows: 1, Cols: 7, States: 2, Symmetries: [][]int{{0, 1, 2, 3, 4, 5, 6}}}
	var tuples [][]int
	for c := range 7 {
		tuples = append(tuples, []int{c})
	}
	n, err := NewNTuple(board, tuples)
	if err != nil {
		t.Fatal(err)
	}
	cellsAt := func(at int) []uint8 {
		cells := make([]uint8, 7)
		cells[at] = 1
		return cells
	}
	rng := pcg.New(7, 8)
	const episodes = 40000
	for e := range episodes {
		// A step that shrinks as the episodes go (rate / Reads at first).
		rate := 0.05 / float64(n.Reads()) / (1 + float64(e)/2000)
		at := 3
		for at != 0 && at != 6 {
			next := at - 1 + 2*rng.IntN(2)
			target := 0.0
			switch next {
			case 6:
				target = 1
			case 0:
			default:
				target = n.Value(cellsAt(next))
			}
			n.Update(cellsAt(at), rate*(target-n.Value(cellsAt(at))))
			at = next
		}
	}
	for i := 1; i <= 5; i++ {
		if got, want := n.Value(cellsAt(i)), float64(i)/6; math.Abs(got-want) > 0.05 {
			t.Errorf("cell %d: value %.3f, want %.3f", i, got, want)
		}
	}
}

// TestSnakeTuples: each tuple is a walk over neighbouring cells without a
// repeat, on the board, and the same seed draws the same tuples.
func TestSnakeTuples(t *testing.T) {
	_, board := boardOf(t, "connect4", nil)
	a := SnakeTuples(board, 30, 6, pcg.New(1, 2))
	b := SnakeTuples(board, 30, 6, pcg.New(1, 2))
	if len(a) != 30 {
		t.Fatalf("%d tuples", len(a))
	}
	for i, tu := range a {
		if len(tu) < 2 || len(tu) > 6 {
			t.Errorf("tuple %d has %d cells", i, len(tu))
		}
		for k := range tu {
			if k > 0 {
				dr, dc := tu[k]/board.Cols-tu[k-1]/board.Cols, tu[k]%board.Cols-tu[k-1]%board.Cols
				if dr < -1 || dr > 1 || dc < -1 || dc > 1 {
					t.Errorf("tuple %d steps from %d to %d", i, tu[k-1], tu[k])
				}
			}
			for j := range k {
				if tu[j] == tu[k] {
					t.Errorf("tuple %d repeats cell %d", i, tu[k])
				}
			}
		}
		if len(b[i]) != len(tu) || b[i][0] != tu[0] || b[i][len(tu)-1] != tu[len(tu)-1] {
			t.Fatalf("the same seed drew tuple %d as %v and %v", i, tu, b[i])
		}
	}
}

// TestNTupleAllocatesNothing: Value and Update allocate nothing, and a
// network refuses tuples it cannot hold.
func TestNTupleAllocatesNothing(t *testing.T) {
	g, board := boardOf(t, "connect4", nil)
	n, err := NewNTuple(board, SnakeTuples(board, 40, 6, pcg.New(9, 9)))
	if err != nil {
		t.Fatal(err)
	}
	s := g.NewState()
	cells := s.(games.CellState).AppendCells(make([]uint8, 0, board.Cells()), games.Seat0)
	if allocs := testing.AllocsPerRun(100, func() {
		cells = s.(games.CellState).AppendCells(cells[:0], games.Seat0)
		n.Update(cells, 0.001*(1-n.Value(cells)))
	}); allocs != 0 {
		t.Errorf("%.0f allocations a position", allocs)
	}
	for _, bad := range [][][]int{{{}}, {{0, 99}}, {{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}}} {
		if _, err := NewNTuple(board, bad); err == nil {
			t.Errorf("tuples %v accepted", bad)
		}
	}
}

// BenchmarkNTupleValue: one position's value, on Connect Four 7 × 6 70
// tuples of 8 cells under its mirror (Thill, Koch and Konen's size), and
// on Stacktics size 3 the 40 snakes of 4 cells its fits learn, over
// positions of random games (a search's leaves differ a little each).
func BenchmarkNTupleValue(b *testing.B) {
	for _, c := range []struct {
		game           string
		tuples, length int
	}{{"connect4", 70, 8}, {"stacktics", 40, 4}} {
		b.Run(c.game, func(b *testing.B) {
			g, board := boardOf(b, c.game, nil)
			rng := pcg.New(1, 1)
			n, err := NewNTuple(board, SnakeTuples(board, c.tuples, c.length, rng))
			if err != nil {
				b.Fatal(err)
			}
			for i := range n.flat {
				n.flat[i] = float32(rng.Float64() - 0.5)
			}
			var positions [][]uint8
			for len(positions) < 64 {
				s := g.NewState()
				for k := 0; k < 12 && !s.IsTerminal(); k++ {
					moves := s.LegalMoves(nil)
					s.Apply(moves[rng.IntN(len(moves))])
					positions = append(positions, s.(games.CellState).AppendCells(nil, games.Seat0))
				}
			}
			b.ReportAllocs()
			sum, i := 0.0, 0
			for b.Loop() {
				sum += n.Value(positions[i&63])
				i++
			}
			_ = sum
		})
	}
}

// TestNTupleModelRoundTrip (issue 56): an n-tuple model written to
// model.json (schema v2) reads back to the same values on the game's
// board and symmetries; a model of another board, game or rules, and a
// damaged one, are handled as the logistic models are.
func TestNTupleModelRoundTrip(t *testing.T) {
	g, board := boardOf(t, "connect4", nil)
	rng := pcg.New(11, 12)
	hash := RulesHash(g.Name(), "rules")
	n, text, back := randomNTupleModel(t, g, board, 8, 5, 0.125, rng)
	s := g.NewState()
	for range 10 {
		moves := s.LegalMoves(nil)
		s.Apply(moves[rng.IntN(len(moves))])
	}
	var sc, sc2 Scratch
	// The mover's view, negated for the other seat.
	mover := s.CurrentPlayer()
	for _, seat := range []games.Player{games.Seat0, games.Seat1} {
		want := 0.125 + n.Value(s.(games.CellState).AppendCells(nil, mover))
		if seat != mover {
			want = -want
		}
		if got := back.StateLogit(s, seat, &sc); math.Abs(got-want) > 1e-6 || math.Abs(back.Evaluate(s, seat, &sc2)-want/2) > 1e-6 {
			t.Errorf("%v: logit %v, want %v", seat, got, want)
		}
	}
	if allocs := testing.AllocsPerRun(100, func() { back.Evaluate(s, games.Seat1, &sc) }); allocs != 0 {
		t.Errorf("Evaluate allocates %.1f times", allocs)
	}
	refusesOthers(t, back, g, hash, text, []damage{
		{`"playtest/model/v2"`, `"playtest/model/v1"`, "schema"},
		{`"kind": "ntuple"`, `"kind": "deep"`, "kind"},
		{`"symmetries": 2`, `"symmetries": 0`, "symmetries"},
		{`"weights": "`, `"weights": "AAAA`, "weights"},
		// A size no board has is refused, not allocated (rows × cols
		// identity entries were made before the board was checked).
		{`"rows": 6`, `"rows": 2000000000`, "want 1 to 256 cells"},
	})
}

// damage is a change to model.json's text (from → to, once) that Read
// must refuse with an error saying want.
type damage struct{ from, to, want string }

// refusesOthers checks that the Connect Four model back (of rules hash
// hash, written as text) is refused for another board, under other rules
// when strict, and for another game, and that every damage to its text is
// refused by Read as it says.
func refusesOthers(t *testing.T, back *Model, g games.Game, hash, text string, damages []damage) {
	t.Helper()
	other, _ := boardOf(t, "connect4", func(r games.Rules) { r.(*connect4.Rules).Cols = 6 })
	if err := back.Check(other, hash, false); err == nil || !strings.Contains(err.Error(), "learn one for these rules") {
		t.Errorf("another board: %v", err)
	}
	var otherRules *OtherRulesError
	if err := back.Check(g, RulesHash(g.Name(), "other rules"), true); !errors.As(err, &otherRules) {
		t.Errorf("strict, other rules: %v", err)
	}
	mnk, _ := boardOf(t, "mnk", nil)
	if err := back.Check(mnk, hash, false); err == nil {
		t.Error("another game's model accepted")
	}
	for _, bad := range damages {
		if !strings.Contains(text, bad.from) {
			t.Fatalf("model.json lacks %s:\n%.400s", bad.from, text)
		}
		if _, err := Read(strings.NewReader(strings.Replace(text, bad.from, bad.to, 1))); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%s → %s: %v", bad.from, bad.to, err)
		}
	}
}

// TestNTupleOnABase (issue 56): an n-tuple model on top of a logistic
// model (WithBase) rates the mover by the base's weights over the mover's
// features plus the network: with a network of zeros and the base's bias
// it rates every position as the base does, it reads back the same, costs
// no allocation, and a base of other features, or weights not matching
// them, are refused.
func TestNTupleOnABase(t *testing.T) {
	g, board := boardOf(t, "stacktics", nil)
	f := g.(games.Featurer)
	rng := pcg.New(21, 22)
	base := &Model{Schema: Schema, Game: g.Name(), Bias: -0.25, HandScale: 0.5}
	for i, x := range f.Features() {
		base.Features = append(base.Features, x.Name)
		base.Weights = append(base.Weights, float64(i%5)-1.5)
	}
	n, err := NewNTuple(board, SnakeTuples(board, 6, 3, rng))
	if err != nil {
		t.Fatal(err)
	}
	hash := RulesHash(g.Name(), "rules")
	zero := NewNTupleModel(g.Name(), n, base.Bias, 1).WithBase(base)
	zero.RulesHash = hash
	if zero.HandScale != base.HandScale {
		t.Errorf("hand scale %v, want the base's %v", zero.HandScale, base.HandScale)
	}
	s := g.NewState()
	var sc, sc2 Scratch
	for ply := 0; ply < 40 && !s.IsTerminal(); ply++ {
		mover := s.CurrentPlayer()
		if got, want := zero.StateLogit(s, mover, &sc), base.StateLogit(s, mover, &sc2); math.Abs(got-want) > 1e-9 {
			t.Fatalf("ply %d: a network of zeros on the base rates the mover %v, the base %v", ply, got, want)
		}
		moves := s.LegalMoves(nil)
		s.Apply(moves[rng.IntN(len(moves))])
	}
	for _, w := range n.Weights {
		for i := range w {
			w[i] = float32(rng.Float64() - 0.5)
		}
	}
	m := NewNTupleModel(g.Name(), n, 0.125, 1).WithBase(base)
	m.RulesHash = hash
	text, back := writeAndRead(t, m, g)
	mover := s.CurrentPlayer()
	feats := s.(games.FeatureState).AppendFeatures(nil, mover)
	want := n.Value(s.(games.CellState).AppendCells(nil, mover)) + 0.125
	for i, x := range feats {
		want += base.Weights[i] * x
	}
	if got := back.StateLogit(s, mover.Opponent(), &sc); math.Abs(got+want) > 1e-5 {
		t.Errorf("the other seat's logit %v, want %v", got, -want)
	}
	if allocs := testing.AllocsPerRun(100, func() { back.Evaluate(s, games.Seat1, &sc) }); allocs != 0 {
		t.Errorf("Evaluate allocates %.1f times", allocs)
	}
	renamed := *back
	renamed.Features = append([]string{"elsewhere"}, back.Features[1:]...)
	if err := renamed.Check(g, hash, false); err == nil || !strings.Contains(err.Error(), "features") {
		t.Errorf("a base of other features: %v", err)
	}
	first := `"features": [
    "` + base.Features[0] + `",`
	if !strings.Contains(text, first) {
		t.Fatalf("model.json lacks %s:\n%.600s", first, text)
	}
	if _, err := Read(strings.NewReader(strings.Replace(text, first, `"features": [`, 1))); err == nil || !strings.Contains(err.Error(), "weights") {
		t.Errorf("a weight too many for the base's features: %v", err)
	}
}

// TestNTupleBoundsItsWeights: a network whose tables would pass the
// weights a model.json can hold is refused before any table is made.
func TestNTupleBoundsItsWeights(t *testing.T) {
	_, board := boardOf(t, "stacktics", nil)
	tuple := []int{0, 1, 2, 3, 4}
	var tuples [][]int
	for range 1000 {
		tuples = append(tuples, tuple)
	}
	if _, err := NewNTuple(board, tuples); err == nil || !strings.Contains(err.Error(), "weights in all") {
		t.Errorf("1,000 tables of 13^5 entries: %v", err)
	}
}

// TestNTupleSparseWeights: a network whose weights are mostly 0 is written
// as its runs of weights that are not 0 (sparse_weights), shorter than the
// whole tables, and reads back to the same values; one of zeros is written
// whole; runs that overrun the tables, and a model with both fields or
// neither, are refused.
func TestNTupleSparseWeights(t *testing.T) {
	g, board := boardOf(t, "connect4", nil)
	rng := pcg.New(31, 32)
	n, err := NewNTuple(board, SnakeTuples(board, 6, 5, rng))
	if err != nil {
		t.Fatal(err)
	}
	write := func() (string, *Model) {
		m := NewNTupleModel(g.Name(), n, 0, 1)
		m.RulesHash = RulesHash(g.Name(), "rules")
		return writeAndRead(t, m, g)
	}
	if zeros, _ := write(); !strings.Contains(zeros, `"weights": "`) || strings.Contains(zeros, "sparse_weights") {
		t.Errorf("a network of zeros is not written whole:\n%.300s", zeros)
	}
	set, size := 0, 0
	for _, w := range n.Weights {
		size += len(w)
		for i := range w {
			if rng.IntN(20) == 0 {
				w[i], set = float32(rng.Float64()-0.5), set+1
			}
		}
	}
	text, back := write()
	if !strings.Contains(text, `"sparse_weights": "`) || strings.Contains(text, `"weights": "`) {
		t.Fatalf("a network of %d weights not 0 in %d is not written sparse:\n%.300s", set, size, text)
	}
	for i, w := range n.Weights {
		if !slices.Equal(back.Net().Weights[i], w) {
			t.Fatalf("table %d read back differs", i)
		}
	}
	var spec struct {
		NTuple struct {
			Sparse string `json:"sparse_weights"`
		} `json:"ntuple"`
	}
	if err := json.Unmarshal([]byte(text), &spec); err != nil {
		t.Fatal(err)
	}
	raw, _ := base64.StdEncoding.DecodeString(spec.NTuple.Sparse)
	overrun := slices.Clone(raw)
	binary.LittleEndian.PutUint32(overrun, uint32(size)) // the first run's zeros pass the tables
	for _, bad := range []struct{ from, to, want string }{
		{spec.NTuple.Sparse, base64.StdEncoding.EncodeToString(overrun), "does not fit"},
		{spec.NTuple.Sparse, base64.StdEncoding.EncodeToString(raw[:len(raw)-2]), "sparse_weights"},
		{`"sparse_weights": "`, `"weights": "AAAA", "sparse_weights": "`, "one of them"},
	} {
		if _, err := Read(strings.NewReader(strings.Replace(text, bad.from, bad.to, 1))); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%.40s → %.40s: %v", bad.from, bad.to, err)
		}
	}
}

// writeAndRead writes m as model.json and reads it back, checked against
// game g under m's rules hash (strict).
func writeAndRead(t *testing.T, m *Model, g games.Game) (string, *Model) {
	t.Helper()
	var b bytes.Buffer
	if err := m.Write(&b); err != nil {
		t.Fatal(err)
	}
	back, err := Read(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if err := back.Check(g, m.RulesHash, true); err != nil {
		t.Fatal(err)
	}
	return b.String(), back
}

// TestLogitLeadInOnePass: a logistic model's lead read from both seats'
// features in one pass (games.FeaturePairState, Stacktics) is exactly its
// logit from each seat's view, the one less the other.
func TestLogitLeadInOnePass(t *testing.T) {
	g, _ := boardOf(t, "stacktics", nil)
	if _, ok := g.NewState().(games.FeaturePairState); !ok {
		t.Fatal("Stacktics gives no feature pair")
	}
	m := &Model{Schema: Schema, Game: g.Name(), Bias: 0.3, HandScale: 1}
	for i, x := range g.(games.Featurer).Features() {
		m.Features = append(m.Features, x.Name)
		m.Weights = append(m.Weights, 0.37*float64(i+1)-1.1)
	}
	rng := pcg.New(41, 42)
	var sc Scratch
	for game := range 20 {
		s := g.NewState()
		for !s.IsTerminal() {
			for _, seat := range []games.Player{games.Seat0, games.Seat1} {
				want := m.StateLogit(s, seat, &sc) - m.StateLogit(s, seat.Opponent(), &sc)
				if got := m.LogitLead(s, seat, &sc); got != want {
					t.Fatalf("game %d: %v's lead %v in one pass, %v from two", game, seat, got, want)
				}
			}
			moves := s.LegalMoves(nil)
			s.Apply(moves[rng.IntN(len(moves))])
		}
	}
}

// TestNTupleRatesHiddenInformationFromEachSeat (issue 57): in a game with
// hidden information each seat's view shows its own part (Capstone: its
// own goal), so the network rates each seat from its own view, its lead is
// the difference of the two, and a re-sampling of what a seat cannot see
// leaves that seat's logit alone.
func TestNTupleRatesHiddenInformationFromEachSeat(t *testing.T) {
	g, board := boardOf(t, "capstone", nil)
	rng := pcg.New(13, 14)
	n, _, back := randomNTupleModel(t, g, board, 12, 4, 0.25, rng)
	s := g.NewState()
	for s.CurrentPlayer() == games.Chance || s.Plies() < 6 {
		if outcomes := s.ChanceOutcomes(nil); len(outcomes) > 0 {
			s.Apply(outcomes[rng.IntN(len(outcomes))].Move)
			continue
		}
		moves := s.LegalMoves(nil)
		s.Apply(moves[rng.IntN(len(moves))])
	}
	var sc Scratch
	logit := map[games.Player]float64{}
	for _, seat := range []games.Player{games.Seat0, games.Seat1} {
		want := 0.25 + n.Value(s.(games.CellState).AppendCells(nil, seat))
		logit[seat] = back.StateLogit(s, seat, &sc)
		if math.Abs(logit[seat]-want) > 1e-6 {
			t.Errorf("%v: logit %v, want %v from its own view", seat, logit[seat], want)
		}
		c := s.Clone()
		c.(games.Determinizer).Determinize(seat, rng)
		if got := back.StateLogit(c, seat, &sc); got != logit[seat] {
			t.Errorf("%v: logit %v after re-sampling what it cannot see, %v before", seat, got, logit[seat])
		}
	}
	if got, want := back.LogitLead(s, games.Seat0, &sc), logit[games.Seat0]-logit[games.Seat1]; math.Abs(got-want) > 1e-6 {
		t.Errorf("seat 0's lead %v, want %v", got, want)
	}
}

// randomNTupleModel is a model of g (rules hash of "rules", hand scale 2)
// whose network has count snakes of length cells with random weights, and
// bias: the network, the model's model.json and the model read back.
func randomNTupleModel(t *testing.T, g games.Game, board games.CellBoard, count, length int, bias float64, rng *pcg.Rand) (*NTuple, string, *Model) {
	t.Helper()
	n, err := NewNTuple(board, SnakeTuples(board, count, length, rng))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range n.Weights {
		for i := range w {
			w[i] = float32(rng.Float64() - 0.5)
		}
	}
	m := NewNTupleModel(g.Name(), n, bias, 2)
	m.RulesHash = RulesHash(g.Name(), "rules")
	text, back := writeAndRead(t, m, g)
	return n, text, back
}

// TestBoardTuplesReadTheGamesOwnFirst: a board's named tuples come first,
// then the snakes; a network without tuples is refused; a named tuple off
// the board fails the board's check.
func TestBoardTuplesReadTheGamesOwnFirst(t *testing.T) {
	_, board := boardOf(t, "capstone", nil)
	if len(board.Tuples) == 0 {
		t.Fatal("Capstone names no tuples")
	}
	tuples := BoardTuples(board, 5, 3, pcg.New(1, 2))
	if len(tuples) != len(board.Tuples)+5 || fmt.Sprint(tuples[:len(board.Tuples)]) != fmt.Sprint(board.Tuples) {
		t.Errorf("tuples %v, the board's %v", tuples, board.Tuples)
	}
	if _, err := NewNTuple(board, nil); err == nil {
		t.Error("a network without tuples was built")
	}
	board.Tuples = append(board.Tuples, []int{board.Cells()})
	if err := board.Check(); err == nil {
		t.Error("a named tuple off the board passed the check")
	}
}

// TestLazyLogitLead: a network on a logistic base, asked whether its lead
// lies within a window, gives LogitLead's value bit for bit wherever the
// base lies within margin of the window, and the base's lead alone (the
// network unread) where it lies further out, on the side the whole
// model's lead lies whenever the network moves it by less than margin; a
// logistic model is always read whole. Nothing is allocated.
func TestLazyLogitLead(t *testing.T) {
	g, board := boardOf(t, "stacktics", nil)
	rng := pcg.New(51, 52)
	base := &Model{Schema: Schema, Game: g.Name(), Bias: 0.1, HandScale: 1}
	for i, x := range g.(games.Featurer).Features() {
		base.Features = append(base.Features, x.Name)
		base.Weights = append(base.Weights, 0.2*float64(i%4)-0.3)
	}
	n, err := NewNTuple(board, SnakeTuples(board, 8, 3, rng))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range n.Weights {
		for i := range w {
			w[i] = float32(rng.Float64()-0.5) / 20
		}
	}
	m := NewNTupleModel(g.Name(), n, 0.1, 1).WithBase(base)
	margin := 2 * 0.025 * float64(n.Reads()) // the most the network moves a lead
	var sc Scratch
	lazy, exact := 0, 0
	for game := range 10 {
		s := g.NewState()
		for !s.IsTerminal() {
			seat := games.Player(game % 2)
			want := m.LogitLead(s, seat, &sc)
			if got, whole := m.LazyLogitLead(s, seat, &sc, math.Inf(-1), math.Inf(1), margin); !whole || got != want {
				t.Fatalf("an open window: %v (whole %v), want %v", got, whole, want)
			}
			for _, w := range [][2]float64{{want - 1, want + 1}, {want + 0.5, want + 2}, {want - 6, want - 4}, {want + 4, want + 8}} {
				got, whole := m.LazyLogitLead(s, seat, &sc, w[0], w[1], margin)
				switch {
				case whole && got != want:
					t.Fatalf("window %v read whole: %v, want %v", w, got, want)
				case !whole && (got >= w[1]) != (want >= w[1]) || !whole && (got <= w[0]) != (want <= w[0]):
					t.Fatalf("window %v: the base's %v is on another side than the lead %v", w, got, want)
				case whole:
					exact++
				default:
					lazy++
				}
			}
			if got, whole := base.LazyLogitLead(s, seat, &sc, want+100, want+200, 0); !whole || got != base.LogitLead(s, seat, &sc) {
				t.Fatalf("a logistic model read lazily: %v", got)
			}
			moves := s.LegalMoves(nil)
			s.Apply(moves[rng.IntN(len(moves))])
		}
	}
	if lazy == 0 || exact == 0 {
		t.Errorf("%d lazy and %d whole readings: the windows test neither", lazy, exact)
	}
	s := g.NewState()
	if allocs := testing.AllocsPerRun(100, func() { m.LazyLogitLead(s, games.Seat0, &sc, 10, 20, 1) }); allocs != 0 {
		t.Errorf("LazyLogitLead allocates %.1f times", allocs)
	}
}
