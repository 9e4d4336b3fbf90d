package bots

import (
	"math"
	"math/bits"
	"slices"
	"sync/atomic"

	"playtest/games"
	"playtest/games/pcg"
	"playtest/games/prove"
	"playtest/sim/model"
)

// AlphaBetaParams are the parameters of the alphabeta bot.
type AlphaBetaParams struct {
	Nodes int     `yaml:"nodes" json:"nodes" default:"20000" doc:"nodes searched per decision (100 to 100000000), quiescence nodes included: the budget, never wall-clock time; the deepest fully searched depth decides, or a better move found at the next one"`
	Depth int     `yaml:"depth" json:"depth" default:"0" doc:"deepest iteration of iterative deepening, in decisions (0: as deep as the node budget allows, up to 64); quiescence searches on past it through forcing moves"`
	Noise float64 `yaml:"noise" json:"noise" default:"0" doc:"play a uniformly random move among those within noise of the best at the root, in the heuristic's units (0: always the best: a deterministic bot)"`
	// Temperature weighs the noisy choice by value.
	Temperature float64 `yaml:"temperature" json:"temperature" default:"0" doc:"with noise: choose among the moves within noise of the best with probability ∝ exp((value − best) / temperature), in the heuristic's units, instead of uniformly (0: uniformly): variety that still prefers the better moves"`
	// NoiseMoves limits the noise to the bot's first decisions of a game.
	NoiseMoves int `yaml:"noise_moves" json:"noise_moves" default:"0" doc:"apply noise only to the bot's first noise_moves decisions of each game, then play its best (0: every decision): varied openings without weaker play later"`
	// Quiescence turns the search on through forcing moves at the horizon.
	Quiescence bool `yaml:"quiescence" json:"quiescence" default:"true" doc:"at the horizon, search on through the game's forcing moves (captures) with stand-pat, so no position is judged in the middle of an exchange (games without forcing moves ignore it)"`
	// Tactics uses the game's threat hooks (games.WinFinder, SafeMover).
	Tactics bool `yaml:"tactics" json:"tactics" default:"true" doc:"in games that tell a move winning at once and the moves that do not lose at once (k in a row), score a win in one and a loss to every move at once without searching them, search only the moves that do not lose at once, and search a position with one such move a decision deeper (a forced block costs no depth); exact: no defence is missed (games without the hooks ignore it)"`
	// Tempo is the horizon's bonus for having the move.
	Tempo float64 `yaml:"tempo" json:"tempo" default:"0.3" doc:"at the horizon, add this to the evaluation of the side to move, in the heuristic's units: a position is judged better for the player who can act on it, so odd and even depths judge alike"`
	// Lazy skips a learned network where its logistic base decides.
	Lazy float64 `yaml:"lazy" json:"lazy,omitempty" default:"0" doc:"with eval: learned and a network over a logistic base (perfect information): at the horizon, judge a position by the base alone where that lies more than lazy outside the search's window, in the heuristic's units, leaving the network unread (a chess engine's lazy evaluation: cheaper nodes, a value that can be wrong by more than lazy; 0: always the whole model)"`
	// Reduce turns on late move reductions.
	Reduce int `yaml:"reduce" json:"reduce,omitempty" default:"0" doc:"late move reductions: search each quiet move after a node's first reduce moves (not the table's move, a forcing or a killer move) a decision shallower with a null window first, and at full depth only when it beats the best so far; nodes with fewer than 3 decisions left are searched in full (0: none). Deeper searches at the same nodes that can miss a defence the full search sees: measured stronger at 8,000 nodes and more on Stacktics, weaker on Connect Four (docs/bots.md)"`
	TTMB   int `yaml:"tt_mb" json:"tt_mb" default:"0" doc:"transposition table size in MiB (0: sized for the node budget, 1.5 MiB to 96 MiB)"`
	// Prove is the positions the prover may search a decision.
	Prove int `yaml:"prove" json:"prove,omitempty" default:"0" doc:"before each decision, try to prove the position's value with the prover (games/prove, playtest solve --search's) within this many positions a decision, its table kept through the game: where it is proven, play a move proven to keep it (a win: the proof's own winning move, without a search; a draw: the search's best if it keeps it, else the next by value; on a noisy decision the noise's draw, drawn again when it gives the value away); where the bound passes first, the search's move. Only where a proof is the game's: perfect information, no chance, no repetition rule or move cap (Connect Four, the m,n,k-games), and not for a restricted player (restrict:); a ladder's rung scales it with nodes (0: never; else 1000 to 100000000)"`
	// ProveFrom is the first ply at which the prover is tried.
	ProveFrom int `yaml:"prove_from" json:"prove_from,omitempty" default:"0" doc:"with prove: try the prover only from this ply on (decisions of both seats from the start), where proofs come within its bound: the positions before it are searched as without prove:, at no cost (0: from the start)"`
	// Worlds is how many determinizations a decision searches in games
	// with hidden information (perfect-information Monte Carlo).
	Worlds int `yaml:"worlds" json:"worlds,omitempty" default:"0" doc:"in games with hidden information, search this many worlds a decision, each with what the seat cannot see re-sampled from what it has seen and nodes ⁄ worlds nodes, and play the move of the best mean value (perfect-information Monte Carlo, as card-game programs play; a ladder's rung too low for 50 nodes a world searches fewer worlds); 0 or 1: the one world the run shows the bot; games without hidden information ignore it"`
	// Inference weighs the worlds by an opponent model (infer:).
	Inference
	// Learning chooses a learned evaluation (eval:, model:, model_strict:).
	Learning
	// Restricted holds the player to a restriction (restrict:).
	Restricted
}

// DefaultAlphaBetaParams returns the defaults.
func DefaultAlphaBetaParams() *AlphaBetaParams {
	return &AlphaBetaParams{Nodes: 20000, Quiescence: true, Tactics: true, Tempo: 0.3}
}

// Validate checks the parameters.
func (p *AlphaBetaParams) Validate() error {
	switch {
	case p.Nodes < 100 || p.Nodes > 100000000:
		return games.KnobErrorf("nodes", "must be between 100 and 100000000, got %d", p.Nodes)
	case p.Depth < 0 || p.Depth > maxSearchDepth:
		return games.KnobErrorf("depth", "must be between 0 and %d, got %d", maxSearchDepth, p.Depth)
	case p.Noise < 0 || p.Noise > 1e9:
		return games.KnobErrorf("noise", "must be between 0 and 1e9, got %g", p.Noise)
	case p.Temperature < 0 || p.Temperature > 1e9:
		return games.KnobErrorf("temperature", "must be between 0 and 1e9, got %g", p.Temperature)
	case p.NoiseMoves < 0 || p.NoiseMoves > 1000000:
		return games.KnobErrorf("noise_moves", "must be between 0 and 1000000, got %d", p.NoiseMoves)
	case p.Tempo < 0 || p.Tempo > 1e9:
		return games.KnobErrorf("tempo", "must be between 0 and 1e9, got %g", p.Tempo)
	case p.Lazy < 0 || p.Lazy > 1e9:
		return games.KnobErrorf("lazy", "must be between 0 and 1e9, got %g", p.Lazy)
	case p.Reduce < 0 || p.Reduce > 1000:
		return games.KnobErrorf("reduce", "must be between 0 and 1000, got %d", p.Reduce)
	case p.Worlds < 0 || p.Worlds > maxWorlds:
		return games.KnobErrorf("worlds", "must be between 0 and %d, got %d", maxWorlds, p.Worlds)
	case p.Nodes/max(p.Worlds, 1) < minWorldNodes:
		return games.KnobErrorf("worlds", "%d worlds leave %d of the %d nodes to a world, and a world needs at least %d: fewer worlds, or more nodes", p.Worlds, p.Nodes/max(p.Worlds, 1), p.Nodes, minWorldNodes)
	case p.Prove != 0 && (p.Prove < 1000 || p.Prove > 100000000):
		return games.KnobErrorf("prove", "must be 0 (never) or between 1000 and 100000000 positions, got %d", p.Prove)
	case p.ProveFrom < 0 || p.ProveFrom > 1000000:
		return games.KnobErrorf("prove_from", "must be between 0 and 1000000, got %d", p.ProveFrom)
	case p.TTMB < 0 || p.TTMB > MaxTTMB:
		return games.KnobErrorf("tt_mb", "must be between 0 and %d (MiB; 0 sizes it for the budget), got %d", MaxTTMB, p.TTMB)
	}
	if err := p.Restricted.validate(); err != nil {
		return err
	}
	if err := p.Inference.validate(); err != nil {
		return err
	}
	return p.Learning.validate()
}

const (
	maxSearchDepth = 64
	// maxQuiescence bounds a quiescence search's depth below the horizon.
	maxQuiescence = 16
	// winValue is the value of a won game; quicker wins score higher.
	winValue = 1e6
	// maxLead bounds an evaluation and a chance node's mean of unequal
	// outcomes: a value beyond ±winValue/2 is a proof (a forced result),
	// never a heuristic's, however large (a script's heuristic may return
	// anything).
	maxLead = winValue / 4
	// maxWorlds bounds the worlds a decision searches (worlds:).
	maxWorlds = 1000
	// minWorldNodes is the least budget a world may search.
	minWorldNodes = 50
	// MaxTTMB is the largest transposition table.
	MaxTTMB = 4096
	// ttEntryBytes is a table entry's size.
	ttEntryBytes = 24
)

// ttEntry is one transposition table slot.
type ttEntry struct {
	key   uint64
	value float64 // a win or loss relative to this node (see storeValue)
	best  games.Move
	depth int8
	bound int8 // exact, lower or upper
	age   uint8
}

const (
	boundExact = iota
	boundLower
	boundUpper
)

// AlphaBeta is a minimax search with alpha-beta pruning, for games without
// hidden information (Stacktics). It deepens iteratively, one decision at a
// time, until its node budget runs out, and plays the best move of the
// deepest depth it finished (or a move the unfinished depth has already
// shown better). The value is from its seat's point of view, so turns of
// several decisions (Capstone) and chance nodes (weighted means, without
// pruning) are handled; the evaluation at the horizon is the game's
// documented heuristic, the bot's seat's minus the other's, after a
// quiescence search through the game's forcing moves (captures) with
// stand-pat. Moves are searched in order: the transposition table's best
// move, forcing moves by what they win, the two killer moves of the ply,
// then the others by their history score; all but the first with a null
// window first (principal variation search). The transposition table,
// keyed by the state's Zobrist hash (games.Hasher), stores bounds and best
// moves in two-slot buckets that keep the deeper entry of this decision;
// win and loss scores are stored relative to the node and restored at the
// probe, so a "win in N" found on one path keeps its meaning on another.
// Tables, move buffers and scratch states are the bot's, reused for every
// decision.
type AlphaBeta struct {
	params AlphaBetaParams
	seat   games.Player
	rng    *pcg.Rand
	tt     []ttEntry
	ttMask uint64
	age    uint8
	states []games.State
	// scored is the root kept with its score (scoring).
	scored   games.State
	moves    [][]games.Move
	scores   [][]int32
	forcing  [][]games.Move
	outcomes [][]games.ChanceOutcome
	killers  [maxSearchDepth + maxQuiescence + 2][2]games.Move
	history  [1 << historyBits]int32
	nodes    int
	budget   int // the nodes this search may take (deepen)
	// rootWindow is how far below the best a root move's value is exact.
	rootWindow float64
	aborted    bool
	stop       *atomic.Bool
	decisions  int // the bot's decisions this game
	// searched is the number of root moves of the last decision's deepest
	// finished depth (0: no search).
	searched int
	// The root moves and values of the depth in progress and of the
	// deepest finished one.
	rootValues, lastValues []float64
	lastOrder              []games.Move
	learnBuf               model.Scratch // the learned evaluation's buffers
	// filter restricts the bot's own moves (restrict:), nil for none.
	filter *Filter
	// world is the scratch state a world is re-sampled into, and
	// worldSum and worldN each legal move's sum of values and count of
	// worlds (overWorlds).
	world games.State
	// belief re-samples the worlds of a decision (Inference.belief).
	belief   games.Belief
	worldSum []float64
	worldN   []int
	// overWorldsLast is whether the last decision searched worlds.
	overWorldsLast bool
	// prover proves positions (prove:), its table kept through a game;
	// proveOff stops it for the rest of the game (a chance node, a stop);
	// proven is the last decision's proof; tried, order and orderValues
	// are keepProven's buffers.
	prover      *prove.Searcher
	proveOff    bool
	proven      provenValue
	tried       []games.Move
	order       []games.Move
	orderValues []float64
	// onLeaf sees each position the search evaluates (SetLeafVisitor).
	onLeaf func(s games.State)
}

// SetLeafVisitor makes the search call visit with each position it
// evaluates at its horizon (the quiescence search's stand-pat positions,
// and those an aborted search stops at), before evaluating it; nil stops
// it. The state is the search's scratch state: valid only during the call,
// and not to be changed (clone it to keep it). A learner samples the
// positions a search asks its evaluation about this way.
func (b *AlphaBeta) SetLeafVisitor(visit func(s games.State)) { b.onLeaf = visit }

// historyBits sizes the history table (indexed by a hash of the move).
const historyBits = 16

// NewAlphaBeta returns an alphabeta bot.
func NewAlphaBeta(p AlphaBetaParams) *AlphaBeta { return &AlphaBeta{params: p} }

// TTBytes is the transposition table's size: tt_mb, or for 0 about two
// entries per node of the budget, from 1.5 MiB up to 96 MiB.
func (p *AlphaBetaParams) TTBytes() int64 {
	if p.TTMB > 0 {
		return int64(p.TTMB) << 20
	}
	entries := uint64(1) << bits.Len64(uint64(2*p.Nodes-1))
	entries = min(max(entries, 1<<16), 1<<22)
	return int64(entries) * ttEntryBytes
}

// TreeBytes is the memory the bot keeps between moves: its transposition
// table and its prover's (checked against the machine's memory before a
// run, as search trees are).
func (p *AlphaBetaParams) TreeBytes(int) int64 { return p.TTBytes() + p.proveBytes() }

// Reset starts a new game; the transposition table, killer moves,
// history and the prover's table are cleared.
func (b *AlphaBeta) Reset(seat games.Player, rng *pcg.Rand) {
	b.seat, b.rng = seat, rng
	clear(b.tt)
	b.resetProver()
	b.killers = [len(b.killers)][2]games.Move{}
	b.history = [len(b.history)]int32{}
	b.decisions = 0
}

// Choose runs the iterative deepening search: on the state it is shown,
// or with worlds: above 1 in a game with hidden information, on that many
// re-sampled worlds (overWorlds).
func (b *AlphaBeta) Choose(s games.State, legal []games.Move) games.Move {
	b.decisions++
	b.searched = 0
	b.proven = provenValue{}
	if len(legal) == 1 {
		return legal[0]
	}
	if b.tt == nil {
		n := uint64(1) << (bits.Len64(uint64(b.params.TTBytes()/ttEntryBytes)) - 1)
		b.tt, b.ttMask = make([]ttEntry, n), n-2 // buckets of two
	}
	b.prepare(s)
	// The prover reads the runner's state: it never evaluates, so it
	// does not pay for the score the search's copy keeps.
	root := s
	s = b.scoring(s)
	b.age++
	varied := b.params.VariedDecision(b.decisions)
	_, hidden := s.(games.Determinizer)
	b.overWorldsLast = hidden && b.params.Worlds > 1
	// prove: the position's value first; a proven win is played from the
	// proof without a search, unless the noise varies the decision.
	proven := b.params.Prove > 0 && s.Plies() >= b.params.ProveFrom && !b.overWorldsLast && b.proveRoot(root)
	if proven && b.proven.outcome > 0 && !varied {
		if m, ok := b.provenWin(root, legal); ok {
			return m
		}
	}
	var best games.Move
	if b.overWorldsLast {
		best = b.overWorlds(s, legal)
	} else {
		best = b.deepen(s, legal, b.params.Nodes, b.params.Noise)
	}
	if proven {
		if m, ok := b.keepProven(root, legal, best, varied); ok {
			return m
		}
	}
	if varied {
		return b.noisy(best)
	}
	return best
}

// deepen searches s one depth deeper at a time within budget nodes, each
// root move's value exact within window of the best (root), and returns
// the best move of the deepest depth finished (or a better one
// the unfinished depth found); the root moves and values of the deepest
// finished depth are left in lastOrder and lastValues.
func (b *AlphaBeta) deepen(s games.State, legal []games.Move, budget int, window float64) games.Move {
	maxDepth := b.params.Depth
	if maxDepth == 0 {
		maxDepth = maxSearchDepth
	}
	b.nodes, b.budget, b.rootWindow, b.aborted = 0, budget, window, false
	best := legal[0]
	for depth := 1; depth <= maxDepth; depth++ {
		m, finished := b.root(s, legal, depth, best)
		best = m
		if !finished {
			break
		}
		b.lastOrder = append(b.lastOrder[:0], b.moves[0]...)
		b.lastValues = append(b.lastValues[:0], b.rootValues...)
		b.searched = len(legal)
		if math.Abs(b.lastValues[0]) > winValue/2 && b.rootValueProven() {
			break // a forced result: deeper search changes nothing
		}
	}
	return best
}

// overWorlds searches params.Worlds worlds of s (fewer where the budget
// would leave a world under minWorldNodes), each with what the bot's
// seat cannot see re-sampled (games.Determinizer, from the bot's stream)
// and an equal share of the node budget, and returns the legal move of the
// best mean value over the worlds whose search finished a depth (the
// perfect-information Monte Carlo of card-game programs). A world's forced
// win or loss counts as the largest lead: it is a proof in that world, not
// in the game. The means are left in lastOrder and lastValues for the
// noise and NearBest (RootValue gives none for them). The seat's legal
// moves are the same in every world (the conformance suite checks that
// Determinize leaves what the mover sees unchanged).
func (b *AlphaBeta) overWorlds(s games.State, legal []games.Move) games.Move {
	if b.world == nil {
		b.world = s.Clone()
	}
	b.worldSum = slices.Grow(b.worldSum[:0], len(legal))[:len(legal)]
	b.worldN = slices.Grow(b.worldN[:0], len(legal))[:len(legal)]
	clear(b.worldSum)
	clear(b.worldN)
	// A budget below worlds × minWorldNodes (a low rung of a ladder, whose
	// budgets are set past Validate) searches fewer worlds of
	// minWorldNodes each.
	worlds := min(b.params.Worlds, max(1, b.params.Nodes/minWorldNodes))
	budget := b.params.Nodes / worlds
	b.belief = b.params.belief(s, b.seat, b.belief)
	for range worlds {
		b.world.CopyFrom(s)
		b.params.determinize(b.belief, b.world, b.seat, b.rng)
		b.searched = 0
		// Every move's value exact (an infinite window), for the mean.
		b.deepen(b.world, legal, budget, math.Inf(1))
		if b.searched == 0 {
			continue
		}
		for i, m := range b.lastOrder {
			j := slices.Index(legal, m)
			b.worldSum[j] += min(max(b.lastValues[i], -maxLead), maxLead)
			b.worldN[j]++
		}
		if b.stop != nil && b.stop.Load() {
			break
		}
	}
	b.lastOrder, b.lastValues = b.lastOrder[:0], b.lastValues[:0]
	best, bestValue := legal[0], math.Inf(-1)
	for j, m := range legal {
		if b.worldN[j] == 0 {
			continue
		}
		v := b.worldSum[j] / float64(b.worldN[j])
		b.lastOrder, b.lastValues = append(b.lastOrder, m), append(b.lastValues, v)
		if v > bestValue {
			best, bestValue = m, v
		}
	}
	b.searched = len(b.lastOrder)
	return best
}

// scoring returns s, or where its heuristic can keep its score as moves
// are applied (games.ScoreKeeper) and the bot evaluates by it (no learned
// model) the bot's own copy of s keeping it:
// every state of the search is copied from the root, so each then
// evaluates at no cost, where the runner's states, which random
// playouts also use, never pay for it.
func (b *AlphaBeta) scoring(s games.State) games.State {
	if _, ok := s.(games.ScoreKeeper); !ok || b.params.learned != nil {
		// A learned evaluation never reads the hand heuristic's score.
		return s
	}
	if b.scored == nil {
		b.scored = s.Clone()
	}
	b.scored.CopyFrom(s)
	b.scored.(games.ScoreKeeper).KeepScore()
	return b.scored
}

// prepare makes the scratch states and buffers of every ply, once.
func (b *AlphaBeta) prepare(s games.State) {
	if len(b.states) == 0 {
		for range len(b.killers) + 1 {
			b.states = append(b.states, s.Clone())
			b.moves = append(b.moves, nil)
			b.scores = append(b.scores, nil)
			b.forcing = append(b.forcing, nil)
			b.outcomes = append(b.outcomes, nil)
		}
	}
}

// NearBest counts the root moves of the last decision's deepest finished
// depth within ClarityMargin of the best (implements Deliberator).
func (b *AlphaBeta) NearBest() (near, moves int) {
	if b.searched == 0 {
		return 0, 0
	}
	top := b.bestRootValue()
	for _, v := range b.lastValues {
		if v >= top-ClarityMargin {
			near++
		}
	}
	return near, b.searched
}

// RootValue is the best root value of the last decision's deepest
// finished depth, for the bot's seat (implements Valuer). It is beyond
// ±JudgeWin only where the search proves the result. A decision over
// worlds gives none: its mean counts a world's proof as the largest lead,
// which is no position's value in the heuristic's units, so the trace
// reads the Judge's, as for ismcts. A restricted bot
// (restrict:) searches only the moves its restriction allows, so its
// forced loss is the restriction's, not the position's, and reads as the
// largest lead instead.
func (b *AlphaBeta) RootValue() (float64, bool) {
	if b.proven.known && b.proven.outcome != 0 && b.filter == nil {
		return provenRootValue(b.proven.outcome), true
	}
	if b.searched == 0 || b.overWorldsLast {
		return 0, false
	}
	top := b.bestRootValue()
	if b.filter != nil && top < -winValue/2 {
		top = -maxLead
	}
	return top, true
}

// bestRootValue is the best of the last decision's root values.
func (b *AlphaBeta) bestRootValue() float64 {
	top := math.Inf(-1)
	for _, v := range b.lastValues {
		top = max(top, v)
	}
	return top
}

// rootValueProven reports whether the best root value is a forced win, or
// every root move a forced loss.
func (b *AlphaBeta) rootValueProven() bool {
	top := b.bestRootValue()
	return top > winValue/2 || top < -winValue/2
}

// SetStop makes Choose return early (with the best move of the deepest
// finished depth) once *stop is true.
func (b *AlphaBeta) SetStop(stop *atomic.Bool) { b.stop = stop }

// noisy picks among the root moves of the deepest finished depth within
// noise of the best value (their values are exact: the root's window stays
// noise below the best): uniformly, or with Temperature, with probability
// ∝ exp((value − best) / temperature).
func (b *AlphaBeta) noisy(best games.Move) games.Move {
	if m, ok := b.noisyExcept(nil); ok {
		return m
	}
	return best
}

// noisyExcept draws as noisy does among the moves within noise of the
// best but those in except; ok is false when none is left.
func (b *AlphaBeta) noisyExcept(except []games.Move) (chosen games.Move, ok bool) {
	top := b.bestRootValue()
	seen, total := 0, 0.0
	for i, v := range b.lastValues {
		if v < top-b.params.Noise || slices.Contains(except, b.lastOrder[i]) {
			continue
		}
		ok = true
		if t := b.params.Temperature; t > 0 {
			// Weighted reservoir sampling: keep each move with its share
			// of the weight seen so far.
			w := math.Exp((v - top) / t)
			total += w
			if b.rng.Float64()*total < w {
				chosen = b.lastOrder[i]
			}
			continue
		}
		seen++
		if b.rng.IntN(seen) == 0 {
			chosen = b.lastOrder[i]
		}
	}
	return chosen, ok
}

// root searches the root moves to depth, the previous best first, each
// move's value exact within rootWindow of the best (beyond it, a bound). It
// returns the best move and whether the depth was finished. When the
// budget runs out in the middle of a depth, a move that depth has already
// searched in full and found better than the previous best's value there
// is played; otherwise the previous depth's best.
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
	for i, m := range order {
		child := b.states[1]
		child.CopyFrom(s)
		child.Apply(m)
		var v float64
		if i == 0 || b.rootWindow > 0 {
			v = b.search(child, depth-1, 1, alpha, beta)
		} else {
			// Principal variation search: a null window first; a move
			// that beats it is searched again with the full window.
			v = b.search(child, depth-1, 1, alpha, nextUp(alpha))
			if v > alpha && !b.aborted {
				v = b.search(child, depth-1, 1, alpha, beta)
			}
		}
		if b.aborted && depth > 1 {
			return best, false
		}
		b.rootValues = append(b.rootValues, v)
		if v > bestValue {
			best, bestValue = m, v
		}
		alpha = max(alpha, v-b.rootWindow)
	}
	return best, true
}

// nextUp is the null window's upper end above a.
func nextUp(a float64) float64 {
	if math.IsInf(a, -1) {
		return -math.MaxFloat64
	}
	return math.Nextafter(a, math.Inf(1))
}

// nextDown is the null window's lower end below b.
func nextDown(b float64) float64 {
	if math.IsInf(b, 1) {
		return math.MaxFloat64
	}
	return math.Nextafter(b, math.Inf(-1))
}

// tactics reads the game's threat hooks at a decision of p: decided with
// the exact value when p wins at once (a win at ply + 1) or every move
// loses at once (a loss at ply + 2); otherwise the moves that do not lose
// at once, in the ply's move buffer (nil when the game has no hooks). The
// moves left out lose at once, worse for p than any move kept, so
// searching only the kept ones changes no value.
func (b *AlphaBeta) tactics(s games.State, p games.Player, ply int) (safe []games.Move, v float64, decided bool) {
	sign := 1.0
	if p != b.seat {
		sign = -1
	}
	wf, ok := s.(games.WinFinder)
	if !ok {
		return nil, 0, false
	}
	if _, win := wf.WinningMove(); win {
		return nil, sign * (winValue - float64(ply+1)), true
	}
	sm, ok := s.(games.SafeMover) // only where no move wins at once
	if !ok {
		return nil, 0, false
	}
	safe = sm.SafeMoves(b.moves[ply][:0])
	b.moves[ply] = safe
	if len(safe) == 0 {
		return nil, -sign * (winValue - float64(ply+2)), true
	}
	return safe, 0, false
}

// count counts a node against the budget and the stop signal.
func (b *AlphaBeta) count() {
	b.nodes++
	if b.nodes > b.budget || b.nodes&1023 == 0 && b.stop != nil && b.stop.Load() {
		b.aborted = true
	}
}

// search returns the value of s for the bot's seat, searched depth more
// decisions, ply decisions below the root, within the window (alpha,
// beta).
func (b *AlphaBeta) search(s games.State, depth, ply int, alpha, beta float64) float64 {
	b.count()
	if s.IsTerminal() {
		return s.Result().ValueFor(b.seat) * (winValue - float64(ply))
	}
	if b.aborted {
		return b.evaluate(s)
	}
	p := s.CurrentPlayer()
	var safe []games.Move
	if b.params.Tactics && p != games.Chance && (b.filter == nil || p != b.seat) {
		var v float64
		var decided bool
		safe, v, decided = b.tactics(s, p, ply)
		if decided {
			return v
		}
		if len(safe) == 1 && ply < maxSearchDepth {
			// A forced answer: searched a decision deeper, so that a
			// threat and its block cost the attacker's depth only.
			child := b.states[ply+1]
			child.CopyFrom(s)
			child.Apply(safe[0])
			return b.search(child, depth, ply+1, alpha, beta)
		}
	}
	if depth <= 0 || ply >= maxSearchDepth {
		return b.quiesce(s, ply, 0, alpha, beta)
	}
	if p == games.Chance {
		outs := s.ChanceOutcomes(b.outcomes[ply][:0])
		b.outcomes[ply] = outs
		total, sum, capped := 0, 0.0, 0.0
		won, lost := true, true
		for _, o := range outs {
			child := b.states[ply+1]
			child.CopyFrom(s)
			child.Apply(o.Move)
			v := b.search(child, depth-1, ply+1, math.Inf(-1), math.Inf(1))
			won, lost = won && v > winValue/2, lost && v < -winValue/2
			w := float64(o.Weight)
			sum, capped = sum+w*v, capped+w*max(-maxLead, min(maxLead, v))
			total += o.Weight
		}
		if won || lost {
			return sum / float64(total) // forced whatever chance decides
		}
		// Some outcomes are not won (or not lost): the mean is a lead, not
		// a proof, with each forced outcome counting as the largest lead.
		return capped / float64(total)
	}
	var entry *ttEntry
	var key uint64
	hashMove := games.Move(-1)
	if h, ok := s.(games.Hasher); ok {
		key = h.Hash()
		var hit bool
		entry, hit = b.probe(key)
		if hit {
			hashMove = entry.best
			if int(entry.depth) >= depth {
				v := loadValue(entry.value, ply)
				switch {
				case entry.bound == boundExact:
					return v
				case entry.bound == boundLower && v >= beta:
					return v
				case entry.bound == boundUpper && v <= alpha:
					return v
				}
			}
		}
	}
	moves := b.ordered(s, ply, hashMove, safe)
	maximize := p == b.seat
	a0, b0 := alpha, beta
	best := math.Inf(1)
	if maximize {
		best = math.Inf(-1)
	}
	bestMove := moves[0]
	for i, m := range moves {
		child := b.states[ply+1]
		child.CopyFrom(s)
		child.Apply(m)
		var v float64
		switch {
		case i == 0:
			v = b.search(child, depth-1, ply+1, alpha, beta)
		case maximize:
			d := b.reduced(depth, ply, i)
			v = b.search(child, d, ply+1, alpha, nextUp(alpha))
			if d < depth-1 && v > alpha && !b.aborted {
				v = b.search(child, depth-1, ply+1, alpha, nextUp(alpha))
			}
			if v > alpha && v < beta && !b.aborted {
				v = b.search(child, depth-1, ply+1, alpha, beta)
			}
		default:
			d := b.reduced(depth, ply, i)
			v = b.search(child, d, ply+1, nextDown(beta), beta)
			if d < depth-1 && v < beta && !b.aborted {
				v = b.search(child, depth-1, ply+1, nextDown(beta), beta)
			}
			if v < beta && v > alpha && !b.aborted {
				v = b.search(child, depth-1, ply+1, alpha, beta)
			}
		}
		if maximize && v > best || !maximize && v < best {
			best, bestMove = v, m
		}
		if maximize {
			alpha = max(alpha, v)
		} else {
			beta = min(beta, v)
		}
		if b.aborted {
			break
		}
		if alpha >= beta {
			b.cutoff(m, ply, depth)
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
		*entry = ttEntry{key: key, value: storeValue(best, ply), best: bestMove, depth: int8(depth), bound: bound, age: b.age}
	}
	return best
}

// reduced is the depth the i-th move (from 0, in search order) of a node
// at ply is searched to first: a decision less for a late quiet move with
// at least 3 decisions left, when params.Reduce asks (late move
// reductions); the caller searches it again at full depth when it beats
// the window.
func (b *AlphaBeta) reduced(depth, ply, i int) int {
	if b.params.Reduce == 0 || i < b.params.Reduce || depth < 3 || b.scores[ply][i] >= scoreKiller {
		return depth - 1
	}
	return depth - 2
}

// quiesce extends the horizon through the forcing moves of games that
// have them (games.Forcing): the player to move may stand pat on the
// heuristic's value or play a forcing move, whichever is better for it.
func (b *AlphaBeta) quiesce(s games.State, ply, q int, alpha, beta float64) float64 {
	stand := b.evaluateIn(s, alpha, beta)
	f, ok := s.(games.Forcing)
	if !ok || !b.params.Quiescence || q >= maxQuiescence || ply >= len(b.killers)-1 || b.aborted {
		return stand
	}
	p := s.CurrentPlayer()
	if p == games.Chance {
		return stand
	}
	maximize := p == b.seat
	if maximize {
		if stand >= beta {
			return stand
		}
		alpha = max(alpha, stand)
	} else {
		if stand <= alpha {
			return stand
		}
		beta = min(beta, stand)
	}
	moves := f.ForcingMoves(b.forcing[ply][:0])
	b.forcing[ply] = moves
	if b.filter != nil && maximize {
		moves = b.filter.Keep(s, moves) // standing pat is always allowed
	}
	best := stand
	for _, m := range moves {
		child := b.states[ply+1]
		child.CopyFrom(s)
		child.Apply(m)
		b.count()
		var v float64
		if child.IsTerminal() {
			v = child.Result().ValueFor(b.seat) * (winValue - float64(ply+1))
		} else {
			v = b.quiesce(child, ply+1, q+1, alpha, beta)
		}
		if maximize {
			best, alpha = max(best, v), max(alpha, v)
		} else {
			best, beta = min(best, v), min(beta, v)
		}
		if alpha >= beta || b.aborted {
			break
		}
	}
	return best
}

// Move order scores: the table's move, forcing moves by rank, killers,
// then history.
const (
	scoreHash    = 1 << 30
	scoreForcing = 1 << 29
	scoreKiller  = 1 << 28
)

// ordered returns s's legal moves (or, when not nil, safe: the moves the
// tactics left, held in the ply's buffer) in search order: the table's
// best move, forcing moves as the game ranks them, the ply's killer moves,
// then the others by their history score (ties keep the game's order).
func (b *AlphaBeta) ordered(s games.State, ply int, hashMove games.Move, safe []games.Move) []games.Move {
	moves := safe
	if moves == nil {
		moves = s.LegalMoves(b.moves[ply][:0])
		b.moves[ply] = moves
	}
	if b.filter != nil && s.CurrentPlayer() == b.seat {
		moves, _ = b.filter.Apply(s, moves)
	}
	scores := b.scores[ply][:0]
	var forcing []games.Move
	if f, ok := s.(games.Forcing); ok {
		forcing = f.ForcingMoves(b.forcing[ply][:0])
		b.forcing[ply] = forcing
	}
	for _, m := range moves {
		var sc int32
		switch {
		case m == hashMove:
			sc = scoreHash
		case m == b.killers[ply][0]:
			sc = scoreKiller + 1
		case m == b.killers[ply][1]:
			sc = scoreKiller
		default:
			sc = b.history[historySlot(m)]
		}
		if sc < scoreHash {
			for r, f := range forcing {
				if f == m {
					sc = scoreForcing + int32(len(forcing)-r)
					break
				}
			}
		}
		scores = append(scores, sc)
	}
	b.scores[ply] = scores
	for i := 1; i < len(moves); i++ { // insertion sort, stable
		for j := i; j > 0 && scores[j] > scores[j-1]; j-- {
			scores[j], scores[j-1] = scores[j-1], scores[j]
			moves[j], moves[j-1] = moves[j-1], moves[j]
		}
	}
	return moves
}

// cutoff records a move that refuted a position: a killer of the ply and
// a history bonus of depth².
func (b *AlphaBeta) cutoff(m games.Move, ply, depth int) {
	if k := &b.killers[ply]; k[0] != m {
		k[1], k[0] = k[0], m
	}
	h := &b.history[historySlot(m)]
	*h = min(*h+int32(depth*depth), scoreKiller-1)
}

func historySlot(m games.Move) uint32 {
	return uint32(uint64(uint32(m))*0x9e3779b97f4a7c15>>(64-historyBits)) & (1<<historyBits - 1)
}

// probe finds key's bucket: the entry holding key (hit), or the one to
// replace: an entry of an earlier decision, else the shallower.
func (b *AlphaBeta) probe(key uint64) (*ttEntry, bool) {
	i := key & b.ttMask
	e0, e1 := &b.tt[i], &b.tt[i+1]
	switch {
	case e0.key == key:
		return e0, true
	case e1.key == key:
		return e1, true
	case e0.age != b.age:
		return e0, false
	case e1.age != b.age:
		return e1, false
	case e1.depth < e0.depth:
		return e1, false
	}
	return e0, false
}

// storeValue makes a win or loss score relative to the node at ply: a
// win in N decisions from the node, whatever path led to it.
func storeValue(v float64, ply int) float64 {
	switch {
	case v > winValue/2:
		return v + float64(ply)
	case v < -winValue/2:
		return v - float64(ply)
	}
	return v
}

// loadValue restores a stored score at ply.
func loadValue(v float64, ply int) float64 {
	switch {
	case v > winValue/2:
		return v - float64(ply)
	case v < -winValue/2:
		return v + float64(ply)
	}
	return v
}

// evaluate is the heuristic at the horizon: the bot's seat's evaluation
// minus the other seat's (a game without a heuristic evaluates to 0).
func (b *AlphaBeta) evaluate(s games.State) float64 {
	return b.evaluateIn(s, math.Inf(-1), math.Inf(1))
}

// evaluateIn is evaluate for a search that needs only to know whether
// the value lies within (alpha, beta): with lazy:, a learned network's
// base alone where that lies more than lazy outside it.
func (b *AlphaBeta) evaluateIn(s games.State, alpha, beta float64) float64 {
	if b.onLeaf != nil {
		b.onLeaf(s)
	}
	// The horizon's bonus for having the move, signed for the bot's seat.
	tempo := b.params.Tempo
	if tempo != 0 && s.CurrentPlayer() != b.seat {
		tempo = -tempo
	}
	var v float64
	switch m := b.params.learned; {
	case m != nil && b.params.Lazy > 0:
		// The window in the model's logits, the tempo taken out.
		scale := m.HandScale
		lead, _ := m.LazyLogitLead(s, b.seat, &b.learnBuf, (alpha-tempo)*scale, (beta-tempo)*scale, b.params.Lazy*scale)
		v = lead / scale
	case m != nil:
		// The learned logits of the two seats' views, in the hand
		// heuristic's units: with the hand weights as the model's, the
		// same value as the heuristic's.
		v = learnedLead(m, s, b.seat, &b.learnBuf)
	default:
		h, ok := s.(games.Heuristic)
		if !ok {
			return 0
		}
		v = h.Evaluate(b.seat) - h.Evaluate(b.seat.Opponent())
	}
	if tempo != 0 {
		v += tempo
	}
	return max(-maxLead, min(maxLead, v))
}

// Budget returns the nodes per decision.
func (p *AlphaBetaParams) Budget() (string, int) { return "nodes", p.Nodes }

// WithBudget returns a copy with Nodes set, and prove: scaled with it
// (at least its least, 1,000), so a rung keeps the prover's share.
func (p *AlphaBetaParams) WithBudget(n int) Params {
	q := *p
	q.Nodes = n
	if p.Prove > 0 {
		q.Prove = max(1000, int(int64(p.Prove)*int64(n)/int64(max(p.Nodes, 1))))
	}
	return &q
}

// VariedDecision reports whether noise may vary the bot's k-th decision.
func (p *AlphaBetaParams) VariedDecision(k int) bool {
	return p.Noise > 0 && (p.NoiseMoves == 0 || k <= p.NoiseMoves)
}

// WithoutVariety returns a copy without noise: the bot plays its best
// move at every decision.
func (p *AlphaBetaParams) WithoutVariety() Params {
	q := *p
	q.Noise, q.Temperature, q.NoiseMoves = 0, 0, 0
	return &q
}
