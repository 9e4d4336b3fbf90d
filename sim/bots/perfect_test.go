package bots_test

import (
	"strings"
	"testing"

	"playtest/games"
	"playtest/games/capstone"
	"playtest/games/connect4"
	"playtest/games/mnk"
	"playtest/games/pcg"
	"playtest/games/stacktics"
	"playtest/sim/bots"
)

// playGame plays one game between two bots from the start and returns the
// result, with every move checked legal.
func playGame(t *testing.T, g games.Game, b [2]bots.Bot, seed uint64) games.Result {
	t.Helper()
	for seat := range b {
		b[seat].Reset(games.Player(seat), pcg.New(seed, uint64(seat)))
	}
	s := g.NewState()
	for !s.IsTerminal() {
		legal := s.LegalMoves(nil)
		m := b[s.CurrentPlayer()].Choose(s, legal)
		found := false
		for _, l := range legal {
			found = found || l == m
		}
		if !found {
			t.Fatalf("an illegal move %d", m)
		}
		s.Apply(m)
	}
	return s.Result()
}

// TestPerfectKeepsTheValue (issue 55): perfect against itself ends every
// game at the proven value (tic-tac-toe and 4,4,4 draws, Connect Four
// 6 × 4 a win for seat 1), and against weaker bots never scores below it.
// (5,5,4 takes about 20 s a game: docs/known-answers.md measures it.)
func TestPerfectKeepsTheValue(t *testing.T) {
	p := bots.PerfectParams{Nodes: 5_000_000, TableMB: 64}
	for _, c := range []struct {
		name   string
		g      games.Game
		winner games.Player // the proven value: NoPlayer a draw
		games  int
	}{
		{"tic-tac-toe", mnk.New(mnk.Rules{Rows: 3, Cols: 3, K: 3}), games.NoPlayer, 6},
		{"4,4,4", mnk.New(mnk.Rules{Rows: 4, Cols: 4, K: 4}), games.NoPlayer, 4},
		{"Connect Four 6 × 4", connect4.New(connect4.Rules{Cols: 6, Rows: 4, K: 4}), games.Seat1, 4},
	} {
		for i := range c.games {
			r := playGame(t, c.g, [2]bots.Bot{bots.NewPerfect(p), bots.NewPerfect(p)}, uint64(i))
			if r.Winner != c.winner {
				t.Errorf("%s, game %d of perfect against itself: winner %v, the proven value's %v", c.name, i, r.Winner, c.winner)
			}
		}
		// Against random and greedy, in either seat, perfect never does
		// worse than the proven value.
		for i := range c.games {
			for seat := range 2 {
				other := bots.Bot(&bots.Random{})
				if i%2 == 1 {
					other = bots.NewGreedy(c.g, bots.GreedyParams{Epsilon: 0.2})
				}
				var b [2]bots.Bot
				b[seat], b[1-seat] = bots.NewPerfect(p), other
				r := playGame(t, c.g, b, uint64(100+i))
				proven := 0.0
				switch c.winner {
				case games.Player(seat):
					proven = 1
				case games.NoPlayer:
					proven = 0.5
				}
				if got := (r.ValueFor(games.Player(seat)) + 1) / 2; got < proven {
					t.Errorf("%s, game %d: perfect in seat %d scored %v, below the proven %v", c.name, i, seat, got, proven)
				}
			}
		}
	}
}

// TestPerfectRefused: perfect is refused, before any game and with its
// reason, where its play is not defined by a proof or the start is not
// proven within its bound.
func TestPerfectRefused(t *testing.T) {
	st := stacktics.DefaultRules()
	if err := st.Validate(); err != nil {
		t.Fatal(err)
	}
	cs := capstone.DefaultRules()
	if err := cs.Validate(); err != nil {
		t.Fatal(err)
	}
	c4 := connect4.DefaultRules()
	ttt := mnk.DefaultRules()
	for _, c := range []struct {
		name  string
		rules games.Rules
		p     bots.PerfectParams
		want  string
	}{
		{"Stacktics", st, bots.PerfectParams{Nodes: 1000, TableMB: 1}, "repetition rule or move cap"},
		{"Capstone", cs, bots.PerfectParams{Nodes: 1000, TableMB: 1}, "only games of perfect information"},
		{"Connect Four 7 × 6", c4, bots.PerfectParams{Nodes: 1000, TableMB: 1}, "does not settle the variant's start within 1,000 positions"},
		{"tic-tac-toe", ttt, bots.PerfectParams{Nodes: 1000, TableMB: 1}, ""},
	} {
		err := c.p.CheckRules(c.rules)
		checkRefusal(t, c.name, err, c.want)
	}
}

// TestPerfectFailsLoudly: a decision not proven within the bound fails
// the game (a panic the runner records), never a weaker move.
func TestPerfectFailsLoudly(t *testing.T) {
	g := connect4.New(connect4.Rules{Cols: 7, Rows: 6, K: 4})
	b := bots.NewPerfect(bots.PerfectParams{Nodes: 1000, TableMB: 1})
	b.Reset(games.Seat0, pcg.New(1, 1))
	defer func() {
		p := recover()
		if p == nil || !strings.Contains(p.(string), "not proven within 1,000 positions") {
			t.Errorf("recovered %v", p)
		}
	}()
	s := g.NewState()
	b.Choose(s, s.LegalMoves(nil))
}

// checkRefusal checks a bot's refusal of a variant's rules: none where
// want is empty, else an error naming want that is the user's mistake
// (BadInput), not a bug.
func checkRefusal(t *testing.T, name string, err error, want string) {
	t.Helper()
	switch {
	case want == "" && err != nil:
		t.Errorf("%s: refused: %v", name, err)
	case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
		t.Errorf("%s: %v, want %q", name, err, want)
	}
	if err != nil {
		if bi, ok := err.(interface{ BadInput() bool }); !ok || !bi.BadInput() {
			t.Errorf("%s: the refusal %T is not the user's mistake", name, err)
		}
	}
}
