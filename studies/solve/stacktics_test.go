package solve

import (
	"context"
	"errors"
	"strings"
	"testing"

	"playtest/games"
	"playtest/games/pcg"
	"playtest/games/prove"
	"playtest/games/stacktics"
	"playtest/internal/testenv"
	"playtest/variants"
)

// bruteForce is a plain depth-limited minimax without any table: the
// result for the player to move at s within depth decisions (valWin,
// valLoss or valUnknown) and its distance, by the prover's conventions.
func bruteForce(s games.State, depth int) (int8, int) {
	mover := s.CurrentPlayer()
	win, lossDist, lost := -1, 0, true
	for _, m := range s.LegalMoves(nil) {
		c := s.Clone()
		c.Apply(m)
		var v int8
		d := 0
		switch {
		case c.IsTerminal() && c.Result().Winner == mover:
			v = valWin
		case c.IsTerminal() && c.Result().Winner == games.NoPlayer:
			v = valUnknown
		case c.IsTerminal():
			v = valLoss
		case depth <= 1:
			v = valUnknown
		default:
			v, d = bruteForce(c, depth-1)
			if v != valUnknown && c.CurrentPlayer() != mover {
				v = valWin + valLoss - v
			}
		}
		switch v {
		case valWin:
			if win < 0 || d+1 < win {
				win = d + 1
			}
		case valLoss:
			lossDist = max(lossDist, d+1)
		default:
			lost = false
		}
	}
	switch {
	case win > 0:
		return valWin, win
	case lost:
		return valLoss, lossDist
	}
	return valUnknown, 0
}

// TestProverOnStacktics checks the bounded prover on real Stacktics
// positions (size 2 on 4×4, with and without the pie rule, from random
// points of random games) against plain minimax: every result the prover
// proves is minimax's, and everything minimax proves within the depth the
// prover proves too. It exercises the game's keys, their round trip
// through SetKey, and the table.
func TestProverOnStacktics(t *testing.T) {
	rng := pcg.New(21, 22)
	checked, proven := 0, 0
	for _, pie := range []bool{false, true} {
		r := stacktics.DefaultRules()
		r.Size, r.PieRule = 2, &pie
		if err := r.Validate(); err != nil {
			t.Fatal(err)
		}
		g := stacktics.New(*r.ForSolver().(*stacktics.Rules))
		for range testenv.Scale(12) {
			s := g.NewState()
			for range rng.IntN(14) {
				if s.IsTerminal() {
					break
				}
				moves := s.LegalMoves(nil)
				s.Apply(moves[rng.IntN(len(moves))])
			}
			if s.IsTerminal() {
				continue
			}
			const depth = 4
			se, err := prove.New(s, prove.Options{Horizon: depth, Entries: 1 << 16})
			if err != nil {
				t.Fatal(err)
			}
			outcome, dist := proveWithin(t, se, s, depth)
			se.Close()
			want, wantDist := bruteForce(s, depth)
			if outcome != valUnknown && (outcome != want || dist != wantDist) ||
				outcome == valUnknown && want != valUnknown {
				t.Fatalf("pie %v, position\n%v\nprover %d in %d, minimax %d in %d", pie, s, outcome, dist, want, wantDist)
			}
			checked++
			if want != valUnknown {
				proven++
			}
		}
	}
	t.Logf("%d positions, %d decided within the depth", checked, proven)
	if checked == 0 || proven == 0 && !testenv.RaceEnabled {
		t.Fatalf("%d positions checked, %d decided: the test compares nothing", checked, proven)
	}
}

// TestPieNoteWinAtOnce (issue 43): on a 2×4 board seat 0 captures and wins
// on move 1, before seat 1 can choose sides: the proof says seat 0 wins by
// force and never that the pie rule hands seat 1 the win; a horizon of one
// decision is worded without negative counts.
func TestPieNoteWinAtOnce(t *testing.T) {
	for _, depth := range []int{1, 3} {
		cfg, err := variants.Load("stacktics/size2", []variants.Override{{Path: "rules.board", Value: "{rows: 2, cols: 4}", Origin: "test"}})
		if err != nil {
			t.Fatal(err)
		}
		res, err := Prove(context.Background(), cfg, ProveOptions{Depth: depth})
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if err := res.WriteTable(&b); err != nil {
			t.Fatal(err)
		}
		text := b.String()
		for _, want := range []string{"seat 0 wins by force in 1 decision.", "win for seat 0 before seat 1 can choose sides", "seat 0 wins by force."} {
			if !strings.Contains(text, want) {
				t.Errorf("depth %d: no %q in\n%s", depth, want, text)
			}
		}
		for _, bad := range []string{"hands seat 1 the win", "-1 after", "1 decisions"} {
			if strings.Contains(text, bad) {
				t.Errorf("depth %d: %q in\n%s", depth, bad, text)
			}
		}
	}
}

// TestProveStopsAtOnce (issues 43, 53): a bounded proof whose context is
// cancelled unwinds at the next node, whatever its depth, instead of
// searching on to the next check (13–15 s at depth 12 before; a thousand
// nodes of a scripted game are seconds).
func TestProveStopsAtOnce(t *testing.T) {
	cfg, err := variants.Load("stacktics/size2", nil)
	if err != nil {
		t.Fatal(err)
	}
	g, _, err := solverGame(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	se, err := prove.New(g.NewState(), prove.Options{Horizon: 12, Context: ctx, Entries: 1 << 16})
	if err != nil {
		t.Fatal(err)
	}
	defer se.Close()
	if _, err := se.Score(g.NewState(), 12); err == nil || se.Nodes() != 1 {
		t.Errorf("a cancelled depth-12 search: %v after %d nodes", err, se.Nodes())
	}
	if _, err := Prove(ctx, cfg, ProveOptions{Depth: 12}); err == nil {
		t.Error("a cancelled proof returned a result")
	}
}

// TestSearchStopsAtOnce (issue 53): a proof by search and an enumeration
// whose context is cancelled stop at the next node or position; the
// search used to look every 2^20 nodes (3–10 s on Connect Four 6 × 5).
func TestSearchStopsAtOnce(t *testing.T) {
	cfg, err := variants.Load("connect4/6x5", []variants.Override{{Path: "book", Value: "0"}}) // no book's proofs at load
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	g, _, err := solverGame(cfg)
	if err != nil {
		t.Fatal(err)
	}
	se, err := prove.New(g.NewState(), prove.Options{Context: ctx, Entries: 1 << 16})
	if err != nil {
		t.Fatal(err)
	}
	defer se.Close()
	if _, err := se.Decide(g.NewState()); err == nil || se.Nodes() > 2 {
		t.Errorf("a cancelled search: %v after %d nodes", err, se.Nodes())
	}
	if _, err := enumerate(ctx, g, g.NewState(), 1<<20, true, nil); err == nil {
		t.Error("a cancelled enumeration went on")
	}
}

// The solve's note names a repetition rule and a move cap only for rules
// that have them (issue 53): tic-tac-toe has neither to set aside.
func TestNoteSaysWhatWasSetAside(t *testing.T) {
	cfg, err := variants.Load("mnk/tictactoe", nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), cfg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.SetAside || strings.Contains(res.Note, "repetition") {
		t.Errorf("tic-tac-toe: set aside %v: %s", res.SetAside, res.Note)
	}
	st, err := variants.Load("stacktics/size2", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !games.SetsAside(st.Rules, st.Rules.(games.SolverRules)) {
		t.Error("Stacktics' repetition rule and move cap are set aside by its solver rules")
	}
}

// A scripted game's positions hold script values beside their keys: the
// solve's estimate of their memory is measured, not the built-in games'
// figure (issue 53: 14 MiB said, 215 MB used).
func TestScriptedSolveMeasuresItsPositions(t *testing.T) {
	cfg, err := variants.Load("../../configs/scripts/tictactoe.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Run(context.Background(), cfg, Options{MaxStates: 2000, NoSymmetry: true})
	var tooLarge *TooLargeError
	if !errors.As(err, &tooLarge) {
		t.Fatalf("%v, want a TooLargeError", err)
	}
	if tooLarge.BytesPerPos < 2*(16+bytesPerPosition) {
		t.Errorf("about %d bytes a scripted position: the built-in games' estimate, not a measure", tooLarge.BytesPerPos)
	}
}
