package howplays

import (
	"math"
	"slices"

	"playtest/sim"
	"playtest/sim/model"
)

// CrossFolds is the number of folds a fitted mapping is cross-fitted in:
// the games of each fold are read with the logistic fitted to the other
// folds' games, so that no game is judged by a mapping fitted to its own
// result.
const CrossFolds = 5

// minCrossUnits is the fewest games (or pairs) cross-fitted: fewer are all
// read with the fit to them all.
const minCrossUnits = 4 * CrossFolds

// calibration is how a report reads its traces: the fit to every traced
// game (the report's Mapping, which also draws single games) and, for the
// figures, each fold's fit to the other folds' games.
type calibration struct {
	all Mapping
	// folds holds each fold's mapping; nil: every game is read with all
	// (a mapping given, not fitted, or too few games to cross-fit).
	folds []Mapping
	// prior is the slope the fit's ridge pulls toward: the learned
	// model's scale, or 0.
	prior float64
	// free are the terms the mapping has (freeTerms): the folds are
	// fitted with them; each resample of the bootstrap takes the tests
	// again (refit).
	free freeSet
	// units are the games (or pairs) the figures are over, fold their
	// folds; grad their log-likelihood's gradient and Hessian at all
	// (the one-step refits of the bootstrap).
	units [][]*Game
	fold  []int
	grad  []newton
	// bare is the fit of the base terms alone and scores each unit's
	// gradient and Hessian at it: the optional terms' score tests, and
	// the one-step refits of a resample whose tests free other terms than
	// all has. With the base terms alone, bare is all and scores grad.
	bare   Mapping
	scores []newton
	// leads holds each unit's games' entries' terms (terms), a decided
	// entry's lead ±Inf, so that a resample reads them again without the
	// transcendental work.
	leads [][][][numTerms]float64
}

// remap reads game k of unit u again with m into buf (Probabilities'
// layout: the result last).
func (c *calibration) remap(u, k int, m Mapping, buf []float64) []float64 {
	buf = buf[:0]
	for _, f := range c.leads[u][k] {
		switch {
		case math.IsInf(f[1], 1):
			buf = append(buf, 1)
		case math.IsInf(f[1], -1):
			buf = append(buf, 0)
		default:
			buf = append(buf, m.chance(f))
		}
	}
	return append(buf, c.units[u][k].Seat0)
}

// newton is a fit's gradient and Hessian sums (penalty aside) over some
// entries of the mapping's terms (1, lead, asinh lead, opening), and their
// number.
type newton struct {
	n float64
	g [numTerms]float64
	h [numTerms][numTerms]float64
}

func (a *newton) add(b newton) {
	a.n += b.n
	for i := range a.g {
		a.g[i] += b.g[i]
		for j := range a.h[i] {
			a.h[i][j] += b.h[i][j]
		}
	}
}

func (a *newton) sub(b newton) {
	a.n -= b.n
	for i := range a.g {
		a.g[i] -= b.g[i]
		for j := range a.h[i] {
			a.h[i][j] -= b.h[i][j]
		}
	}
}

// gradient sums the log-likelihood's gradient and Hessian of the mapping
// m over a trace's undecided entries, the game's result y.
func gradient(trace []int32, y float64, m Mapping) newton {
	var s newton
	for t, e := range trace {
		if e <= -sim.TraceDecided || e >= sim.TraceDecided {
			continue
		}
		f := terms(float64(e)/100, t, m.Span)
		p := model.Sigmoid(m.A*f[0] + m.B*f[1] + m.C*f[2] + m.D*f[3] + m.E*f[4])
		w := p * (1 - p)
		s.n++
		for i := range f {
			s.g[i] += (p - y) * f[i]
			for j := range f {
				s.h[i][j] += w * f[i] * f[j]
			}
		}
	}
	return s
}

// freeSet says which of the mapping's terms a fit frees; the others are
// held at their value (0).
type freeSet [numTerms]bool

// baseFit frees the base terms alone.
var baseFit = freeSet{true, true, true}

// step is one Newton step of the penalised fit from m, the terms free
// says: a ridge of 10⁻³ per entry pulls the asinh, opening and fading
// terms toward 0, so that the mapping is a plain logistic unless the
// leads ask for more (the asinh term and the lead are nearly collinear:
// without the ridge, noise moves weight between them), and one of 10⁻⁶
// pulls the slope toward prior, so that leads that separate the outcomes
// perfectly still give a finite fit. ok is false when the Hessian is
// singular.
func (s newton) step(m Mapping, prior float64, free freeSet) (Mapping, bool) {
	slopeRidge := 1e-6 * s.n
	w := [numTerms]float64{m.A, m.B, m.C, m.D, m.E}
	g, h := s.g, s.h
	for k, f := range free {
		if !f {
			// The term held at its value: its row and column out.
			g[k] = 0
			for i := range numTerms {
				h[k][i], h[i][k] = 0, 0
			}
			h[k][k] = 1
		}
	}
	g[1] += slopeRidge * (w[1] - prior)
	h[1][1] += slopeRidge
	for i := 2; i < numTerms; i++ {
		g[i] += termRidge * s.n * w[i]
		h[i][i] += termRidge * s.n
	}
	d, ok := solve(h, g)
	if !ok {
		return m, false
	}
	m.A, m.B, m.C, m.D, m.E = w[0]-d[0], w[1]-d[1], w[2]-d[2], w[3]-d[3], w[4]-d[4]
	return m, true
}

// termRidge is the ridge of the asinh, opening and fading terms, per
// entry (step).
const termRidge = 1e-3

// termZ is how many standard errors an optional term's score must be
// from 0, clustered by game (or pair), for a mapping to have the term
// (termShows).
const termZ = 3

// freeTerms is the terms a fit to a sample of the units (indices, a unit
// drawn twice counted twice) frees: the base terms, and each optional
// term whose score test passes (termShows), per holding each unit's
// scores at the fit of the base terms alone.
func freeTerms(per []newton, sample []int) freeSet {
	free := baseFit
	for _, k := range []int{openingTerm, fadingTerm} {
		free[k] = termShows(per, sample, k)
	}
	return free
}

// unitScores sums each unit's (game's or pair's) log-likelihood gradient
// and Hessian at m.
func unitScores(units [][]*Game, m Mapping) []newton {
	per := make([]newton, len(units))
	for u, unit := range units {
		for _, g := range unit {
			per[u].add(gradient(g.Trace, g.Seat0, m))
		}
	}
	return per
}

// termShows is the score test of optional term k over a sample of the
// units, per holding each unit's scores at the fit
// of the base terms alone: whether the games show what the term carries
// (the opening term: a seat advantage in the openings; the fading slope:
// leads worth more or less early than late) and the base terms miss. Each
// unit's score is projected off the base terms and its variance taken
// over the units, since a game's entries share one result; the sum must
// be at least termZ standard errors from 0. A game without it (a random
// walk, a fair coin) keeps the mapping it had: a term fitted to noise
// would move the chances, and the figures that read their extremes
// (drama) with them.
func termShows(per []newton, sample []int, k int) bool {
	var total newton
	for _, u := range sample {
		total.add(per[u])
	}
	// x = H_θθ⁻¹ H_θk over the base terms θ, the others' rows the identity.
	var h [numTerms][numTerms]float64
	var v [numTerms]float64
	for i := range numTerms {
		if i >= baseTerms {
			h[i][i] = 1
			continue
		}
		for j := range baseTerms {
			h[i][j] = total.h[i][j]
		}
		v[i] = total.h[i][k]
	}
	x, ok := solve(h, v)
	if !ok {
		return false
	}
	var sum, squares float64
	for _, u := range sample {
		e := per[u].g[k]
		for i := range baseTerms {
			e -= x[i] * per[u].g[i]
		}
		sum += e
		squares += e * e
	}
	return squares > 0 && math.Abs(sum) >= termZ*math.Sqrt(squares)
}

// solve solves h·x = g by Gaussian elimination with partial pivoting; ok
// is false when h is singular.
func solve(h [numTerms][numTerms]float64, g [numTerms]float64) (x [numTerms]float64, ok bool) {
	for c := range numTerms {
		p := c
		for r := c + 1; r < numTerms; r++ {
			if math.Abs(h[r][c]) > math.Abs(h[p][c]) {
				p = r
			}
		}
		if h[p][c] == 0 || math.IsNaN(h[p][c]) {
			return x, false
		}
		h[c], h[p] = h[p], h[c]
		g[c], g[p] = g[p], g[c]
		for r := range numTerms {
			if r == c {
				continue
			}
			f := h[r][c] / h[c][c]
			for k := c; k < numTerms; k++ {
				h[r][k] -= f * h[c][k]
			}
			g[r] -= f * g[c]
		}
	}
	for i := range x {
		x[i] = g[i] / h[i][i]
	}
	return x, true
}

// fitGames fits the mapping to the games' results by Newton's method from
// start (from the results' mean when start is zero), the ridge pulling
// the slope toward prior; the terms free says, the others held at start's
// (0).
func fitGames(gs []*Game, start Mapping, prior float64, free freeSet) Mapping {
	var n, sumY float64
	for _, g := range gs {
		s := gradient(g.Trace, g.Seat0, Mapping{})
		n += s.n
		sumY += s.n * g.Seat0
	}
	m := start
	m.Folds = 0
	if n == 0 {
		return Mapping{Source: start.Source}
	}
	if m.A == 0 && m.B == 0 && m.C == 0 && m.D == 0 && m.E == 0 {
		mean := math.Min(math.Max(sumY/n, 1e-3), 1-1e-3)
		m.A, m.B = math.Log(mean/(1-mean)), prior
	}
	for range 50 {
		var s newton
		for _, g := range gs {
			s.add(gradient(g.Trace, g.Seat0, m))
		}
		next, ok := s.step(m, prior, free)
		if !ok {
			break
		}
		done := math.Abs(next.A-m.A) < 1e-10 && math.Abs(next.B-m.B) < 1e-10 && math.Abs(next.C-m.C) < 1e-10 &&
			math.Abs(next.D-m.D) < 1e-10 && math.Abs(next.E-m.E) < 1e-10
		m = next
		if done {
			break
		}
	}
	m.A, m.B, m.C, m.D, m.E = round(m.A, 9), round(m.B, 9), round(m.C, 9), round(m.D, 9), round(m.E, 9)
	return m
}

// fitTerms fits the mapping to the games, grouped in units, from start
// (its Span set to the games' spanOf): the base terms alone (bare, and
// each unit's scores at it), then again with the optional terms whose
// score tests pass over every unit (all, the terms free); all is bare
// where none passes.
func fitTerms(gs []*Game, units [][]*Game, start Mapping, prior float64) (bare Mapping, scores []newton, all Mapping, free freeSet) {
	start.Span = spanOf(gs)
	bare = fitGames(gs, start, prior, baseFit)
	scores = unitScores(units, bare)
	free = freeTerms(scores, identity(len(units)))
	if free == baseFit {
		return bare, scores, bare, free
	}
	return bare, scores, fitGames(gs, start, prior, free), free
}

// calibrate fits the mapping of the games, grouped in units: from the
// learned model's mapping when given (Source MappingRefit), else from
// nothing (MappingFitted); each unit's games are then read with its
// fold's fit (Folds), and the one-step refits of the bootstrap are made
// ready.
func calibrate(gs []Game, units [][]*Game, pairs bool, model *Mapping) *calibration {
	c := &calibration{units: units}
	start := Mapping{Source: MappingFitted}
	if model != nil {
		start = Mapping{Source: MappingRefit, A: model.A, B: model.B}
		c.prior = model.B
	}
	all := make([]*Game, len(gs))
	for i := range gs {
		all[i] = &gs[i]
	}
	c.bare, c.scores, c.all, c.free = fitTerms(all, units, start, c.prior)
	c.grad = c.scores
	if c.free != baseFit {
		c.grad = unitScores(units, c.all)
	}
	c.fold = make([]int, len(units))
	c.leads = make([][][][numTerms]float64, len(units))
	for u, unit := range units {
		for _, g := range unit {
			leads := make([][numTerms]float64, 0, len(g.Trace))
			for t, e := range g.Trace {
				switch {
				case e >= sim.TraceDecided:
					leads = append(leads, [numTerms]float64{1, math.Inf(1)})
				case e <= -sim.TraceDecided:
					leads = append(leads, [numTerms]float64{1, math.Inf(-1)})
				default:
					leads = append(leads, terms(float64(e)/100, t, c.all.Span))
				}
			}
			c.leads[u] = append(c.leads[u], leads)
		}
		key := unit[0].Index
		if pairs {
			key = unit[0].Deal
		}
		c.fold[u] = key % CrossFolds
	}
	if len(units) >= minCrossUnits {
		c.all.Folds = CrossFolds
		c.folds = make([]Mapping, CrossFolds)
		for k := range c.folds {
			var others []*Game
			for u, unit := range units {
				if c.fold[u] != k {
					others = append(others, unit...)
				}
			}
			c.folds[k] = fitGames(others, c.all, c.prior, c.free)
		}
	}
	maps := c.folds
	if maps == nil {
		maps = []Mapping{c.all}
	}
	for u, unit := range units {
		m := c.of(u, maps)
		for _, g := range unit {
			g.P = m.Probabilities(g.Trace, g.Seat0, g.P)
		}
	}
	return c
}

// of is the mapping unit u is read with, of maps: each fold's, or one for
// every unit when the games are not cross-fitted.
func (c *calibration) of(u int, maps []Mapping) Mapping {
	if c.folds == nil {
		return maps[0]
	}
	return maps[c.fold[u]]
}

// refit fits the mapping again to a resample of the units, as calibrate
// fitted it to them all, by one Newton step from the fit to all (a
// one-step bootstrap: as good as the full fit to first order, and cheap):
// each fold's fit to the resample's other folds, or one fit to the whole
// resample when the games are not cross-fitted. The resample takes the
// optional terms' score tests again (freeTerms), so that the intervals
// include the choice: where it frees other terms than all has, the step
// is from the fit of the base terms alone (bare). It writes the mappings
// into maps (CrossFolds long) and returns them, for of, with the fit to
// the whole resample (whose intercept, the seat-0 advantage at an even
// lead, evenIntervals bounds).
func (c *calibration) refit(sample []int, maps []Mapping) ([]Mapping, Mapping) {
	free := freeTerms(c.scores, sample)
	from, grad := c.all, c.grad
	if free != c.free {
		from, grad = c.bare, c.scores
	}
	var sums [CrossFolds + 1]newton
	for _, u := range sample {
		sums[c.fold[u]].add(grad[u])
		sums[CrossFolds].add(grad[u])
	}
	one := func(s newton) Mapping {
		m, _ := s.step(from, c.prior, free)
		return m
	}
	all := one(sums[CrossFolds])
	if c.folds == nil {
		maps[0] = all
		return maps, all
	}
	for k := range CrossFolds {
		s := sums[CrossFolds]
		s.sub(sums[k])
		maps[k] = one(s)
	}
	return maps, all
}

// even returns the mappings the units are read with (calibration.of) with
// no seat advantage at an even lead: each intercept and opening term 0,
// the slopes kept.
func (c *calibration) even() []Mapping {
	maps := slices.Clone(c.folds)
	if maps == nil {
		maps = []Mapping{c.all}
	}
	for k := range maps {
		maps[k].A, maps[k].D = 0, 0
	}
	return maps
}
