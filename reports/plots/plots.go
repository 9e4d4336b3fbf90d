package plots

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"playtest/reports"
	"playtest/reports/stats"
)

// Figure is one plot with its file name (without extension) and caption.
type Figure struct {
	Name    string
	Caption string
	Plot    *plot.Plot
}

// Size of the saved figures.
const (
	Width  = 16 * vg.Centimeter
	Height = 10 * vg.Centimeter
)

var (
	barColor   = color.RGBA{R: 70, G: 120, B: 180, A: 255}
	errorColor = color.RGBA{R: 20, G: 20, B: 20, A: 255}
)

// Outcomes draws seat 0's and seat 1's win rates and the draw rate, with
// their 95% Wilson intervals as error bars.
func Outcomes(s *reports.Summary) (*plot.Plot, error) {
	labels := []string{"seat 0 wins", "seat 1 wins", "draws"}
	rates := []reports.Rate{s.Rates.Seat0, s.Rates.Seat1, s.Rates.Draw}
	if s.Stalled.Count > 0 {
		labels = append(labels, "stalled")
		rates = append(rates, s.Stalled)
	}
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Outcomes of %d games (95%% intervals)", s.Games)
	p.Y.Label.Text = "share of games"
	p.Y.Min, p.Y.Max = 0, 1
	if err := rateBars(p, labels, rates); err != nil {
		return nil, err
	}
	return p, nil
}

// Rates draws the game-specific rates with their intervals, or returns nil
// when the run has none.
func Rates(s *reports.Summary) (*plot.Plot, error) {
	var labels []string
	var rates []reports.Rate
	for _, m := range s.Metrics {
		if m.Rate != nil {
			labels = append(labels, m.Name)
			rates = append(rates, *m.Rate)
		}
	}
	if len(rates) == 0 {
		return nil, nil
	}
	p := plot.New()
	p.Title.Text = "Game-specific rates (95% intervals)"
	p.Y.Min, p.Y.Max = 0, 1
	p.X.Tick.Label.Rotation = 0.5
	p.X.Tick.Label.XAlign = draw.XRight
	if err := rateBars(p, labels, rates); err != nil {
		return nil, err
	}
	return p, nil
}

// rateBars adds bars for rates with error bars for their intervals.
func rateBars(p *plot.Plot, labels []string, rates []reports.Rate) error {
	values := make(plotter.Values, len(rates))
	bars := errorPoints{XYs: make(plotter.XYs, len(rates)), YErrors: make(plotter.YErrors, len(rates))}
	for i, r := range rates {
		values[i] = r.Rate
		bars.XYs[i] = plotter.XY{X: float64(i), Y: r.Rate}
		bars.YErrors[i].Low, bars.YErrors[i].High = r.Rate-r.Low, r.High-r.Rate
	}
	bc, err := plotter.NewBarChart(values, vg.Points(28))
	if err != nil {
		return err
	}
	bc.Color = barColor
	bc.LineStyle.Width = 0
	eb, err := plotter.NewYErrorBars(bars)
	if err != nil {
		return err
	}
	eb.Color = errorColor
	eb.Width = vg.Points(1.2)
	p.Add(bc, eb)
	p.NominalX(labels...)
	return nil
}

type errorPoints struct {
	plotter.XYs
	plotter.YErrors
}

// Histogram draws the distribution of integer values kept in h (for
// instance game length or score margin).
func Histogram(title, xLabel string, h *stats.Histogram) (*plot.Plot, error) {
	values := h.Values()
	if len(values) == 0 {
		return nil, nil
	}
	xy := make(plotter.XYs, len(values))
	for i, v := range values {
		xy[i] = plotter.XY{X: float64(v), Y: float64(h.Count(v))}
	}
	span := values[len(values)-1] - values[0] + 1
	bins := min(span, 40)
	hist, err := plotter.NewHistogram(xy, max(bins, 1))
	if err != nil {
		return nil, err
	}
	hist.FillColor = barColor
	hist.LineStyle.Color = color.White
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xLabel
	p.Y.Label.Text = "games"
	p.Add(hist)
	return p, nil
}

// Save writes the figure as NAME.svg and NAME.png in dir, each through a
// temporary file.
func Save(dir string, f Figure) error {
	for _, format := range []string{"svg", "png"} {
		data, err := Render(f.Plot, format)
		if err != nil {
			return fmt.Errorf("plot %s: %w", f.Name, err)
		}
		path := filepath.Join(dir, f.Name+"."+format)
		if err := reports.WriteFileAtomic(path, func(w io.Writer) error {
			_, err := w.Write(data)
			return err
		}); err != nil {
			return err
		}
	}
	return nil
}

// Render draws a plot in a format ("svg" or "png") at the standard size.
func Render(p *plot.Plot, format string) ([]byte, error) {
	wt, err := p.WriterTo(Width, Height, format)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if _, err := wt.WriteTo(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
