package stacks

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"playtest/games"
	"playtest/games/pcg"
	"playtest/internal/testenv"
)

// position builds a test position: the given stack heights (every other
// white square empty), the hands, the seat to move, and the stocks holding
// the rest of each seat's cards.
func position(t *testing.T, r *Rules, heights map[string]int, red, green []int, toMove games.Player) *State {
	t.Helper()
	g := newGame(t, r)
	s := g.NewState().(*State)
	for sq := range Squares {
		s.setHeight(sq, 0)
	}
	for name, h := range heights {
		sq, ok := parseSquare(name)
		if !ok {
			t.Fatalf("bad square %q", name)
		}
		s.setHeight(sq, h)
	}
	for seat, hand := range [2][]int{red, green} {
		s.hand[seat] = [MaxValue + 1]uint8{}
		s.stock[seat] = g.stock
		for _, v := range hand {
			s.hand[seat][v]++
			s.stock[seat][v]--
		}
		s.handN[seat] = uint8(len(hand))
		s.stockN[seat] = uint8(g.cards - len(hand))
	}
	s.toDraw = [2]uint8{}
	s.phase, s.toMove, s.starter = phasePlay, toMove, games.Seat0
	return s
}

// start returns the start position (a piece on every white square) with
// the given hands.
func start(t *testing.T, r *Rules, red, green []int, toMove games.Player) *State {
	t.Helper()
	heights := map[string]int{}
	for sq := range Squares {
		heights[squareName(sq)] = 1
	}
	return position(t, r, heights, red, green, toMove)
}

func moveTexts(s *State) []string {
	var out []string
	for _, m := range s.LegalMoves(nil) {
		out = append(out, s.MoveString(m))
	}
	return out
}

// play applies a move given in notation and returns the points it scored.
func play(t *testing.T, s *State, text string) int {
	t.Helper()
	m, err := s.ParseMove(text)
	if err != nil {
		t.Fatalf("%v\n%s", err, s)
	}
	p := s.toMove
	before := s.Scores()[p]
	s.Apply(m)
	return s.Scores()[p] - before
}

func withPrefix(moves []string, prefix string) []string {
	var out []string
	for _, m := range moves {
		if strings.HasPrefix(m, prefix) {
			out = append(out, m)
		}
	}
	return out
}

func TestStartPosition(t *testing.T) {
	g := newGame(t, DefaultRules())
	s := g.NewState().(*State)
	if s.CurrentPlayer() != games.Chance || len(s.ChanceOutcomes(nil)) != 3 {
		t.Fatalf("a game starts with Red's draws:\n%s", s)
	}
	for sq := range Squares {
		if s.Height(sq) != 1 || (rowOf[sq]+colOf[sq])%2 != 1 {
			t.Fatalf("start: %s", s)
		}
	}
	if popcount(areaA) != 12 {
		t.Errorf("area A has %d squares", popcount(areaA))
	}
	// Red draws two cards, then Green two; then Red moves.
	var seq []games.Player
	for s.CurrentPlayer() == games.Chance {
		seq = append(seq, s.drawer)
		s.Apply(s.ChanceOutcomes(nil)[0].Move)
	}
	if !slices.Equal(seq, []games.Player{0, 0, 1, 1}) || s.CurrentPlayer() != games.Seat0 {
		t.Errorf("draw order %v, then %v to move", seq, s.CurrentPlayer())
	}
}

// TestMoves checks the legal decisions of hand-made positions: directions,
// the stacking obligation, the penalty order and its scores, max_height,
// blocking and must_stack_scope.
func TestMoves(t *testing.T) {
	base := DefaultRules
	tests := []struct {
		name       string
		rules      func() *Rules
		heights    map[string]int // nil: the start position
		red, green []int
		toMove     games.Player
		want       []string // the legal decisions (with prefix, those starting with it)
		prefix     string
		play       string
		points     int
	}{
		{name: "red moves along rows, one step is two squares", rules: base, red: []int{1}, green: []int{1}, prefix: "1:d3",
			want: []string{"1:d3-b3", "1:d3-f3"}, play: "1:d3-f3", points: 2},
		{name: "green moves along columns", rules: base, red: []int{1}, green: []int{1}, toMove: 1, prefix: "1:d3",
			want: []string{"1:d3-d1", "1:d3-d5"}, play: "1:d3-d5", points: 2},
		{name: "three steps only fit in the rows of four", rules: base, red: []int{3}, green: []int{1},
			want: []string{"3:a2-g2", "3:a4-g4", "3:a6-g6", "3:g2-a2", "3:g4-a4", "3:g6-a6"}},
		{name: "stacking is compulsory", rules: base, heights: map[string]int{"a2": 1, "e2": 1, "b1": 2},
			red: []int{2}, green: []int{1}, want: []string{"2:a2-e2", "2:e2-a2"}, play: "2:e2-a2", points: 2},
		{name: "empty moves: -1 for a piece", rules: base, heights: map[string]int{"b1": 1, "a2": 2},
			red: []int{1}, green: []int{1}, want: []string{"1:a2-c2", "1:b1-d1"}, play: "1:b1-d1", points: -1},
		{name: "empty moves: -2 for a stack", rules: base, heights: map[string]int{"b1": 1, "a2": 2},
			red: []int{1}, green: []int{1}, want: []string{"1:a2-c2", "1:b1-d1"}, play: "1:a2-c2", points: -2},
		{name: "no move: -4", rules: base, heights: map[string]int{"b1": 1},
			red: []int{3}, green: []int{1}, want: []string{"3:pass"}, play: "3:pass", points: -4},
		{name: "stacking scores the new height", rules: base, heights: map[string]int{"b1": 3, "d1": 2},
			red: []int{1}, green: []int{1}, want: []string{"1:b1-d1", "1:d1-b1"}, play: "1:d1-b1", points: 5},
		{name: "a stack above max_height is no move at all", rules: base, heights: map[string]int{"b1": 4, "d1": 3},
			red: []int{1}, green: []int{1}, want: []string{"1:d1-f1"}, play: "1:d1-f1", points: -2},
		{name: "a full stack never moves", rules: base, heights: map[string]int{"b1": 6, "a2": 1},
			red: []int{1}, green: []int{1}, want: []string{"1:a2-c2"}},
		{name: "two equal cards are one decision", rules: base, heights: map[string]int{"b1": 1},
			red: []int{3, 3}, green: []int{1}, want: []string{"3:pass"}},
		{name: "card scope: each card keeps its own penalty order", rules: base, heights: map[string]int{"a2": 1, "g2": 1, "b1": 1},
			red: []int{1, 3}, green: []int{1}, want: []string{"1:a2-c2", "1:b1-d1", "1:g2-e2", "3:a2-g2", "3:g2-a2"}},
		{name: "hand scope: a card that cannot stack is not offered", rules: func() *Rules { r := base(); r.MustStackScope = ScopeHand; return r },
			heights: map[string]int{"a2": 1, "g2": 1, "b1": 1},
			red:     []int{1, 3}, green: []int{1}, want: []string{"3:a2-g2", "3:g2-a2"}},
		{name: "hand scope without any stacking move", rules: func() *Rules { r := base(); r.MustStackScope = ScopeHand; return r },
			heights: map[string]int{"b1": 1},
			red:     []int{1, 3}, green: []int{1}, want: []string{"1:b1-d1", "3:pass"}},
		{name: "no blocking: jumps over stacks", rules: base, heights: map[string]int{"a2": 1, "c2": 1, "e2": 1},
			red: []int{2}, green: []int{1}, want: []string{"2:a2-e2", "2:e2-a2"}},
		{name: "blocking: passed squares must be empty", rules: func() *Rules { r := base(); r.Blocking = true; return r },
			heights: map[string]int{"a2": 1, "c2": 1, "g2": 1},
			red:     []int{2}, green: []int{1}, want: []string{"2:c2-g2", "2:g2-c2"}, play: "2:c2-g2", points: 2},
		{name: "blocking: nothing left but a pass", rules: func() *Rules { r := base(); r.Blocking = true; return r },
			heights: map[string]int{"a2": 1, "c2": 1, "e2": 1},
			red:     []int{2}, green: []int{1}, want: []string{"2:pass"}, play: "2:pass", points: -4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s *State
			if tt.heights == nil {
				s = start(t, tt.rules(), tt.red, tt.green, tt.toMove)
			} else {
				s = position(t, tt.rules(), tt.heights, tt.red, tt.green, tt.toMove)
			}
			got := moveTexts(s)
			if tt.prefix != "" {
				got = withPrefix(got, tt.prefix)
			}
			slices.Sort(got)
			if !slices.Equal(got, tt.want) {
				t.Fatalf("moves %v, want %v\n%s", got, tt.want, s)
			}
			if tt.play != "" {
				if p := play(t, s, tt.play); p != tt.points {
					t.Errorf("%s scored %d, want %d", tt.play, p, tt.points)
				}
			}
		})
	}
}

func TestStartPositionMoveCounts(t *testing.T) {
	// One step: rows (or columns) of three squares give 4 moves, of four
	// squares 6; 4 lines of each kind minus one.
	for seat := range games.Player(2) {
		s := start(t, DefaultRules(), []int{1}, []int{1}, seat)
		if n := len(s.LegalMoves(nil)); n != 34 {
			t.Errorf("%v: %d one-step moves, want 34", seat, n)
		}
	}
}

func fourRules() *Rules {
	r := DefaultRules()
	fourCards(r)
	return r
}

// TestFourCards checks Variant 2: the shape of backward moves, the −3 and
// −5 penalties, and the unlock of backward 2- and 3-card moves.
func TestFourCards(t *testing.T) {
	t.Run("a 4-card from d3", func(t *testing.T) {
		// Red from d3 (row 2, col 3): one step to f3 then three diagonal
		// steps back to c6, or one step to b3 and back to e6; every other
		// split leaves the board.
		s := start(t, fourRules(), []int{4}, []int{1}, 0)
		got := withPrefix(moveTexts(s), "4:d3")
		if !slices.Equal(got, []string{"4:d3-c6", "4:d3-e6"}) {
			t.Fatalf("moves %v", got)
		}
		if p := play(t, s, "4:d3-e6"); p != 2 || s.Height(sqOf(t, "e6")) != 2 || !s.played4[0] {
			t.Errorf("scored %d\n%s", p, s)
		}
	})
	t.Run("zigzag reaches more squares", func(t *testing.T) {
		r := fourRules()
		r.Diagonal = DiagonalZigzag
		s := start(t, r, []int{4}, []int{1}, 0)
		got := withPrefix(moveTexts(s), "4:d3")
		slices.Sort(got)
		// f3 then (e4|e2) (d5|d3|d1) (c6|c4|c2|c0): on the board c6, c4, c2;
		// and mirrored from b3: e6, e4, e2.
		if !slices.Equal(got, []string{"4:d3-c2", "4:d3-c4", "4:d3-c6", "4:d3-e2", "4:d3-e4", "4:d3-e6"}) {
			t.Fatalf("moves %v", got)
		}
	})
	t.Run("a 4-card to empty squares only: -3", func(t *testing.T) {
		s := position(t, fourRules(), map[string]int{"d3": 1}, []int{4}, []int{1}, 0)
		got := moveTexts(s)
		if !slices.Equal(got, []string{"4:d3-c6", "4:d3-e6"}) {
			t.Fatalf("moves %v", got)
		}
		if p := play(t, s, "4:d3-c6"); p != -3 {
			t.Errorf("scored %d", p)
		}
	})
	t.Run("a 4-card without a move: -5; without four_card_moves: -4", func(t *testing.T) {
		full := map[string]int{"b1": 6, "d1": 6, "f1": 6, "a2": 6}
		s := position(t, fourRules(), full, []int{4}, []int{1}, 0)
		if p := play(t, s, "4:pass"); p != -5 || !s.played4[0] {
			t.Errorf("scored %d, unlocked %v", p, s.played4[0])
		}
		r := DefaultRules()
		r.Cards = &Cards{Ones: 4, Twos: 4, Threes: 3, Fours: 2}
		s = start(t, r, []int{4}, []int{1}, 0)
		if got := moveTexts(s); !slices.Equal(got, []string{"4:pass"}) {
			t.Errorf("4-card without four_card_moves: %v", got)
		}
		if p := play(t, s, "4:pass"); p != -4 {
			t.Errorf("scored %d", p)
		}
	})
	t.Run("backward 2-cards unlock after the first 4-card", func(t *testing.T) {
		// A 2-card from c2 (row 1, col 2): straight it goes to g2; backwards
		// one step to e2 and one diagonal back to d3 or d1, or to a2 and back
		// to b3 or b1. From b1 backwards: d1, then c2; from d3: b3, then c2.
		heights := map[string]int{"c2": 1, "d3": 2, "b1": 1}
		s := position(t, fourRules(), heights, []int{2}, []int{1}, 0)
		if got := moveTexts(s); !slices.Equal(got, []string{"2:b1-f1", "2:c2-g2"}) {
			t.Fatalf("before (only empty straight moves): %v", got)
		}
		s.played4[0] = true
		got := moveTexts(s)
		slices.Sort(got)
		if !slices.Equal(got, []string{"2:b1-c2", "2:c2-b1", "2:c2-d3", "2:d3-c2"}) {
			t.Fatalf("after: %v", got)
		}
		if p := play(t, s, "2:c2-d3"); p != 3 {
			t.Errorf("scored %d", p)
		}
		// With only empty moves, straight ones (−1) come before backward
		// ones (−3).
		s = position(t, fourRules(), map[string]int{"c2": 1}, []int{2}, []int{1}, 0)
		s.played4[0] = true
		if got := moveTexts(s); !slices.Equal(got, []string{"2:c2-g2"}) {
			t.Fatalf("empty: %v", got)
		}
	})
	t.Run("two paths to one square are one decision", func(t *testing.T) {
		// A 3-card from d3: one step right and two back up-left reaches b5,
		// and so does one step left and two back up-right... the paths to
		// d5 and d1 (axis back where it started) come from both directions.
		s := start(t, fourRules(), []int{3}, []int{1}, 0)
		s.played4[0] = true
		got := withPrefix(moveTexts(s), "3:d3")
		slices.Sort(got)
		if !slices.Equal(got, []string{"3:d3-d1", "3:d3-d5"}) {
			t.Fatalf("moves %v", got)
		}
	})
	t.Run("blocking: the source counts as empty and the turning square is passed over", func(t *testing.T) {
		r := fourRules()
		// A 4-card from d3 to e6 lands on b3, c4 and d5 on the way.
		heights := map[string]int{"d3": 1, "e6": 1, "c4": 1}
		if got := moveTexts(position(t, r, heights, []int{4}, []int{1}, 0)); !slices.Contains(got, "4:d3-e6") {
			t.Fatalf("without blocking: %v", got)
		}
		r.Blocking = true
		if got := moveTexts(position(t, r, heights, []int{4}, []int{1}, 0)); slices.Contains(got, "4:d3-e6") {
			t.Fatalf("with blocking c4 blocks the way to e6: %v", got)
		}
		// Zigzag from d3 to c4: via f3, e4, d5 or f3, e4, d3 (blocked by e4)
		// or f3, e2, d3, passing over the source, which the stack has left.
		r.Diagonal = DiagonalZigzag
		heights = map[string]int{"d3": 1, "c4": 1, "e4": 1}
		if got := moveTexts(position(t, r, heights, []int{4}, []int{1}, 0)); !slices.Contains(got, "4:d3-c4") {
			t.Fatalf("the source should count as empty: %v", got)
		}
	})
}

func sqOf(t *testing.T, name string) int {
	sq, ok := parseSquare(name)
	if !ok {
		t.Fatalf("bad square %q", name)
	}
	return sq
}

func TestTurnFlowAndEnd(t *testing.T) {
	r := DefaultRules()
	r.Cards = &Cards{Ones: 3}
	g := newGame(t, r)
	s := g.NewState().(*State)
	if err := s.FixDeal([]int{1, 1, 1}, []int{1, 1, 1}); err != nil {
		t.Fatal(err)
	}
	for i := range 6 {
		want := games.Player(i % 2)
		if s.CurrentPlayer() != want {
			t.Fatalf("turn %d: %v to move, want %v", i, s.CurrentPlayer(), want)
		}
		if s.handN[want] != uint8(min(2, 3-i/2)) {
			t.Fatalf("turn %d: hand %d", i, s.handN[want])
		}
		s.Apply(s.LegalMoves(nil)[0])
	}
	if !s.IsTerminal() || s.Plies() != 6 {
		t.Fatalf("not over after every card:\n%s", s)
	}
	res := s.Result()
	sc := s.Scores()
	switch {
	case sc[0] > sc[1] && res != games.Result{Winner: 0, Reason: ReasonScore}:
		t.Errorf("scores %v, result %+v", sc, res)
	case sc[0] == sc[1] && res != games.Result{Winner: games.NoPlayer, Reason: ReasonTie}:
		t.Errorf("scores %v, result %+v", sc, res)
	}
}

func TestFixDeal(t *testing.T) {
	g := newGame(t, DefaultRules())
	s := g.NewState().(*State)
	if err := s.FixDeal([]int{1, 2, 3}, []int{1, 2, 3}); err == nil {
		t.Error("FixDeal accepted a short stock")
	}
	start, header := g.PerftStart(1)
	if header != "deal: red 3 1 2 3 2 2 1 3 2 1 2 1 | green 2 2 2 1 3 2 3 2 3 1 1 1" {
		t.Errorf("header %q", header)
	}
	s = start.(*State)
	if s.hand[0] != [MaxValue + 1]uint8{0, 1, 0, 1, 0} || s.hand[1] != [MaxValue + 1]uint8{0, 0, 2, 0, 0} || s.CurrentPlayer() != 0 {
		t.Errorf("hands from the deal:\n%s", s)
	}
	if err := s.FixDeal([]int{1}, nil); err == nil {
		t.Error("FixDeal after the draws")
	}
}

// TestMatch checks Variant 1: totals carried over, the loser starting the
// next game, a drawn game handing the start to the second player, equal
// totals at the target playing on, and max_games.
func TestMatch(t *testing.T) {
	newMatch := func(target, maxGames int, loserStarts bool) *State {
		r := DefaultRules()
		r.Match = &Match{Target: new(target), MaxGames: new(maxGames), LoserStarts: new(loserStarts)}
		return newGame(t, r).NewState().(*State)
	}
	finish := func(s *State, red, green int) {
		s.score = [2]int16{int16(red), int16(green)}
		s.endGame()
	}
	s := newMatch(100, 100, true)
	finish(s, 40, 30) // green lost: green starts
	if s.IsTerminal() || s.starter != games.Seat1 || s.toMove != games.Seat1 || s.Scores() != [2]int{40, 30} {
		t.Fatalf("after game 1: starter %v\n%s", s.starter, s)
	}
	if s.drawer != games.Seat1 || s.CurrentPlayer() != games.Chance || s.handN != [2]uint8{} {
		t.Errorf("the next game's starter draws first")
	}
	finish(s, 20, 20) // drawn: the player who moved second (red) starts
	if s.starter != games.Seat0 {
		t.Errorf("after a drawn game %v starts", s.starter)
	}
	finish(s, 40, 50) // 100 - 100: equal totals at the target play on
	if s.IsTerminal() || s.starter != games.Seat0 {
		t.Fatalf("equal totals ended the match (%v)", s.Result())
	}
	finish(s, 5, 7)
	if !s.IsTerminal() || s.Result() != (games.Result{Winner: games.Seat1, Reason: ReasonMatchTarget}) || s.Scores() != [2]int{105, 107} {
		t.Errorf("result %+v, scores %v", s.Result(), s.Scores())
	}
	metrics := map[string]float64{}
	for _, m := range s.AppendMetrics(nil) {
		metrics[m.Name] += m.Value
	}
	if metrics["games"] != 4 || metrics["game.starter_wins"] != 1 || metrics["game.seat0_wins"] != 1 || metrics["game.tie"] != 1 {
		t.Errorf("metrics %v", metrics)
	}

	s = newMatch(100, 2, true)
	finish(s, 10, 10)
	finish(s, 10, 10)
	if s.Result() != (games.Result{Winner: games.NoPlayer, Reason: games.ReasonMaxGames}) || !games.IsStalled(s.Result().Reason) {
		t.Errorf("max_games: %+v", s.Result())
	}

	s = newMatch(100, 100, false) // the first move alternates
	finish(s, 10, 5)
	if s.starter != games.Seat1 {
		t.Errorf("alternating: %v starts game 2", s.starter)
	}
	finish(s, 5, 10)
	if s.starter != games.Seat0 {
		t.Errorf("alternating: %v starts game 3", s.starter)
	}
}

// TestMatchEnd plays a match to a small target under both readings of
// match.end: immediately ends it on the turn a running total reaches the
// target, after-game plays the game out first.
func TestMatchEnd(t *testing.T) {
	for _, end := range []string{MatchEndAfterGame, MatchEndImmediately} {
		t.Run(end, func(t *testing.T) {
			r := DefaultRules()
			r.Cards = &Cards{Ones: 3}
			r.Match = &Match{Target: new(3), End: end}
			s := newGame(t, r).NewState().(*State)
			if err := s.FixDeal([]int{1, 1, 1}, []int{1, 1, 1}); err != nil {
				t.Fatal(err)
			}
			crossed := games.NoPlayer
			for turn := 0; !s.IsTerminal(); turn++ {
				mover := s.CurrentPlayer()
				s.Apply(s.LegalMoves(nil)[0])
				if crossed != games.NoPlayer || s.Scores()[mover] < 3 {
					continue
				}
				crossed = mover
				inGame := s.handN[0]+s.handN[1] > 0 && s.gamesDone == 0
				switch {
				case end == MatchEndImmediately && !s.IsTerminal():
					t.Fatalf("turn %d: %v reached %d and the match went on", turn, mover, s.Scores()[mover])
				case end == MatchEndImmediately && s.Result() != (games.Result{Winner: mover, Reason: ReasonMatchTarget}):
					t.Fatalf("result %+v, want %v by the target", s.Result(), mover)
				case end == MatchEndAfterGame && inGame && s.IsTerminal():
					t.Fatalf("turn %d: the match ended during a game", turn)
				}
			}
			if crossed == games.NoPlayer {
				t.Fatal("no running total reached the target: the test proves nothing")
			}
			metrics := map[string]float64{}
			for _, m := range s.AppendMetrics(nil) {
				metrics[m.Name] += m.Value
			}
			_, hasCut := metrics["match.cut_short"]
			if end == MatchEndImmediately {
				if metrics["games"] != 1 || metrics["match.cut_short"] != 1 || s.gamesDone != 0 {
					t.Errorf("metrics %v, games done %d", metrics, s.gamesDone)
				}
			} else if hasCut || s.gamesDone < 1 || s.Result().Reason != ReasonMatchTarget {
				t.Errorf("after-game: metrics %v, games done %d, result %+v", metrics, s.gamesDone, s.Result())
			}
		})
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		knob string
		set  func(*Rules)
	}{
		{"cards.2", func(r *Rules) { r.Cards = &Cards{Ones: 4, Twos: -1} }},
		{"cards", func(r *Rules) { r.Cards = &Cards{} }},
		{"cards", func(r *Rules) { r.Cards = &Cards{Ones: 40, Twos: 20} }},
		{"hand_size", func(r *Rules) { r.HandSize = 0 }},
		{"hand_size", func(r *Rules) { r.Cards, r.HandSize = &Cards{Ones: 1}, 2 }},
		{"max_height", func(r *Rules) { r.MaxHeight = 1 }},
		{"max_height", func(r *Rules) { r.MaxHeight = 25 }},
		{"must_stack_scope", func(r *Rules) { r.MustStackScope = "all" }},
		{"diagonal", func(r *Rules) { r.Diagonal = "knight" }},
		{"match.target", func(r *Rules) { r.Match = &Match{Target: new(0)} }},
		{"match.max_games", func(r *Rules) { r.Match = &Match{MaxGames: new(0)} }},
		{"match.end", func(r *Rules) { r.Match = &Match{End: "soon"} }},
	}
	for _, tt := range tests {
		r := DefaultRules()
		tt.set(r)
		err := r.Validate()
		var ke *games.KnobError
		if !errors.As(err, &ke) || ke.Knob != tt.knob {
			t.Errorf("%s: error %v", tt.knob, err)
		}
	}
	r := DefaultRules()
	r.Match = &Match{}
	if err := r.Validate(); err != nil || *r.Match.Target != 100 || !*r.Match.LoserStarts || *r.Match.MaxGames != 100 || r.Match.End != MatchEndAfterGame {
		t.Errorf("match defaults: %v %+v", err, r.Match)
	}
}

// TestDeterminizeIsUniform samples Green's hand from Red's view at the
// start of a game many times and compares with the exact distribution: two
// cards drawn from Green's twelve unplayed ones.
func TestDeterminizeIsUniform(t *testing.T) {
	g := newGame(t, DefaultRules())
	base, _ := g.PerftStart(1)
	s := base.(*State)
	want := map[[2]int]float64{}
	pool := []int{1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3}
	for i := range pool {
		for j := i + 1; j < len(pool); j++ {
			want[[2]int{pool[i], pool[j]}]++
		}
	}
	samples := testenv.Scale(200000)
	rng := pcg.New(1, 2)
	got := map[[2]int]int{}
	for range samples {
		c := *s
		c.Determinize(games.Seat0, rng)
		if c.hand[0] != s.hand[0] || c.ObservationString(0) != s.ObservationString(0) {
			t.Fatal("Determinize changed what Red sees")
		}
		if err := c.CheckInvariants(); err != nil {
			t.Fatal(err)
		}
		var hand [2]int
		i := 0
		for v := 1; v <= MaxValue; v++ {
			for range c.hand[1][v] {
				hand[i] = v
				i++
			}
		}
		got[hand]++
	}
	chi2 := 0.0
	for k, w := range want {
		exp := w / 66 * float64(samples)
		d := float64(got[k]) - exp
		chi2 += d * d / exp
	}
	// 6 cells, 5 degrees of freedom: p = 0.001 at 20.5.
	if chi2 > 20.5 || len(got) != 6 {
		t.Errorf("chi2 %.1f over %d hands: %v", chi2, len(got), got)
	}
}

// TestMatchWinsLeaveTiesOut (issue 34): a tied game of a match is neither
// seat's win, so game.starter_wins and game.seat0_wins are over the games
// with a winner; game.tie is over every game.
func TestMatchWinsLeaveTiesOut(t *testing.T) {
	r := DefaultRules()
	r.Match = &Match{Target: new(1000), MaxGames: new(100)}
	s := newGame(t, r).NewState().(*State)
	for _, score := range [][2]int16{{40, 30}, {20, 20}, {10, 50}} { // red, tie, green
		s.score = score
		s.endGame()
	}
	count := map[string][2]float64{}
	for _, m := range s.AppendMetrics(nil) {
		c := count[m.Name]
		count[m.Name] = [2]float64{c[0] + m.Value, c[1] + 1}
	}
	if count["game.tie"] != [2]float64{1, 3} || count["game.seat0_wins"][1] != 2 || count["game.starter_wins"][1] != 2 {
		t.Errorf("per-game metrics %v: want ties over 3 games, wins over the 2 with a winner", count)
	}
}
