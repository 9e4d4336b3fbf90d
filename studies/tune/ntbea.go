package tune

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"playtest/games/pcg"
	"playtest/reports"
	"playtest/reports/howplays"
	"playtest/sim"
	"playtest/sim/bots"
)

// Searches a race may begin with.
const (
	// SearchRace races every candidate of the space from the first round.
	SearchRace = "race"
	// SearchNTBEA first searches the space with the N-Tuple Bandit
	// Evolutionary Algorithm, then races the candidates it proposes.
	SearchNTBEA = "ntbea"
	// AutoNTBEA is the size of space above which the search is NTBEA
	// unless one is chosen.
	AutoNTBEA = 256
)

// Defaults of an NTBEA search.
const (
	DefaultEvalGames  = 20
	DefaultConfirm    = 8
	DefaultNeighbours = 50
	// DefaultExploration weighs the bandit's exploration term, in standard
	// deviations of the evaluations' fitness.
	DefaultExploration = 2.0
)

// searchSeedSalt makes an NTBEA search's games independent of the
// confirmation race's: the search plays on seed ^ salt, so the race that
// judges its proposals does not reuse the games that proposed them (the
// winner's curse).
const searchSeedSalt = 0x6e7462656173656c

// Search is an NTBEA search's account.
type Search struct {
	// Evaluations is how many points it evaluated, each with Games games
	// (seat-swapped pairs), on a seed of its own; Spent the games in all.
	Evaluations int `json:"evaluations"`
	Games       int `json:"games_per_evaluation"`
	Spent       int `json:"games_spent"`
	// Distinct is how many distinct points it evaluated.
	Distinct int `json:"distinct_points"`
	// Proposed are the labels of the points it proposed, best first, with
	// the model's estimate of each one's fitness.
	Proposed []Proposal `json:"proposed"`
	// Fitness says what an evaluation's fitness is.
	Fitness string `json:"fitness"`
	// Trail is every evaluation in order: the point and its fitness.
	Trail []SearchEvaluation `json:"trail"`
}

// SearchEvaluation is one evaluation of an NTBEA search.
type SearchEvaluation struct {
	Label   string  `json:"label"`
	Fitness float64 `json:"fitness"`
}

// Proposal is a point NTBEA proposed.
type Proposal struct {
	Label string  `json:"label"`
	Model float64 `json:"model_fitness"`
	Evals int     `json:"evaluations"`
}

// arm is a tuple value's evaluations: their count, sum and sum of
// squares.
type arm struct {
	n       int
	sum, sq float64
}

// model is NTBEA's n-tuple model of the fitness: for each tuple of axes
// (every axis alone, every pair, and all together) the evaluations seen
// at each combination of the tuple's values.
type model struct {
	dims   []int
	tuples [][]int
	arms   []map[int]*arm
	// n, mean and m2 describe every evaluation's fitness (Welford).
	n        int
	mean, m2 float64
}

func newModel(dims []int) *model {
	m := &model{dims: dims}
	for a := range dims {
		m.tuples = append(m.tuples, []int{a})
	}
	for a := range dims {
		for b := a + 1; b < len(dims); b++ {
			m.tuples = append(m.tuples, []int{a, b})
		}
	}
	if len(dims) > 2 {
		all := make([]int, len(dims))
		for a := range all {
			all[a] = a
		}
		m.tuples = append(m.tuples, all)
	}
	for range m.tuples {
		m.arms = append(m.arms, map[int]*arm{})
	}
	return m
}

// key is the index of x's values on the tuple's axes (mixed radix).
func (m *model) key(t int, x []int) int {
	k := 0
	for _, a := range m.tuples[t] {
		k = k*m.dims[a] + x[a]
	}
	return k
}

// add records an evaluation of x.
func (m *model) add(x []int, fitness float64) {
	for t := range m.tuples {
		k := m.key(t, x)
		a := m.arms[t][k]
		if a == nil {
			a = &arm{}
			m.arms[t][k] = a
		}
		a.n++
		a.sum += fitness
		a.sq += fitness * fitness
	}
	m.n++
	d := fitness - m.mean
	m.mean += d / float64(m.n)
	m.m2 += d * (fitness - m.mean)
}

// value is the model's estimate of x's fitness, the mean over the tuples
// of their arms' means (an unseen arm counts the mean of all), plus, with
// explore > 0, the bandit's exploration bonus: explore standard
// deviations of the fitness times √(ln N / n) for an arm seen n times.
func (m *model) value(x []int, explore float64) float64 {
	sd := 0.0
	if m.n > 1 {
		sd = math.Sqrt(m.m2 / float64(m.n-1))
	}
	total := 0.0
	for t := range m.tuples {
		a := m.arms[t][m.key(t, x)]
		mean, n := m.mean, 0.0
		if a != nil {
			mean, n = a.sum/float64(a.n), float64(a.n)
		}
		total += mean + explore*sd*math.Sqrt(math.Log(float64(m.n)+1)/(n+0.5))
	}
	return total / float64(len(m.tuples))
}

// searchBudget splits an NTBEA race's budget: the search plays about
// 3/5 of it, the confirmation race the rest.
func searchBudget(budget int) int { return budget * 3 / 5 }

// ntbea searches the candidates (the space's points) and returns the
// distinct candidates it proposes, best first, at most res.Confirm of
// them. It evaluates points with evaluate (evaluation e of candidate c:
// its fitness), res.EvalGames games each, until it has spent 3/5 of the
// race's budget.
func (res *Result) ntbea(sp *space, cands []*Candidate, k *keeper, evaluate func(c *Candidate, e int) (float64, error), onSearch func(done, total int, best string)) ([]*Candidate, error) {
	dims := make([]int, len(sp.Labels))
	for a, labels := range sp.Labels {
		dims[a] = len(labels)
	}
	points := sp.Points
	index := map[int]int{} // point index (mixed radix over every axis) → candidate
	pointIndex := func(x []int) int {
		k := 0
		for a, v := range x {
			k = k*dims[a] + v
		}
		return k
	}
	for i, pt := range points {
		index[pointIndex(pt)] = i
	}
	evalGames := res.EvalGames
	evals := searchBudget(res.Budget) / evalGames
	srch := &Search{Games: evalGames, Fitness: "−(balance × the mean of (x − ½)(y − ½) over pairs of its distinct deals, x and y their seat-0 scores + each soft target's weight × its distance + each hard target's distance): the balance term an unbiased estimate of −balance × (seat 0's score − ½)²"}
	m := newModel(dims)
	rng := pcg.New(res.Seed, searchSeedSalt)
	times := make([]int, len(cands)) // evaluations of each candidate
	x := slices.Clone(points[rng.IntN(len(points))])
	for e := range evals {
		c := index[pointIndex(x)]
		// Evaluations played before a stop are replayed from the kept
		// state: the same fitness, so the same proposals after them.
		fitness, kept := k.searched(e)
		if !kept {
			var err error
			if fitness, err = evaluate(cands[c], e); err != nil {
				return nil, err
			}
			if err := k.saveSearch(res, fitness); err != nil {
				return nil, err
			}
		}
		times[c]++
		srch.Trail = append(srch.Trail, SearchEvaluation{Label: cands[c].Label, Fitness: fitness})
		srch.Evaluations++
		srch.Spent += evalGames
		m.add(x, fitness)
		if onSearch != nil && (e+1)%max(1, evals/10) == 0 {
			best := slices.MaxFunc(seenPoints(times), func(a, b int) int { return cmp.Compare(m.value(points[a], 0), m.value(points[b], 0)) })
			onSearch(e+1, evals, cands[best].Label)
		}
		if e == evals-1 {
			break
		}
		// The next point: of the neighbours of x (one or more axes
		// changed, each with chance 1/axes), the one the bandit values
		// most.
		best, bestValue := []int(nil), math.Inf(-1)
		for range DefaultNeighbours {
			y := mutate(rng, x, dims)
			if _, ok := index[pointIndex(y)]; !ok {
				continue // left out of the space
			}
			if v := m.value(y, DefaultExploration); v > bestValue {
				best, bestValue = y, v
			}
		}
		if best == nil {
			best = slices.Clone(points[rng.IntN(len(points))])
		}
		x = best
	}
	// The proposals: the evaluated points the model values most, without
	// exploration.
	seen := seenPoints(times)
	srch.Distinct = len(seen)
	modelOf := func(i int) float64 { return m.value(points[i], 0) }
	slices.SortStableFunc(seen, func(a, b int) int { return cmp.Compare(modelOf(b), modelOf(a)) })
	var proposed []*Candidate
	for _, i := range seen[:min(len(seen), res.Confirm)] {
		proposed = append(proposed, cands[i])
		srch.Proposed = append(srch.Proposed, Proposal{Label: cands[i].Label, Model: modelOf(i), Evals: times[i]})
	}
	// Each knob's effect: its values' mean cost (−fitness) over the
	// evaluations, the model's 1-tuples.
	res.EffectMeasure = "mean cost over NTBEA's evaluations with the value (−fitness: balance × (seat 0's score − ½)², estimated, plus the soft targets' weighted distances), 95% intervals; the search chose what to evaluate, so a value is seen mostly beside the other knobs' better values"
	res.Effects = nil
	for a, labels := range sp.Labels {
		eff := newEffect(res.Axes[a], labels)
		for v := range labels {
			if arm := m.arms[a][v]; arm != nil {
				eff.set(v, -arm.sum/float64(arm.n), arm.sq/float64(arm.n)-(arm.sum/float64(arm.n))*(arm.sum/float64(arm.n)), arm.n)
			}
		}
		res.Effects = append(res.Effects, eff)
	}
	res.Search = srch
	// The race's games so far count the search's: a resumed race's kept
	// count holds them already when the search had ended before the stop.
	res.Spent = max(res.Spent, srch.Spent)
	return proposed, nil
}

// seenPoints are the candidates evaluated at least once, in order.
func seenPoints(times []int) []int {
	var seen []int
	for i, n := range times {
		if n > 0 {
			seen = append(seen, i)
		}
	}
	return seen
}

// mutate returns a neighbour of x: each axis changed with chance 1/axes,
// at least one, to another of its values.
func mutate(rng *pcg.Rand, x, dims []int) []int {
	y := slices.Clone(x)
	changed := false
	for !changed {
		for a, n := range dims {
			if n > 1 && rng.IntN(len(dims)) == 0 {
				y[a] = (y[a] + 1 + rng.IntN(n-1)) % n
				changed = true
			}
		}
		if slices.Max(dims) < 2 {
			return y
		}
	}
	return y
}

// evaluate plays the search's evaluation k with the candidate (games
// [k·games, (k+1)·games) of its search seed) and returns its fitness.
// Every evaluation plays deals of its own: with common deals, a point
// next to one that drew lucky deals would draw them too, and the search
// would chase the luck.
func (res *Result) evaluate(ctx context.Context, c *Candidate, k, games int, opts Options) (float64, error) {
	read, err := res.readers(c)
	if err != nil {
		return 0, err
	}
	var t tally
	err = c.playGames(ctx, c.cfg.Seed^searchSeedSalt, k*games, (k+1)*games, opts, func(r *sim.Record) {
		r2 := *r
		r2.Deal -= k * games / 2
		t.add(&r2, read)
	})
	if err != nil {
		return 0, err
	}
	// Over the deals' seat-0 scores y = x − ½, (Σy)² − Σy² over n(n − 1)
	// averages y_i·y_j over pairs of distinct deals: independent deals, so
	// an unbiased estimate of (p − ½)².
	sum, squares, n := 0.0, 0.0, float64(t.deals())
	for _, s := range t.Sum[figScore] {
		y := s/2 - 0.5
		sum += y
		squares += y * y
	}
	cost := res.Goal.Balance * (sum*sum - squares) / (n * (n - 1))
	// A soft target adds its weighted distance; the search steers away
	// from breaking a hard one as from a soft one of weight 1 (in the
	// figure's own units), and the race then judges it as a constraint.
	for i, target := range res.Goal.Targets {
		m := t.moments(figTargets+i, t.deals())
		weight := target.Weight
		if target.Hard() {
			weight = 1
		}
		cost += weight * target.distance(m.Mean())
	}
	return -cost, nil
}

// readers are the functions that read each tallied figure from c's
// games: How it plays' figures with c's learned model's mapping.
func (res *Result) readers(c *Candidate) ([]func(*sim.Record) (float64, bool), error) {
	var read []func(*sim.Record) (float64, bool)
	for _, name := range res.Goal.figures() {
		figure, ok := strings.CutPrefix(name, reports.PlayPrefix)
		if !ok {
			read = append(read, reports.PerGame(name))
			continue
		}
		m := sim.TraceModel(c.cfg.Players)
		if m == nil {
			return nil, &PlayTargetError{Metric: name, Candidate: c.Label}
		}
		read = append(read, reports.PlayPerGame(figure, howplays.FromModel(m)))
	}
	return read, nil
}

// PlayTargetError refuses a How it plays target for a candidate whose bots
// play no learned model: a game's trace maps to chances of winning, game by
// game, only through a model's scale.
type PlayTargetError struct{ Metric, Candidate string }

func (e *PlayTargetError) Error() string {
	return fmt.Sprintf("target %s: %s's bots play the hand heuristic, whose leads have no scale of chances game by game; give the base variant's bots a learned model (eval: learned, model: preset or a file) or race with --learn GAMES (NTBEA needs the model in the base)", e.Metric, e.Candidate)
}

// BadInput marks the error as the user's input (exit 2).
func (e *PlayTargetError) BadInput() bool { return true }

// searchText describes an NTBEA search in a sentence.
func (s *Search) searchText() string {
	return fmt.Sprintf("NTBEA evaluated %s points (%s distinct) with %d games each, %s games, and proposed %d for the race.",
		bots.Thousands(s.Evaluations), bots.Thousands(s.Distinct), s.Games, bots.Thousands(s.Spent), len(s.Proposed))
}
