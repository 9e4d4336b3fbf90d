package learn

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"playtest/games"
	"playtest/games/pcg"
	"playtest/games/prove"
	"playtest/reports"
	"playtest/runs/rundir"
	"playtest/sim"
	"playtest/sim/model"
	"playtest/variants"
)

// FitOptions tune FitNTuple: a network over the cells (an n-tuple
// network, or a dense one) fitted to the positions of games the variant's
// own bots play, on top of the logistic model they play (the base),
// labelled by the games' results and the bots' searches.
type FitOptions struct {
	// Games is how many games to play and learn from; Workers play them.
	Games, Workers int
	// Kind is the network's: model.KindNTuple (or "") or model.KindDense.
	Kind string
	// Tuples and Length are an n-tuple network's snakes
	// (model.SnakeTuples; Length 0: DefaultTupleLength).
	Tuples, Length int
	// Hidden is a dense network's hidden units (0: DefaultHidden).
	Hidden int
	// Result is the weight of the game's result in each position's target;
	// the rest is the chance the deciding bot's search gave the position
	// (its root value, mapped to a chance by a logistic fitted to the
	// training games' results). 1 learns from results alone.
	Result float64
	// Rate is the learning rate, divided by the entries a position reads
	// (an n-tuple network's) or by the hidden units (a dense network's);
	// Epochs the most passes over the training positions (fewer when the
	// held-out log-loss stops improving).
	Rate   float64
	Epochs int
	// HeadToHead, above 0, plays that many games (seat-swapped pairs, on
	// the variant's seeds) of the fitted model's bots against the bots that
	// played the games, at their budget.
	HeadToHead int
	// Seed draws the tuples, the games and their order: the same seed gives
	// the same model at any worker count.
	Seed uint64
	// Proof, above 0, labels each position by its proven value instead
	// (a win 1, a draw ½, a loss 0 for its mover): each proof from an
	// empty table within Proof positions, on games of perfect information
	// only. Positions before ProofFrom plies, and those left unproven (past
	// the bound, or on a line that repeats a position), are left out.
	Proof     int64
	ProofFrom int
	// Alone fits the network by itself, not on top of the bots' model (so
	// the bots may play the hand heuristic): its logit is the network's
	// alone, and its hand scale is fitted to the positions' labels.
	Alone bool
	// Quiet leaves out the positions whose mover has a forcing move
	// pending (a capture), as the logistic learner does: a search judges
	// its leaves after its quiescence has played the exchanges out, so an
	// evaluation taught mid-exchange positions counts the exchange twice.
	Quiet bool
	// Leaves, above 0, adds up to that many positions from each training
	// position's search (addLeaves): quiet positions its evaluation was
	// asked about at the horizon, each labelled by a search from it of
	// LeafNodes nodes (0: the bots' own budget). The bots must be
	// alphabeta, the game of perfect information.
	Leaves, LeafNodes int
	// OnGame, if set, sees every game played.
	OnGame func()
	// OnStage, if set, is told of each stage after the training games:
	// its name, what it counts ("positions" or "games") and how many;
	// OnPosition then sees each position done (OnGame each game).
	OnStage    func(stage, unit string, total int)
	OnPosition func()
}

// stage announces a stage of total units to opts.OnStage, and returns
// what sees each position done (a no-op without OnPosition).
func (opts FitOptions) stage(name, unit string, total int) func() {
	if opts.OnStage != nil {
		opts.OnStage(name, unit, total)
	}
	if opts.OnPosition == nil {
		return func() {}
	}
	return opts.OnPosition
}

// Defaults of FitOptions.
const (
	DefaultFitGames  = 8000
	DefaultFitResult = 0.5
	DefaultFitRate   = 0.02
	DefaultFitEpochs = 4
	// DefaultFitHeadToHead is the games of the fitted model's head-to-head.
	DefaultFitHeadToHead = 400
	// DefaultHidden is a dense network's hidden units, and DefaultDenseRate
	// its learning rate (divided by them): on Stacktics size 3 the
	// held-out log-loss fell as the rate rose from 0.005 to 0.5.
	DefaultHidden    = 32
	DefaultDenseRate = 0.5
)

// FitTraining says how a fitted n-tuple model was learned and how well it
// predicts held-out deals, against its base alone.
type FitTraining struct {
	Method string `json:"method"`
	Bots   string `json:"bots"`
	Games  int    `json:"games"`
	Seed   uint64 `json:"seed"`
	Tuples int    `json:"tuples,omitempty"`
	Length int    `json:"length,omitempty"`
	// Hidden is a dense network's hidden units.
	Hidden int `json:"hidden,omitempty"`
	// Named counts the tuples the game names (games.CellBoard.Tuples),
	// read besides the Tuples snakes.
	Named     int     `json:"named_tuples,omitempty"`
	Result    float64 `json:"result_weight"`
	Rate      float64 `json:"rate"`
	Epochs    int     `json:"epochs"`
	Positions int     `json:"positions"`
	HeldOut   int     `json:"held_out"`
	// SearchScale and SearchBias map a search's root value (seat's lead in
	// the hand heuristic's units) to its chance, σ(scale·lead + bias),
	// fitted to the training positions' results.
	SearchScale float64 `json:"search_scale"`
	SearchBias  float64 `json:"search_bias"`
	// Proof and ProofFrom are FitOptions'; Unproven counts the positions
	// left out because their proof passed the bound.
	Proof     int64 `json:"proof,omitempty"`
	ProofFrom int   `json:"proof_from,omitempty"`
	Unproven  int   `json:"unproven,omitempty"`
	// Alone is FitOptions': Base is then a coin's (logit 0).
	Alone bool `json:"alone,omitempty"`
	// Quiet is FitOptions'; NotQuiet counts the positions it left out.
	Quiet    bool `json:"quiet,omitempty"`
	NotQuiet int  `json:"not_quiet,omitempty"`
	// Leaves counts the positions of the searches' horizons added
	// (FitOptions.Leaves, LeavesPer of them at most a position, each
	// labelled by a search of LeafNodes nodes, 0 the bots' budget).
	Leaves    int `json:"leaves,omitempty"`
	LeavesPer int `json:"leaves_per_position,omitempty"`
	LeafNodes int `json:"leaf_nodes,omitempty"`
	// Learned and Base are the held-out log-loss and Brier score against
	// the results, of the model and of its base alone; Constant of the
	// training positions' mean.
	Learned  Scores `json:"learned"`
	Base     Scores `json:"base"`
	Constant Scores `json:"constant"`
	// VersusBase is the model's held-out log-loss less the base's, with
	// its interval clustered by deal.
	VersusBase Difference `json:"versus_base"`
	// Reliability is the fitted model's held-out deciles against the
	// results (the proven values with Proof), with their intervals clustered by deal: said
	// (WriteReliability), not kept in model.json, whose record stays as
	// the shipped networks have it (make models reproduces them byte for
	// byte).
	Reliability []Bin `json:"-"`
	// HeadToHead is the fitted model's bots' score against the bots that
	// played the games (FitOptions.HeadToHead; nil when not played).
	HeadToHead *HeadToHead `json:"head_to_head,omitempty"`
	// Choice is the choice among fits by play that kept this one
	// (ChooseFit; nil for a single fit): HeadToHead is then the kept
	// fit's confirmation.
	Choice *Choice `json:"choice,omitempty"`
	// Seconds is the wall time: said, not kept in model.json, so that the
	// same seed writes the same file.
	Seconds float64 `json:"-"`
}

// fitData are the positions FitNTuple learns from: each one's cells from
// its mover's view (stride a position), the base's logit without its bias
// (Σw·f of the mover's features), the mover's
// result, the search's lead for the mover (NaN without one; ±Inf for a
// forced result), its deal and whether the deal is held out.
type fitData struct {
	stride int
	bias   float64 // the base's bias
	cells  []uint8
	base   []float64
	y      []float64
	lead   []float64
	deal   []int
	held   []bool
	// states are the positions (FitOptions.Proof only), to prove.
	states []games.State
	// hand is the hand heuristic's value for the mover, without a base
	// (FitOptions.Alone; NaN where the game has none).
	hand []float64
	// notQuiet counts the positions FitOptions.Quiet left out.
	notQuiet int
	// keepLeaves keeps the leaves addLeaves adds, in leafStates (tests).
	keepLeaves bool
	leafStates []games.State
}

// FitNTuple plays opts.Games games of cfg's bots (on seeds apart from
// cfg's own games) and fits an n-tuple network to the positions of their
// seats' decisions, each from its mover's view, on top of the logistic
// model the bots play (or the one under the network they play): the
// model's logit is the base's over the mover's features plus the
// network's, so the network learns what the base's features miss. Each
// position's target mixes the game's result with the deciding search's
// chance (FitOptions.Result); stochastic gradient steps of the log-loss,
// in a seeded order, pass over the training deals while the held-out
// deals' log-loss improves, and the best pass is kept. With opts.Proof
// each position's target is its proven value instead, and with opts.Alone
// the network is fitted by itself, without the base.
func FitNTuple(ctx context.Context, cfg *variants.Config, opts FitOptions) (*model.Model, *FitTraining, error) {
	job, err := rundir.Job(cfg)
	if err != nil {
		return nil, nil, err
	}
	var base *model.Model
	if played := sim.TraceModel(cfg.Players); played != nil && !opts.Alone {
		base = played.Base()
	}
	if base == nil && !opts.Alone {
		return nil, nil, fmt.Errorf("%s's bots play no logistic model (eval: learned, model: …), nor a network on top of one: the network is fitted on top of one (or alone)", cfg.Label())
	}
	b, ok := job.Game.(games.Boarder)
	if !ok {
		return nil, nil, fmt.Errorf("%s has no board of cells (games.Boarder): an n-tuple network cannot read it", cfg.Definition.Title)
	}
	board := b.CellBoard()
	if opts.Length == 0 {
		opts.Length = DefaultTupleLength(board.States)
	}
	if opts.Hidden == 0 {
		opts.Hidden = DefaultHidden
	}
	job.Games = opts.Games
	job.Seed = cfg.Seed ^ learnSeed ^ opts.Seed*0x9e3779b97f4a7c15
	job.Trace = opts.Games
	began := time.Now()
	if opts.Proof > 0 && opts.Leaves > 0 {
		return nil, nil, fmt.Errorf("proofs label the games' positions, and searches the leaves: one or the other")
	}
	if opts.Leaves < 0 || opts.Leaves > MaxLeaves || opts.LeafNodes < 0 {
		return nil, nil, fmt.Errorf("%d leaves a position at %d nodes: want 0 to %d leaves, and 0 nodes (the bots' budget) or more", opts.Leaves, opts.LeafNodes, MaxLeaves)
	}
	if opts.Leaves > 0 {
		if err := checkLeaves(job.Game, cfg.Players, opts.LeafNodes); err != nil {
			return nil, nil, err
		}
	}
	if opts.Proof > 0 && !games.Provable(job.Game.NewState()) {
		return nil, nil, fmt.Errorf("%s cannot be proven (hidden information or chance): its positions cannot be labelled by proofs", cfg.Definition.Title)
	}
	d, err := collectCells(ctx, *job, board.Cells(), base, opts)
	if err != nil {
		return nil, nil, err
	}
	unproven := 0
	if opts.Proof > 0 {
		if unproven, err = d.proveLabels(ctx, opts); err != nil {
			return nil, nil, err
		}
	}
	leaves := 0
	if opts.Leaves > 0 {
		if leaves, err = d.addLeaves(ctx, job.Game, cfg.Players, base, opts); err != nil {
			return nil, nil, err
		}
	}
	ntuple, dense, bias, tr, err := d.fit(ctx, board, opts)
	if err != nil {
		return nil, nil, err
	}
	if opts.Proof > 0 {
		tr.Method = strings.Replace(tr.Method, "search-labelled", "proof-labelled", 1)
		tr.Proof, tr.ProofFrom, tr.Unproven, tr.Result = opts.Proof, opts.ProofFrom, unproven, 1
	}
	tr.Bots = cfg.Players[0].String()
	tr.Quiet, tr.NotQuiet = opts.Quiet, d.notQuiet
	if opts.Leaves > 0 {
		tr.Leaves, tr.LeavesPer, tr.LeafNodes = leaves, opts.Leaves, opts.LeafNodes
		tr.Positions -= leaves
		tr.Method = strings.Replace(tr.Method, "positions of the bots' games", "positions of the bots' games and of their searches' horizons", 1)
	}
	var m *model.Model
	handScale := d.handScale()
	if base != nil {
		handScale = base.HandScale
	}
	if dense != nil {
		m = model.NewDenseModel(job.Game.Name(), dense, bias, handScale)
	} else {
		m = model.NewNTupleModel(job.Game.Name(), ntuple, bias, handScale)
	}
	if base != nil {
		m = m.WithBase(base)
	} else {
		tr.Alone = true
		tr.Method = strings.Replace(tr.Method, "on top of their logistic model", "alone", 1)
	}
	if err := recordRules(m, cfg); err != nil {
		return nil, nil, err
	}
	if opts.HeadToHead > 0 {
		opts.stage("head-to-head", "games", opts.HeadToHead+opts.HeadToHead%2)
		if tr.HeadToHead, err = fitHeadToHead(ctx, cfg, m, opts); err != nil {
			return nil, nil, err
		}
	}
	tr.Seconds = time.Since(began).Seconds()
	return m, tr, nil
}

// WriteReliability writes the fitted model's reliability table (its
// held-out deciles, against the results or, with FitOptions.Proof, the
// proven values that replaced them) and a sentence on its calibration.
func (tr *FitTraining) WriteReliability(w io.Writer) error {
	header, rows := reliabilityRows(tr.Reliability)
	if rows == nil {
		return nil
	}
	if err := reports.WriteStringTable(w, header, rows); err != nil {
		return err
	}
	against := "the games' results"
	if tr.Proof > 0 {
		against = "their proven values" // the labels replaced the results
	}
	clause, _ := calibration(tr.Reliability)
	_, err := fmt.Fprintf(w, "Held out, against %s: %s.\n", against, clause)
	return err
}

// fitNet is the network fit trains: an n-tuple network's or a dense
// one's value, gradient step, and the copies of its weights that keep
// the best pass.
type fitNet struct {
	value   func(cells []uint8) float64
	step    func(cells []uint8, delta float64)
	save    func()
	restore func()
	// rate divides the learning rate: by the entries an n-tuple position
	// reads, by a dense network's hidden units.
	rate float64
}

// newFitNet builds the network opts ask for over board, from rng.
func newFitNet(board games.CellBoard, opts FitOptions, rng *pcg.Rand) (fitNet, *model.NTuple, *model.Dense, error) {
	if opts.Kind == model.KindDense {
		d, err := model.NewDense(board, opts.Hidden, rng)
		if err != nil {
			return fitNet{}, nil, nil, err
		}
		best := d.Clone()
		// A dense network has no symmetries of its own: each step shows it
		// one image of the position, drawn from rng.
		img := make([]uint8, board.Cells())
		step := func(cells []uint8, delta float64) {
			if len(board.Symmetries) > 1 {
				sym := board.Symmetries[rng.IntN(len(board.Symmetries))]
				for c, x := range cells {
					img[sym[c]] = x
				}
				cells = img
			}
			d.Step(cells, delta)
		}
		return fitNet{value: d.Value, step: step, rate: float64(d.Hidden),
			save: func() { best = d.Clone() }, restore: func() { *d = *best.Clone() }}, nil, d, nil
	}
	net, err := model.NewNTuple(board, model.BoardTuples(board, opts.Tuples, opts.Length, rng))
	if err != nil {
		return fitNet{}, nil, nil, err
	}
	best := cloneWeights(net.Weights)
	restore := func() {
		for t, w := range best {
			copy(net.Weights[t], w)
		}
	}
	return fitNet{value: net.Value, step: net.Update, rate: float64(net.Reads()),
		save: func() { best = cloneWeights(net.Weights) }, restore: restore}, net, nil, nil
}

// fit fits a network over board to the positions, with its bias: an
// n-tuple network or a dense one (the other nil).
func (d *fitData) fit(ctx context.Context, board games.CellBoard, opts FitOptions) (*model.NTuple, *model.Dense, float64, *FitTraining, error) {
	train, held := splitHeld(d.held)
	if len(train) < 100 || len(held) < 20 {
		return nil, nil, 0, nil, fmt.Errorf("%d positions to fit and %d held out: play more games", len(train), len(held))
	}
	tr := &FitTraining{Method: "fitted to search-labelled positions of the bots' games, on top of their logistic model",
		Games: opts.Games, Seed: opts.Seed, Tuples: opts.Tuples, Length: opts.Length, Named: len(board.Tuples),
		Result: opts.Result, Rate: opts.Rate, Positions: len(d.y), HeldOut: len(held)}
	if opts.Kind == model.KindDense {
		tr.Method = "a dense network " + tr.Method
		tr.Tuples, tr.Length, tr.Named, tr.Hidden = 0, 0, 0, opts.Hidden
	}
	target := d.targets(train, opts.Result, tr)

	rng := pcg.New(opts.Seed, 0x6e746669742d) // "ntfit-"
	net, ntuple, dense, err := newFitNet(board, opts, rng)
	if err != nil {
		return nil, nil, 0, nil, err
	}
	rate := opts.Rate / net.rate
	bias := d.bias
	cellsOf := func(i int) []uint8 { return d.cells[i*d.stride : (i+1)*d.stride] }
	heldLoss := func(w func(i int) float64) Scores {
		var s Scores
		for _, i := range held {
			p := model.Sigmoid(w(i))
			s.LogLoss += logLoss(p, d.y[i])
			s.Brier += (p - d.y[i]) * (p - d.y[i])
		}
		s.LogLoss /= float64(len(held))
		s.Brier /= float64(len(held))
		return s
	}
	learned := func(i int) float64 { return d.base[i] + bias + net.value(cellsOf(i)) }
	best := heldLoss(func(i int) float64 { return d.base[i] + d.bias })
	tr.Base = best
	bestBias := bias
	order := slices.Clone(train)
	for epoch := 1; epoch <= opts.Epochs; epoch++ {
		if err := ctx.Err(); err != nil {
			return nil, nil, 0, nil, err
		}
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for _, i := range order {
			if math.IsNaN(target[i]) {
				continue
			}
			g := target[i] - model.Sigmoid(learned(i))
			net.step(cellsOf(i), rate*g)
			bias += rate * g
		}
		s := heldLoss(learned)
		if !(s.LogLoss < best.LogLoss) {
			break
		}
		best, tr.Epochs = s, epoch
		net.save()
		bestBias = bias
	}
	net.restore()
	bias = bestBias
	tr.Learned = best
	mean, results := 0.0, 0
	for _, i := range train {
		if !math.IsNaN(d.y[i]) { // a leaf has no result
			mean += d.y[i]
			results++
		}
	}
	mean /= float64(results)
	tr.Constant = heldLoss(func(int) float64 { return math.Log(mean / (1 - mean)) })
	tr.VersusBase = d.pairedLoss(held, learned, func(i int) float64 { return d.base[i] + d.bias })
	p := make([]float64, len(d.y))
	for _, i := range held {
		p[i] = model.Sigmoid(learned(i))
	}
	tr.Reliability = reliabilityBins(held, p, d.y, d.deal)
	return ntuple, dense, bias, tr, nil
}

// fitWorldSeed seeds the worlds collectCells samples ("ntworl").
const fitWorldSeed = 0x6e74776f726c

// collectCells plays the job's games and keeps the position of each
// seat's decisions (with opts.Quiet only those whose mover has no forcing
// move pending, the others counted): cells from the mover's view, the base's logit over the
// mover's features without its bias, the result and the search's lead for
// the mover. In a game with hidden information, where a network rates each
// seat from its own view (model.MoverView), the position is kept from the
// other seat's view too, as the mover's search shows it: in a world the
// mover sampled, with what the mover cannot see re-sampled. A network
// taught the other's view with its true hidden part (its own goal, which
// its stacks were built to) read every sampled world's stacks as the
// mover's progress, and played Capstone far worse than its base.
func collectCells(ctx context.Context, job sim.Job, stride int, base *model.Model, opts FitOptions) (*fitData, error) {
	d := &fitData{stride: stride}
	if base != nil {
		d.bias = base.Bias
	}
	var sc model.Scratch
	var forcing []games.Move
	err := replayDecisions(ctx, job, opts.Workers, opts.OnGame, func(r *sim.Record) decisionVisitor {
		held := r.Deal%HeldEvery == HeldEvery-1
		return func(s games.State, k int, p games.Player) {
			if opts.Quiet && forcingPending(s, &forcing) {
				d.notQuiet++
				return
			}
			views := [2]games.Player{p, p.Opponent()}
			seen := [2]games.State{s, s}
			n := 1
			if _, hidden := s.(games.Determinizer); hidden {
				// The other seat is rated, in the mover's search, in a
				// world the mover sampled: what the mover cannot see
				// re-sampled (the other's goal or hand), from a stream of
				// the deal and the decision.
				n = 2
				world := s.Clone()
				world.(games.Determinizer).Determinize(p, pcg.New(uint64(r.Deal)^fitWorldSeed, uint64(k)))
				seen[1] = world
			}
			if opts.Proof > 0 || opts.Leaves > 0 {
				if s.Plies() < opts.ProofFrom {
					return
				}
				d.states = append(d.states, s.Clone())
			}
			for i, v := range views[:n] {
				pos := seen[i]
				d.cells = pos.(games.CellState).AppendCells(d.cells, v)
				if base != nil {
					sc.Features = pos.(games.FeatureState).AppendFeatures(sc.Features[:0], v)
					d.base = append(d.base, base.Logit(sc.Features)-base.Bias)
				} else {
					d.base = append(d.base, 0)
					hand := math.NaN()
					if h, ok := pos.(games.Heuristic); ok {
						hand = h.Evaluate(v)
					}
					d.hand = append(d.hand, hand)
				}
				d.y = append(d.y, r.Result.ScoreFor(v))
				d.lead = append(d.lead, traceLead(r.Trace, k, v))
				d.deal = append(d.deal, r.Deal)
				d.held = append(d.held, held)
			}
		}
	})
	if err != nil {
		return nil, err
	}
	return d, nil
}

// handScale is the slope of a logistic of the hand heuristic's values
// (d.hand, without a base) fitted to the positions' labels: a network's
// hand scale, as TD self-play's is; 1 without them.
func (d *fitData) handScale() float64 {
	var idx []int
	for i, h := range d.hand {
		if !math.IsNaN(h) && !math.IsNaN(d.y[i]) { // a leaf has no result
			idx = append(idx, i)
		}
	}
	if len(idx) < 10 {
		return 1
	}
	x := make([][]float64, len(d.hand))
	for _, i := range idx {
		x[i] = []float64{d.hand[i]}
	}
	if kb, _, err := logistic(x, d.y, idx, []float64{0, 0}, 0); err == nil && kb[1] > 0 {
		return kb[1]
	}
	return 1
}

// proveLabels proves every position's value for its mover, each from an
// empty table within opts.Proof positions, on opts.Workers goroutines
// (the same labels at any count), makes it the position's result, drops
// the positions left unproven (past the bound, or on a line that repeats
// a position) and returns how many.
func (d *fitData) proveLabels(ctx context.Context, opts FitOptions) (int, error) {
	n := len(d.states)
	proven := make([]int8, n) // 0: unproven; else the outcome + 2
	workers := fitWorkers(opts.Workers, n)
	done := opts.stage("proving", "positions", n)
	err := inWorkers(workers, func(w int) error {
		var se *prove.Searcher
		for i := w; i < n; i += workers {
			s := d.states[i]
			if se == nil {
				var err error
				if se, err = prove.New(s, prove.Options{Context: ctx}); err != nil {
					return err
				}
				defer se.Close()
			}
			se.Reset()
			se.Budget(opts.Proof)
			v, err := se.Decide(s)
			switch {
			case err == nil:
				proven[i] = int8(v.Outcome + 2)
			case errors.Is(err, prove.ErrBudget), errors.Is(err, prove.ErrRepeats):
				// Unproven: past the bound, or on a line that repeats a
				// position (no proof of this searcher's).
			default:
				return err
			}
			done()
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	keep := 0
	for i := range n {
		if proven[i] == 0 {
			continue
		}
		copy(d.cells[keep*d.stride:(keep+1)*d.stride], d.cells[i*d.stride:(i+1)*d.stride])
		d.base[keep], d.deal[keep], d.held[keep] = d.base[i], d.deal[i], d.held[i]
		if d.hand != nil {
			d.hand[keep] = d.hand[i]
		}
		d.y[keep] = float64(proven[i]-1) / 2
		d.lead[keep] = math.NaN()
		keep++
	}
	d.cells, d.base, d.y, d.lead = d.cells[:keep*d.stride], d.base[:keep], d.y[:keep], d.lead[:keep]
	d.deal, d.held, d.states = d.deal[:keep], d.held[:keep], nil
	if d.hand != nil {
		d.hand = d.hand[:keep]
	}
	return n - keep, nil
}

// traceLead is the mover's lead before decision k by the trace (seat 0's,
// in hundredths of the hand heuristic's units): NaN beyond the trace, ±Inf
// for a forced result.
func traceLead(trace []int32, k int, mover games.Player) float64 {
	if k >= len(trace) {
		return math.NaN()
	}
	v := float64(trace[k]) / 100
	if trace[k] >= sim.TraceDecided {
		v = math.Inf(1)
	} else if trace[k] <= -sim.TraceDecided {
		v = math.Inf(-1)
	}
	if mover == games.Seat1 {
		v = -v
	}
	return v
}

// targets are the training positions' targets (held-out ones keep their
// results): Result × the result + (1 − Result) × the search's chance, the
// search's lead mapped by a logistic fitted to the training results (its
// scale and bias recorded in tr). A leaf of a search (addLeaves: no
// result) has the search's chance alone, or NaN, no target, where it has
// none.
func (d *fitData) targets(train []int, result float64, tr *FitTraining) []float64 {
	var x [][]float64
	var y []float64
	var idx []int
	for _, i := range train {
		if l := d.lead[i]; !math.IsNaN(l) && !math.IsInf(l, 0) && !math.IsNaN(d.y[i]) {
			idx = append(idx, len(x))
			x = append(x, []float64{l})
			y = append(y, d.y[i])
		}
	}
	scale, bias := 0.0, 0.0
	if len(x) >= 10 {
		if kb, _, err := logistic(x, y, idx, []float64{0, 0}, 0); err == nil && kb[1] > 0 {
			bias, scale = kb[0], kb[1]
		}
	}
	tr.SearchScale, tr.SearchBias = scale, bias
	t := slices.Clone(d.y)
	for _, i := range train {
		l := d.lead[i]
		switch {
		case math.IsNaN(d.y[i]) && (math.IsNaN(l) || scale == 0):
			// A leaf no search could label: no target (fit skips it).
		case math.IsNaN(d.y[i]):
			// A leaf of a search (addLeaves): no result, the search's
			// chance alone.
			t[i] = model.Sigmoid(scale*l + bias)
		case math.IsNaN(l) || scale == 0:
		default:
			t[i] = result*d.y[i] + (1-result)*model.Sigmoid(scale*l+bias)
		}
	}
	return t
}

// pairedLoss is the held-out log-loss of logits a less b's, clustered by
// deal (pairedLoss of Data).
func (d *fitData) pairedLoss(held []int, a, b func(i int) float64) Difference {
	dd := &Data{Y: d.y, Deal: d.deal}
	return pairedLoss(dd, held, func(i int) float64 { return model.Sigmoid(a(i)) }, func(i int) float64 { return model.Sigmoid(b(i)) })
}

// cloneWeights copies a network's tables.
func cloneWeights(w [][]float32) [][]float32 {
	out := make([][]float32, len(w))
	for i := range w {
		out[i] = slices.Clone(w[i])
	}
	return out
}
