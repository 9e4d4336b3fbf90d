package skill

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"playtest/reports"
	"playtest/reports/stats"
	"playtest/sim/bots"
)

// What a ladder that has not converged lacks (Result.Missing).
const (
	MissingGames    = "games"    // the top two rungs' comparison is too uncertain
	MissingBudget   = "budget"   // the bots still gain, or the answer still moves
	MissingStrength = "strength" // the answer moves but the bots stop getting stronger
	MissingVariety  = "variety"  // the top rungs' games repeat: their intervals overstate what is known
)

// independentShift is the change between two rungs' figures taken as
// independent samples: for a ladder read back without its deals.
func independentShift(top, below reports.Headline) *Shift {
	se := func(h reports.Headline) float64 { return (h.High - h.Low) / (2 * stats.Z95) }
	return newShift(top.Value-below.Value, stats.Z95*math.Hypot(se(top), se(below)), 0)
}

// moves says a shift's interval leaves 0 out.
func (s *Shift) moves() bool { return s.Low > 0 || s.High < 0 }

// shiftTo is the shift from rung below to rung top: paired over their
// deals when both kept them, else from their intervals.
func shiftTo(top, below Rung) *Shift {
	if top.self != nil && below.self != nil {
		if s := shift(top.self, below.self); s != nil {
			return s
		}
	}
	return independentShift(top.Headline, below.Headline)
}

// maxProjection bounds a projection: past this many times the games
// played, projection says so rather than give a number.
const maxProjection = 100

// projection says, for a comparison too uncertain to decide (shift s,
// read over games games a rung), about how many games a rung would show
// it within ±tol if its estimate held: its interval narrowed as the
// square root of the games about its midpoint, rounded up to hundreds.
// The number is 0 where no count would (the midpoint lies at or past
// ±tol) or where it would take over maxProjection times the games; the
// text (starting with a space) says which.
func projection(s *Shift, games int, tol float64) (int, string) {
	mid, half := (s.Low+s.High)/2, (s.High-s.Low)/2
	room := tol - math.Abs(mid)
	switch {
	case games <= 0 || half <= 0:
		return 0, ""
	case room <= 0:
		return 0, fmt.Sprintf(" Its estimate lies at or past ±%.0f points: more games are more likely to show it apart than within.", 100*tol)
	}
	k := (half / room) * (half / room)
	if k > maxProjection {
		return 0, fmt.Sprintf(" Were its estimate to hold, showing it within ±%.0f points would take over %d times these %s games a rung.", 100*tol, maxProjection, bots.Thousands(games))
	}
	n := max(int(math.Ceil(float64(games)*k/100))*100, games+100)
	return n, fmt.Sprintf(" Were its estimate to hold, about %s games a rung (%.1f× these %s) would show it within ±%.0f points: a projection, since the estimate moves as games are added.", bots.Thousands(n), float64(n)/float64(games), bots.Thousands(games), 100*tol)
}

// judge gives the ladder its verdict and skill depth. Converged needs the
// top two rungs shown to agree within the tolerance (the interval of
// their paired shift inside ±Tolerance) and a top gain shown to be small
// (its interval's upper end at most MaxGain Elo per doubling) or clearly
// below the gain before it (the two intervals apart). A shift whose
// interval leaves 0 out is a drift: between the top two rungs, or between
// the top and the rung two below where neither step alone moves and the
// top one lies the same way (a steady move no single step shows).
// Anything else is undecided, with what is missing.
func (r *Result) judge() {
	r.skillDepth()
	r.Verdict, r.Direction, r.Missing, r.ProjectedGames = Undecided, "", MissingBudget, 0
	n := len(r.Rungs)
	if n < 2 {
		r.Text = "Undecided: one rung shows nothing about stronger play."
		return
	}
	tol, maxGain := cmp.Or(r.Tolerance, DefaultTolerance), cmp.Or(r.MaxGain, DefaultMaxGain)
	top, prev := r.Rungs[n-1], r.Rungs[n-2]
	step := stepAt(r.Rungs, n-1)
	moved, from := step, prev
	if !step.moves() && n >= 3 && !stepAt(r.Rungs, n-2).moves() {
		// A steady move over three rungs, each step within the noise. A
		// step below that moved on its own says nothing of whether the
		// top step goes on with it: the top step alone does.
		if longer := shiftTo(top, r.Rungs[n-3]); longer.moves() && (longer.Value > 0) == (step.Value > 0) {
			moved, from = longer, r.Rungs[n-3]
		}
	}
	gain := top.Gain
	stronger := gain != nil && gain.PerDoublingLow > 0
	small := gain != nil && gain.PerDoublingHigh <= maxGain
	clearlyLess := gain != nil && n >= 3 && prev.Gain != nil && gain.PerDoublingHigh < prev.Gain.PerDoublingLow
	agree := step.Low >= -tol && step.High <= tol
	switch {
	case moved.moves():
		r.Verdict, r.Direction = Drifting, "toward seat 1"
		if moved.Value > 0 {
			r.Direction = "toward seat 0"
		}
		if !stronger {
			r.Missing = MissingStrength
		}
	case agree && (small || clearlyLess):
		r.Verdict, r.Missing = Converged, ""
	case !agree:
		r.Missing = MissingGames
	}
	if r.Verdict != Undecided && (repeats(top) || repeats(prev)) {
		// A few games replayed again and again make every interval too
		// narrow: neither an agreement nor a drift can be read from them.
		r.Verdict, r.Direction, r.Missing = Undecided, "", MissingVariety
	}
	r.Text = r.sentence(from, moved, step, tol, maxGain, small, clearlyLess, stronger)
}

// stepAt is rung k's shift from the rung below (k ≥ 1): paired where the
// ladder has it, else from the two rungs' figures.
func stepAt(rungs []Rung, k int) *Shift {
	if s := rungs[k].Shift; s != nil {
		return s
	}
	return shiftTo(rungs[k], rungs[k-1])
}

// repeats says a rung's self-play replayed its games (fewer than 90%
// different: the repeated-games warning).
func repeats(rung Rung) bool { return slices.Contains(rung.Warnings, reports.WarnRepeatedGames) }

// skillDepth is the mean Elo per doubling over the ladder's gains.
func (r *Result) skillDepth() {
	elo, doublings, variance := 0.0, 0.0, 0.0
	for k, rung := range r.Rungs {
		if rung.Gain == nil {
			continue
		}
		dbl := math.Log2(float64(rung.Budget) / float64(r.Rungs[k-1].Budget))
		e := rung.Gain.PerDoubling * dbl
		s := (rung.Gain.PerDoublingHigh - rung.Gain.PerDoublingLow) * dbl / (2 * stats.Z95)
		elo += e
		doublings += dbl
		variance += s * s
	}
	if doublings == 0 {
		return
	}
	r.SkillDepth = elo / doublings
	half := stats.Z95 * math.Sqrt(variance) / doublings
	r.SkillDepthLow, r.SkillDepthHigh = r.SkillDepth-half, r.SkillDepth+half
	r.DoubledScore = 1 / (1 + math.Pow(10, -r.SkillDepth/400))
}

// figure writes a rung's seat-0 figure: "48.3% [43.1 – 53.2%] at 5,000
// iterations".
func (r *Result) figure(rung Rung) string {
	h := rung.Headline
	return fmt.Sprintf("%s [%s] at %s %s", reports.FormatPercent(h.Value), reports.FormatInterval(h.Low, h.High), bots.Thousands(rung.Budget), r.Param)
}

// points writes a shift in points with its interval: "+1.2 points [−0.8,
// +3.1] over 500 deals".
func points(s *Shift) string {
	text := fmt.Sprintf("%+.1f points [%+.1f, %+.1f]", 100*s.Value, 100*s.Low, 100*s.High)
	if s.Deals > 0 {
		text += fmt.Sprintf(" over %s common deals", bots.Thousands(s.Deals))
	}
	return text
}

// gainText writes a gain per doubling with its interval.
func gainText(g *Gain) string {
	return fmt.Sprintf("%+.0f Elo per doubling [%+.0f, %+.0f]", g.PerDoubling, g.PerDoublingLow, g.PerDoublingHigh)
}

// sentence says the verdict in words a designer can act on, with what the
// verdict rests on and, short of convergence, what is missing.
func (r *Result) sentence(from Rung, moved, step *Shift, tol, maxGain float64, small, clearlyLess, stronger bool) string {
	n := len(r.Rungs)
	top, prev := r.Rungs[n-1], r.Rungs[n-2]
	measure := top.Headline.Measure
	var b strings.Builder
	gainClause := func() {
		if clearlyLess && !small {
			fmt.Fprintf(&b, "the top rung gains %s, clearly less than the %s below", gainText(top.Gain), gainText(prev.Gain))
		} else {
			fmt.Fprintf(&b, "the top rung gains %s, shown to be at most %.0f", gainText(top.Gain), maxGain)
		}
	}
	switch r.Verdict {
	case Converged:
		fmt.Fprintf(&b, "Converged: %s is %s and %s, a shift of %s, shown within ±%.0f points; and ", measure, r.figure(prev), r.figure(top), points(step), 100*tol)
		gainClause()
		fmt.Fprintf(&b, ". The answer has stopped moving with the bots' strength, as far as this ladder reaches (%s %s): %s.", bots.Thousands(top.Budget), r.Param, verdictPhrase(top.Headline))
		if !stronger {
			b.WriteString(" The top rung is not significantly stronger than the one below: these bots may have stopped improving, so the answer is the strongest of their answers, which another bot family could test.")
		} else if r.Proven == nil {
			// A ladder converges once its bots gain little, which stronger
			// bots of another kind can contradict (Capstone's alphabeta
			// converged where a stronger ismcts read 5 points lower).
			b.WriteString(" It is one bot family's answer: bots of another kind may read another, so compare two families (--family, or playtest skill --compare DIR1 --compare DIR2) before taking it as the game's.")
		}
	case Drifting:
		fmt.Fprintf(&b, "Drifting %s: %s moves from %s to %s, a shift of %s, as the bots get stronger. ", r.Direction, measure, r.figure(from), r.figure(top), points(moved))
		if r.Missing == MissingStrength {
			fmt.Fprintf(&b, "Yet the top rung is not significantly stronger than the one below (%s): the bots stop getting stronger here, so this ladder cannot settle the variant; try another bot family, or compare two with --family.", gainText(top.Gain))
		} else if r.Proven != nil {
			b.WriteString("The answer at any of these budgets is the bots' answer, not yet the game's: climb higher " + r.climbHint() + " to see the ladder reach the proven value below.")
		} else {
			b.WriteString("The answer at any of these budgets is the bots' answer, not yet the game's: climb higher " + r.climbHint() + ", or solve the variant exactly if it is small enough (playtest solve).")
		}
	default:
		fmt.Fprintf(&b, "Undecided: %s is %s and %s, a shift of %s", measure, r.figure(prev), r.figure(top), points(step))
		if r.Missing == MissingVariety {
			b.WriteString(", but the top rungs' bots replay the same few games (the repeated-games warning), so the intervals, which take the games as independent, overstate what is known and neither an agreement nor a drift can be read from them: climb higher if the games are decided in a few plies (--budgets, or --until-settled), and give bots that always answer alike variety (alphabeta: noise with noise_moves) or use a stochastic bot such as mcts.")
			return b.String()
		}
		if r.Missing == MissingGames {
			fmt.Fprintf(&b, ", not yet shown within ±%.0f points: play more games per rung (--games, or --until-settled; a ladder kept with --budgets and --out grows with playtest skill --resume --out DIR --games N, playing only the new games).", 100*tol)
			var more string
			r.ProjectedGames, more = projection(step, min(top.Games, prev.Games), tol)
			b.WriteString(more)
			if !small && !clearlyLess && top.Gain != nil {
				fmt.Fprintf(&b, " The top rung also still gains %s, not shown to be at most %.0f: a higher rung may be needed too.", gainText(top.Gain), maxGain)
			}
		} else {
			fmt.Fprintf(&b, ", within ±%.0f points, but stronger bots still gain %s at the top, not shown to be at most %.0f", 100*tol, gainText(top.Gain), maxGain)
			if n >= 3 && prev.Gain != nil {
				fmt.Fprintf(&b, " nor clearly less than the %s below", gainText(prev.Gain))
			}
			b.WriteString(", so the answer may still move with stronger play; add a higher rung " + r.climbHint() + ".")
		}
	}
	return b.String()
}

// verdictPhrase says a headline's verdict in a few words.
func verdictPhrase(h reports.Headline) string {
	switch h.Verdict {
	case reports.VerdictSeat0:
		return "a significant first-move advantage"
	case reports.VerdictSeat1:
		return "a significant second-player advantage"
	case reports.VerdictBalanced:
		return "no seat advantage larger than 5 points"
	}
	return "no significant seat advantage, though more games could still find one"
}

// climbHint says how to climb higher: --budgets or --until-settled, and
// for a ladder kept as a study the resume that adds the next rung (×Step)
// at its top.
func (r *Result) climbHint() string {
	next := r.Rungs[len(r.Rungs)-1].Budget * Step
	if next > MaxBudget {
		return "(--budgets, or --until-settled)"
	}
	ladder := make([]int, 0, len(r.Rungs)+1)
	for _, g := range r.Rungs {
		ladder = append(ladder, g.Budget)
	}
	return fmt.Sprintf("(--budgets, or --until-settled; a ladder kept with --budgets and --out climbs with playtest skill --resume --out DIR --budgets %s, which plays only the new rung)", joinBudgets(append(ladder, next)))
}
