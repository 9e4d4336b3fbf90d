package solve

import (
	"context"
	"strings"
	"testing"

	"playtest/games"
	"playtest/variants"
)

// plainValue is the plain negamax's value of s for its mover: +1, 0 or
// −1, with the decisions to the end (the winner fastest, the loser
// slowest; 0 for a draw).
func plainValue(s games.State) (int, int) {
	mover := s.CurrentPlayer()
	best, dist := -2, 0
	for _, m := range s.LegalMoves(nil) {
		c := s.Clone()
		c.Apply(m)
		var v, d int
		switch {
		case c.IsTerminal():
			v, d = seat0Score(c.Result()), 1
			if mover == games.Seat1 {
				v = -v
			}
		default:
			v, d = plainValue(c)
			if c.CurrentPlayer() != mover {
				v = -v
			}
			d++
		}
		switch {
		case v > best, v == best && v > 0 && d < dist, v == best && v < 0 && d > dist:
			best, dist = v, d
		}
	}
	if best == 0 {
		dist = 0
	}
	return best, dist
}

// TestAnalyseMatchesPlainNegamax: every move's value and distance from a
// position after a line of play is the plain negamax's, on tic-tac-toe
// (with the pie rule too) and small Connect Four boards.
func TestAnalyseMatchesPlainNegamax(t *testing.T) {
	for _, c := range []struct {
		preset string
		sets   []variants.Override
		from   string
	}{
		{"mnk/tictactoe", nil, ""},
		{"mnk/tictactoe", nil, "a1 b2"},
		{"mnk/tictactoe", nil, "b2 a1 c3"},
		{"mnk/tictactoe-pie", nil, "b2"},
		{"mnk/tictactoe", set("rules.cols", "4"), "b2 b1"},
		{"connect4/4x4", set("rules.k", "3"), "b b"},
		{"connect4/4x4", nil, "a b c d a"},
	} {
		cfg, err := variants.Load(c.preset, c.sets)
		if err != nil {
			t.Fatal(err)
		}
		a, err := Analyse(context.Background(), cfg, AnalyseOptions{From: games.SplitLine(c.from), MaxEntries: 1 << 16})
		if err != nil {
			t.Fatal(err)
		}
		g, _, _ := solverGame(cfg)
		s := g.NewState()
		if err := games.PlayLine(s, games.SplitLine(c.from)); err != nil {
			t.Fatal(err)
		}
		moves := s.LegalMoves(nil)
		if len(a.Moves) != len(moves) {
			t.Fatalf("%s after %q: %d moves analysed of %d", c.preset, c.from, len(a.Moves), len(moves))
		}
		for i, m := range moves {
			child := s.Clone()
			child.Apply(m)
			var v, d int
			if child.IsTerminal() {
				v, d = seat0Score(child.Result()), 1
				if s.CurrentPlayer() == games.Seat1 {
					v = -v
				}
			} else {
				v, d = plainValue(child)
				if child.CurrentPlayer() != s.CurrentPlayer() {
					v = -v
				}
				d++
			}
			got := a.Moves[i]
			want := outcomeFor(v, games.Seat0)
			if got.Move != s.MoveString(m) || got.Value != want || !got.Proven || v != 0 && (got.Plies == nil || *got.Plies != d) {
				t.Errorf("%s %v after %q, %s: %+v (plies %v), plain negamax %s in %d", c.preset, c.sets, c.from, s.MoveString(m), got, plies(got.Plies, "%d"), want, d)
			}
		}
		if a.Verdict == "" || a.Value == Unknown {
			t.Errorf("%s after %q: value %s, verdict %q", c.preset, c.from, a.Value, a.Verdict)
		}
	}
}

// TestAnalyseVerdicts: the verdict names the moves that keep the best
// value, and a bound too small to prove anything says so.
func TestAnalyseVerdicts(t *testing.T) {
	cfg, err := variants.Load("mnk/tictactoe", nil)
	if err != nil {
		t.Fatal(err)
	}
	// After a1 b2 c3, seat 1 must take an edge: a corner loses.
	a, err := Analyse(context.Background(), cfg, AnalyseOptions{From: []string{"a1", "b2", "c3"}, MaxEntries: 1 << 16})
	if err != nil {
		t.Fatal(err)
	}
	if a.Value != Draw || !strings.Contains(a.Verdict, "b1, a2, c2 and b3 keep the draw") {
		t.Errorf("after a1 b2 c3: %s, %q", a.Value, a.Verdict)
	}
	small, err := Analyse(context.Background(), cfg, AnalyseOptions{MaxNodes: 3, MaxEntries: 1 << 10})
	if err != nil {
		t.Fatal(err)
	}
	if small.Value != Unknown || !strings.Contains(small.Verdict, "No move is proven within 3 positions each") {
		t.Errorf("within 3 positions a move: %s, %q", small.Value, small.Verdict)
	}
	for _, m := range small.Moves {
		if m.Proven || m.Value != Unknown {
			t.Errorf("%s proven within 3 positions: %+v", m.Move, m)
		}
	}
	if _, err := Analyse(context.Background(), cfg, AnalyseOptions{From: []string{"a1", "b1", "a2", "b2", "a3"}}); err == nil || !strings.Contains(err.Error(), "over") {
		t.Errorf("a finished game analysed: %v", err)
	}
}

// TestAnalyseLongestDefence: where every move loses, the verdict names the
// ones that hold out longest.
func TestAnalyseLongestDefence(t *testing.T) {
	cfg, err := variants.Load("mnk/tictactoe", nil)
	if err != nil {
		t.Fatal(err)
	}
	// After a1 a2 b2 c3 b1, seat 1 faces two threats (c1 and b3): every
	// move loses, all in 2.
	a, err := Analyse(context.Background(), cfg, AnalyseOptions{From: []string{"a1", "a2", "b2", "c3", "b1"}, MaxEntries: 1 << 12})
	if err != nil {
		t.Fatal(err)
	}
	if a.Value != Loss || !strings.HasPrefix(a.Verdict, "Every move loses; ") || !strings.Contains(a.Verdict, "out longest (2 decisions)") {
		t.Errorf("%s: %q", a.Value, a.Verdict)
	}
}
