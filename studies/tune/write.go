package tune

import (
	"bytes"
	"cmp"
	"encoding/csv"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"playtest/reports"
	"playtest/reports/plots"
	"playtest/reports/publish"
	"playtest/sim/bots"
)

// Files of a race's output directory.
const (
	JSONFile     = "tune.json"
	CSVFile      = "tune.csv"
	MarkdownFile = "tune.md"
	HTMLFile     = "tune.html"
)

// Shown is how many candidates the table lists in full.
const Shown = 10

func pct(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) }

func (r *Result) cells(c *Candidate) []string {
	status := "in the race"
	switch {
	case c.DroppedBy == DroppedByRank:
		status = fmt.Sprintf("set aside by rank after round %d", c.DroppedAfter)
	case c.DroppedBy == DroppedByConstraint:
		status = fmt.Sprintf("breaks a constraint, after round %d", c.DroppedAfter)
	case c.DroppedBy == DroppedByBroken:
		status = fmt.Sprintf("broken rules (a forced win), after round %d", c.DroppedAfter)
	case c.DroppedAfter > 0:
		status = fmt.Sprintf("shown worse after round %d", c.DroppedAfter)
	case r.Tolerance > 0 && c.Objective.High <= r.Tolerance:
		status = "in the race, within the tolerance"
	}
	row := append([]string(nil), c.Values...)
	row = append(row, strconv.Itoa(c.Games),
		fmt.Sprintf("%s [%s, %s]", pct(c.Seat0Mean), pct(c.Seat0.Low), pct(c.Seat0.High)),
		fmt.Sprintf("%.1f [%.1f, %.1f]", 100*c.Imbalance.Value, 100*c.Imbalance.Low, 100*c.Imbalance.High))
	if !r.Goal.IsBalanceOnly() {
		row = append(row, fmt.Sprintf("%.3g [%.3g, %.3g]", c.Objective.Value, c.Objective.Low, c.Objective.High))
	}
	for _, f := range c.Targets {
		row = append(row, fmt.Sprintf("%.3g [%.3g, %.3g]", f.Mean, f.Interval.Low, f.Interval.High))
	}
	return append(row, pct(c.Draws), fmt.Sprintf("%.1f", c.Plies), status)
}

func (r *Result) header() []string {
	h := append(append([]string(nil), r.Axes...), "games", "seat 0 (95% CI)", "imbalance, points (95% CI)")
	if !r.Goal.IsBalanceOnly() {
		h = append(h, "objective (95% CI)")
	}
	for _, t := range r.Goal.Targets {
		h = append(h, t.Range())
	}
	return append(h, "draws", "plies", "")
}

// rows lists the first n candidates (all with n < 0).
func (r *Result) rows(n int) [][]string {
	var out [][]string
	for i := range r.Candidates {
		if n >= 0 && i >= n {
			break
		}
		out = append(out, r.cells(&r.Candidates[i]))
	}
	return out
}

// spaceSize is the number of the space's candidates (a full sweep plays
// MaxGames each).
func (r *Result) spaceSize() int { return r.FullSweep / max(r.MaxGames, 1) }

// Summary is the race in a sentence or two: the leader, what the race
// spent against a full sweep, and whose answer it is.
func (r *Result) Summary() string {
	best := r.Candidates[0]
	left, ranked := 0, 0
	for _, c := range r.Candidates {
		switch {
		case c.DroppedAfter == 0:
			left++
		case c.DroppedBy == DroppedByRank:
			ranked++
		}
	}
	// Only a race whose tests dropped every other candidate shows one
	// best; otherwise the leader is only the best so far.
	best0, bestSoFar := "Most balanced", "the least imbalanced so far is"
	if !r.Goal.IsBalanceOnly() {
		best0, bestSoFar = "Best", "the best so far is"
	}
	var lead string
	switch {
	case left == 0:
		lead = fmt.Sprintf("No candidate is left: every one was shown to break a hard target; the last dropped is %s", best.Label)
	case left == 1 && ranked == 0:
		lead = fmt.Sprintf("%s: %s", best0, best.Label)
	case left == 1:
		lead = fmt.Sprintf("%s of the candidates raced to the end: %s", best0, best.Label)
	default:
		lead = fmt.Sprintf("%s: not shown yet among the %d left; %s %s", best0, left, bestSoFar, best.Label)
	}
	text := ""
	if r.Search != nil {
		text = r.Search.searchText() + " "
	}
	text += fmt.Sprintf("%s, seat 0 %s [%s, %s] over %s games. %d of %d candidates left in the race after %s (%s); %s games played, %.0f%% of the %s a full sweep at %s games a variant would play.",
		lead, pct(best.Seat0Mean), pct(best.Seat0.Low), pct(best.Seat0.High), bots.Thousands(best.Games),
		left, len(r.Candidates), reports.Count(len(r.Rounds), "round"), r.Stopped, bots.Thousands(r.Spent), 100*float64(r.Spent)/float64(r.FullSweep),
		bots.Thousands(r.FullSweep), bots.Thousands(r.MaxGames))
	if s := r.Search; s != nil {
		if points := r.spaceSize(); s.Distinct < points {
			text += fmt.Sprintf(" The search saw %s of the space's %s points: a better one it never evaluated may exist, and its proposals are the best of what it saw.", bots.Thousands(s.Distinct), bots.Thousands(points))
		} else {
			text += fmt.Sprintf(" The search saw every point of the space, each a few times at most (%d games an evaluation): one it ranked below its proposals may be as good.", s.Games)
		}
	}
	for i, t := range r.Goal.Targets {
		if f := best.Targets[i]; left > 0 && t.Hard() && f.Distance.High > 0 {
			text += fmt.Sprintf(" Its %s, %.3g [%.3g, %.3g], is not shown within %s.", t.Metric, f.Mean, f.Interval.Low, f.Interval.High, t.Range())
		}
	}
	if r.Tolerance > 0 && left > 0 && best.Objective.High <= r.Tolerance {
		text += fmt.Sprintf(" Its objective is within the tolerance of %s (95%%).", r.amount(r.Tolerance))
	}
	if left > 1 {
		text += fmt.Sprintf(" The %d left are not shown apart at this level: more games (--games) or a larger --budget may separate them.", left)
	}
	if r.Skipped != nil {
		text += " " + r.Skipped.String()
	}
	if ranked > 0 {
		text += fmt.Sprintf(" Successive halving set %d aside by rank after early rounds, without showing them worse: one close to the leader may be as good (--keep 1 races without halving).", ranked)
	}
	if best.Changes != "" {
		text += " The leader's rules: " + best.Changes + "."
	}
	if r.Learn > 0 {
		text += fmt.Sprintf(" Each raced candidate's bots played a model learned from %s games of its own rules (playtest learn, one generation; NTBEA's evaluations, if any, judged with the bots' own evaluation).", bots.Thousands(r.Learn))
	}
	return text + fmt.Sprintf(" The answer is these bots' (%s): a balance tuned with weak bots may not hold for strong ones; check the leader with %s.", r.Bots, best.Skill)
}

// WriteTable prints the race: its rounds, the candidates ranked, and the
// summary.
func (r *Result) WriteTable(w io.Writer) error {
	fmt.Fprintf(w, "%s: tune %s, %s candidates, objective %s\n", r.Game, r.Name, bots.Thousands(r.spaceSize()), r.Objective)
	if r.Search != nil {
		fmt.Fprintln(w, r.Search.searchText())
	}
	for _, rd := range r.Rounds {
		fmt.Fprintln(w, rd)
	}
	fmt.Fprintln(w)
	t := reports.NewTable(w, reports.Cells(r.header())...)
	for _, row := range r.rows(Shown) {
		_ = t.Append(reports.Cells(row)...)
	}
	if err := t.Render(); err != nil {
		return err
	}
	if more := len(r.Candidates) - Shown; more > 0 {
		fmt.Fprintf(w, "(%d more: --format json, or --out DIR)\n", more)
	}
	_, err := fmt.Fprintf(w, "\n%s\n", r.Summary())
	return err
}

// String describes the round in a line.
func (rd Round) String() string {
	text := fmt.Sprintf("round %d: %d candidates × %s games, %d shown worse (z = %.2f)", rd.Index, rd.Candidates, bots.Thousands(rd.Games), rd.Dropped, rd.Z)
	if rd.Broke > 0 {
		text += fmt.Sprintf(", %d shown to break a constraint", rd.Broke)
	}
	if rd.Broken > 0 {
		text += fmt.Sprintf(", %d dropped as broken (a forced win)", rd.Broken)
	}
	if rd.Halved > 0 {
		text += fmt.Sprintf(", %d set aside by rank", rd.Halved)
	}
	return text + "; leader " + rd.Leader
}

// WriteJSON writes the race as JSON.
func (r *Result) WriteJSON(w io.Writer) error { return reports.WriteJSON(w, r) }

// WriteCSV writes every evaluation: a row per candidate per round, after
// a row per NTBEA evaluation (round "search", its fitness).
func (r *Result) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	num := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	cw.Write([]string{"round", "label", "games", "seat0", "imbalance", "imbalance_low", "imbalance_high", "objective", "objective_low", "objective_high", "dropped", "fitness"})
	if r.Search != nil {
		for _, e := range r.Search.Trail {
			cw.Write([]string{"search", e.Label, strconv.Itoa(r.Search.Games), "", "", "", "", "", "", "", "", num(e.Fitness)})
		}
	}
	for _, e := range r.Evaluations {
		cw.Write([]string{strconv.Itoa(e.Round), e.Label, strconv.Itoa(e.Games), num(e.Seat0),
			num(e.Imbalance.Value), num(e.Imbalance.Low), num(e.Imbalance.High),
			num(e.Objective.Value), num(e.Objective.Low), num(e.Objective.High), strconv.FormatBool(e.Dropped), ""})
	}
	cw.Flush()
	return cw.Error()
}

// WriteMarkdown writes the race as Markdown: rounds, every candidate, why
// each dropped one was dropped, the search's proposals and each knob's
// effect; with figures, the plots WriteDir saves under plots/.
func (r *Result) WriteMarkdown(w io.Writer, figures bool) error {
	fmt.Fprintf(w, "# Tune %s (%s)\n\nObjective: %s, over seat-swapped pairs on common seeds (seed %d).\n\n%s\n\n",
		reports.MarkdownEscape(r.Name), reports.MarkdownEscape(r.Game), reports.MarkdownText(r.Objective), r.Seed, reports.MarkdownText(r.Summary()))
	if s := r.Search; s != nil {
		fmt.Fprintf(w, "## Search (NTBEA)\n\n%s Fitness: %s.\n\n", reports.MarkdownText(s.searchText()), reports.MarkdownText(s.Fitness))
		var rows [][]string
		for _, p := range s.Proposed {
			rows = append(rows, []string{p.Label, fmt.Sprintf("%.4g", p.Model), strconv.Itoa(p.Evals)})
		}
		reports.WriteMarkdownTable(w, []string{"proposed", "model fitness", "evaluations"}, rows)
		fmt.Fprintln(w)
	}
	fmt.Fprint(w, "## Rounds\n\n")
	if figures && len(r.Rounds) > 0 {
		alt := "the objective of each candidate over the rounds"
		if len(r.Rounds) == 1 {
			alt = "each candidate's objective after the one round, with its interval"
		}
		fmt.Fprintf(w, "![%s](plots/%s.svg)\n\n", alt, RoundsPlot)
	}
	var rounds [][]string
	for _, rd := range r.Rounds {
		rounds = append(rounds, []string{strconv.Itoa(rd.Index), strconv.Itoa(rd.Candidates), strconv.Itoa(rd.Games), strconv.Itoa(rd.Dropped), fmt.Sprintf("%.2f", rd.Z), strconv.Itoa(rd.Broke), strconv.Itoa(rd.Halved), rd.Leader})
	}
	reports.WriteMarkdownTable(w, []string{"round", "candidates", "games each", "shown worse", "z", "broke a constraint", "set aside by rank", "leader"}, rounds)
	fmt.Fprint(w, "\n## Candidates\n\n")
	reports.WriteMarkdownTable(w, r.header(), r.rows(-1))
	fmt.Fprint(w, "\n## Why the others left the race\n\n")
	for _, c := range r.Candidates {
		if c.DroppedAfter > 0 {
			fmt.Fprintf(w, "- **%s**: %s\n", reports.MarkdownEscape(c.Label), reports.MarkdownText(c.Why))
		}
	}
	if len(r.Effects) > 0 {
		fmt.Fprintf(w, "\n## Each knob's effect\n\n%s: %s.\n\n", "Each value's", reports.MarkdownText(r.EffectMeasure))
		if figures {
			fmt.Fprintf(w, "![each knob's effect](plots/%s.svg)\n\n", EffectsPlot)
		}
		var rows [][]string
		for _, e := range r.Effects {
			for v, l := range e.Labels {
				rows = append(rows, []string{e.Axis, l, r.effectCell(e, v), strconv.Itoa(e.N[v])})
			}
		}
		reports.WriteMarkdownTable(w, []string{"knob", "value", "mean (95% CI)", "n"}, rows)
	}
	return reports.WriteMarkdownFooter(w)
}

// effectCell writes an effect's mean and interval: in points of imbalance
// when the race's objective is the imbalance alone.
func (r *Result) effectCell(e AxisEffect, v int) string {
	if e.N[v] == 0 {
		return "–"
	}
	scale := r.effectScale()
	return fmt.Sprintf("%.3g [%.3g, %.3g]", scale*e.Mean[v], scale*e.Low[v], scale*e.High[v])
}

// effectScale is 100 for a race whose objective is the imbalance alone
// (its effects in points), else 1.
func (r *Result) effectScale() float64 {
	if r.Search == nil && r.Goal.IsBalanceOnly() {
		return 100
	}
	return 1
}

// Plot names under DIR/plots.
const (
	RoundsPlot = "rounds"
	// MaxOneRoundShown is the most candidates the plot of a one-round race
	// shows, best first.
	MaxOneRoundShown = 20
	EffectsPlot      = "effects"
)

// Figures are the race's plots: each candidate's objective over the
// rounds (the five best in colour) and each knob's effect.
func (r *Result) Figures() ([]plots.Figure, error) {
	var figs []plots.Figure
	scale, unit := 1.0, "objective"
	if r.Goal.IsBalanceOnly() {
		scale, unit = 100, "imbalance, points"
	}
	if len(r.Rounds) == 1 {
		// One round has no course to draw: each candidate's standing after
		// it, with its interval, best first.
		evals := slices.Clone(r.Evaluations)
		slices.SortStableFunc(evals, func(a, b Evaluation) int { return cmp.Compare(a.Objective.Value, b.Objective.Value) })
		evals = evals[:min(len(evals), MaxOneRoundShown)]
		labels := make([]string, len(evals))
		est := make([]reports.MetricEstimate, len(evals))
		for i, e := range evals {
			labels[i] = e.Label
			est[i] = reports.MetricEstimate{Value: scale * e.Objective.Value, Low: scale * e.Objective.Low, High: scale * e.Objective.High, N: e.Games}
		}
		what := strings.Replace(unit, ", ", " in ", 1)
		title := fmt.Sprintf("%s: each candidate's %s after its one round (%s games)", r.Name, what, bots.Thousands(r.Rounds[0].Games))
		if len(r.Evaluations) > len(evals) {
			title = fmt.Sprintf("%s: the %d best candidates' %s after one round (%s games)", r.Name, len(evals), what, bots.Thousands(r.Rounds[0].Games))
		}
		p, err := plots.Estimates(title, "candidate", unit, labels, est)
		if err != nil {
			return nil, err
		}
		figs = append(figs, plots.Figure{Name: RoundsPlot, Plot: p})
	}
	if len(r.Rounds) > 1 {
		var xs []string
		for _, rd := range r.Rounds {
			xs = append(xs, fmt.Sprintf("%d (%s)", rd.Index, bots.Thousands(rd.Games)))
		}
		var series []plots.Series
		for i, c := range r.Candidates {
			s := plots.Series{Name: c.Label, First: -1, Faint: i >= 5}
			for _, e := range r.Evaluations {
				if e.Label == c.Label {
					if s.First < 0 {
						s.First = e.Round - 1
					}
					s.Y = append(s.Y, scale*e.Objective.Value)
				}
			}
			series = append(series, s)
		}
		p, err := plots.Lines(fmt.Sprintf("%s: each candidate's %s over the rounds", r.Name, unit), "round (games a candidate)", unit, xs, series)
		if err != nil {
			return nil, err
		}
		figs = append(figs, plots.Figure{Name: RoundsPlot, Plot: p})
	}
	if len(r.Effects) > 0 {
		var labels []string
		var est []reports.MetricEstimate
		scale := r.effectScale()
		for _, e := range r.Effects {
			for v, l := range e.Labels {
				labels = append(labels, e.Axis+"="+l)
				est = append(est, reports.MetricEstimate{Value: scale * e.Mean[v], Low: scale * e.Low[v], High: scale * e.High[v], N: e.N[v]})
			}
		}
		measure := "mean objective"
		switch {
		case r.Search != nil:
			measure = "mean cost"
		case scale == 100:
			measure = "mean imbalance, points"
		}
		p, err := plots.Estimates(r.Name+": each knob's effect", "knob = value", measure, labels, est)
		if err != nil {
			return nil, err
		}
		figs = append(figs, plots.Figure{Name: EffectsPlot, Plot: p})
	}
	return figs, nil
}

// WriteDir writes tune.json, tune.csv (every evaluation), tune.md and
// tune.html to dir, with their plots under plots/.
func (r *Result) WriteDir(dir string) error {
	figs, err := r.Figures()
	if err != nil {
		return err
	}
	if err := reports.MkdirBelow(dir, filepath.Join(dir, "plots")); err != nil {
		return err
	}
	for _, f := range figs {
		if err := plots.Save(filepath.Join(dir, "plots"), f); err != nil {
			return err
		}
	}
	var md bytes.Buffer
	if err := r.WriteMarkdown(&md, true); err != nil {
		return err
	}
	for _, f := range []struct {
		name  string
		write func(io.Writer) error
	}{
		{JSONFile, r.WriteJSON},
		{CSVFile, r.WriteCSV},
		{MarkdownFile, func(w io.Writer) error { _, err := w.Write(md.Bytes()); return err }},
		{HTMLFile, func(w io.Writer) error { return publish.WriteMarkdownPage(w, "Tune "+r.Name, dir, md.Bytes()) }},
	} {
		if err := reports.WriteFileAtomic(filepath.Join(dir, f.name), f.write); err != nil {
			return err
		}
	}
	return nil
}
