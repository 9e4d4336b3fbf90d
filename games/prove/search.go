package prove

import (
	"context"
	"errors"
	"slices"
	"sync/atomic"
	"time"

	"playtest/games"
	"playtest/internal/interrupt"
)

// Scores, for the seat to move at the search's root position: a win that
// ends the game at ply p (decisions from the root) scores mate − p, a loss
// −(mate − p), a draw, or nothing proven within the horizon, 0. The winner
// prefers the fastest win and the loser the slowest loss, so a full-window
// search gives the distance to the end with perfect play.
const (
	mate     int32 = 10_000
	inf      int32 = mate + 1
	maxPlies       = 1_000 // no line of play in a proof is longer
)

// unbounded says a search with rem decisions left looks to the end of the
// game: no line of a proof is long enough to reach its horizon.
func unbounded(rem int) bool { return rem > maxPlies }

func isWin(v int32) bool  { return v > mate-maxPlies && v <= mate }
func isLoss(v int32) bool { return v < -(mate-maxPlies) && v >= -mate }

// Options tune a Searcher.
type Options struct {
	// Horizon bounds a proof to the decisions it may look ahead: a win or
	// loss found ends within it, and what lies past it counts as nothing
	// proven (0, as a draw). 0 searches to the end of the game.
	Horizon int
	// Entries bounds the transposition table (rounded down to a power of
	// two, at least 1,024): DefaultEntries if 0. It starts small and
	// doubles while half full; at its bound it replaces entries, and never
	// stops the search.
	Entries int
	// Fixed gives the table its full size at once and keeps it: Reset
	// then clears it in place, so a bot that resets its Searcher each game
	// allocates nothing after the first.
	Fixed bool
	// MaxNodes stops the search with ErrBudget past this many positions
	// (0: no bound).
	MaxNodes int64
	// NoSymmetry keys every position apart from its images under the
	// board's symmetries (games.Symmetric).
	NoSymmetry bool
	// NoHooks ignores the game's tactics hooks (games.WinFinder, SafeMover,
	// ThreatOrderer; tests and measurements compare with and without).
	NoHooks bool
	// NoETC turns off enhanced transposition cutoffs.
	NoETC bool
	// History says the rules may end a game by its history (a move cap, a
	// repetition rule): a position's result may then depend on the line
	// that reached it, so none is kept in the table (alpha-beta alone,
	// exact on the tree). Without it, and without a horizon, a position
	// met again on the line is an error (ErrRepeats).
	History bool
	// ChanceUnknown counts a chance node as nothing proven (0) where
	// without it a chance node stops the search with ErrChance.
	ChanceUnknown bool
	// Context stops the search when it ends (ctx.Err()); a signal
	// (interrupt.Stopping) stops it too, within a position.
	Context context.Context
	// Stop, if set, stops the search (context.Canceled) once it is true:
	// a runner's flag that its run is cancelled.
	Stop *atomic.Bool
	// Progress, if set, is told the positions searched once a second.
	Progress func(nodes int64)
}

// DefaultEntries bounds the default table: 16 bytes an entry, 1 GiB.
const DefaultEntries = 1 << 26

// EntryBytes is what a table entry takes.
const EntryBytes = 16

// Errors a search stops with.
var (
	ErrBudget  = errors.New("the search passed its bound on positions")
	ErrRepeats = errors.New("a position repeats on a line of play")
	ErrChance  = errors.New("the game has chance events")
	ErrHidden  = errors.New("the game hides information or has no exact position keys")
)

// Searcher proves positions of one game: an alpha-beta search over scores
// that count the decisions to the end, with a transposition table of
// lower and upper bounds, null windows, enhanced transposition cutoffs,
// and the game's tactics hooks when it has them. A Searcher is not safe
// for concurrent use; its table is kept from one proof to the next.
type Searcher struct {
	opts    Options
	table   *table
	nodes   int64
	err     error
	stop    atomic.Bool
	release func() bool
	next    time.Time

	symmetric, packed, hooks, heuristic bool
	plies                               []scratch
	path                                []uint64
	after                               games.State // the root's child (Keeps, After)
	onPath                              [1 << 12]uint16
}

// scratch is one ply's buffers.
type scratch struct {
	child games.State
	moves []games.Move
	legal []games.Move
	keys  []float64
	key   []byte
}

// New returns a Searcher for the game of s, or ErrHidden when it cannot
// be searched (games.Provable). Close releases its context.
func New(s games.State, opts Options) (*Searcher, error) {
	if !games.Provable(s) {
		return nil, ErrHidden
	}
	if opts.Context == nil {
		opts.Context = context.Background()
	}
	if opts.Entries <= 0 {
		opts.Entries = DefaultEntries
	}
	if opts.History {
		// Nothing is kept: the least table, and nothing to cut with.
		opts.Entries, opts.NoETC = minEntries, true
	}
	se := &Searcher{opts: opts, table: newTable(opts.Entries, opts.Fixed), next: time.Now().Add(time.Second)}
	se.release = context.AfterFunc(opts.Context, func() { se.stop.Store(true) })
	if opts.Context.Err() != nil {
		se.stop.Store(true)
	}
	_, sym := s.(games.Symmetric)
	se.symmetric = sym && !opts.NoSymmetry
	if pk, ok := s.(games.PackedKeyer); ok && !opts.History {
		// The key the table will hold must pack on this board.
		if se.symmetric {
			_, se.packed = pk.PackedCanonicalKey()
		} else {
			_, se.packed = pk.PackedKey()
		}
	}
	_, w := s.(games.WinFinder)
	_, sm := s.(games.SafeMover)
	_, or := s.(games.ThreatOrderer)
	se.hooks = w && sm && or && !opts.NoHooks
	_, se.heuristic = s.(games.Heuristic)
	return se, nil
}

// Close stops watching the context.
func (se *Searcher) Close() { se.release() }

// Reset empties the table back to its starting size, so that the proofs
// after it search as they would on a new Searcher: their work, and so
// whether a bound is passed, no longer depends on the proofs before. A
// table still at its starting size (always, with Fixed) is cleared in
// place.
func (se *Searcher) Reset() {
	t := se.table
	if n := t.start(); len(t.slots) == n {
		clear(t.slots)
		t.used = 0
	} else {
		t.slots = nil
		t.resize(n)
	}
	se.err = nil
}

// Nodes is the positions searched so far.
func (se *Searcher) Nodes() int64 { return se.nodes }

// Kept is the entries in the table.
func (se *Searcher) Kept() int { return se.table.used }

// Symmetric says positions are keyed one per class of the board's
// symmetries.
func (se *Searcher) Symmetric() bool { return se.symmetric }

// Budget gives the search n more positions from now (0: no bound), and
// clears a stop at the old bound, so that one table serves several proofs
// with a bound each.
func (se *Searcher) Budget(n int64) {
	se.opts.MaxNodes = 0
	if n > 0 {
		se.opts.MaxNodes = se.nodes + n
	}
	if se.err == ErrBudget {
		se.err = nil
	}
}

// Err is the error that stopped the search, if any.
func (se *Searcher) Err() error { return se.err }

// stopped checks the search's bounds at a node.
func (se *Searcher) stopped() bool {
	if se.err != nil {
		return true
	}
	switch {
	case se.opts.Stop != nil && se.opts.Stop.Load():
		se.err = context.Canceled
	case se.stop.Load():
		se.err = se.opts.Context.Err()
		if se.err == nil {
			se.err = context.Canceled
		}
	case interrupt.Stopping():
		se.err = context.Canceled
	case se.opts.MaxNodes > 0 && se.nodes > se.opts.MaxNodes:
		se.err = ErrBudget
	}
	if se.nodes&63 == 0 && se.opts.Progress != nil {
		if now := time.Now(); now.After(se.next) {
			se.next = now.Add(time.Second)
			se.opts.Progress(se.nodes)
		}
	}
	return se.err != nil
}

// scratchAt returns ply's buffers, made the first time (from s, a state
// of the game).
func (se *Searcher) scratchAt(ply int, s games.State) *scratch {
	for len(se.plies) <= ply {
		se.plies = append(se.plies, scratch{child: s.Clone()})
	}
	return &se.plies[ply]
}

// key is s's table key.
func (se *Searcher) key(s games.State, sc *scratch) uint64 {
	if se.packed {
		pk := s.(games.PackedKeyer)
		var k uint64
		if se.symmetric {
			k, _ = pk.PackedCanonicalKey()
		} else {
			k, _ = pk.PackedKey()
		}
		return k
	}
	b := sc.key[:0]
	if se.symmetric {
		b = s.(games.Symmetric).AppendCanonicalKey(b)
	} else {
		b = s.(games.Keyer).AppendKey(b)
	}
	sc.key = b
	return hashKey(b)
}

// bounds reads an entry's bounds for a position at ply with rem decisions
// left: node-relative scores made root-relative, and what held for another
// horizon carried over only where it must still hold (a proven result
// within both).
func bounds(d uint64, ply, rem int) (lo, hi int32) {
	lo, hi, erem, _, _ := unpack(d)
	if erem >= rem {
		lo, hi = clip(lo, rem), clip(hi, rem)
	} else {
		if !isWin(lo) {
			lo = -inf
		}
		if !isLoss(hi) {
			hi = inf
		}
	}
	return fromNode(lo, ply), fromNode(hi, ply)
}

// clip is a node-relative score seen within rem decisions: a result
// further away is nothing proven.
func clip(v int32, rem int) int32 {
	switch {
	case isWin(v) && int(mate-v) > rem, isLoss(v) && int(mate+v) > rem:
		return 0
	}
	return v
}

func fromNode(v int32, ply int) int32 {
	switch {
	case isWin(v):
		return v - int32(ply)
	case isLoss(v):
		return v + int32(ply)
	}
	return v
}

func toNode(v int32, ply int) int32 {
	switch {
	case isWin(v):
		return v + int32(ply)
	case isLoss(v):
		return v - int32(ply)
	}
	return v
}

// terminal is a finished game's score for mover, ended at ply.
func terminal(s games.State, mover games.Player, ply int) int32 {
	switch s.Result().Winner {
	case mover:
		return mate - int32(ply)
	case games.NoPlayer:
		return 0
	}
	return -(mate - int32(ply))
}

// negamax is s's score for its mover within (alpha, beta), s unfinished,
// at ply from the root with rem decisions left: exact inside the window,
// a bound outside it.
func (se *Searcher) negamax(s games.State, alpha, beta int32, ply, rem int) int32 {
	se.nodes++
	if se.stopped() || rem == 0 {
		return 0
	}
	if ply >= maxPlies-1 {
		se.err = ErrRepeats // a line this long repeats, or is no proof's
		return 0
	}
	mover := s.CurrentPlayer()
	if mover != games.Seat0 && mover != games.Seat1 {
		if !se.opts.ChanceUnknown {
			se.err = ErrChance
		}
		return 0
	}
	if se.hooks {
		if _, ok := s.(games.WinFinder).WinningMove(); ok {
			return mate - int32(ply+1)
		}
		// No win at once: the mover's fastest is at its next decision.
		if best := mate - int32(ply+2); beta > best {
			if beta = best; alpha >= beta {
				return beta
			}
		}
	}
	sc := se.scratchAt(ply, s)
	if se.opts.History {
		// No table: under rules that read the history, a position's
		// result may depend on the line that reached it.
		best, _ := se.children(s, sc, alpha, beta, ply, rem, 0)
		return best
	}
	check := se.key(s, sc)
	var ttMove uint8
	if d, ok := se.table.probe(check); ok {
		lo, hi := bounds(d, ply, rem)
		switch {
		case lo >= beta:
			return lo
		case hi <= alpha:
			return hi
		case lo == hi:
			return lo
		}
		alpha, beta = max(alpha, lo), min(beta, hi)
		_, _, _, ttMove, _ = unpack(d)
	}
	// Without a horizon, a position met again on this line would make its
	// value depend on the path: the search stops and says so.
	var slot *uint16
	if unbounded(rem) {
		slot = &se.onPath[mix(check)&(1<<12-1)]
		if *slot != 0 && slices.Contains(se.path, check) {
			se.err = ErrRepeats
			return 0
		}
		se.path = append(se.path, check)
		*slot++
	}
	before := se.nodes

	best, move := se.children(s, sc, alpha, beta, ply, rem, ttMove)

	if slot != nil {
		*slot--
		se.path = se.path[:len(se.path)-1]
	}
	if se.err != nil {
		return best
	}
	var lo, hi int32 = -inf, inf
	switch {
	case best <= alpha:
		hi = best
	case best >= beta:
		lo = best
	default:
		lo, hi = best, best
	}
	r := rem
	if unbounded(rem) {
		r = noHorizon
	}
	se.table.store(check, pack(toNode(lo, ply), toNode(hi, ply), r, move, log2(se.nodes-before)))
	return best
}

// children searches s's moves, the most promising first, and returns the
// best score and the best move + 1 (0 if it does not fit a byte).
func (se *Searcher) children(s games.State, sc *scratch, alpha, beta int32, ply, rem int, ttMove uint8) (int32, uint8) {
	mover := s.CurrentPlayer()
	floor := -inf // what a move left out scores
	var moves []games.Move
	if se.hooks && rem >= 2 {
		moves = s.(games.SafeMover).SafeMoves(sc.moves[:0])
		sc.legal = s.LegalMoves(sc.legal[:0])
		if len(sc.legal) > len(moves) {
			floor = -(mate - int32(ply+2))
		}
		if len(moves) == 0 {
			sc.moves = moves
			return floor, 0
		}
	} else {
		moves = s.LegalMoves(sc.moves[:0])
	}
	sc.moves = moves
	se.order(s, sc, moves, ply, ttMove)
	child := sc.child
	if !se.opts.NoETC && rem >= 4 && len(moves) > 1 {
		if v, m, cut := se.etc(s, sc, moves, beta, ply, rem); cut {
			return v, m
		}
	}
	best, bestMove := floor, uint8(0)
	for _, m := range moves {
		child.CopyFrom(s)
		child.Apply(m)
		var v int32
		switch {
		case child.IsTerminal():
			v = terminal(child, mover, ply+1)
		case child.CurrentPlayer() == mover:
			v = se.negamax(child, alpha, beta, ply+1, rem-1)
		default:
			v = -se.negamax(child, -beta, -alpha, ply+1, rem-1)
		}
		if se.err != nil {
			return 0, 0
		}
		if v > best || bestMove == 0 && v == best {
			best, bestMove = v, moveByte(m)
		}
		if v > alpha {
			alpha = v
		}
		if alpha >= beta {
			break
		}
	}
	return best, bestMove
}

// etc looks up each child in the table before searching any (enhanced
// transposition cutoffs): a child already known to refute the window
// ends the search of s at once.
func (se *Searcher) etc(s games.State, sc *scratch, moves []games.Move, beta int32, ply, rem int) (int32, uint8, bool) {
	mover := s.CurrentPlayer()
	child := sc.child
	next := se.scratchAt(ply+1, s)
	for _, m := range moves {
		child.CopyFrom(s)
		child.Apply(m)
		if child.IsTerminal() {
			continue
		}
		d, ok := se.table.probe(se.key(child, next))
		if !ok {
			continue
		}
		lo, hi := bounds(d, ply+1, rem-1)
		v := -hi
		if child.CurrentPlayer() == mover {
			v = lo
		}
		if v >= beta {
			return v, moveByte(m), true
		}
	}
	return 0, 0, false
}

// order puts the table's best move first, then the rest by the game's
// threats (games.ThreatOrderer) or, without them, by the heuristic's value
// of the position each leads to (a win at once first of all).
func (se *Searcher) order(s games.State, sc *scratch, moves []games.Move, ply int, ttMove uint8) {
	switch {
	case se.hooks:
		s.(games.ThreatOrderer).OrderMoves(moves)
	case len(moves) > 1:
		mover := s.CurrentPlayer()
		child := sc.child
		keys := sc.keys[:0]
		for _, m := range moves {
			child.CopyFrom(s)
			child.Apply(m)
			v := 0.0
			switch {
			case child.IsTerminal():
				v = 1e12 * float64(terminal(child, mover, 1))
			case se.heuristic:
				v = child.(games.Heuristic).Evaluate(mover)
			}
			keys = append(keys, v)
		}
		sc.keys = keys
		games.SortByKeys(moves, keys)
	}
	if ttMove != 0 {
		for i, m := range moves {
			if moveByte(m) == ttMove {
				copy(moves[1:i+1], moves[:i])
				moves[0] = m
				break
			}
		}
	}
}

// moveByte is a move + 1 as the table keeps it, 0 when it does not fit.
func moveByte(m games.Move) uint8 {
	if m < 0 || m >= 255 {
		return 0
	}
	return uint8(m + 1)
}

// log2 is the work a count of positions stands for.
func log2(n int64) uint8 {
	var w uint8
	for n > 1 {
		n >>= 1
		w++
	}
	return w
}
