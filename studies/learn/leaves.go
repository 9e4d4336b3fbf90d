package learn

import (
	"context"
	"fmt"
	"math"

	"playtest/games"
	"playtest/games/pcg"
	"playtest/sim/bots"
	"playtest/sim/model"
)

// leafSeed seeds the searches that sample and label leaves ("ntleaf").
const leafSeed = 0x6e746c656166

// MaxLeaves bounds FitOptions.Leaves: the leaves sampled from each
// training position's search.
const MaxLeaves = 64

// leafRow is one sampled leaf: its cells from its mover's view, the
// base's logit without its bias (or the hand heuristic's value, without a
// base) and its label search's lead for its mover.
type leafRow struct {
	cells      []uint8
	base, hand float64
	lead       float64
	// state is the leaf, kept where d.keepLeaves asks (tests).
	state games.State
}

// leafBots are one goroutine's searches for addLeaves: a seat's sampling
// search and its labelling one (nil where the seat is not alphabeta).
type leafBots struct {
	sample, label [games.NumSeats]*bots.AlphaBeta
}

// newLeafBots builds the searches of players for g: the sampling search is
// the seat's bot without its variety, the labelling one the same at
// labelNodes nodes (0: the bot's own budget).
func newLeafBots(g games.Game, players [games.NumSeats]bots.Spec, labelNodes int) (leafBots, error) {
	var lb leafBots
	for p, spec := range players {
		best := spec.Best()
		labeller := best
		if labelNodes > 0 {
			labeller = best.WithBudget(labelNodes)
		}
		for i, sp := range []bots.Spec{best, labeller} {
			b, err := sp.New(g)
			if err != nil {
				return lb, err
			}
			ab, ok := b.(*bots.AlphaBeta)
			if !ok {
				return lb, fmt.Errorf("seat %d plays %s: leaves are sampled from alphabeta searches, and labelled by them", p, spec.Describe())
			}
			if i == 0 {
				lb.sample[p] = ab
			} else {
				lb.label[p] = ab
			}
		}
	}
	return lb, nil
}

// addLeaves adds to d, for each training position (d.states; the
// held-out deals keep only their games' positions), up to opts.Leaves
// positions its mover's search evaluated at its horizon: the positions an
// evaluation inside a search is asked about, most of them after moves no
// game plays, which the games' positions alone never show it. The search
// is the mover's bot without its variety, at its budget; the leaves are a
// reservoir sample of its evaluations whose mover has no forcing move
// pending (a slot the reservoir gives to another keeps the position it
// held): a search judges a position mid-exchange only as a bound before
// its quiescence plays the exchange out, and a network taught such
// positions by the searches that play them out counts the exchange
// twice (on Stacktics size 4 such leaves cost 215 Elo). Each leaf is labelled by a search of its own from it
// (the same bot, at opts.LeafNodes nodes or at its budget): its root value
// is the leaf's lead, and its result unknown (d.y NaN), so that its target
// is the search's chance alone (targets). Leaves that are finished, that
// have a single legal move, or whose search gives no value are dropped.
// The same seed gives the same leaves at any worker count. It returns how
// many leaves it added.
func (d *fitData) addLeaves(ctx context.Context, g games.Game, players [games.NumSeats]bots.Spec, base *model.Model, opts FitOptions) (int, error) {
	if err := checkLeaves(g, players, opts.LeafNodes); err != nil {
		return 0, err
	}
	n := len(d.states)
	rows := make([][]leafRow, n)
	workers := fitWorkers(opts.Workers, n)
	done := opts.stage("leaves", "positions", n)
	err := inWorkers(workers, func(w int) error {
		lb, err := newLeafBots(g, players, opts.LeafNodes)
		if err != nil {
			return err
		}
		ls := &leafSampler{lb: lb, base: base, opts: opts, keep: d.keepLeaves}
		for i := w; i < n; i += workers {
			if err := ctx.Err(); err != nil {
				return err
			}
			if !d.held[i] {
				rows[i] = ls.leaves(d.states[i], i)
			}
			done()
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	added := 0
	for i, rs := range rows {
		for _, r := range rs {
			d.cells = append(d.cells, r.cells...)
			d.base = append(d.base, r.base)
			if d.hand != nil {
				d.hand = append(d.hand, r.hand)
			}
			d.y = append(d.y, math.NaN())
			d.lead = append(d.lead, r.lead)
			d.deal = append(d.deal, d.deal[i])
			d.held = append(d.held, false)
			if d.keepLeaves {
				d.leafStates = append(d.leafStates, r.state)
			}
			added++
		}
	}
	d.states = nil
	return added, nil
}

// leafSampler samples and labels the leaves of one goroutine's
// positions (addLeaves), its buffers reused from one to the next.
type leafSampler struct {
	lb   leafBots
	base *model.Model
	opts FitOptions
	keep bool // keep each leaf's state in its row
	sc   model.Scratch
	// forcing and legal are move buffers; kept is the reservoir of the
	// search in progress, seen the evaluations it has been offered, draw
	// its stream.
	forcing, legal []games.Move
	kept           []games.State
	seen           int
	draw           *pcg.Rand
}

// leaves are the labelled leaves of training position i, s: a reservoir
// of opts.Leaves of the quiet, unfinished positions its mover's search
// evaluates (offer), each labelled by labelLeaf.
func (ls *leafSampler) leaves(s games.State, i int) []leafRow {
	mover := s.CurrentPlayer()
	if mover != games.Seat0 && mover != games.Seat1 {
		return nil
	}
	ls.kept, ls.seen = ls.kept[:0], 0
	ls.draw = pcg.New(leafSeed^ls.opts.Seed, uint64(2*i+1))
	sampler := ls.lb.sample[mover]
	sampler.Reset(mover, pcg.New(leafSeed^ls.opts.Seed, uint64(2*i)))
	sampler.SetLeafVisitor(ls.offer)
	if ls.legal = s.LegalMoves(ls.legal[:0]); len(ls.legal) > 1 {
		sampler.Choose(s, ls.legal)
	}
	sampler.SetLeafVisitor(nil)
	var rows []leafRow
	for j, leaf := range ls.kept {
		if row, ok := labelLeaf(ls.lb, leaf, ls.base, &ls.sc, &ls.legal, leafLabelStream(ls.opts.Seed, i, j)); ok {
			if ls.keep {
				row.state = leaf
			}
			rows = append(rows, row)
		}
	}
	return rows
}

// offer is the search's leaf visitor: the reservoir's step for one
// evaluation (a slot drawn for a finished position, or one with a forcing
// move pending, keeps the position it held).
func (ls *leafSampler) offer(leaf games.State) {
	ls.seen++
	slot := len(ls.kept)
	if slot >= ls.opts.Leaves {
		if slot = ls.draw.IntN(ls.seen); slot >= ls.opts.Leaves {
			return
		}
	}
	if leaf.IsTerminal() || forcingPending(leaf, &ls.forcing) {
		return
	}
	if slot == len(ls.kept) {
		ls.kept = append(ls.kept, leaf.Clone())
	} else {
		ls.kept[slot] = leaf.Clone()
	}
}

// leafLabelStream is the stream of the labelling search of training
// position i's leaf j.
func leafLabelStream(seed uint64, i, j int) *pcg.Rand {
	return pcg.New(leafSeed^seed^0x6c6162656c, uint64(i*MaxLeaves+j))
}

// checkLeaves reports why the leaves of players' searches of g cannot be
// sampled (nil where they can): hidden information, or a seat that is not
// an alphabeta bot.
func checkLeaves(g games.Game, players [games.NumSeats]bots.Spec, labelNodes int) error {
	if _, hidden := g.NewState().(games.Determinizer); hidden {
		return fmt.Errorf("%s hides information: leaves are sampled from the searches of games of perfect information only", g.Name())
	}
	_, err := newLeafBots(g, players, labelNodes)
	return err
}

// labelLeaf searches leaf with its mover's labelling search (rng its
// stream) and returns its row: ok is false for a leaf with fewer than two
// legal moves, or whose search gives no value.
func labelLeaf(lb leafBots, leaf games.State, base *model.Model, sc *model.Scratch, legal *[]games.Move, rng *pcg.Rand) (leafRow, bool) {
	mover := leaf.CurrentPlayer()
	if mover != games.Seat0 && mover != games.Seat1 {
		return leafRow{}, false
	}
	*legal = leaf.LegalMoves((*legal)[:0])
	if len(*legal) < 2 {
		return leafRow{}, false
	}
	label := lb.label[mover]
	label.Reset(mover, rng)
	label.Choose(leaf, *legal)
	lead, ok := label.RootValue()
	if !ok {
		return leafRow{}, false
	}
	if math.Abs(lead) >= bots.JudgeWin {
		lead = math.Inf(int(math.Copysign(1, lead)))
	}
	row := leafRow{cells: leaf.(games.CellState).AppendCells(nil, mover), lead: lead, hand: math.NaN()}
	if base != nil {
		sc.Features = leaf.(games.FeatureState).AppendFeatures(sc.Features[:0], mover)
		row.base = base.Logit(sc.Features) - base.Bias
	} else if h, ok := leaf.(games.Heuristic); ok {
		row.hand = h.Evaluate(mover)
	}
	return row, true
}
