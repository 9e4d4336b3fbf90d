package games_test

import (
	"strings"
	"testing"

	"playtest/games"
	"playtest/games/capturecard"
	"playtest/games/mnk"
)

// TestPlayLine: a line of play is checked entry by entry; an illegal one
// names its index and the legal choices, a chance outcome is taken with or
// without replay's brackets, and nothing follows the end of a game.
func TestPlayLine(t *testing.T) {
	g := mnk.New(mnk.Rules{Rows: 3, Cols: 3, K: 3})
	s := g.NewState()
	if err := games.PlayLine(s, games.SplitLine("b2 a1, c3")); err != nil || s.Plies() != 3 {
		t.Fatalf("a legal line: %v after %d plies", err, s.Plies())
	}
	for _, c := range []struct {
		line string
		want string
	}{
		{"b2 b2", `entry 2 "b2": not a legal move here; the legal ones there: a1 b1 c1 a2 c2 a3 b3 c3`},
		{"b2 z9", `entry 2 "z9": not a legal move here`},
		{"a1 b1 a2 b2 a3 c3", `entry 6 "c3": the game is over before it`},
	} {
		err := games.PlayLine(g.NewState(), games.SplitLine(c.line))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.line, err, c.want)
		}
		if _, ok := err.(interface{ BadInput() bool }); !ok {
			t.Errorf("%q: %T is not the user's mistake", c.line, err)
		}
	}
	cc := capturecard.DefaultRules()
	if err := cc.Validate(); err != nil {
		t.Fatal(err)
	}
	cg, err := cc.NewGame()
	if err != nil {
		t.Fatal(err)
	}
	deal := cg.NewState()
	if err := games.PlayLine(deal, []string{"[deal:Kd]", "deal:10c"}); err != nil || deal.Plies() != 0 && deal.CurrentPlayer() != games.Chance {
		t.Fatalf("chance outcomes with and without brackets: %v", err)
	}
	err = games.PlayLine(cg.NewState(), []string{"[deal:Kd]", "[deal:Kd]"})
	if err == nil || !strings.Contains(err.Error(), "not a chance outcome that can happen here") {
		t.Errorf("the same card dealt twice: %v", err)
	}
}
