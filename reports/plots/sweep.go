package plots

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"playtest/reports"
)

// Against draws a metric against the values of one knob, each point with
// its 95% interval as an error bar, and a dashed reference line at ref when
// ref is not nil (½ for a win rate).
func Against(title, knob, metric string, labels []string, est []reports.MetricEstimate, ref *float64) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = knob
	p.Y.Label.Text = metric + " (95% intervals)"
	pts := errorPoints{XYs: make(plotter.XYs, len(est)), YErrors: make(plotter.YErrors, len(est))}
	for i, e := range est {
		pts.XYs[i] = plotter.XY{X: float64(i), Y: e.Value}
		pts.YErrors[i].Low, pts.YErrors[i].High = e.Value-e.Low, e.High-e.Value
	}
	line, scatter, err := plotter.NewLinePoints(pts.XYs)
	if err != nil {
		return nil, err
	}
	line.Color, scatter.Color = barColor, barColor
	scatter.Shape = draw.CircleGlyph{}
	eb, err := plotter.NewYErrorBars(pts)
	if err != nil {
		return nil, err
	}
	eb.Color = errorColor
	eb.Width = vg.Points(1.2)
	p.Add(line, scatter, eb)
	if ref != nil {
		r, err := plotter.NewLine(plotter.XYs{{X: -0.5, Y: *ref}, {X: float64(len(est)) - 0.5, Y: *ref}})
		if err != nil {
			return nil, err
		}
		r.Color = color.Gray{Y: 120}
		r.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		p.Add(r)
	}
	p.NominalX(labels...)
	p.X.Min, p.X.Max = -0.5, float64(len(est))-0.5
	if share(est) {
		p.Y.Min, p.Y.Max = 0, 1
	}
	if len(labels) > 6 {
		p.X.Tick.Label.Rotation = 0.5
		p.X.Tick.Label.XAlign = draw.XRight
	}
	return p, nil
}

// grid is a matrix of cell values for a heat map: values[row][col].
type grid [][]float64

func (g grid) Dims() (c, r int)   { return len(g[0]), len(g) }
func (g grid) Z(c, r int) float64 { return g[r][c] }
func (g grid) X(c int) float64    { return float64(c) }
func (g grid) Y(r int) float64    { return float64(r) }

// HeatMap draws values[row][col] for two knobs (columns along x, rows along
// y) on a diverging scale from lo to hi, each cell labelled with its text.
func HeatMap(title, xKnob, yKnob string, xLabels, yLabels []string, values [][]float64, cells [][]string, lo, hi float64) (*plot.Plot, error) {
	if len(values) == 0 || len(values[0]) == 0 {
		return nil, fmt.Errorf("heat map %q has no cells", title)
	}
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xKnob
	p.Y.Label.Text = yKnob
	cmap := moreland.SmoothBlueRed()
	cmap.SetMin(lo)
	cmap.SetMax(hi)
	h := plotter.NewHeatMap(grid(values), cmap.Palette(255))
	h.Min, h.Max = lo, hi
	p.Add(h)
	var labels plotter.XYLabels
	for r, row := range cells {
		for c, s := range row {
			labels.XYs = append(labels.XYs, plotter.XY{X: float64(c), Y: float64(r)})
			labels.Labels = append(labels.Labels, s)
		}
	}
	l, err := plotter.NewLabels(labels)
	if err != nil {
		return nil, err
	}
	for i := range l.TextStyle {
		l.TextStyle[i].XAlign = text.XCenter
		l.TextStyle[i].YAlign = text.YCenter
	}
	p.Add(l)
	p.NominalX(xLabels...)
	p.NominalY(yLabels...)
	p.X.Min, p.X.Max = -0.5, float64(len(xLabels))-0.5
	p.Y.Min, p.Y.Max = -0.5, float64(len(yLabels))-0.5
	return p, nil
}

// share says every estimate lies in [0, 1], as rates and scores do.
func share(est []reports.MetricEstimate) bool {
	for _, e := range est {
		if e.Low < 0 || e.High > 1 {
			return false
		}
	}
	return true
}
