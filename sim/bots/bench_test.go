package bots_test

import (
	"testing"

	"playtest/games"
	"playtest/games/capstone"
	"playtest/games/connect4"
	"playtest/games/pcg"
	"playtest/games/stacks"
	"playtest/games/stacktics"
	"playtest/sim/bots"
	"playtest/sim/model"
)

// start returns a game's first position where a seat decides (chance
// sampled from a fixed stream).
func start(b *testing.B, r games.Rules) games.State {
	g, err := r.NewGame()
	if err != nil {
		b.Fatal(err)
	}
	s := g.NewState()
	rng := pcg.New(1, 2)
	for s.CurrentPlayer() == games.Chance {
		s.Apply(games.SampleChance(s.ChanceOutcomes(nil), rng))
	}
	return s
}

// benchBot runs one decision per loop from s and reports the bot's work
// per second and the allocations per unit of work (iteration or node).
func benchBot(b *testing.B, bot bots.Bot, s games.State, work float64, unit string) {
	legal := s.LegalMoves(nil)
	bot.Reset(s.CurrentPlayer(), pcg.New(3, 4))
	for range 5 { // warm up the arena, the table and the buffers
		bot.Choose(s, legal)
	}
	b.ReportAllocs()
	for b.Loop() {
		bot.Choose(s, legal)
	}
	b.ReportMetric(work*float64(b.N)/b.Elapsed().Seconds(), unit+"/s")
}

// BenchmarkMCTS searches 2000 iterations from the Stacktics size-3 opening
// (rollouts cut at 6 decisions and judged by the heuristic, as the presets
// play, also with implicit minimax backups), and to the end with random
// rollouts.
func BenchmarkMCTS(b *testing.B) {
	for _, c := range []struct {
		name     string
		cap      int
		implicit float64
	}{{"stacktics3/cap6", 6, 0}, {"stacktics3/cap6-implicit", 6, 0.3}, {"stacktics3/full", 0, 0}} {
		b.Run(c.name, func(b *testing.B) {
			p := bots.DefaultMCTSParams()
			p.Iterations, p.RolloutCap, p.EvalScale, p.Implicit = 2000, c.cap, 3, c.implicit
			benchBot(b, bots.NewMCTS(*p, false), start(b, stacktics.DefaultRules()), 2000, "iterations")
		})
	}
}

// BenchmarkISMCTS searches 2000 iterations, each from a new determinisation,
// from the first decision of STACKS and of Capstone; on STACKS also as its
// preset plays, rollouts cut after 4 decisions and judged by the shipped
// n-tuple network.
func BenchmarkISMCTS(b *testing.B) {
	for _, c := range []struct {
		name  string
		rules games.Rules
		cap   int
		model string
	}{{"stacks", stacks.DefaultRules(), 0, ""}, {"stacks/network-cap4", stacks.DefaultRules(), 4, "../../configs/models/stacks/base.json"},
		{"capstone", capstone.DefaultRules(), 3, ""}} {
		b.Run(c.name, func(b *testing.B) {
			p := bots.DefaultMCTSParams()
			p.Iterations, p.RolloutCap, p.EvalScale = 2000, c.cap, 3
			if c.model != "" {
				m, err := model.Load(c.model)
				if err != nil {
					b.Fatal(err)
				}
				p.UseModel(m, "bench")
			}
			benchBot(b, bots.NewMCTS(*p, true), start(b, c.rules), 2000, "iterations")
		})
	}
}

// BenchmarkAlphaBeta searches 50,000 nodes from the Stacktics size-3
// opening.
func BenchmarkAlphaBeta(b *testing.B) {
	p := *bots.DefaultAlphaBetaParams()
	p.Nodes = 50000
	benchBot(b, bots.NewAlphaBeta(p), start(b, stacktics.DefaultRules()), 50000, "nodes")
}

// BenchmarkAlphaBetaConnect4 searches 50,000 nodes from Connect Four
// 7 × 6 after three stones, with the hand heuristic and with a learned
// n-tuple network (40 tuples of 6 cells, the learn --kind ntuple default,
// random weights): the cost of a learned node against a hand node; and
// the hand heuristic without the threat search (tactics: false), its
// cost a node.
func BenchmarkAlphaBetaConnect4(b *testing.B) {
	s := start(b, connect4.DefaultRules())
	for _, m := range []games.Move{3, 3, 2} {
		s.Apply(m)
	}
	g, _ := connect4.DefaultRules().NewGame()
	cb := g.(games.Boarder).CellBoard()
	learned := model.NewNTupleModel(g.Name(), randomNetwork(b, cb, 6, pcg.New(5, 6)), 0, 1)
	for _, c := range []struct {
		name      string
		m         *model.Model
		noTactics bool
	}{{"hand", nil, false}, {"ntuple", learned, false}, {"hand-without-tactics", nil, true}} {
		b.Run(c.name, func(b *testing.B) {
			p := *bots.DefaultAlphaBetaParams()
			p.Nodes = 50000
			p.Tactics = !c.noTactics
			if c.m != nil {
				p.UseModel(c.m, "bench")
			}
			benchBot(b, bots.NewAlphaBeta(p), s, 50000, "nodes")
		})
	}
}

// BenchmarkAlphaBetaStacktics searches 20,000 nodes from a Stacktics size-3
// position after six decisions with the shipped size-3 logistic model
// (size3-linear.json, the base of the preset's network), and with an
// n-tuple network (40 tuples of 4 cells, random weights) or a dense one
// (32 hidden units, random weights) on top of it.
func BenchmarkAlphaBetaStacktics(b *testing.B) {
	r := stacktics.DefaultRules()
	g, err := r.NewGame()
	if err != nil {
		b.Fatal(err)
	}
	s := g.NewState()
	rng := pcg.New(7, 8)
	for range 6 {
		legal := s.LegalMoves(nil)
		s.Apply(legal[rng.IntN(len(legal))])
	}
	linear, err := model.Load("../../configs/models/stacktics/size3-linear.json")
	if err != nil {
		b.Fatal(err)
	}
	cb := g.(games.Boarder).CellBoard()
	hybrid := model.NewNTupleModel(g.Name(), randomNetwork(b, cb, 4, rng), 0, 1).WithBase(linear)
	dn, err := model.NewDense(cb, 32, rng)
	if err != nil {
		b.Fatal(err)
	}
	for j := range dn.Out {
		dn.Out[j] = float32(rng.Float64()*0.2 - 0.1)
	}
	dense := model.NewDenseModel(g.Name(), dn, 0, 1).WithBase(linear)
	for _, c := range []struct {
		name string
		m    *model.Model
	}{{"hand", nil}, {"learned", linear}, {"ntuple-on-learned", hybrid}, {"dense-on-learned", dense}} {
		b.Run(c.name, func(b *testing.B) {
			p := *bots.DefaultAlphaBetaParams()
			p.Nodes = 20000
			if c.m != nil {
				p.UseModel(c.m, "bench")
			}
			benchBot(b, bots.NewAlphaBeta(p), s, 20000, "nodes")
		})
	}
}

// BenchmarkAlphaBetaStackticsGames searches 2,000 nodes from each of 40
// positions of Stacktics size-3 games (eight random decisions, then the
// logistic model's search at 2,000 nodes in both seats), with the shipped
// size-3 logistic model (size3-linear.json), the preset's n-tuple network
// on top of it (size3.json) read whole and with the preset's lazy: 0.25,
// and the random network of BenchmarkAlphaBetaStacktics on top of it: the
// cost of a decision over the positions games reach, where the one
// position of BenchmarkAlphaBetaStacktics, early in a game, flatters a
// network (the shipped network's decision costs about 1.4× the logistic
// model's read whole, about 1.02× lazy: docs/learn.md).
func BenchmarkAlphaBetaStackticsGames(b *testing.B) {
	g, err := stacktics.DefaultRules().NewGame()
	if err != nil {
		b.Fatal(err)
	}
	linear, err := model.Load("../../configs/models/stacktics/size3-linear.json")
	if err != nil {
		b.Fatal(err)
	}
	network, err := model.Load("../../configs/models/stacktics/size3.json")
	if err != nil {
		b.Fatal(err)
	}
	withModel := func(m *model.Model, lazy float64) *bots.AlphaBeta {
		p := *bots.DefaultAlphaBetaParams()
		p.Nodes, p.Lazy = 2000, lazy
		p.UseModel(m, "bench")
		return bots.NewAlphaBeta(p)
	}
	var positions []games.State
	rng := pcg.New(5, 6)
	play := withModel(linear, 0)
	for game := 0; len(positions) < 40; game++ {
		s := g.NewState()
		for k := 0; k < 60 && !s.IsTerminal(); k++ {
			legal := s.LegalMoves(nil)
			if k < 8 {
				s.Apply(legal[rng.IntN(len(legal))])
				continue
			}
			if k%6 == 0 && len(legal) > 1 {
				positions = append(positions, s.Clone())
			}
			play.Reset(s.CurrentPlayer(), pcg.New(1, 1))
			s.Apply(play.Choose(s, legal))
		}
	}
	hybrid := model.NewNTupleModel(g.Name(), randomNetwork(b, g.(games.Boarder).CellBoard(), 4, pcg.New(7, 8)), 0, 1).WithBase(linear)
	for _, c := range []struct {
		name string
		m    *model.Model
		lazy float64
	}{{"learned", linear, 0}, {"preset-network", network, 0}, {"preset-network-lazy", network, 0.25},
		{"ntuple-on-learned", hybrid, 0}, {"ntuple-on-learned-lazy", hybrid, 0.25}} {
		b.Run(c.name, func(b *testing.B) {
			bot := withModel(c.m, c.lazy)
			legal := make([][]games.Move, len(positions))
			for i, s := range positions {
				legal[i] = s.LegalMoves(nil)
			}
			rng := pcg.New(1, 1) // unused: the bot plays without noise
			decide := func() {
				for i, s := range positions {
					bot.Reset(s.CurrentPlayer(), rng)
					bot.Choose(s, legal[i])
				}
			}
			decide() // grow the table and the buffers
			b.ReportAllocs()
			for b.Loop() {
				decide()
			}
			b.ReportMetric(b.Elapsed().Seconds()*1e3/float64(b.N*len(positions)), "ms/decision")
		})
	}
}

// randomNetwork returns a network of 40 random snakes of length cells over
// cb with small random weights, drawn from rng: a benchmark's network,
// which costs what a learned one does.
func randomNetwork(b *testing.B, cb games.CellBoard, length int, rng *pcg.Rand) *model.NTuple {
	b.Helper()
	n, err := model.NewNTuple(cb, model.SnakeTuples(cb, 40, length, rng))
	if err != nil {
		b.Fatal(err)
	}
	for _, w := range n.Weights {
		for i := range w {
			w[i] = float32(rng.Float64()-0.5) / 10
		}
	}
	return n
}

// BenchmarkAlphaBetaCapstone searches 8,000 nodes over 8 worlds from a
// Capstone position after ten decisions, as the preset plays, with and
// without the opponent model (infer:): the cost of a node of perfect-
// information Monte Carlo on hidden goals.
func BenchmarkAlphaBetaCapstone(b *testing.B) {
	s := start(b, capstone.DefaultRules())
	rng := pcg.New(9, 10)
	for decisions := 0; decisions < 10 && !s.IsTerminal(); {
		if s.CurrentPlayer() == games.Chance {
			s.Apply(games.SampleChance(s.ChanceOutcomes(nil), rng))
			continue
		}
		legal := s.LegalMoves(nil)
		s.Apply(legal[rng.IntN(len(legal))])
		decisions++
	}
	for s.CurrentPlayer() == games.Chance {
		s.Apply(games.SampleChance(s.ChanceOutcomes(nil), rng))
	}
	for _, infer := range []float64{0, 1.809} {
		name := "worlds"
		if infer > 0 {
			name = "worlds-infer"
		}
		b.Run(name, func(b *testing.B) {
			p := *bots.DefaultAlphaBetaParams()
			p.Nodes, p.Worlds, p.Infer = 8000, 8, infer
			benchBot(b, bots.NewAlphaBeta(p), s, 8000, "nodes")
		})
	}
}

// BenchmarkAlphaBetaProveConnect4 plays whole games of Connect Four 7 × 6
// between two alphabeta bots of 16,000 nodes with varied openings (noise
// 16 at temperature 4 over their first 4 decisions), without and with
// the prover (prove: 20,000 positions from ply 10): the CPU a game and a
// ply, and the allocations a game once the bots' tables exist.
func BenchmarkAlphaBetaProveConnect4(b *testing.B) {
	g, _ := connect4.DefaultRules().NewGame()
	for _, c := range []struct {
		name             string
		prove, proveFrom int
	}{{"search", 0, 0}, {"prove", 20000, 10}} {
		b.Run(c.name, func(b *testing.B) {
			p := *bots.DefaultAlphaBetaParams()
			p.Nodes, p.Noise, p.Temperature, p.NoiseMoves = 16000, 16, 4, 4
			p.Prove, p.ProveFrom = c.prove, c.proveFrom
			seats := [2]*bots.AlphaBeta{bots.NewAlphaBeta(p), bots.NewAlphaBeta(p)}
			rngs := [2]*pcg.Rand{pcg.New(1, 0), pcg.New(1, 1)}
			start, legal := g.NewState(), make([]games.Move, 0, 8)
			s := start.Clone()
			game, plies := 0, 0
			play := func() {
				for seat, bot := range seats {
					*rngs[seat] = *pcg.New(uint64(game), uint64(seat))
					bot.Reset(games.Player(seat), rngs[seat])
				}
				s.CopyFrom(start)
				for !s.IsTerminal() {
					legal = s.LegalMoves(legal[:0])
					s.Apply(seats[s.CurrentPlayer()].Choose(s, legal))
					plies++
				}
				game = (game + 1) % 8 // eight openings, over and over
			}
			for range 8 { // the tables and buffers
				play()
			}
			plies = 0
			b.ReportAllocs()
			for b.Loop() {
				play()
			}
			b.ReportMetric(float64(plies)/float64(b.N), "plies/game")
			b.ReportMetric(b.Elapsed().Seconds()*1e3/float64(plies), "ms/ply")
		})
	}
}
