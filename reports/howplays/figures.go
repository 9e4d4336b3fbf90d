package howplays

import (
	"math"
	"slices"

	"playtest/games"
	"playtest/reports/stats"
	"playtest/sim"
)

// Thresholds of the figures, on seat 0's (or the winner's) chance of
// winning.
const (
	// LeadMargin: a seat leads while its chance is above ½ + LeadMargin;
	// between the two margins nobody does, so noise around ½ is no change.
	LeadMargin = 0.1
	// DecidedAbove: a game is decided from the decision after which the
	// winner's chance stays above it to the end.
	DecidedAbove = 0.9
	// ComebackBelow: a win is a comeback when the winner's chance fell
	// below it.
	ComebackBelow = 0.25
	// TurningStep: a turning point is a decision that moves the chance by
	// at least this much.
	TurningStep = 0.3
)

// Game is one traced game as the figures read it.
type Game struct {
	Index, Deal int
	// Seat0 is seat 0's result: 1 a win, ½ a draw, 0 a loss.
	Seat0 float64
	Plies int
	// P is seat 0's chance of winning before each decision, then the
	// result (Mapping.Probabilities); Trace the leads it was read from
	// (sim.Record.Trace).
	P     []float64
	Trace []int32
	// Decided is sim.Record.PlayerDecisions; Counted, Choices and
	// LegalMoves are its counted decisions, decisions with a choice and
	// legal moves over them.
	Decided, Counted, Choices, LegalMoves int
	Play                                  sim.Play
	// Fingerprint is sim.Record.Fingerprint: the game's decisions hashed
	// (0 in a log written before games had fingerprints).
	Fingerprint uint64
}

// NewGame reads a traced record with the mapping.
func NewGame(r *sim.Record, m Mapping) Game {
	g := Game{
		Index: r.Index, Deal: r.Deal, Seat0: r.Result.ValueFor(games.Seat0)/2 + 0.5, Plies: r.Plies,
		Decided: r.PlayerDecisions, Counted: r.PlayerDecisions - r.Uncounted, Choices: r.Choices, LegalMoves: r.LegalMoves,
		Fingerprint: r.Fingerprint,
	}
	g.Trace = r.Trace
	g.P = m.Probabilities(r.Trace, g.Seat0, nil)
	if r.Play != nil {
		g.Play = *r.Play
	}
	return g
}

// Decisive reports whether a seat won.
func (g *Game) Decisive() bool { return g.Seat0 != 0.5 }

// winnerP is the winner's chance at decision t.
func (g *Game) winnerP(t int) float64 {
	if g.Seat0 == 1 {
		return g.P[t]
	}
	return 1 - g.P[t]
}

// LeadChanges counts the times the lead passes from one seat to the other
// (see LeadMargin), the result included.
func (g *Game) LeadChanges() int {
	leader, changes := -1, 0
	for _, p := range g.P {
		now := -1
		switch {
		case p > 0.5+LeadMargin:
			now = 0
		case p < 0.5-LeadMargin:
			now = 1
		}
		if now >= 0 {
			if leader >= 0 && now != leader {
				changes++
			}
			leader = now
		}
	}
	return changes
}

// Drama is how far below even the eventual winner's chance fell: ½ less
// its lowest, 0 when it never fell below ½ (decisive games).
func (g *Game) Drama() float64 {
	low := 1.0
	for t := range len(g.P) - 1 {
		low = min(low, g.winnerP(t))
	}
	return max(0, 0.5-low)
}

// Comeback reports whether the winner's chance fell below ComebackBelow
// (decisive games).
func (g *Game) Comeback() bool { return 0.5-g.Drama() < ComebackBelow }

// DecidedAt is the decision from which the winner's chance stays above
// DecidedAbove to the end (decisive games): 0 if it always was, the number
// of decisions if only the result is.
func (g *Game) DecidedAt() int {
	t := len(g.P) - 1
	for t > 0 && g.winnerP(t-1) > DecidedAbove {
		t--
	}
	return t
}

// Decisions is the number of decisions of the game.
func (g *Game) Decisions() int { return len(g.P) - 1 }

// AfterDecided is the share of the game's decisions made after it was
// decided (decisive games).
func (g *Game) AfterDecided() float64 {
	if g.Decisions() == 0 {
		return 0
	}
	return float64(g.Decisions()-g.DecidedAt()) / float64(g.Decisions())
}

// Uncertainty is the mean over the decisions of 4p(1 − p), the result's
// variance as a share of a fair coin's: 1 while the game stays even, 0
// when it is certain from the start. It is smooth at p = ½, so that noise
// in the fitted chances of an even position barely moves it (1 − |2p − 1|
// has a kink there that any noise pulls down).
func (g *Game) Uncertainty() float64 {
	if g.Decisions() == 0 {
		return 0
	}
	sum := 0.0
	for _, p := range g.P[:len(g.P)-1] {
		sum += 4 * p * (1 - p)
	}
	return sum / float64(g.Decisions())
}

// Stability is 1 less the mean move of the chance from one decision to
// the next, the result's step aside: 1 when the estimate never moves.
func (g *Game) Stability() float64 {
	if g.Decisions() < 2 {
		return 1
	}
	sum := 0.0
	for t := 1; t < len(g.P)-1; t++ {
		sum += math.Abs(g.P[t] - g.P[t-1])
	}
	return 1 - sum/float64(g.Decisions()-1)
}

// TurningPoints lists the decisions (from 0) that moved the chance by at
// least TurningStep, the result's step included.
func (g *Game) TurningPoints() []int {
	var out []int
	for t := 1; t < len(g.P); t++ {
		if math.Abs(g.P[t]-g.P[t-1]) >= TurningStep {
			out = append(out, t-1)
		}
	}
	return out
}

// Figure is one of how a game plays, over the traced games with its 95%
// interval.
type Figure struct {
	Name  string  `json:"name"`
	Title string  `json:"title"`
	Value float64 `json:"value"`
	Low   float64 `json:"low"`
	High  float64 `json:"high"`
	// N is the number of games (or pairs, Over) the figure is over.
	N    int    `json:"n"`
	Unit string `json:"unit"`
	// Interval is "wilson" for a rate; for a statistic of the whole
	// sample "bca bootstrap" (length spread, game-tree complexity) or
	// "basic bootstrap" (outcome uniformity); "refit bootstrap" for a
	// figure read from the chances of a fitted mapping (refitIntervals);
	// "bootstrap" otherwise (percentile; all over the games or pairs).
	Interval string `json:"interval"`
}

// Units of Figures.
const (
	UnitCount  = "per game"
	UnitShare  = "share"
	UnitMoves  = "moves"
	UnitDigits = "log10"
	UnitPlies  = "plies"
)

// definition is one figure: how each game (or game set) gives it.
type definition struct {
	name, title, unit, doc string
	// of gives a game's value; ok false leaves the game out of it.
	of func(g *Game) (v float64, ok bool)
	// rate: values 0 or 1, a Wilson interval.
	rate bool
	// whole: a statistic of a sample of games (not a mean over them).
	whole func(gs []*Game) (v float64, ok bool)
	// traced: the figure reads the traced chances, so its interval
	// includes the mapping's fit where the mapping is fitted.
	traced bool
	// basic: a whole-sample statistic whose value in a fair game is its
	// extreme (outcome uniformity's 0.75 is its least), which no
	// resample goes beyond, so that the BCa and percentile intervals
	// miss it: it takes the basic bootstrap interval instead.
	basic bool
}

var definitions = []definition{
	{name: "lead_changes", traced: true, title: "Lead changes", unit: UnitCount,
		doc: "times the lead passed from one seat to the other, a seat leading while its chance of winning is above 60%",
		of:  func(g *Game) (float64, bool) { return float64(g.LeadChanges()), true }},
	{name: "drama", traced: true, title: "Drama", unit: UnitShare,
		doc: "how far below even the eventual winner fell: 50% less its lowest chance of winning (decisive games; 0 when never behind)",
		of:  func(g *Game) (float64, bool) { return g.Drama(), g.Decisive() }},
	{name: "comeback", traced: true, title: "Comebacks", unit: UnitShare, rate: true,
		doc: "share of the decisive games won after the winner's chance fell below 25%",
		of:  func(g *Game) (float64, bool) { return b2f(g.Comeback()), g.Decisive() }},
	{name: "decided_at", traced: true, title: "Decided at decision", unit: UnitCount,
		doc: "the decision from which the winner's chance stays above 90% to the end (decisive games)",
		of:  func(g *Game) (float64, bool) { return float64(g.DecidedAt()), g.Decisive() }},
	{name: "after_decided", traced: true, title: "Played after decided", unit: UnitShare,
		doc: "share of a decisive game's decisions made after it was decided (the winner's chance above 90% to the end): moves that only play it out",
		of:  func(g *Game) (float64, bool) { return g.AfterDecided(), g.Decisive() }},
	{name: "uncertainty", traced: true, title: "Uncertainty", unit: UnitShare,
		doc: "mean over the decisions of 4p(1 − p), p a seat's chance of winning (the result's variance as a share of a fair coin's): 1 for a game even to its last move, 0 for one certain from the start",
		of:  func(g *Game) (float64, bool) { return g.Uncertainty(), g.Decisions() > 0 }},
	{name: "stability", traced: true, title: "Stability", unit: UnitShare,
		doc: "1 less the mean change of a seat's chance of winning from one decision to the next (the final result's step aside): 1 when nothing ever moves it",
		of:  func(g *Game) (float64, bool) { return g.Stability(), true }},
	{name: "turning_points", traced: true, title: "Turning points", unit: UnitCount,
		doc: "decisions that moved a seat's chance of winning by 30 points or more, the last one's step to the result included",
		of:  func(g *Game) (float64, bool) { return float64(len(g.TurningPoints())), true }},
	{name: "clarity", title: "Clarity", unit: UnitShare,
		doc: "1 less the share of the legal moves the search bot rated near its best where it deliberated (alphabeta: within 0.5 of the heuristic's units; mcts: visited half as often as the most visited): near 1, one move stands out",
		of: func(g *Game) (float64, bool) {
			p := g.Play
			return 1 - float64(p.Near)/float64(max(p.Of, 1)), p.Of > 0
		}},
	{name: "near_best", title: "Near-best moves", unit: UnitMoves,
		doc: "moves the search bot rated near its best, per decision it deliberated over",
		of: func(g *Game) (float64, bool) {
			p := g.Play
			return float64(p.Near) / float64(max(p.Deliberated, 1)), p.Deliberated > 0
		}},
	{name: "decision_moves", title: "Decision moves", unit: UnitShare,
		doc: "share of a seat's decisions with more than one legal move",
		of: func(g *Game) (float64, bool) {
			return float64(g.Choices) / float64(max(g.Counted, 1)), g.Counted > 0
		}},
	{name: "decision_factor", title: "Decision factor", unit: UnitMoves,
		doc: "mean number of legal moves at the decisions with a choice",
		of: func(g *Game) (float64, bool) {
			return float64(g.LegalMoves-(g.Counted-g.Choices)) / float64(max(g.Choices, 1)), g.Choices > 0
		}},
	{name: "tree_complexity", title: "Game-tree complexity", unit: UnitDigits,
		doc: "log₁₀ of the branching factor to the power of the game's length: the mean length in decisions of a seat times log₁₀ of the mean legal moves",
		whole: func(gs []*Game) (float64, bool) {
			var legal, counted, decisions float64
			for _, g := range gs {
				legal += float64(g.LegalMoves)
				counted += float64(g.Counted)
				decisions += float64(g.Decided)
			}
			if counted == 0 || legal <= counted {
				return 0, counted > 0
			}
			return decisions / float64(len(gs)) * math.Log10(legal/counted), true
		}},
	{name: "coverage", title: "Board coverage", unit: UnitShare,
		doc: "share of the board's cells that held a piece at some point of the game",
		of: func(g *Game) (float64, bool) {
			return float64(g.Play.Covered) / float64(max(g.Play.Cells, 1)), g.Play.Cells > 0
		}},
	{name: "repetition", title: "Positional repetition", unit: UnitShare,
		doc: "share of the positions after a decision that repeat an earlier position of the game",
		of: func(g *Game) (float64, bool) {
			return float64(g.Play.Repeats) / float64(max(g.Play.Positions, 1)), g.Play.Positions > 0
		}},
	{name: "outcome_uniformity", basic: true, title: "Outcome uniformity", unit: UnitShare,
		doc: "1 less the variance of a seat's result (win 1, draw ½, loss 0) over the games, after Ludii: 1 when every game ends alike, 0.75 for a fair coin",
		whole: func(gs []*Game) (float64, bool) {
			var m stats.Moments
			for _, g := range gs {
				m.Add(g.Seat0)
			}
			if m.N < 2 {
				return 0, false
			}
			sd := m.SD() * math.Sqrt(float64(m.N-1)/float64(m.N))
			return 1 - sd*sd, true
		}},
	{name: "length_sd", title: "Length spread", unit: UnitPlies,
		doc: "standard deviation of the game's length in plies",
		whole: func(gs []*Game) (float64, bool) {
			var m stats.Moments
			for _, g := range gs {
				m.Add(float64(g.Plies))
			}
			return m.SD(), m.N >= 2
		}},
}

// value is the figure over the games: its statistic of them all, or the
// mean of the games that give it (ok false when none does).
func (d definition) value(gs []*Game) (float64, bool) {
	if d.whole != nil {
		return d.whole(gs)
	}
	sum, n := 0.0, 0
	for _, g := range gs {
		if v, ok := d.of(g); ok {
			sum += v
			n++
		}
	}
	return sum / float64(max(n, 1)), n > 0
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// Glossary gives each figure's name, title and one-line definition, in
// the order reports show them.
func Glossary() [][3]string {
	out := make([][3]string, len(definitions))
	for i, d := range definitions {
		out[i] = [3]string{d.name, d.title, d.doc}
	}
	return out
}

// Describe is a figure's one-line definition ("" for an unknown name).
func Describe(name string) string {
	for _, d := range definitions {
		if d.name == name {
			return d.doc
		}
	}
	return ""
}

// bootstrapResamples is the number of resamples of a figure's interval.
const bootstrapResamples = 1000

// Measure gives every figure that applies to the games (a figure no game
// gives, such as board coverage in a game without a board, is left out):
// means over the games, or with pairs over the seat-swapped pairs of a
// deal (each pair's mean first), with percentile bootstrap intervals
// drawn from seed's stream; rates with Wilson's. The games are read as
// they are mapped.
func Measure(gs []Game, pairs bool, seed uint64) []Figure {
	return measureAll(unitsOf(gs, pairs), seed, nil)
}

// measureAll measures the units' figures; with a calibration, the traced
// figures' intervals refit the mapping in every resample (a rate's is
// Wilson's widened to that bootstrap's where it is wider).
func measureAll(units [][]*Game, seed uint64, cal *calibration) []Figure {
	var out []Figure
	var traced []int
	var defs []definition
	for k, d := range definitions {
		f, ok := measure(d, units, seed+uint64(k))
		if !ok {
			continue
		}
		if d.traced && cal != nil {
			traced, defs = append(traced, len(out)), append(defs, d)
		}
		out = append(out, f)
	}
	if len(traced) > 0 {
		refitIntervals(out, traced, defs, units, seed+uint64(len(definitions)), cal)
	}
	return out
}

// refitIntervals gives the traced figures (indices into figs, of the
// definitions defs) bootstrap intervals over the units in which every
// resample refits the mapping (calibration.refit) and reads its units'
// games again, so that the intervals include the fit's own uncertainty.
// The interval is the percentile one joined with the basic one (the
// resamples' spread reflected about the value): the fit's noise biases a
// figure with a threshold or an extreme in the chances (drama's lowest
// chance, a coin game's uncertainty at its most), and a resample's refit
// adds that noise again, so the percentile interval follows the bias and
// the basic one reverses it; joined, they cover the known-truth games
// (TestIntervalsCoverARandomWalk, TestKnownTruthGamesCovered). Where the
// resamples' intercepts (the seat-0 advantage at an even lead) do not
// rule out none, the interval also reaches the figures read with none
// (calibration.even): a figure at its floor, such as the drama of a game
// whose chances never move, is otherwise always read above it, since any
// fitted advantage puts one seat's winners behind, and no resample goes
// below. A rate's interval is Wilson's widened to it.
func refitIntervals(figs []Figure, traced []int, defs []definition, units [][]*Game, seed uint64, cal *calibration) {
	k := len(defs)
	r := unitReader{defs: defs, cal: cal, values: make([]float64, len(units)*k), has: make([]bool, len(units)*k),
		stamp: make([]int, len(units)), unitSum: make([]float64, k), unitN: make([]int, k), sums: make([]float64, k), counts: make([]int, k)}
	maps := make([]Mapping, CrossFolds)
	values := func(out []float64) {
		for j, i := range traced {
			out[j] = figs[i].Value
		}
	}
	// The last statistic is the resample's intercept.
	iv := stats.BootstrapStatistics(len(units), bootstrapResamples, 0.05, seed, k+1, func(sample []int, out []float64) {
		values(out)
		maps, all := cal.refit(sample, maps)
		r.mean(sample, maps, out[:k])
		out[k] = all.A
	})
	var even []float64
	if a := iv[k]; a.Low <= 0 && 0 <= a.High {
		even = make([]float64, k)
		values(even)
		r.mean(identity(len(units)), cal.even(), even)
	}
	for j, i := range traced {
		f := &figs[i]
		// The percentile interval joined with the basic one (the
		// resamples' spread reflected about the value).
		low, high := min(iv[j].Low, 2*f.Value-iv[j].High), max(iv[j].High, 2*f.Value-iv[j].Low)
		if even != nil {
			low, high = min(low, even[j]), max(high, even[j])
		}
		low = max(0, low)
		if f.Unit == UnitShare {
			high = min(1, high)
		}
		if f.Interval == "wilson" {
			f.Low, f.High = min(f.Low, low), max(f.High, high)
			continue
		}
		f.Low, f.High, f.Interval = low, high, "refit bootstrap"
	}
}

// identity lists the units 0 to n − 1: a sample of each once.
func identity(n int) []int {
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	return all
}

// unitReader reads the traced figures of a sample of units with given
// mappings, reusing its buffers: a unit drawn more than once in a sample
// is read once.
type unitReader struct {
	defs   []definition
	cal    *calibration
	values []float64 // each unit's value of each figure in this sample
	has    []bool
	stamp  []int // the sample a unit's values were read in
	sample int
	buf    []float64
	// unitSum, unitN, sums and counts are the sums of the figures' values
	// over a unit's games and over the sample's units.
	unitSum []float64
	unitN   []int
	sums    []float64
	counts  []int
}

// mean writes into out each figure's mean over the sample's units (each
// unit's mean over its games first), the units' games read with maps
// (calibration.of) in place of their own chances, then given them back. A
// figure no unit gives keeps out's value.
func (r *unitReader) mean(sample []int, maps []Mapping, out []float64) {
	k := len(r.defs)
	r.sample++
	clear(r.sums)
	clear(r.counts)
	for _, u := range sample {
		if r.stamp[u] != r.sample {
			r.stamp[u] = r.sample
			m := r.cal.of(u, maps)
			clear(r.unitSum)
			clear(r.unitN)
			for gi, g := range r.cal.units[u] {
				r.buf = r.cal.remap(u, gi, m, r.buf)
				own := g.P
				g.P = r.buf
				for j, d := range r.defs {
					if v, ok := d.of(g); ok {
						r.unitSum[j] += v
						r.unitN[j]++
					}
				}
				g.P = own
			}
			for j := range r.defs {
				r.values[u*k+j], r.has[u*k+j] = r.unitSum[j]/float64(max(r.unitN[j], 1)), r.unitN[j] > 0
			}
		}
		for j := range r.defs {
			if r.has[u*k+j] {
				r.sums[j] += r.values[u*k+j]
				r.counts[j]++
			}
		}
	}
	for j := range r.defs {
		if r.counts[j] > 0 {
			out[j] = r.sums[j] / float64(r.counts[j])
		}
	}
}

// unitsOf groups the games into the units figures are over: one game
// each, or the games of a deal with pairs, in deal order.
func unitsOf(gs []Game, pairs bool) [][]*Game {
	var units [][]*Game
	if !pairs {
		for i := range gs {
			units = append(units, []*Game{&gs[i]})
		}
		return units
	}
	byDeal := map[int]int{}
	for i := range gs {
		k, ok := byDeal[gs[i].Deal]
		if !ok {
			k = len(units)
			byDeal[gs[i].Deal] = k
			units = append(units, nil)
		}
		units[k] = append(units[k], &gs[i])
	}
	slices.SortFunc(units, func(a, b []*Game) int { return a[0].Deal - b[0].Deal })
	return units
}

func measure(d definition, units [][]*Game, seed uint64) (Figure, bool) {
	f := Figure{Name: d.name, Title: d.title, Unit: d.unit, Interval: "bootstrap"}
	if d.whole != nil {
		var all []*Game
		for _, u := range units {
			all = append(all, u...)
		}
		v, ok := d.whole(all)
		if !ok {
			return f, false
		}
		f.Value, f.N = v, len(units)
		stat := func(sample []int) float64 {
			all = all[:0]
			for _, k := range sample {
				all = append(all, units[k]...)
			}
			v, _ := d.whole(all)
			return v
		}
		if d.basic {
			// The resamples' spread reflected about the value carries the
			// statistic's bias at its extreme back.
			iv := stats.BootstrapStatistic(len(units), bootstrapResamples, 0.05, seed, stat)
			f.Low, f.High, f.Interval = max(0, 2*v-iv.High), 2*v-iv.Low, "basic bootstrap"
			if d.unit == UnitShare {
				f.High = min(1, f.High)
			}
			return f, true
		}
		// A statistic of the whole sample (a standard deviation of skewed
		// lengths) is biased and skewed: the BCa interval corrects both.
		iv := stats.BootstrapBCa(len(units), bootstrapResamples, 0.05, seed, stat)
		f.Low, f.High, f.Interval = iv.Low, iv.High, "bca bootstrap"
		return f, true
	}
	var values []float64
	for _, u := range units {
		if v, ok := d.value(u); ok {
			values = append(values, v)
		}
	}
	if len(values) == 0 {
		return f, false
	}
	f.N = len(values)
	var m stats.Moments
	for _, v := range values {
		m.Add(v)
	}
	f.Value = m.Mean()
	if d.rate {
		iv := stats.WilsonMean(f.Value, f.N, stats.Z95)
		f.Low, f.High, f.Interval = iv.Low, iv.High, "wilson"
		return f, true
	}
	iv := stats.BootstrapStatistic(len(values), bootstrapResamples, 0.05, seed, func(sample []int) float64 {
		sum := 0.0
		for _, k := range sample {
			sum += values[k]
		}
		return sum / float64(len(sample))
	})
	f.Low, f.High = iv.Low, iv.High
	return f, true
}

// PerGame returns how one game gives the named figure, for the figures a
// single game has (not tree_complexity, outcome_uniformity or length_sd,
// which are of a set of games); ok is false for those and unknown names.
// share says the figure is a share between 0 and 1.
func PerGame(name string) (of func(g *Game) (float64, bool), share, ok bool) {
	for _, d := range definitions {
		if d.name == name && d.of != nil {
			return d.of, d.unit == UnitShare, true
		}
	}
	return nil, false, false
}

// PerGameNames lists the figures PerGame gives.
func PerGameNames() []string {
	var out []string
	for _, d := range definitions {
		if d.of != nil {
			out = append(out, d.name)
		}
	}
	return out
}
