package compare

import (
	"gonum.org/v1/plot"

	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"playtest/reports"
	"playtest/reports/howplays"
	"playtest/reports/plots"
	"playtest/sim/bots"
)

// WriteJSON writes the comparison as indented JSON.
func (r *Result) WriteJSON(w io.Writer) error { return reports.WriteJSON(w, r) }

// WriteText prints the comparison: both variants' outcomes, the paired
// difference with its interval, the pairs, and the sequential test.
func (r *Result) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "%s: A = %s, B = %s\n", r.Game, r.A.name(), r.B.name())
	fmt.Fprintf(w, "%d games each on the same seeds (seed %d)", r.Games, r.Seed)
	if r.Games < r.Requested {
		fmt.Fprintf(w, ", of %d requested", r.Requested)
	}
	fmt.Fprintln(w)
	if err := reports.WriteKnobTable(w, "A", "B", r.Knobs); err != nil {
		return err
	}
	t := reports.NewTable(w, "", "games", "seat 0 wins (95% CI)", "seat 1 wins", "draws", "stalled", r.Metric+" per game")
	for _, s := range []struct {
		name string
		side Side
	}{{"A", r.A}, {"B", r.B}} {
		sum := s.side.Summary
		_ = t.Append(s.name, fmt.Sprint(sum.Games),
			fmt.Sprintf("%s (%s)", reports.FormatPercent(sum.Rates.Seat0.Rate), reports.FormatInterval(sum.Rates.Seat0.Low, sum.Rates.Seat0.High)),
			reports.FormatPercent(sum.Rates.Seat1.Rate), reports.FormatPercent(sum.Rates.Draw.Rate), reports.FormatPercent(sum.Stalled.Rate),
			r.meanText(s.side.Mean))
	}
	if err := t.Render(); err != nil {
		return err
	}
	if rows := r.playRows(false); len(rows) > 0 {
		fmt.Fprintln(w, "how it plays (each variant's own traced games, unpaired intervals):")
		t := reports.NewTable(w, "figure", "A (95% CI)", "B (95% CI)")
		for _, row := range rows {
			_ = t.Append(row[0], row[1], row[2])
		}
		if err := t.Render(); err != nil {
			return err
		}
	}
	reports.WriteWarnings(w, "A", r.A.Summary.Warnings)
	reports.WriteWarnings(w, "B", r.B.Summary.Warnings)
	fmt.Fprintf(w, "difference A − B in %s per game: %s\n", r.Metric, r.differenceText())
	if f := r.fairnessText(); f != "" {
		fmt.Fprintln(w, f)
	}
	if p := r.Pairs; p != nil {
		fmt.Fprintf(w, "pairs (A's game, B's game on one seed), scored A + 1 − B: %d pairs, counts of pair scores 0, ½, 1, 1½, 2: %s\n", p.Pairs, countList(p.Counts[:]))
		if p.Counts[2] == p.Pairs {
			fmt.Fprintln(w, "  every pair scored the same in A and B: the variants played alike on every seed")
		}
	}
	if s := r.SPRT; s != nil {
		fmt.Fprintf(w, "SPRT %s (α %g, β %g): LLR %.3f, bounds [%.3f, %.3f]: %s", s.Hypotheses, s.Alpha, s.Beta, s.LLR, s.Lower, s.Upper, s.Decision)
		switch {
		case r.Stopped():
			fmt.Fprintf(w, " after %d games of %d\n", r.Games, r.Requested)
		case s.Decision == "continue":
			fmt.Fprintf(w, " — undecided after all %d games; run more\n", r.Games)
		default:
			fmt.Fprintf(w, " at the last game\n")
		}
		fmt.Fprintln(w, "  The test is one-sided: it asks whether A − B is as large as H1 says or no larger than H0 says, so accepting H0 can go with an interval that excludes 0 (a difference smaller than H1's, or one of the other sign).")
	}
	return nil
}

// playRows are How it plays' figures that both variants measured, one row
// each: the figure, A's and B's values with their intervals.
func (r *Result) playRows(md bool) [][]string {
	a, b := r.A.Summary.HowItPlays, r.B.Summary.HowItPlays
	if a == nil || b == nil {
		return nil
	}
	var rows [][]string
	for _, fa := range a.Figures {
		fb, ok := b.Find(fa.Name)
		if !ok {
			continue
		}
		title := fa.Title
		if md {
			title = reports.MarkdownEscape(title)
		}
		cell := func(f howplays.Figure) string {
			return fmt.Sprintf("%s (%s – %s)", f.Format(f.Value), f.Format(f.Low), f.Format(f.High))
		}
		rows = append(rows, []string{title, cell(fa), cell(fb)})
	}
	return rows
}

// WriteMarkdown writes the comparison as Markdown: the same figures as
// WriteText, for --out and CI job summaries.
func (r *Result) WriteMarkdown(w io.Writer) error {
	esc := reports.MarkdownEscape
	fmt.Fprintf(w, "### playtest compare: A = %s, B = %s (%s)\n\n", esc(r.A.name()), esc(r.B.name()), esc(r.Game))
	fmt.Fprintf(w, "%d games each on the same seeds (seed %d)", r.Games, r.Seed)
	if r.Games < r.Requested {
		fmt.Fprintf(w, ", of %d requested", r.Requested)
	}
	fmt.Fprint(w, ".\n\n")
	if err := reports.WriteKnobMarkdown(w, "A", "B", r.Knobs); err != nil {
		return err
	}
	var rows [][]string
	for _, s := range []struct {
		name string
		side Side
	}{{"A", r.A}, {"B", r.B}} {
		sum := s.side.Summary
		rows = append(rows, []string{s.name + ": " + s.side.name(), fmt.Sprint(sum.Games),
			fmt.Sprintf("%s (%s)", reports.FormatPercent(sum.Rates.Seat0.Rate), reports.FormatInterval(sum.Rates.Seat0.Low, sum.Rates.Seat0.High)),
			reports.FormatPercent(sum.Rates.Seat1.Rate), reports.FormatPercent(sum.Rates.Draw.Rate), reports.FormatPercent(sum.Stalled.Rate),
			r.meanText(s.side.Mean)})
	}
	if err := reports.WriteMarkdownTable(w, []string{"variant", "games", "seat 0 wins (95% CI)", "seat 1 wins", "draws", "stalled", r.Metric + " per game"}, rows); err != nil {
		return err
	}
	fmt.Fprintln(w)
	for _, side := range []struct {
		name string
		s    *reports.Summary
	}{{"A", r.A.Summary}, {"B", r.B.Summary}} {
		for _, warn := range side.s.Warnings {
			fmt.Fprintf(w, "> ⚠ **%s: %s**: %s\n\n", side.name, esc(warn.Code), reports.MarkdownText(warn.Message))
		}
	}
	if rows := r.playRows(true); len(rows) > 0 {
		fmt.Fprint(w, "How it plays, each variant over its own traced games (unpaired intervals):\n\n")
		if err := reports.WriteMarkdownTable(w, []string{"figure", "A (95% CI)", "B (95% CI)"}, rows); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "**Difference A − B** in %s per game: %s.\n\n", esc(r.Metric), esc(r.differenceText()))
	if f := r.fairnessText(); f != "" {
		fmt.Fprintf(w, "**Fairness**: %s.\n\n", esc(f))
	}
	if p := r.Pairs; p != nil {
		fmt.Fprintf(w, "Pairs (A's game, B's game on one seed), scored A + 1 − B: %d pairs, counts of pair scores 0, ½, 1, 1½, 2: %s.\n\n", p.Pairs, countList(p.Counts[:]))
	}
	if s := r.SPRT; s != nil {
		fmt.Fprintf(w, "**SPRT** %s (α %g, β %g): LLR %.3f, bounds [%.3f, %.3f]: **%s** after %d games. ",
			reports.MarkdownEscape(s.Hypotheses.String()), s.Alpha, s.Beta, s.LLR, s.Lower, s.Upper, s.Decision, r.Games)
		fmt.Fprintln(w, "The test is one-sided: accepting H0 says the difference is smaller than H1's, even when the interval excludes 0.")
	}
	return reports.WriteMarkdownFooter(w)
}

// name is the side's variant for people: its label, else its name.
func (s Side) name() string {
	if s.Label != "" {
		return s.Label
	}
	return s.Variant
}

// differenceText states the paired difference with its interval and what
// the interval says.
func (r *Result) differenceText() string {
	d := r.Diff
	text := fmt.Sprintf("%+.4f, 95%% CI [%+.4f, %+.4f] over %d %s", d.Value, d.Low, d.High, d.N, r.units())
	if r.share() {
		text = fmt.Sprintf("%s points, 95%% CI [%s, %s] over %d %s", signedPoints(d.Value), signedPoints(d.Low), signedPoints(d.High), d.N, r.units())
	}
	switch {
	case d.N < 2:
		return text + ": too few games to tell"
	case d.Low > 0 || d.High < 0:
		return text + ": the interval excludes 0, the variants differ"
	}
	return text + ": the interval includes 0, no difference shown at this sample size"
}

// units names the comparison's units of play.
func (r *Result) units() string {
	if r.A.Summary.Pairs {
		return "seat-swapped pairs of games"
	}
	return "games"
}

// shares are the per-game metrics that are shares (of games or points),
// shown in percent.
var shares = []string{"seat0_score", "seat0_wins", "seat1_wins", "draws", "stalled"}

// share says the metric is a share between 0 and 1, shown in percent and
// its differences in points.
func (r *Result) share() bool {
	if slices.Contains(shares, r.Metric) {
		return true
	}
	rate, _ := r.A.Summary.IsRate(r.Metric)
	return rate
}

// meanText writes a side's mean per game: a share in percent.
func (r *Result) meanText(mean float64) string {
	if r.share() {
		return reports.FormatPercent(mean)
	}
	return fmt.Sprintf("%.4g", mean)
}

// signedPoints writes a difference of shares in percentage points, signed.
func signedPoints(x float64) string { return fmt.Sprintf("%+.1f", 100*x) }

// fairnessText says which variant lies further from an even seat 0 score,
// with the interval of how much: "" without the figure.
func (r *Result) fairnessText() string {
	f := r.FurtherFromEven
	if f == nil || f.N < 2 {
		return ""
	}
	scores := fmt.Sprintf("seat 0 scores %s in A and %s in B", reports.FormatPercent(r.A.Mean), reports.FormatPercent(r.B.Mean))
	by := fmt.Sprintf("%.1f points (95%% CI %s to %s over %d %s)", 100*math.Abs(f.Value), signedPoints(f.Low), signedPoints(f.High), f.N, r.units())
	switch {
	case f.Low > 0:
		return fmt.Sprintf("B is further from even than A by %s: A is the fairer (%s)", by, scores)
	case f.High < 0:
		by = fmt.Sprintf("%.1f points (95%% CI %s to %s over %d %s)", 100*math.Abs(f.Value), signedPoints(-f.High), signedPoints(-f.Low), f.N, r.units())
		return fmt.Sprintf("A is further from even than B by %s: B is the fairer (%s)", by, scores)
	}
	return fmt.Sprintf("neither is shown the fairer: the distance from even, B's minus A's, is %s points (95%% CI %s to %s over %d %s, which includes 0; %s)", signedPoints(f.Value), signedPoints(f.Low), signedPoints(f.High), f.N, r.units(), scores)
}

// PlotName is the name of the comparison's figure in its plots/.
const PlotName = "compare"

// Figure draws A's and B's figure for the compared metric side by side,
// each with its 95% interval where the run's summary has one (seat 0's
// score over pairs, a rate, a game metric's bootstrap), else its mean.
func (r *Result) Figure() (*plot.Plot, error) {
	var labels []string
	var est []reports.MetricEstimate
	for _, side := range []struct {
		name string
		s    Side
	}{{"A", r.A}, {"B", r.B}} {
		e, ok := side.s.Summary.Lookup(r.Metric, "")
		if !ok {
			e = reports.MetricEstimate{Value: side.s.Mean, Low: side.s.Mean, High: side.s.Mean, N: side.s.Summary.Games}
		}
		labels = append(labels, side.name+": "+side.s.name())
		est = append(est, e)
	}
	title := fmt.Sprintf("%s per game, A and B on the same %s seeds", r.Metric, bots.Thousands(r.Games))
	return plots.Estimates(title, "variant", r.Metric, labels, est)
}

// StandingLine is a sequential test's running line, as fastchess prints
// one: games, pair counts, score per game, the difference and its Elo with
// their intervals, and the LLR with its bounds.
func StandingLine(st *Standing) string {
	p := st.Pairs
	elo := "Elo n/a"
	if p.Elo != nil && p.EloLow != nil && p.EloHigh != nil {
		elo = fmt.Sprintf("Elo %+.1f [%+.1f, %+.1f]", *p.Elo, *p.EloLow, *p.EloHigh)
	}
	return fmt.Sprintf("SPRT: %d games each, pentanomial %v, score %.1f%%, Δ %+.3f [%+.3f, %+.3f], %s, LLR %.2f (%.2f, %.2f)",
		st.Games, p.Counts, 100*p.Score, st.DeltaValue, st.Delta.Low, st.Delta.High, elo, st.LLR, st.Lower, st.Upper)
}

// countList writes counts as "66, 0, 147, 0, 66".
func countList(counts []int) string {
	parts := make([]string, len(counts))
	for i, c := range counts {
		parts[i] = strconv.Itoa(c)
	}
	return strings.Join(parts, ", ")
}
