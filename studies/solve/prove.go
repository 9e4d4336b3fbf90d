package solve

import (
	"cmp"
	"context"
	"fmt"
	"time"

	"playtest/games"
	"playtest/games/prove"
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
	// MaxEntries bounds the transposition table (DefaultMaxEntries if 0):
	// past it, entries are replaced.
	MaxEntries int
	// Progress, if set, is told each finished depth and the nodes searched,
	// and once a second the depth under way and the nodes so far.
	Progress func(depth int, nodes int64)
	// From is a line of play: the proof starts after it (solverStart).
	From []string
}

// DefaultMaxEntries bounds a proof's transposition table.
const DefaultMaxEntries = 1 << 24

// Prove runs iterative deepening up to opts.Depth from the start and
// after every opening (and every reply when there are few, such as a pie
// rule's keep and swap), and returns the result in the shape of a solve,
// with Value and outcomes "unknown" where nothing was proven.
func Prove(ctx context.Context, cfg *variants.Config, opts ProveOptions) (*Result, error) {
	if opts.Depth < 1 || opts.Depth > 64 {
		return nil, fmt.Errorf("--depth %d: want 1 to 64 decisions", opts.Depth)
	}
	from := cfg.Line(opts.From)
	g, sr, start, err := solverStart(cfg, from)
	if err != nil {
		return nil, err
	}
	horizon := 0
	po := prove.Options{Horizon: opts.Depth, Entries: cmp.Or(opts.MaxEntries, DefaultMaxEntries), Context: ctx, ChanceUnknown: true}
	if opts.Progress != nil {
		po.Progress = func(nodes int64) { opts.Progress(horizon, nodes) }
	}
	se, err := prove.New(start, po)
	if err != nil {
		return nil, &UnsolvableError{err.Error()}
	}
	defer se.Close()
	pr := &bounded{se: se}
	begin := time.Now()
	for horizon = 1; horizon <= opts.Depth; horizon++ {
		v, err := se.Score(start, horizon)
		if err != nil {
			return nil, err
		}
		if opts.Progress != nil {
			opts.Progress(horizon, se.Nodes())
		}
		if v.Outcome != 0 {
			break
		}
	}
	horizon = opts.Depth
	res := &Result{Schema: Schema, Game: cfg.Definition.Name, Variant: cfg.Name, Label: cfg.Label(), Source: cfg.Source, From: from, Mover: moverAfter(from, start), MoveCap: sr.MoveCap(), Horizon: opts.Depth}
	root, err := pr.outcomeFor(start, start.CurrentPlayer(), opts.Depth)
	if err != nil {
		return nil, err
	}
	res.Value, res.Plies = gameValue(root.value, root.plies, start.CurrentPlayer())
	if res.Line, err = pr.line(start.Clone(), opts.Depth); err != nil {
		return nil, err
	}
	res.PieRule = pieRule(g, start)
	for _, m := range start.LegalMoves(nil) {
		child := start.Clone()
		child.Apply(m)
		o := Opening{Move: start.MoveString(m)}
		ov, err := pr.outcomeFor(child, games.Seat0, opts.Depth-1)
		if err != nil {
			return nil, err
		}
		o.Value, o.Plies = ov.value, ov.plies
		if o.Line, err = pr.line(child.Clone(), opts.Depth-1); err != nil {
			return nil, err
		}
		if !child.IsTerminal() {
			replier := child.CurrentPlayer()
			o.Replier = replier.String()
			replies := child.LegalMoves(nil)
			o.AllReplies = len(replies)
			for _, rm := range replies {
				grand := child.Clone()
				grand.Apply(rm)
				rv, err := pr.outcomeFor(grand, replier, opts.Depth-2)
				if err != nil {
					return nil, err
				}
				if rv.value == Win {
					o.WinningReplies++
				}
				if len(replies) <= MaxListedReplies {
					o.Replies = append(o.Replies, Reply{Move: child.MoveString(rm), Value: rv.value, Plies: rv.plies})
				}
			}
		}
		res.Openings = append(res.Openings, o)
	}
	res.Nodes = se.Nodes()
	res.Note = fmt.Sprintf("A bounded proof: every forced win that ends within %s from %s is found%s; \"unknown\" means none ends within that horizon, not that the position is a draw.",
		decisions(opts.Depth), res.origin(), horizons(opts.Depth))
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

// bounded is a bounded proof's questions to the prover.
type bounded struct {
	se *prove.Searcher
}

// outcome is a position's proven outcome for a player: win or loss in
// plies decisions, a finished draw, or unknown.
type outcome struct {
	value string
	plies *int
}

// line is a line of play that proves s's result within depth decisions
// (it consumes s): a fastest win, or a slowest loss, to the end; nil when
// nothing is proven.
func (pr *bounded) line(s games.State, depth int) ([]string, error) {
	moves, movers, err := pr.se.Line(s.Clone(), depth)
	if err != nil {
		return nil, err
	}
	var out []string
	for i, m := range moves {
		out = append(out, movers[i].String()+" "+s.MoveString(m))
		s.Apply(m)
	}
	return out, nil
}

// outcomeFor proves s to depth and states it for player who.
func (pr *bounded) outcomeFor(s games.State, who games.Player, depth int) (outcome, error) {
	if s.IsTerminal() {
		zero := 0
		switch s.Result().Winner {
		case who:
			return outcome{Win, &zero}, nil
		case games.NoPlayer:
			return outcome{Draw, nil}, nil
		}
		return outcome{Loss, &zero}, nil
	}
	if depth < 1 {
		return outcome{Unknown, nil}, nil
	}
	v, err := pr.se.Score(s, depth)
	if err != nil || v.Outcome == 0 {
		return outcome{Unknown, nil}, err
	}
	if s.CurrentPlayer() != who {
		v.Outcome = -v.Outcome
	}
	d := v.Plies
	if v.Outcome > 0 {
		return outcome{Win, &d}, nil
	}
	return outcome{Loss, &d}, nil
}
