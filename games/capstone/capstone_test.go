package capstone

import (
	"maps"
	"math"
	"slices"
	"strings"
	"testing"

	"playtest/games"
	"playtest/games/gamestest"
	"playtest/games/pcg"
	"playtest/internal/testenv"
)

func capstoneRules() Rules { return *DefaultRules() }

func threestoneRules() Rules {
	r := *DefaultRules()
	r.StacksPerSize, r.PiecesPerColor, r.BagPerColor = 3, 3, 3
	r.Capstones, r.NeutralCapstones = CapstonesNeutral, 2
	return r
}

func newGame(t testing.TB, r Rules) *Game {
	t.Helper()
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	return New(r)
}

func TestConformance(t *testing.T) {
	variants := map[string]func(*Rules){
		"capstone":       func(*Rules) {},
		"threestone":     nil,
		"goal-order-bot": func(r *Rules) { r.GoalOrder = GoalOrderBot },
		"neutral-1":      func(r *Rules) { r.Capstones, r.NeutralCapstones = CapstonesNeutral, 1 },
		"5-colours":      func(r *Rules) { r.Colors, r.PiecesPerColor = 5, 4 },
		"4-stacks":       func(r *Rules) { r.StacksPerSize = 4 },
		"goal-3-height-5": func(r *Rules) {
			r.GoalSize, r.StackHeight, r.PiecesPerColor = 3, 5, 6
		},
		"goal-4-height-2-top": func(r *Rules) {
			r.StackHeight, r.PerfectMatch = 2, PerfectTop
		},
	}
	for _, name := range []string{"capstone", "threestone", "goal-order-bot", "neutral-1", "5-colours", "4-stacks", "goal-3-height-5", "goal-4-height-2-top"} {
		t.Run(name, func(t *testing.T) {
			r := capstoneRules()
			if f := variants[name]; f != nil {
				f(&r)
			} else {
				r = threestoneRules()
			}
			n := 1000
			if name != "capstone" && name != "threestone" || testing.Short() {
				n = 200
			}
			gamestest.Run(t, newGame(t, r), gamestest.Options{Games: n, Seed: 9})
		})
	}
}

// TestPerftDepth1 checks the spec's hand counts: from the empty board every
// turn is a placement (2 sizes × 4 colours × stacks per size) and no move
// is possible (the only piece on the board was just placed).
func TestPerftDepth1(t *testing.T) {
	for name, want := range map[string]uint64{"capstone": 40, "threestone": 24} {
		r := capstoneRules()
		if name == "threestone" {
			r = threestoneRules()
		}
		s, _ := newGame(t, r).PerftStart(1)
		if got := games.PerftOf(s, 1); got != want {
			t.Errorf("%s: perft(1) = %d, want %d", name, got, want)
		}
	}
	// Depth 2, Capstone, by hand: after a first piece on a Large stack, a
	// second piece on that stack leaves no move (4 turns); on another Large
	// stack (16 placements) or on a Medium stack (20) the first piece can
	// move to 4 Large stacks, each followed by its capstone onto any of 10
	// stacks, or stop: 41 turns each. (4 + 36 × 41) × 40 first turns.
	s, _ := newGame(t, capstoneRules()).PerftStart(1)
	if got := games.PerftOf(s, 2); got != (4+36*41)*40 {
		t.Errorf("capstone perft(2) = %d, want %d", got, (4+36*41)*40)
	}
}

// TestPerftAgainstNaive compares whole-turn perft with the naive generator
// from the start (to depth 3) and from random positions.
func TestPerftAgainstNaive(t *testing.T) {
	for _, name := range []string{"capstone", "threestone"} {
		t.Run(name, func(t *testing.T) {
			r := capstoneRules()
			if name == "threestone" {
				r = threestoneRules()
			}
			g := newGame(t, r)
			s, _ := g.PerftStart(1)
			nc := newNaiveCapstone(r)
			for d := 1; d <= 2; d++ {
				if got, want := games.PerftOf(s, d), nc.perft(d); got != want {
					t.Fatalf("depth %d: engine %d, naive %d", d, got, want)
				}
			}
			rng := pcg.New(3, uint64(len(name)))
			// Depth 3 from the start (106,785,280 leaves in Capstone) takes
			// the naive reference half a minute: compare the depth-3
			// subtrees of a few first turns instead.
			for range testenv.Scale(4) {
				st := s.Clone().(*State)
				nc := newNaiveCapstone(r)
				playTurnBoth(t, st, nc, rng)
				if got, want := games.PerftOf(st, 2), nc.perft(2); got != want {
					t.Fatalf("after the first turn, depth 2: engine %d, naive %d\n%s", got, want, st)
				}
			}
			for trial := range testenv.Scale(8) {
				s, _ := g.PerftStart(uint64(trial))
				st := s.(*State)
				nc := newNaiveCapstone(r)
				for range rng.IntN(25) {
					if st.IsTerminal() {
						break
					}
					playTurnBoth(t, st, nc, rng)
				}
				for d := 1; d <= 2; d++ {
					if got, want := games.PerftOf(st, d), nc.perft(d); got != want {
						t.Fatalf("trial %d, depth %d: engine %d, naive %d\n%s", trial, d, got, want, st)
					}
				}
			}
		})
	}
}

// engineTurns lists the whole turns from s in notation, sorted.
func engineTurns(s *State) []string {
	var out []string
	var walk func(c *State, decisions []games.Move)
	walk = func(c *State, decisions []games.Move) {
		for _, m := range c.LegalMoves(nil) {
			next := *c
			next.Apply(m)
			ds := append(slices.Clone(decisions), m)
			if next.IsTerminal() || next.CurrentPlayer() != s.CurrentPlayer() || next.phase == phasePlace {
				out = append(out, FormatTurn(s, ds))
				continue
			}
			walk(&next, ds)
		}
	}
	walk(s, nil)
	slices.Sort(out)
	return out
}

// playTurnBoth checks both implementations list the same turns, then
// plays one at random in both.
func playTurnBoth(t *testing.T, s *State, nc *naiveCapstone, rng *pcg.Rand) {
	t.Helper()
	turns := engineTurns(s)
	if naive := nc.turnTexts(); !slices.Equal(turns, naive) {
		t.Fatalf("turns differ at\n%s\nengine %d: %v\nnaive %d: %v", s, len(turns), head(turns), len(naive), head(naive))
	}
	text := turns[rng.IntN(len(turns))]
	for _, part := range strings.Fields(text) {
		m, err := s.ParseMove(part)
		if err != nil {
			t.Fatalf("turn %q: %v", text, err)
		}
		s.Apply(m)
	}
	nc.applyTurn(text)
	if s.IsTerminal() != (len(nc.placements()) == 0) {
		t.Fatalf("after %q: engine over %v, naive has %d placements", text, s.IsTerminal(), len(nc.placements()))
	}
}

func head(xs []string) []string { return xs[:min(len(xs), 12)] }

// TestWorkedExample is the source's example: goals Alice = Blue, Green,
// Blue, Yellow and Bob = Red, Green, Yellow, Blue (top to bottom).
func TestWorkedExample(t *testing.T) {
	const r, gr, b, y = 0, 1, 2, 3
	g := newGame(t, capstoneRules())
	s := g.initial
	s.goal[0] = [MaxGoal]uint8{b, gr, b, y} // Alice, seat 0
	s.goal[1] = [MaxGoal]uint8{r, gr, y, b} // Bob, seat 1
	s.goalLen = [2]uint8{4, 4}
	build := func(st int, topFirst ...uint8) {
		for i := range topFirst {
			s.stacks[st].colors[i] = topFirst[len(topFirst)-1-i]
		}
		s.stacks[st].n = uint8(len(topFirst))
	}
	build(0, r, gr, b, y) // Red, Green, Blue, Yellow
	build(1, r, gr, y, b) // Red, Green, Yellow, Blue
	build(2, r, gr, y)    // not full: does not count
	s.stacks[1].cap = 0   // capstones are removed before scoring
	for _, tc := range []struct {
		stack   int
		seat    games.Player
		points  int
		perfect bool
	}{{0, 0, 3, false}, {0, 1, 2, false}, {1, 1, 4, true}, {1, 0, 1, false}} {
		if p, perfect := s.match(tc.stack, tc.seat); p != tc.points || perfect != tc.perfect {
			t.Errorf("stack %d for %v: %d points (perfect %v), want %d (%v)", tc.stack, tc.seat, p, perfect, tc.points, tc.perfect)
		}
	}
	s.finish()
	if s.Scores() != [2]int{3 + 1, 2 + 4 + 3} || s.winner != games.Seat1 || s.reason != "score" || s.fullStacks != 2 {
		t.Errorf("scores %v, winner %v (%s), full %d", s.Scores(), s.winner, s.reason, s.fullStacks)
	}
}

// TestPerfectMatch checks both readings of perfect_match when goal and stack
// sizes differ: points are the same; only top counts a stack equal to the
// goal's top (or a goal equal to the stack's top) as perfect.
func TestPerfectMatch(t *testing.T) {
	tests := []struct {
		name           string
		goal, height   int
		reading        string
		stack          []uint8 // top first
		points         int
		perfect        bool
		score, bonuses int
	}{
		{"equal sizes, whole-goal", 4, 4, PerfectWholeGoal, []uint8{0, 1, 2, 3}, 4, true, 7, 1},
		{"equal sizes, top", 4, 4, PerfectTop, []uint8{0, 1, 2, 3}, 4, true, 7, 1},
		{"stack 2 of goal 4, whole-goal", 4, 2, PerfectWholeGoal, []uint8{0, 1}, 2, false, 2, 0},
		{"stack 2 of goal 4, top", 4, 2, PerfectTop, []uint8{0, 1}, 2, true, 5, 1},
		{"stack 5 of goal 4, whole-goal", 4, 5, PerfectWholeGoal, []uint8{0, 1, 2, 3, 0}, 4, false, 4, 0},
		{"stack 5 of goal 4, top", 4, 5, PerfectTop, []uint8{0, 1, 2, 3, 0}, 4, true, 7, 1},
		{"stack 2 of goal 4, top, one miss", 4, 2, PerfectTop, []uint8{0, 2}, 1, false, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := capstoneRules()
			r.GoalSize, r.StackHeight, r.PerfectMatch = tt.goal, tt.height, tt.reading
			r.PiecesPerColor = 10
			g := newGame(t, r)
			s := g.initial
			s.goal[0] = [MaxGoal]uint8{0, 1, 2, 3}
			s.goal[1] = [MaxGoal]uint8{3, 3, 2, 2}
			s.goalLen = [2]uint8{uint8(tt.goal), uint8(tt.goal)}
			for i, c := range tt.stack {
				s.stacks[0].colors[len(tt.stack)-1-i] = c
			}
			s.stacks[0].n = uint8(len(tt.stack))
			if p, perfect := s.match(0, games.Seat0); p != tt.points || perfect != tt.perfect {
				t.Errorf("match: %d points (perfect %v), want %d (%v)", p, perfect, tt.points, tt.perfect)
			}
			s.finish()
			if s.Scores()[0] != tt.score || int(s.perfect[0]) != tt.bonuses {
				t.Errorf("seat 0 scores %d with %d perfect stacks, want %d with %d", s.Scores()[0], s.perfect[0], tt.score, tt.bonuses)
			}
		})
	}
}

func TestTiebreaks(t *testing.T) {
	g := newGame(t, capstoneRules())
	s := g.initial
	s.goal[0] = [MaxGoal]uint8{0, 0, 1, 1} // top first
	s.goal[1] = [MaxGoal]uint8{2, 2, 3, 3}
	s.goalLen = [2]uint8{4, 4}
	set := func(st int, topFirst ...uint8) {
		for i, c := range topFirst {
			s.stacks[st].colors[len(topFirst)-1-i] = c
		}
		s.stacks[st].n = uint8(len(topFirst))
	}
	set(0, 0, 0, 1, 1) // seat 0: perfect, 4 + 3
	set(1, 2, 2, 3, 0) // seat 1: 3
	set(2, 2, 2, 0, 3) // seat 1: 3
	set(3, 3, 3, 3, 2) // seat 1: 1
	c := s
	c.finish()
	if c.Scores() != [2]int{7, 7} || c.winner != games.Seat0 || c.reason != "tiebreak-perfect-stacks" {
		t.Fatalf("equal scores: %v, winner %v (%s), want seat 0 by perfect stacks", c.Scores(), c.winner, c.reason)
	}
	set(3, 2, 2, 3, 3) // seat 1: perfect, 7: 13 against 7
	c = s
	c.finish()
	if c.Scores() != [2]int{7, 13} || c.winner != games.Seat1 || c.reason != "score" {
		t.Fatalf("scores %v, winner %v (%s)", c.Scores(), c.winner, c.reason)
	}
	e := g.initial
	e.goal, e.goalLen = s.goal, s.goalLen
	e.finish()
	if e.winner != games.NoPlayer || e.reason != "tie" {
		t.Fatalf("empty board: %v %s", e.winner, e.reason)
	}
}

// sequenceProb is the probability of drawing the colours seq in order
// from bag, one at a time.
func sequenceProb(bag [MaxColors]int, seq []uint8) float64 {
	p := 1.0
	for _, c := range seq {
		total := 0
		for _, n := range bag {
			total += n
		}
		if bag[c] == 0 {
			return 0
		}
		p *= float64(bag[c]) / float64(total)
		bag[c]--
	}
	return p
}

// exactPosterior enumerates every ordered goal the other seat may hold, as
// observer knows it in s, with its chance (summing to 1): the draw replayed
// one Small at a time on the bag less observer's goal, invalid draws out,
// and for an observer who drew second the redraw correction
// (determinize.go). Keyed by the goal's colours, top first.
func exactPosterior(s *State, observer games.Player) map[string]float64 {
	r := &s.g.rules
	full := s.fullBag()
	own := s.ownSmalls(observer)
	var rest [MaxColors]int
	for c := range r.Colors {
		rest[c] = full[c] - own[c]
	}
	want := map[string]float64{}
	sum := 0.0
	seq := make([]uint8, r.GoalSize)
	var walk func(i int)
	walk = func(i int) {
		if i == r.GoalSize {
			var counts [MaxColors]int
			for _, c := range seq {
				counts[c]++
			}
			for c := range r.Colors {
				if counts[c] > r.GoalMaxPerColor {
					return
				}
			}
			p := sequenceProb(rest, seq)
			if observer == games.Seat0 {
				var after [MaxColors]int
				for c := range r.Colors {
					after[c] = full[c] - counts[c]
				}
				p /= validity(r, after)
			}
			if p > 0 {
				want[string(seq)] += p
				sum += p
			}
			return
		}
		for c := range r.Colors {
			seq[i] = uint8(c)
			walk(i + 1)
		}
	}
	walk(0)
	for k := range want {
		want[k] /= sum
	}
	return want
}

// goalsFollow checks by a chi-square test that goals sampled samples times
// (got, by exactPosterior's keys) follow want (chances summing to 1):
// goals expected fewer than 5 times are pooled into one cell, and a goal
// want gives no chance fails at once.
func goalsFollow(t *testing.T, what string, want map[string]float64, got map[string]int, samples int) {
	t.Helper()
	for key := range got {
		if want[key] == 0 {
			t.Fatalf("%s: an impossible goal %v", what, []byte(key))
		}
	}
	chi2, df := 0.0, -1
	restExp, restGot := 0.0, 0
	for _, key := range slices.Sorted(maps.Keys(want)) {
		exp := want[key] * float64(samples)
		if exp < 5 {
			restExp += exp
			restGot += got[key]
			continue
		}
		d := float64(got[key]) - exp
		chi2 += d * d / exp
		df++
	}
	if restExp > 0 {
		d := float64(restGot) - restExp
		chi2 += d * d / restExp
		df++
	}
	limit := float64(df) + 6*math.Sqrt(2*float64(df))
	t.Logf("%s: chi2 %.1f with %d degrees of freedom (limit %.1f), %d distinct goals", what, chi2, df, limit, len(got))
	if df < 5 || chi2 > limit {
		t.Errorf("%s do not follow their distribution: chi2 %.1f with %d degrees of freedom (limit %.1f)", what, chi2, df, limit)
	}
}

// TestDeterminizeMatchesPosterior samples the other seat's goal many times
// and compares the frequencies with the exact posterior, enumerated over
// every ordered goal: for an observer who drew second it includes the
// redraw correction. With a million samples the test fails if the
// correction is left out (chi2 ≈ 370 at 400,000 samples against a limit of
// 324), so it can tell the two distributions apart.
func TestDeterminizeMatchesPosterior(t *testing.T) {
	r := capstoneRules()
	g := newGame(t, r)
	start, _ := g.PerftStart(5)
	base := start.(*State)
	samples := testenv.Scale(1000000)
	for _, observer := range []games.Player{games.Seat0, games.Seat1} {
		t.Run(observer.String(), func(t *testing.T) {
			opp := observer.Opponent()
			want := exactPosterior(base, observer)
			rng := pcg.New(1, uint64(observer))
			got := map[string]int{}
			for range samples {
				c := *base
				c.Determinize(observer, rng)
				if c.goal[observer] != base.goal[observer] {
					t.Fatal("Determinize changed the observer's own goal")
				}
				if err := c.CheckInvariants(); err != nil {
					t.Fatal(err)
				}
				got[string(c.goal[opp][:r.GoalSize])]++
			}
			if len(got) < 10 {
				t.Fatalf("only %d distinct goals sampled", len(got))
			}
			goalsFollow(t, "the sampled goals", want, got, samples)
		})
	}
}

func TestRulesValidate(t *testing.T) {
	tests := []struct {
		edit func(*Rules)
		knob string
	}{
		{func(r *Rules) { r.Colors = 0 }, "colors"},
		{func(r *Rules) { r.StacksPerSize = 9 }, "stacks_per_size"},
		{func(r *Rules) { r.StackHeight = -1 }, "stack_height"},
		{func(r *Rules) { r.PiecesPerColor = 0 }, "pieces_per_color"},
		{func(r *Rules) { r.BagPerColor = 1 }, "bag_per_color"},                                           // 4 Smalls for two goals of 4
		{func(r *Rules) { r.GoalMaxPerColor = 1; r.Colors = 3; r.BagPerColor = 4 }, "goal_max_per_color"}, // 3 colours × 1 < 4
		{func(r *Rules) { r.Capstones = "some" }, "capstones"},
		{func(r *Rules) { r.Capstones = CapstonesNeutral; r.NeutralCapstones = 11 }, "neutral_capstones"},
		{func(r *Rules) { r.GoalOrder = "sorted" }, "goal_order"},
		{func(r *Rules) { r.PerfectMatch = "partial" }, "perfect_match"},
		{func(r *Rules) { r.PerfectBonus = -1 }, "perfect_bonus"},
		{func(r *Rules) { r.Colors, r.BagPerColor, r.GoalMaxPerColor = 2, 3, 2 }, "bag_per_color"}, // after rrgg, only rg is left
	}
	for i, tt := range tests {
		r := capstoneRules()
		tt.edit(&r)
		err := r.Validate()
		ke, ok := err.(*games.KnobError)
		if !ok || ke.Knob != tt.knob {
			t.Errorf("case %d: error %v, want one naming %s", i, err, tt.knob)
		}
	}
	r := threestoneRules()
	if err := r.Validate(); err != nil {
		t.Errorf("threestone: %v", err)
	}
}

func TestNotation(t *testing.T) {
	g := newGame(t, capstoneRules())
	st, _ := g.PerftStart(2)
	s := st.(*State)
	var decisions []games.Move
	for _, text := range []string{"r@L1", "g@L2"} {
		m, err := s.ParseMove(text)
		if err != nil {
			t.Fatal(err)
		}
		decisions = append(decisions, m)
		s.Apply(m)
	}
	before := *s
	for _, text := range []string{"L1>L3", "^M2"} {
		m, err := s.ParseMove(text)
		if err != nil {
			t.Fatalf("%s: %v\n%s", text, err, s)
		}
		s.Apply(m)
		decisions = append(decisions, m)
	}
	if got := FormatTurn(&before, decisions[len(decisions)-2:]); got != "L1>L3 ^M2" {
		t.Errorf("turn %q", got)
	}
	if !strings.Contains(s.String(), "M2[^r]") || s.CurrentPlayer() != games.Seat0 {
		t.Errorf("after the turn:\n%s", s)
	}
	for _, bad := range []string{"", "x@L1", "r@L9", "L1>M1", "^", "stop"} {
		if _, err := s.ParseMove(bad); err == nil {
			t.Errorf("ParseMove(%q) accepted", bad)
		}
	}
}

// TestSetupOrder pins the setup rules: seat 1 draws first, a draw with more
// than goal_max_per_color of a colour goes back to the bag, seat 0 draws
// second and makes the first move.
func TestSetupOrder(t *testing.T) {
	g := newGame(t, capstoneRules())
	s := g.NewState().(*State)
	play := func(texts ...string) {
		t.Helper()
		for _, text := range texts {
			if s.CurrentPlayer() != games.Chance {
				t.Fatalf("%s: %v decides, want chance", text, s.CurrentPlayer())
			}
			m, err := s.ParseMove(text)
			if err != nil {
				t.Fatal(err)
			}
			s.Apply(m)
		}
	}
	play("draw:r", "draw:r", "draw:r", "draw:g") // three reds: redrawn
	if s.goalLen[games.Seat1] != 0 || s.bag != [MaxColors]uint8{4, 4, 4, 4} || s.drawer != games.Seat1 {
		t.Fatalf("after an invalid draw: goal %d, bag %v, drawer %v", s.goalLen[1], s.bag, s.drawer)
	}
	play("draw:r", "draw:g", "draw:r", "draw:b")
	if s.goalString(games.Seat1) != "rgrb" || s.drawer != games.Seat0 {
		t.Fatalf("seat 1's goal %q, drawer %v", s.goalString(games.Seat1), s.drawer)
	}
	play("draw:y", "draw:y", "draw:b", "draw:g")
	if s.goalString(games.Seat0) != "yybg" || s.CurrentPlayer() != games.Seat0 || s.phase != phasePlace {
		t.Fatalf("seat 0's goal %q, %v to play in phase %d", s.goalString(games.Seat0), s.CurrentPlayer(), s.phase)
	}
	if s.bag != [MaxColors]uint8{2, 2, 2, 2} {
		t.Fatalf("bag %v", s.bag)
	}
}
