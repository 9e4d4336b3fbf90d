package stacktics

import (
	"slices"
	"strings"
	"testing"

	"playtest/games"
	"playtest/games/pcg"
)

// movesFrom lists the legal moves starting on square, in notation, sorted.
func movesFrom(s *State, square string) []string {
	var out []string
	for _, m := range s.LegalMoves(nil) {
		if text := s.MoveString(m); strings.HasPrefix(text, square) && !strings.ContainsAny(text[len(square):len(square)+1], "0123456789") {
			out = append(out, text)
		}
	}
	slices.Sort(out)
	return out
}

func position(t *testing.T, g *Game, text string) *State {
	t.Helper()
	s, err := g.Position(text)
	if err != nil {
		t.Fatalf("position %q: %v", text, err)
	}
	return s
}

func sorted(xs ...string) []string {
	slices.Sort(xs)
	return xs
}

// fullA is army A complete (size 3): nothing of A has been captured.
const fullA = "a1=ALS b1=AM c1=ALMS e1=ALMS"

func TestMovement(t *testing.T) {
	size3 := Rules{Size: 3}
	tests := []struct {
		name     string
		rules    Rules
		position string
		square   string
		want     []string
	}{
		{
			name:     "overloaded pair moves exactly one square; the top piece alone has unlimited range",
			rules:    size3,
			position: "c3=AMM a5=BL turn=A",
			square:   "c3",
			want: sorted("c3MM-b3", "c3MM-d3", "c3MM-c2", "c3MM-c4",
				"c3M-c1", "c3M-c2", "c3M-c4", "c3M-c5", "c3M-a3", "c3M-b3", "c3M-d3", "c3M-e3"),
		},
		{
			name:     "loaded Large moves up to loaded_range as a queen but a stack cannot enter a5; its Small captures from the stack",
			rules:    size3,
			position: "c3=ALS a5=BL turn=A",
			square:   "c3",
			want: sorted(
				"c3LS-c4", "c3LS-c5", "c3LS-c2", "c3LS-c1", "c3LS-b3", "c3LS-a3", "c3LS-d3", "c3LS-e3",
				"c3LS-b4", "c3LS-d4", "c3LS-e5", "c3LS-b2", "c3LS-a1", "c3LS-d2", "c3LS-e1",
				"c3S-b4", "c3Sxa5", "c3S-d4", "c3S-e5", "c3S-b2", "c3S-a1", "c3S-d2", "c3S-e1"),
		},
		{
			name:     "loaded_range 1 limits a loaded stack to one square",
			rules:    Rules{Size: 3, LoadedRange: ptr(1)},
			position: "c3=ALS a5=BM turn=A",
			square:   "c3LS",
			want:     sorted("c3LS-c4", "c3LS-c2", "c3LS-b3", "c3LS-d3", "c3LS-b4", "c3LS-d4", "c3LS-b2", "c3LS-d2"),
		},
		{
			name:     "a Small carrying anything is overloaded",
			rules:    size3,
			position: "c3=ASS a5=BL turn=A",
			square:   "c3SS",
			want:     sorted("c3SS-b4", "c3SS-d4", "c3SS-b2", "c3SS-d2"),
		},
		{
			name:     "Medium stacks on Medium or Large, not on Small; a lone piece never captures",
			rules:    size3,
			position: "c3=AM c4=AL c2=AS b3=AM d3=BL turn=A",
			square:   "c3",
			want:     sorted("c3M-c4", "c3M-b3"),
		},
		{
			name:     "Large stacks only on Large",
			rules:    size3,
			position: "c3=AL c4=AM b4=AL d4=AS e5=BL turn=A",
			square:   "c3",
			want: sorted("c3L-b4", "c3L-b3", "c3L-a3", "c3L-d3", "c3L-e3", "c3L-c2", "c3L-c1",
				"c3L-b2", "c3L-a1", "c3L-d2", "c3L-e1"),
		},
		{
			name:     "units cannot jump",
			rules:    size3,
			position: "a1=AM a2=AS a3=BL turn=A",
			square:   "a1",
			want:     sorted("a1M-b1", "a1M-c1", "a1M-d1", "a1M-e1"),
		},
		{
			name:     "a pair leaving a stack of three cannot capture; the single top piece can",
			rules:    size3,
			position: "a1=ALMS b1=ALMS c1=ALMS a2=BL b2=BS d5=BLMS e5=BLMS turn=A",
			square:   "a1",
			want:     sorted("a1Sxb2"),
		},
		{
			name:     "a single piece standing alone on the ground cannot capture",
			rules:    size3,
			position: "a1=ALMS b1=ALMS c1=ALMS a2=BL b2=BS d5=BLMS e5=BLMS turn=B",
			square:   "a2",
			want:     sorted("a2L-a3", "a2L-a4", "a2L-a5", "a2L-b3", "a2L-c4"),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := position(t, newGame(t, tt.rules), tt.position)
			if got := movesFrom(s, tt.square); !slices.Equal(got, tt.want) {
				t.Errorf("moves from %s:\n got %v\nwant %v", tt.square, got, tt.want)
			}
		})
	}
}

func TestApply(t *testing.T) {
	tests := []struct {
		name     string
		rules    Rules
		position string
		moves    string // space-separated
		want     string // PositionString after the moves, or "" to skip
		winner   games.Player
		reason   string // "" for a game still going
	}{
		{
			name:     "a capture removes the whole enemy stack and counts its pips",
			rules:    Rules{Size: 3},
			position: fullA + " c3=BLMS d5=BLMS e5=BLMS turn=A",
			moves:    "a1Sxc3",
			want:     "a1=AL b1=AM c1=ALMS e1=ALMS c3=AS d5=BLMS e5=BLMS turn=B captured=6/0 plies=1",
		},
		{
			name:     "stacking puts the unit on top in order; splitting leaves the rest",
			rules:    Rules{Size: 3},
			position: fullA + " c3=BLMS d5=BLMS e5=BLMS turn=A",
			moves:    "c1MS-b1 d5LMS-d4 e1LMS-d2",
			want:     "a1=ALS b1=AMMS c1=AL d2=ALMS c3=BLMS d4=BLMS e5=BLMS turn=B captured=0/0 plies=3",
		},
		{
			name:     "reaching half the enemy force wins",
			rules:    Rules{Size: 3},
			position: fullA + " c3=BLMS d5=BLMS turn=A",
			moves:    "a1Sxc3",
			winner:   games.Seat0,
			reason:   "capture-threshold",
		},
		{
			name:     "exactly half wins with win_threshold half",
			rules:    Rules{Size: 3},
			position: fullA + " c3=BLMS d5=BLMS e5=BL turn=A",
			moves:    "a1Sxc3",
			winner:   games.Seat0,
			reason:   "capture-threshold",
		},
		{
			name:     "exactly half does not win with more-than-half",
			rules:    Rules{Size: 3, WinThreshold: ThresholdMoreThanHalf},
			position: fullA + " c3=BLMS d5=BLMS e5=BL turn=A",
			moves:    "a1Sxc3",
			want:     "a1=AL b1=AM c1=ALMS e1=ALMS c3=AS d5=BLMS e5=BL turn=B captured=9/0 plies=1",
		},
		{
			name:     "a player left without moves loses (no_moves loss)",
			rules:    Rules{Size: 3},
			position: "a1=BS b3=AM turn=A",
			moves:    "b3M-b2",
			winner:   games.Seat0,
			reason:   "no-legal-move",
		},
		{
			name:     "a player left without moves draws (no_moves draw)",
			rules:    Rules{Size: 3, NoMoves: NoMovesDraw},
			position: "a1=BS b3=AM turn=A",
			moves:    "b3M-b2",
			winner:   games.NoPlayer,
			reason:   "no-legal-move",
		},
		{
			name:     "the third occurrence of a position draws",
			rules:    Rules{Size: 3},
			position: "a1=AL e5=BL turn=A",
			moves:    "a1L-a2 e5L-e4 a2L-a1 e4L-e5 a1L-a2 e5L-e4 a2L-a1 e4L-e5",
			winner:   games.NoPlayer,
			reason:   "repetition",
		},
		{
			name:     "the second occurrence does not draw with repetition 3",
			rules:    Rules{Size: 3},
			position: "a1=AL e5=BL turn=A",
			moves:    "a1L-a2 e5L-e4 a2L-a1 e4L-e5 a1L-a2 e5L-e4 a2L-a1",
			want:     "a1=AL e4=BL turn=B captured=15/15 plies=7",
		},
		{
			name:     "repetition 2 draws at the first return",
			rules:    Rules{Size: 3, Repetition: 2},
			position: "a1=AL e5=BL turn=A",
			moves:    "a1L-a2 e5L-e4 a2L-a1 e4L-e5",
			winner:   games.NoPlayer,
			reason:   "repetition",
		},
		{
			name:     "repetition 0 never draws",
			rules:    Rules{Size: 3, Repetition: -1},
			position: "a1=AL e5=BL turn=A",
			moves:    "a1L-a2 e5L-e4 a2L-a1 e4L-e5 a1L-a2 e5L-e4 a2L-a1 e4L-e5 a1L-a2 e5L-e4 a2L-a1 e4L-e5",
			want:     "a1=AL e5=BL turn=A captured=15/15 plies=12",
		},
		{
			name:     "max_plies draws after that many moves",
			rules:    Rules{Size: 3, MaxPlies: 3},
			position: "a1=AL e5=BL turn=A",
			moves:    "a1L-a2 e5L-e4 a2L-a3",
			winner:   games.NoPlayer,
			reason:   "max-plies",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := position(t, newGame(t, tt.rules), tt.position)
			for _, text := range strings.Fields(tt.moves) {
				if s.IsTerminal() {
					t.Fatalf("game over (%v) before %s", s.Result(), text)
				}
				m, err := s.ParseMove(text)
				if err != nil {
					t.Fatalf("%v\n%s", err, s)
				}
				s.Apply(m)
				if err := s.CheckInvariants(); err != nil {
					t.Fatalf("after %s: %v", text, err)
				}
			}
			if tt.reason == "" {
				if s.IsTerminal() {
					t.Fatalf("game over: %v", s.Result())
				}
			} else if r := s.Result(); !s.IsTerminal() || r.Winner != tt.winner || r.Reason != tt.reason {
				t.Fatalf("result %v (over %v), want %v %s", r, s.IsTerminal(), tt.winner, tt.reason)
			}
			if tt.want != "" {
				if got := s.PositionString(); got != tt.want {
					t.Errorf("position\n got %s\nwant %s", got, tt.want)
				}
			}
		})
	}
}

func TestPieRule(t *testing.T) {
	g := newGame(t, presets[0].rules) // size 2 with the pie rule
	for _, choice := range []string{"keep", "swap"} {
		t.Run(choice, func(t *testing.T) {
			s := g.Start()
			if s.CurrentPlayer() != games.Seat0 || s.SideOf(games.Seat0) != ArmyA {
				t.Fatal("seat 0 must open with army A")
			}
			s.Apply(mustParse(t, s, "b1S-c2"))
			if s.CurrentPlayer() != games.Seat1 {
				t.Fatalf("after the first move %v decides, want seat1", s.CurrentPlayer())
			}
			if got := moveTexts(s); !slices.Equal(got, []string{"keep", "swap"}) {
				t.Fatalf("pie decisions %v", got)
			}
			s.Apply(mustParse(t, s, choice))
			if s.Plies() != 1 {
				t.Errorf("the pie decision counted as a move: %d plies", s.Plies())
			}
			if s.ArmyToMove() != ArmyB {
				t.Errorf("army %d to move after the decision, want B", s.ArmyToMove())
			}
			// keep: seat 1 plays B and replies; swap: seat 1 takes A and
			// seat 0 replies with B.
			wantSeat, seat1Army := games.Seat1, ArmyB
			if choice == "swap" {
				wantSeat, seat1Army = games.Seat0, ArmyA
			}
			if s.CurrentPlayer() != wantSeat {
				t.Errorf("%v replies with army B, want %v", s.CurrentPlayer(), wantSeat)
			}
			if s.SideOf(games.Seat1) != seat1Army || s.SideOf(games.Seat0) != seat1Army^1 {
				t.Errorf("seat 1 commands army %d, seat 0 army %d", s.SideOf(games.Seat1), s.SideOf(games.Seat0))
			}
			var ms []games.Metric
			ms = s.AppendMetrics(ms)
			if !slices.ContainsFunc(ms, func(m games.Metric) bool { return m.Name == "pie.swap" && (m.Value == 1) == (choice == "swap") }) {
				t.Errorf("metrics %v lack pie.swap for %s", ms, choice)
			}
		})
	}
	// Without the pie rule, B replies at once.
	s := newGame(t, presets[1].rules).Start()
	s.Apply(mustParse(t, s, "b1S-c2"))
	if s.CurrentPlayer() != games.Seat1 || len(moveTexts(s)) < 3 {
		t.Errorf("without the pie rule seat 1 should reply with B's moves")
	}
}

func mustParse(t *testing.T, s *State, text string) games.Move {
	t.Helper()
	m, err := s.ParseMove(text)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func moveTexts(s *State) []string {
	var out []string
	for _, m := range s.LegalMoves(nil) {
		out = append(out, s.MoveString(m))
	}
	slices.Sort(out)
	return out
}

func TestNotation(t *testing.T) {
	g := newGame(t, Rules{Size: 3})
	s := g.Start()
	for _, bad := range []string{"", "z9S-a1", "b1", "b1Q-b2", "b1LMS+b2", "b1S-b9", "b1M-b2", "b1LM-b2", "b1S-a3", "keep"} {
		if _, err := s.ParseMove(bad); err == nil {
			t.Errorf("ParseMove(%q) accepted an illegal or malformed move", bad)
		}
	}
	if g.SquareName(g.square(0, 0)) != "a1" || g.SquareName(g.square(1, 2)) != "c2" {
		t.Errorf("square names: %s %s", g.SquareName(g.square(0, 0)), g.SquareName(g.square(1, 2)))
	}
	if sq, err := g.ParseSquare("e5"); err != nil || sq != g.square(4, 4) {
		t.Errorf("ParseSquare(e5) = %d, %v", sq, err)
	}
	// PositionString and Position round-trip.
	text := "a1=AL b1=AM c1=ALMS e1=ALMS c3=AS d5=BLMS e5=BLMS turn=B captured=6/0 plies=1"
	if got := position(t, g, text).PositionString(); got != text {
		t.Errorf("round trip:\n got %s\nwant %s", got, text)
	}
	for _, bad := range []string{"a1=ASL", "a1=AL a1=BL", "a1=CL", "f9=AL", "a1=ALLLL", "turn=C", "captured=1", "a1=AL e5=BL captured=0/0"} {
		if _, err := g.Position(bad); err == nil {
			t.Errorf("Position(%q) accepted a bad position", bad)
		}
	}
}

func TestRulesValidate(t *testing.T) {
	tests := []struct {
		rules Rules
		knob  string
	}{
		{Rules{Size: 1}, "size"},
		{Rules{Size: 9}, "size"},
		{Rules{Size: 6}, "board"},
		{Rules{Size: 5, Board: &Board{3, 3}}, "board"},
		{Rules{Size: 3, Board: &Board{9, 5}}, "board.rows"},
		{Rules{Size: 2, Board: &Board{5, 3}}, "start_columns"},
		{Rules{Size: 2, Board: &Board{5, 3}, StartColumns: []int{0, 3}}, "start_columns"},
		{Rules{Size: 2, Board: &Board{5, 3}, StartColumns: []int{1, 1}}, "start_columns"},
		{Rules{Size: 2, Board: &Board{5, 3}, StartColumns: []int{1}}, "start_columns"},
		{Rules{Size: 3, LoadedRange: ptr(0)}, "loaded_range"},
		{Rules{Size: 3, WinThreshold: "most"}, "win_threshold"},
		{Rules{Size: 3, NoMoves: "pass"}, "no_moves"},
		{Rules{Size: 3, MaxPlies: -1}, "max_plies"},
		{Rules{Size: 3, Repetition: 1}, "repetition"},
		{Rules{Size: 3, Repetition: -2}, "repetition"},
	}
	for _, tt := range tests {
		r := withDefaults(tt.rules)
		err := r.Validate()
		ke, ok := err.(*games.KnobError)
		if !ok || ke.Knob != tt.knob {
			t.Errorf("%+v: error %v, want one naming %s", tt.rules, err, tt.knob)
		}
	}
	// Defaults by size.
	r := DefaultRules()
	r.Size = 4
	if err := r.Validate(); err != nil || *r.Board != (Board{6, 6}) || *r.LoadedRange != 3 || *r.PieRule || !slices.Equal(r.StartColumns, []int{1, 2, 3, 4}) {
		t.Errorf("size 4 defaults: %+v %v", r, err)
	}
}

// TestLargeLoserMetric plays the designer's comparison: army B loses a lone
// Large, army A a Small and then a Medium; the metric reports whether B
// (the Large loser) won, and only in such games.
func TestLargeLoserMetric(t *testing.T) {
	g := newGame(t, Rules{Size: 2, PieRule: new(false)})
	start := "a1=AM b1=ALS d1=ALMS c2=BL a4=BLMS c4=BMS turn=A"
	metric := func(s *State) (float64, bool) {
		for _, m := range s.AppendMetrics(nil) {
			if m.Name == MetricLargeLoserWins {
				return m.Value, true
			}
		}
		return 0, false
	}
	for _, tt := range []struct {
		name   string
		moves  string
		winner games.Player // who is declared the winner after the moves
		want   float64
		found  bool
	}{
		{"large loser wins", "b1Sxc2 a4Sxc2 a1M-a2 a4Mxa2", games.Seat1, 1, true},
		{"large loser loses", "b1Sxc2 a4Sxc2 a1M-a2 a4Mxa2", games.Seat0, 0, true},
		// Issue 34: a draw is neither army's win, so it is left out.
		{"a draw", "b1Sxc2 a4Sxc2 a1M-a2 a4Mxa2", games.NoPlayer, 0, false},
		{"only the Large lost", "b1Sxc2", games.Seat0, 0, false},
		{"a Small alone is not three pips", "b1Sxc2 a4Sxc2", games.Seat1, 0, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := position(t, g, start)
			for _, m := range strings.Fields(tt.moves) {
				s.Apply(mustParse(t, s, m))
			}
			s.end(tt.winner, "test")
			got, found := metric(s)
			if found != tt.found || got != tt.want {
				t.Errorf("metric %v (reported %v), want %v (%v); losses %v", got, found, tt.want, tt.found, s.firstLoss)
			}
		})
	}
	// A position set up with exactly three pips lost is classified; with
	// more, the first three are unknown.
	s := position(t, g, "a1=AL b1=AL d1=AMS c2=BL a4=BLMS c4=BMS turn=A")
	if s.firstLoss != [2]int8{lossSmallMedium, lossNone} {
		t.Errorf("set-up losses %v", s.firstLoss)
	}
	s = position(t, g, "a1=AL d1=AMMS c2=BL a4=BLMS c4=BMS turn=A")
	if s.firstLoss[ArmyA] != lossOther {
		t.Errorf("set-up losses %v", s.firstLoss)
	}
}

// TestForcingMovesAreTheCaptures: in positions of random games, the
// forcing moves are exactly the legal moves that capture (the mover's
// captured pips grow), the most pips won first.
func TestForcingMovesAreTheCaptures(t *testing.T) {
	g := newGame(t, Rules{Size: 3})
	rng := pcg.New(12, 3)
	checked := 0
	for range 200 {
		s := g.NewState().(*State)
		for !s.IsTerminal() {
			army := s.toMove
			var captures []games.Move
			for _, m := range s.LegalMoves(nil) {
				c := s.Clone().(*State)
				c.Apply(m)
				if s.phase == phasePlay && c.captured[army] > s.captured[army] {
					captures = append(captures, m)
				}
			}
			forcing := s.ForcingMoves(nil)
			if len(forcing) != len(captures) {
				t.Fatalf("forcing %v, captures %v\n%s", forcing, captures, s)
			}
			won := 1 << 30
			for _, m := range forcing {
				if !slices.Contains(captures, m) {
					t.Fatalf("forcing move %s is no capture\n%s", s.MoveString(m), s)
				}
				_, to, _ := decode(m)
				if p := s.board[to].pips(); p > won {
					t.Fatalf("forcing moves not by pips won: %v\n%s", forcing, s)
				} else {
					won = p
				}
				checked++
			}
			moves := s.LegalMoves(nil)
			s.Apply(moves[rng.IntN(len(moves))])
		}
	}
	if checked < 100 {
		t.Errorf("only %d captures seen", checked)
	}
}

// TestDrawingLegend (issue 43): the board viewer's drawing says which
// colour is which army and which seat commands it, before and after a
// pie swap.
func TestDrawingLegend(t *testing.T) {
	g := newGame(t, presets[0].rules)
	s := g.Start()
	svg := s.DrawSVG()
	for _, want := range []string{"army A (seat0)", "army B (seat1)", armyColors[ArmyA], armyColors[ArmyB]} {
		if !strings.Contains(svg, want) {
			t.Errorf("the start's drawing lacks %q", want)
		}
	}
	s.Apply(mustParse(t, s, "b1S-c2"))
	s.Apply(mustParse(t, s, "swap"))
	if svg := s.DrawSVG(); !strings.Contains(svg, "army A (seat1)") || !strings.Contains(svg, "army B (seat0)") {
		t.Errorf("after a swap the legend still reads seat 0 for army A")
	}
}
