package bots

import (
	"math"
	"math/rand/v2"

	"playtest/games"
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
}

// DefaultMCTSParams returns the defaults.
func DefaultMCTSParams() *MCTSParams {
	return &MCTSParams{Iterations: 1000, Exploration: 1.0, Rollout: RolloutRandom, EvalScale: 10}
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
	}
	return nil
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
// reached, as one block in the bot's node arena; moves that become legal
// later (another determinisation) get a further block. The arena, the move
// buffers and the scratch states are the bot's, reused for every decision:
// an iteration allocates nothing.
type MCTS struct {
	params      MCTSParams
	determinize bool
	seat        games.Player
	rng         *rand.Rand
	nodes       []node
	blocks      []block
	path        []int32
	moves       []games.Move
	outcomes    []games.ChanceOutcome
	state       games.State
	greedy      *Greedy
}

type node struct {
	move   games.Move
	mover  games.Player
	visits int32
	avail  int32
	value  float64 // sum of the mover's rewards
	blocks int32   // first block of children (-1: not expanded)
}

// block is a run of children in the arena, linked to the node's next one.
type block struct {
	first, n, next int32
}

// NewMCTS returns an mcts bot, or with determinize an ismcts bot.
func NewMCTS(p MCTSParams, determinize bool) *MCTS {
	b := &MCTS{params: p, determinize: determinize}
	if p.Rollout == RolloutGreedy {
		b.greedy = NewGreedy(nil, GreedyParams{})
	}
	return b
}

// Reset starts a new game.
func (b *MCTS) Reset(seat games.Player, rng *rand.Rand) {
	b.seat, b.rng = seat, rng
	if b.greedy != nil {
		b.greedy.Reset(seat, rng)
	}
}

// Choose searches params.Iterations iterations from s and plays the root
// move visited most (ties to the first).
func (b *MCTS) Choose(s games.State, legal []games.Move) games.Move {
	if len(legal) == 1 {
		return legal[0]
	}
	if b.state == nil {
		b.state = s.Clone()
	}
	b.nodes = append(b.nodes[:0], node{mover: games.NoPlayer, blocks: -1})
	b.blocks = b.blocks[:0]
	det, _ := s.(games.Determinizer)
	for range b.params.Iterations {
		b.state.CopyFrom(s)
		if b.determinize && det != nil {
			b.state.(games.Determinizer).Determinize(b.seat, b.rng)
		}
		b.iterate()
	}
	best, bestVisits := legal[0], int32(-1)
	for bl := b.nodes[0].blocks; bl >= 0; bl = b.blocks[bl].next {
		k := b.blocks[bl]
		for c := k.first; c < k.first+k.n; c++ {
			if n := &b.nodes[c]; n.visits > bestVisits && contains(legal, n.move) {
				best, bestVisits = n.move, n.visits
			}
		}
	}
	return best
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
	for !s.IsTerminal() {
		p := s.CurrentPlayer()
		if p == games.Chance {
			b.outcomes = s.ChanceOutcomes(b.outcomes[:0])
			s.Apply(games.SampleChance(b.outcomes, b.rng))
			continue
		}
		b.moves = s.LegalMoves(b.moves[:0])
		aligned := true
		if b.nodes[cur].blocks < 0 {
			b.addBlock(cur, b.moves, p)
		} else {
			aligned = b.addMissing(cur, b.moves, p)
		}
		child := b.selectChild(cur, aligned)
		s.Apply(b.nodes[child].move)
		b.path = append(b.path, child)
		cur = child
		if b.nodes[child].visits == 0 {
			break // a new node: the rollout starts here
		}
	}
	rewards := b.rollout(s)
	for _, n := range b.path {
		nd := &b.nodes[n]
		nd.visits++
		if nd.mover >= 0 {
			nd.value += rewards[nd.mover]
		}
	}
}

// addBlock gives node a block of children, one per move.
func (b *MCTS) addBlock(parent int32, moves []games.Move, mover games.Player) {
	first := int32(len(b.nodes))
	for _, m := range moves {
		b.nodes = append(b.nodes, node{move: m, mover: mover, blocks: -1})
	}
	bl := int32(len(b.blocks))
	b.blocks = append(b.blocks, block{first: first, n: int32(len(moves)), next: b.nodes[parent].blocks})
	b.nodes[parent].blocks = bl
}

// addMissing adds children for the legal moves (b.moves) the node has none
// for: under another determinisation, or after another chance outcome, the
// legal moves at a node can change. It reports whether the node's children
// are exactly the legal moves in order (one block), the usual case in
// which selectChild needs no search.
func (b *MCTS) addMissing(parent int32, moves []games.Move, mover games.Player) (aligned bool) {
	if bl := b.nodes[parent].blocks; b.blocks[bl].next < 0 && int(b.blocks[bl].n) == len(moves) {
		k := b.blocks[bl]
		aligned = true
		for i, m := range moves {
			if b.nodes[k.first+int32(i)].move != m {
				aligned = false
				break
			}
		}
		if aligned {
			return true
		}
	}
	start := len(b.moves)
	for _, m := range moves {
		if b.find(parent, m) < 0 {
			b.moves = append(b.moves, m)
		}
	}
	if len(b.moves) > start {
		b.addBlock(parent, b.moves[start:], mover)
		b.moves = b.moves[:start]
	}
	return false
}

// find returns the child of parent for move m, or -1.
func (b *MCTS) find(parent int32, m games.Move) int32 {
	for bl := b.nodes[parent].blocks; bl >= 0; bl = b.blocks[bl].next {
		k := b.blocks[bl]
		for c := k.first; c < k.first+k.n; c++ {
			if b.nodes[c].move == m {
				return c
			}
		}
	}
	return -1
}

// selectChild returns the child to descend to among those of the legal
// moves (b.moves), each of which counts as available once more: an
// unvisited one if any (the first after a random start), else the best by
// UCB with its availability count in place of the parent's visits.
func (b *MCTS) selectChild(parent int32, aligned bool) int32 {
	c := b.params.Exploration
	best, bestScore := int32(-1), math.Inf(-1)
	unvisited := int32(-1)
	first := b.blocks[b.nodes[parent].blocks].first
	offset := b.rng.IntN(len(b.moves))
	for i := range b.moves {
		j := (i + offset) % len(b.moves)
		child := first + int32(j)
		if !aligned {
			child = b.find(parent, b.moves[j])
		}
		n := &b.nodes[child]
		n.avail++
		if n.visits == 0 {
			if unvisited < 0 {
				unvisited = child
			}
			continue
		}
		score := n.value/float64(n.visits) + c*math.Sqrt(math.Log(float64(n.avail))/float64(n.visits))
		if score > bestScore {
			best, bestScore = child, score
		}
	}
	if unvisited >= 0 {
		return unvisited
	}
	return best
}

// rollout plays on from s with the rollout policy and returns each seat's
// reward: 1 for a win, ½ for a draw, 0 for a loss, or the heuristic's
// judgement when the rollout is cut off.
func (b *MCTS) rollout(s games.State) [games.NumSeats]float64 {
	rm, random := s.(games.RandomMover)
	for n := 0; !s.IsTerminal(); n++ {
		if b.params.RolloutCap > 0 && n >= b.params.RolloutCap {
			return b.judge(s)
		}
		switch p := s.CurrentPlayer(); {
		case p == games.Chance:
			b.outcomes = s.ChanceOutcomes(b.outcomes[:0])
			s.Apply(games.SampleChance(b.outcomes, b.rng))
		case b.greedy != nil:
			b.moves = s.LegalMoves(b.moves[:0])
			b.greedy.seat = p
			s.Apply(b.greedy.Choose(s, b.moves))
		case random:
			s.Apply(rm.RandomMove(b.rng))
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
	h, ok := s.(games.Heuristic)
	if !ok {
		return [games.NumSeats]float64{0.5, 0.5}
	}
	d := h.Evaluate(games.Seat0) - h.Evaluate(games.Seat1)
	p0 := 1 / (1 + math.Exp(-d/b.params.EvalScale))
	return [games.NumSeats]float64{p0, 1 - p0}
}

// Budget returns the iterations per decision.
func (p *MCTSParams) Budget() (string, int) { return "iterations", p.Iterations }

// WithBudget returns a copy with Iterations set.
func (p *MCTSParams) WithBudget(n int) Params {
	q := *p
	q.Iterations = n
	return &q
}
