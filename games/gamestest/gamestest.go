package gamestest

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"testing"

	"playtest/games"
	"playtest/games/pcg"
	"playtest/internal/testenv"
)

// Options tune the suite.
type Options struct {
	// Games is the number of random games to play to the end (default
	// 1000, or 100 with -short).
	Games int
	// Seed seeds the random games.
	Seed uint64
	// MaxDecisions fails a game that has not ended after this many
	// decisions (default 100000): every game must end.
	MaxDecisions int
	// Thorough is the number of games (default a tenth of Games, at least
	// 20) in which the costly checks run too: legal-move sanity, notation
	// round trips, heuristic purity, clone and copy independence. The
	// invariants are checked after every decision of every game.
	Thorough int
	// NothingHidden says the variant hides nothing a state stores (say,
	// STACKS with open hands): Determinize must then leave every state as
	// it is. Otherwise it must change some.
	NothingHidden bool
	// Interpreted says the game's rules are interpreted (a rules script,
	// package games/script): every check runs but the allocation checks,
	// which are skipped, saying so — an interpreter allocates its values.
	Interpreted bool
}

// Observer is implemented by states of games with hidden information:
// ObservationString describes everything seat can see, so that the suite
// can check that Determinize leaves it unchanged.
type Observer interface {
	ObservationString(seat games.Player) string
}

// Run runs the whole conformance suite on g.
func Run(t *testing.T, g games.Game, opts Options) {
	t.Helper()
	if opts.Games == 0 {
		opts.Games = 1000
		if testing.Short() {
			opts.Games = 100
		}
	}
	if opts.MaxDecisions == 0 {
		opts.MaxDecisions = 100000
	}
	opts.Games = testenv.Scale(opts.Games)
	if testenv.RaceEnabled {
		// The suite plays one goroutine's games, where the race detector
		// finds nothing: under -race it is a smoke test of 20 games a
		// variant (a tenth of the usual tenth); make test then plays it in
		// full without the detector.
		opts.Games = max(1, opts.Games/5)
	}
	if opts.Thorough == 0 {
		opts.Thorough = max(20, opts.Games/10)
		if testenv.RaceEnabled {
			opts.Thorough = 4 // the smoke test's thorough games
		}
	}
	if b, ok := g.(games.Boarder); ok {
		if err := b.CellBoard().Check(); err != nil {
			t.Fatalf("CellBoard: %v", err)
		}
	}
	t.Run("RandomGames", func(t *testing.T) { randomGames(t, g, opts) })
	t.Run("Determinism", func(t *testing.T) { determinism(t, g, opts) })
	if opts.Interpreted {
		t.Run("ZeroAllocPlayout", func(t *testing.T) {
			t.Skip("waived: the game's rules are interpreted (a rules script); an interpreter allocates its values")
		})
		return
	}
	t.Run("ZeroAllocPlayout", func(t *testing.T) { zeroAllocPlayout(t, g, opts) })
	if _, ok := g.(games.Featurer); ok {
		t.Run("ZeroAllocFeatures", func(t *testing.T) { zeroAllocFeatures(t, g, opts) })
	}
}

// Pick returns a decision at a non-terminal state: a uniformly random legal
// move, or a chance outcome drawn by weight.
func Pick(s games.State, rng *pcg.Rand, moves []games.Move, outcomes []games.ChanceOutcome) (games.Move, []games.Move, []games.ChanceOutcome) {
	if s.CurrentPlayer() == games.Chance {
		var m games.Move
		m, outcomes = games.DrawChance(s, rng, outcomes)
		return m, moves, outcomes
	}
	moves = s.LegalMoves(moves[:0])
	return moves[rng.IntN(len(moves))], moves, outcomes
}

// Playout plays s to the end with uniformly random decisions, reusing the
// given buffers, and returns the number of decisions made. It uses the
// state's RandomMove where it has one, else its PickMove (the same draw
// as Pick's, without the list).
func Playout(s games.State, rng *pcg.Rand, moves []games.Move, outcomes []games.ChanceOutcome) int {
	n := 0
	rm, fast := s.(games.RandomMover)
	mp, picks := s.(games.MovePicker)
	for !s.IsTerminal() {
		var m games.Move
		switch chance := s.CurrentPlayer() == games.Chance; {
		case fast && !chance:
			m = rm.RandomMove(rng)
		case picks && !chance:
			m, _ = mp.PickMove(games.UniformPicker{Rng: rng})
		default:
			m, moves, outcomes = Pick(s, rng, moves, outcomes)
		}
		s.Apply(m)
		n++
	}
	return n
}

func randomGames(t *testing.T, g games.Game, opts Options) {
	rng := pcg.New(opts.Seed, 1)
	moves := make([]games.Move, 0, g.MaxLegalMoves())
	var outcomes []games.ChanceOutcome
	reasons := map[string]int{}
	var det determinizeStats
	reasoner, ok := g.(games.Reasoner)
	if !ok {
		t.Fatalf("%s does not declare how its games end (games.Reasoner)", g.Name())
	}
	declared := reasoner.Reasons()
	tactics := NewTacticsChecker()
	for game := range opts.Games {
		s := g.NewState()
		thorough := game < opts.Thorough
		check(t, s, game, 0)
		// A copy that keeps its score as moves are applied, from the start
		// or from the third decision (games.ScoreKeeper), evaluates as s.
		var kept games.State
		keepAt := game % 2 * 3
		for n := 0; !s.IsTerminal(); n++ {
			if _, ok := s.(games.ScoreKeeper); ok && n == keepAt {
				kept = s.Clone()
				kept.(games.ScoreKeeper).KeepScore()
			}
			checkKeptScore(t, s, kept, game, n)
			if n > opts.MaxDecisions {
				t.Fatalf("game %d: not over after %d decisions", game, n)
			}
			if thorough {
				checkDecisions(t, g, s, game, n)
				checkKey(t, g, s, game, n)
				checkPromises(t, s, game, n)
				checkFeatures(t, g, s, rng, game, n)
				checkCells(t, g, s, rng, game, n)
				if err := tactics.Check(s); err != nil {
					t.Fatalf("game %d, decision %d: %v\n%s", game, n, err, s)
				}
				if n%3 == 0 {
					det.check(t, s, rng, game, n)
				}
			}
			var m games.Move
			m, moves, outcomes = Pick(s, rng, moves, outcomes)
			if thorough && n%7 == 3 {
				checkCloneIndependence(t, s, m, game, n)
			}
			s.Apply(m)
			if kept != nil {
				kept.Apply(m)
			}
			check(t, s, game, n+1)
		}
		checkKeptScore(t, s, kept, game, -1)
		r := s.Result()
		if r.Reason == "" {
			t.Fatalf("game %d: ended without a reason", game)
		}
		if r.Winner != games.Seat0 && r.Winner != games.Seat1 && r.Winner != games.NoPlayer {
			t.Fatalf("game %d: winner %v", game, r.Winner)
		}
		if err := games.CheckResult(declared, r); err != nil {
			t.Fatalf("game %d: %v (the game's Reasons must declare every way a game ends)", game, err)
		}
		if s.CurrentPlayer() != games.Terminal {
			t.Fatalf("game %d: over but CurrentPlayer is %v", game, s.CurrentPlayer())
		}
		if got := s.LegalMoves(moves[:0]); len(got) != 0 {
			t.Fatalf("game %d: over but has %d legal moves", game, len(got))
		}
		if mp, ok := s.(games.MovePicker); ok {
			if _, count := mp.PickMove(&fixedPicker{}); count != 0 {
				t.Fatalf("game %d: over but PickMove offers %d moves", game, count)
			}
		}
		if cp, ok := s.(games.ChancePicker); ok {
			if _, w := cp.PickChance(&fixedPicker{}); w != 0 {
				t.Fatalf("game %d: over but PickChance offers a weight of %d", game, w)
			}
		}
		reasons[r.Reason]++
		if m, ok := s.(games.Metrics); ok {
			for _, x := range m.AppendMetrics(nil) {
				if x.Name == "" || (x.Kind == games.MetricRate && x.Value != 0 && x.Value != 1) {
					t.Fatalf("game %d: bad metric %+v", game, x)
				}
			}
		}
	}
	switch {
	case opts.NothingHidden && det.changed > 0:
		t.Fatalf("Determinize changed %d of %d states of a variant that hides nothing", det.changed, det.tries)
	case !opts.NothingHidden && det.tries >= 20 && det.changed == 0:
		t.Fatalf("Determinize never changed a state in %d tries: it hides nothing", det.tries)
	}
	t.Logf("%d random games, end reasons %v; %d determinisations, %d changed the state", opts.Games, reasons, det.tries, det.changed)
}

// checkKeptScore checks that kept, a copy of s that keeps its score as
// moves are applied (games.ScoreKeeper), evaluates as s does for both
// seats (decision -1: the game's end).
func checkKeptScore(t *testing.T, s, kept games.State, game, n int) {
	t.Helper()
	if kept == nil {
		return
	}
	h, k := s.(games.Heuristic), kept.(games.Heuristic)
	for _, seat := range []games.Player{games.Seat0, games.Seat1} {
		if a, b := h.Evaluate(seat), k.Evaluate(seat); a != b {
			t.Fatalf("game %d, decision %d: Evaluate(%v) %v, but %v on a copy keeping its score (games.ScoreKeeper)", game, n, seat, a, b)
		}
	}
}

// checkPromises checks what a state promises search bots: a zero-sum
// heuristic is exactly antisymmetric, and a chance-free state is followed
// by no chance decision and hides nothing.
func checkPromises(t *testing.T, s games.State, game, n int) {
	t.Helper()
	if h, ok := s.(games.ZeroSumHeuristic); ok && h.ZeroSum() {
		if e0, e1 := h.Evaluate(games.Seat0), h.Evaluate(games.Seat1); e1 != -e0 {
			t.Fatalf("game %d, decision %d: ZeroSum, but Evaluate gives %v and %v", game, n, e0, e1)
		}
	}
	if cf, ok := s.(games.ChanceFree); ok && cf.ChanceFree() {
		if s.CurrentPlayer() == games.Chance {
			t.Fatalf("game %d, decision %d: ChanceFree, but chance decides", game, n)
		}
		if _, hidden := s.(games.Determinizer); hidden {
			t.Fatalf("game %d, decision %d: ChanceFree, but the state hides information", game, n)
		}
	}
}

// checkFeatures checks a Featurer game's features of a position for both
// seats: as many as it names, finite, the hand weights on them equal to
// the hand heuristic, and (for a game with hidden information) unchanged
// by a determinisation for that seat, which re-samples only what the seat
// cannot see.
func checkFeatures(t *testing.T, g games.Game, s games.State, rng *pcg.Rand, game, n int) {
	t.Helper()
	fg, ok := g.(games.Featurer)
	fs, ok2 := s.(games.FeatureState)
	if !ok || !ok2 {
		return
	}
	names, hand := fg.Features(), fg.HandWeights()
	if len(hand) != len(names) {
		t.Fatalf("%d features but %d hand weights", len(names), len(hand))
	}
	for _, seat := range []games.Player{games.Seat0, games.Seat1} {
		f := fs.AppendFeatures(nil, seat)
		if len(f) != len(names) {
			t.Fatalf("game %d, decision %d: %d features for %v, %d named", game, n, len(f), seat, len(names))
		}
		sum := 0.0
		for i, x := range f {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				t.Fatalf("game %d, decision %d: feature %s is %v", game, n, names[i].Name, x)
			}
			sum += hand[i] * x
		}
		if h, ok := s.(games.Heuristic); ok {
			if e := h.Evaluate(seat); math.Abs(sum-e) > 1e-9*max(1, math.Abs(e)) {
				t.Fatalf("game %d, decision %d: the hand weights on %v's features give %v, Evaluate %v", game, n, seat, sum, e)
			}
		}
		if fp, ok := s.(games.FeaturePairState); ok {
			want := fs.AppendFeatures(slices.Clone(f), seat.Opponent())
			if got := fp.AppendFeaturePair(nil, seat); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("game %d, decision %d: %v's feature pair is\n%v\nand its features then the other seat's\n%v", game, n, seat, got, want)
			}
		}
		if _, hidden := s.(games.Determinizer); hidden {
			c := s.Clone()
			c.(games.Determinizer).Determinize(seat, rng)
			if got := c.(games.FeatureState).AppendFeatures(nil, seat); fmt.Sprint(got) != fmt.Sprint(f) {
				t.Fatalf("game %d, decision %d: %v's features changed when only what it cannot see was re-sampled:\n%v\nwas\n%v", game, n, seat, got, f)
			}
		}
	}
}

// determinizeStats counts determinisations and how many changed the state.
type determinizeStats struct{ tries, changed int }

// check determinises a copy of s for the player to move and checks that
// what that player sees, and so its legal moves, are unchanged, and that
// the copy still satisfies the invariants.
func (d *determinizeStats) check(t *testing.T, s games.State, rng *pcg.Rand, game, n int) {
	t.Helper()
	_, ok := s.(games.Determinizer)
	obs, ok2 := s.(Observer)
	p := s.CurrentPlayer()
	if !ok || !ok2 || (p != games.Seat0 && p != games.Seat1) {
		return
	}
	c := s.Clone()
	c.(games.Determinizer).Determinize(p, rng)
	if got, want := c.(Observer).ObservationString(p), obs.ObservationString(p); got != want {
		t.Fatalf("game %d after %d decisions: Determinize(%v) changed what %v sees:\n%s\nwas\n%s", game, n, p, p, got, want)
	}
	if fmt.Sprint(c.LegalMoves(nil)) != fmt.Sprint(s.LegalMoves(nil)) {
		t.Fatalf("game %d after %d decisions: Determinize changed %v's legal moves", game, n, p)
	}
	check(t, c, game, n)
	d.tries++
	if c.String() != s.String() {
		d.changed++
	}
}

// checkKey rebuilds a keyed state from its key (games.Keyer): the rebuilt
// state must have the same key, player to move, legal moves and picture
// of the position, and pass its invariants.
func checkKey(t *testing.T, g games.Game, s games.State, game, n int) {
	t.Helper()
	k, ok := s.(games.Keyer)
	if !ok {
		return
	}
	key := k.AppendKey(nil)
	r := g.NewState()
	r.(games.Keyer).SetKey(key)
	if got := r.(games.Keyer).AppendKey(nil); string(got) != string(key) {
		t.Fatalf("game %d after %d decisions: the key does not survive SetKey", game, n)
	}
	if r.CurrentPlayer() != s.CurrentPlayer() || fmt.Sprint(r.LegalMoves(nil)) != fmt.Sprint(s.LegalMoves(nil)) {
		t.Fatalf("game %d after %d decisions: the state rebuilt from its key has other moves:\n%s\nwas\n%s", game, n, r, s)
	}
	check(t, r, game, n)
	checkCanonical(t, g, s, game, n)
}

// checkCells checks a Boarder's cells at a decision: as many as the
// board has, each a valid state, from either seat's view, allocation-free
// into a buffer with room, and (for a game with hidden information)
// unchanged by a determinisation for that seat, which re-samples only what
// the seat cannot see.
func checkCells(t *testing.T, g games.Game, s games.State, rng *pcg.Rand, game, n int) {
	t.Helper()
	b, ok := g.(games.Boarder)
	if !ok {
		return
	}
	cs, ok := s.(games.CellState)
	if !ok {
		t.Fatalf("%s is a games.Boarder, but its states are not games.CellState", g.Name())
	}
	board := b.CellBoard()
	buf := make([]uint8, 0, board.Cells())
	for _, seat := range []games.Player{games.Seat0, games.Seat1} {
		cells := cs.AppendCells(buf[:0], seat)
		if len(cells) != board.Cells() {
			t.Fatalf("game %d after %d decisions: %d cells from %v's view, the board has %d", game, n, len(cells), seat, board.Cells())
		}
		for c, v := range cells {
			if int(v) >= board.States {
				t.Fatalf("game %d after %d decisions: cell %d is in state %d, of %d", game, n, c, v, board.States)
			}
		}
		if _, hidden := s.(games.Determinizer); hidden {
			d := s.Clone()
			d.(games.Determinizer).Determinize(seat, rng)
			if got := d.(games.CellState).AppendCells(nil, seat); string(got) != string(cells) {
				t.Fatalf("game %d after %d decisions: %v's cells changed when only what it cannot see was re-sampled:\n%v\nwas\n%v\n%s\nwas\n%s", game, n, seat, got, cells, d, s)
			}
		}
	}
	if _, interpreted := s.(games.Interpreted); n%5 == 0 && !interpreted { // an interpreter allocates its values
		if allocs := testing.AllocsPerRun(3, func() { buf = cs.AppendCells(buf[:0], games.Seat0) }); allocs != 0 {
			t.Fatalf("game %d after %d decisions: AppendCells allocates %.0f times", game, n, allocs)
		}
	}
}

// checkCellImage checks a Boarder's symmetries against its canonical
// positions: the canonical position r of s is an image of s, so its cells
// from each seat's view are s's moved by one of the board's symmetries.
func checkCellImage(t *testing.T, g games.Game, s, r games.State, game, n int) {
	t.Helper()
	b, ok := g.(games.Boarder)
	if !ok {
		return
	}
	for _, seat := range []games.Player{games.Seat0, games.Seat1} {
		from := s.(games.CellState).AppendCells(nil, seat)
		to := r.(games.CellState).AppendCells(nil, seat)
		found := false
		for _, sym := range b.CellBoard().Symmetries {
			same := true
			for c, v := range from {
				if to[sym[c]] != v {
					same = false
					break
				}
			}
			found = found || same
		}
		if !found {
			t.Fatalf("game %d after %d decisions: the canonical position's cells are no symmetry's image of the position's (%v's view):\n%s\nwas\n%s", game, n, seat, r, s)
		}
	}
}

// checkCanonical rebuilds a symmetric state's canonical position
// (games.Symmetric): it must be its own canonical position, with the same
// player to move, as many legal moves, the same end and its invariants,
// and its moves must lead to the classes the state's moves lead to.
func checkCanonical(t *testing.T, g games.Game, s games.State, game, n int) {
	t.Helper()
	sym, ok := s.(games.Symmetric)
	if !ok {
		return
	}
	canon := sym.AppendCanonicalKey(nil)
	if len(canon) != len(s.(games.Keyer).AppendKey(nil)) {
		t.Fatalf("game %d after %d decisions: the canonical key has %d bytes, the key %d", game, n, len(canon), len(s.(games.Keyer).AppendKey(nil)))
	}
	r := g.NewState()
	r.(games.Keyer).SetKey(canon)
	if got := r.(games.Symmetric).AppendCanonicalKey(nil); string(got) != string(canon) {
		t.Fatalf("game %d after %d decisions: the canonical position's canonical key differs:\n%s\nwas\n%s", game, n, r, s)
	}
	if r.CurrentPlayer() != s.CurrentPlayer() || len(r.LegalMoves(nil)) != len(s.LegalMoves(nil)) || r.IsTerminal() != s.IsTerminal() ||
		s.IsTerminal() && r.Result().Winner != s.Result().Winner {
		t.Fatalf("game %d after %d decisions: the canonical position plays otherwise:\n%s\nwas\n%s", game, n, r, s)
	}
	check(t, r, game, n)
	checkCellImage(t, g, s, r, game, n)
	// Every move's child has a canonical position too, reached from the
	// canonical position by some move: a class's moves lead to the same
	// classes.
	children := map[string]bool{}
	for _, m := range r.LegalMoves(nil) {
		c := r.Clone()
		c.Apply(m)
		children[string(c.(games.Symmetric).AppendCanonicalKey(nil))] = true
	}
	for _, m := range s.LegalMoves(nil) {
		c := s.Clone()
		c.Apply(m)
		if !children[string(c.(games.Symmetric).AppendCanonicalKey(nil))] {
			t.Fatalf("game %d after %d decisions: move %s leads to a class no move of the canonical position reaches", game, n, s.MoveString(m))
		}
	}
}

func check(t *testing.T, s games.State, game, n int) {
	t.Helper()
	if c, ok := s.(games.InvariantChecker); ok {
		if err := c.CheckInvariants(); err != nil {
			t.Fatalf("game %d after %d decisions: %v\n%s", game, n, err, s)
		}
	}
}

// checkRestrictions checks the game's named restrictions at a decision:
// names unique and set, each asked of every legal move without changing
// the state, and without allocating.
func checkRestrictions(t *testing.T, r games.Restricter, s games.State, moves []games.Move, game, n int) {
	t.Helper()
	seen := map[string]bool{}
	before := s.String()
	for _, x := range r.Restrictions() {
		if x.Name == "" || x.Doc == "" || x.Allowed == nil || seen[x.Name] {
			t.Fatalf("restriction %+v: want a unique name, a doc and Allowed", x)
		}
		seen[x.Name] = true
		for _, m := range moves {
			x.Allowed(s, m)
		}
		if allocs := testing.AllocsPerRun(3, func() { x.Allowed(s, moves[0]) }); allocs != 0 {
			t.Fatalf("game %d after %d decisions: restriction %s allocates %v times", game, n, x.Name, allocs)
		}
	}
	if s.String() != before {
		t.Fatalf("game %d after %d decisions: a restriction changed the state", game, n)
	}
}

// checkDecisions checks the decisions offered at a non-terminal state.
func checkDecisions(t *testing.T, g games.Game, s games.State, game, n int) {
	t.Helper()
	if s.CurrentPlayer() == games.Chance {
		outcomes := s.ChanceOutcomes(nil)
		if len(outcomes) == 0 {
			t.Fatalf("game %d after %d decisions: chance node without outcomes", game, n)
		}
		for _, o := range outcomes {
			if o.Weight <= 0 {
				t.Fatalf("game %d after %d decisions: outcome %v has weight %d", game, n, o.Move, o.Weight)
			}
			if n%5 == 0 {
				text := s.MoveString(o.Move)
				if back, err := s.ParseMove(text); err != nil || back != o.Move {
					t.Fatalf("game %d after %d decisions: chance outcome %q parses to %v, %v (want %v)\n%s", game, n, text, back, err, o.Move, s)
				}
			}
		}
		if cp, ok := s.(games.ChancePicker); ok {
			checkPickChance(t, s, cp, outcomes, game, n)
		}
		return
	}
	p := s.CurrentPlayer()
	if p != games.Seat0 && p != games.Seat1 {
		t.Fatalf("game %d after %d decisions: not over but CurrentPlayer is %v", game, n, p)
	}
	moves := s.LegalMoves(nil)
	if len(moves) == 0 {
		t.Fatalf("game %d after %d decisions: not over but no legal moves\n%s", game, n, s)
	}
	if f, ok := s.(games.Forcing); ok {
		// Forcing moves are legal moves, each once.
		forcing := f.ForcingMoves(nil)
		for i, m := range forcing {
			if !slices.Contains(moves, m) || slices.Contains(forcing[:i], m) {
				t.Fatalf("game %d after %d decisions: forcing move %q is not a legal move, or is listed twice\n%s", game, n, s.MoveString(m), s)
			}
		}
	}
	if len(moves) > g.MaxLegalMoves() {
		t.Fatalf("game %d: %d legal moves, more than MaxLegalMoves %d", game, len(moves), g.MaxLegalMoves())
	}
	sorted := slices.Clone(moves)
	slices.Sort(sorted)
	if i := firstDuplicate(sorted); i >= 0 {
		t.Fatalf("game %d after %d decisions: move %s listed twice", game, n, s.MoveString(sorted[i]))
	}
	if mp, ok := s.(games.MovePicker); ok {
		checkPickMove(t, s, mp, moves, game, n)
	}
	if cp, ok := s.(games.ChancePicker); ok {
		if _, w := cp.PickChance(&fixedPicker{}); w != 0 {
			t.Fatalf("game %d after %d decisions: %v decides, but PickChance offers a weight of %d", game, n, p, w)
		}
	}
	if n%5 == 0 {
		ma, appends := s.(games.MoveAppender)
		var buf []byte
		for _, m := range moves {
			text := s.MoveString(m)
			back, err := s.ParseMove(text)
			if err != nil || back != m {
				t.Fatalf("game %d after %d decisions: %q parses to %v, %v (want %v)\n%s", game, n, text, back, err, m, s)
			}
			if appends {
				buf = ma.AppendMove(append(buf[:0], '#'), m)
				if string(buf) != "#"+text {
					t.Fatalf("game %d after %d decisions: AppendMove gives %q after the buffer's #, MoveString %q", game, n, buf[1:], text)
				}
				if m != moves[0] {
					continue // one allocation check a decision is enough
				}
				if allocs := testing.AllocsPerRun(3, func() { buf = ma.AppendMove(buf[:0], m) }); allocs != 0 {
					t.Fatalf("game %d after %d decisions: AppendMove(%s) allocates %v times with room in the buffer", game, n, text, allocs)
				}
			}
		}
		if rm, ok := s.(games.RandomMover); ok {
			checkRandomMove(t, s, rm, moves, game, n)
		}
		if r, ok := g.(games.Restricter); ok {
			checkRestrictions(t, r, s, moves, game, n)
		}
		if h, ok := s.(games.Heuristic); ok {
			before := s.String()
			h.Evaluate(p)
			if s.String() != before {
				t.Fatalf("game %d: Evaluate changed the state", game)
			}
		}
	}
}

// checkRandomMove draws many random moves and checks that each is legal,
// that every legal move comes up, and that none is far from its expected
// frequency (a chi-square test at a very small significance level).
func checkRandomMove(t *testing.T, s games.State, rm games.RandomMover, legal []games.Move, game, n int) {
	t.Helper()
	rng := pcg.New(uint64(game), uint64(n))
	counts := map[games.Move]int{}
	draws := 50 * len(legal)
	before := fingerprint(s)
	for range draws {
		counts[rm.RandomMove(rng)]++
	}
	if fingerprint(s) != before {
		t.Fatalf("game %d: RandomMove changed the state", game)
	}
	if len(counts) != len(legal) {
		t.Fatalf("game %d after %d decisions: RandomMove drew %d distinct moves of %d legal ones", game, n, len(counts), len(legal))
	}
	expected := float64(draws) / float64(len(legal))
	chi2 := 0.0
	for _, m := range legal {
		d := float64(counts[m]) - expected
		chi2 += d * d / expected
	}
	// The chi-square statistic has mean len−1 and variance 2(len−1); eight
	// standard deviations above the mean is far beyond chance.
	if df := float64(len(legal) - 1); chi2 > df+8*math.Sqrt(2*df)+10 {
		t.Fatalf("game %d after %d decisions: RandomMove is not uniform (chi2 %.1f with %d moves)", game, n, chi2, len(legal))
	}
}

// checkPickMove checks that PickMove offers as many moves as LegalMoves
// lists and hands out the k-th of them for every k, leaving the state as
// it was.
func checkPickMove(t *testing.T, s games.State, mp games.MovePicker, legal []games.Move, game, n int) {
	t.Helper()
	before := fingerprint(s)
	for k, want := range legal {
		p := fixedPicker{k: k}
		m, count := mp.PickMove(&p)
		if count != len(legal) || p.n != len(legal) || m != want {
			t.Fatalf("game %d after %d decisions: PickMove(%d) = %s of %d moves (asked with %d), want %s of %d\n%s",
				game, n, k, s.MoveString(m), count, p.n, s.MoveString(want), len(legal), s)
		}
	}
	if fingerprint(s) != before {
		t.Fatalf("game %d: PickMove changed the state", game)
	}
}

// checkPickChance checks that PickChance offers the outcomes' total weight
// and hands out, for every index k of it, the outcome whose share of the
// weights (laid end to end in list order) holds k, leaving the state as it
// was.
func checkPickChance(t *testing.T, s games.State, cp games.ChancePicker, outcomes []games.ChanceOutcome, game, n int) {
	t.Helper()
	before := fingerprint(s)
	total := 0
	for _, o := range outcomes {
		total += o.Weight
	}
	k := 0
	for _, o := range outcomes {
		for range o.Weight {
			p := fixedPicker{k: k}
			m, w := cp.PickChance(&p)
			if w != total || p.n != total || m != o.Move {
				t.Fatalf("game %d after %d decisions: PickChance(%d) = %s of weight %d (asked with %d), want %s of %d\n%s",
					game, n, k, s.MoveString(m), w, p.n, s.MoveString(o.Move), total, s)
			}
			k++
		}
	}
	if fingerprint(s) != before {
		t.Fatalf("game %d: PickChance changed the state", game)
	}
}

// fixedPicker always picks index k and remembers the count it was offered.
type fixedPicker struct{ k, n int }

func (p *fixedPicker) PickIndex(n int) int {
	p.n = n
	return p.k
}

func firstDuplicate(sorted []games.Move) int {
	for i := 1; i < len(sorted); i++ {
		if sorted[i] == sorted[i-1] {
			return i
		}
	}
	return -1
}

// checkCloneIndependence applies m to a clone and to a copy and checks that
// the original is unchanged and that both copies agree.
func checkCloneIndependence(t *testing.T, s games.State, m games.Move, game, n int) {
	t.Helper()
	before := fingerprint(s)
	c := s.Clone()
	c.Apply(m)
	d := c.Clone() // a state of the same game to copy into
	d.CopyFrom(s)
	if fingerprint(d) != before {
		t.Fatalf("game %d after %d decisions: CopyFrom differs from the original", game, n)
	}
	d.Apply(m)
	if got := fingerprint(s); got != before {
		t.Fatalf("game %d after %d decisions: applying %s to a clone changed the original:\nbefore\n%s\nafter\n%s", game, n, s.MoveString(m), before, got)
	}
	if fingerprint(c) != fingerprint(d) {
		t.Fatalf("game %d after %d decisions: Clone and CopyFrom disagree after the same move", game, n)
	}
	// The clone must go on independently: play it further.
	rng := pcg.New(uint64(game), uint64(n))
	for i := 0; i < 5 && !c.IsTerminal(); i++ {
		mv, _, _ := Pick(c, rng, nil, nil)
		c.Apply(mv)
	}
	if got := fingerprint(s); got != before {
		t.Fatalf("game %d after %d decisions: playing on a clone changed the original", game, n)
	}
}

// fingerprint describes a state: its drawing, whose turn, its decisions.
// It is built by appending, not by fmt: the thorough checks take two for
// every decision, and they were most of the suite's time.
func fingerprint(s games.State) string {
	b := make([]byte, 0, 2048)
	b = append(b, s.String()...)
	b = append(b, '|')
	b = strconv.AppendInt(b, int64(s.CurrentPlayer()), 10)
	b = append(b, '|')
	b = strconv.AppendInt(b, int64(s.Plies()), 10)
	b = fmt.Appendf(b, "|%v|", s.Result())
	if s.CurrentPlayer() == games.Chance {
		for _, o := range s.ChanceOutcomes(nil) {
			b = strconv.AppendInt(b, int64(o.Move), 10)
			b = append(b, ':')
			b = strconv.AppendInt(b, int64(o.Weight), 10)
			b = append(b, ' ')
		}
		return string(b)
	}
	for _, m := range s.LegalMoves(nil) {
		b = strconv.AppendInt(b, int64(m), 10)
		b = append(b, ' ')
	}
	return string(b)
}

func determinism(t *testing.T, g games.Game, opts Options) {
	play := func() []games.Move {
		rng := pcg.New(opts.Seed, 99)
		s := g.NewState()
		var record []games.Move
		for !s.IsTerminal() {
			m, _, _ := Pick(s, rng, nil, nil)
			record = append(record, m)
			s.Apply(m)
		}
		return record
	}
	for i := range 3 {
		a, b := play(), play()
		if !slices.Equal(a, b) {
			t.Fatalf("run %d: the same seed gave two different games", i)
		}
	}
}

func zeroAllocPlayout(t *testing.T, g games.Game, opts Options) {
	if testing.CoverMode() != "" || testenv.RaceEnabled {
		t.Skip("allocation counts are not meaningful under -race or -cover")
	}
	start := g.NewState()
	s := g.NewState()
	moves := make([]games.Move, 0, g.MaxLegalMoves())
	outcomes := make([]games.ChanceOutcome, 0, g.MaxLegalMoves())
	rng := pcg.New(0, 0)
	for seed := range uint64(5) {
		allocs := testing.AllocsPerRun(5, func() {
			rng.Seed(opts.Seed, seed)
			s.CopyFrom(start)
			Playout(s, rng, moves, outcomes)
		})
		if allocs != 0 {
			t.Fatalf("a random playout (seed %d) allocates %.1f times; want 0", seed, allocs)
		}
	}
}

// featurePlayout plays s to the end with random decisions, computing both
// seats' features into buf at every position, and returns the positions.
func featurePlayout(s games.State, rng *pcg.Rand, moves []games.Move, outcomes []games.ChanceOutcome, buf []float64) int {
	fs := s.(games.FeatureState)
	n := 0
	for !s.IsTerminal() {
		buf = fs.AppendFeatures(buf[:0], games.Seat0)
		buf = fs.AppendFeatures(buf[:0], games.Seat1)
		n++
		var m games.Move
		m, moves, outcomes = Pick(s, rng, moves, outcomes)
		s.Apply(m)
	}
	return n
}

// zeroAllocFeatures checks that a Featurer game's features are computed
// without allocating, at every position of random games.
func zeroAllocFeatures(t *testing.T, g games.Game, opts Options) {
	if testing.CoverMode() != "" || testenv.RaceEnabled {
		t.Skip("allocation counts are not meaningful under -race or -cover")
	}
	start, s := g.NewState(), g.NewState()
	moves := make([]games.Move, 0, g.MaxLegalMoves())
	outcomes := make([]games.ChanceOutcome, 0, g.MaxLegalMoves())
	buf := make([]float64, 0, len(g.(games.Featurer).Features()))
	rng := pcg.New(0, 0)
	for seed := range uint64(3) {
		allocs := testing.AllocsPerRun(3, func() {
			rng.Seed(opts.Seed, seed)
			s.CopyFrom(start)
			featurePlayout(s, rng, moves, outcomes, buf)
		})
		if allocs != 0 {
			t.Fatalf("features over a random game (seed %d) allocate %.1f times; want 0", seed, allocs)
		}
	}
}

// BenchFeatures computes both seats' features at every position of random
// games of g, and reports positions per second (the random play included:
// compare with BenchPlayouts).
func BenchFeatures(b *testing.B, g games.Game) {
	start, s := g.NewState(), g.NewState()
	moves := make([]games.Move, 0, g.MaxLegalMoves())
	outcomes := make([]games.ChanceOutcome, 0, g.MaxLegalMoves())
	buf := make([]float64, 0, len(g.(games.Featurer).Features()))
	rng := pcg.New(1, 1)
	positions := 0
	b.ReportAllocs()
	for b.Loop() {
		s.CopyFrom(start)
		positions += featurePlayout(s, rng, moves, outcomes, buf)
	}
	b.ReportMetric(float64(positions)/b.Elapsed().Seconds(), "positions/s")
}

// BenchPlayouts plays uniformly random games of g from its start, chance
// included, for b's loop, and reports plies (as the game counts them) and
// decisions per second. It reuses one state and its buffers: a playout
// allocates nothing.
func BenchPlayouts(b *testing.B, g games.Game) {
	start, s := g.NewState(), g.NewState()
	moves := make([]games.Move, 0, g.MaxLegalMoves())
	outcomes := make([]games.ChanceOutcome, 0, g.MaxLegalMoves())
	rng := pcg.New(1, 1)
	decisions, plies := 0, 0
	b.ReportAllocs()
	for b.Loop() {
		s.CopyFrom(start)
		decisions += Playout(s, rng, moves, outcomes)
		plies += s.Plies()
	}
	b.ReportMetric(float64(plies)/b.Elapsed().Seconds(), "plies/s")
	b.ReportMetric(float64(decisions)/b.Elapsed().Seconds(), "decisions/s")
}

// PlayBytes plays s to the end taking every decision, chance outcomes
// included, from a fuzzer's bytes (cycling through them), and fails t as
// soon as the state breaks its invariants, has no decision before the end,
// or goes on past maxDecisions.
func PlayBytes(t *testing.T, s games.State, choices []byte, maxDecisions int) {
	t.Helper()
	if len(choices) == 0 {
		return
	}
	var moves []games.Move
	var outcomes []games.ChanceOutcome
	for i := 0; !s.IsTerminal(); i++ {
		if i > maxDecisions {
			t.Fatalf("not over after %d decisions", i)
		}
		pick := int(choices[i%len(choices)]) + i/len(choices)
		if s.CurrentPlayer() == games.Chance {
			outcomes = s.ChanceOutcomes(outcomes[:0])
			s.Apply(outcomes[pick%len(outcomes)].Move)
		} else {
			moves = s.LegalMoves(moves[:0])
			if len(moves) == 0 {
				t.Fatalf("not over but no moves:\n%s", s)
			}
			s.Apply(moves[pick%len(moves)])
		}
		check(t, s, 0, i+1)
	}
}
