package capturecard

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"playtest/games"
	"playtest/games/gamestest"
	"playtest/games/pcg"
)

// position builds a test position on the layout where square sq holds card
// sq (row r is one suit: a1–e1 spades 10 to A, …, a4–e4 clubs): the pieces
// as "square": "0S" (seat, size), the player to move acting with card v
// (v = 1: a 2 with one movement point left).
func position(t *testing.T, r *Rules, pieces map[string]string, v int, toMove games.Player) *State {
	t.Helper()
	g := newGame(t, r)
	s := g.NewState().(*State)
	for sq := range Cards {
		s.layout[sq] = int8(sq)
	}
	s.dealt = Cards
	s.indexSuits()
	for name, p := range pieces {
		sq, ok := parseSquare(name)
		if !ok || len(p) != 2 {
			t.Fatalf("bad piece %s: %s", name, p)
		}
		seat := games.Player(p[0] - '0')
		size := strings.IndexByte(sizeLetters, p[1])
		s.reserve[seat][size]--
		s.place(sq, seat, size)
	}
	// v is the movement points; the card drawn is at least a 2.
	card := max(v, 2)
	s.toMove, s.phase, s.card, s.points = toMove, phaseAction, uint8(card), uint8(v)
	s.deck[card]--
	s.discard[card]++
	if err := s.CheckInvariants(); err != nil {
		t.Fatalf("test position: %v", err)
	}
	return s
}

func moveTexts(s *State) []string {
	var out []string
	for _, m := range s.LegalMoves(nil) {
		out = append(out, s.MoveString(m))
	}
	slices.Sort(out)
	return out
}

func filter(moves []string, prefix string) []string {
	var out []string
	for _, m := range moves {
		if strings.HasPrefix(m, prefix) {
			out = append(out, m)
		}
	}
	return out
}

func apply(t *testing.T, s *State, texts ...string) {
	t.Helper()
	for _, text := range texts {
		m, err := s.ParseMove(text)
		if err != nil {
			t.Fatalf("%v; legal: %v\n%s", err, moveTexts(s), s)
		}
		s.Apply(m)
		if err := s.CheckInvariants(); err != nil {
			t.Fatalf("after %s: %v\n%s", text, err, s)
		}
	}
}

func pieceAt(s *State, name string) string {
	sq, _ := parseSquare(name)
	if s.owner[sq] < 0 {
		return ""
	}
	return string(rune('0'+s.owner[sq])) + string(sizeLetters[s.size[sq]])
}

func replaceRules() *Rules { r := DefaultRules(); r.Through = ThroughReplace; return r }

func passThroughRules() *Rules {
	r := DefaultRules()
	r.Elimination = EliminationPassThrough
	return r
}

func passThroughReplaceRules() *Rules {
	r := passThroughRules()
	r.Through = ThroughReplace
	return r
}

// TestActions checks each action, both through readings and the edge cases
// the spec names, on hand-made positions.
func TestActions(t *testing.T) {
	tests := []struct {
		name   string
		rules  func() *Rules
		pieces map[string]string
		card   int
		prefix string   // compare the legal decisions starting with it
		want   []string // legal decisions with prefix
		play   []string // then play these
		after  map[string]string
	}{
		{name: "enter on an empty corner with an 8", rules: DefaultRules, card: 8, prefix: "enter",
			want: []string{"enter:M@a1", "enter:M@a4", "enter:M@e1", "enter:M@e4", "enter:S@a1", "enter:S@a4", "enter:S@e1", "enter:S@e4"},
			play: []string{"enter:M@e4"}, after: map[string]string{"e4": "0M"}},
		{name: "no enter with a 7", rules: DefaultRules, card: 7, prefix: "enter", want: nil},
		{name: "all corners taken: enter on an opponent's Small or Medium corner, knocking it off", rules: DefaultRules,
			pieces: map[string]string{"a1": "1S", "e1": "0M", "a4": "1L", "e4": "1M"}, card: 9, prefix: "enter",
			want: []string{"enter:M@a1", "enter:M@e4", "enter:S@a1", "enter:S@e4"},
			play: []string{"enter:S@a1"}, after: map[string]string{"a1": "0S"}},
		{name: "all corners Large: enter on any empty card", rules: DefaultRules,
			pieces: map[string]string{"a1": "1L", "e1": "0L", "a4": "1L", "e4": "0L", "c2": "1S"}, card: 8, prefix: "enter:S",
			want: []string{"enter:S@a2", "enter:S@a3", "enter:S@b1", "enter:S@b2", "enter:S@b3", "enter:S@b4", "enter:S@c1", "enter:S@c3", "enter:S@c4",
				"enter:S@d1", "enter:S@d2", "enter:S@d3", "enter:S@d4", "enter:S@e2", "enter:S@e3"}},
		{name: "the six-piece limit", rules: DefaultRules,
			pieces: map[string]string{"b2": "0S", "c2": "0S", "d2": "0S", "b3": "0M", "c3": "0M", "d3": "0L"}, card: 8, prefix: "enter", want: nil},
		{name: "lock with a 2", rules: DefaultRules, pieces: map[string]string{"c2": "0M", "c3": "0L", "d2": "1S"}, card: 2, prefix: "lock",
			want: []string{"lock:c2"}, play: []string{"lock:c2"}, after: map[string]string{"c2": "0L"}},
		{name: "no lock without a Large in reserve", rules: DefaultRules,
			pieces: map[string]string{"c2": "0M", "a1": "0L", "b1": "0L", "c1": "0L", "d1": "0L", "e1": "0L"}, card: 2, prefix: "lock", want: nil},
		{name: "enter only sizes left in reserve", rules: DefaultRules,
			pieces: map[string]string{"b2": "0M", "c2": "0M", "d2": "0M", "b3": "0M", "c3": "0M"}, card: 9, prefix: "enter",
			want: []string{"enter:S@a1", "enter:S@a4", "enter:S@e1", "enter:S@e4"}},
		{name: "shift a Large onto any opponent piece, even a Large", rules: DefaultRules,
			pieces: map[string]string{"c2": "0L", "c3": "1L", "d2": "0S", "b1": "1M"}, card: 5, prefix: "shift",
			want: []string{"shift:c2-b1", "shift:c2-b2", "shift:c2-b3", "shift:c2-c1", "shift:c2-c3", "shift:c2-d1", "shift:c2-d3"},
			play: []string{"shift:c2-c3"}, after: map[string]string{"c3": "0L", "c2": ""}},
		{name: "a Large never takes a Move step", rules: DefaultRules, pieces: map[string]string{"c2": "0L"}, card: 9,
			prefix: "c2", want: nil},
		{name: "a Medium step costs 2, a Small's 1", rules: DefaultRules, pieces: map[string]string{"a2": "0M", "e2": "0S"}, card: 3,
			play: []string{"a2-b2", "e2-e3"}, after: map[string]string{"b2": "0M", "e3": "0S"}},
		{name: "jump: a Small passes an opponent's Small, knocking it off", rules: DefaultRules,
			pieces: map[string]string{"a2": "0S", "b2": "1S"}, card: 2, prefix: "a2-b2",
			want: []string{"a2-b2"}, play: []string{"a2-b2"}, after: map[string]string{"a2": "", "b2": "", "c2": "0S"}},
		{name: "jump: the landing card must be empty", rules: DefaultRules,
			pieces: map[string]string{"a2": "0S", "b2": "1S", "c2": "1S"}, card: 4, prefix: "a2-b2", want: nil},
		{name: "jump: both steps are paid for", rules: DefaultRules,
			pieces: map[string]string{"a2": "0S", "b2": "1S"}, card: 1, prefix: "a2-b2", want: nil},
		{name: "jump: a Small cannot pass a Medium", rules: DefaultRules,
			pieces: map[string]string{"a2": "0S", "b2": "1M"}, card: 4, prefix: "a2-b2", want: nil},
		{name: "jump: a Medium passing a Medium shrinks it", rules: DefaultRules,
			pieces: map[string]string{"a2": "0M", "b2": "1M"}, card: 4,
			play: []string{"a2-b2"}, after: map[string]string{"b2": "1S", "c2": "0M"}},
		{name: "jump: a shrink with no Small in reserve knocks off", rules: DefaultRules,
			pieces: map[string]string{"a2": "0M", "b2": "1M", "a4": "1S", "b4": "1S", "c4": "1S", "d4": "1S", "e4": "1S"}, card: 4,
			play: []string{"a2-b2"}, after: map[string]string{"b2": "", "c2": "0M"}},
		{name: "own pieces and Large pieces cannot be entered or passed", rules: DefaultRules,
			pieces: map[string]string{"a2": "0S", "b2": "0S", "b3": "0M", "a3": "1L", "b1": "1L"}, card: 4, prefix: "a2",
			want: []string{"a2-a1"}},
		{name: "replace: a step onto a Small knocks it off and takes its card", rules: replaceRules,
			pieces: map[string]string{"a2": "0S", "b2": "1S", "c2": "1S"}, card: 1, prefix: "a2-b2",
			want: []string{"a2-b2"}, play: []string{"a2-b2"}, after: map[string]string{"a2": "", "b2": "0S", "c2": "1S"}},
		{name: "replace: a Medium shrinks a Medium and stays", rules: replaceRules,
			pieces: map[string]string{"a2": "0M", "b2": "1M"}, card: 2,
			play: []string{"a2-b2"}, after: map[string]string{"a2": "0M", "b2": "1S"}},
		{name: "replace: a Small cannot touch a Medium", rules: replaceRules,
			pieces: map[string]string{"a2": "0S", "b2": "1M"}, card: 2, prefix: "a2-b2", want: nil},
		// elimination: pass-through (the second reading of the corners rule).
		{name: "pass-through: no jump over a Small while a corner is empty", rules: passThroughRules,
			pieces: map[string]string{"a2": "0S", "b2": "1S", "a1": "1S", "e1": "0M", "a4": "1L"}, card: 2, prefix: "a2-b2", want: nil},
		{name: "pass-through: the jump is allowed once all four corners hold pieces", rules: passThroughRules,
			pieces: map[string]string{"a2": "0S", "b2": "1S", "a1": "1S", "e1": "0M", "a4": "1L", "e4": "0S"}, card: 2, prefix: "a2-b2",
			want: []string{"a2-b2"}, play: []string{"a2-b2"}, after: map[string]string{"b2": "", "c2": "0S"}},
		{name: "pass-through: no shrink while a corner is empty", rules: passThroughRules,
			pieces: map[string]string{"a2": "0M", "b2": "1M"}, card: 4, prefix: "a2-b2", want: nil},
		{name: "pass-through, replace: no knock-off while a corner is empty", rules: passThroughReplaceRules,
			pieces: map[string]string{"a2": "0S", "b2": "1S"}, card: 1, prefix: "a2-b2", want: nil},
		{name: "pass-through, replace: the knock-off is allowed once the corners are full", rules: passThroughReplaceRules,
			pieces: map[string]string{"a2": "0S", "b2": "1S", "a1": "1S", "e1": "0M", "a4": "1L", "e4": "0S"}, card: 1, prefix: "a2-b2",
			want: []string{"a2-b2"}, play: []string{"a2-b2"}, after: map[string]string{"b2": "0S"}},
		{name: "pass-through: all corners taken gives no enter on an opponent's corner", rules: passThroughRules,
			pieces: map[string]string{"a1": "1S", "e1": "0M", "a4": "1L", "e4": "1M"}, card: 9, prefix: "enter", want: nil},
		{name: "pass-through: all corners Large still opens every empty card", rules: passThroughRules,
			pieces: map[string]string{"a1": "1L", "e1": "0L", "a4": "1L", "e4": "0L", "c2": "1S"}, card: 8, prefix: "enter:S@c",
			want: []string{"enter:S@c1", "enter:S@c3", "enter:S@c4"}},
		{name: "pass-through: a Shift knocks off whatever the corners", rules: passThroughRules,
			pieces: map[string]string{"c2": "0L", "c3": "1S"}, card: 5, prefix: "shift:c2-c3",
			want: []string{"shift:c2-c3"}, play: []string{"shift:c2-c3"}, after: map[string]string{"c3": "0L"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := position(t, tt.rules(), tt.pieces, tt.card, games.Seat0)
			if tt.prefix != "" {
				if got := filter(moveTexts(s), tt.prefix); !slices.Equal(got, tt.want) {
					t.Fatalf("decisions %v, want %v\n%s", got, tt.want, s)
				}
			}
			apply(t, s, tt.play...)
			for sq, want := range tt.after {
				if got := pieceAt(s, sq); got != want {
					t.Errorf("%s holds %q, want %q\n%s", sq, got, want, s)
				}
			}
		})
	}
}

func TestMoveSplitsPoints(t *testing.T) {
	s := position(t, DefaultRules(), map[string]string{"a2": "0M", "e2": "0S"}, 3, games.Seat0)
	apply(t, s, "a2-b2")
	if s.phase != phaseMove || s.points != 1 {
		t.Fatalf("after a Medium step: phase %d, %d points", s.phase, s.points)
	}
	if got := moveTexts(s); slices.ContainsFunc(got, func(m string) bool { return strings.HasPrefix(m, "b2") }) {
		t.Errorf("a Medium stepped with 1 point left: %v", got)
	}
	apply(t, s, "e2-e3")
	if s.phase != phaseJoker && s.phase != phaseDraw || s.toMove != games.Seat1 {
		t.Errorf("the turn should have ended when no step was left: %s", s)
	}
}

func TestProtectionExpires(t *testing.T) {
	r := DefaultRules()
	r.JokerTurns = 2
	// Seat 1 saved a Joker and plays it at the start of its turn; seat 0's
	// Small next to seat 1's Small can pass it only from seat 0's third
	// turn after that.
	s := position(t, r, map[string]string{"a2": "0S", "b2": "1S", "e4": "1M"}, 3, games.Seat1)
	s.phase, s.held[1] = phaseJoker, 1
	s.deck[joker]--
	if got := moveTexts(s); !slices.Equal(got, []string{"joker", "nojoker"}) {
		t.Fatalf("joker decisions %v", got)
	}
	apply(t, s, "joker", "draw:3", "stop")
	for turn := 1; turn <= 3; turn++ {
		// Seat 0 may pass b2 only once protection is over.
		apply(t, s, []string{"draw:2", "draw:3", "draw:4"}[turn-1])
		canPass := slices.Contains(moveTexts(s), "a2-b2")
		if canPass != (turn == 3) {
			t.Fatalf("seat 0's turn %d after the Joker: passing allowed %v", turn, canPass)
		}
		apply(t, s, "stop", []string{"draw:6", "draw:7", "draw:9"}[turn-1], "stop")
	}
}

func TestAllCornersBeatsSuit(t *testing.T) {
	// Seat 0 holds b1–e1 (J–A of spades) and the corners e1, a4, e4; its
	// step onto a1 (10 of spades) completes the suit and the corners at once.
	pieces := map[string]string{"b1": "0S", "c1": "0S", "d1": "0S", "e1": "0M", "a4": "0S", "e4": "0M", "a2": "0S"}
	for _, loses := range []bool{true, false} {
		r := DefaultRules()
		r.MaxOnBoard, r.AllCornersLoses = 7, loses
		s := position(t, r, pieces, 1, games.Seat0)
		apply(t, s, "a2-a1")
		want := games.Result{Winner: games.Seat1, Reason: ReasonAllCorners}
		if !loses {
			want = games.Result{Winner: games.Seat0, Reason: ReasonSuitComplete}
		}
		if !s.IsTerminal() || s.Result() != want {
			t.Errorf("all_corners_loses %v: result %+v, want %+v", loses, s.Result(), want)
		}
	}
}

func TestDrawsAndDeck(t *testing.T) {
	g := newGame(t, DefaultRules())
	start, header := g.PerftStart(1)
	s := start.(*State)
	if !strings.HasPrefix(header, "layout: ") || s.CurrentPlayer() != games.Chance || s.phase != phaseDraw {
		t.Fatalf("%s\n%s", header, s)
	}
	// A Joker is kept and the player draws again.
	apply(t, s, "draw:joker")
	if s.held[0] != 1 || s.phase != phaseDraw {
		t.Fatalf("after a Joker: held %d, phase %d", s.held[0], s.phase)
	}
	apply(t, s, "draw:9", "stop")
	// The next turn of seat 0 offers the Joker.
	apply(t, s, "draw:4", "stop")
	if got := moveTexts(s); !slices.Equal(got, []string{"joker", "nojoker"}) {
		t.Fatalf("saved Joker not offered: %v", got)
	}
	// An empty deck takes the discard pile.
	for v := range s.deck {
		s.discard[v] += s.deck[v]
	}
	s.deck = [10]uint8{}
	s.deck[7] = 1
	s.discard[7]--
	apply(t, s, "nojoker", "draw:7")
	if s.deck[7] != 4 || s.deck[9] != 4 || s.deck[joker] != 1 || s.discard != [10]uint8{} {
		t.Errorf("reshuffle: deck %v, discard %v", s.deck, s.discard)
	}
}

func TestLayoutRedeal(t *testing.T) {
	g := newGame(t, DefaultRules())
	s := g.NewState().(*State)
	// Corners dealt a1, e1, a4, e4: four spades are dealt again.
	apply(t, s, "deal:10s", "deal:Js", "deal:Qs")
	if s.dealt != 3 {
		t.Fatal(s.dealt)
	}
	apply(t, s, "deal:Ks")
	if s.dealt != 0 || s.layout[0] != -1 {
		t.Fatalf("four spade corners kept:\n%s", s)
	}
	apply(t, s, "deal:10s", "deal:Js", "deal:Qs", "deal:Kh")
	if s.dealt != 4 || len(s.ChanceOutcomes(nil)) != 16 {
		t.Fatalf("dealt %d", s.dealt)
	}
}

func TestMaxTurns(t *testing.T) {
	r := DefaultRules()
	r.MaxTurns = 3
	s := position(t, r, nil, 4, games.Seat0)
	apply(t, s, "stop", "draw:2", "stop", "draw:3", "stop")
	if s.Result() != (games.Result{Winner: games.NoPlayer, Reason: games.ReasonMaxTurns}) || s.Plies() != 3 {
		t.Errorf("result %+v after %d turns", s.Result(), s.Plies())
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		knob string
		set  func(*Rules)
	}{
		{"pieces.small", func(r *Rules) { r.Pieces.Small = -1 }},
		{"pieces.large", func(r *Rules) { r.Pieces.Large = 21 }},
		{"pieces", func(r *Rules) { r.Pieces = Pieces{Large: 3} }},
		{"max_on_board", func(r *Rules) { r.MaxOnBoard = 0 }},
		{"max_on_board", func(r *Rules) { r.MaxOnBoard = 4 }}, // a suit needs 5 pieces on the board
		{"pieces", func(r *Rules) { r.Pieces = Pieces{Small: 2, Medium: 1, Large: 1} }},
		{"elimination", func(r *Rules) { r.Elimination = "never" }},
		{"jokers", func(r *Rules) { r.Jokers = -1 }},
		{"joker_turns", func(r *Rules) { r.JokerTurns = 0 }},
		{"through", func(r *Rules) { r.Through = "hop" }},
		{"max_turns", func(r *Rules) { r.MaxTurns = 0 }},
	}
	for _, tt := range tests {
		r := DefaultRules()
		tt.set(r)
		var ke *games.KnobError
		if err := r.Validate(); !errors.As(err, &ke) || ke.Knob != tt.knob {
			t.Errorf("%s: %v", tt.knob, err)
		}
	}
}

// TestPerftByHand counts decisions from a dealt layout: the draw offers a
// Joker or a 2 to 9 (9 outcomes); after a Joker the player draws again (9);
// with no piece on the board a 2 to 7 only allows stop (1 each), an 8 or 9
// an Enter of a Small or Medium on each corner, or stop (9 each):
// 9 + 6 + 18 = 33.
func TestPerftByHand(t *testing.T) {
	g := newGame(t, DefaultRules())
	s, _ := g.PerftStart(1)
	if got := []uint64{games.Perft(s, 1), games.Perft(s, 2)}; !slices.Equal(got, []uint64{9, 33}) {
		t.Errorf("perft %v, want [9 33]", got)
	}
}

// naiveMoves lists the decisions of an action or a Move phase the rules'
// way, card by card: in an action, the Enters of an 8 or 9 (a Small, then
// a Medium, on each card allowed), the Locks of a 2 and the Shifts of a 5;
// then each piece's steps, stepResult deciding each direction; then stop.
// It also returns the steps alone.
func naiveMoves(s *State) (moves, steps []games.Move) {
	p := s.toMove
	mine := func(sq int) bool { return s.owner[sq] >= 0 && games.Player(s.owner[sq]) == p }
	if s.phase == phaseAction {
		if (s.card == 8 || s.card == 9) && int(s.onBoard[p]) < s.g.rules.MaxOnBoard {
			full, large := true, true
			for _, c := range corners {
				full = full && s.owner[c] >= 0
				large = large && s.owner[c] >= 0 && s.size[c] == Large
			}
			var allowed [Cards]bool
			for sq := range Cards {
				empty := s.owner[sq] < 0
				allowed[sq] = empty && isCorner(sq) || // an empty corner
					full && isCorner(sq) && !s.g.gated && s.opponentAt(sq) && s.size[sq] != Large ||
					large && empty // all four corners Large: any empty card
			}
			for size := Small; size <= Medium; size++ {
				for sq := range Cards {
					if s.reserve[p][size] > 0 && allowed[sq] {
						moves = append(moves, encode(kindEnter, size, sq))
					}
				}
			}
		}
		for sq := range Cards {
			if s.card == 2 && s.reserve[p][Large] > 0 && mine(sq) && s.size[sq] != Large {
				moves = append(moves, encode(kindLock, sq, 0))
			}
		}
		for sq := range Cards {
			if s.card != 5 || !mine(sq) || s.size[sq] != Large {
				continue
			}
			for d, t := range neighbour[sq] {
				if t >= 0 && (s.owner[t] < 0 || s.opponentAt(int(t))) {
					moves = append(moves, encode(kindShift, sq, d))
				}
			}
		}
	}
	for sq := range Cards {
		if !mine(sq) || s.size[sq] == Large {
			continue
		}
		for d := range directions {
			if _, _, _, ok := s.stepResult(sq, d); ok {
				steps = append(steps, encode(kindStep, sq, d))
			}
		}
	}
	moves = append(moves, steps...)
	return append(moves, encode(kindStop, 0, 0)), steps
}

// TestMovesCardByCard checks LegalMoves, found from card sets, against
// naiveMoves, in order, and canStep against the steps, at every decision
// of random games of every variant (the conformance suite checks PickMove
// against LegalMoves).
func TestMovesCardByCard(t *testing.T) {
	for name, set := range variants() {
		t.Run(name, func(t *testing.T) {
			r := DefaultRules()
			set(r)
			g := newGame(t, r)
			rng := pcg.New(11, 3)
			var moves []games.Move
			var outcomes []games.ChanceOutcome
			var kinds [kindStop + 1]int
			for game := range 150 {
				s := g.NewState().(*State)
				for n := 0; !s.IsTerminal(); n++ {
					if s.phase == phaseAction || s.phase == phaseMove {
						want, steps := naiveMoves(s)
						if got := s.LegalMoves(moves[:0]); !slices.Equal(got, want) {
							t.Fatalf("game %d, decision %d: moves %v, want %v\n%v", game, n, got, want, s)
						}
						if got := s.canStep(); got != (len(steps) > 0) {
							t.Fatalf("game %d, decision %d: canStep %v with steps %v\n%v", game, n, got, steps, s)
						}
						for _, m := range want {
							kind, _, _ := decode(m)
							kinds[kind]++
						}
					}
					var m games.Move
					m, moves, outcomes = gamestest.Pick(s, rng, moves, outcomes)
					s.Apply(m)
				}
			}
			for _, kind := range []int{kindEnter, kindLock, kindShift, kindStep} {
				if kinds[kind] < 100 {
					t.Errorf("only %d moves of kind %d checked", kinds[kind], kind)
				}
			}
		})
	}
}

// TestCardSets checks the card-set constants against the squares they stand
// for.
func TestCardSets(t *testing.T) {
	var want uint32
	for _, c := range corners {
		want |= 1 << c
	}
	if cornerCards != want {
		t.Errorf("cornerCards %#x, want %#x", cornerCards, want)
	}
	for sq := range Cards {
		for set := range uint32(1 << 8) { // every set of sq's neighbours
			var cards uint32
			var want uint8
			for d, n := range neighbour[sq] {
				if n >= 0 && set>>d&1 != 0 {
					cards |= 1 << n
					want |= 1 << d
				}
			}
			// the other cards, off the board included, all out or all in
			others := ^uint32(0) &^ (1 << sq)
			for _, n := range neighbour[sq] {
				if n >= 0 {
					others &^= 1 << n
				}
			}
			for _, rest := range []uint32{0, others} {
				if got := dirsInto(cards|rest, sq); got != want {
					t.Fatalf("dirsInto(%#x, %s) = %08b, want %08b", cards|rest, squareName(sq), got, want)
				}
			}
		}
	}
}
