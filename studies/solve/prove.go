package solve

import (
	"context"
	"fmt"
	"time"

	"playtest/games"
	"playtest/variants"
)

// Bounded proofs: for variants whose position graph is far too large to
// enumerate, a depth-bounded search still proves every forced win that
// ends within a number of decisions. A shortest forced win never passes
// through the same position twice on one line of play, so it holds under
// any repetition rule; what the search cannot see past its horizon it
// reports as unknown, never as a draw.

// Unknown is the outcome of a position no forced result within the depth
// was found for.
const Unknown = "unknown"

// ProveOptions tune a bounded proof.
type ProveOptions struct {
	// Depth is the horizon in decisions.
	Depth int
	// MaxEntries bounds the transposition table (DefaultMaxEntries if 0);
	// when full it is cleared.
	MaxEntries int
	// Progress, if set, is told each finished depth and the nodes searched,
	// and once a second the depth under way and the nodes so far.
	Progress func(depth int, nodes int64)
}

// DefaultMaxEntries bounds a proof's transposition table.
const DefaultMaxEntries = 20_000_000

// proof is a position's proven result for the player to move: win or loss
// in dist decisions, or unknown up to depth decisions.
type proof struct {
	outcome int8 // valWin, valLoss, valUnknown
	dist    int16
	depth   int16 // for unknown: the horizon it held to
}

type prover struct {
	ctx     context.Context
	pace    *pace
	horizon int // the depth being proven, for progress
	report  func(depth int, nodes int64)
	table   map[string]proof
	max     int
	nodes   int64
	stopped bool // the context was seen cancelled: every search returns at once
	buffers [][]games.Move
	states  []games.State
	keys    [][]byte
}

// newProver returns a prover keeping at most max proofs.
func newProver(ctx context.Context, max int) *prover {
	return &prover{ctx: ctx, pace: newPace(ctx), table: map[string]proof{}, max: max}
}

// Prove runs iterative deepening up to opts.Depth from the start and
// after every opening (and every reply when there are few, such as a pie
// rule's keep and swap), and returns the result in the shape of a solve,
// with Value and outcomes "unknown" where nothing was proven.
func Prove(ctx context.Context, cfg *variants.Config, opts ProveOptions) (*Result, error) {
	if opts.Depth < 1 || opts.Depth > 64 {
		return nil, fmt.Errorf("--depth %d: want 1 to 64 decisions", opts.Depth)
	}
	g, sr, err := solverGame(cfg)
	if err != nil {
		return nil, err
	}
	start := g.NewState()
	if err := checkSolvable(start); err != nil {
		return nil, err
	}
	max := opts.MaxEntries
	if max <= 0 {
		max = DefaultMaxEntries
	}
	pr := newProver(ctx, max)
	pr.report = opts.Progress
	defer pr.pace.done()
	for range opts.Depth + 3 {
		pr.buffers = append(pr.buffers, make([]games.Move, 0, g.MaxLegalMoves()))
		pr.states = append(pr.states, g.NewState())
		pr.keys = append(pr.keys, nil)
	}
	begin := time.Now()
	for d := 1; d <= opts.Depth; d++ {
		pr.horizon = d
		pf := pr.search(start, d, 0)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if opts.Progress != nil {
			opts.Progress(d, pr.nodes)
		}
		if pf.outcome != valUnknown {
			break
		}
	}
	res := &Result{Schema: Schema, Game: cfg.Definition.Name, Variant: cfg.Name, Label: cfg.Label(), Source: cfg.Source, MoveCap: sr.MoveCap(), Horizon: opts.Depth}
	root := pr.search(start, opts.Depth, 0)
	res.Value, res.Plies = proofValue(root, start.CurrentPlayer())
	res.Line = pr.line(start.Clone(), opts.Depth)
	res.PieRule = pieRule(g)
	moves := start.LegalMoves(nil)
	for _, m := range moves {
		child := start.Clone()
		child.Apply(m)
		o := Opening{Move: start.MoveString(m)}
		o.Value, o.Plies = pr.outcomeFor(child, games.Seat0, opts.Depth-1)
		o.Line = pr.line(child.Clone(), opts.Depth-1)
		if !child.IsTerminal() {
			replier := child.CurrentPlayer()
			o.Replier = replier.String()
			replies := child.LegalMoves(nil)
			o.AllReplies = len(replies)
			for _, rm := range replies {
				grand := child.Clone()
				grand.Apply(rm)
				v, plies := pr.outcomeFor(grand, replier, opts.Depth-2)
				if v == Win {
					o.WinningReplies++
				}
				if len(replies) <= MaxListedReplies {
					o.Replies = append(o.Replies, Reply{Move: child.MoveString(rm), Value: v, Plies: plies})
				}
			}
		}
		res.Openings = append(res.Openings, o)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	res.Nodes = pr.nodes
	res.Note = fmt.Sprintf("A bounded proof: every forced win that ends within %s from the start is found%s; \"unknown\" means none ends within that horizon, not that the position is a draw.",
		decisions(opts.Depth), horizons(opts.Depth))
	if res.PieRule {
		res.Note += res.pieNote()
	}
	res.Seconds = time.Since(begin).Seconds()
	return res, nil
}

// decisions writes a count of decisions: "1 decision", "3 decisions".
func decisions(n int) string {
	if n == 1 {
		return "1 decision"
	}
	return fmt.Sprintf("%d decisions", n)
}

// horizons says what a horizon of depth decisions leaves after an opening
// and after a reply ("" when an opening is already the last decision).
func horizons(depth int) string {
	switch {
	case depth <= 1:
		return " (an opening that does not end the game is unknown)"
	case depth == 2:
		return " (1 decision after each opening)"
	}
	return fmt.Sprintf(" (%s after each opening, %s after each reply)", decisions(depth-1), decisions(depth-2))
}

// line is a line of play that proves s's result within depth decisions
// (it consumes s): a fastest win, or a slowest loss, to the end; nil when
// nothing is proven.
func (pr *prover) line(s games.State, depth int) []string {
	var out []string
	for !s.IsTerminal() && depth > 0 {
		pf := pr.search(s, depth, 0)
		if pf.outcome == valUnknown {
			break
		}
		mover := s.CurrentPlayer()
		moves := s.LegalMoves(nil)
		next := -1
		for k, m := range moves {
			child := s.Clone()
			child.Apply(m)
			var v int8
			var dist int16
			if child.IsTerminal() {
				v, dist = valLoss, 0 // for the mover: a loss unless it won
				if child.Result().Winner == mover {
					v = valWin
				} else if child.Result().IsDraw() {
					continue
				}
			} else {
				// A proof in dist decisions needs the child's in dist − 1,
				// whatever horizon found it.
				c := pr.search(child, int(pf.dist)-1, 0)
				if c.outcome == valUnknown {
					continue
				}
				v, dist = c.outcome, c.dist
				if child.CurrentPlayer() != mover {
					v = valWin + valLoss - v
				}
			}
			if v == pf.outcome && dist == pf.dist-1 {
				next = k
				break
			}
		}
		if next < 0 {
			break
		}
		out = append(out, mover.String()+" "+s.MoveString(moves[next]))
		s.Apply(moves[next])
		depth = int(pf.dist) - 1
	}
	return out
}

// outcomeFor proves s to depth and states it for player who.
func (pr *prover) outcomeFor(s games.State, who games.Player, depth int) (string, *int) {
	if s.IsTerminal() {
		zero := 0
		switch s.Result().Winner {
		case who:
			return Win, &zero
		case games.NoPlayer:
			return Draw, nil
		}
		return Loss, &zero
	}
	if depth < 1 {
		return Unknown, nil
	}
	pf := pr.search(s, depth, 0)
	v, d := proofOutcome(pf)
	if v != Unknown && s.CurrentPlayer() != who {
		v = map[string]string{Win: Loss, Loss: Win}[v]
	}
	return v, d
}

func proofOutcome(pf proof) (string, *int) {
	d := int(pf.dist)
	switch pf.outcome {
	case valWin:
		return Win, &d
	case valLoss:
		return Loss, &d
	}
	return Unknown, nil
}

// proofValue states the start's proof as a solve's value.
func proofValue(pf proof, mover games.Player) (string, *int) {
	v, d := proofOutcome(pf)
	return gameValue(v, d, mover)
}

// search proves s (not finished) to depth decisions, for its mover. ply
// indexes the scratch buffers.
func (pr *prover) search(s games.State, depth, ply int) proof {
	// A stop is looked for at every node and, once seen, unwinds the
	// whole search without another node.
	if pr.stopped {
		return proof{outcome: valUnknown}
	}
	pr.nodes++
	if pr.pace.stopped() {
		pr.stopped = true
		return proof{outcome: valUnknown}
	}
	if pr.pace.due() && pr.report != nil {
		pr.report(pr.horizon, pr.nodes)
	}
	key := s.(games.Keyer).AppendKey(pr.keys[ply][:0])
	pr.keys[ply] = key
	if pf, ok := pr.table[string(key)]; ok {
		if pf.outcome != valUnknown || int(pf.depth) >= depth {
			return pf
		}
	}
	mover := s.CurrentPlayer()
	moves := s.LegalMoves(pr.buffers[ply][:0])
	pr.buffers[ply] = moves
	child := pr.states[ply]
	result := proof{outcome: valLoss, dist: -1}
	// Finished children first: an immediate win ends the search at once.
	for _, m := range moves {
		child.CopyFrom(s)
		child.Apply(m)
		if child.IsTerminal() {
			switch child.Result().Winner {
			case mover:
				return pr.store(key, proof{outcome: valWin, dist: 1})
			case games.NoPlayer:
				result.outcome = valUnknown
			default:
				result.dist = max(result.dist, 1)
			}
		}
	}
	if depth > 1 {
		win := int16(-1)
		for _, m := range moves {
			child.CopyFrom(s)
			child.Apply(m)
			if child.IsTerminal() {
				continue
			}
			pf := pr.search(child, depth-1, ply+1)
			v := pf.outcome
			if v != valUnknown && child.CurrentPlayer() != mover {
				v = valWin + valLoss - v
			}
			switch v {
			case valWin:
				if win < 0 || pf.dist+1 < win {
					win = pf.dist + 1
				}
			case valLoss:
				result.dist = max(result.dist, pf.dist+1)
			default:
				result.outcome = valUnknown
			}
			if win == 2 {
				break // no win is faster than a reply's immediate loss
			}
		}
		if win > 0 {
			return pr.store(key, proof{outcome: valWin, dist: win})
		}
	} else if result.outcome == valLoss {
		// At the horizon only finished children are known.
		for _, m := range moves {
			child.CopyFrom(s)
			child.Apply(m)
			if !child.IsTerminal() {
				result.outcome = valUnknown
				break
			}
		}
	}
	if result.outcome == valUnknown {
		result.dist, result.depth = 0, int16(depth)
	}
	return pr.store(key, result)
}

// store records a proof, clearing the table when it is full.
func (pr *prover) store(key []byte, pf proof) proof {
	if len(pr.table) >= pr.max {
		clear(pr.table)
	}
	pr.table[string(key)] = pf
	return pf
}
