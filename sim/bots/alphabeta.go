package bots

import (
	"math"
	"sync/atomic"

	"playtest/games"
	"playtest/games/pcg"
)

// AlphaBetaParams are the parameters of the alphabeta bot.
type AlphaBetaParams struct {
	Nodes int     `yaml:"nodes" json:"nodes" default:"20000" doc:"nodes searched per decision (100 to 100000000): the budget, never wall-clock time; the deepest fully searched depth decides"`
	Depth int     `yaml:"depth" json:"depth" default:"0" doc:"deepest iteration of iterative deepening, in decisions (0: as deep as the node budget allows, up to 64)"`
	Noise float64 `yaml:"noise" json:"noise" default:"0" doc:"play a uniformly random move among those within noise of the best at the root, in the heuristic's units (0: always the best: a deterministic bot)"`
}

// DefaultAlphaBetaParams returns the defaults.
func DefaultAlphaBetaParams() *AlphaBetaParams { return &AlphaBetaParams{Nodes: 20000} }

// Validate checks the parameters.
func (p *AlphaBetaParams) Validate() error {
	switch {
	case p.Nodes < 100 || p.Nodes > 100000000:
		return games.KnobErrorf("nodes", "must be between 100 and 100000000, got %d", p.Nodes)
	case p.Depth < 0 || p.Depth > maxSearchDepth:
		return games.KnobErrorf("depth", "must be between 0 and %d, got %d", maxSearchDepth, p.Depth)
	case p.Noise < 0 || p.Noise > 1e9:
		return games.KnobErrorf("noise", "must be between 0 and 1e9, got %g", p.Noise)
	}
	return nil
}

const (
	maxSearchDepth = 64
	ttBits         = 16
	// winValue is the value of a won game; quicker wins score higher.
	winValue = 1e6
)

// ttEntry is one transposition table slot.
type ttEntry struct {
	key   uint64
	value float64
	best  games.Move
	depth int8
	bound int8 // exact, lower or upper
}

const (
	boundExact = iota
	boundLower
	boundUpper
)

// AlphaBeta is a minimax search with alpha-beta pruning, for games without
// hidden information (Stacktics). It deepens iteratively, one decision at a
// time, until its node budget runs out, and plays the best move of the
// deepest depth it finished. The value is from its seat's point of view, so
// turns of several decisions (Capstone) and chance nodes (weighted means,
// without pruning) are handled; the evaluation at the horizon is the game's
// documented heuristic, the bot's seat's minus the other's. A transposition
// table keyed by the state's Zobrist hash (games.Hasher) stores bounds and
// best moves, which are searched first. Tables, move buffers and scratch
// states are the bot's, reused for every decision.
type AlphaBeta struct {
	params   AlphaBetaParams
	seat     games.Player
	rng      *pcg.Rand
	tt       []ttEntry
	states   []games.State
	moves    [][]games.Move
	outcomes [][]games.ChanceOutcome
	nodes    int
	aborted  bool
	stop     *atomic.Bool
	// The root moves and values of the depth in progress and of the
	// deepest finished one.
	rootValues, lastValues []float64
	lastOrder              []games.Move
}

// NewAlphaBeta returns an alphabeta bot.
func NewAlphaBeta(p AlphaBetaParams) *AlphaBeta { return &AlphaBeta{params: p} }

// Reset starts a new game; the transposition table is cleared.
func (b *AlphaBeta) Reset(seat games.Player, rng *pcg.Rand) {
	b.seat, b.rng = seat, rng
	clear(b.tt)
}

// Choose runs the iterative deepening search.
func (b *AlphaBeta) Choose(s games.State, legal []games.Move) games.Move {
	if len(legal) == 1 {
		return legal[0]
	}
	if b.tt == nil {
		b.tt = make([]ttEntry, 1<<ttBits)
	}
	if len(b.states) == 0 {
		for range maxSearchDepth + 1 {
			b.states = append(b.states, s.Clone())
			b.moves = append(b.moves, nil)
			b.outcomes = append(b.outcomes, nil)
		}
	}
	maxDepth := b.params.Depth
	if maxDepth == 0 {
		maxDepth = maxSearchDepth
	}
	b.nodes, b.aborted = 0, false
	best := legal[0]
	for depth := 1; depth <= maxDepth; depth++ {
		m, ok := b.root(s, legal, depth, best)
		if !ok {
			break
		}
		best = m
		b.lastOrder = append(b.lastOrder[:0], b.moves[0]...)
		b.lastValues = append(b.lastValues[:0], b.rootValues...)
	}
	if b.params.Noise > 0 {
		return b.noisy(best)
	}
	return best
}

// SetStop makes Choose return early (with the best move of the deepest
// finished depth) once *stop is true.
func (b *AlphaBeta) SetStop(stop *atomic.Bool) { b.stop = stop }

// noisy picks uniformly among the root moves of the deepest finished depth
// within noise of the best value (their values are exact: the root's window
// stays noise below the best).
func (b *AlphaBeta) noisy(best games.Move) games.Move {
	top := math.Inf(-1)
	for _, v := range b.lastValues {
		top = max(top, v)
	}
	chosen, seen := best, 0
	for i, v := range b.lastValues {
		if v >= top-b.params.Noise {
			seen++
			if b.rng.IntN(seen) == 0 {
				chosen = b.lastOrder[i]
			}
		}
	}
	return chosen
}

// root searches the root moves to depth, the previous best first; ok is
// false when the budget ran out (never at depth 1, so there is always a
// move).
func (b *AlphaBeta) root(s games.State, legal []games.Move, depth int, first games.Move) (games.Move, bool) {
	best, bestValue := first, math.Inf(-1)
	alpha, beta := math.Inf(-1), math.Inf(1)
	order := append(b.moves[0][:0], first)
	for _, m := range legal {
		if m != first {
			order = append(order, m)
		}
	}
	b.moves[0] = order
	b.rootValues = b.rootValues[:0]
	for _, m := range order {
		child := b.states[1]
		child.CopyFrom(s)
		child.Apply(m)
		v := b.search(child, depth-1, 1, alpha, beta)
		if b.aborted && depth > 1 {
			return best, false
		}
		b.rootValues = append(b.rootValues, v)
		if v > bestValue {
			best, bestValue = m, v
		}
		alpha = max(alpha, v-b.params.Noise)
	}
	return best, true
}

// search returns the value of s for the bot's seat, searched depth more
// decisions, ply decisions below the root.
func (b *AlphaBeta) search(s games.State, depth, ply int, alpha, beta float64) float64 {
	b.nodes++
	if b.nodes > b.params.Nodes || b.nodes&1023 == 0 && b.stop != nil && b.stop.Load() {
		b.aborted = true
	}
	if s.IsTerminal() {
		return s.Result().ValueFor(b.seat) * (winValue - float64(ply))
	}
	if depth <= 0 || ply >= maxSearchDepth || b.aborted {
		return b.evaluate(s)
	}
	p := s.CurrentPlayer()
	if p == games.Chance {
		outs := s.ChanceOutcomes(b.outcomes[ply][:0])
		b.outcomes[ply] = outs
		total, sum := 0, 0.0
		for _, o := range outs {
			child := b.states[ply+1]
			child.CopyFrom(s)
			child.Apply(o.Move)
			sum += float64(o.Weight) * b.search(child, depth-1, ply+1, math.Inf(-1), math.Inf(1))
			total += o.Weight
		}
		return sum / float64(total)
	}
	var entry *ttEntry
	var key uint64
	hashMove := games.Move(-1)
	if h, ok := s.(games.Hasher); ok {
		key = h.Hash()
		entry = &b.tt[key&(1<<ttBits-1)]
		if entry.key == key {
			hashMove = entry.best
			if int(entry.depth) >= depth {
				switch {
				case entry.bound == boundExact:
					return entry.value
				case entry.bound == boundLower && entry.value >= beta:
					return entry.value
				case entry.bound == boundUpper && entry.value <= alpha:
					return entry.value
				}
			}
		}
	}
	moves := s.LegalMoves(b.moves[ply][:0])
	b.moves[ply] = moves
	for i, m := range moves { // the table's best move first
		if m == hashMove {
			moves[0], moves[i] = moves[i], moves[0]
			break
		}
	}
	maximize := p == b.seat
	a0, b0 := alpha, beta
	best := math.Inf(1)
	if maximize {
		best = math.Inf(-1)
	}
	bestMove := moves[0]
	for _, m := range moves {
		child := b.states[ply+1]
		child.CopyFrom(s)
		child.Apply(m)
		v := b.search(child, depth-1, ply+1, alpha, beta)
		if maximize && v > best || !maximize && v < best {
			best, bestMove = v, m
		}
		if maximize {
			alpha = max(alpha, v)
		} else {
			beta = min(beta, v)
		}
		if alpha >= beta || b.aborted {
			break
		}
	}
	if entry != nil && !b.aborted {
		bound := int8(boundExact)
		switch {
		case best <= a0:
			bound = boundUpper
		case best >= b0:
			bound = boundLower
		}
		*entry = ttEntry{key: key, value: best, best: bestMove, depth: int8(depth), bound: bound}
	}
	return best
}

// evaluate is the heuristic at the horizon: the bot's seat's evaluation
// minus the other seat's (a game without a heuristic evaluates to 0).
func (b *AlphaBeta) evaluate(s games.State) float64 {
	h, ok := s.(games.Heuristic)
	if !ok {
		return 0
	}
	return h.Evaluate(b.seat) - h.Evaluate(b.seat.Opponent())
}

// Budget returns the nodes per decision.
func (p *AlphaBetaParams) Budget() (string, int) { return "nodes", p.Nodes }

// WithBudget returns a copy with Nodes set.
func (p *AlphaBetaParams) WithBudget(n int) Params {
	q := *p
	q.Nodes = n
	return &q
}
