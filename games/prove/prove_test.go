package prove

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"testing"
	"time"

	"playtest/games"
	"playtest/games/catalog"
	"playtest/games/connect4"
	"playtest/games/gamestest"
	"playtest/games/mnk"
	"playtest/games/pcg"
)

// plain is the reference: a plain negamax over the whole tree within rem
// decisions, no table, no ordering, no hooks, scoring as the searcher does
// (a win ending at ply p from the root mate − p, nothing proven 0).
func plain(s games.State, ply, rem int) int32 {
	if rem == 0 {
		return 0
	}
	mover := s.CurrentPlayer()
	best := -inf
	for _, m := range s.LegalMoves(nil) {
		c := s.Clone()
		c.Apply(m)
		var v int32
		switch {
		case c.IsTerminal():
			v = terminal(c, mover, ply+1)
		case c.CurrentPlayer() == mover:
			v = plain(c, ply+1, rem-1)
		default:
			v = -plain(c, ply+1, rem-1)
		}
		best = max(best, v)
	}
	return best
}

// optionSets are every option the searcher has, each alone and all
// together; a table of 1,024 entries makes replacement happen.
var optionSets = map[string]Options{
	"default":     {Entries: 1 << 16},
	"no hooks":    {NoHooks: true, Entries: 1 << 16},
	"no symmetry": {NoSymmetry: true, Entries: 1 << 16},
	"no etc":      {NoETC: true, Entries: 1 << 16},
	"tiny table":  {Entries: 1024},
	"history":     {History: true, Entries: 1 << 16},
	"all off":     {NoHooks: true, NoSymmetry: true, NoETC: true, Entries: 1024},
}

// positions plays n random games of g and keeps a position after each
// number of decisions from skip on, unfinished.
func positions(g games.Game, seed uint64, n, skip int) []games.State {
	rng := pcg.New(seed, 7)
	var out []games.State
	var moves []games.Move
	var outcomes []games.ChanceOutcome
	for range n {
		s := g.NewState()
		for d := 0; !s.IsTerminal(); d++ {
			if d >= skip && rng.IntN(3) == 0 {
				out = append(out, s.Clone())
			}
			var m games.Move
			m, moves, outcomes = gamestest.Pick(s, rng, moves, outcomes)
			s.Apply(m)
		}
	}
	return out
}

type smallGame struct {
	name string
	g    games.Game
	skip int // decisions played before a position is kept: the plain search must be quick
}

func smallGames() []smallGame {
	return []smallGame{
		{"tic-tac-toe", mnk.New(mnk.Rules{Rows: 3, Cols: 3, K: 3}), 0},
		{"tic-tac-toe pie", mnk.New(mnk.Rules{Rows: 3, Cols: 3, K: 3, PieRule: true}), 0},
		{"3,4,3", mnk.New(mnk.Rules{Rows: 3, Cols: 4, K: 3}), 2},
		{"4,4,3", mnk.New(mnk.Rules{Rows: 4, Cols: 4, K: 3}), 6},
		{"connect3 4x4", connect4.New(connect4.Rules{Rows: 4, Cols: 4, K: 3}), 2},
		{"connect4 4x4 pie", connect4.New(connect4.Rules{Rows: 4, Cols: 4, K: 4, PieRule: true}), 3},
		{"connect4 5x4", connect4.New(connect4.Rules{Rows: 4, Cols: 5, K: 4}), 8},
	}
}

// TestScoreMatchesPlainNegamax checks every option against the plain
// negamax: the exact score with its distance at several horizons and to
// the end, the null-window value, and one searcher kept across positions
// (its table reused).
func TestScoreMatchesPlainNegamax(t *testing.T) {
	horizons := []int{1, 2, 3, 5}
	for _, sg := range smallGames() {
		ps := positions(sg.g, 1, 6, sg.skip)
		// The plain negamax's values, once: to the end, then each horizon.
		want := make([][]Value, len(ps))
		for i, s := range ps {
			want[i] = append(want[i], scoreValue(plain(s, 0, 64)))
			for _, rem := range horizons {
				want[i] = append(want[i], scoreValue(plain(s, 0, rem)))
			}
		}
		for name, opts := range optionSets {
			t.Run(sg.name+"/"+name, func(t *testing.T) {
				full := opts
				se, err := New(sg.g.NewState(), full)
				if err != nil {
					t.Fatal(err)
				}
				defer se.Close()
				for i, s := range ps {
					got, err := se.Score(s, noHorizon)
					if err != nil {
						t.Fatal(err)
					}
					if wv := want[i][0]; got != wv {
						t.Fatalf("position %d:\n%s\nscore %+v, plain negamax %+v", i, s, got, wv)
					}
					d, err := se.Decide(s)
					if err != nil {
						t.Fatal(err)
					}
					if d.Outcome != got.Outcome {
						t.Fatalf("position %d: Decide %+v, Score %+v", i, d, got)
					}
					for hi, rem := range horizons {
						h := opts
						h.Horizon = rem
						hs, _ := New(s, h)
						got, err := hs.Score(s, rem)
						hs.Close()
						if err != nil {
							t.Fatal(err)
						}
						if wv := want[i][hi+1]; got != wv {
							t.Fatalf("position %d within %d: score %+v, plain negamax %+v", i, rem, got, wv)
						}
						// The long-lived searcher's table holds other
						// horizons' bounds: they must carry over soundly.
						got2, _ := se.Score(s, rem)
						if got2 != got {
							t.Fatalf("position %d within %d: %+v after other horizons, %+v fresh", i, rem, got2, got)
						}
					}
				}
				// Horizons first, then to the end, on one table: what a
				// horizon left unproven must not read as a draw.
				hf, _ := New(sg.g.NewState(), full)
				defer hf.Close()
				for i, s := range ps {
					for hi, rem := range horizons {
						if got, _ := hf.Score(s, rem); got != want[i][hi+1] {
							t.Fatalf("position %d within %d, horizons first: %+v, plain negamax %+v", i, rem, got, want[i][hi+1])
						}
					}
				}
				for i, s := range ps {
					if got, _ := hf.Score(s, noHorizon); got != want[i][0] {
						t.Fatalf("position %d after the horizons: %+v, plain negamax %+v", i, got, want[i][0])
					}
					if d, _ := hf.Decide(s); d.Outcome != want[i][0].Outcome {
						t.Fatalf("position %d after the horizons: Decide %+v, plain negamax %+v", i, d, want[i][0])
					}
				}
			})
		}
	}
}

// TestHorizonsOnGraphs checks horizon searches on random graphs: cycles,
// draws and seats that decide twice in a row.
func TestHorizonsOnGraphs(t *testing.T) {
	rng := pcg.New(3, 3)
	for gi := range 40 {
		g := gamestest.RandomGraph(rng, 30, 4)
		want := map[int]Value{}
		for _, rem := range []int{1, 2, 4, 7} {
			want[rem] = scoreValue(plain(g.NewState(), 0, rem))
		}
		for name, opts := range optionSets {
			for _, rem := range []int{1, 2, 4, 7} {
				opts.Horizon = rem
				s := g.NewState()
				se, err := New(s, opts)
				if err != nil {
					t.Fatal(err)
				}
				got, err := se.Score(s, rem)
				se.Close()
				if err != nil {
					t.Fatal(err)
				}
				if got != want[rem] {
					t.Fatalf("graph %d, %s, within %d: %+v, plain negamax %+v", gi, name, rem, got, want[rem])
				}
			}
		}
	}
}

// TestLineKeepsTheDistance checks a proven line: each move keeps the
// value, one decision nearer, ending as proven.
func TestLineKeepsTheDistance(t *testing.T) {
	g := connect4.New(connect4.Rules{Rows: 4, Cols: 5, K: 4})
	for i, s := range positions(g, 2, 8, 9) {
		want := scoreValue(plain(s, 0, 64))
		if want.Outcome == 0 {
			continue
		}
		se, _ := New(s, Options{Entries: 1 << 16})
		moves, movers, err := se.Line(s.Clone(), noHorizon)
		se.Close()
		if err != nil {
			t.Fatal(err)
		}
		if len(moves) != want.Plies {
			t.Fatalf("position %d: a line of %d decisions for %+v", i, len(moves), want)
		}
		c := s.Clone()
		for _, m := range moves {
			c.Apply(m)
		}
		winner := movers[0]
		if want.Outcome < 0 {
			winner = winner.Opponent()
		}
		if !c.IsTerminal() || c.Result().Winner != winner {
			t.Fatalf("position %d: the line ends %v, want %v the winner", i, c.Result(), winner)
		}
	}
}

// TestCancelStopsWithinASecond cancels a proof too big to finish and
// wants it back within a second.
func TestCancelStopsWithinASecond(t *testing.T) {
	g := connect4.New(connect4.Rules{Rows: 6, Cols: 7, K: 4})
	ctx, cancel := context.WithCancel(context.Background())
	se, _ := New(g.NewState(), Options{Context: ctx, Entries: 1 << 16})
	defer se.Close()
	done := make(chan error, 1)
	go func() {
		_, err := se.Decide(g.NewState())
		done <- err
	}()
	time.Sleep(100 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if err != context.Canceled {
			t.Fatalf("err %v, want context.Canceled", err)
		}
	case <-time.After(time.Second * 5):
		t.Fatal("the proof did not stop within 5 seconds of its cancel (the bound is 1)")
	}
}

// TestBudget stops at MaxNodes.
func TestBudget(t *testing.T) {
	g := connect4.New(connect4.Rules{Rows: 6, Cols: 7, K: 4})
	se, _ := New(g.NewState(), Options{MaxNodes: 1000, Entries: 1 << 12})
	defer se.Close()
	if _, err := se.Decide(g.NewState()); err != ErrBudget {
		t.Fatalf("err %v, want ErrBudget", err)
	}
	if n := se.Nodes(); n > 1002 {
		t.Fatalf("%d positions past a bound of 1000", n)
	}
}

// TestWithinFindsShortWins checks the broken-rules proof against the
// plain negamax: the shortest forced win within each horizon, its winner
// and a line that ends so.
func TestWithinFindsShortWins(t *testing.T) {
	g := mnk.New(mnk.Rules{Rows: 4, Cols: 4, K: 3})
	found := 0
	for i, s := range positions(g, 4, 10, 2) {
		for _, depth := range []int{1, 3, 5} {
			pf, searched := Within(s, depth)
			if !searched {
				t.Fatalf("position %d: not searched", i)
			}
			want := scoreValue(plain(s, 0, depth))
			if want.Outcome <= 0 {
				// Within proves wins for either seat: a loss for the
				// mover is the other's win.
				if want.Outcome == 0 && pf != nil {
					t.Fatalf("position %d within %d: proof %+v where none exists", i, depth, pf)
				}
			}
			if want.Outcome == 0 {
				continue
			}
			found++
			winner := s.CurrentPlayer()
			if want.Outcome < 0 {
				winner = winner.Opponent()
			}
			if pf == nil || pf.Winner != winner || pf.Plies != want.Plies || len(pf.Line) != want.Plies {
				t.Fatalf("position %d within %d: proof %+v, want %v winning in %d", i, depth, pf, winner, want.Plies)
			}
			c := s.Clone()
			for _, mv := range pf.Line {
				m, err := c.ParseMove(mv)
				if err != nil {
					t.Fatal(err)
				}
				c.Apply(m)
			}
			if !c.IsTerminal() || c.Result().Winner != winner {
				t.Fatalf("position %d: the line %v ends %v", i, pf.Line, c.Result())
			}
		}
	}
	if found < 10 {
		t.Fatalf("only %d proofs to check", found)
	}
}

// TestWithinKeepsItsAnswers (issue 54): the broken-rules proof on the
// prover gives the answers the plain deepening minimax gave before it
// (testdata/within-golden.json, written by it): the winner, the distance
// and the line, from positions after a few random moves of Stacktics,
// Connect Four and tic-tac-toe. Where the old search gave up at its bound
// the new may finish; where it finished the new must agree.
func TestWithinKeepsItsAnswers(t *testing.T) {
	b, err := os.ReadFile("testdata/within-golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Game     string
		Moves    []int
		Depth    int
		Proof    *games.Proof
		Searched bool
	}
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	proofs := 0
	for i, c := range cases {
		def, err := catalog.Lookup(c.Game)
		if err != nil {
			t.Fatal(err)
		}
		g, err := def.NewRules().NewGame()
		if err != nil {
			t.Fatal(err)
		}
		s := g.NewState()
		for _, m := range c.Moves {
			s.Apply(games.Move(m))
		}
		pf, searched := Within(s, c.Depth)
		if !c.Searched {
			continue
		}
		if !searched || fmt.Sprint(pf) != fmt.Sprint(c.Proof) {
			t.Errorf("case %d (%s after %v, within %d): proof %+v (searched %v), was %+v", i, c.Game, c.Moves, c.Depth, pf, searched, c.Proof)
		}
		if pf != nil {
			proofs++
		}
	}
	if proofs < 10 {
		t.Errorf("only %d proofs compared", proofs)
	}
}

// TestSameCountsEveryRun: a proof is deterministic, its counts too (no
// map order, no clock, no address in a key).
func TestSameCountsEveryRun(t *testing.T) {
	g := connect4.New(connect4.Rules{Rows: 4, Cols: 5, K: 4})
	var first [2]int64
	for run := range 3 {
		se, _ := New(g.NewState(), Options{Entries: 1 << 14})
		v, err := se.Decide(g.NewState())
		se.Close()
		if err != nil {
			t.Fatal(err)
		}
		got := [2]int64{se.Nodes(), int64(se.Kept())}
		if run == 0 {
			first = got
			if v.Outcome != 0 {
				t.Fatalf("Connect Four 5 × 4: %+v, a draw (Tromp)", v)
			}
		} else if got != first {
			t.Fatalf("run %d: %v positions and entries, run 0: %v", run, got, first)
		}
	}
}

// TestDistanceMatchesScore: the bisection by null windows finds the full
// window's value and distance, within horizons and to the end.
func TestDistanceMatchesScore(t *testing.T) {
	for _, sg := range smallGames() {
		for i, s := range positions(sg.g, 9, 4, sg.skip) {
			for _, rem := range []int{2, 5, noHorizon} {
				a, _ := New(s, Options{Entries: 1 << 14})
				want, err := a.Score(s, rem)
				a.Close()
				if err != nil {
					t.Fatal(err)
				}
				b, _ := New(s, Options{Entries: 1 << 14})
				got, err := b.Distance(s, rem)
				b.Close()
				if err != nil {
					t.Fatal(err)
				}
				if got != want {
					t.Fatalf("%s position %d within %d: Distance %+v, Score %+v", sg.name, i, rem, got, want)
				}
			}
		}
	}
}

// TestSettleMatchesPlainNegamax: the quick proof of a value (the checks'
// proven value) gives plain negamax's outcome on positions of small boards
// and the published values of tic-tac-toe (a draw), 4,4,3 (seat 0 wins)
// and Connect Four 6 × 4 (seat 1 wins); on 7 × 6, beyond its bound, it
// says so instead of answering.
func TestSettleMatchesPlainNegamax(t *testing.T) {
	sign := func(v int32) int {
		switch {
		case v > 0:
			return 1
		case v < 0:
			return -1
		}
		return 0
	}
	for _, g := range []games.Game{mnk.New(mnk.Rules{Rows: 3, Cols: 3, K: 3}), connect4.New(connect4.Rules{Cols: 4, Rows: 4, K: 3})} {
		for i, s := range positions(g, 11, 6, 2) {
			v, n, ok := Settle(s)
			if want := sign(plain(s, 0, 64)); !ok || v.Outcome != want || n <= 0 {
				t.Errorf("%s, position %d: settled %+v after %d positions (%v), plain negamax %+d", g.Name(), i, v, n, ok, want)
			}
		}
	}
	for _, c := range []struct {
		name  string
		g     games.Game
		mover int // the outcome for seat 0, who moves first
	}{
		{"tic-tac-toe", mnk.New(mnk.Rules{Rows: 3, Cols: 3, K: 3}), 0},
		{"4,4,3", mnk.New(mnk.Rules{Rows: 4, Cols: 4, K: 3}), 1},
		{"Connect Four 6 × 4", connect4.New(connect4.Rules{Cols: 6, Rows: 4, K: 4}), -1},
	} {
		if v, _, ok := Settle(c.g.NewState()); !ok || v.Outcome != c.mover {
			t.Errorf("%s: settled %+v (%v), published %+d for seat 0", c.name, v, ok, c.mover)
		}
	}
	start := time.Now()
	if _, n, ok := Settle(connect4.New(connect4.Rules{Cols: 7, Rows: 6, K: 4}).NewState()); ok || n < games.ProofNodes {
		t.Errorf("7 × 6 settled within %d positions (%v)", n, ok)
	}
	t.Logf("7 × 6: gave up at the bound in %v", time.Since(start))
}
