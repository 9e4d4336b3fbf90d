package publish

import (
	"encoding/base64"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"

	"gonum.org/v1/plot"

	"playtest/internal/bounded"
	"playtest/reports"
	"playtest/reports/howplays"
	"playtest/reports/plots"
	"playtest/reports/stats"
)

// File names inside a run directory.
const (
	SummaryFile  = "summary.json"
	GamesFile    = "games.csv"
	MarkdownFile = "report.md"
	HTMLFile     = "report.html"
	PlotsDir     = "plots"
)

// Report is what the documents show: the summary and the figures, each
// figure with its files and its PNG inline for the HTML.
type Report struct {
	Summary *reports.Summary
	Figures []Figure
	// Notes stand in for figures that would say nothing more (a histogram
	// of one value).
	Notes []string
	// Examples are the run's example games for the board viewer, if it
	// kept any (examples.json).
	Examples *Examples
}

// LeadFigure is the figure report.html shows beside the headline: the
// outcome chart, so the answer and its picture open the page; nil when
// there is none.
func (r *Report) LeadFigure() *Figure {
	if len(r.Figures) > 0 && r.Figures[0].Name == OutcomesFigure {
		return &r.Figures[0]
	}
	return nil
}

// OtherFigures are the figures for the Plots section: neither the lead
// one nor those of How it plays.
func (r *Report) OtherFigures() []Figure {
	var out []Figure
	for _, f := range r.Figures {
		if f.Name != OutcomesFigure && f.Name != LengthFigure && !playFigures[f.Name] {
			out = append(out, f)
		}
	}
	return out
}

// LengthFigures are the figures of the Game length section: its
// histogram.
func (r *Report) LengthFigures() []Figure {
	var out []Figure
	for _, f := range r.Figures {
		if f.Name == LengthFigure {
			out = append(out, f)
		}
	}
	return out
}

// PlayFigures are the figures of the How it plays section.
func (r *Report) PlayFigures() []Figure {
	var out []Figure
	for _, f := range r.Figures {
		if playFigures[f.Name] {
			out = append(out, f)
		}
	}
	return out
}

// playFigures names the figures of How it plays.
var playFigures = map[string]bool{TracesFigure: true, AfterDecidedFigure: true}

// OpeningBoards are the drawings of the positions after the listed
// openings, by notation (nil when the run kept none).
func (r *Report) OpeningBoards() map[string]string {
	if r.Examples == nil {
		return nil
	}
	return r.Examples.Openings
}

// OutcomesFigure is the name of the outcome chart's files; TracesFigure
// the example win-probability traces'.
const (
	OutcomesFigure     = "outcomes"
	TracesFigure       = "traces"
	AfterDecidedFigure = "after-decided"
	LengthFigure       = "length"
)

// Figure is a saved plot.
type Figure struct {
	Name, Caption string
	SVG, PNG      string // paths relative to the run directory
	PNGBase64     string
}

// InputError is a saved run a report cannot be built from: a missing or
// damaged summary.json, games.csv or examples.json.
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

// BadInput marks a damaged run directory as bad input (exit 2); a failure
// to write the reports (a full disk) is not.
func (e *InputError) BadInput() bool { return true }

// Write builds report.md, report.html and plots/ in dir from its
// summary.json and games.csv; each file is written atomically. What it
// cannot read is an *InputError; what it cannot write is returned as is.
func Write(dir string) error {
	r, err := Load(dir)
	if err != nil {
		return &InputError{err}
	}
	d, err := readGames(dir, r.Summary)
	if err != nil {
		return &InputError{err}
	}
	if r.Examples, err = readExamples(dir); err != nil {
		return &InputError{err}
	}
	if err := reports.MkdirBelow(dir, filepath.Join(dir, PlotsDir)); err != nil {
		return err
	}
	if err := r.buildFigures(dir, d); err != nil {
		return err
	}
	if err := reports.WriteFileAtomic(filepath.Join(dir, MarkdownFile), r.WriteMarkdown); err != nil {
		return err
	}
	return reports.WriteFileAtomic(filepath.Join(dir, HTMLFile), r.WriteHTML)
}

// Load reads a run directory's summary. The figures are built by Write.
func Load(dir string) (*Report, error) {
	f, err := bounded.Open(filepath.Join(dir, SummaryFile))
	if err != nil {
		return nil, fmt.Errorf("%s: no saved run here (want %s and %s): %w", dir, SummaryFile, GamesFile, err)
	}
	defer f.Close()
	s, err := reports.ReadSummary(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, SummaryFile), err)
	}
	return &Report{Summary: s}, nil
}

// gameData is what the figures need from games.csv.
type gameData struct {
	plies, margin stats.Histogram
	hasMargin     bool
}

// readGames reads games.csv, checking each row against the summary: a
// game's length within the summary's range, indices increasing, as many
// rows as games, margins whole numbers of a sane size.
func readGames(dir string, s *reports.Summary) (*gameData, error) {
	path := filepath.Join(dir, GamesFile)
	f, err := bounded.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if s.Plies.Min < 0 || s.Plies.Max > maxPlies || s.Plies.Min > s.Plies.Max {
		return nil, fmt.Errorf("%s: plies from %g to %g: not a run's game lengths", filepath.Join(dir, SummaryFile), s.Plies.Min, s.Plies.Max)
	}
	var d gameData
	last := -1
	wins, draws := map[string]int{}, map[string]int{}
	seatWins := [2]int{}
	err = reports.ReadGames(f, func(row *reports.GameRow) error {
		pair, swapped := row.Index, false
		if s.Pairs {
			pair, swapped = row.Index/2, row.Index%2 == 1
		}
		switch {
		case row.Index <= last:
			return fmt.Errorf("game %d after game %d: indices must increase", row.Index, last)
		case row.Seed != s.Seed || row.Pair != pair || row.Swapped != swapped:
			return fmt.Errorf("game %d: seed %d, pair %d, swapped %v, but the run plays it with seed %d on pair %d, swapped %v", row.Index, row.Seed, row.Pair, row.Swapped, s.Seed, pair, swapped)
		case float64(row.Plies) < s.Plies.Min || float64(row.Plies) > s.Plies.Max:
			return fmt.Errorf("plies %d outside the summary's range [%g, %g]", row.Plies, s.Plies.Min, s.Plies.Max)
		case d.plies.N() == s.Games:
			return fmt.Errorf("more rows than the summary's %d games", s.Games)
		}
		switch row.Winner {
		case "seat0", "seat1":
			wins[row.Reason]++
			seatWins[row.Winner[4]-'0']++
		case "draw":
			draws[row.Reason]++
		default:
			return fmt.Errorf("game %d: winner %q, want seat0, seat1 or draw", row.Index, row.Winner)
		}
		last = row.Index
		d.plies.Add(row.Plies)
		for _, m := range row.Metrics {
			if m.Name != "margin" {
				continue
			}
			if m.Value != math.Trunc(m.Value) || math.Abs(m.Value) > maxMargin {
				return fmt.Errorf("margin %g: want a whole number of points between -%d and %d", m.Value, maxMargin, maxMargin)
			}
			d.margin.Add(int(m.Value))
			d.hasMargin = true
		}
		return nil
	})
	switch {
	case err != nil:
	case d.plies.N() != s.Games:
		err = fmt.Errorf("%d rows, but the summary counts %d games", d.plies.N(), s.Games)
	case seatWins[0] != s.Rates.Seat0.Count || seatWins[1] != s.Rates.Seat1.Count:
		err = fmt.Errorf("seat 0 wins %d and seat 1 %d games, but the summary counts %d and %d", seatWins[0], seatWins[1], s.Rates.Seat0.Count, s.Rates.Seat1.Count)
	case !maps.Equal(wins, nonZero(s.WinReasons)) || !maps.Equal(draws, nonZero(s.DrawReasons)):
		err = fmt.Errorf("games end by %s (wins) and %s (draws), but the summary counts %s and %s",
			reports.FormatCounts(wins), reports.FormatCounts(draws), reports.FormatCounts(s.WinReasons), reports.FormatCounts(s.DrawReasons))
	case math.Abs(d.plies.Mean()-s.Plies.Mean) > 1e-6*max(1, s.Plies.Mean): // the summary rounds it
		err = fmt.Errorf("a mean length of %g plies, but the summary's is %g", d.plies.Mean(), s.Plies.Mean)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &d, nil
}

// nonZero is m without its zero counts.
func nonZero(m map[string]int) map[string]int {
	out := map[string]int{}
	for k, v := range m {
		if v != 0 {
			out[k] = v
		}
	}
	return out
}

// Bounds of a game's length and score margin in a games.csv a report
// accepts (a game's move cap is at most a million).
const (
	maxPlies  = 1e7
	maxMargin = 1_000_000
)

// buildFigures draws and saves the figures of the games d.
func (r *Report) buildFigures(dir string, d *gameData) error {
	s := r.Summary
	outcomes, err := plots.Outcomes(s)
	if err != nil {
		return err
	}
	figs := []plots.Figure{{Name: OutcomesFigure, Caption: "Seat 0's score (the 50% line: no seat advantage), seat win rates and draws, with 95% intervals", Plot: outcomes}}
	histograms := []struct {
		name, title, unit, caption string
		h                          *stats.Histogram
		show                       bool
	}{
		{LengthFigure, fmt.Sprintf("Game length (%d games)", d.plies.N()), "plies", "Game length in plies", &d.plies, true},
		{"margin", "Score margin (seat 0 − seat 1)", "points", "Score margin, seat 0 minus seat 1", &d.margin, d.hasMargin},
	}
	for _, h := range histograms {
		if !h.show {
			continue
		}
		p, note, err := plots.Histogram(h.title, h.unit, h.h)
		if err != nil {
			return err
		}
		if note != "" {
			r.Notes = append(r.Notes, note)
		}
		if p != nil {
			figs = append(figs, plots.Figure{Name: h.name, Caption: h.caption, Plot: p})
		}
	}
	rates, err := plots.Rates(s)
	if err != nil {
		return err
	}
	if rates != nil {
		figs = append(figs, plots.Figure{Name: "rates", Caption: "Game-specific rates with 95% Wilson intervals", Plot: rates})
	}
	for _, draw := range []struct {
		name, caption string
		plot          func(*howplays.Report) (*plot.Plot, error)
	}{
		{TracesFigure, "How games unfold: seat 0's chance of winning before each decision in a typical game and in the extremes, turning points ringed", plots.Traces},
		{AfterDecidedFigure, "How much of each decisive game was played after it was decided", plots.AfterDecided},
	} {
		p, err := draw.plot(s.HowItPlays)
		if err != nil {
			return err
		}
		if p != nil {
			figs = append(figs, plots.Figure{Name: draw.name, Caption: draw.caption, Plot: p})
		}
	}
	for _, f := range figs {
		if err := plots.Save(filepath.Join(dir, PlotsDir), f); err != nil {
			return err
		}
		png, err := os.ReadFile(filepath.Join(dir, PlotsDir, f.Name+".png"))
		if err != nil {
			return err
		}
		r.Figures = append(r.Figures, Figure{
			Name: f.Name, Caption: f.Caption,
			SVG: PlotsDir + "/" + f.Name + ".svg", PNG: PlotsDir + "/" + f.Name + ".png",
			PNGBase64: base64.StdEncoding.EncodeToString(png),
		})
	}
	return nil
}
