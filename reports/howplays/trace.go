package howplays

import (
	"math"
	"slices"

	"playtest/sim"
	"playtest/sim/model"
)

// Mapping turns a trace's leads into seat 0's chance of winning:
// σ(A + B·lead + C·asinh(lead) + D·e^(−t/OpeningDecay) +
// E·lead·e^(−t/Span)) before the game's decision t (from 0), lead in the
// hand heuristic's units, held within
// [1 − MaxUnproven, MaxUnproven]; a decided entry
// (±sim.TraceDecided: a forced result the search proved) is the winner's
// 1 or 0. Only a proof reads 100% or 0%.
type Mapping struct {
	// Source is MappingFitted or MappingRefit (a logistic fitted to the
	// traced games' outcomes, from nothing or from the learned model's
	// scale), or MappingModel (the model's scale as it is, where no run
	// was fitted: a single game replayed without its run).
	Source string  `json:"source"`
	A      float64 `json:"a"`
	B      float64 `json:"b"`
	// C weighs asinh(lead): with it the chance can climb steeply over
	// small leads and slowly over large ones, as a search's values do
	// (0 for a model's mapping).
	C float64 `json:"c,omitempty"`
	// D weighs the opening term e^(−t/OpeningDecay): a seat advantage the
	// first decisions' searches do not see (their leads are alike in every
	// game: the same few positions), fading as the game goes on (0 for a
	// model's mapping).
	D float64 `json:"d,omitempty"`
	// E weighs the fading slope lead·e^(−t/Span): a lead worth more (E >
	// 0) or less early in the game than late, as where leads grow with
	// the game (0 for a model's mapping). Span is the traced games'
	// median length in decisions (spanOf), so that the term fades over a
	// game whatever its length.
	E    float64 `json:"e,omitempty"`
	Span float64 `json:"span,omitempty"`
	// Folds is the number of folds the report's figures were read in
	// (CrossFolds; 0: every game with this mapping): each fold's games
	// with the logistic fitted to the others', this one the fit to all.
	Folds int `json:"folds,omitempty"`
}

// Sources of a Mapping: the learned model's scale as it is; a logistic
// fitted to the run's games from nothing; or one fitted to them from the
// model's scale (the traces hold search values and combined views, whose
// scale the model's static fit does not know).
const (
	MappingModel  = "model"
	MappingFitted = "fitted"
	MappingRefit  = "refit"
)

// FromModel is the mapping of a learned model: a lead in hand units is
// seat 0's logit less seat 1's over the model's hand scale, so half of it
// times the scale is the logit of seat 0's chance, each seat's own view
// counting alike.
func FromModel(m *model.Model) Mapping {
	return Mapping{Source: MappingModel, B: m.HandScale / 2}
}

// MaxUnproven is the largest chance a lead without a proof maps to: a
// heuristic's lead, however large, leaves the bots room to throw the game
// away, and reads at most 99%.
const MaxUnproven = 0.99

// P is seat 0's chance of winning at a trace entry, before the game's
// decision t (from 0).
func (m Mapping) P(entry int32, t int) float64 {
	switch {
	case entry >= sim.TraceDecided:
		return 1
	case entry <= -sim.TraceDecided:
		return 0
	}
	f := terms(float64(entry)/100, t, m.Span)
	return m.chance(f)
}

// chance is the mapping's chance at an undecided entry's terms.
func (m Mapping) chance(f [numTerms]float64) float64 {
	p := model.Sigmoid(m.A + m.B*f[1] + m.C*f[2] + m.D*f[3] + m.E*f[4])
	return max(1-MaxUnproven, min(MaxUnproven, p))
}

// OpeningDecay is the decisions over which the mapping's opening term
// falls by a factor e: 1 at the first decision, 0.37 at the ninth, 0.14 at
// the seventeenth. Over the presets' held-out runs 8 fitted better than 2
// or 4 (log-loss, and the deciles within ±5: Connect Four's noisy
// openings last longer than Stacktics').
const OpeningDecay = 8

// numTerms is the number of the mapping's terms; the first baseTerms
// (1, the lead, asinh of the lead) are in every fit, the others only
// where the games show them (termShows).
const numTerms, baseTerms = 5, 3

// The optional terms' indices: the opening term and the fading slope.
const openingTerm, fadingTerm = 3, 4

// openingTerms holds e^(−t/OpeningDecay) for the first decisions (0
// after them: below 10⁻⁶).
var openingTerms = func() (o [128]float64) {
	for t := range o {
		o[t] = math.Exp(-float64(t) / OpeningDecay)
	}
	return o
}()

// terms are the mapping's terms of a lead before decision t: 1, the lead,
// asinh of the lead, the opening term, the lead fading over span
// decisions (0 without a span).
func terms(lead float64, t int, span float64) [numTerms]float64 {
	o, fading := 0.0, 0.0
	if t < len(openingTerms) {
		o = openingTerms[t]
	}
	if span > 0 {
		fading = lead * math.Exp(-float64(t)/span)
	}
	return [numTerms]float64{1, lead, math.Asinh(lead), o, fading}
}

// spanOf is the median length of the games' traces (the upper median),
// in decisions: the span of the mapping's fading slope. 0 without a
// trace.
func spanOf(gs []*Game) float64 {
	var lengths []int
	for _, g := range gs {
		if len(g.Trace) > 0 {
			lengths = append(lengths, len(g.Trace))
		}
	}
	if len(lengths) == 0 {
		return 0
	}
	slices.Sort(lengths)
	return float64(lengths[len(lengths)/2])
}

// Fit fits the mapping's σ(A + B·lead + C·asinh(lead) + D·opening +
// E·fading slope) to seat 0's result (a win 1, a draw ½, a loss 0) at
// every undecided entry of the traces by maximum likelihood (Newton's
// method, with a small ridge on B, C, D and E so that leads that separate
// the outcomes perfectly still give a finite fit), D and E held at 0
// unless the games show what they carry (termShows): a deterministic
// function of the traces and results alone, so shards, merges and resumes
// of a run fit the same mapping as one process.
func Fit(traces [][]int32, scores []float64) Mapping {
	gs := make([]*Game, len(traces))
	units := make([][]*Game, len(traces))
	for i, t := range traces {
		gs[i] = &Game{Trace: t, Seat0: scores[i]}
		units[i] = gs[i : i+1]
	}
	_, _, m, _ := fitTerms(gs, units, Mapping{Source: MappingFitted}, 0)
	return m
}

// Probabilities maps a trace to seat 0's chance of winning before each
// decision, with the result's (1, ½ or 0) appended: len(trace)+1 values.
func (m Mapping) Probabilities(trace []int32, seat0Score float64, out []float64) []float64 {
	out = out[:0]
	for t, e := range trace {
		out = append(out, m.P(e, t))
	}
	return append(out, seat0Score)
}

func round(x float64, digits int) float64 {
	p := math.Pow(10, float64(digits))
	return math.Round(x*p) / p
}
