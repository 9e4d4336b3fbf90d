package learn

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"playtest/games"
	"playtest/games/pcg"
	"playtest/internal/testenv"
	"playtest/runs/rundir"
	"playtest/sim"
	"playtest/sim/bots"
	"playtest/sim/model"
	"playtest/variants"
)

// TestLearnNTuple (issue 56): TD self-play learns an n-tuple network of
// tic-tac-toe (20 tuples of 3 cells, 50,000 games, 20% random moves) good
// enough that a greedy bot playing it (one ply, no search) never loses to
// a random bot in 200 games, by TD(0) and by TD(0.5); the same seed gives
// the same weights.
func TestLearnNTuple(t *testing.T) {
	testenv.SkipUnderRace(t)
	t.Run("TD(0)", func(t *testing.T) { testLearnNTuple(t, 0) })
	t.Run("TD(0.5)", func(t *testing.T) { testLearnNTuple(t, 0.5) })
}

func testLearnNTuple(t *testing.T, lambda float64) {
	cfg, err := variants.Load("mnk/tictactoe", nil)
	if err != nil {
		t.Fatal(err)
	}
	opts := NTupleOptions{Games: 50000, Tuples: 20, Length: 3, Rate: DefaultNTupleRate, Epsilon: 0.2, Seed: 3, Lambda: lambda}
	m, tr, err := LearnNTuple(context.Background(), cfg, opts)
	if err != nil {
		t.Fatal(err)
	}
	again, _, err := LearnNTuple(context.Background(), cfg, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.EqualFunc(m.Net().Weights, again.Net().Weights, slices.Equal) || m.NTuple.Weights != again.NTuple.Weights {
		t.Error("the same seed learned other weights")
	}
	// Late self-play of a drawn game: mostly draws.
	if late := tr.Seat0Wins + tr.Seat1Wins + tr.Draws; late != opts.Games/10 {
		t.Errorf("late self-play counts %d games, want %d: %+v", late, opts.Games/10, tr)
	}
	g, err := cfg.NewGame()
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Check(g, m.RulesHash, true); err != nil {
		t.Fatal(err)
	}
	if want, _ := json.Marshal(cfg.Rules); string(m.Rules) != string(want) {
		t.Errorf("the network records the rules %s, want %s (the model-rules warning names the knobs that differ from them)", m.Rules, want)
	}
	learned, err := variants.ParseBot("--bot", "{bot: greedy, eval: learned, model: x}")
	if err != nil {
		t.Fatal(err)
	}
	learned.Params.(bots.ModelUser).UseModel(m, "test")
	random, _ := variants.ParseBot("--bot", "random")
	play := *cfg
	play.Players, play.Games, play.Pairs = [2]bots.Spec{learned, random}, 200, true
	s, err := rundir.Run(context.Background(), &play, rundir.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if p := s.Players[0]; p.Losses != 0 || p.Wins < 100 {
		t.Errorf("the learned greedy bot against random: %d wins, %d draws, %d losses", p.Wins, p.Draws, p.Losses)
	}
}

// TestDefaultTupleLength: 6 cells, fewer where a table would pass 65,536
// entries.
func TestDefaultTupleLength(t *testing.T) {
	for states, want := range map[int]int{2: 6, 3: 6, 4: 6, 7: 5, 13: 4, 16: 4} {
		if got := DefaultTupleLength(states); got != want {
			t.Errorf("%d states: %d cells, want %d", states, got, want)
		}
	}
}

// TestNTupleModelFileIsReproducible: the same seed writes the same
// model.json, byte for byte (no time in it).
func TestNTupleModelFileIsReproducible(t *testing.T) {
	cfg, err := variants.Load("connect4/4x4", nil)
	if err != nil {
		t.Fatal(err)
	}
	opts := NTupleOptions{Games: 300, Tuples: 4, Length: 4, Rate: DefaultNTupleRate, Epsilon: DefaultNTupleEpsilon, Seed: 9}
	var files [2]string
	for i := range files {
		m, tr, err := LearnNTuple(context.Background(), cfg, opts)
		if err != nil {
			t.Fatal(err)
		}
		files[i] = modelFile(t, m, tr)
	}
	if files[0] != files[1] {
		t.Error("the same seed wrote two different model.json files")
	}
}

// TestLearnNTupleOnAScript: a rules script with cell_board and cells is
// learned like an engine: a model of its board, checked against the game.
func TestLearnNTupleOnAScript(t *testing.T) {
	cfg, err := variants.Load("../../configs/scripts/tictactoe.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	m, tr, err := LearnNTuple(context.Background(), cfg, NTupleOptions{Games: 200, Tuples: 10, Length: 3, Rate: DefaultNTupleRate, Epsilon: 0.2, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	g, err := cfg.NewGame()
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Check(g, m.RulesHash, true); err != nil {
		t.Fatal(err)
	}
	if tr.Seat0Wins+tr.Seat1Wins+tr.Draws != 20 {
		t.Errorf("late games %+v, want 20", tr)
	}
}

// TestFitNTupleOnTheBotsModel (issue 56): an n-tuple network, and a dense
// one, fitted on top of the model Stacktics size 2's bots play, to their
// games' positions labelled by results and searches, predicts held-out
// deals better than that model alone; it keeps the base's features,
// weights and hand scale; the same seed writes the same model.json at 1
// and 2 workers; and bots that play no model are refused.
func TestFitNTupleOnTheBotsModel(t *testing.T) {
	testenv.SkipUnderRace(t)
	over := []variants.Override{{Path: "players.0.nodes", Value: "150"}, {Path: "players.1.nodes", Value: "150"}}
	cfg, err := variants.Load("stacktics/size2", over)
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{model.KindNTuple, model.KindDense} {
		opts := FitOptions{Games: 2000, Kind: kind, Tuples: 20, Length: 3, Hidden: 32, Result: DefaultFitResult, Rate: DefaultFitRate, Epochs: DefaultFitEpochs, Seed: 4}
		if kind == model.KindDense {
			opts.Rate = DefaultDenseRate
		}
		var files [2]string
		for i := range files {
			opts.Workers = i + 1
			m, tr, err := FitNTuple(context.Background(), cfg, opts)
			if err != nil {
				t.Fatal(err)
			}
			base := m.Base()
			if i == 0 {
				t.Logf("%s: %d positions, %d held out, %d passes: log-loss %.4f, base %.4f, difference %+.4f [%+.4f, %+.4f]; search σ(%.3f·lead%+.3f)",
					kind, tr.Positions, tr.HeldOut, tr.Epochs, tr.Learned.LogLoss, tr.Base.LogLoss, tr.VersusBase.Mean, tr.VersusBase.Low, tr.VersusBase.High, tr.SearchScale, tr.SearchBias)
				if !(tr.VersusBase.High < 0) {
					t.Errorf("%s: the network does not predict held-out deals better than its base: %+.4f [%+.4f, %+.4f]", kind, tr.VersusBase.Mean, tr.VersusBase.Low, tr.VersusBase.High)
				}
				if !(tr.SearchScale > 0) {
					t.Errorf("%s: the searches' values were not mapped to chances (scale %v)", kind, tr.SearchScale)
				}
				played := cfg.Players[0].Params.(bots.ModelUser).LearnedModel()
				if !slices.Equal(base.Weights, played.Weights) || base.HandScale != played.HandScale || m.Kind != kind {
					t.Errorf("the model is not a network on the bots' model: kind %q, want %q, base weights %v, hand scale %v", m.Kind, kind, base.Weights, base.HandScale)
				}
				if (kind == model.KindDense) != (m.DenseNet() != nil && tr.Hidden == 32 && tr.Tuples == 0) {
					t.Errorf("%s: the network or its record is of another kind (hidden %d, tuples %d)", kind, tr.Hidden, tr.Tuples)
				}
				checkFitReliability(t, kind, tr)
				if want, _ := json.Marshal(cfg.Rules); string(m.Rules) != string(want) {
					t.Errorf("%s: the network records the rules %s, want %s", kind, m.Rules, want)
				}
			}
			files[i] = modelFile(t, m, tr)
			if strings.Contains(files[i], "reliability") {
				t.Errorf("%s: model.json keeps the reliability deciles, which the shipped networks' records do not", kind)
			}
		}
		if files[0] != files[1] {
			t.Errorf("%s: the same seed wrote another model.json at 2 workers", kind)
		}
	}
	hand, err := variants.Load("stacktics/size2", []variants.Override{{Path: "players.0", Value: "{bot: alphabeta, nodes: 150}"}, {Path: "players.1", Value: "{bot: alphabeta, nodes: 150}"}})
	if err != nil {
		t.Fatal(err)
	}
	opts := FitOptions{Games: 1000, Tuples: 20, Length: 3, Result: DefaultFitResult, Rate: DefaultFitRate, Epochs: DefaultFitEpochs, Seed: 4}
	if _, _, err := FitNTuple(context.Background(), hand, opts); err == nil || !strings.Contains(err.Error(), "play no logistic model") {
		t.Errorf("bots on the hand heuristic: %v", err)
	}
}

// checkFitReliability checks a fit's reliability deciles: every held-out
// position in one, each decile's mean prediction inside it and its gap
// inside its interval, and the table and its sentence written.
func checkFitReliability(t *testing.T, kind string, tr *FitTraining) {
	t.Helper()
	if len(tr.Reliability) != 10 {
		t.Fatalf("%s: %d deciles", kind, len(tr.Reliability))
	}
	n := 0
	for _, b := range tr.Reliability {
		n += b.N
		if b.N == 0 {
			continue
		}
		if b.Predicted < b.Low || b.Predicted > b.High || b.Observed < 0 || b.Observed > 1 || b.Deals < 1 || !(b.GapLow <= b.Gap() && b.Gap() <= b.GapHigh) {
			t.Errorf("%s: decile %+v is not one", kind, b)
		}
	}
	if n != tr.HeldOut {
		t.Errorf("%s: the deciles hold %d positions of %d held out", kind, n, tr.HeldOut)
	}
	var text strings.Builder
	if err := tr.WriteReliability(&text); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "result less prediction") || !strings.Contains(text.String(), "Held out, against the games' results:") {
		t.Errorf("%s: the reliability written:\n%s", kind, text.String())
	}
}

// TestFitReliabilitySaysItsLabels: a fit labelled by proofs is judged
// against its proven values, not the games' results, and says so; a
// decile 5.0 points off is within ±5, one 5.1 off is not.
func TestFitReliabilitySaysItsLabels(t *testing.T) {
	bins := func(observed, low float64) []Bin {
		return []Bin{{Low: 0.5, High: 0.6, N: 200, Deals: 40, Predicted: 0.55, Observed: observed, GapLow: low, GapHigh: observed - 0.5}}
	}
	for _, c := range []struct {
		tr   FitTraining
		want string
	}{
		{FitTraining{Reliability: bins(0.60, 0.001)}, "Held out, against the games' results: every decile of at least 100 positions is within ±5 points"},
		{FitTraining{Proof: 1000, Reliability: bins(0.60, 0.001)}, "Held out, against their proven values: every decile"},
		{FitTraining{Reliability: bins(0.601, -0.001)}, "its calibration is not shown off: the 50–60% decile (200 positions) predicts 55.0% and sees 60.1%, +5.1 points [-0.1, +10.1] over 40 held-out deals, an interval that holds 0"},
		{FitTraining{Reliability: bins(0.601, 0.001)}, "its chances are not calibrated: the 50–60% decile (200 positions) predicts 55.0% and sees 60.1%, +5.1 points [+0.1, +10.1]"},
	} {
		var text strings.Builder
		if err := c.tr.WriteReliability(&text); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(text.String(), c.want) {
			t.Errorf("want %q in:\n%s", c.want, text.String())
		}
	}
}

// modelFile is model.json's text of m with its training record tr.
func modelFile(t *testing.T, m *model.Model, tr any) string {
	t.Helper()
	var err error
	if m.Training, err = json.Marshal(tr); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := m.Write(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestFitKeepsBothViewsOfHiddenInformation (issue 57): in Capstone, whose
// seats each see a part the other does not, every decision's position is
// kept from both seats' views (the network rates each seat from its own),
// the two rows of a position with complementary results and leads, the
// other seat's read in a world the mover sampled, the same at any worker
// count.
func TestFitKeepsBothViewsOfHiddenInformation(t *testing.T) {
	job, cells, collect := fitCollector(t, "capstone/capstone", "{bot: alphabeta, nodes: 200, eval: learned, model: preset}", 6)
	d := collect(FitOptions{Workers: 1})
	if len(d.y) == 0 || len(d.y)%2 != 0 || len(d.cells) != len(d.y)*cells {
		t.Fatalf("%d rows of %d cells", len(d.y), len(d.cells))
	}
	differ := 0
	for i := 0; i < len(d.y); i += 2 {
		if d.y[i]+d.y[i+1] != 1 || d.deal[i] != d.deal[i+1] || d.lead[i] != -d.lead[i+1] && !(math.IsNaN(d.lead[i]) && math.IsNaN(d.lead[i+1])) {
			t.Fatalf("rows %d and %d are not one position's two views: results %v and %v, leads %v and %v", i, i+1, d.y[i], d.y[i+1], d.lead[i], d.lead[i+1])
		}
		if string(d.cells[i*cells:(i+1)*cells]) != string(d.cells[(i+1)*cells:(i+2)*cells]) {
			differ++
		}
	}
	if differ == 0 {
		t.Error("the two views' cells never differ")
	}
	// The other seat's rows are read in sampled worlds: some differ from
	// its view of the game as it was.
	var truth []uint8
	err := replayDecisions(context.Background(), *job, 1, nil, func(*sim.Record) decisionVisitor {
		return func(s games.State, _ int, p games.Player) {
			truth = s.(games.CellState).AppendCells(truth, p.Opponent())
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	sampled := 0
	for i := 1; i < len(d.y); i += 2 {
		if string(d.cells[i*cells:(i+1)*cells]) != string(truth[i/2*cells:(i/2+1)*cells]) {
			sampled++
		}
	}
	if sampled == 0 {
		t.Error("the other seat's rows are its view of the true position, never of a sampled world")
	}
	// The worlds the other seat's rows are read in come from the deal and
	// the decision: the same rows at 2 workers.
	d2 := collect(FitOptions{Workers: 2})
	if string(d2.cells) != string(d.cells) || !slices.Equal(d2.y, d.y) {
		t.Error("other rows at 2 workers")
	}
}

// TestFitQuietPositions (issue 56): with FitOptions.Quiet the fit keeps
// exactly the decisions whose mover has no forcing move pending, and
// counts the others, as a replay of the same games finds them.
func TestFitQuietPositions(t *testing.T) {
	job, cells, collect := fitCollector(t, "stacktics/size2", "{bot: alphabeta, nodes: 100, eval: learned, model: preset}", 8)
	all, quiet := collect(FitOptions{Workers: 1}), collect(FitOptions{Workers: 1, Quiet: true})
	var want []uint8
	pending := 0
	var forcing []games.Move
	err := replayDecisions(context.Background(), *job, 1, nil, func(*sim.Record) decisionVisitor {
		return func(s games.State, _ int, p games.Player) {
			if forcing = s.(games.Forcing).ForcingMoves(forcing[:0]); len(forcing) > 0 {
				pending++
				return
			}
			want = s.(games.CellState).AppendCells(want, p)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if pending == 0 || len(want) == 0 {
		t.Fatalf("%d positions with a forcing move pending and %d quiet: nothing to tell apart", pending, len(want)/cells)
	}
	if quiet.notQuiet != pending || string(quiet.cells) != string(want) || len(quiet.y)+pending != len(all.y) || all.notQuiet != 0 {
		t.Errorf("quiet kept %d positions and left out %d; the replay finds %d quiet and %d pending of %d (without the option %d left out)",
			len(quiet.y), quiet.notQuiet, len(want)/cells, pending, len(all.y), all.notQuiet)
	}
}

// TestFitLabelsPositionsByProofs (issue 56): with FitOptions.Proof each
// kept position's target is its proven value for its mover, the same as
// a plain minimax finds, the same at 1 and 2 workers; positions before
// ProofFrom, those whose proof passes the bound and those on lines that
// repeat a position (Stacktics) are left out; a game of hidden
// information is refused.
func TestFitLabelsPositionsByProofs(t *testing.T) {
	bot := "{bot: alphabeta, nodes: 200, noise: 8, noise_moves: 6, temperature: 2, eval: learned, model: preset}"
	_, cells, collect := fitCollector(t, "connect4/5x4", bot, 12)
	opts := FitOptions{Workers: 1, Proof: 10_000_000, ProofFrom: 11}
	d := collect(opts)
	states := d.states
	if len(states) < 20 || len(states) != len(d.y) {
		t.Fatalf("%d positions kept to prove, %d rows", len(states), len(d.y))
	}
	unproven, err := d.proveLabels(context.Background(), opts)
	if err != nil || unproven != 0 {
		t.Fatalf("%d unproven within %d positions: %v", unproven, opts.Proof, err)
	}
	seen := map[float64]int{}
	for i, s := range states {
		if s.Plies() < opts.ProofFrom {
			t.Fatalf("a position of %d plies was kept, from %d", s.Plies(), opts.ProofFrom)
		}
		want := (minimax(s, s.CurrentPlayer()) + 1) / 2
		if d.y[i] != want || !math.IsNaN(d.lead[i]) {
			t.Fatalf("position %d (%d plies): label %v (lead %v), minimax %v\n%s", i, s.Plies(), d.y[i], d.lead[i], want, s)
		}
		seen[want]++
	}
	if len(seen) < 2 {
		t.Errorf("every label is one value: %v", seen)
	}
	two := collect(FitOptions{Workers: 2, Proof: opts.Proof, ProofFrom: opts.ProofFrom})
	if _, err := two.proveLabels(context.Background(), FitOptions{Workers: 2, Proof: opts.Proof}); err != nil || !slices.Equal(two.y, d.y) || !bytes.Equal(two.cells, d.cells) {
		t.Errorf("2 workers label otherwise: %v", err)
	}
	tight := collect(FitOptions{Workers: 1, Proof: 20})
	all := len(tight.y)
	unproven, err = tight.proveLabels(context.Background(), FitOptions{Workers: 2, Proof: 20})
	if err != nil || unproven == 0 || unproven == all || len(tight.y) != all-unproven || len(tight.cells) != len(tight.y)*cells || len(tight.deal) != len(tight.y) {
		t.Errorf("within 20 positions: %d of %d unproven, %d rows left: %v", unproven, all, len(tight.y), err)
	}
	// Stacktics repeats positions: a line that does is no proof, and its
	// position is left out, not an error.
	_, _, skCollect := fitCollector(t, "stacktics/size2-3x5", "", 4)
	skd := skCollect(FitOptions{Workers: 1, Proof: 100_000, ProofFrom: 10})
	skAll := len(skd.y)
	if unproven, err := skd.proveLabels(context.Background(), FitOptions{Workers: 2, Proof: 100_000}); err != nil || unproven == 0 || len(skd.y) != skAll-unproven {
		t.Errorf("Stacktics 3 × 5: %d of %d unproven, %d rows left: %v", unproven, skAll, len(skd.y), err)
	}
	capstone, err := variants.Load("capstone/capstone", []variants.Override{{Path: "players.0", Value: bot}, {Path: "players.1", Value: bot}})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := FitNTuple(context.Background(), capstone, FitOptions{Games: 10, Proof: 1000}); err == nil || !strings.Contains(err.Error(), "cannot be proven") {
		t.Errorf("Capstone labelled by proofs: %v", err)
	}
}

// fitCollector loads variant with both seats playing bot (the variant's
// own bots when bot is ""), which must play a logistic model, cut to
// n traced games; it returns the job, the cells of a position, and a
// collectCells over them on that model.
func fitCollector(t *testing.T, variant, bot string, n int) (*sim.Job, int, func(FitOptions) *fitData) {
	t.Helper()
	var over []variants.Override
	if bot != "" {
		over = []variants.Override{{Path: "players.0", Value: bot}, {Path: "players.1", Value: bot}}
	}
	cfg, err := variants.Load(variant, over)
	if err != nil {
		t.Fatal(err)
	}
	job, err := rundir.Job(cfg)
	if err != nil {
		t.Fatal(err)
	}
	job.Games, job.Trace = n, n
	base := sim.TraceModel(cfg.Players).Base()
	cells := job.Game.(games.Boarder).CellBoard().Cells()
	return job, cells, func(opts FitOptions) *fitData {
		t.Helper()
		d, err := collectCells(context.Background(), *job, cells, base, opts)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
}

// minimax is s's value for seat (+1, 0 or −1) by a plain search of every
// line.
func minimax(s games.State, seat games.Player) float64 {
	if s.IsTerminal() {
		return s.Result().ValueFor(seat)
	}
	best := math.Inf(-1)
	if s.CurrentPlayer() != seat {
		best = math.Inf(1)
	}
	for _, m := range s.LegalMoves(nil) {
		c := s.Clone()
		c.Apply(m)
		v := minimax(c, seat)
		if s.CurrentPlayer() == seat {
			best = max(best, v)
		} else {
			best = min(best, v)
		}
	}
	return best
}

// TestFitAlone (issue 56): FitOptions.Alone fits a network by itself, from
// bots that play the hand heuristic: the model has no base, its hand scale
// is fitted (not 1), it predicts held-out proven values better than a coin,
// its bots play it in the head-to-head, and the same seed writes the same
// model.json at 1 and 2 workers.
func TestFitAlone(t *testing.T) {
	testenv.SkipUnderRace(t)
	bot := "{bot: alphabeta, nodes: 200, noise: 8, noise_moves: 6, temperature: 2}"
	cfg, err := variants.Load("connect4/5x4", []variants.Override{{Path: "players.0", Value: bot}, {Path: "players.1", Value: bot}})
	if err != nil {
		t.Fatal(err)
	}
	opts := FitOptions{Games: 300, Tuples: 20, Length: 4, Result: DefaultFitResult, Rate: DefaultFitRate, Epochs: 8, Seed: 3,
		Proof: 1_000_000, ProofFrom: 8, Alone: true, HeadToHead: 20}
	var files [2]string
	for i := range files {
		opts.Workers = i + 1
		m, tr, err := FitNTuple(context.Background(), cfg, opts)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			t.Logf("%d positions (%d unproven), %d passes: log-loss %.4f against a coin's %.4f; hand scale %.4f; head-to-head %+v",
				tr.Positions, tr.Unproven, tr.Epochs, tr.Learned.LogLoss, tr.Base.LogLoss, m.HandScale, tr.HeadToHead)
			if m.Base() != nil || !tr.Alone || !strings.Contains(tr.Method, "proof-labelled positions of the bots' games, alone") {
				t.Errorf("not a network alone: base %v, record %+v", m.Base(), tr)
			}
			if m.HandScale == 1 || !(m.HandScale > 0) {
				t.Errorf("hand scale %v: not fitted", m.HandScale)
			}
			if math.Abs(tr.Base.LogLoss-math.Log(2)) > 1e-9 || !(tr.VersusBase.High < 0) {
				t.Errorf("held-out log-loss %.4f against a coin's %.4f: %+v", tr.Learned.LogLoss, tr.Base.LogLoss, tr.VersusBase)
			}
			if tr.HeadToHead == nil || tr.HeadToHead.Games != 20 {
				t.Errorf("head-to-head %+v, want 20 games", tr.HeadToHead)
			}
		}
		files[i] = modelFile(t, m, tr)
	}
	if files[0] != files[1] {
		t.Error("the same seed wrote another model.json at 2 workers")
	}
}

// TestFitLeaves (issue 56): FitOptions.Leaves adds, from the training
// deals only, up to that many positions of each training position's
// search, each with a search's lead and no result; the search's mapping
// to chances is fitted to the games' positions alone and gives the
// leaves their targets; the same rows at 1 and 2 workers; bots that are
// not alphabeta, and games of hidden information, are refused.
func TestFitLeaves(t *testing.T) {
	testenv.SkipUnderRace(t)
	bot := "{bot: alphabeta, nodes: 300, noise: 0.5, noise_moves: 6, eval: learned, model: preset}"
	job, cells, collect := fitCollector(t, "stacktics/size2", bot, 10)
	cfg, err := variants.Load("stacktics/size2", []variants.Override{{Path: "players.0", Value: bot}, {Path: "players.1", Value: bot}})
	if err != nil {
		t.Fatal(err)
	}
	base := sim.TraceModel(cfg.Players).Base()
	opts := FitOptions{Workers: 1, Leaves: 3, Quiet: true}
	leafy := func(workers int) (*fitData, int) {
		t.Helper()
		d := collect(opts)
		d.keepLeaves = true
		o := opts
		o.Workers = workers
		o.Quiet = workers == 1 // the leaves are quiet either way
		var stages []string
		var done atomic.Int64
		o.OnStage = func(stage, unit string, total int) { stages = append(stages, fmt.Sprint(stage, " ", total, " ", unit)) }
		o.OnPosition = func() { done.Add(1) }
		added, err := d.addLeaves(context.Background(), job.Game, cfg.Players, base, o)
		if err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprint("leaves ", len(d.y)-added, " positions"); len(stages) != 1 || stages[0] != want || done.Load() != int64(len(d.y)-added) {
			t.Errorf("%d workers: stages %q with %d positions done, want %q and each", workers, stages, done.Load(), want)
		}
		return d, added
	}
	played := collect(FitOptions{Workers: 1, Quiet: true})
	d, added := leafy(1)
	n := len(played.y)
	train, held := splitHeld(played.held)
	if added < len(train) || added > 3*len(train) || len(held) == 0 {
		t.Fatalf("%d leaves from %d training positions (%d held out)", added, len(train), len(held))
	}
	if len(d.y) != n+added || len(d.cells) != len(d.y)*cells || len(d.base) != len(d.y) || len(d.lead) != len(d.y) || len(d.deal) != len(d.y) || len(d.held) != len(d.y) || d.states != nil {
		t.Fatalf("rows out of step: %d results, %d cells, %d bases, %d leads, %d deals, %d held", len(d.y), len(d.cells)/cells, len(d.base), len(d.lead), len(d.deal), len(d.held))
	}
	if string(d.cells[:n*cells]) != string(played.cells) || !slices.Equal(d.deal[:n], played.deal) {
		t.Fatal("the games' positions changed")
	}
	trainDeals := map[int]bool{}
	for _, i := range train {
		trainDeals[played.deal[i]] = true
	}
	known := map[string]bool{}
	for i := range n {
		known[string(d.cells[i*cells:(i+1)*cells])] = true
	}
	fresh := 0
	for i := n; i < len(d.y); i++ {
		if !math.IsNaN(d.y[i]) || d.held[i] || !trainDeals[d.deal[i]] || math.IsNaN(d.lead[i]) {
			t.Fatalf("leaf %d: result %v, held %v, deal %d, lead %v", i-n, d.y[i], d.held[i], d.deal[i], d.lead[i])
		}
		if !known[string(d.cells[i*cells:(i+1)*cells])] {
			fresh++
		}
	}
	if fresh < added/2 {
		t.Errorf("only %d of %d leaves are positions the games did not play", fresh, added)
	}
	// Each leaf is quiet and unfinished, its row its own (cells and base
	// from its mover's view), its lead the labelling search's.
	lb, err := newLeafBots(job.Game, cfg.Players, 0)
	if err != nil {
		t.Fatal(err)
	}
	var forcing, legal []games.Move
	for k, leaf := range d.leafStates {
		i := n + k
		mover := leaf.CurrentPlayer()
		if leaf.IsTerminal() || forcingPending(leaf, &forcing) {
			t.Fatalf("leaf %d is finished or has a capture pending:\n%s", k, leaf)
		}
		if string(leaf.(games.CellState).AppendCells(nil, mover)) != string(d.cells[i*cells:(i+1)*cells]) {
			t.Fatalf("leaf %d: its row's cells are another position's", k)
		}
		if f := leaf.(games.FeatureState).AppendFeatures(nil, mover); base.Logit(f)-base.Bias != d.base[i] {
			t.Fatalf("leaf %d: base %v, its features give %v", k, d.base[i], base.Logit(f)-base.Bias)
		}
		if k < 30 {
			search := lb.label[mover]
			legal = leaf.LegalMoves(legal[:0])
			search.Reset(mover, pcg.New(1, 1))
			search.Choose(leaf, legal)
			if v, ok := search.RootValue(); !ok || (v != d.lead[i] && !math.IsInf(d.lead[i], 0)) {
				t.Fatalf("leaf %d: lead %v, a search of it %v (%v)", k, d.lead[i], v, ok)
			}
		}
	}
	if len(d.leafStates) != added {
		t.Fatalf("%d leaves kept of %d", len(d.leafStates), added)
	}
	// The leaves' targets: the search's chance, by the mapping fitted to
	// the games' positions alone.
	var alone, with FitTraining
	played.targets(train, 0.5, &alone)
	all, _ := splitHeld(d.held)
	target := d.targets(all, 0.5, &with)
	if with.SearchScale != alone.SearchScale || with.SearchBias != alone.SearchBias || !(with.SearchScale > 0) {
		t.Errorf("the leaves moved the search's mapping: σ(%v·lead%+v) against σ(%v·lead%+v) without them", with.SearchScale, with.SearchBias, alone.SearchScale, alone.SearchBias)
	}
	for i := n; i < len(d.y); i++ {
		if want := model.Sigmoid(with.SearchScale*d.lead[i] + with.SearchBias); target[i] != want {
			t.Fatalf("leaf %d: target %v, want the search's chance %v", i-n, target[i], want)
		}
	}
	two, added2 := leafy(2)
	if added2 != added || string(two.cells) != string(d.cells) || !slices.Equal(two.lead, d.lead) || !slices.Equal(two.base, d.base) {
		t.Errorf("2 workers sample or label other leaves (%d against %d)", added2, added)
	}
	mcts, err := variants.Load("stacktics/size2", []variants.Override{{Path: "players.0", Value: "{bot: mcts, iterations: 50}"}, {Path: "players.1", Value: "{bot: mcts, iterations: 50}"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := played.addLeaves(context.Background(), job.Game, mcts.Players, base, opts); err == nil || !strings.Contains(err.Error(), "alphabeta") {
		t.Errorf("mcts bots' leaves: %v", err)
	}
	capstone, err := variants.Load("capstone/capstone", nil)
	if err != nil {
		t.Fatal(err)
	}
	cg, err := capstone.Rules.NewGame()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := played.addLeaves(context.Background(), cg, cfg.Players, base, opts); err == nil || !strings.Contains(err.Error(), "perfect information") {
		t.Errorf("Capstone's leaves: %v", err)
	}
}
