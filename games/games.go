package games

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"playtest/games/pcg"
)

// Move is one decision: a player's move or a chance outcome. Its encoding is
// private to each game; MoveString and ParseMove translate it to the game's
// documented notation.
type Move int32

// Player identifies who decides at a state: a seat (0 or 1), Chance, or
// Terminal when the game is over.
type Player int8

const (
	// Seat0 is the player who makes the first move of the game.
	Seat0 Player = 0
	// Seat1 is the other player.
	Seat1 Player = 1
	// Chance decides random events (shuffles, draws); see ChanceOutcomes.
	Chance Player = -1
	// Terminal is returned by CurrentPlayer once the game has ended.
	Terminal Player = -2
	// NoPlayer is the winner of a drawn game.
	NoPlayer Player = -3
)

// NumSeats is the number of players in every game playtest plays.
const NumSeats = 2

// Opponent returns the other seat.
func (p Player) Opponent() Player { return 1 - p }

// String names the player as reports do.
func (p Player) String() string {
	switch p {
	case Seat0:
		return "seat0"
	case Seat1:
		return "seat1"
	case Chance:
		return "chance"
	case Terminal:
		return "terminal"
	case NoPlayer:
		return "none"
	}
	return fmt.Sprintf("player(%d)", int(p))
}

// ChanceOutcome is one outcome of a chance node with its integer weight; the
// probability of an outcome is its weight over the sum of the weights.
type ChanceOutcome struct {
	Move   Move
	Weight int
}

// Result is how a finished game ended: the winning seat (NoPlayer for a draw)
// and a machine-readable reason such as "capture-threshold" or "max-plies".
type Result struct {
	Winner Player
	Reason string
}

// IsDraw reports whether the game ended without a winner.
func (r Result) IsDraw() bool { return r.Winner == NoPlayer }

// ValueFor is the result from seat's point of view: 1 for a win, 0 for a
// draw, −1 for a loss.
func (r Result) ValueFor(seat Player) float64 {
	switch r.Winner {
	case seat:
		return 1
	case NoPlayer:
		return 0
	}
	return -1
}

// ScoreFor is the result as a score for seat: 1 for a win, ½ for a draw,
// 0 for a loss.
func (r Result) ScoreFor(seat Player) float64 { return (r.ValueFor(seat) + 1) / 2 }

// SampleChance draws one of outcomes with probability proportional to its
// weight, using one number from rng.
func SampleChance(outcomes []ChanceOutcome, rng interface{ IntN(int) int }) Move {
	total := 0
	for _, o := range outcomes {
		total += o.Weight
	}
	r := rng.IntN(total)
	for _, o := range outcomes {
		if r < o.Weight {
			return o.Move
		}
		r -= o.Weight
	}
	panic("games: SampleChance without outcomes")
}

// DrawChance draws a chance outcome of s by weight with one number from
// rng, the same draw as SampleChance's from ChanceOutcomes' list: through
// PickChance when s is a ChancePicker (without the list), else from the
// outcomes listed into buf, which it returns for reuse.
func DrawChance(s State, rng *pcg.Rand, buf []ChanceOutcome) (Move, []ChanceOutcome) {
	if cp, ok := s.(ChancePicker); ok {
		m, w := cp.PickChance(UniformPicker{Rng: rng})
		if w == 0 {
			panic("games: DrawChance without outcomes")
		}
		return m, buf
	}
	buf = s.ChanceOutcomes(buf[:0])
	return SampleChance(buf, rng), buf
}

// Reasons shared by several games. Games may define their own.
const (
	ReasonMaxPlies    = "max-plies"
	ReasonMaxTurns    = "max-turns"
	ReasonMaxGames    = "max-games"
	ReasonRepetition  = "repetition"
	ReasonNoLegalMove = "no-legal-move"
)

// Metrics of the pie rule, reported by games that have one: whether the
// second player swapped, and whether it (seat 1, the chooser) won after
// keeping or after swapping. Reports and warnings read them by these names.
const (
	MetricPieSwap          = "pie.swap"
	MetricPieKeepSeat1Wins = "pie.keep.seat1_wins"
	MetricPieSwapSeat1Wins = "pie.swap.seat1_wins"
)

// Outcome says which results a reason can end a game with.
type Outcome int8

// The outcomes of a reason.
const (
	Decisive Outcome = iota + 1 // a seat wins
	Drawn                       // nobody wins
	Either                      // either, by the position
)

// ReasonDoc declares one reason a game can end for, and with what result.
type ReasonDoc struct {
	Name    string
	Outcome Outcome
}

// Reasoner is implemented by games that declare every reason their games
// end for (the conformance suite checks each finished game against the
// list). A run's log is checked against it when it is read back.
type Reasoner interface {
	Reasons() []ReasonDoc
}

// CheckResult checks a finished game's result against the declared
// reasons: a known reason, a winner that is a seat for a decisive one and
// nobody for a drawn one.
func CheckResult(reasons []ReasonDoc, r Result) error {
	for _, d := range reasons {
		if d.Name != r.Reason {
			continue
		}
		switch {
		case r.Winner != Seat0 && r.Winner != Seat1 && r.Winner != NoPlayer:
			return fmt.Errorf("winner %d is neither a seat (0, 1) nor a draw (%d)", r.Winner, NoPlayer)
		case d.Outcome == Decisive && r.IsDraw():
			return fmt.Errorf("a draw by %s, which always has a winner", r.Reason)
		case d.Outcome == Drawn && !r.IsDraw():
			return fmt.Errorf("%s wins by %s, which is always a draw", r.Winner, r.Reason)
		}
		return nil
	}
	names := make([]string, len(reasons))
	for i, d := range reasons {
		names[i] = d.Name
	}
	return fmt.Errorf("reason %q is not one the game ends for (%s)", r.Reason, strings.Join(names, ", "))
}

// IsStalled reports whether a draw reason is a move, turn or game cap:
// such games are "stalled" and counted separately from other draws in every
// report.
func IsStalled(reason string) bool {
	return reason == ReasonMaxPlies || reason == ReasonMaxTurns || reason == ReasonMaxGames
}

// Game is the immutable rule set of one variant. It is safe for concurrent
// use by many goroutines.
type Game interface {
	// Name is the catalog name of the game, e.g. "stacktics".
	Name() string
	// NewState returns the initial state of a game. It allocates; workers
	// call it once per game, or once and then CopyFrom into it.
	NewState() State
	// MaxLegalMoves bounds the number of legal moves (or chance outcomes)
	// at any state, so callers can size their buffers once.
	MaxLegalMoves() int
}

// State is one game in progress. It is not safe for concurrent use.
//
// Implementations keep their data in fixed-size arrays (or in slices whose
// capacity is reused), so that LegalMoves, Apply, CopyFrom and a whole random
// playout allocate nothing.
type State interface {
	// CurrentPlayer is the seat to decide, Chance, or Terminal.
	CurrentPlayer() Player
	// LegalMoves appends the current player's legal moves to buf and returns
	// it. It appends nothing at a chance node or a terminal state.
	LegalMoves(buf []Move) []Move
	// ChanceOutcomes appends the outcomes of a chance node with their
	// weights; it appends nothing elsewhere.
	ChanceOutcomes(buf []ChanceOutcome) []ChanceOutcome
	// Apply plays a legal move or chance outcome. Applying anything else is
	// a programming error and may panic.
	Apply(m Move)
	// Clone returns an independent copy (it allocates).
	Clone() State
	// CopyFrom makes the receiver an independent copy of src, which must be
	// a state of the same game, reusing the receiver's memory.
	CopyFrom(src State)
	// IsTerminal reports whether the game has ended.
	IsTerminal() bool
	// Result is the outcome of a finished game.
	Result() Result
	// Plies is the number of moves played so far (as the game counts them
	// for its move cap).
	Plies() int
	// MoveString writes a move in the game's notation.
	MoveString(m Move) string
	// ParseMove reads a legal move of the current state in the game's
	// notation, or at a chance node one of its outcomes (replays read
	// recorded games with it).
	ParseMove(text string) (Move, error)
	// String draws the position for humans.
	String() string
}

// Determinizer is implemented by states with hidden information. Determinize
// re-samples, in place, everything the observer cannot see, from the
// distribution consistent with what the observer has seen; what the observer
// can see is left unchanged.
type Determinizer interface {
	Determinize(observer Player, rng *pcg.Rand)
}

// Inferrer is implemented by states whose hidden part the seats' own moves
// give evidence of (Capstone's goals, shown by where a seat put its
// pieces): an opponent model weighs each hidden part Determinize could
// sample by exp(strength × its evidence), strength learned from self-play
// (playtest learn --kind opponent).
type Inferrer interface {
	Determinizer
	// Belief returns what observer may believe of the hidden part at this
	// position, weighed at strength (0: as Determinize samples it), to
	// re-sample the worlds of one decision; it may reuse the memory of
	// reuse, a Belief it returned before (or nil).
	Belief(observer Player, strength float64, reuse Belief) Belief
	// Evidence returns the evidence, from observer's view, of what is
	// hidden from it as it truly is, and appends to dst the chance of each
	// evidence 0, 1, … over what Determinize samples (the prior); ok is
	// false while nothing of the kind is hidden from observer.
	Evidence(observer Player, dst []float64) (truth int, prior []float64, ok bool)
}

// Belief re-samples, in place, what its observer cannot see in a copy of
// the position it was made at (Inferrer.Belief).
type Belief interface {
	Determinize(s State, rng *pcg.Rand)
}

// Hasher is implemented by states with a hash of the position (Zobrist
// keys: board, player to move, and anything else that decides the legal
// moves and the result), for search bots' transposition tables.
type Hasher interface {
	Hash() uint64
}

// MoveAppender is implemented by states that write a move's notation
// into the caller's buffer: AppendMove(b, m) appends exactly
// MoveString(m), allocating nothing when b has room (the conformance
// suite checks both), so a restriction over the notation (a player who
// never captures: forbid 'x') is matched at every node of a search
// without garbage.
type MoveAppender interface {
	AppendMove(b []byte, m Move) []byte
}

// Restriction is a rule a player may be held to for restricted play (what
// a mechanic is worth is what a player restricted from it loses; Jaffe et
// al. 2012): Allowed reports whether the player to move may play m in s.
// It is asked only at the restricted player's own decisions, must not
// modify s and must allocate nothing; when it allows none of a decision's
// moves the restriction is lifted for that decision.
type Restriction struct {
	Name    string
	Doc     string
	Allowed func(s State, m Move) bool
}

// Restricter is implemented by games that name restrictions a player may
// be held to (a players: entry's restrict: {name: NAME}): never swap under
// the pie rule, never play a 4-card, a goal stacked without choosing its
// order.
type Restricter interface {
	Restrictions() []Restriction
}

// Coverer is implemented by the states of games played on a board of at
// most 64 cells: Occupied has a bit set for each cell holding a piece,
// Cells is the board's number of cells. Board coverage (the share of the
// cells a game ever used) is measured through it; games without a board
// (cards laid out in a pyramid) do not implement it.
type Coverer interface {
	Occupied() uint64
	Cells() int
}

// Sided is implemented by games whose seats command named sides (armies,
// colours). Sides lists their names in order, e.g. ["A", "B"]. A Sided
// game may also say what a side is called (SideWorder).
type Sided interface {
	Sides() []string
}

// SideWorder is implemented by Sided games whose sides have a name of
// their own: SideWord returns it ("army"); others' are "side".
type SideWorder interface {
	SideWord() string
}

// SideState is implemented by the states of Sided games. SideOf returns the
// index into Sides of the side a seat commands (after any swap).
type SideState interface {
	SideOf(seat Player) int
}

// Heuristic is implemented by states with a documented static evaluation.
// Evaluate scores the position from seat's point of view: higher is better.
// It must not modify the state.
type Heuristic interface {
	Evaluate(seat Player) float64
}

// ScoreKeeper is implemented by heuristics that can keep their score up
// to date as moves are applied, at a small cost per move, so that
// Evaluate then costs next to nothing. KeepScore turns that on for the
// state and every state copied from it afterwards: a search calls it on
// its own copy of the root, and random playouts, which never evaluate,
// never pay for it. Evaluate gives the same value either way.
type ScoreKeeper interface {
	Heuristic
	KeepScore()
}

// ZeroSumHeuristic is implemented by heuristics whose ZeroSum reports
// true when Evaluate(Seat1) is exactly −Evaluate(Seat0) in every position
// (the conformance suite checks it): a search then evaluates once.
type ZeroSumHeuristic interface {
	Heuristic
	ZeroSum() bool
}

// Forcing is implemented by the states of games with forcing moves, such
// as captures: ForcingMoves appends the current player's forcing moves to
// buf, the most valuable first (what they win), and returns it; nothing at
// a chance node or when none exists. A search extends its horizon through
// them (quiescence), so that it never judges a position in the middle of
// an exchange; a game without them keeps the plain horizon.
type Forcing interface {
	ForcingMoves(buf []Move) []Move
}

// PieDecider is implemented by the states of games with a pie rule:
// PieDecision reports whether the decision to make now is the pie choice
// (keep the sides, or take the first player's).
type PieDecider interface {
	PieDecision() bool
}

// ChanceOwner is implemented by states whose chance events belong to a
// seat (a card drawn into a hand, a goal drawn): ChanceFor names the seat
// the pending chance event is for, or NoPlayer. Move lists (playtest
// replay --moves) put the outcome on that seat's line.
type ChanceOwner interface {
	ChanceFor() Player
}

// SetupDecider is implemented by states whose players make setup
// decisions before play, such as Capstone's goal order: InSetup reports
// whether the decision to make now is one. The runner's opening statistics
// take the first decision after setup, so a private setup choice is never
// reported as the game's opening.
type SetupDecider interface {
	InSetup() bool
}

// ChanceFree is implemented by states whose ChanceFree reports true when
// the game has no chance and no hidden information from this state on: the
// same moves always lead to the same positions (the conformance suite
// checks that no chance decision follows). A search then reuses what it
// learned of a position, such as its legal moves.
type ChanceFree interface {
	ChanceFree() bool
}

// MetricKind says how reports aggregate a metric.
type MetricKind uint8

const (
	// MetricRate is a 0/1 event: reports give its rate with a confidence
	// interval, over the games that reported it.
	MetricRate MetricKind = iota
	// MetricValue is a number: reports give its mean and spread.
	MetricValue
)

// Metric is one game-specific figure reported by a finished game. A metric
// that does not apply to a game (say, a pie-rule choice when the rule is
// off) is simply not reported, so rates are conditional on applicability.
type Metric struct {
	Name  string
	Kind  MetricKind
	Value float64
}

// Metrics is implemented by states that report game-specific figures once
// the game has ended.
type Metrics interface {
	AppendMetrics(dst []Metric) []Metric
}

// Rate is a convenience constructor for a 0/1 metric.
func Rate(name string, happened bool) Metric {
	v := 0.0
	if happened {
		v = 1
	}
	return Metric{Name: name, Kind: MetricRate, Value: v}
}

// Value is a convenience constructor for a numeric metric.
func Value(name string, v float64) Metric {
	return Metric{Name: name, Kind: MetricValue, Value: v}
}

// InvariantChecker is implemented by states that can verify their own
// invariants (piece conservation, cached data matching the position). The
// conformance suite calls it after every move of its random games.
type InvariantChecker interface {
	CheckInvariants() error
}

// RandomMover is implemented by states that can draw a uniformly random
// legal move without listing the moves (for instance by counting bitboard
// destinations). Random playouts use it when it is there; its distribution
// must equal a uniform pick from LegalMoves, which the conformance suite
// checks.
type RandomMover interface {
	RandomMove(rng *pcg.Rand) Move
}

// MovePicker is implemented by states that can hand out their k-th legal
// move without listing them all (for instance by counting bitboard
// destinations).
type MovePicker interface {
	// PickMove counts the legal moves (n), asks picker for an index k in
	// [0, n), and returns LegalMoves(nil)[k] and n; with no legal move it
	// returns n = 0 without asking. The conformance suite checks it
	// against LegalMoves.
	PickMove(picker IndexPicker) (m Move, n int)
}

// ChancePicker is implemented by states that can hand out a chance
// outcome without listing them all.
type ChancePicker interface {
	// PickChance asks picker for an index k in [0, w), w the total weight
	// of the chance outcomes, and returns the outcome of ChanceOutcomes(nil)
	// whose share of the weights, laid end to end in list order, holds k,
	// and w; at a state chance does not decide it returns w = 0 without
	// asking. The conformance suite checks it against ChanceOutcomes.
	PickChance(picker IndexPicker) (m Move, w int)
}

// IndexPicker chooses one of n legal moves by its index in LegalMoves
// order (a bot that needs nothing but the count, such as the random bot).
type IndexPicker interface {
	PickIndex(n int) int
}

// UniformPicker picks an index uniformly with its generator, drawing
// exactly as a uniform pick from the list of legal moves does
// (Rng.IntN(n)).
type UniformPicker struct{ Rng *pcg.Rand }

// PickIndex returns Rng.IntN(n).
func (p UniformPicker) PickIndex(n int) int { return p.Rng.IntN(n) }

// Perfter is implemented by states whose perft is defined by their game's
// spec rather than as the count of single decisions: Capstone counts whole
// turns (place, move, capstone). Perft(0) is 1; a finished game counts 0.
type Perfter interface {
	Perft(depth int) uint64
}

// Keyer is implemented by states of perfect-information games that an
// exact solver can enumerate. AppendKey appends the position's exact key:
// everything that decides the legal moves, the player to move and the
// results to come, but not the history (plies played, positions seen) and
// not what only metrics record. Two states with the same key must be
// interchangeable once the history-dependent endings are off (see
// SolverRules).
// The key of a game's positions has one length. SetKey makes the receiver
// the position a key describes (a key AppendKey wrote for a state of the
// same game), its history starting afresh there.
type Keyer interface {
	AppendKey(dst []byte) []byte
	SetKey(key []byte)
}

// Symmetric is implemented by keyed states (Keyer) whose positions have
// images of the same value under the board's symmetries (its reflections
// and rotations, where the rules treat every direction alike): an exact
// solver keeps one position of each class. AppendCanonicalKey appends the
// key of the class's canonical position, the same for every image of the
// position: a key SetKey accepts, giving a position with the same player
// to move, as many legal moves and the same result to come.
type Symmetric interface {
	AppendCanonicalKey(dst []byte) []byte
}

// SolverRules is implemented by the rules of games that can be solved
// exactly. ForSolver returns a copy of the rules with every ending that
// depends on the history rather than the position (repetition, move caps)
// turned off: the solver treats endless play as a draw itself, which is
// what a repetition rule enforces, and reports distances so that a move
// cap can be judged against them.
type SolverRules interface {
	ForSolver() Rules
	// MoveCap is the move cap the variant is played under (0: none), in
	// the decisions the solver counts, so it can say whether perfect play
	// fits under it.
	MoveCap() int
}

// SetsAside reports whether the solver's rules (ForSolver) differ from
// rules: the variant ends games by their history (a repetition rule, a
// move cap), which a proof does not see.
func SetsAside(rules Rules, sr SolverRules) bool {
	a, err1 := json.Marshal(rules)
	b, err2 := json.Marshal(sr.ForSolver())
	return err1 != nil || err2 != nil || !bytes.Equal(a, b)
}

// PerftStarter is implemented by games whose perft starts from a position
// other than NewState, such as one whose chance events (goal draws, deals)
// are fixed by a seed. The returned line describes that position and is
// printed before the counts.
type PerftStarter interface {
	PerftStart(seed uint64) (State, string)
}
