package bots_test

import (
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"playtest/games"
	"playtest/games/capstone"
	"playtest/games/connect4"
	"playtest/games/gamestest"
	"playtest/games/mnk"
	"playtest/games/pcg"
	"playtest/games/stacktics"
	"playtest/sim/bots"
)

// keptValue plays g between two bots of p from seed and counts the
// decisions that keep their position's value (gamestest.Negamax's) and
// those that do not.
func keptValue(g games.Game, p bots.AlphaBetaParams, seed uint64, memo map[string]int) (kept, lost int) {
	var b [2]*bots.AlphaBeta
	for seat := range b {
		b[seat] = bots.NewAlphaBeta(p)
		b[seat].Reset(games.Player(seat), pcg.New(seed, uint64(seat)))
	}
	s := g.NewState()
	c := s.Clone()
	for !s.IsTerminal() {
		mover := s.CurrentPlayer()
		m := b[mover].Choose(s, s.LegalMoves(nil))
		value := gamestest.Negamax(s, memo)
		c.CopyFrom(s)
		c.Apply(m)
		if gamestest.After(c, mover, memo) == value {
			kept++
		} else {
			lost++
		}
		s.Apply(m)
	}
	return kept, lost
}

// TestProveKeepsTheValue: alphabeta with prove: never gives a proven value
// away where the prover settles the position within its bound, judged by
// a plain negamax (gamestest.Negamax), on boards that are a draw (tic-tac-toe, Connect Four
// 4 × 4) and a first-player win (Connect Four 4 × 4, 3 in a row); the
// same bots without it, weak and noisy, do give values away, so the test
// can fail.
func TestProveKeepsTheValue(t *testing.T) {
	for _, c := range []struct {
		name string
		g    games.Game
	}{
		{"tic-tac-toe", mnk.New(mnk.Rules{Rows: 3, Cols: 3, K: 3})},
		{"Connect Four 4 × 4", connect4.New(connect4.Rules{Cols: 4, Rows: 4, K: 4})},
		{"Connect Four 4 × 4, 3 in a row", connect4.New(connect4.Rules{Cols: 4, Rows: 4, K: 3})},
	} {
		memo := map[string]int{}
		weak := *bots.DefaultAlphaBetaParams()
		weak.Nodes, weak.Depth, weak.Noise, weak.Tactics = 100, 1, 1e6, false
		proving := weak
		proving.Prove = 1_000_000
		var lostWeak, kept, lost int
		for seed := range uint64(12) {
			_, l := keptValue(c.g, weak, seed, memo)
			lostWeak += l
			k, l := keptValue(c.g, proving, seed, memo)
			kept, lost = kept+k, lost+l
		}
		if lostWeak == 0 {
			t.Errorf("%s: the weak bots never gave a value away: the test cannot fail", c.name)
		}
		if lost > 0 || kept == 0 {
			t.Errorf("%s: with prove: %d decisions kept the value and %d gave it away", c.name, kept, lost)
		}
	}
}

// TestProveNoisyKeepsVariety: on a noisy decision the noise still
// chooses, among the moves that keep the value: a drawn opening of
// tic-tac-toe by noisy bots with prove: varies from seed to seed.
func TestProveNoisyKeepsVariety(t *testing.T) {
	g := mnk.New(mnk.Rules{Rows: 3, Cols: 3, K: 3})
	p := *bots.DefaultAlphaBetaParams()
	p.Nodes, p.Noise, p.Prove = 2000, 1e6, 100_000
	openings := map[games.Move]bool{}
	for seed := range uint64(20) {
		b := bots.NewAlphaBeta(p)
		b.Reset(games.Seat1, pcg.New(seed, 0))
		s := g.NewState()
		s.Apply(s.LegalMoves(nil)[4]) // the centre: the second move is proven
		openings[b.Choose(s, s.LegalMoves(nil))] = true
	}
	// After the centre, the corners draw and the edges lose.
	if len(openings) < 2 {
		t.Errorf("noisy replies to the centre over 20 seeds: %v, want several", openings)
	}
	for m := range openings {
		if m%2 == 1 { // an edge: 1, 3, 5, 7
			t.Errorf("a noisy reply %d gives the draw away", m)
		}
	}
}

// TestProveIsPerGame: the prover's table starts empty each game, so a
// bot plays a game as a new bot would, whatever games it played before
// (results do not depend on the number of workers), and a proven win
// reads as a forced result for the trace.
func TestProveIsPerGame(t *testing.T) {
	g := connect4.New(connect4.Rules{Cols: 5, Rows: 4, K: 4})
	p := *bots.DefaultAlphaBetaParams()
	p.Nodes, p.Noise, p.NoiseMoves, p.Prove = 1000, 3, 3, 3000
	line := func(bs [2]*bots.AlphaBeta, seed uint64) (moves []games.Move, provenWin bool) {
		for seat := range bs {
			bs[seat].Reset(games.Player(seat), pcg.New(seed, uint64(seat)))
		}
		s := g.NewState()
		for !s.IsTerminal() {
			b := bs[s.CurrentPlayer()]
			m := b.Choose(s, s.LegalMoves(nil))
			if v, ok := b.RootValue(); ok && v > bots.JudgeWin {
				provenWin = true
			}
			moves = append(moves, m)
			s.Apply(m)
		}
		return moves, provenWin
	}
	used := [2]*bots.AlphaBeta{bots.NewAlphaBeta(p), bots.NewAlphaBeta(p)}
	for seed := range uint64(6) {
		line(used, 100+seed)
	}
	anyWin := false
	for seed := range uint64(6) {
		a, win := line(used, seed)
		b, _ := line([2]*bots.AlphaBeta{bots.NewAlphaBeta(p), bots.NewAlphaBeta(p)}, seed)
		if !slices.Equal(a, b) {
			t.Errorf("seed %d: a bot that played before plays %v, a new one %v", seed, a, b)
		}
		anyWin = anyWin || win
	}
	if !anyWin {
		t.Error("no decision read a proven win: the trace's proof is untested")
	}
}

// TestProveAllocatesNothing: a decision with prove: allocates nothing
// once the bot's buffers and tables exist.
func TestProveAllocatesNothing(t *testing.T) {
	g := connect4.New(connect4.Rules{Cols: 7, Rows: 6, K: 4})
	// A middle game of 20 stones, played by a deterministic search.
	s := g.NewState()
	op := *bots.DefaultAlphaBetaParams()
	op.Nodes = 1000
	openers := [2]*bots.AlphaBeta{bots.NewAlphaBeta(op), bots.NewAlphaBeta(op)}
	for seat, b := range openers {
		b.Reset(games.Player(seat), pcg.New(0, uint64(seat)))
	}
	for range 20 {
		s.Apply(openers[s.CurrentPlayer()].Choose(s, s.LegalMoves(nil)))
	}
	if s.IsTerminal() {
		t.Fatal("the test's position is finished")
	}
	p := *bots.DefaultAlphaBetaParams()
	p.Nodes, p.Prove = 2000, 20000
	b := bots.NewAlphaBeta(p)
	rng := pcg.New(1, 2)
	b.Reset(s.CurrentPlayer(), rng)
	legal := s.LegalMoves(nil)
	b.Choose(s, legal)
	if v, ok := b.RootValue(); !ok || v > -bots.JudgeWin && v < bots.JudgeWin {
		t.Fatalf("the position is not proven won or lost (%v): the test does not reach the prover", v)
	}
	if n := testing.AllocsPerRun(20, func() {
		b.Reset(s.CurrentPlayer(), rng)
		b.Choose(s, legal)
	}); n != 0 {
		t.Errorf("%v allocations a decision with prove:", n)
	}
}

// TestProveRefused: prove: is refused, before any game and as the user's
// mistake, where a proof is not the game's; allowed on Connect Four, and
// anywhere when 0.
func TestProveRefused(t *testing.T) {
	st := stacktics.DefaultRules()
	if err := st.Validate(); err != nil {
		t.Fatal(err)
	}
	cs := capstone.DefaultRules()
	if err := cs.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		rules games.Rules
		prove int
		want  string
	}{
		{"Stacktics", st, 1000, "repetition rule or move cap"},
		{"Capstone", cs, 1000, "perfect information"},
		{"Connect Four", connect4.DefaultRules(), 1000, ""},
		{"Stacktics without prove:", st, 0, ""},
	} {
		p := *bots.DefaultAlphaBetaParams()
		p.Prove = c.prove
		err := p.CheckProveRules(c.rules)
		checkRefusal(t, c.name, err, c.want)
	}
	p := *bots.DefaultAlphaBetaParams()
	for _, bad := range []int{1, 999, 100_000_001} {
		p.Prove = bad
		if err := p.Validate(); err == nil || !strings.Contains(err.Error(), "prove") {
			t.Errorf("prove: %d: %v", bad, err)
		}
	}
	p.Prove, p.Nodes = 20000, 32000
	if q := p.WithBudget(8000).(*bots.AlphaBetaParams); q.Prove != 5000 || q.Nodes != 8000 {
		t.Errorf("a rung of 8,000 nodes: prove %d, nodes %d, want 5,000 and 8,000", q.Prove, q.Nodes)
	}
}

// TestProveStops: a run's stop flag ends a decision's proof at once: with
// bounds of minutes (100,000,000 positions and nodes from the start of
// Connect Four 7 × 6), a bot whose flag is set returns at once, without a
// proof.
func TestProveStops(t *testing.T) {
	g := connect4.New(connect4.Rules{Cols: 7, Rows: 6, K: 4})
	p := *bots.DefaultAlphaBetaParams()
	p.Nodes, p.Prove = 100_000_000, 100_000_000
	b := bots.NewAlphaBeta(p)
	var stop atomic.Bool
	stop.Store(true)
	b.SetStop(&stop)
	b.Reset(games.Seat0, pcg.New(1, 1))
	s := g.NewState()
	done := make(chan struct{})
	go func() {
		b.Choose(s, s.LegalMoves(nil))
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second): // without the flag: minutes
		t.Fatal("a stopped decision did not return: its proof does not watch the run's flag")
	}
	if v, ok := b.RootValue(); ok && (v > bots.JudgeWin || v < -bots.JudgeWin) {
		t.Errorf("a stopped decision read a proof: %v", v)
	}
}
