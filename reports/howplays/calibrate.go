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
	// opening says the mapping has its opening term (openingShows): the
	// folds are fitted with it, else without; each resample of the
	// bootstrap takes the test again (refit).
	opening bool
	// units are the games (or pairs) the figures are over, fold their
	// folds; grad their log-likelihood's gradient and Hessian at all
	// (the one-step refits of the bootstrap).
	units [][]*Game
	fold  []int
	grad  []newton
	// bare is the fit without the opening term and scores each unit's
	// gradient and Hessian at it: the opening term's score test, and the
	// one-step refits of a resample that leaves the term out where all
	// has it. Without the term, bare is all and scores grad.
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
		f := terms(float64(e)/100, t)
		p := model.Sigmoid(m.A*f[0] + m.B*f[1] + m.C*f[2] + m.D*f[3])
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

// step is one Newton step of the penalised fit from m: a ridge of 10⁻³
// per entry pulls the asinh and opening terms toward 0, so that the
// mapping is a plain logistic unless the leads ask for more (the asinh
// term and the lead are nearly collinear: without the ridge, noise moves
// weight between them), and one of 10⁻⁶ pulls the slope toward prior, so
// that leads that separate the outcomes perfectly still give a finite
// fit. ok is false when the Hessian is singular.
func (s newton) step(m Mapping, prior float64, opening bool) (Mapping, bool) {
	slopeRidge := 1e-6 * s.n
	w := [numTerms]float64{m.A, m.B, m.C, m.D}
	g, h := s.g, s.h
	if !opening {
		// The opening term held at its value (0): its row and column out.
		g[3] = 0
		for i := range numTerms {
			h[3][i], h[i][3] = 0, 0
		}
		h[3][3] = 1
	}
	g[1] += slopeRidge * (w[1] - prior)
	h[1][1] += slopeRidge
	for i, ridge := range [numTerms]float64{2: asinhRidge, 3: openingRidge} {
		g[i] += ridge * s.n * w[i]
		h[i][i] += ridge * s.n
	}
	d, ok := solve(h, g)
	if !ok {
		return m, false
	}
	m.A, m.B, m.C, m.D = w[0]-d[0], w[1]-d[1], w[2]-d[2], w[3]-d[3]
	return m, true
}

// The ridges of the asinh and opening terms, per entry (step).
const asinhRidge, openingRidge = 1e-3, 1e-3

// openingZ is how many standard errors the opening term's score must be
// from 0, clustered by game (or pair), for a mapping to have the term
// (openingShows).
const openingZ = 3

// openingShows reports whether the games show a seat advantage in their
// openings that the mapping m, fitted without the opening term, misses
// (openingTest over every unit).
func openingShows(units [][]*Game, m Mapping) bool {
	return openingTest(unitScores(units, m), nil)
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

// openingTest is the score test of the opening term over a sample of the
// units (nil: every unit once), per holding each unit's scores at the fit
// without the term: each unit's score projected off the fitted terms and
// its variance taken over the units, since a game's entries share one
// result; at least openingZ standard errors from 0. A game without such
// an advantage (a random walk, a fair coin) keeps the mapping it had: a
// term fitted to noise would move the first decisions' chances, and the
// figures that read their extremes (drama) with them.
func openingTest(per []newton, sample []int) bool {
	each := func(f func(s *newton)) {
		if sample == nil {
			for u := range per {
				f(&per[u])
			}
			return
		}
		for _, u := range sample {
			f(&per[u])
		}
	}
	var total newton
	each(func(s *newton) { total.add(*s) })
	// x = H_θθ⁻¹ H_θD over the fitted terms θ (1, lead, asinh lead).
	var h [numTerms][numTerms]float64
	var v [numTerms]float64
	for i := range numTerms - 1 {
		for j := range numTerms - 1 {
			h[i][j] = total.h[i][j]
		}
		v[i] = total.h[i][3]
	}
	h[3][3] = 1
	x, ok := solve(h, v)
	if !ok {
		return false
	}
	var sum, squares float64
	each(func(s *newton) {
		e := s.g[3]
		for i := range numTerms - 1 {
			e -= x[i] * s.g[i]
		}
		sum += e
		squares += e * e
	})
	return squares > 0 && math.Abs(sum) >= openingZ*math.Sqrt(squares)
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
// the slope toward prior; with the opening term where opening says so,
// else with start's (0).
func fitGames(gs []*Game, start Mapping, prior float64, opening bool) Mapping {
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
	if m.A == 0 && m.B == 0 && m.C == 0 && m.D == 0 {
		mean := math.Min(math.Max(sumY/n, 1e-3), 1-1e-3)
		m.A, m.B = math.Log(mean/(1-mean)), prior
	}
	for range 50 {
		var s newton
		for _, g := range gs {
			s.add(gradient(g.Trace, g.Seat0, m))
		}
		next, ok := s.step(m, prior, opening)
		if !ok {
			break
		}
		done := math.Abs(next.A-m.A) < 1e-10 && math.Abs(next.B-m.B) < 1e-10 && math.Abs(next.C-m.C) < 1e-10 && math.Abs(next.D-m.D) < 1e-10
		m = next
		if done {
			break
		}
	}
	m.A, m.B, m.C, m.D = round(m.A, 9), round(m.B, 9), round(m.C, 9), round(m.D, 9)
	return m
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
	c.bare = fitGames(all, start, c.prior, false)
	c.scores = unitScores(units, c.bare)
	c.all, c.grad = c.bare, c.scores
	if openingTest(c.scores, nil) {
		c.opening = true
		c.all = fitGames(all, start, c.prior, true)
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
					leads = append(leads, terms(float64(e)/100, t))
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
			c.folds[k] = fitGames(others, c.all, c.prior, c.opening)
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
// opening term's score test again (openingTest), so that the intervals
// include the choice: without the term where all has it, the step is from
// the fit without it (bare). It writes the mappings
// into maps (CrossFolds long) and returns them, for of, with the fit to
// the whole resample (whose intercept, the seat-0 advantage at an even
// lead, evenIntervals bounds).
func (c *calibration) refit(sample []int, maps []Mapping) ([]Mapping, Mapping) {
	opening := openingTest(c.scores, sample)
	from, grad := c.all, c.grad
	if c.opening && !opening {
		from, grad = c.bare, c.scores
	}
	var sums [CrossFolds + 1]newton
	for _, u := range sample {
		sums[c.fold[u]].add(grad[u])
		sums[CrossFolds].add(grad[u])
	}
	one := func(s newton) Mapping {
		m, _ := s.step(from, c.prior, opening)
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
