package solve

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"playtest/games"
	"playtest/sim/bots"
	"playtest/variants"
)

// Proofs by search: where the position graph is too large to enumerate,
// an alpha-beta search over exact (and, where the board has symmetries,
// canonical) keys still proves a game's value when good moves are tried
// first: two null-window searches ask "can seat 0 force a win?" and "can
// seat 1?", and neither answer needs the whole graph (5,5,4's draw takes a
// few million positions where the graph has billions). It gives the value
// alone, and each opening's, without distances or lines. Positions that
// repeat would make a value depend on the path to it, so a search that
// meets one on its path stops and says so: the full solve (Run) handles
// repetition.

// DefaultSearchEntries bounds a search's table of proven bounds.
const DefaultSearchEntries = 10_000_000

// SearchOptions tune a proof by search.
type SearchOptions struct {
	// MaxEntries bounds the table of proven bounds (DefaultSearchEntries
	// if 0): past it the search stops with a *TooLargeError.
	MaxEntries int
	// Progress, if set, is told the positions searched once a second.
	Progress func(nodes int64)
	// NoOpenings proves the start's value alone, not each opening's.
	NoOpenings bool
	// NoSymmetry keys every position apart from its symmetric images.
	NoSymmetry bool
}

// searcher is one proof: its table of bounds (by key: bit 2 a lower
// bound, bit 3 an upper one, the low bits the value + 1, for seat 0) and
// the keys on the current path.
type searcher struct {
	ctx       context.Context
	pace      *pace
	table     map[string]int8
	max       int
	nodes     int64
	path      map[string]bool
	symmetric bool
	progress  func(int64)
	err       error
}

const (
	boundLower int8 = 4
	boundUpper int8 = 8
)

// errRepeats stops a search that meets a position again on its path.
var errRepeats = &UnsolvableError{"a position repeats on a line of play: a proof by search would depend on the path; solve exactly without --search (it counts endless play a draw)"}

// Search proves the variant's value by alpha-beta search, and each
// opening's, and returns them in the shape of a solve (Nodes the
// positions searched, Positions the bounds kept; no distances or lines).
func Search(ctx context.Context, cfg *variants.Config, opts SearchOptions) (*Result, error) {
	g, sr, err := solverGame(cfg)
	if err != nil {
		return nil, err
	}
	start := g.NewState()
	if err := checkSolvable(start); err != nil {
		return nil, err
	}
	_, symmetric := start.(games.Symmetric)
	symmetric = symmetric && !opts.NoSymmetry
	se := newSearcher(ctx, cmp.Or(opts.MaxEntries, DefaultSearchEntries), symmetric)
	se.progress = opts.Progress
	defer se.pace.done()
	begin := time.Now()
	value, err := se.value(start)
	if err != nil {
		return nil, err
	}
	res := &Result{Schema: Schema, Game: cfg.Definition.Name, Variant: cfg.Name, Label: cfg.Label(), Source: cfg.Source, MoveCap: sr.MoveCap(),
		Value: seatValue(value), UpToSymmetry: symmetric, PieRule: pieRule(g), Searched: true}
	for _, m := range start.LegalMoves(nil) {
		if opts.NoOpenings {
			break
		}
		child := start.Clone()
		child.Apply(m)
		v, err := se.value(child)
		if err != nil {
			return nil, err
		}
		o := Opening{Move: start.MoveString(m), Value: outcomeFor(v, games.Seat0)}
		// The replies are proven one by one only when they are few (a pie
		// rule's keep and swap): each is a proof of its own.
		if replies := child.LegalMoves(nil); !child.IsTerminal() && len(replies) <= MaxListedReplies {
			o.Replier = child.CurrentPlayer().String()
			o.AllReplies = len(replies)
			for _, rm := range replies {
				grand := child.Clone()
				grand.Apply(rm)
				rv, err := se.value(grand)
				if err != nil {
					return nil, err
				}
				out := outcomeFor(rv, child.CurrentPlayer())
				if out == Win {
					o.WinningReplies++
				}
				o.Replies = append(o.Replies, Reply{Move: child.MoveString(rm), Value: out})
			}
		}
		res.Openings = append(res.Openings, o)
	}
	res.Nodes, res.Positions = se.nodes, len(se.table)
	res.Note = fmt.Sprintf("Proven by alpha-beta search (%s positions searched, %s bounds kept): the value with perfect play, not how long it takes.", bots.Thousands(int(se.nodes)), bots.Thousands(len(se.table)))
	if res.PieRule {
		res.Note += res.pieNote()
	}
	res.Seconds = time.Since(begin).Seconds()
	return res, nil
}

// newSearcher returns a searcher keeping at most max bounds.
func newSearcher(ctx context.Context, max int, symmetric bool) *searcher {
	return &searcher{ctx: ctx, pace: newPace(ctx), table: map[string]int8{}, max: max, path: map[string]bool{}, symmetric: symmetric}
}

// value is s's value for seat 0 (1, 0 or −1): whether seat 0 can force a
// win, then whether seat 1 can.
func (se *searcher) value(s games.State) (int, error) {
	v := se.search(s, 0, 1)
	if v <= 0 && se.err == nil {
		v = se.search(s, -1, 0)
	}
	return v, se.err
}

// search is the alpha-beta minimax value of s for seat 0 within
// (alpha, beta): exact inside, a bound outside.
func (se *searcher) search(s games.State, alpha, beta int) int {
	if se.err != nil {
		return 0
	}
	se.nodes++
	if se.pace.stopped() {
		se.err = se.ctx.Err()
		return 0
	}
	if se.pace.due() && se.progress != nil {
		se.progress(se.nodes)
	}
	if s.IsTerminal() {
		return seat0Score(s.Result())
	}
	p := s.CurrentPlayer()
	if p != games.Seat0 && p != games.Seat1 {
		se.err = &UnsolvableError{"the game has chance events: only games without chance can be solved exactly"}
		return 0
	}
	key := se.key(s)
	if e, ok := se.table[key]; ok {
		v := int(e&3) - 1
		if e&boundLower != 0 && e&boundUpper != 0 || e&boundLower != 0 && v >= beta || e&boundUpper != 0 && v <= alpha {
			return v
		}
	}
	if se.path[key] {
		se.err = errRepeats
		return 0
	}
	se.path[key] = true
	defer delete(se.path, key)
	maximize := p == games.Seat0
	children := se.ordered(s, p)
	best := 1
	if maximize {
		best = -1
	}
	a, b := alpha, beta
	for _, c := range children {
		v := se.search(c, a, b)
		if maximize {
			best, a = max(best, v), max(a, v)
		} else {
			best, b = min(best, v), min(b, v)
		}
		if a >= b {
			break
		}
	}
	if se.err == nil {
		se.store(key, best, alpha, beta)
	}
	return best
}

// ordered returns s's children, the mover's best first by the game's
// heuristic (a win at once first of all), so that the first move tried
// is usually the one that proves the bound.
func (se *searcher) ordered(s games.State, p games.Player) []games.State {
	type child struct {
		s games.State
		v float64
	}
	var kids []child
	for _, m := range s.LegalMoves(nil) {
		c := s.Clone()
		c.Apply(m)
		v := 0.0
		switch {
		case c.IsTerminal():
			v = 1e9 * float64(seat0Score(c.Result()))
			if p == games.Seat1 {
				v = -v
			}
		default:
			if h, ok := c.(games.Heuristic); ok {
				v = h.Evaluate(p)
			}
		}
		kids = append(kids, child{c, v})
	}
	slices.SortStableFunc(kids, func(x, y child) int { return cmp.Compare(y.v, x.v) })
	out := make([]games.State, len(kids))
	for i, k := range kids {
		out[i] = k.s
	}
	return out
}

// key is s's key in the table: canonical where the board has symmetries.
func (se *searcher) key(s games.State) string {
	if se.symmetric {
		return string(s.(games.Symmetric).AppendCanonicalKey(nil))
	}
	return string(s.(games.Keyer).AppendKey(nil))
}

// store keeps what a search of (alpha, beta) proved of a position.
func (se *searcher) store(key string, v, alpha, beta int) {
	if len(se.table) >= se.max {
		se.err = &TooLargeError{Max: se.max, Searched: true}
		return
	}
	e := int8(v + 1)
	switch {
	case v <= alpha:
		e |= boundUpper
	case v >= beta:
		e |= boundLower
	default:
		e |= boundLower | boundUpper
	}
	se.table[key] = e
}

// seat0Score is a finished game's result for seat 0: 1, 0 or −1.
func seat0Score(r games.Result) int { return int(r.ValueFor(games.Seat0)) }

// seatValue names a value for seat 0 as the game's ("seat 0 wins").
func seatValue(v int) string {
	value, _ := gameValue(outcomeFor(v, games.Seat0), nil, games.Seat0)
	return value
}

// outcomeFor is value v (for seat 0) as an outcome for who.
func outcomeFor(v int, who games.Player) string {
	if who == games.Seat1 {
		v = -v
	}
	switch v {
	case 1:
		return Win
	case -1:
		return Loss
	}
	return Draw
}
