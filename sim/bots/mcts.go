package bots

import (
	"encoding/binary"
	"math"
	"math/bits"
	"sync/atomic"

	"playtest/games"
	"playtest/games/pcg"
	"playtest/sim/model"
)

// Values of the rollout parameter.
const (
	RolloutRandom = "random"
	RolloutGreedy = "greedy"
)

// MCTSParams are the parameters of the mcts and ismcts bots.
type MCTSParams struct {
	Iterations  int     `yaml:"iterations" json:"iterations" default:"1000" doc:"search iterations per decision (1 to 10000000): the budget, never wall-clock time"`
	Exploration float64 `yaml:"exploration" json:"exploration" default:"1.0" doc:"UCT exploration constant c in Q + c·sqrt(ln N / n), rewards in [0, 1]"`
	Rollout     string  `yaml:"rollout" json:"rollout" default:"random" doc:"rollout policy: random, or greedy (the game's heuristic one ply ahead)"`
	RolloutCap  int     `yaml:"rollout_cap" json:"rollout_cap" default:"0" doc:"decisions per rollout before it stops and the heuristic judges the position (0: play to the end)"`
	EvalScale   float64 `yaml:"eval_scale" json:"eval_scale" default:"10" doc:"a cut-off rollout scores 1/(1+exp(−d/eval_scale)) for seat 0, d the heuristic's seat 0 − seat 1 difference"`
	TreeMB      int     `yaml:"tree_mb" json:"tree_mb" default:"512" doc:"most memory the search tree may take, in MiB (1 to 16384); a full tree stops growing and the remaining iterations roll out from its leaves"`
	// Solver proves wins and losses in the tree (MCTS-Solver).
	Solver bool `yaml:"solver" json:"solver" default:"true" doc:"prove wins and losses in the tree and back them up (MCTS-Solver, Winands et al. 2008): a proven win is played as won, a move proven lost is never chosen while another is not; only in games without chance or hidden information (mcts; ismcts ignores it)"`
	// Implicit weighs the heuristic's minimax value of a move against its
	// mean reward (implicit minimax backups).
	Implicit float64 `yaml:"implicit" json:"implicit" default:"0.5" doc:"weight α of the heuristic's minimax value in the tree against the rollouts' mean, (1−α)·mean + α·minimax (implicit minimax backups, Lanctot et al. 2014): each new node is judged by the heuristic, as eval_scale's logistic, and the best child's judgement backed up; 0 turns it off; only in games with a heuristic and without chance or hidden information (mcts; ismcts ignores it)"`
	// Reuse keeps the subtree of the position the game reached.
	Reuse bool `yaml:"reuse" json:"reuse" default:"true" doc:"keep the subtree of the position reached after the bot's move and the reply, for its next decision (up to one decision's iterations; the tree then has two thirds of tree_mb, the copy a third); only in games without chance or hidden information"`
	// Inference weighs ismcts' worlds by an opponent model (infer:).
	Inference
	// Learning chooses a learned evaluation (eval:, model:, model_strict:).
	Learning
	// Restricted holds the player to a restriction (restrict:).
	Restricted
}

// DefaultMCTSParams returns the defaults.
func DefaultMCTSParams() *MCTSParams {
	return &MCTSParams{Iterations: 1000, Exploration: 1.0, Rollout: RolloutRandom, EvalScale: 10, TreeMB: DefaultTreeMB, Solver: true, Reuse: true, Implicit: 0.5}
}

// Validate checks every parameter.
func (p *MCTSParams) Validate() error {
	switch {
	case p.Iterations < 1 || p.Iterations > 10000000:
		return games.KnobErrorf("iterations", "must be between 1 and 10000000, got %d", p.Iterations)
	case p.Exploration < 0 || p.Exploration > 100:
		return games.KnobErrorf("exploration", "must be between 0 and 100, got %g", p.Exploration)
	case p.Rollout != RolloutRandom && p.Rollout != RolloutGreedy:
		return games.KnobErrorf("rollout", "must be %q or %q, got %q", RolloutRandom, RolloutGreedy, p.Rollout)
	case p.RolloutCap < 0 || p.RolloutCap > 1000000:
		return games.KnobErrorf("rollout_cap", "must be between 0 and 1000000, got %d", p.RolloutCap)
	case p.EvalScale <= 0 || p.EvalScale > 1e9:
		return games.KnobErrorf("eval_scale", "must be positive, got %g", p.EvalScale)
	case !(p.Implicit >= 0 && p.Implicit <= 1):
		return games.KnobErrorf("implicit", "must be between 0 and 1, got %g", p.Implicit)
	case p.TreeMB < 1 || p.TreeMB > MaxTreeMB:
		return games.KnobErrorf("tree_mb", "must be between 1 and %d (MiB), got %d", MaxTreeMB, p.TreeMB)
	}
	if err := p.Restricted.validate(); err != nil {
		return err
	}
	if err := p.Inference.validate(); err != nil {
		return err
	}
	return p.Learning.validate()
}

// MCTS is open-loop UCT: its tree is keyed by the sequence of the players'
// moves from the root, and each iteration replays them on a fresh copy of
// the position, sampling every chance outcome anew. That handles chance
// soundly (each iteration sees outcomes with their true probabilities) and,
// with determinize set (the ismcts bot), hidden information too: each
// iteration first re-samples what the bot's seat cannot see, so a node
// stands for an information set of the seat, and a child's statistics count
// how often it was available (single-observer information-set MCTS, Cowling
// et al. 2012).
//
// Children are created for all legal moves the first time a node is
// reached again, as one block in the bot's tree; moves that become legal
// later (another determinisation) get a further block. The tree lives in
// chunks that are kept from one decision to the next and never moved, so
// its memory is bounded by tree_mb: when the next chunk would pass it, the
// tree stops growing and the remaining iterations descend the tree as it
// is and roll out from its leaves. The move buffers and scratch states are
// the bot's too, reused for every decision: an iteration allocates nothing.
type MCTS struct {
	// nearBest and considered are the last decision's NearBest.
	nearBest, considered int
	// filter restricts the bot's own moves (restrict:), nil for none.
	filter      *Filter
	learnBuf    model.Scratch // the learned evaluation's buffers
	params      MCTSParams
	determinize bool
	seat        games.Player
	rng         *pcg.Rand
	nodes       arena[node]
	blocks      arena[block]
	// free is the memory, in bytes, the tree may still take in new chunks.
	free  int64
	path  []int32
	moves []games.Move
	// childOf[j] is the child of the node being descended for moves[j] (-1:
	// none) when its children are not exactly the legal moves; index finds
	// them.
	childOf []int32
	// leads remembers judge's logistic of recent evaluation leads.
	leads leadMemo
	// near is selectAmong's buffer.
	near     [maxNear]nearChild
	index    moveIndex
	outcomes []games.ChanceOutcome
	state    games.State
	// belief re-samples ismcts' worlds at a decision (Inference.belief).
	belief games.Belief
	greedy *Greedy
	stop   *atomic.Bool
	// fixed: the search's positions are chance-free, so an expanded node's
	// children are always its position's legal moves, in order. zeroSum:
	// the heuristic is zero-sum, one evaluation judges a position.
	// solving: fixed and the solver is on.
	fixed, zeroSum, solving bool
	// alpha is the weight of implicit minimax values in selection: the
	// Implicit parameter when the search can use it (fixed, and the game
	// has a heuristic), else 0.
	alpha float64
	// kept is the root child the bot played at its last decision (-1:
	// none), after the position after that move, for Reuse; scratch,
	// scratchFirst, scratchN and queue carry a subtree while the arenas
	// are rebuilt, and keys compare positions.
	kept         int32
	after, probe games.State
	scratch      []node
	scratchFirst []int32
	scratchN     []int32
	queue        []int32
	keys         [2][]byte
}

type node struct {
	value  float64 // sum of the mover's rewards
	move   games.Move
	visits int32
	// minimax is the implicit minimax value for the mover (with Implicit):
	// the heuristic's judgement of the position when the node was first
	// visited, then the best of its children's, backed up.
	minimax float32
	// avail counts the selections at the parent that could have chosen
	// this child. While the parent is not mixed its children share one
	// count, kept by the first child only (see selectAmong).
	avail  int32
	blocks int32 // first block of children (-1: not expanded)
	mover  games.Player
	// mixed: some visit found other legal moves than the children, so
	// their availability counts may differ and each child keeps its own.
	mixed bool
	// proof is what perfect play from this node's position gives its
	// mover (the player who chose its move), once the solver has proven
	// it: proofWin, proofLoss, or 0.
	proof int8
}

// Proven values of a node, for its mover.
const (
	proofWin  = 1
	proofLoss = -1
)

// block is a run of children in the tree, linked to the node's next one.
type block struct {
	first, n, next int32
}

// Tree memory: the default and largest tree_mb, and the tree's chunks.
const (
	DefaultTreeMB = 512
	MaxTreeMB     = 16384
	chunkBits     = 14
	chunkLen      = 1 << chunkBits
	chunkMask     = chunkLen - 1
	// nodeBytes and blockBytes are the sizes of a node and a block.
	nodeBytes  = 32
	blockBytes = 12
)

// arena holds a tree's nodes or blocks in chunks of chunkLen that never
// move; an element's index is its chunk << chunkBits | its offset.
type arena[T any] struct {
	chunks [][]T
	next   int32 // the index the next allocation starts from
}

func (a *arena[T]) at(i int32) *T { return &a.chunks[i>>chunkBits][i&chunkMask] }

// run returns the n elements from index i, allocated together (one chunk).
func (a *arena[T]) run(i int32, n int) []T { return a.chunks[i>>chunkBits][i&chunkMask:][:n] }

// reset forgets every element and keeps the chunks for reuse.
func (a *arena[T]) reset() { a.next = 0 }

// alloc returns the index of k new elements, contiguous in one chunk, or
// -1 when that needs a new chunk of chunkBytes and fewer than that are
// free (or k is more than a chunk holds).
func (a *arena[T]) alloc(k int, chunkBytes int64, free *int64) int32 {
	if k > chunkLen {
		return -1
	}
	c, off := int(a.next>>chunkBits), int(a.next&chunkMask)
	if off+k > chunkLen {
		c, off = c+1, 0
	}
	if c == len(a.chunks) {
		if *free < chunkBytes {
			return -1
		}
		*free -= chunkBytes
		a.chunks = append(a.chunks, make([]T, chunkLen))
	}
	i := int32(c<<chunkBits | off)
	a.next = i + int32(k)
	return i
}

// NewMCTS returns an mcts bot, or with determinize an ismcts bot. A zero
// TreeMB means the default.
func NewMCTS(p MCTSParams, determinize bool) *MCTS {
	if p.TreeMB <= 0 {
		p.TreeMB = DefaultTreeMB
	}
	b := &MCTS{params: p, determinize: determinize, free: int64(p.TreeMB) << 20, kept: -1}
	if p.Reuse && !determinize {
		b.free = b.free / 3 * 2 // the last third for a kept subtree's copy
	}
	if p.Rollout == RolloutGreedy {
		b.greedy = NewGreedy(nil, GreedyParams{})
	}
	b.leads.reset()
	return b
}

// TreeBytes bounds the memory the bot's tree can take in a game whose
// decisions have at most maxMoves legal moves: tree_mb, or less when the
// budget cannot fill it. An iteration expands at most one node; an
// information set's children are the moves legal there in any
// determinisation, at most maxMoves in the games here.
func (p *MCTSParams) TreeBytes(maxMoves int) int64 {
	limit := int64(p.TreeMB) << 20
	if p.TreeMB <= 0 {
		limit = DefaultTreeMB << 20
	}
	nodes := (int64(p.Iterations) + 1) * int64(maxMoves)
	// Whole chunks, one more of each for the tail a block leaves unused.
	need := (nodes/chunkLen+2)*chunkLen*nodeBytes + (int64(p.Iterations)/chunkLen+2)*chunkLen*blockBytes
	if p.Reuse {
		// A kept subtree has at most one decision's iterations (see
		// reroot): the tree holds it and a decision's growth (two thirds
		// of tree_mb at most), and its copy passes through scratch memory
		// as large as the subtree (a third).
		return min(3*need, limit)
	}
	return min(need, limit)
}

// NearBest counts the legal moves of the last decision visited at least
// half as often as the most visited (implements Deliberator).
func (b *MCTS) NearBest() (near, moves int) { return b.nearBest, b.considered }

// SetStop makes Choose return early once *stop is true.
func (b *MCTS) SetStop(stop *atomic.Bool) { b.stop = stop }

// Reset starts a new game.
func (b *MCTS) Reset(seat games.Player, rng *pcg.Rand) {
	b.seat, b.rng = seat, rng
	b.kept = -1
	if b.greedy != nil {
		b.greedy.Reset(seat, rng)
	}
}

// Choose searches params.Iterations iterations from s and plays the root
// move visited most (ties to the first).
func (b *MCTS) Choose(s games.State, legal []games.Move) games.Move {
	b.nearBest, b.considered = 0, 0
	if len(legal) == 1 {
		b.kept = -1
		return legal[0]
	}
	if b.state == nil {
		b.state = s.Clone()
	}
	cf, ok := s.(games.ChanceFree)
	b.fixed = ok && cf.ChanceFree() && !b.determinize
	b.solving = b.fixed && b.params.Solver
	if !(b.fixed && b.params.Reuse && b.reroot(s)) {
		b.nodes.reset()
		b.blocks.reset()
		root := b.nodes.alloc(1, chunkLen*nodeBytes, &b.free)
		if root < 0 {
			return legal[0] // a tree_mb too small for one chunk: Validate refuses it
		}
		*b.nodes.at(root) = node{mover: games.NoPlayer, blocks: -1}
	}
	zs, ok := s.(games.ZeroSumHeuristic)
	b.zeroSum = ok && zs.ZeroSum()
	b.alpha = 0
	if _, ok := s.(games.Heuristic); ok && b.fixed {
		b.alpha = b.params.Implicit
	}
	_, det := s.(games.Determinizer)
	if b.determinize && det {
		b.belief = b.params.belief(s, b.seat, b.belief)
	}
	for range b.params.Iterations {
		if b.stop != nil && b.stop.Load() {
			break
		}
		b.state.CopyFrom(s)
		if b.determinize && det {
			b.params.determinize(b.belief, b.state, b.seat, b.rng)
		}
		b.iterate()
	}
	// The most visited move; with proofs, a proven win before anything,
	// and a proven loss only when every move is one.
	best, bestRank, bestVisits, bestChild := legal[0], -2, int32(-1), int32(-1)
	for bl := b.nodes.at(0).blocks; bl >= 0; bl = b.blocks.at(bl).next {
		k := b.blocks.at(bl)
		for c := k.first; c < k.first+k.n; c++ {
			n := b.nodes.at(c)
			if !contains(legal, n.move) {
				continue
			}
			rank := int(n.proof) // win 1, unknown 0, loss -1
			if rank > bestRank || rank == bestRank && n.visits > bestVisits {
				best, bestRank, bestVisits, bestChild = n.move, rank, n.visits, c
			}
		}
	}
	b.nearBest, b.considered = 0, len(legal)
	for bl := b.nodes.at(0).blocks; bl >= 0; bl = b.blocks.at(bl).next {
		k := b.blocks.at(bl)
		for c := k.first; c < k.first+k.n; c++ {
			if n := b.nodes.at(c); 2*n.visits >= bestVisits && contains(legal, n.move) {
				b.nearBest++
			}
		}
	}
	b.kept = -1
	if b.fixed && b.params.Reuse && bestChild >= 0 {
		if b.after == nil {
			b.after, b.probe = s.Clone(), s.Clone()
		}
		b.after.CopyFrom(s)
		b.after.Apply(best)
		b.kept = bestChild
	}
	return best
}

// reroot makes the tree's node for s the root, when s is the position
// after the bot's last move (b.after) and a reply the tree has a node for:
// that node's subtree is copied out, the arenas emptied, and the subtree
// copied back with its statistics and proofs, its node as the root. It
// reports false, with the tree unchanged, when there is no such node, the
// positions cannot be compared (no games.Keyer or games.Hasher), or the
// subtree holds more than one decision's iterations or a third of tree_mb
// (which bounds the memory: see TreeBytes).
func (b *MCTS) reroot(s games.State) bool {
	if b.kept < 0 || b.after == nil {
		return false
	}
	var ok bool
	if b.keys[0], ok = positionKey(s, b.keys[0][:0]); !ok {
		return false
	}
	c := b.nodes.at(b.kept)
	if c.blocks < 0 {
		return false
	}
	k := b.blocks.at(c.blocks)
	found := int32(-1)
	for g := k.first; g < k.first+k.n; g++ {
		b.probe.CopyFrom(b.after)
		b.probe.Apply(b.nodes.at(g).move)
		b.keys[1], _ = positionKey(b.probe, b.keys[1][:0])
		if string(b.keys[0]) == string(b.keys[1]) {
			found = g
			break
		}
	}
	if found < 0 || b.nodes.at(found).blocks < 0 || b.nodes.at(found).visits > int32(b.params.Iterations) {
		return false // nothing to keep, or more than one decision's worth
	}
	// Copy the subtree out, breadth first: scratch[i]'s children are
	// scratch[scratchFirst[i]:][:scratchN[i]] (-1: none).
	limit := (int64(b.params.TreeMB) << 20) / 3 / nodeBytes
	b.scratch, b.scratchFirst, b.scratchN = append(b.scratch[:0], *b.nodes.at(found)), b.scratchFirst[:0], b.scratchN[:0]
	b.queue = append(b.queue[:0], found)
	for i := 0; i < len(b.queue); i++ {
		nd := b.nodes.at(b.queue[i])
		if nd.blocks < 0 {
			b.scratchFirst, b.scratchN = append(b.scratchFirst, -1), append(b.scratchN, 0)
			continue
		}
		k := b.blocks.at(nd.blocks) // the fixed case: one block
		b.scratchFirst, b.scratchN = append(b.scratchFirst, int32(len(b.scratch))), append(b.scratchN, k.n)
		for c := k.first; c < k.first+k.n; c++ {
			b.scratch = append(b.scratch, *b.nodes.at(c))
			b.queue = append(b.queue, c)
		}
		if int64(len(b.scratch)) > limit {
			return false
		}
	}
	// Rebuild: the same breadth-first order, each node's children as one
	// block; queue now maps a scratch index to its new node.
	b.nodes.reset()
	b.blocks.reset()
	root := b.nodes.alloc(1, chunkLen*nodeBytes, &b.free)
	rootNode := b.scratch[0]
	rootNode.mover, rootNode.proof, rootNode.blocks = games.NoPlayer, 0, -1
	*b.nodes.at(root) = rootNode
	b.queue = append(b.queue[:0], root)
	for i := range b.scratch {
		first, n := b.scratchFirst[i], int(b.scratchN[i])
		if first < 0 || n == 0 {
			continue
		}
		f := b.nodes.alloc(n, chunkLen*nodeBytes, &b.free)
		bl := b.blocks.alloc(1, chunkLen*blockBytes, &b.free)
		if f < 0 || bl < 0 {
			break // cannot happen: the subtree came from a tree this size
		}
		children := b.nodes.run(f, n)
		copy(children, b.scratch[first:first+int32(n)])
		for j := range children {
			children[j].blocks = -1
			b.queue = append(b.queue, f+int32(j))
		}
		*b.blocks.at(bl) = block{first: f, n: int32(n), next: -1}
		b.nodes.at(b.queue[i]).blocks = bl
	}
	return true
}

// positionKey appends s's exact key (games.Keyer), or else its hash
// (games.Hasher), to buf; ok is false when s has neither.
func positionKey(s games.State, buf []byte) ([]byte, bool) {
	if k, ok := s.(games.Keyer); ok {
		return k.AppendKey(buf), true
	}
	if h, ok := s.(games.Hasher); ok {
		return binary.LittleEndian.AppendUint64(buf, h.Hash()), true
	}
	return buf, false
}

func contains(moves []games.Move, m games.Move) bool {
	for _, x := range moves {
		if x == m {
			return true
		}
	}
	return false
}

// iterate runs one iteration from b.state: selection and expansion down the
// tree, a rollout, and the backup of the result.
func (b *MCTS) iterate() {
	s := b.state
	b.path = append(b.path[:0], 0)
	cur := int32(0)
	proven := false
	for !s.IsTerminal() {
		if b.solving && cur != 0 && b.nodes.at(cur).proof != 0 {
			proven = true // a solved position: its result needs no rollout
			break
		}
		p := s.CurrentPlayer()
		if p == games.Chance {
			var m games.Move
			m, b.outcomes = games.DrawChance(s, b.rng, b.outcomes)
			s.Apply(m)
			continue
		}
		var child int32
		if nd := b.nodes.at(cur); b.fixed && nd.blocks >= 0 {
			// The children are the legal moves: no need to generate them.
			child = b.selectChild(cur, int(b.blocks.at(nd.blocks).n), true)
		} else {
			b.moves = s.LegalMoves(b.moves[:0])
			if b.filter != nil && p == b.seat {
				b.moves, _ = b.filter.Apply(s, b.moves)
			}
			aligned := true
			if nd.blocks < 0 {
				if !b.addBlock(cur, b.moves, p) {
					break // the tree is full: the rollout starts here
				}
			} else {
				aligned = b.addMissing(cur, b.moves, p)
			}
			child = b.selectChild(cur, len(b.moves), aligned)
		}
		if child < 0 {
			break // the tree is full and has no child for a legal move
		}
		s.Apply(b.nodes.at(child).move)
		b.path = append(b.path, child)
		cur = child
		if b.nodes.at(child).visits == 0 {
			break // a new node: the rollout starts here
		}
	}
	var rewards [games.NumSeats]float64
	leaf := b.nodes.at(cur)
	if b.alpha > 0 && leaf.visits == 0 && cur != 0 && !proven {
		// A new node: the heuristic judges its position before the rollout.
		if s.IsTerminal() {
			leaf.minimax = float32(s.Result().ScoreFor(leaf.mover))
		} else {
			leaf.minimax = float32(b.judge(s)[leaf.mover])
		}
	}
	switch {
	case proven:
		rewards = provenRewards(leaf)
	case b.solving && s.IsTerminal() && cur != 0:
		if w := s.Result().Winner; w != games.NoPlayer {
			leaf.proof = proofLoss
			if w == leaf.mover {
				leaf.proof = proofWin
			}
		}
		rewards = b.rollout(s)
	default:
		rewards = b.rollout(s)
	}
	for _, n := range b.path {
		nd := b.nodes.at(n)
		nd.visits++
		if nd.mover >= 0 {
			nd.value += rewards[nd.mover]
		}
	}
	proved := len(b.path)
	if b.solving {
		proved = b.backupProofs()
	}
	if b.alpha > 0 {
		b.backupMinimax(proved)
	}
}

// backupMinimax carries the new leaf's judgement up the path (implicit
// minimax backups): a node's value is the best of its children's for the
// player to move at its position, the one who chose them, and a proven
// child counts as won or lost. It stops where a value does not change and
// no node above was just proved (path[proved] is the highest that was).
// The fixed case: a node's children are one block.
func (b *MCTS) backupMinimax(proved int) {
	for i := len(b.path) - 1; i >= 2; i-- {
		parent := b.nodes.at(b.path[i-1])
		k := b.blocks.at(parent.blocks)
		mover := b.nodes.at(b.path[i]).mover // the player to move at the parent's position
		best := float32(-1)
		for _, c := range b.nodes.run(k.first, int(k.n)) {
			if c.visits > 0 || c.proof != 0 {
				best = max(best, c.judged())
			}
		}
		if best < 0 {
			return // cannot happen: the path's child has been visited
		}
		if parent.mover != mover {
			best = 1 - best
		}
		if best == parent.minimax && proved >= i {
			return
		}
		parent.minimax = best
	}
}

// judged is the implicit minimax value of a visited node for its mover:
// 1 or 0 once proven.
func (n *node) judged() float32 {
	switch n.proof {
	case proofWin:
		return 1
	case proofLoss:
		return 0
	}
	return n.minimax
}

// provenRewards are the rewards of a proven node's result.
func provenRewards(n *node) [games.NumSeats]float64 {
	var r [games.NumSeats]float64
	win := 0.0
	if n.proof == proofWin {
		win = 1
	}
	r[n.mover], r[n.mover.Opponent()] = win, 1-win
	return r
}

// backupProofs carries a proof found at the end of the iteration's path
// up the tree (MCTS-Solver): a position is won for the player to move when
// one of its moves wins, lost when every move loses. A node's children are
// its position's legal moves (the fixed case), so "every move" is its one
// block of children. It returns the index in the path of the highest node
// it proved (len(path): none).
func (b *MCTS) backupProofs() (highest int) {
	highest = len(b.path)
	for i := len(b.path) - 1; i >= 1; i-- {
		child, parent := b.nodes.at(b.path[i]), b.nodes.at(b.path[i-1])
		if child.proof == 0 || parent.proof != 0 {
			return
		}
		mover := child.mover // the player to move at the parent's position
		won := child.proof == proofWin
		if !won {
			k := b.blocks.at(parent.blocks)
			for _, c := range b.nodes.run(k.first, int(k.n)) {
				if c.proof != proofLoss {
					return // a move not proven lost: the position is open
				}
			}
		}
		if b.path[i-1] == 0 {
			return // the root: its moves' proofs decide the choice
		}
		if won == (parent.mover == mover) {
			parent.proof = proofWin
		} else {
			parent.proof = proofLoss
		}
		highest = i - 1
	}
	return
}

// addBlock gives node a block of children, one per move; it reports false,
// adding nothing, when the tree is full.
func (b *MCTS) addBlock(parent int32, moves []games.Move, mover games.Player) bool {
	first := b.nodes.alloc(len(moves), chunkLen*nodeBytes, &b.free)
	if first < 0 {
		return false
	}
	bl := b.blocks.alloc(1, chunkLen*blockBytes, &b.free)
	if bl < 0 {
		b.nodes.next = first // give the nodes back
		return false
	}
	children := b.nodes.run(first, len(moves))
	for i, m := range moves {
		children[i] = node{move: m, mover: mover, blocks: -1}
	}
	pn := b.nodes.at(parent)
	*b.blocks.at(bl) = block{first: first, n: int32(len(moves)), next: pn.blocks}
	pn.blocks = bl
	return true
}

// addMissing adds children for the legal moves (b.moves) the node has none
// for: under another determinisation, or after another chance outcome, the
// legal moves at a node can change. It reports whether the node's children
// are exactly the legal moves in order (one block), the usual case in
// which selectChild needs no search; otherwise it marks the node mixed and
// sets b.childOf.
func (b *MCTS) addMissing(parent int32, moves []games.Move, mover games.Player) (aligned bool) {
	if k := b.blocks.at(b.nodes.at(parent).blocks); k.next < 0 && int(k.n) == len(moves) {
		children := b.nodes.run(k.first, len(moves))
		aligned = true
		for i, m := range moves {
			if children[i].move != m {
				aligned = false
				break
			}
		}
		if aligned {
			return true
		}
	}
	if pn := b.nodes.at(parent); !pn.mixed {
		// The children stop sharing one availability count (one block:
		// the node was not mixed): each keeps its own from now on.
		pn.mixed = true
		k := b.blocks.at(pn.blocks)
		children := b.nodes.run(k.first, int(k.n))
		for i := range children {
			children[i].avail = children[0].avail
		}
	}
	// Index the node's children by move, then look up each legal move.
	children := 0
	for bl := b.nodes.at(parent).blocks; bl >= 0; bl = b.blocks.at(bl).next {
		children += int(b.blocks.at(bl).n)
	}
	b.index.reset(children)
	for bl := b.nodes.at(parent).blocks; bl >= 0; bl = b.blocks.at(bl).next {
		k := b.blocks.at(bl)
		for c := k.first; c < k.first+k.n; c++ {
			b.index.put(b.nodes.at(c).move, c)
		}
	}
	b.childOf = b.childOf[:0]
	start := len(b.moves)
	for _, m := range moves {
		c := b.index.get(m)
		if c < 0 {
			b.moves = append(b.moves, m)
		}
		b.childOf = append(b.childOf, c)
	}
	if missing := b.moves[start:]; len(missing) > 0 {
		if b.addBlock(parent, missing, mover) { // a full tree leaves them out
			first := b.blocks.at(b.nodes.at(parent).blocks).first
			next := first
			for j, c := range b.childOf {
				if c < 0 {
					b.childOf[j] = next
					next++
				}
			}
		}
		b.moves = b.moves[:start]
	}
	return false
}

// moveIndex is a hash table from moves to children, emptied in constant
// time by a generation stamp; its memory is kept from use to use.
type moveIndex struct {
	keys  []games.Move
	vals  []int32
	stamp []uint32
	gen   uint32
	shift uint8
}

// reset empties the table and makes room for n entries.
func (t *moveIndex) reset(n int) {
	if size := 4 << bits.Len(uint(n)); len(t.keys) < size { // load ≤ 1/4
		t.keys, t.vals, t.stamp = make([]games.Move, size), make([]int32, size), make([]uint32, size)
		t.shift, t.gen = uint8(64-bits.Len(uint(size-1))), 0
	}
	if t.gen++; t.gen == 0 {
		clear(t.stamp)
		t.gen = 1
	}
}

func (t *moveIndex) slot(m games.Move) int {
	return int(uint64(uint32(m)) * 0x9e3779b97f4a7c15 >> t.shift)
}

func (t *moveIndex) put(m games.Move, v int32) {
	mask := len(t.keys) - 1
	i := t.slot(m)
	for t.stamp[i] == t.gen {
		i = (i + 1) & mask
	}
	t.keys[i], t.vals[i], t.stamp[i] = m, v, t.gen
}

// get returns the value of m, or -1.
func (t *moveIndex) get(m games.Move) int32 {
	mask := len(t.keys) - 1
	for i := t.slot(m); t.stamp[i] == t.gen; i = (i + 1) & mask {
		if t.keys[i] == m {
			return t.vals[i]
		}
	}
	return -1
}

// selectChild returns the child to descend to among those of the k legal
// moves (b.moves, or with aligned set the node's one block of children),
// each of which counts as available once more: an unvisited one if any
// (the first after a random start), else the best by UCB with its
// availability count in place of the parent's visits (the first best
// after the random start). It returns -1 when no legal move has a child
// (a full tree).
func (b *MCTS) selectChild(parent int32, k int, aligned bool) int32 {
	var children []node
	first := int32(0)
	if aligned {
		pn := b.nodes.at(parent)
		first = b.blocks.at(pn.blocks).first
		children = b.nodes.run(first, k)
		if !pn.mixed {
			// Every visit found the same moves: one availability count.
			return first + b.selectAmong(children)
		}
	}
	// Otherwise (children that are not exactly the legal moves, or whose
	// availability counts differ) each child is scored with its own count.
	c := b.params.Exploration
	best, bestScore := int32(-1), math.Inf(-1)
	unvisited := int32(-1)
	j := b.rng.IntN(k) - 1 // the children are visited from a random start
	for range k {
		if j++; j == k {
			j = 0
		}
		var child int32
		var n *node
		if aligned {
			child, n = first+int32(j), &children[j]
		} else if child = b.childOf[j]; child < 0 {
			continue
		} else {
			n = b.nodes.at(child)
		}
		n.avail++
		if n.visits == 0 {
			if unvisited < 0 {
				unvisited = child
			}
			continue
		}
		if score := ucbScore(n, c, lnCount(n.avail)); score > bestScore {
			best, bestScore = child, score
		}
	}
	if unvisited >= 0 {
		return unvisited
	}
	return best
}

// selectAmong is selectChild for a node whose children all share one
// availability count, the usual case: the first child keeps it, the
// others' are not kept (see node.avail). It returns the index of the child
// among children.
//
// The exact UCB score, mean + c·√(ln avail / visits), costs two divisions
// and a square root. Each child is scored approximately instead, from
// tables of 1/n and 1/√n, within far less than approxMargin of its exact
// score; a child whose approximate score falls more than twice the margin
// below the best approximate score seen cannot have the best exact score.
// The others (near) are kept in visiting order; when only one is left it is
// the exact scores' choice, otherwise the exact scores of those left pick
// the first best among them: the child chosen is exactly the one the exact
// scores choose.
func (b *MCTS) selectAmong(children []node) int32 {
	k := len(children)
	children[0].avail++
	logAvail := lnCount(children[0].avail)
	c := b.params.Exploration
	cSqrtLog := c * sqrtLnCount(children[0].avail)
	alpha := b.alpha
	near := b.near[:0]
	top, cut := math.Inf(-1), math.Inf(-1)
	start := b.rng.IntN(k) // the children are visited from a random start
	for i := range k {
		j := start + i
		if j >= k {
			j -= k
		}
		n := &children[j]
		if n.proof == proofLoss {
			continue // a move proven lost for the mover
		}
		v := n.visits
		if v == 0 {
			return int32(j) // the first unvisited child goes first
		}
		var a float64
		switch {
		case alpha > 0:
			a = b.implicitScore(n, c, logAvail)
		case uint32(v) < countTables:
			a = n.value*invTable[v] + cSqrtLog*invSqrtTable[v]
		default:
			a = ucbScore(n, c, logAvail)
		}
		if a < cut {
			continue // cannot beat the best
		}
		if a > top {
			newCut := a - 2*approxMargin*(1+math.Abs(a))
			if top < newCut {
				near = near[:0] // every child kept is out of reach now
			}
			top, cut = a, newCut
		}
		if len(near) == cap(near) {
			if near = dropBelow(near, cut); len(near) == cap(near) {
				return b.selectExact(children, start, logAvail) // a crowd of ties
			}
		}
		near = append(near, nearChild{a, int32(j)})
	}
	near = dropBelow(near, cut)
	if len(near) == 0 {
		return int32(start) // every move proven lost: any will do
	}
	if len(near) == 1 {
		return near[0].index
	}
	best, bestScore := int32(-1), math.Inf(-1)
	for _, x := range near {
		if score := b.score(&children[x.index], c, logAvail); score > bestScore {
			best, bestScore = x.index, score
		}
	}
	return best
}

// nearChild is a child whose approximate score was near the best seen.
type nearChild struct {
	approx float64
	index  int32
}

// maxNear bounds the children selectAmong keeps near the best.
const maxNear = 16

// dropBelow removes the children scored below cut, keeping the order.
func dropBelow(near []nearChild, cut float64) []nearChild {
	kept := near[:0]
	for _, x := range near {
		if x.approx >= cut {
			kept = append(kept, x)
		}
	}
	return kept
}

// selectExact is selectAmong by exact scores alone, from the random start
// start: the first unvisited child, else the first with the best score.
func (b *MCTS) selectExact(children []node, start int, logAvail float64) int32 {
	k := len(children)
	best, bestScore := int32(start), math.Inf(-1) // every move proven lost: the start
	for i := range k {
		j := (start + i) % k
		if children[j].proof == proofLoss {
			continue
		}
		if children[j].visits == 0 {
			return int32(j)
		}
		if score := b.score(&children[j], b.params.Exploration, logAvail); score > bestScore {
			best, bestScore = int32(j), score
		}
	}
	return best
}

// score is a visited child's exact score in the fixed case: the UCB
// score, with implicit minimax values when they are on.
func (b *MCTS) score(n *node, c, logAvail float64) float64 {
	if b.alpha > 0 {
		return b.implicitScore(n, c, logAvail)
	}
	return ucbScore(n, c, logAvail)
}

// implicitScore is the UCB score with the mean reward blended with the
// implicit minimax value: (1−α)·mean + α·minimax + c·√(ln avail / visits).
func (b *MCTS) implicitScore(n *node, c, logAvail float64) float64 {
	mean := n.value / float64(n.visits)
	return (1-b.alpha)*mean + b.alpha*float64(n.judged()) + c*math.Sqrt(logAvail/float64(n.visits))
}

// ucbScore is a visited child's exact UCB score.
func ucbScore(n *node, c, logAvail float64) float64 {
	return n.value/float64(n.visits) + c*math.Sqrt(logAvail/float64(n.visits))
}

// approxMargin bounds, relative to 1 + |score|, how far selectAmong's
// approximate UCB scores may be from the exact ones: a handful of
// correctly rounded operations on numbers of order one err by about 1e-15
// of that, so the margin is generous.
const approxMargin = 1e-9

// countTables is the length of the tables of counts.
const countTables = 2048

// Tables of counts n: ln n (math.Log's own values, so looking one up
// changes nothing), and for approximate scores 1/n, 1/√n and √(ln n).
var lnTable, invTable, invSqrtTable, sqrtLnTable = func() (ln, inv, invSqrt, sqrtLn [countTables]float64) {
	for n := range countTables {
		x := float64(n)
		ln[n], inv[n], invSqrt[n] = math.Log(x), 1/x, 1/math.Sqrt(x)
		sqrtLn[n] = math.Sqrt(ln[n])
	}
	return
}()

// sqrtLnCount returns √(ln n) for an availability count n ≥ 1.
func sqrtLnCount(n int32) float64 {
	if uint32(n) < countTables {
		return sqrtLnTable[n]
	}
	return math.Sqrt(math.Log(float64(n)))
}

// lnCount returns math.Log(float64(n)) for a visit or availability count.
func lnCount(n int32) float64 {
	if uint32(n) < countTables {
		return lnTable[n]
	}
	return math.Log(float64(n))
}

// rollout plays on from s with the rollout policy and returns each seat's
// reward: 1 for a win, ½ for a draw, 0 for a loss, or the heuristic's
// judgement when the rollout is cut off.
func (b *MCTS) rollout(s games.State) [games.NumSeats]float64 {
	rm, random := s.(games.RandomMover)
	mp, picks := s.(games.MovePicker)
	for n := 0; !s.IsTerminal(); n++ {
		if b.params.RolloutCap > 0 && n >= b.params.RolloutCap {
			return b.judge(s)
		}
		switch p := s.CurrentPlayer(); {
		case p == games.Chance:
			var m games.Move
			m, b.outcomes = games.DrawChance(s, b.rng, b.outcomes)
			s.Apply(m)
		case b.filter != nil && p == b.seat: // the restricted seat: from the list
			b.moves, _ = b.filter.Apply(s, s.LegalMoves(b.moves[:0]))
			if b.greedy != nil {
				b.greedy.seat = p
				s.Apply(b.greedy.Choose(s, b.moves))
				continue
			}
			s.Apply(b.moves[b.rng.IntN(len(b.moves))])
		case b.greedy != nil:
			b.moves = s.LegalMoves(b.moves[:0])
			b.greedy.seat = p
			s.Apply(b.greedy.Choose(s, b.moves))
		case random:
			s.Apply(rm.RandomMove(b.rng))
		case picks: // the same draw as the list's, without the list
			m, _ := mp.PickMove(games.UniformPicker{Rng: b.rng})
			s.Apply(m)
		default:
			b.moves = s.LegalMoves(b.moves[:0])
			s.Apply(b.moves[b.rng.IntN(len(b.moves))])
		}
	}
	r := s.Result()
	var out [games.NumSeats]float64
	for seat := range out {
		out[seat] = r.ScoreFor(games.Player(seat))
	}
	return out
}

// judge scores an unfinished position with the game's heuristic, as a
// probability of winning: a logistic of the difference between the seats'
// evaluations over eval_scale (a heuristic need not be zero-sum: Capstone's
// rates each seat's own goal).
func (b *MCTS) judge(s games.State) [games.NumSeats]float64 {
	var d float64
	if m := b.params.learned; m != nil {
		// The model's own chance, not eval_scale's logistic of a lead in
		// hand units: where the hand heuristic predicts little (Capstone),
		// its scale is small and a lead in its units would saturate the
		// logistic. Seat 0's chance is σ((logit₀ − logit₁)/2), symmetric
		// in the two seats' views.
		p0 := model.Sigmoid(m.LogitLead(s, games.Seat0, &b.learnBuf) / 2)
		return [games.NumSeats]float64{p0, 1 - p0}
	}
	h, ok := s.(games.Heuristic)
	if !ok {
		return [games.NumSeats]float64{0.5, 0.5}
	}
	if b.zeroSum { // Evaluate(Seat1) = −e exactly, so e − (−e) = e + e
		e := h.Evaluate(games.Seat0)
		d = e + e
	} else {
		d = h.Evaluate(games.Seat0) - h.Evaluate(games.Seat1)
	}
	p0 := b.judgeLead(d)
	return [games.NumSeats]float64{p0, 1 - p0}
}

// judgeLead is winProbability(d), remembered: a heuristic's leads repeat
// (whole points, or material and mobility counts), and math.Exp is the
// dearest part of judging.
func (b *MCTS) judgeLead(d float64) float64 {
	m := &b.leads
	i := leadSlot(d)
	if m.lead[i] == d {
		return m.prob[i] // the same number, without math.Exp
	}
	p := b.winProbability(d)
	m.lead[i], m.prob[i] = d, p
	return p
}

// winProbability is judge's logistic: seat 0's chance of winning when its
// evaluation leads by d.
func (b *MCTS) winProbability(d float64) float64 {
	return 1 / (1 + math.Exp(-d/b.params.EvalScale))
}

// leadMemo is a direct-mapped table of leads and their logistic; an empty
// slot holds NaN, which equals no lead.
type leadMemo struct {
	lead, prob [1 << leadMemoBits]float64
}

// leadMemoBits sets leadMemo's size (2 × 8 KiB).
const leadMemoBits = 10

// leadSlot is the slot of lead d in a leadMemo.
func leadSlot(d float64) uint64 {
	return math.Float64bits(d) * 0x9e3779b97f4a7c15 >> (64 - leadMemoBits)
}

// reset empties the table.
func (m *leadMemo) reset() {
	for i := range m.lead {
		m.lead[i] = math.NaN()
	}
}

// Budget returns the iterations per decision.
func (p *MCTSParams) Budget() (string, int) { return "iterations", p.Iterations }

// WithBudget returns a copy with Iterations set.
func (p *MCTSParams) WithBudget(n int) Params {
	q := *p
	q.Iterations = n
	return &q
}
