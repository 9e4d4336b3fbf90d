package skill

import (
	"cmp"
	"encoding/base64"
	"encoding/csv"
	"fmt"
	"html/template"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"playtest/internal/printable"
	"playtest/reports"
	"playtest/reports/plots"
	"playtest/sim/bots"
)

// Files a ladder writes with --out.
const (
	JSONFile     = "skill.json"
	CSVFile      = "skill.csv"
	MarkdownFile = "skill.md"
	HTMLFile     = "skill.html"
	PlotsDir     = "plots"
)

// rows are the rungs' cells, shared by the table, the Markdown and the
// HTML.
func (r *Result) rows() [][]string {
	out := make([][]string, len(r.Rungs))
	for i, rung := range r.Rungs {
		out[i] = r.row(rung)
	}
	if r.Ceiling != nil {
		out = append(out, r.ceilingRow())
	}
	return out
}

// row is a rung's cells.
func (r *Result) row(rung Rung) []string {
	h := rung.Headline
	budget := bots.Thousands(rung.Budget)
	if rung.Preset {
		budget += " *"
	}
	shift, perDoubling := "—", "—"
	if s := rung.Shift; s != nil {
		shift = fmt.Sprintf("%+.1f [%+.1f, %+.1f]", 100*s.Value, 100*s.Low, 100*s.High)
	}
	if g := rung.Gain; g != nil {
		perDoubling = fmt.Sprintf("%+.0f [%+.0f, %+.0f]", g.PerDoubling, g.PerDoublingLow, g.PerDoublingHigh)
	}
	row := []string{budget, bots.Thousands(rung.Games),
		fmt.Sprintf("%s [%s]", reports.FormatPercent(h.Value), reports.FormatInterval(h.Low, h.High)),
		reports.FormatP(h.P),
		reports.FormatPercent(rung.Draws.Rate), reports.FormatPercent(rung.Stalled.Rate),
		fmt.Sprintf("%.1f", rung.Plies.Value), shift, perDoubling}
	if r.judged() {
		row = append(row, accuracyCell(rung.Accuracy), variedCell(rung.Accuracy))
	}
	if r.Ceiling != nil {
		row = append(row, gapCell(rung.Gap))
	}
	return row
}

func (r *Result) header() []string {
	h := []string{r.Param, "games", "seat 0 " + shortMeasure(r) + " (95% CI)", "p", "draws", "stalled", "plies", "shift (points)", "Elo per doubling"}
	if r.judged() {
		h = append(h, "accuracy (95% CI)", "noise kept")
	}
	if r.Ceiling != nil {
		h = append(h, "vs perfect (95% CI)")
	}
	return h
}

func shortMeasure(r *Result) string {
	if r.Pairs {
		return "score"
	}
	return "share of decisive"
}

// WriteTable prints the ladder, the verdict and the skill depth.
func (r *Result) WriteTable(w io.Writer) error {
	fmt.Fprintf(w, "%s: %s — skill ladder of %s\n%d games per rung and per head-to-head, in %s, seed %d; bots: %s\n\n",
		r.Game, r.Name(), r.Param, r.Games, pairsWord(r.Pairs), r.Seed, r.Bots)
	if err := reports.WriteStringTable(w, r.header(), r.rows()); err != nil {
		return err
	}
	fmt.Fprintln(w, r.notes())
	fmt.Fprintf(w, "\n%s\n", r.Text)
	for _, line := range []string{r.provenLine(), r.bookLine(), r.accuracyLine(), r.ceilingLine()} {
		if line != "" {
			fmt.Fprintf(w, "\n%s\n", line)
		}
	}
	_, err := fmt.Fprintf(w, "\n%s\n", r.depthLine())
	return err
}

func pairsWord(pairs bool) string {
	if pairs {
		return "seat-swapped pairs"
	}
	return "single games (head-to-heads in pairs)"
}

// notes explain the columns.
func (r *Result) notes() string {
	var b strings.Builder
	if r.presetRung() {
		b.WriteString("* the rung the variant itself plays. ")
	}
	b.WriteString("Each rung is self-play with both seats at its budget; the head-to-head plays it against the rung below on the same seeds (pairs). ")
	b.WriteString("Intervals are 95%; the shift is seat 0's figure minus the rung below's, paired deal by deal; Elo per doubling is the head-to-head Elo over log2 of the budget ratio.")
	var warned []string
	for _, rung := range r.Rungs {
		if len(rung.Warnings) > 0 {
			warned = append(warned, fmt.Sprintf("%s %s: %s", bots.Thousands(rung.Budget), r.Param, strings.Join(rung.Warnings, ", ")))
		}
	}
	if len(warned) > 0 {
		fmt.Fprintf(&b, " Warnings in self-play (playtest run explains each): %s.", strings.Join(warned, "; "))
	}
	return b.String()
}

func (r *Result) presetRung() bool {
	for _, rung := range r.Rungs {
		if rung.Preset {
			return true
		}
	}
	return false
}

// depthLine states the skill depth.
func (r *Result) depthLine() string {
	if len(r.Rungs) < 2 {
		return ""
	}
	return fmt.Sprintf("Skill depth: a doubled budget gains %+.0f Elo [%+.0f, %+.0f] on average over this ladder (it scores about %s against the budget it doubles).",
		r.SkillDepth, r.SkillDepthLow, r.SkillDepthHigh, reports.FormatPercent(r.DoubledScore))
}

// WriteJSON writes the ladder as indented JSON.
func (r *Result) WriteJSON(w io.Writer) error { return reports.WriteJSON(w, r) }

// WriteCSV writes one row per rung.
func (r *Result) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	_ = cw.Write([]string{"budget", "param", "preset", "games", "seat0_value", "seat0_low", "seat0_high", "seat0_n", "seat_bias_p", "verdict",
		"seat0_wins", "seat1_wins", "draws", "stalled", "plies_mean",
		"shift", "shift_low", "shift_high", "shift_deals",
		"gain_score", "gain_low", "gain_high", "gain_pairs", "elo_per_doubling", "elo_per_doubling_low", "elo_per_doubling_high", "seconds",
		"accuracy", "accuracy_low", "accuracy_high", "accuracy_games"})
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', 8, 64) }
	for _, rung := range r.Rungs {
		h := rung.Headline
		row := []string{strconv.Itoa(rung.Budget), r.Param, strconv.FormatBool(rung.Preset), strconv.Itoa(rung.Games), f(h.Value), f(h.Low), f(h.High), strconv.Itoa(h.N), f(h.P), h.Verdict,
			f(rung.Seat0.Rate), f(rung.Seat1.Rate), f(rung.Draws.Rate), f(rung.Stalled.Rate), f(rung.Plies.Value)}
		if s := rung.Shift; s != nil {
			row = append(row, f(s.Value), f(s.Low), f(s.High), strconv.Itoa(s.Deals))
		} else {
			row = append(row, "", "", "", "")
		}
		if g := rung.Gain; g != nil {
			row = append(row, f(g.Score.Score), f(g.Score.CI.Low), f(g.Score.CI.High), strconv.Itoa(g.Score.Pairs), f(g.PerDoubling), f(g.PerDoublingLow), f(g.PerDoublingHigh))
		} else {
			row = append(row, "", "", "", "", "", "", "")
		}
		row = append(row, f(rung.Seconds))
		if a := rung.Accuracy; a != nil {
			row = append(row, f(a.Accuracy), f(a.Low), f(a.High), strconv.Itoa(a.Games))
		} else {
			row = append(row, "", "", "", "")
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteMarkdown writes the ladder as a Markdown report (with the plots
// when withPlots).
func (r *Result) WriteMarkdown(w io.Writer, withPlots bool) error {
	fmt.Fprintf(w, "# Skill ladder: %s (%s)\n\n", reports.MarkdownEscape(r.Name()), reports.MarkdownEscape(r.Game))
	fmt.Fprintf(w, "%d games per rung and per head-to-head, in %s, seed %d; bots: %s.\n\n", r.Games, pairsWord(r.Pairs), r.Seed, reports.MarkdownEscape(r.Bots))
	fmt.Fprintf(w, "**%s**\n\n", reports.MarkdownText(r.Text))
	for _, line := range []string{r.provenLine(), r.bookLine(), r.accuracyLine(), r.ceilingLine()} {
		if line != "" {
			fmt.Fprintf(w, "%s\n\n", reports.MarkdownText(line))
		}
	}
	if withPlots {
		fmt.Fprintf(w, "![seat 0 against the budget](%s/seat0.svg)\n![Elo per doubling against the budget](%s/gain.svg)\n\n", PlotsDir, PlotsDir)
	}
	h := r.header()
	for i := range h {
		h[i] = reports.MarkdownEscape(h[i])
	}
	fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(h, " | "), strings.Repeat("---:|", len(h)))
	for _, rung := range r.Rungs {
		c := r.row(rung)
		for i := range c {
			c[i] = reports.MarkdownEscape(c[i])
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(c, " | "))
	}
	if _, err := fmt.Fprintf(w, "\n%s\n\n%s\n", reports.MarkdownText(r.notes()), reports.MarkdownText(r.depthLine())); err != nil {
		return err
	}
	return reports.WriteMarkdownFooter(w)
}

// Figures draws seat 0's figure and the Elo gain per doubling against the
// budget, with 95% intervals.
func (r *Result) Figures() ([]plots.Figure, error) {
	labels := make([]string, len(r.Rungs))
	seat0 := make([]reports.MetricEstimate, len(r.Rungs))
	for i, rung := range r.Rungs {
		labels[i] = bots.Thousands(rung.Budget)
		h := rung.Headline
		seat0[i] = reports.MetricEstimate{Value: h.Value, Low: h.Low, High: h.High, N: h.N}
	}
	half, zero := 0.5, 0.0
	p1, err := plots.Against(fmt.Sprintf("%s: seat 0 %s against the bots' budget", r.Name(), shortMeasure(r)), r.Param, "seat 0 "+shortMeasure(r), labels, seat0, &half)
	if err != nil {
		return nil, err
	}
	figs := []plots.Figure{{Name: "seat0", Caption: "Seat 0's " + shortMeasure(r) + " at each budget (95% intervals)", Plot: p1}}
	var gl []string
	var gains []reports.MetricEstimate
	for _, rung := range r.Rungs {
		if g := rung.Gain; g != nil {
			gl = append(gl, bots.Thousands(rung.Budget))
			gains = append(gains, reports.MetricEstimate{Value: g.PerDoubling, Low: g.PerDoublingLow, High: g.PerDoublingHigh, N: g.Score.Pairs})
		}
	}
	if len(gains) > 0 {
		p2, err := plots.Against(fmt.Sprintf("%s: strength gained over the rung below", r.Name()), r.Param, "Elo per doubling", gl, gains, &zero)
		if err != nil {
			return nil, err
		}
		figs = append(figs, plots.Figure{Name: "gain", Caption: "Elo gained per doubling of the budget over the rung below (95% intervals)", Plot: p2})
	}
	return figs, nil
}

// WriteDir writes skill.json, skill.csv, skill.md, skill.html and the
// plots to dir, each atomically.
func (r *Result) WriteDir(dir string) error {
	figs, err := r.Figures()
	if err != nil {
		return err
	}
	if err := reports.MkdirBelow(dir, filepath.Join(dir, PlotsDir)); err != nil {
		return err
	}
	var inline []inlineFigure
	for _, f := range figs {
		if err := plots.Save(filepath.Join(dir, PlotsDir), f); err != nil {
			return err
		}
		png, err := plots.Render(f.Plot, "png")
		if err != nil {
			return err
		}
		inline = append(inline, inlineFigure{Caption: f.Caption, PNG: template.URL("data:image/png;base64," + base64.StdEncoding.EncodeToString(png))})
	}
	files := []struct {
		name  string
		write func(io.Writer) error
	}{
		{JSONFile, r.WriteJSON},
		{CSVFile, r.WriteCSV},
		{MarkdownFile, func(w io.Writer) error { return r.WriteMarkdown(w, true) }},
		{HTMLFile, func(w io.Writer) error { return r.writeHTML(w, inline) }},
	}
	for _, f := range files {
		if err := reports.WriteFileAtomic(filepath.Join(dir, f.name), f.write); err != nil {
			return err
		}
	}
	return nil
}

type inlineFigure struct {
	Caption string
	PNG     template.URL
}

var page = template.Must(template.New(HTMLFile).Funcs(template.FuncMap{"footer": reports.Footer, "oneLine": printable.OneLine}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Skill ladder: {{oneLine .R.Name}} ({{oneLine .R.Game}})</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 64rem; padding: 0 1rem; color: #222; }
table { border-collapse: collapse; margin: 1rem 0; }
th, td { border-bottom: 1px solid #ddd; padding: 0.3rem 0.7rem; text-align: right; }
.verdict { font-size: 1.1rem; background: #f4f7fb; padding: 0.7rem 1rem; border-left: 4px solid #36c; }
img { max-width: 100%; height: auto; border: 1px solid #eee; }
.note { color: #555; }
</style>
</head>
<body>
<h1>Skill ladder: {{.R.Name}} <small>({{.R.Game}})</small></h1>
<p>{{.R.Games}} games per rung and per head-to-head, seed {{.R.Seed}}; bots: {{.R.Bots}}.</p>
<p class="verdict"><strong>{{.R.Text}}</strong></p>
<table>
<tr>{{range .Header}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>
<p class="note">{{.Notes}}</p>
<p>{{.Depth}}</p>
{{range .Figures}}<figure><img alt="{{.Caption}}" src="{{.PNG}}"><figcaption>{{.Caption}}</figcaption></figure>
{{end}}
<p class="note">{{footer}}</p>
</body>
</html>
`))

func (r *Result) writeHTML(w io.Writer, figs []inlineFigure) error {
	return page.Execute(w, struct {
		R            *Result
		Header       []string
		Rows         [][]string
		Notes, Depth string
		Figures      []inlineFigure
	}{r, r.header(), r.rows(), r.notes(), r.depthLine(), figs})
}

// Name is the ladder's variant for people: with what --set changed in its
// rules, when anything did.
func (r *Result) Name() string { return cmp.Or(r.Label, r.Variant) }
