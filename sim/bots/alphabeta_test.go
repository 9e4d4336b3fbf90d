package bots

import (
	"math"
	"testing"
	"unsafe"

	"playtest/games"
	"playtest/games/pcg"
	"playtest/games/stacktics"
	"playtest/internal/testenv"
)

func TestTTEntrySize(t *testing.T) {
	if unsafe.Sizeof(ttEntry{}) != ttEntryBytes {
		t.Fatalf("a table entry is %d bytes, ttEntryBytes says %d", unsafe.Sizeof(ttEntry{}), ttEntryBytes)
	}
}

// minimax is the reference the search must agree with: plain minimax to
// depth from the bot's seat's point of view, with the same quiescence
// (stand-pat or any forcing move, up to maxQuiescence deep) and the same
// scores (a win at ply p worth winValue − p), without pruning or a table.
func minimax(b *AlphaBeta, s games.State, depth, ply int) float64 {
	key := refKey{s.(games.Hasher).Hash(), depth, ply}
	if v, ok := refMemo[key]; ok {
		return v
	}
	v := minimaxFull(b, s, depth, ply)
	refMemo[key] = v
	return v
}

// refKey and refMemo remember the reference's values (the same position,
// depth and ply give the same value: nothing depends on the path);
// refMemo is emptied for each question.
type refKey struct {
	hash       uint64
	depth, ply int
}

var refMemo = map[refKey]float64{}

func minimaxFull(b *AlphaBeta, s games.State, depth, ply int) float64 {
	if s.IsTerminal() {
		return s.Result().ValueFor(b.seat) * (winValue - float64(ply))
	}
	if depth <= 0 {
		return quiesceRef(b, s, ply, 0)
	}
	maximize := s.CurrentPlayer() == b.seat
	best := math.Inf(1)
	if maximize {
		best = math.Inf(-1)
	}
	for _, m := range s.LegalMoves(nil) {
		c := s.Clone()
		c.Apply(m)
		v := minimax(b, c, depth-1, ply+1)
		if maximize {
			best = max(best, v)
		} else {
			best = min(best, v)
		}
	}
	return best
}

func quiesceRef(b *AlphaBeta, s games.State, ply, q int) float64 {
	stand := b.evaluate(s)
	f, ok := s.(games.Forcing)
	if !ok || !b.params.Quiescence || q >= maxQuiescence {
		return stand
	}
	maximize := s.CurrentPlayer() == b.seat
	best := stand
	for _, m := range f.ForcingMoves(nil) {
		c := s.Clone()
		c.Apply(m)
		var v float64
		if c.IsTerminal() {
			v = c.Result().ValueFor(b.seat) * (winValue - float64(ply+1))
		} else {
			v = quiesceRef(b, c, ply+1, q+1)
		}
		if maximize {
			best = max(best, v)
		} else {
			best = min(best, v)
		}
	}
	return best
}

// positions plays random Stacktics size-2 games (no pie rule, a small
// capture threshold so that wins come within a few decisions) and returns
// positions from them where a seat decides.
func positions(t *testing.T, n int) []games.State {
	t.Helper()
	r := stacktics.DefaultRules()
	r.Size = 2
	r.Board = &stacktics.Board{Rows: 4, Cols: 4}
	r.StartColumns = []int{1, 2}
	r.PieRule = new(false)
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	g, err := r.NewGame()
	if err != nil {
		t.Fatal(err)
	}
	rng := pcg.New(35, 1)
	var out []games.State
	for len(out) < n {
		s := g.NewState()
		for k := 0; !s.IsTerminal(); k++ {
			moves := s.LegalMoves(nil)
			if k >= 4 && k%3 == 1 && len(moves) > 1 {
				out = append(out, s.Clone())
			}
			s.Apply(moves[rng.IntN(len(moves))])
		}
	}
	return out[:n]
}

// TestAlphaBetaMatchesMinimax searches positions of random games to fixed
// depths 1 to 3, with quiescence on and off, the transposition table and
// the move ordering: the best root value must be plain minimax's, win
// scores included, and the chosen move must have that value. Then it
// plays the games on with the bot in both seats, its table kept from one
// of its decisions to the next, so that win scores stored two plies down
// are read at the root: a forced result the search reports must be the
// one plain minimax finds at that distance.
func TestAlphaBetaMatchesMinimax(t *testing.T) {
	ps := positions(t, max(4, testenv.Scale(16)))
	wins, kept := 0, 0
	bestOf := func(b *AlphaBeta) float64 {
		got := math.Inf(-1)
		for _, v := range b.lastValues {
			got = max(got, v)
		}
		return got
	}
	reference := minimaxRoot
	type config struct {
		quiescence bool
		depth      int
		tempo      float64
	}
	var configs []config
	for depth := 1; depth <= 3; depth++ {
		configs = append(configs, config{true, depth, 0}, config{false, depth, 0}, config{true, depth, 0.3})
	}
	for _, c := range configs {
		quiescence, depth := c.quiescence, c.depth
		{
			params := AlphaBetaParams{Nodes: 100000000, Depth: depth, Quiescence: quiescence, TTMB: 2, Tempo: c.tempo}
			for i, start := range ps {
				fresh := NewAlphaBeta(params)
				fresh.Reset(start.CurrentPlayer(), pcg.New(1, uint64(i)))
				chosen := fresh.Choose(start, start.LegalMoves(nil))
				got := bestOf(fresh)
				if want, chosenValue := reference(fresh, start, depth, chosen); got != want || chosenValue != want {
					t.Fatalf("%+v, position %d:\n%v\nsearch %v, minimax %v, the chosen move's %v", c, i, start, got, want, chosenValue)
				}
				if math.Abs(got) > winValue/2 {
					wins++
				}
				// Deepening without a depth limit keeps deep entries from
				// one decision that the next reads at other plies.
				var seats [games.NumSeats]*AlphaBeta
				for seat := range seats {
					seats[seat] = NewAlphaBeta(AlphaBetaParams{Nodes: 5000 * depth, Quiescence: quiescence, TTMB: 2, Tempo: c.tempo})
					seats[seat].Reset(games.Player(seat), pcg.New(1, uint64(i)))
				}
				s := start.Clone()
				// A seat that found a win in D keeps it: two decisions on
				// it wins in D − 2 or fewer (sooner if the other errs).
				winIn := [games.NumSeats]int{-1, -1}
				for k := 0; !s.IsTerminal() && k < 12; k++ {
					b := seats[s.CurrentPlayer()]
					legal := s.LegalMoves(nil)
					m := b.Choose(s, legal)
					if len(legal) > 1 {
						got := bestOf(b)
						if d := winIn[s.CurrentPlayer()]; d >= 0 && !(got > winValue/2 && int(winValue-got) <= d-2) {
							t.Fatalf("quiescence %v, depth %d, game %d, decision %d: a win in %d two decisions ago, now %v", quiescence, depth, i, k, d, got)
						}
						winIn[s.CurrentPlayer()] = -1
						if got > winValue/2 {
							winIn[s.CurrentPlayer()] = int(winValue - got)
						}
					}
					if got := bestOf(b); len(legal) > 1 && math.Abs(got) > winValue/2 && winValue-math.Abs(got) <= 4 {
						dist := int(winValue - math.Abs(got))
						if want, _ := reference(b, s, dist, m); got != want {
							t.Fatalf("%+v, game %d, decision %d, the table kept:\n%v\nsearch %v (a result in %d), minimax to that depth %v", c, i, k, s, got, dist, want)
						}
						kept++
					}
					s.Apply(m)
				}
			}
		}
	}
	t.Logf("%d forced results, %d with the table kept", wins, kept)
	if wins < 10 || kept < 10 {
		t.Errorf("%d searches found a forced result, %d with the table kept: the win scores are barely tested", wins, kept)
	}
}

// minimaxRoot is plain minimax's value of s to depth for b's seat, and
// the value of the chosen move.
func minimaxRoot(b *AlphaBeta, s games.State, depth int, chosen games.Move) (best, chosenValue float64) {
	clear(refMemo) // values are the seat's: a memo per question
	best = math.Inf(-1)
	for _, m := range s.LegalMoves(nil) {
		c := s.Clone()
		c.Apply(m)
		v := minimax(b, c, depth-1, 1)
		best = max(best, v)
		if m == chosen {
			chosenValue = v
		}
	}
	return best, chosenValue
}

// TestReductionsKeepForcedResults: late move reductions search some moves
// shallower, but still every move, so a forced win or loss the search
// reports with them is one plain minimax finds at that distance, and the
// move chosen keeps it.
func TestReductionsKeepForcedResults(t *testing.T) {
	found := 0
	for i, start := range positions(t, max(8, testenv.Scale(24))) {
		b := NewAlphaBeta(AlphaBetaParams{Nodes: 20000, Quiescence: true, TTMB: 2, Reduce: 1})
		b.Reset(start.CurrentPlayer(), pcg.New(1, uint64(i)))
		chosen := b.Choose(start, start.LegalMoves(nil))
		got := math.Inf(-1)
		for _, v := range b.lastValues {
			got = max(got, v)
		}
		if math.Abs(got) < winValue/2 || winValue-math.Abs(got) > 4 {
			continue
		}
		found++
		if want, chosenValue := minimaxRoot(b, start, int(winValue-math.Abs(got)), chosen); got != want || chosenValue != want {
			t.Fatalf("position %d:\n%v\nsearch with reductions %v, minimax %v, the chosen move's %v", i, start, got, want, chosenValue)
		}
	}
	t.Logf("%d forced results", found)
	if found < 5 {
		t.Errorf("%d forced results: reductions barely tested", found)
	}
}

// TestReductionsSearchFewerNodes: to finish the same depths, a search with
// late move reductions visits fewer nodes (what makes it deeper at the
// same budget).
func TestReductionsSearchFewerNodes(t *testing.T) {
	var nodes [2]int
	for i, start := range positions(t, 8) {
		for k, reduce := range []int{0, 2} {
			b := NewAlphaBeta(AlphaBetaParams{Nodes: 100000000, Depth: 5, Quiescence: true, TTMB: 2, Reduce: reduce})
			b.Reset(start.CurrentPlayer(), pcg.New(1, uint64(i)))
			b.Choose(start, start.LegalMoves(nil))
			nodes[k] += b.nodes
		}
	}
	t.Logf("nodes to depth 5: %d in full, %d with reductions", nodes[0], nodes[1])
	if float64(nodes[1]) > 0.8*float64(nodes[0]) {
		t.Errorf("nodes to depth 5: %d with reductions against %d in full", nodes[1], nodes[0])
	}
}

// TestTTWinScoresAreRelative: a win stored at one ply and read at another
// keeps its distance from the node.
func TestTTWinScoresAreRelative(t *testing.T) {
	for _, c := range []struct {
		v           float64
		store, load int
		want        float64
	}{
		{winValue - 7, 3, 1, winValue - 5},       // a win 4 decisions below a node at ply 3, read at ply 1
		{-(winValue - 9), 5, 2, -(winValue - 6)}, // a loss 4 below ply 5, read at ply 2
		{12.5, 5, 2, 12.5},                       // heuristic values are not moved
	} {
		if got := loadValue(storeValue(c.v, c.store), c.load); got != c.want {
			t.Errorf("%v stored at %d, read at %d: %v, want %v", c.v, c.store, c.load, got, c.want)
		}
	}
}

// TestTempoFavoursTheSideToMove: tempo adds to the horizon's evaluation
// of the player to move and takes from the other's, whichever the bot's
// seat.
func TestTempoFavoursTheSideToMove(t *testing.T) {
	for _, s := range positions(t, 4) {
		for seat := range games.Player(games.NumSeats) {
			plain, tempo := NewAlphaBeta(AlphaBetaParams{Nodes: 1000}), NewAlphaBeta(AlphaBetaParams{Nodes: 1000, Tempo: 0.25})
			plain.Reset(seat, pcg.New(1, 1))
			tempo.Reset(seat, pcg.New(1, 1))
			want := plain.evaluate(s) - 0.25
			if s.CurrentPlayer() == seat {
				want += 0.5
			}
			if got := tempo.evaluate(s); math.Abs(got-want) > 1e-12 {
				t.Errorf("seat %d, %d to move: %v with tempo, %v without", seat, s.CurrentPlayer(), got, plain.evaluate(s))
			}
		}
	}
}

// TestNoisyChoice: noise chooses uniformly among the root moves within
// noise of the best; with a temperature, with probability ∝ exp((value −
// best) / temperature); a move outside the window never.
func TestNoisyChoice(t *testing.T) {
	values := []float64{1, 0.9, 0.5, -2}
	for _, c := range []struct {
		temperature float64
		want        []float64
	}{
		{0, []float64{1.0 / 3, 1.0 / 3, 1.0 / 3, 0}},
		{0.1, []float64{1 / (1 + math.Exp(-1) + math.Exp(-5)), math.Exp(-1) / (1 + math.Exp(-1) + math.Exp(-5)), math.Exp(-5) / (1 + math.Exp(-1) + math.Exp(-5)), 0}},
	} {
		b := NewAlphaBeta(AlphaBetaParams{Noise: 1, Temperature: c.temperature})
		b.rng = pcg.New(3, 4)
		b.lastValues = values
		b.lastOrder = []games.Move{0, 1, 2, 3}
		const n = 40000
		counts := make([]float64, len(values))
		for range n {
			counts[b.noisy(0)]++
		}
		for i, want := range c.want {
			if got := counts[i] / n; math.Abs(got-want) > 4*math.Sqrt(want*(1-want)/n)+1e-9 {
				t.Errorf("temperature %g: move %d chosen %.4f of the time, want %.4f", c.temperature, i, got, want)
			}
		}
	}
}

// TestLeafVisitor (issue 56): SetLeafVisitor sees every position the
// search evaluates, as many as it evaluates, without changing the move
// or the root value, and nil stops it.
func TestLeafVisitor(t *testing.T) {
	g, err := stacktics.DefaultRules().NewGame()
	if err != nil {
		t.Fatal(err)
	}
	s := g.NewState()
	rng := pcg.New(3, 4)
	for range 6 {
		legal := s.LegalMoves(nil)
		s.Apply(legal[rng.IntN(len(legal))])
	}
	p := *DefaultAlphaBetaParams()
	p.Nodes = 3000
	choose := func(visit func(games.State)) (games.Move, float64) {
		b := NewAlphaBeta(p)
		b.Reset(s.CurrentPlayer(), pcg.New(1, 2))
		b.SetLeafVisitor(visit)
		m := b.Choose(s, s.LegalMoves(nil))
		v, _ := b.RootValue()
		return m, v
	}
	plain, plainValue := choose(nil)
	visits, distinct := 0, map[uint64]bool{}
	seen, seenValue := choose(func(leaf games.State) {
		visits++
		if leaf.IsTerminal() {
			t.Error("a finished position was visited: the search scores those by their result")
		}
		distinct[leaf.(games.Hasher).Hash()] = true
	})
	if seen != plain || seenValue != plainValue {
		t.Errorf("the visitor changed the search: %v (%v) against %v (%v)", seen, seenValue, plain, plainValue)
	}
	if visits < 100 || len(distinct) < 50 || visits > p.Nodes+maxQuiescence {
		t.Errorf("%d visits (%d positions) in a search of %d nodes", visits, len(distinct), p.Nodes)
	}
	// The visits are the evaluations: a search that evaluates nothing
	// more (a single legal move) visits nothing.
	b := NewAlphaBeta(p)
	b.Reset(s.CurrentPlayer(), pcg.New(1, 2))
	n := 0
	b.SetLeafVisitor(func(games.State) { n++ })
	b.Choose(s, s.LegalMoves(nil)[:1])
	b.SetLeafVisitor(nil)
	b.Choose(s, s.LegalMoves(nil))
	if n != 0 {
		t.Errorf("%d visits of a decision with one move, or after the visitor was taken away", n)
	}
}
