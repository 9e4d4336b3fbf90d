package sweep

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot"

	"playtest/reports"
	"playtest/reports/plots"
	"playtest/reports/publish"
	"playtest/sim/bots"
	"playtest/studies/learn"
	"playtest/studies/study"
)

// Files of a sweep's output directory.
const (
	JSONFile     = "sweep.json"
	CSVFile      = "sweep.csv"
	MarkdownFile = "sweep.md"
	HTMLFile     = "sweep.html"
	PlotName     = "sweep"
)

// header is the column header of the table and the Markdown.
func (r *Result) header() []string {
	var h []string
	for _, a := range r.Axes {
		h = append(h, a.Name)
	}
	h = append(h, "games", "seat 0 wins (95% CI)", "seat 1 wins", "draws", "stalled (95% CI)", "plies")
	if !r.metricShown() {
		h = append(h, r.Metric+" (95% CI)")
	}
	return append(h, "played after decided (95% CI)", "lead changes", "seat-bias p", "adjusted p", "seat bias")
}

// seat0Cell is a row's seat 0 wins with its interval, marked when the
// variant's rules decide its games (Row.Broken).
func seat0Cell(row Row) string { return rateCell(row.Seat0) + brokenMark(row) }

// brokenMark marks the cell of a variant whose rules decide its games.
func brokenMark(row Row) string {
	if row.Broken != "" {
		return " ⚠ broken"
	}
	return ""
}

// playCells are a row's How it plays cells: the share played after a game
// was decided with its interval, and the lead changes a game.
func playCells(row Row) []string {
	after, changes := "—", "—"
	if e := row.AfterDecided; e != nil {
		after = fmt.Sprintf("%s (%s)", reports.FormatPercent(e.Value), reports.FormatInterval(e.Low, e.High))
	}
	if e := row.LeadChanges; e != nil {
		changes = fmt.Sprintf("%.2f", e.Value)
	}
	return []string{after, changes}
}

// metricShown says the sweep's metric is already a column.
func (r *Result) metricShown() bool {
	switch r.Metric {
	case "seat0_wins", "seat1_wins", "draws", "stalled", "plies":
		return true
	}
	return false
}

func (r *Result) cells(row Row) []string {
	c := append([]string(nil), row.Values...)
	c = append(c, strconv.Itoa(row.Games),
		seat0Cell(row), reports.FormatPercent(row.Seat1.Rate), reports.FormatPercent(row.Draws.Rate),
		rateCell(row.Stalled), fmt.Sprintf("%.1f", row.Plies.Value))
	if !r.metricShown() {
		c = append(c, r.metricCell(row.Metric))
	}
	c = append(c, playCells(row)...)
	bias := "no"
	if row.SeatBias {
		bias = "yes (" + favoured(row) + ")"
	}
	return append(c, pValue(row.SeatBiasP), pValue(row.AdjustedP), bias)
}

// terminalTable is the table for a terminal: the columns of header and
// cells, packed to fit about 120 columns with two axes (seat 1's wins and
// the draws share a column, as do the two p-values; the games column only
// when the variants played different numbers). sweep.md, sweep.html and
// sweep.csv keep every column.
func (r *Result) terminalTable() ([]string, [][]string) {
	h := make([]string, 0, len(r.Axes)+8)
	for _, a := range r.Axes {
		h = append(h, a.Name)
	}
	sameGames := true
	for _, row := range r.Rows {
		sameGames = sameGames && row.Games == r.Rows[0].Games
	}
	if !sameGames {
		h = append(h, "games")
	}
	h = append(h, "seat 0 wins [95% CI]", "seat 1 / draws", "stalled [95% CI]", "plies")
	if !r.metricShown() {
		h = append(h, r.Metric+" [95% CI]")
	}
	h = append(h, "bias p (adjusted)", "seat bias")
	rows := make([][]string, len(r.Rows))
	for i, row := range r.Rows {
		c := append([]string(nil), row.Values...)
		if !sameGames {
			c = append(c, strconv.Itoa(row.Games))
		}
		c = append(c, compact(rateCell(row.Seat0))+brokenMark(row),
			reports.FormatPercent(row.Seat1.Rate)+" / "+reports.FormatPercent(row.Draws.Rate),
			compact(rateCell(row.Stalled)), fmt.Sprintf("%.1f", row.Plies.Value))
		if !r.metricShown() {
			c = append(c, compact(r.metricCell(row.Metric)))
		}
		bias := "no"
		if row.SeatBias {
			bias = "yes (" + favoured(row) + ")"
		}
		rows[i] = append(c, pValue(row.SeatBiasP)+" ("+pValue(row.AdjustedP)+")", bias)
	}
	return h, rows
}

// compact writes a cell's interval "x (lo – hi)" as "x [lo–hi]".
func compact(cell string) string {
	cell = strings.Replace(cell, " (", " [", 1)
	if strings.HasSuffix(cell, ")") {
		cell = cell[:len(cell)-1] + "]"
	}
	return strings.ReplaceAll(cell, " – ", "–")
}

// favoured names the seat a flagged variant favours.
// score is seat 0's score over the variant's games: a win 1, a draw ½
// (over seat-swapped pairs the same as the pairs' mean score).
func (row Row) score() float64 {
	if row.Games == 0 {
		return 0.5
	}
	return (float64(row.Seat0.Count) + float64(row.Draws.Count)/2) / float64(row.Games)
}

// anyDraws says some variant of the sweep drew a game.
func (r *Result) anyDraws() bool {
	for _, row := range r.Rows {
		if row.Draws.Count > 0 {
			return true
		}
	}
	return false
}

func favoured(row Row) string {
	if row.Seat0.Count < row.Seat1.Count {
		return "seat 1"
	}
	return "seat 0"
}

// scaleText writes a value of the heat map's scale as its cells do.
func (r *Result) scaleText(x float64) string {
	if r.MetricRate {
		return fmt.Sprintf("%.0f%%", 100*x)
	}
	return strconv.FormatFloat(x, 'g', 3, 64)
}

// pDecimal writes a p-value for a CSV column: six decimals, no exponent.
func pDecimal(p float64) string { return strconv.FormatFloat(p, 'f', 6, 64) }

// metricCell writes the sweep's metric with its interval: a rate in
// percent, other figures to the precision the interval supports.
func (r *Result) metricCell(m reports.MetricEstimate) string {
	if r.MetricRate {
		return fmt.Sprintf("%s (%s)", reports.FormatPercent(m.Value), reports.FormatInterval(m.Low, m.High))
	}
	f := func(x float64) string { return reports.FormatByInterval(x, m.Low, m.High) }
	return fmt.Sprintf("%s (%s – %s)", f(m.Value), f(m.Low), f(m.High))
}

func rateCell(r reports.Rate) string {
	return fmt.Sprintf("%s (%s)", reports.FormatPercent(r.Rate), reports.FormatInterval(r.Low, r.High))
}

func pValue(p float64) string {
	if p < 0.0001 {
		return "<0.0001"
	}
	return fmt.Sprintf("%.4f", p)
}

// correctionName names the correction for the notes.
func (r *Result) correctionName() string {
	if r.Correction == BH {
		return "Benjamini–Hochberg (false discovery rate)"
	}
	return "Holm (family-wise error rate)"
}

// learnNote says, for a sweep with --learn, what its bots played.
func (r *Result) learnNote() string {
	if r.Learn == 0 {
		return ""
	}
	return fmt.Sprintf("Each variant's bots play a model learned from %s games of that variant (playtest learn, one generation, on seeds of their own; kept in %s/ with --out), not the hand heuristic.", bots.Thousands(r.Learn), learn.ModelsDir)
}

// WriteTable prints the sweep as a table with notes.
func (r *Result) WriteTable(w io.Writer) error {
	fmt.Fprintf(w, "sweep %s: %d variants, %d games each on the same seeds (seed %d%s)\n",
		r.Name, len(r.Rows), r.Games, r.Seed, pairsNote(r.Pairs))
	if note := r.learnNote(); note != "" {
		fmt.Fprintln(w, note)
	}
	header, rows := r.terminalTable()
	if err := reports.WriteStringTable(w, header, rows); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w, r.note())
	if r.Skipped != nil {
		fmt.Fprintln(w, r.Skipped)
	}
	for _, row := range r.Rows {
		reports.WriteWarnings(w, row.Label, row.Warnings)
	}
	return err
}

func pairsNote(pairs bool) string {
	if pairs {
		return ", seat-swapped pairs"
	}
	return ""
}

func (r *Result) note() string {
	test := "exact binomial test that seat 0 wins half the decisive games"
	if r.Pairs {
		test = "exact sign-flip test over seat-swapped pairs (the two games of a deal are not independent)"
	}
	return fmt.Sprintf("seat bias: %s, p-values adjusted by %s over %d variants; flagged at α = %g.",
		test, r.correctionName(), len(r.Rows), r.Alpha)
}

// WriteCSV writes one row per variant.
func (r *Result) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	var h []string
	for _, a := range r.Axes {
		h = append(h, a.Name)
	}
	h = append(h, "variant", "config_hash", "games",
		"seat0_wins", "seat0_rate", "seat0_low", "seat0_high",
		"seat1_wins", "seat1_rate", "seat1_low", "seat1_high",
		"draws", "draw_rate", "stalled", "stalled_rate", "stalled_low", "stalled_high",
		"plies_mean", "plies_low", "plies_high",
		"metric", "metric_value", "metric_low", "metric_high", "metric_n",
		"seat_bias_p", "adjusted_p", "seat_bias",
		"after_decided", "after_decided_low", "after_decided_high", "lead_changes", "lead_changes_low", "lead_changes_high", "broken")
	if err := cw.Write(h); err != nil {
		return err
	}
	// Each figure to the precision its interval supports (sweep.json keeps
	// full precision).
	est := func(x, lo, hi float64) []string {
		return []string{reports.FormatByInterval(x, lo, hi), reports.FormatByInterval(lo, lo, hi), reports.FormatByInterval(hi, lo, hi)}
	}
	rate := func(r reports.Rate) []string { return est(r.Rate, r.Low, r.High) }
	for _, row := range r.Rows {
		rec := append([]string(nil), row.Values...)
		rec = append(rec, row.Variant, row.ConfigHash, strconv.Itoa(row.Games), strconv.Itoa(row.Seat0.Count))
		rec = append(rec, rate(row.Seat0)...)
		rec = append(rec, strconv.Itoa(row.Seat1.Count))
		rec = append(rec, rate(row.Seat1)...)
		rec = append(rec, strconv.Itoa(row.Draws.Count), rate(row.Draws)[0], strconv.Itoa(row.Stalled.Count))
		rec = append(rec, rate(row.Stalled)...)
		rec = append(rec, est(row.Plies.Value, row.Plies.Low, row.Plies.High)...)
		rec = append(rec, r.Metric)
		rec = append(rec, est(row.Metric.Value, row.Metric.Low, row.Metric.High)...)
		rec = append(rec, strconv.Itoa(row.Metric.N), pDecimal(row.SeatBiasP), pDecimal(row.AdjustedP), strconv.FormatBool(row.SeatBias))
		for _, e := range []*reports.MetricEstimate{row.AfterDecided, row.LeadChanges} {
			if e == nil {
				rec = append(rec, "", "", "")
				continue
			}
			rec = append(rec, est(e.Value, e.Low, e.High)...)
		}
		rec = append(rec, row.Broken)
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteJSON writes the result as indented JSON.
func (r *Result) WriteJSON(w io.Writer) error { return reports.WriteJSON(w, r) }

// WriteMarkdown writes the sweep's report, linking its figure and each
// variant's report when they were written.
func (r *Result) WriteMarkdown(w io.Writer, figure bool) error {
	fmt.Fprintf(w, "# Sweep %s\n\n", reports.MarkdownEscape(r.Name))
	if r.Description != "" {
		fmt.Fprintf(w, "%s\n\n", reports.MarkdownEscape(r.Description))
	}
	fmt.Fprintf(w, "%d variants, %d games each on the same seeds (seed %d%s), from %s.\n\n", len(r.Rows), r.Games, r.Seed, pairsNote(r.Pairs), reports.MarkdownCode(r.Source))
	if note := r.learnNote(); note != "" {
		fmt.Fprintf(w, "%s\n\n", reports.MarkdownText(note))
	}
	if r.Skipped != nil {
		fmt.Fprintf(w, "%s\n\n", reports.MarkdownText(r.Skipped.String()))
	}
	if figure {
		fmt.Fprintf(w, "![%s against the knobs](plots/%s.svg)\n\n", reports.MarkdownEscape(r.Metric), PlotName)
	}
	rows := make([][]string, len(r.Rows))
	for i, row := range r.Rows {
		rows[i] = r.cells(row)
		rows[i][0] = reports.MarkdownEscape(rows[i][0])
		if row.Dir != "" {
			rows[i][0] = fmt.Sprintf("[%s](%s/report.md)", rows[i][0], filepath.ToSlash(row.Dir))
		}
	}
	if err := reports.WriteMarkdownTable(w, r.header(), rows, true); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "\n%s\n", reports.MarkdownText(r.note()))
	for _, row := range r.Rows {
		for _, warn := range row.Warnings {
			fmt.Fprintf(w, "\n> ⚠ **%s**, %s: %s\n", reports.MarkdownEscape(row.Label), reports.MarkdownEscape(warn.Code), reports.MarkdownText(warn.Message))
		}
	}
	if err != nil {
		return err
	}
	return reports.WriteMarkdownFooter(w)
}

// Figure plots the metric against the knob (one axis), as a heat map (two
// axes), or against every variant (more).
func (r *Result) Figure() (*plot.Plot, error) {
	est := make([]reports.MetricEstimate, len(r.Rows))
	for i, row := range r.Rows {
		est[i] = row.Metric
	}
	title := fmt.Sprintf("%s: %s, %d games per variant", r.Name, r.Metric, r.Games)
	// A seat metric is read against even: 50% for a score (a draw ½), and
	// for a win rate only when no variant drew, since with draws 50% of
	// wins is not even.
	var ref *float64
	seatMetric := strings.HasPrefix(r.Metric, "seat")
	if half := 0.5; seatMetric && (strings.Contains(r.Metric, "score") || !r.anyDraws()) {
		ref = &half
	}
	// A space with points left out is plotted against every variant.
	switch axes := len(r.Axes); {
	case axes == 1 && r.Skipped == nil:
		return plots.Against(title, r.Axes[0].Name, r.Metric, r.Axes[0].Labels, est, ref)
	case axes == 2 && r.Skipped == nil:
		xs, ys := r.Axes[1].Labels, r.Axes[0].Labels
		values := make([][]float64, len(ys))
		cells := make([][]string, len(ys))
		lo, hi := 0.0, 1.0
		for i, row := range r.Rows {
			y, x := i/len(xs), i%len(xs)
			if values[y] == nil {
				values[y], cells[y] = make([]float64, len(xs)), make([]string, len(xs))
			}
			values[y][x] = row.Metric.Value
			cells[y][x] = r.metricCell(row.Metric)
			if i := strings.Index(cells[y][x], " ("); i > 0 {
				cells[y][x] = cells[y][x][:i] + "\n" + cells[y][x][i+1:]
			}
			if seatMetric {
				// Coloured by seat 0's score, shown when it is not the metric.
				values[y][x] = row.score()
				if !strings.Contains(r.Metric, "score") {
					cells[y][x] += "\nscore " + reports.FormatPercent(row.score())
				}
			}
			if row.SeatBias {
				cells[y][x] += "\n" + favoured(row) + " favoured"
			}
			lo, hi = min(lo, row.Metric.Low), max(hi, row.Metric.High)
		}
		scale := plots.Scale{Lo: lo, Mid: (lo + hi) / 2, Hi: hi}
		scale.LoText, scale.MidText, scale.HiText = r.scaleText(scale.Lo), r.scaleText(scale.Mid), r.scaleText(scale.Hi)
		scale.MidText += " (" + r.Metric + ")"
		if seatMetric {
			// Centred on an even score: a draw counts ½, so a variant with
			// many draws and 45% of wins to each seat is painted even.
			d := 0.0
			for _, row := range values {
				for _, v := range row {
					d = max(d, math.Abs(v-0.5))
				}
			}
			d = max(d, 0.05)
			scale = plots.Scale{Lo: 0.5 - d, Mid: 0.5, Hi: 0.5 + d,
				LoText:  "seat 1 favoured: seat 0 scores " + reports.FormatPercent(0.5-d),
				MidText: "even: seat 0 scores 50% (colour: seat 0's score, a draw ½)",
				HiText:  "seat 0 favoured: seat 0 scores " + reports.FormatPercent(0.5+d)}
		}
		return plots.HeatMap(title, r.Axes[1].Name, r.Axes[0].Name, xs, ys, values, cells, scale)
	}
	labels := make([]string, len(r.Rows))
	for i, row := range r.Rows {
		labels[i] = strings.Join(row.Values, " ")
	}
	return plots.Against(title, "variant", r.Metric, labels, est, ref)
}

// WriteDir writes sweep.json, sweep.csv, sweep.md, sweep.html (the
// Markdown as a self-contained page) and plots/sweep.svg and .png to dir,
// each atomically, then marks the study kept in dir (study.json) finished.
func (r *Result) WriteDir(dir string) error {
	p, err := r.Figure()
	if err != nil {
		return err
	}
	if err := reports.MkdirBelow(dir, filepath.Join(dir, "plots")); err != nil {
		return err
	}
	if err := plots.Save(filepath.Join(dir, "plots"), plots.Figure{Name: PlotName, Plot: p}); err != nil {
		return err
	}
	var md bytes.Buffer
	if err := r.WriteMarkdown(&md, true); err != nil {
		return err
	}
	files := []struct {
		name  string
		write func(io.Writer) error
	}{
		{JSONFile, r.WriteJSON},
		{CSVFile, r.WriteCSV},
		{MarkdownFile, func(w io.Writer) error { _, err := w.Write(md.Bytes()); return err }},
		{HTMLFile, func(w io.Writer) error { return publish.WriteMarkdownPage(w, "Sweep "+r.Name, dir, md.Bytes()) }},
	}
	for _, f := range files {
		if err := reports.WriteFileAtomic(filepath.Join(dir, f.name), f.write); err != nil {
			return err
		}
	}
	return study.FinishDir(dir) // last: the study is complete
}

// removeResults removes a sweep's own result files from dir (not its
// variants' run directories).
func removeResults(dir string) error {
	var errs []error
	for _, name := range []string{JSONFile, CSVFile, MarkdownFile, HTMLFile, filepath.Join("plots", PlotName+".svg"), filepath.Join("plots", PlotName+".png")} {
		if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
