package skill

import (
	"fmt"
	"math"
	"strings"

	"playtest/reports"
	"playtest/reports/stats"
	"playtest/sim/bots"
)

// se is the standard error behind a headline's 95% interval.
func se(h reports.Headline) float64 { return (h.High - h.Low) / (2 * stats.Z95) }

// differ reports whether two rungs' seat-0 figures differ beyond their
// intervals (a normal test on the difference; the rungs share seeds, so
// treating them as independent is conservative when they correlate).
func differ(a, b reports.Headline) bool {
	if a.N == 0 || b.N == 0 {
		return false // a rung without a decisive game says nothing
	}
	return math.Abs(a.Value-b.Value) > stats.Z95*math.Hypot(se(a), se(b))
}

// MaxConvergedHalfWidth is the widest interval (half-width) of the top
// rung's seat-0 figure that a converged verdict accepts: beyond it the
// rungs agreeing says little, and the verdict is undecided.
const MaxConvergedHalfWidth = 0.10

// halfWidth is half a headline's interval.
func halfWidth(h reports.Headline) float64 { return (h.High - h.Low) / 2 }

// judge gives the ladder its verdict and skill depth.
func (r *Result) judge() {
	r.skillDepth()
	n := len(r.Rungs)
	if n < 2 {
		r.Verdict, r.Text = Undecided, "Undecided: one rung shows nothing about stronger play."
		return
	}
	top, prev := r.Rungs[n-1], r.Rungs[n-2]
	d := top.Headline.Value - prev.Headline.Value
	drift := differ(top.Headline, prev.Headline)
	if !drift && n >= 3 {
		// A steady move over three rungs, each step within the noise.
		first := r.Rungs[n-3].Headline
		d3 := top.Headline.Value - first.Value
		if (d3 > 0) == (prev.Headline.Value-first.Value > 0) && (d > 0) == (d3 > 0) && differ(top.Headline, first) {
			drift, d = true, d3
		}
	}
	// Gains flatten when the top one is not measurable (its interval
	// reaches 0) or clearly below the one before (its interval's upper end
	// under that gain).
	gain := top.Gain
	flattening := gain.PerDoublingLow <= 0 || (n >= 3 && gain.PerDoublingHigh < prev.Gain.PerDoubling)
	switch {
	case drift:
		r.Verdict, r.Direction = Drifting, "toward seat 1"
		if d > 0 {
			r.Direction = "toward seat 0"
		}
	case flattening && halfWidth(top.Headline) <= MaxConvergedHalfWidth && halfWidth(prev.Headline) <= MaxConvergedHalfWidth:
		r.Verdict = Converged
	default:
		r.Verdict = Undecided
	}
	r.Text = r.sentence()
}

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

// figure writes a rung's seat-0 figure: "48% [43–53%] at 5,000 iterations".
func (r *Result) figure(rung Rung) string {
	h := rung.Headline
	return fmt.Sprintf("%.0f%% [%.0f–%.0f%%] at %s %s", 100*h.Value, 100*h.Low, 100*h.High, bots.Thousands(rung.Budget), r.Param)
}

// sentence says the verdict in words a designer can act on.
func (r *Result) sentence() string {
	n := len(r.Rungs)
	top, prev := r.Rungs[n-1], r.Rungs[n-2]
	measure := top.Headline.Measure
	var b strings.Builder
	wide := halfWidth(top.Headline) > MaxConvergedHalfWidth || halfWidth(prev.Headline) > MaxConvergedHalfWidth
	switch {
	case r.Verdict == Converged:
		fmt.Fprintf(&b, "Converged: %s is %s and %s, within each other's noise, and stronger bots gain less at the top (%+.0f Elo per doubling", measure, r.figure(prev), r.figure(top), top.Gain.PerDoubling)
		if n >= 3 {
			fmt.Fprintf(&b, ", after %+.0f below", prev.Gain.PerDoubling)
		}
		fmt.Fprintf(&b, "). The answer has stopped moving with the bots' strength, as far as this ladder reaches (%s %s): %s.", bots.Thousands(top.Budget), r.Param, verdictPhrase(top.Headline))
		if half := halfWidth(top.Headline); half > 0.05 {
			fmt.Fprintf(&b, " With intervals this wide (±%.0f points) a smaller drift could hide: more games per rung would sharpen this.", 100*half)
		}
	case r.Verdict == Drifting:
		fmt.Fprintf(&b, "Drifting %s: %s moves from ", r.Direction, measure)
		if differ(top.Headline, prev.Headline) {
			b.WriteString(r.figure(prev))
		} else {
			b.WriteString(r.figure(r.Rungs[n-3]))
		}
		fmt.Fprintf(&b, " to %s as the bots get stronger. The answer at any of these budgets is the bots' answer, not yet the game's: climb higher (--budgets), or solve the variant exactly if it is small enough (playtest solve).", r.figure(top))
	case wide:
		fmt.Fprintf(&b, "Undecided: %s is %s and %s, within each other's noise, but with intervals this wide (±%.0f points) that says little; play more games per rung (--games).",
			measure, r.figure(prev), r.figure(top), 100*max(halfWidth(top.Headline), halfWidth(prev.Headline)))
	default:
		fmt.Fprintf(&b, "Undecided: %s is %s and %s, within each other's noise, but stronger bots still gain %+.0f Elo [%+.0f, %+.0f] per doubling at the top",
			measure, r.figure(prev), r.figure(top), top.Gain.PerDoubling, top.Gain.PerDoublingLow, top.Gain.PerDoublingHigh)
		if n >= 3 {
			fmt.Fprintf(&b, " (%+.0f below), not clearly less than before", prev.Gain.PerDoubling)
		}
		b.WriteString(", so the answer may still move with stronger play; add a higher rung.")
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
