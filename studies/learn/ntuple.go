package learn

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"time"

	"playtest/games"
	"playtest/games/pcg"
	"playtest/reports"
	"playtest/sim/model"
	"playtest/variants"
)

// NTupleOptions tune temporal-difference learning of an n-tuple network.
type NTupleOptions struct {
	// Games is how many self-play games to learn from.
	Games int
	// Tuples and Length are the network's snakes: how many, of how many
	// cells (model.SnakeTuples; Length 0: DefaultTupleLength).
	Tuples, Length int
	// Rate is the learning rate, divided by the entries a position reads
	// (Tuples × the board's symmetries); Epsilon the share of random moves
	// in self-play (exploration).
	Rate, Epsilon float64
	// Lambda, above 0, learns each position from its λ-return at the
	// game's end (TD(λ), the forward view) instead of from the next
	// position at once (TD(0)).
	Lambda float64
	// Seed draws the tuples and the games: the same seed gives the same
	// model.
	Seed uint64
	// OnGame, if set, is called after each game.
	OnGame func()
}

// Defaults of NTupleOptions (Thill, Koch and Konen's Connect Four
// network had 70 tuples of 8 cells; these are smaller, for minutes of
// learning).
const (
	DefaultNTupleGames   = 100_000
	DefaultNTupleTuples  = 40
	DefaultNTupleLength  = 6
	DefaultNTupleRate    = 0.5
	DefaultNTupleEpsilon = 0.1
)

// DefaultTupleLength is a tuple's cells when none are given: 6 (Thill,
// Koch and Konen used 8 on Connect Four), fewer where a cell has so many
// states that a table would pass 65,536 entries (Stacktics' 13: 4 cells).
func DefaultTupleLength(states int) int {
	n, size := 0, 1
	for n < DefaultNTupleLength && size*states <= 1<<16 {
		n, size = n+1, size*states
	}
	return max(n, 1)
}

// NTupleTraining says how an n-tuple model was learned.
type NTupleTraining struct {
	Method string `json:"method"`
	Games  int    `json:"games"`
	Tuples int    `json:"tuples"`
	Length int    `json:"length"`
	// Named counts the tuples the game names (games.CellBoard.Tuples),
	// read besides the Tuples snakes.
	Named   int     `json:"named_tuples,omitempty"`
	Rate    float64 `json:"rate"`
	Epsilon float64 `json:"epsilon"`
	Lambda  float64 `json:"lambda,omitempty"`
	Seed    uint64  `json:"seed"`
	// Seat0Wins, Seat1Wins and Draws are the self-play games' results in
	// the last tenth of the games (the network nearly learned).
	Seat0Wins int `json:"late_seat0_wins"`
	Seat1Wins int `json:"late_seat1_wins"`
	Draws     int `json:"late_draws"`
	// Seconds is the learning's wall time on one goroutine: said, not
	// kept in model.json, so that the same seed writes the same file.
	Seconds float64 `json:"-"`
}

// LearnNTuple learns an n-tuple network for the variant (after its
// opening:) by TD(0) self-play (Thill, Koch and Konen 2012): the network
// rates a position from its mover's view, as σ(value) its chance of
// winning; each seat plays the move whose position it rates best for
// itself, with Epsilon random moves, and after every move the value of the
// position before it moves toward the mover's chance after it (the result
// at the end), by the gradient of the log-loss. One
// goroutine, so the same seed gives the same model on any machine. The
// hand heuristic's scale (σ(K·hand + b) fitted to the games' results, as
// playtest learn does) is fitted on the last tenth of the games, so that
// the model's logit over it is in the hand heuristic's units.
func LearnNTuple(ctx context.Context, cfg *variants.Config, opts NTupleOptions) (*model.Model, *NTupleTraining, error) {
	g, err := cfg.NewGame()
	if err != nil {
		return nil, nil, err
	}
	b, ok := g.(games.Boarder)
	if !ok {
		return nil, nil, fmt.Errorf("%s has no board of cells (games.Boarder): an n-tuple network cannot read it", cfg.Definition.Title)
	}
	start := cfg.OpeningState(g)
	if _, hidden := start.(games.Determinizer); hidden {
		return nil, nil, fmt.Errorf("%s hides information: an n-tuple network is learned by TD self-play only for games of perfect information (--method fit fits one on top of the model its bots play)", cfg.Definition.Title)
	}
	board := b.CellBoard()
	if opts.Length == 0 {
		opts.Length = DefaultTupleLength(board.States)
	}
	rng := pcg.New(opts.Seed, 0x6e7475706c65) // "ntuple"
	net, err := model.NewNTuple(board, model.BoardTuples(board, opts.Tuples, opts.Length, rng))
	if err != nil {
		return nil, nil, err
	}
	tr := &NTupleTraining{Method: "TD(0) self-play, ε-greedy", Games: opts.Games, Tuples: opts.Tuples, Length: opts.Length, Named: len(board.Tuples),
		Rate: opts.Rate, Epsilon: opts.Epsilon, Lambda: opts.Lambda, Seed: opts.Seed}
	if opts.Lambda > 0 {
		tr.Method = fmt.Sprintf("TD(%g) self-play, λ-returns at each game's end, ε-greedy", opts.Lambda)
	}
	began := time.Now()
	l := &tdLearner{net: net, rate: opts.Rate / float64(net.Reads()), eps: opts.Epsilon, rng: rng, lambda: opts.Lambda,
		child: start.Clone(), cells: make([]uint8, 0, board.Cells())}
	var handX [][]float64
	var handY []float64
	late := opts.Games - opts.Games/10
	// The hand heuristic's scale is fitted to the positions of the last
	// handGames games (few enough to hold).
	fitFrom := opts.Games - min(opts.Games/10, handGames)
	for game := range opts.Games {
		if game%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, nil, err
			}
		}
		s := start.Clone()
		var positions []games.State
		for !s.IsTerminal() {
			if game >= fitFrom {
				positions = append(positions, s.Clone())
			}
			l.step(s)
		}
		if l.lambda > 0 {
			l.finish()
		}
		if game >= late {
			r := s.Result()
			switch r.Winner {
			case games.Seat0:
				tr.Seat0Wins++
			case games.Seat1:
				tr.Seat1Wins++
			default:
				tr.Draws++
			}
			for _, p := range positions {
				if h, ok := p.(games.Heuristic); ok {
					for _, seat := range []games.Player{games.Seat0, games.Seat1} {
						handX = append(handX, []float64{h.Evaluate(seat)})
						handY = append(handY, r.ScoreFor(seat))
					}
				}
			}
		}
		if opts.OnGame != nil {
			opts.OnGame()
		}
	}
	tr.Seconds = time.Since(began).Seconds()
	k := 1.0
	if len(handX) >= 10 {
		idx := make([]int, len(handX))
		for i := range idx {
			idx[i] = i
		}
		if kb, _, err := logistic(handX, handY, idx, []float64{0, 0}, 0); err == nil && kb[1] > 0 {
			k = kb[1]
		}
	}
	m := model.NewNTupleModel(g.Name(), net, 0, k)
	if err := recordRules(m, cfg); err != nil {
		return nil, nil, err
	}
	return m, tr, nil
}

// handGames bounds the games whose positions fit the hand heuristic's
// scale.
const handGames = 2000

// tdLearner plays and learns one self-play game at a time.
type tdLearner struct {
	net   *model.NTuple
	rate  float64
	eps   float64
	rng   *pcg.Rand
	child games.State
	cells []uint8
	prev  []uint8 // the mover's cells of the position before a move
	// lambda > 0 learns from λ-returns at each game's end (finish), the
	// game's decisions kept in steps.
	lambda float64
	steps  []tdStep
	legal  []games.Move
	outs   []games.ChanceOutcome
}

// value is seat's chance of winning s by the network, which rates a
// position from the view of the seat to move (the cells do not say whose
// turn it is, but the mover's view with the stones' counts does): the
// other seat's chance is its complement. A finished game is its result.
func (l *tdLearner) value(s games.State, seat games.Player) float64 {
	if s.IsTerminal() {
		return s.Result().ScoreFor(seat)
	}
	view, negate := model.MoverView(s, seat)
	l.cells = s.(games.CellState).AppendCells(l.cells[:0], view)
	p := model.Sigmoid(l.net.Value(l.cells))
	if negate {
		return 1 - p
	}
	return p
}

// step plays one decision of s (ε-greedy on the network, or a chance
// outcome) and moves the network's value of s, from its mover's view,
// toward the mover's chance after it (the result at the end).
func (l *tdLearner) step(s games.State) {
	mover := s.CurrentPlayer()
	var m games.Move
	switch {
	case mover == games.Chance:
		m, l.outs = games.DrawChance(s, l.rng, l.outs)
		s.Apply(m)
		return
	default:
		l.legal = s.LegalMoves(l.legal[:0])
		if l.rng.Float64() < l.eps {
			m = l.legal[l.rng.IntN(len(l.legal))]
			break
		}
		best := math.Inf(-1)
		for _, c := range l.legal {
			l.child.CopyFrom(s)
			l.child.Apply(c)
			if v := l.value(l.child, mover); v > best {
				best, m = v, c
			}
		}
	}
	if l.lambda > 0 {
		// Kept for the λ-returns at the game's end (finish).
		k := len(l.steps)
		if k == cap(l.steps) {
			l.steps = append(l.steps, tdStep{})
		} else {
			l.steps = l.steps[:k+1]
		}
		st := &l.steps[k]
		st.mover = mover
		st.cells = s.(games.CellState).AppendCells(st.cells[:0], mover)
		s.Apply(m)
		st.target = l.value(s, mover)
		return
	}
	l.prev = s.(games.CellState).AppendCells(l.prev[:0], mover)
	before := model.Sigmoid(l.net.Value(l.prev))
	s.Apply(m)
	l.net.Update(l.prev, l.rate*(l.value(s, mover)-before))
}

// tdStep is one decision of a game, kept for its λ-return: the mover's
// cells before it and the mover's chance after it.
type tdStep struct {
	mover  games.Player
	cells  []uint8
	target float64
}

// finish ends a game played with λ > 0: each decision's value moves
// toward its λ-return, G_t = (1 − λ)·(the mover's chance after it) +
// λ·G_{t+1} (from the mover's side), G at the last decision its result
// (the offline, forward view of TD(λ)).
func (l *tdLearner) finish() {
	g, next := 0.0, games.NoPlayer
	for t := len(l.steps) - 1; t >= 0; t-- {
		st := &l.steps[t]
		if next == games.NoPlayer {
			g = st.target
		} else {
			later := g
			if next != st.mover {
				later = 1 - g
			}
			g = (1-l.lambda)*st.target + l.lambda*later
		}
		next = st.mover
		l.net.Update(st.cells, l.rate*(g-model.Sigmoid(l.net.Value(st.cells))))
	}
	l.steps = l.steps[:0]
}

// WriteModel writes m to dir/model.json (atomically), making dir.
func WriteModel(dir string, m *model.Model) error {
	if err := reports.MkdirBelow(filepath.Dir(dir), dir); err != nil {
		return err
	}
	return reports.WriteFileAtomic(filepath.Join(dir, ModelFile), m.Write)
}
